/**
 * The Polars calls: batches of delimited text or JSON Lines parsed one by one with a schema
 * fixed by the first, and whole files (from a local path when Polars accepts one, else from
 * bytes). Polars failures become {@linkcode ParseError}s naming the file and where in it.
 *
 * Types are never narrower than the data needs, whatever the batch boundaries: an integer
 * column of delimited text that meets a decimal value is widened to Float64 (as Polars infers
 * when it sees both) and the batch parsed again, and JSON types come from every row rather
 * than Polars' default of the first 100, which silently drops keys first seen later and
 * truncates or rejects decimals in a column that began with integers.
 *
 * @module
 */

import type { Buffer } from "node:buffer";
import type { DataFrame, DataType, Expr, Series } from "../deps.ts";
import { tableFormat } from "../registry/file_formats.ts";
import { type DateColumn, dateColumns, dateHint, mayHoldDates, readDated } from "./dates.ts";
import { columnsOfType } from "../polars/adapter.ts";
import { TernError } from "../client/errors.ts";
import { ParseError, polarsReason } from "./errors.ts";
import { collect, gunzip, joinBytes, peek } from "./chunks.ts";
import { decodes, invalidUtf8At, toUtf8, utf8Head, wholeToUtf8 } from "./encoding.ts";
import { type DetectedFormat, SNIFF_BYTES } from "../registry/format_detection.ts";
import { innerFormat } from "./formats.ts";
import { asRecords } from "./json_layout.ts";
import {
  DECIMAL_COMMA_NUMBER,
  decimalPoints,
  extraFieldsEmpty,
  hasBlankLine,
  LineFilter,
  RecordSplitter,
  withoutBlankLines,
} from "./records.ts";
import type { DataFrameOptions } from "./options.ts";
import { asBuffer, defined, type Polars } from "./polars.ts";

/**
 * Parses one file, whole or in batches in order, stopping at `nRows`. For delimited text the
 * first batch fixes the schema (column names and types, from the header and the first
 * `inferSchemaLength` rows, with `dtypes` applied), and every later batch is parsed with exactly
 * that schema, so the frames stack without copies; an integer column that meets a decimal value
 * is widened to Float64 from that batch on (joining the frames then widens the earlier ones).
 * JSON Lines batches take their types from all their rows, and frames of different types are
 * joined with common supertypes.
 *
 * @example
 * ```ts
 * import { BatchParser } from "./parse.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const parser = new BatchParser(pl, { format: "csv", gzip: false, sep: "," }, {}, "/a/b.csv");
 * const first = parser.parse(new TextEncoder().encode("x,y\n1,2\n"));
 * const second = parser.parse(new TextEncoder().encode("3,4\n5.5,6\n")); // no header: same schema
 * assert.deepEqual(second.columns, first.columns);
 * assert.deepEqual(second.getColumn("x").toArray(), [3, 5.5]); // widened to Float64 by 5.5
 * const third = parser.parse(new TextEncoder().encode("7,8\n"));
 * assert.equal(String(third.getColumn("x").dtype), String(pl.Float64)); // and so it stays
 * ```
 */
export class BatchParser {
  readonly #pl: Polars;
  readonly #format: DetectedFormat;
  readonly #options: DataFrameOptions;
  readonly #path: string;
  // Delimited text: what the first batch fixed for the later ones, and the integer columns
  // widened to Float64 (or to text, beyond Int64) so far. The schema is taken from the first
  // batch's frame only when a second batch comes: a whole file is one batch, and a wide frame's
  // types cost a pass over every column.
  #first?: DataFrame;
  #schema?: Record<string, DataType>;
  #dates?: Record<string, DateColumn>;
  #columns?: string[];
  // A map, as column names are data: a key `__proto__` of a plain object is its prototype.
  readonly #widened = new Map<string, DataType>();
  // `decimalComma`: the columns (by place in the file) read as text, whose fields keep their
  // commas, as pandas turns a column to numbers only when each of its fields is one.
  readonly #textColumns = new Set<number>();
  #bytes = 0;
  #rows = 0;

  /**
   * Creates a parser for one file.
   *
   * @param pl nodejs-polars.
   * @param format How the file was detected (`csv`, `ndjson`, or `json` read whole).
   * @param options The reader options.
   * @param path The data-store path, for error messages.
   *
   * @example
   * ```ts
   * import { BatchParser } from "./parse.ts";
   * import { loadPolars } from "./polars.ts";
   * import assert from "node:assert/strict";
   *
   * const pl = await loadPolars();
   * const ndjson = { format: "ndjson", gzip: false } as const;
   * const parser = new BatchParser(pl, ndjson, { columns: ["b"] }, "/a/b.ndjson");
   * const frame = parser.parse(new TextEncoder().encode('{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n'));
   * assert.deepEqual(frame.getColumn("b").toArray(), ["x", "y"]);
   * ```
   */
  constructor(pl: Polars, format: DetectedFormat, options: DataFrameOptions, path: string) {
    this.#pl = pl;
    this.#format = format;
    this.#options = options;
    this.#path = path;
  }

  /** Whether `nRows` rows are in. */
  get done(): boolean {
    return this.#rows >= (this.#options.nRows ?? Infinity);
  }

