/**
 * Which reader a file needs: from the `format` option, the file name, Terrain's `infoType` and
 * the first bytes. Signatures win over names for binary formats (a `.csv` that starts with
 * `PAR1` is Parquet, one that starts with gzip's magic is compressed); names and info types
 * decide between the text formats; text with an uninformative name is sniffed.
 *
 * @module
 */

import { UnsupportedFormatError } from "./errors.ts";

/**
 * A table format the readers support.
 *
 * @example
 * ```ts
 * import type { TableFormat } from "./formats.ts";
 *
 * const format: TableFormat = "ndjson";
 * ```
 */
export type TableFormat = "csv" | "tsv" | "json" | "ndjson" | "parquet" | "arrow";

/**
 * Every {@linkcode TableFormat}, for option checks and messages.
 *
 * @example
 * ```ts
 * import { TABLE_FORMATS } from "./formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(TABLE_FORMATS.includes("parquet"));
 * ```
 */
export const TABLE_FORMATS: readonly TableFormat[] = Object.freeze([
  "csv",
  "tsv",
  "json",
  "ndjson",
  "parquet",
  "arrow",
]);

/**
 * How a file is to be read.
 *
 * @example
 * ```ts
 * import type { DetectedFormat } from "./formats.ts";
 *
 * const gzippedCsv: DetectedFormat = { format: "csv", gzip: true, sep: "," };
 * ```
 */
export interface DetectedFormat {
  /** The table format (of the decompressed bytes, for gzip). */
  format: TableFormat;
  /** Whether the bytes are gzip-compressed. */
  gzip: boolean;
  /** Field separator for delimited text, when known from the name or the content. */
  sep?: string;
  /** Arrow only: the IPC stream format (no file footer) rather than the file format. */
  arrowStream?: boolean;
}

/**
 * What {@linkcode detectFormat} looks at.
 *
 * @example
 * ```ts
 * import type { FormatClues } from "./formats.ts";
 *
 * const clues: FormatClues = { path: "/a/b.csv", infoType: "csv", head: new Uint8Array() };
 * ```
 */
export interface FormatClues {
  /** The data-store path (its name's extensions are clues; it names the file in errors). */
  path: string;
  /** The name to take extensions from, when not the path's (the name without `.gz`). */
  name?: string;
  /** Terrain's info type, when known. */
  infoType?: string | null;
  /** The first bytes of the file (up to a few KiB; fewer for small files). */
  head: Uint8Array;
  /** A format the caller insists on. */
  format?: TableFormat;
}

/** How many leading bytes detection wants when it can have them. */
export const SNIFF_BYTES = 4096;

const GZIP = [0x1f, 0x8b];
const PARQUET = [0x50, 0x41, 0x52, 0x31]; // "PAR1"
const ARROW_FILE = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"
const ARROW_STREAM = [0xff, 0xff, 0xff, 0xff];

/** Signatures of common formats that are not tables, to say what a file is instead. */
const NOT_TABLES: readonly [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], "a PNG image"],
  [[0xff, 0xd8, 0xff], "a JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "a GIF image"],
  [[0x25, 0x50, 0x44, 0x46], "a PDF document"],
  [[0x50, 0x4b, 0x03, 0x04], "a ZIP archive (unpack it first)"],
  [[0x42, 0x5a, 0x68], "a bzip2 file (only gzip is decompressed)"],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a], "an xz file (only gzip is decompressed)"],
  [[0x28, 0xb5, 0x2f, 0xfd], "a zstd file (only gzip is decompressed)"],
  [[0x49, 0x49, 0x2a, 0x00], "a TIFF image"],
  [[0x4d, 0x4d, 0x00, 0x2a], "a TIFF image"],
  [[0x89, 0x48, 0x44, 0x46], "an HDF5 file"],
];

const BY_EXTENSION: Record<string, TableFormat> = {
  csv: "csv",
  tsv: "tsv",
  tab: "tsv",
  json: "json",
  ndjson: "ndjson",
  jsonl: "ndjson",
  ldjson: "ndjson",
  parquet: "parquet",
  pq: "parquet",
  arrow: "arrow",
  feather: "arrow",
  ipc: "arrow",
  arrows: "arrow",
};

