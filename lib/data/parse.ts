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

import type { DataFrame, DataType } from "../deps.ts";
import { tableFormat } from "../registry/file_formats.ts";
import { type DateColumn, dateColumns, dateHint, readDated } from "./dates.ts";
import { ParseError, polarsReason } from "./errors.ts";
import { collect, gunzip, peek } from "./chunks.ts";
import { type DetectedFormat, innerFormat, SNIFF_BYTES } from "./formats.ts";
import { RecordSplitter } from "./records.ts";
import type { DataFrameOptions } from "./options.ts";
import { asBuffer, defined, type Polars, stackFrames } from "./polars.ts";

/**
 * Parses batches of one file in order. For delimited text the first batch fixes the schema
 * (column names and types, from the header and the first `inferSchemaLength` rows, with `dtypes`
 * applied), and every later batch is parsed with exactly that schema, so the frames stack
 * without copies; an integer column that meets a decimal value is widened to Float64 from that
 * batch on (joining the frames then widens the earlier ones). JSON Lines batches take their
 * types from all their rows, and frames of different types are joined with common supertypes.
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
 * ```
 */
export class BatchParser {
  readonly #pl: Polars;
  readonly #format: DetectedFormat;
  readonly #options: DataFrameOptions;
  readonly #path: string;
  #schema: Record<string, DataType> | undefined;
  #dates: Record<string, DateColumn> = {};
  #projection: string[] | undefined;
  #bytes = 0;
  #rows = 0;

  /**
   * Creates a parser for one file.
   *
   * @param pl nodejs-polars.
   * @param format How the file was detected (`csv` or `ndjson`).
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

  /** Rows parsed so far (before any row limit is applied). */
  get rows(): number {
    return this.#rows;
  }