  /**
   * Parses one batch of whole records (a local file's path: all of it), keeping at most the
   * rows `nRows` still wants.
   *
   * @throws {ParseError} when Polars cannot parse it.
   *
   * @example
   * ```ts
   * import { BatchParser } from "./parse.ts";
   * import { loadPolars } from "./polars.ts";
   * import assert from "node:assert/strict";
   *
   * const pl = await loadPolars();
   * const csv = { format: "csv", gzip: false, sep: "," } as const;
   * const parser = new BatchParser(pl, csv, { nRows: 2 }, "/a/b.csv");
   * assert.equal(parser.parse(new TextEncoder().encode("x\n1\n2\n3\n")).height, 2);
   * assert.ok(parser.done);
   * ```
   */
  parse(batch: Uint8Array | string): DataFrame {
    const { format, gzip } = this.#format;
    const o = this.#options;
    const at = this.#bytes;
    const commas = o.decimalComma && format === "csv" ? new Set<number>() : undefined;
    const points = commas === undefined ? batch : this.#decimalPoints(batch, at === 0, commas);
    const input = typeof points === "string" ? points : asBuffer(points);
    const first = this.#dates === undefined;
    this.#bytes += typeof input === "string" ? 0 : input.length;
    // Polars' row limit is only approximate when parsing in parallel, hence the slice.
    const left = o.nRows === undefined ? undefined : o.nRows - this.#rows;
    try {
      let frame = format === "json" || format === "ndjson"
        ? shape(
          this.#pl,
          asText(this.#pl, readJsonText(this.#pl, input, format, o, this.#path)),
          o,
          this.#path,
        )
        : this.#withoutBlankLines(input, left === 0 ? 1 : left);
      if (commas !== undefined && this.#textChanged(commas)) {
        // Read again with those columns as written: their commas were text, not decimal marks.
        if (first) [this.#first, this.#dates, this.#columns] = [undefined, undefined, undefined];
        const again = asBuffer(this.#decimalPoints(batch, at === 0));
        frame = this.#withoutBlankLines(again, left === 0 ? 1 : left);
      }
      const kept = limitRows(frame, left);
      this.#rows += kept.height;
      return kept;
    } catch (error) {
      // Polars' readers say "invalid utf-8", "did not contain valid UTF-8" or "InvalidUtf8".
      const bad = /utf-?8/i.test(String(error)) ? invalidUtf8In(input) : undefined;
      if (bad !== undefined) throw notUtf8(this.#path, at + bad.at, bad.byte, gzip, error);
      // A first line of `#` is most often a comment, which Polars reads as the header.
      const commented = format === "csv" && at === 0 && o.commentPrefix === undefined &&
        !o.skipRows && textRead(input)[0] === 0x23;
      throw parseError(
        error,
        this.#path,
        `Could not parse ${JSON.stringify(this.#path)} as ${formatName(this.#format)} (from byte ` +
          `${at} of the ${gzip ? "decompressed " : ""}file, after ${this.#rows} rows)`,
        commented ? COMMENT_HINT : "",
      );
    }
  }

  /**
   * The batch with its decimal commas made points ({@linkcode decimalPoints}) but in the columns
   * read as text, the columns changed added to `changed`.
   */
  #decimalPoints(batch: Uint8Array | string, start: boolean, changed?: Set<number>): Uint8Array {
    const { sep, quoteChar, hasHeader } = this.#options;
    const delimiting = { sep: sep ?? this.#format.sep ?? ",", quoteChar };
    const eolChar = this.#format.lineEnd ?? "\n";
    const header = start && hasHeader !== false;
    const columns = { text: this.#textColumns, changed };
    return decimalPoints(textRead(batch), { ...delimiting, eolChar }, header, columns);
  }

  /**
   * Whether a column whose commas were made points was read as text all the same (`1,2` among
   * names): it joins the text columns, to be read again as written.
   */
  #textChanged(changed: Set<number>): boolean {
    if (changed.size === 0) return false;
    const types = this.#first?.dtypes ?? Object.values(this.#schema ?? {});
    const text = [...changed].filter((column) => types[column]?.equals(this.#pl.String));
    for (const column of text) this.#textColumns.add(column);
    return text.length > 0;
  }

  /**
   * Reads delimited text of two columns or more as if its blank lines (outside quotes) were not
   * there, as pandas and R skip them: Polars reads each as a row of nulls, where a record of
   * nulls has its separators (`,,`). Text that has blank lines is read twice. Only a frame whose
   * every column holds a null can have come from one, which Polars' counts tell without a pass
   * over the rows; only then are the bytes searched.
   */
  #withoutBlankLines(input: string | Buffer, nRows: number | undefined): DataFrame {
    const first = this.#dates === undefined;
    const frame = this.#delimited(input, nRows);
    const end = (this.#format.lineEnd ?? "\n").charCodeAt(0);
    // A small text without such a line says so sooner than a look at the frame's first column.
    if (typeof input !== "string" && input.length <= SCANNED_BYTES && !blankLike(input, end)) {
      return frame;
    }
    // Each read of the frame lists its columns (its Proxy): the first column's checks come first.
    const lead = frame.toSeries(0);
    const spaces = spacesOnly(lead);
    if (!spaces && lead.nullCount() === 0) return frame;
    if (frame.width < 2 || !othersHaveNulls(this.#pl, frame, lead.name)) return frame;
    const text = textRead(input);
    if (!spaces && !hasBlankLine(text, end)) return frame;
    const quote = (this.#options.quoteChar ?? '"').charCodeAt(0);
    const sep = (this.#options.sep ?? this.#format.sep ?? ",").charCodeAt(0);
    const kept = withoutBlankLines(text, end, quote, sep);
    if (kept === undefined) return frame;
    if (first) [this.#first, this.#dates, this.#columns] = [undefined, undefined, undefined];
    return this.#delimited(asBuffer(kept), nRows);
  }

  /**
   * Reads delimited text with the date columns as dates ({@linkcode readDated}); while Polars
   * reports an integer column that met a decimal value, reads again with that column as
   * Float64, kept so for the later batches. Each retry widens one more column, so it ends; a
   * column the caller typed with `dtypes` is never widened.
   */
  #delimited(input: string | ReturnType<typeof asBuffer>, nRows: number | undefined): DataFrame {
    const pl = this.#pl;
    const o = this.#options;
    if (this.#first !== undefined) {
      // Built from the dtypes: a wide frame's `schema` getter costs far more.
      const types = this.#first.dtypes;
      this.#schema = Object.fromEntries(this.#first.columns.map((name, i) => [name, types[i]]));
      this.#first = undefined;
    }
    const [schema, columns, widened] = [this.#schema, this.#columns, this.#widened];
    const text = {
      sep: o.sep ?? this.#format.sep ?? ",",
      hasHeader: schema === undefined && (o.hasHeader ?? true),
      ...defined({
        quoteChar: o.quoteChar,
        nullValues: o.nullValues,
        eolChar: this.#format.lineEnd,
      }),
    };
    // nodejs-polars' default drops a row's fields beyond the header's silently; they are
    // dropped only once seen to be empty (a trailing delimiter on the data lines alone).
    let truncateRaggedLines = false;
    const read = (types: Record<string, DataType>) =>
      pl.readCSV(input, {
        ...text,
        truncateRaggedLines,
        rechunk: false,
        ...(schema === undefined
          ? { dtypes: { ...Object.fromEntries(widened), ...types, ...o.dtypes } }
          : { schema: { ...schema, ...Object.fromEntries(widened), ...types } }),
        ...defined({ inferSchemaLength: o.inferSchemaLength, nRows, columns }),
      });
    while (true) {
      try {
        if (this.#dates !== undefined) return readDated(pl, this.#dates, read);
        // The first batch: read with inferred types, its text columns judged for dates, and its
        // schema and columns fixing those of the later batches.
        const inferred = read({});
        let dates: Record<string, DateColumn>;
        try {
          // Either branch asks for the frame's types once, which throws for Int128.
          const examine = o.tryParseDates !== false &&
            (typeof input === "string" || mayHoldDates(input));
          dates = examine ? dateColumns(pl, inferred, o) : (columnsOfType(inferred, []), {});
        } catch (error) {
          const wide = unreadableColumns(error, inferred);
          if (wide.length === 0) throw error;
          // Integers beyond Int64: read again as text, exact ({@linkcode unreadableColumns}).
          for (const column of wide) widened.set(column, pl.String);
          continue;
        }
        const dated = readDated(pl, dates, read, inferred);
        // Text without a doubled quote has no header to mend: its names are not asked for.
        const frame =
          typeof input !== "string" && !headerQuoted(input, o.quoteChar, this.#format.lineEnd)
            ? dated
            : unescapedHeader(dated, o.quoteChar);
        const shaped = shape(pl, frame, { columns: o.columns }, this.#path);
        [this.#first, this.#dates, this.#columns] = [frame, dates, o.columns && shaped.columns];
        return shaped;
      } catch (error) {
        if (!truncateRaggedLines && /found more fields than defined/.test(String(error))) {
          const bytes = textRead(input);
          const width = schema === undefined ? undefined : Object.keys(schema).length;
          if (!extraFieldsEmpty(bytes, { ...text, eolChar: text.eolChar ?? "\n" }, width)) {
            throw error;
          }
          truncateRaggedLines = true;
          continue;
        }
        const column = integerMeetingDecimal(error);
        if (column === undefined || widened.has(column) || Object.hasOwn(o.dtypes ?? {}, column)) {
          throw error;
        }
        widened.set(column, pl.Float64);
      }
    }
  }
}

/**
 * Whether a text column holds a value of only spaces or tabs, as Polars reads a line of them into
 * the first field (pandas skips such a line, as a blank one).
 */
function spacesOnly(column: Series): boolean {
  return (column.dtype as { variant?: string }).variant === "String" &&
    Boolean(column.str.contains(/^[ \t]+\r?$/).any());
}

/**
 * Whether text holds a line of nothing but spaces, tabs or CRs (an empty one included), quotes
 * not looked at: without one, {@linkcode withoutBlankLines} has nothing to drop.
 */
function blankLike(bytes: Uint8Array, end: number): boolean {
  let blank = true;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === end) {
      if (blank) return true;
      blank = true;
    } else if (blank && byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) blank = false;
  }
  // The last line, when the text does not end with a line end.
  return blank && bytes.length > 0 && bytes[bytes.length - 1] !== end;
}

/**
 * Text up to this size is searched for blank lines before its frame is looked at: past it, the
 * byte loop costs more than the frame's first column and null counts.
 */
const SCANNED_BYTES = 8 * 1024;

/**
 * Whether every column but `first` holds a null, as a blank line's row has. Asked only once the
 * first column has a null (or spaces): a query over every column of a wide frame costs as much
 * as a wide parse, and most files have a first column without nulls.
 */
function othersHaveNulls(pl: Polars, frame: DataFrame, first: string): boolean {
  return frame.select(pl.minHorizontal(pl.all().exclude(first).nullCount())).row(0)[0] > 0;
}

/**
 * The frame with its column names' doubled quotes undone: Polars keeps a quoted header's
 * escaped quote doubled (`"c""d"` names a column `c""d`), where the field's value, and
 * pandas' name, is `c"d`.
 */
function unescapedHeader(frame: DataFrame, quoteChar = '"'): DataFrame {
  const doubled = quoteChar.repeat(2);
  const names = frame.columns.filter((name) => name.includes(doubled));
  if (names.length === 0) return frame;
  return frame.rename(
    Object.fromEntries(names.map((name) => [name, name.replaceAll(doubled, quoteChar)])),
  );
}

/**
 * Whether the first line of `bytes` holds the quote character: only a quoted header can name a
 * column with a doubled quote, and a byte search of the first line spares a wide frame the
 * listing of its names (a search of the whole text would cost as much as the parse).
 */
function headerQuoted(bytes: Uint8Array, quoteChar = '"', lineEnd = "\n"): boolean {
  const end = bytes.indexOf(lineEnd.charCodeAt(0));
  return bytes.subarray(0, end < 0 ? undefined : end).includes(quoteChar.charCodeAt(0));
}

/**
 * The columns of a type nodejs-polars cannot hand to JavaScript, when `error` is its refusal to
 * (else none). Polars infers Int128 for integers beyond Int64, and even asking such a frame for
 * its types throws. They are read as text, exactly as written: pandas keeps such numbers as
 * text too, and Float64 would round them.
 */
function unreadableColumns(error: unknown, frame: DataFrame): string[] {
  if (!/not supported for JS conversion/.test(String(error))) return [];
  return frame.columns.filter((name) => {
    try {
      frame.getColumn(name).dtype;
      return false;
    } catch {
      return true;
    }
  });
}

/** The frame with its {@linkcode unreadableColumns} as text (one look at its types). */
function asText(pl: Polars, frame: DataFrame): DataFrame {
  try {
    columnsOfType(frame, []);
    return frame;
  } catch (error) {
    const columns = unreadableColumns(error, frame);
    if (columns.length === 0) throw error;
    return frame.withColumns(...columns.map((name) => pl.col(name).cast(pl.String)));
  }
}

/**
 * The text Polars read: a batch's bytes, or a whole file by path (read again here, as only rare
 * paths need it: errors, blank lines, extra fields).
 */
function textRead(input: string | Uint8Array): Uint8Array {
  return typeof input === "string" ? Deno.readFileSync(input) : input;
}

/** Where Polars' "invalid utf-8" lies in what it read ({@linkcode textRead}). */
function invalidUtf8In(
  input: string | ReturnType<typeof asBuffer>,
): { at: number; byte: number } | undefined {
  const bytes = textRead(input);
  const at = invalidUtf8At(bytes);
  return at === undefined ? undefined : { at, byte: bytes[at] };
}

/** The error for text that is not UTF-8, read without `encoding`. */
function notUtf8(path: string, at: number, byte: number, gzip: boolean, cause: unknown) {
  const hex = byte.toString(16).toUpperCase().padStart(2, "0");
  return new ParseError(
    `${JSON.stringify(path)} is not UTF-8 text: byte ${at} of the ${
      gzip ? "decompressed " : ""
    }file (0x${hex}) is not valid UTF-8. Pass its encoding, e.g. encoding: "latin-1" ` +
      '(or "windows-1252", "utf-16").',
    { path, cause },
  );
}

/**
 * The column of a Polars CSV error saying an integer column met a decimal number, such as
 * "could not parse `200.5` as dtype `i64` at column 'a' (column number 1)"; else undefined.
 */
function integerMeetingDecimal(error: unknown): string | undefined {
  const text = error instanceof Error ? error.message : String(error);
  const found =
    /could not parse `([^`]*)` as dtype `[iu](?:8|16|32|64|128)` at column '(.*)' \(column number \d+\)/
      .exec(text);
  if (found === null) return undefined;
  const [, value, column] = found;
  return /^[+-]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][+-]?\d+)?$/.test(value.trim())
    ? column
    : undefined;
}

/**
 * Reads JSON or JSON Lines with types from every row unless `inferSchemaLength` says otherwise,
 * and from every row after all when that limit proves too short.
 */
function readJsonText(
  pl: Polars,
  given: string | ReturnType<typeof asBuffer>,
  format: "json" | "ndjson",
  { inferSchemaLength, jsonLayout = "auto" }: DataFrameOptions,
  path: string,
): DataFrame {
  const options = { format: format === "json" ? "json" : "lines" } as const;
  // A string is a local copy's path; its bytes are looked at before Polars gets them.
  let input = typeof given === "string" ? asBuffer(Deno.readFileSync(given)) : given;
  // Before pandas' layouts are parsed in JavaScript too, whose number-keeping parse recurses.
  if (nestsBeyond(input, MAX_JSON_DEPTH)) {
    throw new ParseError(
      `${JSON.stringify(path)} nests arrays and objects more than ${MAX_JSON_DEPTH} levels ` +
        "deep; tern refuses such JSON, whose parse would overflow Polars' stack and abort the " +
        "process.",
      { path },
    );
  }
  if (format === "json") {
    // pandas' other layouts are rewritten as records (no deeper than the document).
    const records = asRecords(input, jsonLayout, path);
    if (records !== undefined) input = asBuffer(encoder.encode(records));
  }
  try {
    return pl.readJSON(input, { ...options, inferSchemaLength: inferSchemaLength ?? null });
  } catch (error) {
    if (inferSchemaLength === undefined) throw error;
    return pl.readJSON(input, { ...options, inferSchemaLength: null });
  }
}

/**
 * Whether JSON text nests arrays and objects more than `limit` deep (brackets inside strings
 * do not count).
 */
function nestsBeyond(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      // Skip the string, escapes included.
      for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
    } else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > limit) return true;
    } else if (byte === 0x5d || byte === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * How deep JSON may nest. Polars parses nested JSON recursively and a stack overflow aborts
 * the whole process (a notebook's kernel) rather than throwing; it held about a thousand
 * levels of objects on the main thread, and its worker threads have a quarter of that stack.
 * Data nests a handful of levels; serde_json's own default limit is 128.
 */
const MAX_JSON_DEPTH = 128;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Where a whole file comes from: a local path (used when Polars accepts it as a path) and/or
 * its bytes.
 *
 * @example
 * ```ts
 * import type { WholeSource } from "./parse.ts";
 *
 * const fromDisk: WholeSource = { file: "/home/me/.cache/tern/downloads/abc.parquet" };
 * ```
 */
export interface WholeSource {
  /** Local file. */
  file?: string;
  /** The bytes, when already in memory. */
  bytes?: Uint8Array;
}

/**
 * Parses a whole file at once: the fastest route when all bytes are at hand, and the only one
 * for JSON arrays, Parquet and Arrow. Reads from `source.file` by path when Polars accepts its
 * extension (so Polars maps the file itself), else from the bytes (read from the file when not
 * given). gzip-compressed text must come as `bytes` of the decompressed text.
 *
 * @throws {ParseError} when Polars cannot read it.
 *
 * @example
 * ```ts
 * import { parseWhole } from "./parse.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const file = await Deno.makeTempFile({ suffix: ".parquet" });
 * pl.DataFrame({ a: [1, 2, 3], b: ["x", "y", "z"] }).writeParquet(file);
 * const parquet = { format: "parquet", gzip: false } as const;
 * const frame = await parseWhole(pl, parquet, { file }, { columns: ["b"] }, "/a/b.parquet");
 * assert.deepEqual(frame.getColumn("b").toArray(), ["x", "y", "z"]);
 * await Deno.remove(file);
 * ```
 */
export async function parseWhole(
  pl: Polars,
  format: DetectedFormat,
  source: WholeSource,
  options: DataFrameOptions,
  path: string,
): Promise<DataFrame> {
  const { byPath, copyExtension } = tableFormat(format.format).table;
  const input = source.file !== undefined && !format.gzip && byPath &&
      source.file.endsWith(copyExtension)
    ? source.file
    : source.bytes ?? await Deno.readFile(source.file!);
  const o = options;
  if (format.format === "excel") {
    const bytes = typeof input === "string" ? await Deno.readFile(input) : input;
    // Workbooks are rare: their reader loads with the first one, not with tern.
    const { readSheet } = await import("./excel.ts");
    const frame = await readSheet(pl, bytes, o, path);
    return limitRows(shape(pl, frame, o, path), o.nRows);
  }
  if (format.format !== "parquet" && format.format !== "arrow") {
    const filter = lineFilter(format, o);
    const text = filter === undefined ? input : filter.push(textRead(input), true);
    // A file of nothing but dropped lines is empty, as its batches are.
    if (text.length === 0) return pl.DataFrame();
    return new BatchParser(pl, format, options, path).parse(text);
  }
  const buffer = typeof input === "string" ? input : asBuffer(input);
  try {
    const pushed = defined({ columns: o.columns, nRows: o.nRows });
    const frame = format.format === "parquet"
      ? pl.readParquet(buffer, pushed)
      : format.arrowStream
      ? pl.readIPCStream(buffer, pushed)
      : pl.readIPC(buffer, pushed);
    return limitRows(shape(pl, frame, { dtypes: o.dtypes }, path), o.nRows);
  } catch (error) {
    throw parseError(
      error,
      path,
      `Could not read ${JSON.stringify(path)} as ${formatName(format)}`,
    );
  }
}

/**
 * Joins the frames of one read with Polars' relaxed diagonal rule (union of the columns, common
 * supertypes), as JSON Lines batches or many files may need; frames of one schema (the batches
 * of one CSV file) are stacked without copies, one chunk each.
 *
 * @example
 * ```ts
 * import { combineFrames } from "./parse.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const frames = [pl.DataFrame({ a: [1], b: ["x"] }), pl.DataFrame({ a: [2.5] })];
 * const frame = combineFrames(pl, frames); // different schemas: columns united, types widened
 * assert.deepEqual(frame.getColumn("a").toArray(), [1, 2.5]);
 * assert.deepEqual(frame.getColumn("b").toArray(), ["x", null]);
 * ```
 */
export function combineFrames(pl: Polars, frames: readonly DataFrame[]): DataFrame {
  if (frames.length < 2) return frames[0] ?? pl.DataFrame();
  // Not the default "vertical": it stacks the frames one by one, quadratic in their number.
  return pl.concat([...frames], { how: "diagonalRelaxed", rechunk: false });
}

/**
 * At most `nRows` rows of `frame` (a zero-copy slice), or the frame itself.
 *
 * @example
 * ```ts
 * import { limitRows } from "./parse.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const frame = pl.DataFrame({ a: Array.from({ length: 50 }, (_, i) => i) });
 * assert.equal(limitRows(frame, 10).height, 10);
 * assert.equal(limitRows(frame, undefined), frame);
 * ```
 */
export function limitRows(frame: DataFrame, nRows: number | undefined): DataFrame {
  return nRows !== undefined && frame.height > nRows ? frame.slice(0, nRows) : frame;
}

/**
 * What `columns` and `dtypes` make of a table whose columns are `names`: the columns kept (in the
 * file's order, `columns` each checked to exist), those `dtypes` names cast, as expressions for
 * one `select`; `undefined` when the table stays as it is. A frame read whole and a lazy scan
 * are shaped alike, so a scan collects to the table `dataframe()` gives.
 *
 * @throws {ParseError} naming the columns of `columns` the table does not have.
 *
 * @example
 * ```ts
 * import { shaping } from "./parse.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const lazy = pl.DataFrame({ a: [true], b: [2], c: [3] }).lazy();
 * const exprs = shaping(pl, lazy.columns, { columns: ["c", "a"], dtypes: { a: pl.Utf8 } }, "/x.parquet");
 * const frame = await lazy.select(...exprs!).collect();
 * assert.deepEqual(frame.columns, ["a", "c"]);
 * assert.deepEqual(frame.getColumn("a").toArray(), ["true"]);
 * assert.equal(shaping(pl, lazy.columns, {}, "/x.parquet"), undefined);
 * assert.throws(() => shaping(pl, lazy.columns, { columns: ["d"] }, "/x.parquet"), {
 *   name: "ParseError",
 *   message: '"/x.parquet" has no column "d"; it has "a", "b", "c".',
 * });
 * ```
 */
export function shaping(
  pl: Polars,
  names: readonly string[],
  options: Pick<DataFrameOptions, "columns" | "dtypes">,
  path: string,
): Expr[] | undefined {
  const { columns, dtypes = {} } = options;
  const missing = (columns ?? []).filter((column) => !names.includes(column));
  if (missing.length > 0) {
    const list = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(", ");
    throw new ParseError(
      `${JSON.stringify(path)} has no column${missing.length > 1 ? "s" : ""} ${list(missing)}; ` +
        `it has ${list(names)}.`,
      { path },
    );
  }
  const kept = columns === undefined ? names : names.filter((name) => columns.includes(name));
  const cast = (name: string) => Object.hasOwn(dtypes, name);
  if (kept.length === names.length && !kept.some(cast)) return undefined;
  return kept.map((name) => cast(name) ? pl.col(name).cast(dtypes[name]) : pl.col(name));
}

/** Applies `columns` and `dtypes` to a frame read without them (see {@linkcode shaping}). */
function shape(
  pl: Polars,
  frame: DataFrame,
  options: Pick<DataFrameOptions, "columns" | "dtypes">,
  path: string,
): DataFrame {
  // Nothing asked: a wide frame's names are not listed for it (each listing is a pass).
  if (options.columns === undefined && Object.keys(options.dtypes ?? {}).length === 0) {
    return frame;
  }
  const exprs = shaping(pl, frame.columns, options, path);
  return exprs === undefined ? frame : frame.select(...exprs);
}

function formatName(format: DetectedFormat): string {
  const reader = format.format === "csv" && format.sep === "\t" ? "tsv" : format.format;
  return `${format.gzip ? "gzip-compressed " : ""}${tableFormat(reader).label}`;
}

/** A Polars failure as a {@linkcode ParseError}: `what` failed, why, and what may help. */
function parseError(error: unknown, path: string, what: string, more = ""): ParseError {
  if (error instanceof ParseError) return error;
  const text = error instanceof Error ? error.message : String(error);
  const hint = dateHint(error) ??
    (DECIMAL_COMMA_FAILURE.test(text)
      ? DECIMAL_COMMA_HINT
      : /could not parse .* as dtype/i.test(text)
      ? TYPE_HINT
      : /found more fields than defined/.test(text)
      ? RAGGED_HINT
      : /TapeError\) at character \d+ \('[NI-]'\)/.test(text)
      ? NAN_HINT
      : "");
  return new ParseError(`${what}: ${polarsReason(error)}.${hint}${more}`, {
    path,
    cause: error,
  });
}

const RAGGED_HINT = " A row has more fields than the header has columns; they are not " +
  "dropped silently. Check the separator (sep) and whether the first line is the header " +
  "(hasHeader).";
const COMMENT_HINT = ' The first line starts with "#": commentPrefix: "#" drops such comment ' +
  "lines, and skipRows: n the n lines before the header.";
const NAN_HINT = " NaN and Infinity are no JSON values (Python's json.dumps writes them " +
  "unless allow_nan=False; pandas writes null): write null for a missing value.";
/** Polars' words for a decimal-comma field it could not read as the number type it inferred. */
const DECIMAL_COMMA_FAILURE = new RegExp(
  `could not parse \`${DECIMAL_COMMA_NUMBER.source.slice(1, -1)}\` as dtype`,
  "i",
);
const DECIMAL_COMMA_HINT = " That is a number written with a decimal comma: decimalComma: true " +
  "reads such numbers as numbers.";
const TYPE_HINT = " Column types come from the first rows (an integer column meeting a decimal " +
  "widens to Float64 by itself, but no other change of type); pass dtypes (e.g. " +
  "{ column: pl.String }) or a larger inferSchemaLength.";

/**
 * What {@linkcode parseLocal} and {@linkcode parseChunks} parse with besides the bytes: plain
 * values, nothing of a store, its cache or the network.
 *
 * @example
 * ```ts
 * import type { Parsing } from "./parse.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const parsing: Parsing = {
 *   pl: await loadPolars(),
 *   detected: { format: "csv", gzip: false, sep: ";" },
 *   options: { sep: ";" },
 *   path: "/iplant/home/shared/a.csv",
 * };
 * assert.equal(parsing.infoType, undefined);
 * ```
 */
export interface Parsing {
  /** The loaded Polars. */
  pl: Polars;
  /** The format `detectFormat` found (a gzip file's inner one is found here). */
  detected: DetectedFormat;
  /**
   * The read's options (separator, encoding, row limit, types …).
   * @default {{}}
   */
  options?: DataFrameOptions;
  /** The file's data-store path: for errors, and a gzip file's inner name. */
  path: string;
  /**
   * The store's info type of the file, a hint to a gzip file's inner format.
   * @default {null}
   */
  infoType?: string | null;
}

/**
 * Parses a whole file or its bytes, like {@linkcode parseWhole}; gzip-compressed text is
 * decompressed first (CSV is left to Polars, which decompresses it itself).
 *
 * @throws {ParseError} when Polars cannot read it.
 * @throws {UnsupportedFormatError} when a gzip file holds no supported text format.
 *
 * @example
 * ```ts
 * import { parseLocal } from "./parse.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const bytes = new Uint8Array(await new Response(
 *   ReadableStream.from([new TextEncoder().encode('{"a":1}\n{"a":2}\n')]).pipeThrough(new CompressionStream("gzip")),
 * ).arrayBuffer());
 * const gzip = { format: "csv", gzip: true } as const; // the name's guess; the content decides
 * const frame = await parseLocal({ pl, detected: gzip, source: { bytes }, path: "/a/events.gz" });
 * assert.deepEqual(frame.getColumn("a").toArray(), [1, 2]);
 * ```
 */
export async function parseLocal(input: Parsing & { source: WholeSource }): Promise<DataFrame> {
  const { pl, detected, source, options = {}, path, infoType = null } = input;
  if (source.bytes?.byteLength === 0) return pl.DataFrame();
  const { encoding } = options;
  const decoded = decodes(encoding) && TEXT_FORMATS.has(detected.format);
  if (!detected.gzip && !decoded) return await parseWhole(pl, detected, source, options, path);
  // gzip is decompressed here, counted as it expands (a bomb stops there), and text that is not
  // UTF-8 is decoded whole: Polars reads UTF-8 only.
  const raw = source.bytes ?? await Deno.readFile(source.file!);
  const plain = detected.gzip ? await collect(inflate([raw], path)) : raw;
  const head = () => utf8Head(plain.subarray(0, SNIFF_BYTES), encoding);
  const inner = detected.gzip
    ? innerFormat({ path, infoType, head: head(), format: options.format }, options)
    : detected;
  const bytes = decodes(encoding) && TEXT_FORMATS.has(inner.format)
    ? wholeToUtf8(plain, encoding)
    : plain;
  return await parseWhole(pl, { ...inner, gzip: false }, { bytes }, options, path);
}

/**
 * Parses delimited text or JSON Lines (gzip-compressed or not; a gzip-compressed JSON array is
 * collected and read whole) as the chunks arrive, in batches of whole records, stopping once
 * `options.nRows` rows are in. Returns whether it stopped early. Closing the result early
 * leaves `chunks` to their owner to close.
 *
 * @throws {ParseError} when Polars cannot parse a batch.
 *
 * @example
 * ```ts
 * import { parseChunks } from "./parse.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const chunks = ReadableStream.from(["a,b\n1,", "2\n3,4\n"]).pipeThrough(new TextEncoderStream());
 * const csv = { format: "csv", gzip: false, sep: "," } as const;
 * const heights: number[] = [];
 * const options = { nRows: 2 };
 * for await (const frame of parseChunks({ pl, detected: csv, chunks, options, path: "/a/b.csv" })) {
 *   heights.push(frame.height);
 * }
 * assert.deepEqual(heights, [2]);
 * ```
 */
export async function* parseChunks(
  input: Parsing & { chunks: AsyncIterable<Uint8Array> },
): AsyncGenerator<DataFrame, boolean> {
  const { pl, detected, chunks: source, options = {}, path, infoType = null } = input;
  // Only what is kept whole (a JSON array) is bounded: batches hold at most a record more.
  let whole = false;
  const inflated = detected.gzip ? inflate(source, path, () => whole) : undefined;
  try {
    let format = detected;
    let chunks = source;
    const { encoding } = options;
    if (inflated !== undefined) {
      const peeked = await peek(inflated, SNIFF_BYTES);
      const head = utf8Head(peeked.head, encoding);
      format = innerFormat({ path, infoType, head, format: options.format }, options);
      chunks = peeked.chunks;
    }
    if (decodes(encoding)) chunks = toUtf8(chunks, encoding);
    const filter = lineFilter(format, options);
    if (filter !== undefined) chunks = filtered(chunks, filter, path, format);
    const parser = new BatchParser(pl, format, options, path);
    if (format.format === "json") {
      whole = true;
      yield parser.parse(await collect(chunks));
      return false;
    }
    const splitter = format.format === "csv"
      ? new RecordSplitter(options.quoteChar ?? '"', undefined, undefined, format.lineEnd)
      : new RecordSplitter();
    // A first batch of nothing but the header (the record after it is long) would fix every
    // column as text: it is held and parsed with the next batch.
    let header = format.format === "csv" && (options.hasHeader ?? true);
    const end = format.lineEnd === "\r" ? 0x0d : 0x0a;
    let held: Uint8Array | undefined;
    const withHeld = (batch: Uint8Array) => {
      if (held === undefined) return batch;
      const joined = joinBytes([held, batch]);
      held = undefined;
      return joined;
    };
    for await (const chunk of chunks) {
      // A chunk larger than a batch leaves more than one batch behind; cut them one by one.
      for (let batch = splitter.push(chunk); batch; batch = splitter.push(NO_BYTES)) {
        if (header && (header = false, batch.indexOf(end) === batch.length - 1)) {
          held = batch.slice();
          continue;
        }
        yield parser.parse(withHeld(batch));
        if (parser.done) return true;
      }
      if (splitter.buffered > MAX_RECORD_BYTES) throw endlessRecord(path, format);
    }
    const rest = splitter.finish();
    if (rest !== undefined || held !== undefined) yield parser.parse(withHeld(rest ?? NO_BYTES));
    return false;
  } finally {
    await inflated?.return?.();
  }
}

/**
 * The {@linkcode LineFilter} of delimited text read with `skipRows` or `commentPrefix`, else
 * `undefined`.
 */
function lineFilter(format: DetectedFormat, o: DataFrameOptions): LineFilter | undefined {
  if (format.format !== "csv" || !o.skipRows && o.commentPrefix === undefined) return undefined;
  const { skipRows, commentPrefix, quoteChar } = o;
  return new LineFilter({ skipRows, commentPrefix, quoteChar, lineEnd: format.lineEnd });
}

/** The chunks' kept lines ({@linkcode LineFilter}); a line may not grow without end. */
async function* filtered(
  chunks: AsyncIterable<Uint8Array>,
  filter: LineFilter,
  path: string,
  format: DetectedFormat,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    yield filter.push(chunk);
    if (filter.buffered > MAX_RECORD_BYTES) throw endlessRecord(path, format);
  }
  yield filter.push(NO_BYTES, true);
}

/**
 * The gzip-decompressed chunks (of every member), a corrupt or cut-short stream being a
 * {@linkcode ParseError} naming the file (errors of the source pass). While `bounded()` says the
 * bytes are kept whole, they may expand past {@linkcode BOMB_BYTES} only up to
 * {@linkcode BOMB_RATIO} times the compressed bytes read so far: past that it is a gzip bomb,
 * refused as it expands (the trailer's size, modulo 4 GiB and of the last member only, proves
 * nothing).
 */
async function* inflate(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  path: string,
  bounded: () => boolean = () => true,
): AsyncGenerator<Uint8Array, void> {
  let failed: unknown, compressed = 0, expanded = 0;
  const watched = (async function* () {
    try {
      for await (const chunk of chunks) yield (compressed += chunk.byteLength, chunk);
    } catch (error) {
      failed = error;
      throw error;
    }
  })();
  try {
    for await (const chunk of gunzip(watched)) {
      expanded += chunk.byteLength;
      if (expanded > BOMB_BYTES && expanded > compressed * BOMB_RATIO && bounded()) {
        throw gzipBomb(path, compressed, expanded);
      }
      yield chunk;
    }
  } catch (error) {
    if (error === failed || error instanceof TernError) throw error;
    throw new ParseError(
      `Could not decompress ${JSON.stringify(path)}: its gzip data is corrupt or cut short ` +
        `(${error instanceof Error ? error.message : String(error)}).`,
      { path, cause: error },
    );
  }
}

/** Bytes gzip may expand to, kept whole, at any ratio: text compresses about 3- to 20-fold. */
const BOMB_BYTES = 1024 ** 3;
/** How many times its compressed size gzip kept whole may expand to past {@linkcode BOMB_BYTES}. */
const BOMB_RATIO = 100;

function gzipBomb(path: string, compressed: number, expanded: number): ParseError {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  return new ParseError(
    `${JSON.stringify(path)} expands from ${mb(compressed)} past ${mb(expanded)}, more than ` +
      `${BOMB_RATIO}-fold: a gzip bomb; tern does not read it whole. batches() reads delimited ` +
      "text and JSON Lines a batch at a time.",
    { path },
  );
}

/**
 * How long one record of a streamed read may grow: batches are at most 16 MiB, so only a line
 * this long, or a quote never closed, holds more; without a bound a gzip bomb of one endless
 * line (or such a file) fills memory before Polars sees a byte. A whole read has no such bound.
 */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;

function endlessRecord(path: string, format: DetectedFormat): ParseError {
  const quote = format.format === "csv" ? ", or a quote that is never closed" : "";
  return new ParseError(
    `Could not read ${JSON.stringify(path)} in batches: a record runs past ` +
      `${MAX_RECORD_BYTES / 1024 / 1024} MiB without ending (a line that long${quote}). ` +
      "dataframe() reads the file whole, with no such limit.",
    { path },
  );
}

const NO_BYTES = new Uint8Array(0);
const encoder = new TextEncoder();
/** The formats that are text, read in the `encoding` option's encoding. */
const TEXT_FORMATS: ReadonlySet<string> = new Set(["csv", "tsv", "json", "ndjson"]);