/**
 * The table format a file's name promises (`x.csv.gz` → `csv`), before any byte is read, or
 * `undefined` when the name does not say.
 *
 * @example
 * ```ts
 * import { formatOfName } from "./formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatOfName("flights.PARQUET"), "parquet");
 * assert.equal(formatOfName("penguins.csv.gz"), "csv");
 * assert.equal(formatOfName("README.txt"), undefined);
 * ```
 */
export function formatOfName(name: string): TableFormat | undefined {
  return BY_EXTENSION[extensionOf(name.toLowerCase().replace(/\.gz$/, ""))];
}

/** Names that often hold delimited text but do not say which delimiter. */
const PLAIN_TEXT_EXTENSIONS = new Set(["txt", "dat", "data", "text", ""]);

const DELIMITERS = [",", "\t", ";", "|"];

/**
 * Decides how to read a file, or explains why it cannot be read as a table.
 *
 * @throws {UnsupportedFormatError} naming the file, what it seems to be, and the supported
 * formats.
 *
 * @example
 * ```ts
 * import { detectFormat } from "./formats.ts";
 * import assert from "node:assert/strict";
 *
 * const head = new TextEncoder().encode("a\tb\n1\t2\n");
 * assert.deepEqual(
 *   detectFormat({ path: "/x/table.txt", head }),
 *   { gzip: false, format: "csv", sep: "\t" },
 * );
 * ```
 */
export function detectFormat(clues: FormatClues): DetectedFormat {
  const { path, head } = clues;
  const name = (clues.name ?? path.slice(path.lastIndexOf("/") + 1)).toLowerCase();
  const gzip = startsWith(head, GZIP);
  // For x.csv.gz the format is in the extension before ".gz".
  const extension = extensionOf(name.replace(/\.gz$/, ""));
  const named = BY_EXTENSION[extension];

  if (startsWith(head, PARQUET)) return { format: "parquet", gzip: false };
  if (startsWith(head, ARROW_FILE)) return { format: "arrow", gzip: false };
  const forced = clues.format;
  if (forced === "parquet" || named === "parquet") {
    throw new UnsupportedFormatError(path, "it does not start with Parquet's signature (PAR1)");
  }
  if (forced === "arrow" || named === "arrow") {
    if (startsWith(head, ARROW_STREAM)) return { format: "arrow", gzip: false, arrowStream: true };
    throw new UnsupportedFormatError(
      path,
      "it starts with neither the Arrow IPC file signature (ARROW1) nor an IPC stream message",
    );
  }
  for (const [signature, what] of NOT_TABLES) {
    if (startsWith(head, signature)) throw new UnsupportedFormatError(path, `it is ${what}`);
  }
  if (gzip) {
    // A first guess from the name; the reader decides with innerFormat() once it has the
    // decompressed first bytes.
    const inner = forced ?? named ?? textFormatFromName(clues.infoType) ?? "csv";
    return { gzip: true, ...textFormat(inner) };
  }
  if (!isText(head)) {
    throw new UnsupportedFormatError(
      path,
      "its content is binary, not text",
      'If it is a table in another format, convert it first; if it is text, pass format: "csv".',
    );
  }
  if (forced !== undefined) return { gzip: false, ...textFormat(forced, head) };
  if (named !== undefined) return { gzip: false, ...textFormat(named, head) };
  const typed = textFormatFromName(clues.infoType);
  if (typed !== undefined) return { gzip: false, ...textFormat(typed, head) };
  if (!PLAIN_TEXT_EXTENSIONS.has(extension)) {
    throw new UnsupportedFormatError(
      path,
      `its name (.${extension}) does not say it is a table`,
      'Pass format: "csv" (or "tsv", "json", "ndjson") to read it anyway.',
    );
  }
  const sniffed = sniffText(head);
  if (sniffed !== undefined) return { gzip: false, ...sniffed };
  throw new UnsupportedFormatError(
    path,
    "it looks like plain text, not a delimited table or JSON",
    'Pass format: "csv" (or "tsv", "json", "ndjson") to read it anyway.',
  );
}