  /**
   * Parses one batch of whole records. `limit` asks Polars to stop after that many rows.
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
   * const parser = new BatchParser(pl, { format: "csv", gzip: false, sep: "," }, {}, "/a/b.csv");
   * const batch = new TextEncoder().encode("x\n1\n2\n3\n");
   * assert.equal(parser.parse(batch, 2).height, 2);
   * ```
   */
  parse(batch: Uint8Array, limit?: number): DataFrame {
    const at = this.#bytes;
    this.#bytes += batch.byteLength;
    let frame: DataFrame;
    try {
      frame = this.#format.format === "ndjson"
        ? this.#jsonLines(batch)
        : this.#delimited(batch, limit);
    } catch (error) {
      if (error instanceof ParseError) throw error;
      throw new ParseError(
        `Could not parse ${JSON.stringify(this.#path)} as ${formatName(this.#format)} ` +
          `(bytes ${at}–${at + batch.byteLength} of the ${
            this.#format.gzip ? "decompressed " : ""
          }` +
          `file, after ${this.#rows} rows): ${polarsReason(error)}.${hintFor(error)}`,
        { path: this.#path, cause: error },
      );
    }
    this.#rows += frame.height;
    return frame;
  }

  #delimited(batch: Uint8Array, limit?: number): DataFrame {
    const pl = this.#pl;
    const o = this.#options;
    const input = asBuffer(batch);
    const schema = this.#schema;
    if (schema === undefined) {
      const { frame, dates } = readDelimited(pl, input, this.#format, o, limit);
      this.#dates = dates;
      this.#schema = frame.schema;
      this.#projection = projectionOf(frame.columns, o.columns, this.#path);
      return this.#projection === undefined ? frame : frame.select(...this.#projection);
    }
    let current = schema;
    const frame = readWidening(pl, (widened) => {
      current = { ...schema, ...widened };
      return readDated(pl, this.#dates, (types) =>
        pl.readCSV(input, {
          ...textOptions(this.#format, o, false),
          rechunk: false,
          schema: { ...current, ...types },
          ...defined({ nRows: limit, columns: this.#projection }),
        }));
    }, (column) => column in schema && !(o.dtypes !== undefined && column in o.dtypes));
    this.#schema = current;
    return frame;
  }

  #jsonLines(batch: Uint8Array): DataFrame {
    const o = this.#options;
    const frame = readJsonText(this.#pl, asBuffer(batch), "lines", o.inferSchemaLength);
    return shape(this.#pl, frame, o, this.#path);
  }
}

/** How delimited text is read (its sample for dates too). */
function textOptions(format: DetectedFormat, o: DataFrameOptions, hasHeader: boolean) {
  const { quoteChar, nullValues } = o;
  return { sep: o.sep ?? format.sep ?? ",", hasHeader, ...defined({ quoteChar, nullValues }) };
}

/**
 * Reads delimited text with its header (when it has one): types from the first rows, an
 * integer column that meets a decimal value widened to Float64, dates recognised, and the
 * caller's `dtypes` over all of them (a column they fixed is never widened).
 */
function readDelimited(
  pl: Polars,
  input: string | ReturnType<typeof asBuffer>,
  format: DetectedFormat,
  o: DataFrameOptions,
  nRows: number | undefined,
): { frame: DataFrame; dates: Record<string, DateColumn> } {
  const text = textOptions(format, o, o.hasHeader ?? true);
  const dates = dateColumns(pl, input, text, o);
  const frame = readWidening(pl, (widened) =>
    readDated(pl, dates, (types) =>
      pl.readCSV(input, {
        ...text,
        rechunk: false,
        dtypes: { ...widened, ...types, ...o.dtypes },
        ...defined({ inferSchemaLength: o.inferSchemaLength, nRows }),
      })));
  return { frame, dates };
}

/**
 * Runs `read` with no columns widened, then — while Polars reports an integer column that met
 * a decimal value — again with that column read as Float64. Each retry widens one more column,
 * so it ends. `widenable` says which columns may be widened (by default any).
 */
function readWidening(
  pl: Polars,
  read: (widened: Record<string, DataType>) => DataFrame,
  widenable: (column: string) => boolean = () => true,
): DataFrame {
  const widened: Record<string, DataType> = {};
  while (true) {
    try {
      return read(widened);
    } catch (error) {
      const column = integerMeetingDecimal(error);
      if (column === undefined || column in widened || !widenable(column)) throw error;
      widened[column] = pl.Float64;
    }
  }
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
  input: string | ReturnType<typeof asBuffer>,
  format: "json" | "lines",
  inferSchemaLength: number | undefined,
): DataFrame {
  try {
    return pl.readJSON(input, { format, inferSchemaLength: inferSchemaLength ?? null });
  } catch (error) {
    if (inferSchemaLength === undefined) throw error;
    return pl.readJSON(input, { format, inferSchemaLength: null });
  }
}

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
 * given). gzip-compressed text must come as `bytes` of the decompressed text, except CSV,
 * which Polars decompresses itself.
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
  const byPath = source.file !== undefined && !format.gzip &&
    tableFormat(format.format).table.byPath &&
    source.file.endsWith(tableFormat(format.format).table.copyExtension);
  const input = byPath ? source.file! : asBuffer(source.bytes ?? await Deno.readFile(source.file!));
  const o = options;
  try {
    switch (format.format) {
      case "csv":
      case "tsv": {
        const { frame } = readDelimited(pl, input, format, o, o.nRows);
        const projection = projectionOf(frame.columns, o.columns, path);
        return limitRows(projection === undefined ? frame : frame.select(...projection), o.nRows);
      }
      case "json":
      case "ndjson": {
        const lines = format.format === "ndjson" ? "lines" : "json";
        const frame = readJsonText(pl, input, lines, o.inferSchemaLength);
        return limitRows(shape(pl, frame, o, path), o.nRows);
      }
      case "parquet":
      case "arrow": {
        const pushed = defined({ columns: o.columns, nRows: o.nRows });
        const frame = format.format === "parquet"
          ? pl.readParquet(input, pushed)
          : format.arrowStream
          ? pl.readIPCStream(input, pushed)
          : pl.readIPC(input, pushed);
        return limitRows(shape(pl, frame, { dtypes: o.dtypes }, path), o.nRows);
      }
    }
  } catch (error) {
    if (error instanceof ParseError) throw error;
    throw new ParseError(
      `Could not read ${JSON.stringify(path)} as ${formatName(format)}: ${polarsReason(error)}.` +
        hintFor(error),
      { path, cause: error },
    );
  }
}

/**
 * Joins the frames of one read: stacked without copies when they share a schema (the batches
 * of one CSV file), else concatenated with Polars' relaxed diagonal rule (union of the columns,
 * common supertypes), as JSON Lines batches or many files may need.
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
  if (frames.length === 0) return pl.DataFrame();
  if (frames.length === 1) return frames[0];
  const first = schemaKey(frames[0]);
  if (frames.every((frame) => schemaKey(frame) === first)) return stackFrames(pl, frames);
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

function schemaKey(frame: DataFrame): string {
  return `${frame.columns.join("\u0000")}\u0001${frame.dtypes.map(String).join("\u0000")}`;
}

/** The requested columns in the file's order, checking each exists. */
function projectionOf(
  available: string[],
  wanted: string[] | undefined,
  path: string,
): string[] | undefined {
  if (wanted === undefined) return undefined;
  const missing = wanted.filter((column) => !available.includes(column));
  if (missing.length > 0) {
    throw new ParseError(
      `${JSON.stringify(path)} has no column${missing.length > 1 ? "s" : ""} ` +
        `${missing.map((column) => JSON.stringify(column)).join(", ")}; it has ` +
        `${available.map((column) => JSON.stringify(column)).join(", ")}.`,
      { path },
    );
  }
  const set = new Set(wanted);
  return available.filter((column) => set.has(column));
}

/** Applies `columns` and `dtypes` to a frame read without them. */
function shape(
  pl: Polars,
  frame: DataFrame,
  options: Pick<DataFrameOptions, "columns" | "dtypes">,
  path: string,
): DataFrame {
  let result = frame;
  const projection = projectionOf(result.columns, options.columns, path);
  if (projection !== undefined) result = result.select(...projection);
  if (options.dtypes !== undefined) {
    const casts = Object.entries(options.dtypes)
      .filter(([column]) => result.columns.includes(column))
      .map(([column, type]) => pl.col(column).cast(type));
    if (casts.length > 0) result = result.withColumns(...casts);
  }
  return result;
}

function formatName(format: DetectedFormat): string {
  const reader = format.format === "csv" && format.sep === "\t" ? "tsv" : format.format;
  return `${format.gzip ? "gzip-compressed " : ""}${tableFormat(reader).label}`;
}

function hintFor(error: unknown): string {
  const dates = dateHint(error);
  if (dates !== undefined) return dates;
  const text = error instanceof Error ? error.message : String(error);
  if (/could not parse .* as dtype/i.test(text)) {
    return " Column types come from the first rows (an integer column meeting a decimal widens " +
      "to Float64 by itself, but no other change of type); pass dtypes (e.g. " +
      "{ column: pl.String }) or a larger inferSchemaLength.";
  }
  return "";
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
 * const frame = await parseLocal(pl, gzip, { bytes }, {}, "/a/events.gz", null);
 * assert.deepEqual(frame.getColumn("a").toArray(), [1, 2]);
 * ```
 */
export async function parseLocal(
  pl: Polars,
  detected: DetectedFormat,
  source: WholeSource,
  options: DataFrameOptions,
  path: string,
  infoType: string | null,
): Promise<DataFrame> {
  if (source.bytes?.byteLength === 0) return pl.DataFrame();
  if (!detected.gzip) return await parseWhole(pl, detected, source, options, path);
  const compressed = source.bytes ?? await Deno.readFile(source.file!);
  const inflated = gunzip([compressed]).values();
  const { head } = await peek(inflated, SNIFF_BYTES).finally(() => inflated.return?.());
  const inner = innerFormat({ path, infoType, head, format: options.format });
  const bytes = inner.format === "csv" ? compressed : await collect(gunzip([compressed]));
  return await parseWhole(pl, { ...inner, gzip: inner.format === "csv" }, { bytes }, options, path);
}

/**
 * Parses delimited text or JSON Lines (gzip-compressed or not; a gzip-compressed JSON array is
 * collected and read whole) as the chunks arrive, in batches of whole records, stopping once
 * `options.nRows` rows are in. Returns whether it stopped early. Closing the result early
 * leaves `source` to its owner to close.
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
 * for await (const frame of parseChunks(pl, csv, chunks, { nRows: 2 }, "/a/b.csv", null)) {
 *   heights.push(frame.height);
 * }
 * assert.deepEqual(heights, [2]);
 * ```
 */
export async function* parseChunks(
  pl: Polars,
  detected: DetectedFormat,
  source: AsyncIterable<Uint8Array>,
  options: DataFrameOptions,
  path: string,
  infoType: string | null,
): AsyncGenerator<DataFrame, boolean> {
  const inflated = detected.gzip ? gunzip(source).values() : undefined;
  try {
    let format = detected;
    let chunks = source;
    if (inflated !== undefined) {
      const peeked = await peek(inflated, SNIFF_BYTES);
      format = innerFormat({ path, infoType, head: peeked.head, format: options.format });
      chunks = peeked.chunks;
    }
    if (format.format === "json") {
      const bytes = await collect(chunks);
      yield await parseWhole(pl, { ...format, gzip: false }, { bytes }, options, path);
      return false;
    }
    const limit = options.nRows;
    const parser = new BatchParser(pl, format, options, path);
    const splitter = new RecordSplitter({
      quote: format.format === "csv" ? options.quoteChar ?? '"' : undefined,
    });
    let rows = 0;
    const parse = (batch: Uint8Array): DataFrame => {
      // Polars' row limit is only approximate when parsing in parallel, hence the slice.
      const left = limit === undefined ? undefined : Math.max(0, limit - rows);
      const frame = limitRows(parser.parse(batch, left === 0 ? 1 : left), left);
      rows += frame.height;
      return frame;
    };
    for await (const chunk of chunks) {
      // A chunk larger than a batch leaves more than one batch behind; cut them one by one.
      for (let batch = splitter.push(chunk); batch; batch = splitter.push(NO_BYTES)) {
        yield parse(batch);
        if (limit !== undefined && rows >= limit) return true;
      }
    }
    const rest = splitter.finish();
    if (rest !== undefined) yield parse(rest);
    return false;
  } finally {
    await inflated?.return?.();
  }
}

const NO_BYTES = new Uint8Array(0);
