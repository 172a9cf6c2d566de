/**
 * Which reader a file needs: from the `format` option, the file name, Terrain's `infoType` and
 * the first bytes. Signatures win over names for binary formats (a `.csv` that starts with
 * `PAR1` is Parquet, one that starts with gzip's magic is compressed); names and info types
 * decide between the text formats; text with an uninformative name is sniffed.
 *
 * @module
 */

import {
  extensionOf,
  formatOfContent,
  formatOfExtension,
  formatOfInfoType,
  looksLikeText,
  startsWithBytes as startsWith,
  type TableFormat,
  tableFormat,
} from "../registry/file_formats.ts";
import { UnsupportedFormatError } from "./errors.ts";

export { TABLE_FORMATS, type TableFormat } from "../registry/file_formats.ts";

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

const [GZIP] = formatOfExtension("gz")!.magic!;
const [PARQUET] = tableFormat("parquet").magic!;
const [ARROW_FILE] = tableFormat("arrow").magic!;
/** Not a signature (the message length's continuation marker): trusted only once the name or
 * the caller says Arrow. */
const ARROW_STREAM = [0xff, 0xff, 0xff, 0xff];

/** The table format an extension (without `.gz`) names. */
function tableFormatOf(extension: string): TableFormat | undefined {
  return formatOfExtension(extension)?.table?.reader as TableFormat | undefined;
}

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
  return tableFormatOf(extensionOf(name.toLowerCase().replace(/\.gz$/, "")));
}

/** Names that often hold delimited text but do not say which delimiter. */
const PLAIN_TEXT_EXTENSIONS = new Set(["", ...formatOfExtension("txt")!.extensions]);

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
  const named = tableFormatOf(extension);

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
  const signed = formatOfContent(head);
  if (signed !== undefined && signed.id !== "gzip") {
    const hint = signed.hint === undefined ? "" : ` (${signed.hint})`;
    throw new UnsupportedFormatError(path, `it is ${withArticle(signed.label)}${hint}`);
  }
  if (gzip) {
    // A first guess from the name; the reader decides with innerFormat() once it has the
    // decompressed first bytes.
    const inner = forced ?? named ?? formatOfInfo(clues.infoType) ?? "csv";
    return { gzip: true, ...textFormat(inner) };
  }
  if (!looksLikeText(head)) {
    throw new UnsupportedFormatError(
      path,
      "its content is binary, not text",
      'If it is a table in another format, convert it first; if it is text, pass format: "csv".',
    );
  }
  if (forced !== undefined) return { gzip: false, ...textFormat(forced, head) };
  if (named !== undefined) return { gzip: false, ...textFormat(named, head) };
  const typed = formatOfInfo(clues.infoType);
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
  const name = clues.name ?? clues.path.slice(clues.path.lastIndexOf("/") + 1);
  const inner = detectFormat({ ...clues, name: name.replace(/\.gz$/i, "") });
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

/**
 * The table format Terrain's info type names (it types CSV and TSV), if any.
 *
 * @example
 * ```ts
 * import { formatOfInfo } from "./formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatOfInfo("tsv"), "tsv");
 * assert.equal(formatOfInfo(null), undefined);
 * ```
 */
export function formatOfInfo(infoType: string | null | undefined): TableFormat | undefined {
  if (infoType === null || infoType === undefined) return undefined;
  return formatOfInfoType(infoType)?.table?.reader as TableFormat | undefined;
}

/** "a PNG image", "an xz file", "an HDF5 file": the article follows the label's sound. */
function withArticle(label: string): string {
  return `${/^(?:[aeiouAEIOU]|x[a-z]|[FHLMNRSX][A-Z0-9])/.test(label) ? "an" : "a"} ${label}`;
}

function sniffText(head: Uint8Array): Omit<DetectedFormat, "gzip"> | undefined {
  const text = decodeHead(head).trimStart();
  if (text.startsWith("[")) return { format: "json" };
  if (text.startsWith("{")) {
    return looksLikeJsonLines(head) ? { format: "ndjson" } : { format: "json" };
  }
  const lines = completeLines(text).slice(0, 20);
  const sep = lines.length < 2 ? undefined : agreedDelimiter(lines);
  return sep === undefined ? undefined : { format: "csv", sep };
}

/**
 * A ".csv" usually means commas, but files named `.csv` with semicolons (common where the
 * decimal mark is a comma) or tabs exist: when the header has none of the expected separator
 * and the first lines agree on another one, that one is used.
 */
function sniffSeparator(head: Uint8Array, expected: string): string {
  const lines = completeLines(decodeHead(head)).slice(0, 20);
  if (lines.length === 0 || lines[0].includes(expected)) return expected;
  return agreedDelimiter(lines) ?? expected;
}

/** The first delimiter that every line holds as many times as the first (at least once). */
function agreedDelimiter(lines: string[]): string | undefined {
  return DELIMITERS.find((delimiter) => {
    const counts = lines.map((line) => line.split(delimiter).length - 1);
    return counts[0] > 0 && counts.every((count) => count === counts[0]);
  });
}

function looksLikeJsonLines(head: Uint8Array): boolean {
  const lines = completeLines(decodeHead(head)).map((line) => line.trim()).filter(Boolean);
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