/**
 * The format inside a gzip file, decided like {@linkcode detectFormat} from the name without
 * `.gz` and the first decompressed bytes.
 *
 * @throws {UnsupportedFormatError} when the content is not a supported text format.
 *
 * @example
 * ```ts
 * import { innerFormat } from "./formats.ts";
 * import assert from "node:assert/strict";
 *
 * const head = new TextEncoder().encode('{"a":1}\n{"a":2}\n');
 * assert.deepEqual(innerFormat({ path: "/x/events.gz", head }), { gzip: true, format: "ndjson" });
 * ```
 */
export function innerFormat(clues: FormatClues): DetectedFormat {
  const name = (clues.name ?? clues.path.slice(clues.path.lastIndexOf("/") + 1)).replace(
    /\.gz$/i,
    "",
  );
  const inner = detectFormat({ ...clues, name });
  if (inner.gzip || inner.format === "parquet" || inner.format === "arrow") {
    throw new UnsupportedFormatError(
      clues.path,
      `the gzip file holds ${inner.gzip ? "another gzip file" : inner.format}, not text`,
    );
  }
  return { ...inner, gzip: true };
}

function textFormat(format: TableFormat, head?: Uint8Array): Omit<DetectedFormat, "gzip"> {
  if (format === "tsv") return { format: "csv", sep: "\t" };
  if (format === "csv") {
    return { format: "csv", ...(head === undefined ? {} : { sep: sniffSeparator(head, ",") }) };
  }
  // A ".json" file holding one object per line is JSON Lines.
  if (format === "json" && head !== undefined && looksLikeJsonLines(head)) {
    return { format: "ndjson" };
  }
  return { format };
}

function textFormatFromName(infoType: string | null | undefined): TableFormat | undefined {
  if (infoType === "csv") return "csv";
  if (infoType === "tsv") return "tsv";
  return undefined;
}

function sniffText(head: Uint8Array): Omit<DetectedFormat, "gzip"> | undefined {
  const text = decodeHead(head).trimStart();
  if (text.startsWith("[")) return { format: "json" };
  if (text.startsWith("{")) {
    return looksLikeJsonLines(head) ? { format: "ndjson" } : { format: "json" };
  }
  const lines = completeLines(text).slice(0, 20);
  if (lines.length < 2) return undefined;
  for (const delimiter of DELIMITERS) {
    const counts = lines.map((line) => line.split(delimiter).length - 1);
    if (counts[0] > 0 && counts.every((count) => count === counts[0])) {
      return { format: "csv", sep: delimiter };
    }
  }
  return undefined;
}

/**
 * A ".csv" usually means commas, but files named `.csv` with semicolons (common where the
 * decimal mark is a comma) or tabs exist: when the header has none of the expected separator
 * and the first lines agree on another one, that one is used.
 */
function sniffSeparator(head: Uint8Array, expected: string): string {
  const lines = completeLines(decodeHead(head)).slice(0, 20);
  if (lines.length === 0 || lines[0].includes(expected)) return expected;
  for (const delimiter of DELIMITERS) {
    const counts = lines.map((line) => line.split(delimiter).length - 1);
    if (counts[0] > 0 && counts.every((count) => count === counts[0])) return delimiter;
  }
  return expected;
}

function looksLikeJsonLines(head: Uint8Array): boolean {
  const lines = completeLines(decodeHead(head)).map((line) => line.trim()).filter((line) =>
    line !== ""
  );
  return lines.length >= 2 && lines.every((line) => line.startsWith("{") && line.endsWith("}"));
}

/** The lines of `text` that end before its last line feed (the last may be cut off). */
function completeLines(text: string): string[] {
  const end = text.lastIndexOf("\n");
  if (end < 0) return text === "" ? [] : [text];
  return text.slice(0, end).split("\n").map((line) => line.replace(/\r$/, ""));
}

function decodeHead(head: Uint8Array): string {
  return new TextDecoder().decode(head).replace(/^\uFEFF/, "");
}

/** UTF-8 without NUL bytes; a multi-byte character cut by the end of `head` is allowed. */
function isText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  let end = head.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = head[end - back];
    if ((byte & 0xc0) === 0xc0) {
      end -= back;
      break;
    }
    if ((byte & 0x80) === 0) break;
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1);
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);
}
