/**
 * Which table reader a file needs: from the reader a caller insists on, the file name, Terrain's
 * info type and the first bytes, all read from the format table in `file_formats.ts`.
 * Signatures win over names for binary formats (a `.csv` that starts with `PAR1` is Parquet, one
 * that starts with gzip's magic is compressed); names and info types decide between the text
 * formats; text with an uninformative name is sniffed.
 *
 * A leaf module like the table it reads: a file that is no table is an
 * {@linkcode UnsupportedFormat} answer, which the data readers raise as their typed error.
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
} from "./file_formats.ts";

/**
 * How a file is to be read.
 *
 * @example
 * ```ts
 * import type { DetectedFormat } from "./format_detection.ts";
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
  /**
   * Delimited text only: `"\r"` when its lines end with a lone carriage return (as classic
   * Mac OS and old Excel for Mac wrote them), absent when they end with a line feed.
   */
  lineEnd?: "\r";
}

/**
 * Why a file cannot be read as a table: `unsupported` completes "Cannot read … as a table: ";
 * `hint`, when there is one, says what to do.
 *
 * @example
 * ```ts
 * import type { UnsupportedFormat } from "./format_detection.ts";
 *
 * const binary: UnsupportedFormat = { unsupported: "its content is binary, not text" };
 * ```
 */
export interface UnsupportedFormat {
  /** What the file is found to be. */
  unsupported: string;
  /** A sentence on how to read it anyway, when there is a way. */
  hint?: string;
}

/**
 * What {@linkcode detectTableFormat} looks at.
 *
 * @example
 * ```ts
 * import type { FormatClues } from "./format_detection.ts";
 *
 * const clues: FormatClues = { path: "/a/b.csv", infoType: "csv", head: new Uint8Array() };
 * ```
 */
export interface FormatClues {
  /** The data-store path (its name's extensions are clues). */
  path: string;
  /** The name to take extensions from, when not the path's (the name without `.gz`). */
  name?: string;
  /** Terrain's info type, when known. */
  infoType?: string | null;
  /** The first bytes of the file (up to {@linkcode SNIFF_BYTES}; fewer for small files). */
  head: Uint8Array;
  /** A format the caller insists on. */
  format?: TableFormat;
}

/**
 * How many leading bytes format detection wants when it can have them (the embedded server
 * sniffs media types from as many).
 *
 * @example
 * ```ts
 * import { SNIFF_BYTES } from "./format_detection.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SNIFF_BYTES, 4096);
 * ```
 */
export const SNIFF_BYTES = 4096;

const [GZIP] = formatOfExtension("gz")!.magic!;
const [PARQUET] = tableFormat("parquet").magic!;
const [ARROW_FILE] = tableFormat("arrow").magic!;
/** Not a signature (the message length's continuation marker): trusted only once the name or
 * the caller says Arrow. */
const ARROW_STREAM = [0xff, 0xff, 0xff, 0xff];
/** Names that often hold delimited text but do not say which delimiter. */
const PLAIN_TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  "",
  ...formatOfExtension("txt")!.extensions,
]);
const DELIMITERS = [",", "\t", ";", "|"];
const NOT_COMMA = DELIMITERS.slice(1);
const FORCE_HINT = 'Pass format: "csv" (or "tsv", "json", "ndjson") to read it anyway.';

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
 * import { formatOfName } from "./format_detection.ts";
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

/**
 * The table format Terrain's info type names (it types CSV and TSV), if any.
 *
 * @example
 * ```ts
 * import { formatOfInfo } from "./format_detection.ts";
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

/**
 * Decides how to read a file, or says why it cannot be read as a table.
 *
 * @example
 * ```ts
 * import { detectTableFormat } from "./format_detection.ts";
 * import assert from "node:assert/strict";
 *
 * const head = new TextEncoder().encode("a\tb\n1\t2\n");
 * assert.deepEqual(
 *   detectTableFormat({ path: "/x/table.txt", head }),
 *   { gzip: false, format: "csv", sep: "\t" },
 * );
 * const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
 * assert.deepEqual(detectTableFormat({ path: "/x/plot.csv", head: png }), {
 *   unsupported: "it is a PNG image",
 * });
 * ```
 */
export function detectTableFormat(clues: FormatClues): DetectedFormat | UnsupportedFormat {
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
    return { unsupported: "it does not start with Parquet's signature (PAR1)" };
  }
  if (forced === "arrow" || named === "arrow") {
    if (startsWith(head, ARROW_STREAM)) return { format: "arrow", gzip: false, arrowStream: true };
    return {
      unsupported:
        "it starts with neither the Arrow IPC file signature (ARROW1) nor an IPC stream message",
    };
  }
  const signed = formatOfContent(head);
  if (signed?.id === "zip" && (forced === "excel" || named === "excel" || isWorkbook(head))) {
    return { format: "excel", gzip: false };
  }
  if (forced === "excel" || named === "excel") {
    const what = signed === undefined ? "" : ` (it is ${withArticle(signed.label)})`;
    return {
      unsupported: `it is not an Excel workbook (.xlsx), which is a zip archive${what}`,
      ...(signed?.hint === undefined
        ? {}
        : { hint: `${signed.hint[0].toUpperCase()}${signed.hint.slice(1)}.` }),
    };
  }
  if (signed !== undefined && signed.id !== "gzip") {
    const hint = signed.hint === undefined ? "" : ` (${signed.hint})`;
    return { unsupported: `it is ${withArticle(signed.label)}${hint}` };
  }
  if (gzip) {
    // A first guess from the name; the reader decides with innerTableFormat() once it has the
    // decompressed first bytes.
    const inner = forced ?? named ?? formatOfInfo(clues.infoType) ?? "csv";
    return { gzip: true, ...textFormat(inner) };
  }
  const chosen = forced ?? named ?? formatOfInfo(clues.infoType);
  // A format the caller insists on is read as text, whatever the bytes. Text named a table but
  // not UTF-8 (no NUL bytes) goes on to the reader, which says which byte is not.
  if (forced === undefined && (chosen === undefined || head.includes(0)) && !looksLikeText(head)) {
    if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) {
      return {
        unsupported: "it is UTF-16 text (it starts with a byte-order mark)",
        hint: 'Pass encoding: "utf-16".',
      };
    }
    return {
      unsupported: "its content is binary, not text",
      hint: "If it is a table in another format, convert it first; if it is text, pass " +
        'format: "csv" and, unless it is UTF-8, its encoding (e.g. encoding: "latin-1").',
    };
  }
  if (forced === undefined && (chosen === "csv" || chosen === "tsv")) {
    const other = otherText(head);
    if (other !== undefined) return other;
  }
  if (chosen !== undefined) return { gzip: false, ...textFormat(chosen, head) };
  if (!PLAIN_TEXT_EXTENSIONS.has(extension)) {
    return { unsupported: `its name (.${extension}) does not say it is a table`, hint: FORCE_HINT };
  }
  const sniffed = sniffText(head);
  return "unsupported" in sniffed ? sniffed : { gzip: false, ...sniffed };
}

/**
 * The format inside a gzip file, decided like {@linkcode detectTableFormat} from the name
 * without `.gz` and the first decompressed bytes.
 *
 * @example
 * ```ts
 * import { innerTableFormat } from "./format_detection.ts";
 * import assert from "node:assert/strict";
 *
 * const head = new TextEncoder().encode('{"a":1}\n{"a":2}\n');
 * assert.deepEqual(innerTableFormat({ path: "/x/events.gz", head }), { gzip: true, format: "ndjson" });
 * const parquet = new TextEncoder().encode("PAR1");
 * assert.deepEqual(innerTableFormat({ path: "/x/t.gz", head: parquet }), {
 *   unsupported: "the gzip file holds parquet, not text",
 * });
 * ```
 */
export function innerTableFormat(clues: FormatClues): DetectedFormat | UnsupportedFormat {
  const name = clues.name ?? clues.path.slice(clues.path.lastIndexOf("/") + 1);
  const inner = detectTableFormat({ ...clues, name: name.replace(/\.gz$/i, "") });
  if ("unsupported" in inner) return inner;
  if (inner.gzip || ["parquet", "arrow", "excel"].includes(inner.format)) {
    return {
      unsupported: `the gzip file holds ${
        inner.gzip ? "another gzip file" : inner.format
      }, not text`,
    };
  }
  return { ...inner, gzip: true };
}

function textFormat(format: TableFormat, head?: Uint8Array): Omit<DetectedFormat, "gzip"> {
  if (format === "csv") {
    if (head === undefined) return { format: "csv" };
    // A ".csv" usually means commas, but files named `.csv` with semicolons (common where the
    // decimal mark is a comma) or tabs exist: when the first lines agree on another separator,
    // that one is used. A header with a comma (`Temp, °C;Rain, mm`, `id;0,5`) means commas
    // unless two lines or more, their quoted text left out, agree on another delimiter: they
    // may agree on commas too, as decimal commas come as many to a line as the header's, and
    // read with commas such a file's columns would be cut at each decimal mark.
    // Only commas can be agreed on without another delimiter's byte: no decode needed.
    if (!OTHER_DELIMITERS.some((byte) => head.includes(byte))) {
      return { format: "csv", sep: ",", ...lineEndOf(head) };
    }
    const text = decodeHead(head);
    const lines = filledLines(text);
    // The header is the first line that is not blank, whole or cut off by the head's end.
    const comma = (text.split("\n").find((line) => line.trim() !== "") ?? "").includes(",");
    if (comma && lines.length < 2) return { format: "csv", sep: ",", ...lineEndOf(head) };
    const sep = comma
      ? agreedDelimiter(lines.map((line) => line.replace(/"[^"]*"/g, "")), NOT_COMMA) ?? ","
      : agreedDelimiter(lines) ?? ",";
    return { format: "csv", sep, ...lineEndOf(head) };
  }
  if (format === "tsv") return { format: "csv", sep: "\t", ...lineEndOf(head) };
  // A ".json" file holding one object per line is JSON Lines.
  if (format === "json" && head !== undefined && looksLikeJsonLines(head)) {
    return { format: "ndjson" };
  }
  return { format };
}

/**
 * Whether a zip's first entries (the local headers within `head`) include a workbook part
 * (`xl/…`): Excel puts `xl/workbook.xml` among its first entries, other writers at least a
 * sheet or the styles, and a zip of anything else has no `xl/` folder.
 */
function isWorkbook(head: Uint8Array): boolean {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  for (let at = 0; at + 30 <= head.length && view.getUint32(at, true) === 0x04034b50;) {
    const nameLength = view.getUint16(at + 26, true);
    const name = new TextDecoder().decode(head.subarray(at + 30, at + 30 + nameLength));
    if (name.startsWith("xl/")) return true;
    // Bit 3: the sizes follow the data, so the next header cannot be found from here.
    if ((view.getUint16(at + 6, true) & 0x08) !== 0) return false;
    at += 30 + nameLength + view.getUint16(at + 28, true) + view.getUint32(at + 18, true);
  }
  return false;
}

/** "a PNG image", "an xz file", "an HDF5 file": the article follows the label's sound. */
function withArticle(label: string): string {
  return `${/^(?:[aeiouAEIOU]|x[a-z]|[FHLMNRSX][A-Z0-9])/.test(label) ? "an" : "a"} ${label}`;
}

function sniffText(head: Uint8Array): Omit<DetectedFormat, "gzip"> | UnsupportedFormat {
  const text = decodeHead(head).trimStart();
  if (text.startsWith("[")) return { format: "json" };
  if (text.startsWith("{")) {
    return looksLikeJsonLines(head) ? { format: "ndjson" } : { format: "json" };
  }
  const lines = completeLines(text).slice(0, 20);
  const sep = lines.length < 2 ? undefined : agreedDelimiter(lines);
  if (sep !== undefined) return { format: "csv", sep, ...lineEndOf(head) };
  return {
    unsupported: "it looks like plain text, not a delimited table or JSON",
    hint: FORCE_HINT,
  };
}

/** The first delimiter that every line holds as many times as the first (at least once). */
function agreedDelimiter(lines: string[], delimiters = DELIMITERS): string | undefined {
  return delimiters.find((delimiter) => {
    const counts = lines.map((line) => line.split(delimiter).length - 1);
    return counts[0] > 0 && counts.every((count) => count === counts[0]);
  });
}

function looksLikeJsonLines(head: Uint8Array): boolean {
  const lines = completeLines(decodeHead(head)).map((line) => line.trim()).filter(Boolean);
  return lines.length >= 2 && lines.every((line) => line.startsWith("{") && line.endsWith("}"));
}

/**
 * The first 20 complete lines of `text` that are not blank: a blank line holds no delimiter to
 * agree on, and the reader drops it.
 */
function filledLines(text: string): string[] {
  return completeLines(text).filter((line) => line.trim() !== "").slice(0, 20);
}

/** The lines of `text` that end before its last line feed (the last may be cut off). */
function completeLines(text: string): string[] {
  const end = text.lastIndexOf("\n");
  if (end < 0) return text === "" ? [] : [text];
  return text.slice(0, end).split("\n").map((line) => line.replace(/\r$/, ""));
}

/**
 * Why text named delimited is not: an HTML or XML page (a proxy's or portal's error page saved
 * as the data is the usual one) or JSON, which Polars would read as a table of their lines.
 * A bracketed header (`[id],[name]`, as SQL Server exports write) is still delimited text.
 */
function otherText(head: Uint8Array): UnsupportedFormat | undefined {
  const text = decodeHead(head).trimStart();
  if (/^<(?:!doctype\s+html|html|head|body|\?xml)[\s>]/i.test(text)) {
    const what = /^<\?xml/i.test(text) ? "XML" : "an HTML page";
    return {
      unsupported: `it is ${what}, not delimited text (perhaps an error page saved as the data)`,
      hint: 'Pass format: "csv" to read it as delimited text anyway.',
    };
  }
  if (/^(?:\{\s*["}]|\[\s*(?:[{["\]]|$))/.test(text)) {
    return {
      unsupported: "it holds JSON, not delimited text",
      hint: 'Pass format: "json" (or "ndjson", one object per line) to read it as JSON.',
    };
  }
  return undefined;
}

/** Text whose first bytes hold carriage returns but no line feed ends its lines with CR. */
function lineEndOf(head: Uint8Array | undefined): { lineEnd?: "\r" } {
  return head !== undefined && head.includes(CR) && !head.includes(LF) ? { lineEnd: "\r" } : {};
}

/** The text of the first bytes, lines ending with a lone CR read as ending with LF. */
function decodeHead(head: Uint8Array): string {
  const text = DECODER.decode(head).replace(/^\uFEFF/, "");
  return lineEndOf(head).lineEnd === undefined ? text : text.replaceAll("\r", "\n");
}

const CR = 0x0d;
const LF = 0x0a;
/** The bytes of {@linkcode NOT_COMMA}. */
const OTHER_DELIMITERS = NOT_COMMA.map((delimiter) => delimiter.charCodeAt(0));
/** One decoder for every head: a decode without `stream` keeps no state between calls. */
const DECODER = new TextDecoder();
