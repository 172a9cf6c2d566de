/**
 * The Polars calls: batches of delimited text or JSON Lines parsed one by one with a schema
 * fixed by the first, and whole files (from a local path when Polars accepts one, else from
 * bytes). Polars failures become {@linkcode ParseError}s naming the file and where in it.
 *
 * @module
 */

import type { DataFrame, DataType } from "nodejs-polars";
import { ParseError, polarsReason } from "./errors.ts";
import type { DetectedFormat } from "./formats.ts";
import type { DataFrameOptions } from "./options.ts";
import { asBuffer, type Polars, stackFrames } from "./polars.ts";

/**
 * Parses batches of one file in order. The first batch fixes the schema (column names and
 * types, from the header and the first `inferSchemaLength` rows, with `dtypes` applied), and
 * every later batch is parsed with exactly that schema, so the frames stack without copies.
 *
 * @example
 * ```ts ignore
 * import { BatchParser } from "./parse.ts";
 *
 * const parser = new BatchParser(pl, { format: "csv", gzip: false, sep: "," }, {}, "/a/b.csv");
 * const first = parser.parse(new TextEncoder().encode("x,y\n1,2\n"));
 * const second = parser.parse(new TextEncoder().encode("3,4\n"));
 * ```
 */
export class BatchParser {
  readonly #pl: Polars;
  readonly #format: DetectedFormat;
  readonly #options: DataFrameOptions;
  readonly #path: string;
  #schema: Record<string, DataType> | undefined;
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
   * ```ts ignore
   * const parser = new BatchParser(pl, detected, options, entry.path);
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
   * ```ts ignore
   * const frame = parser.parse(batch, 1000);
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
    const common = {
      sep: o.sep ?? this.#format.sep ?? ",",
      ...(o.quoteChar === undefined ? {} : { quoteChar: o.quoteChar }),
      ...(o.nullValues === undefined ? {} : { nullValues: o.nullValues }),
      ...(limit === undefined ? {} : { nRows: limit }),
      rechunk: false,
    };
    if (this.#schema === undefined) {
      const frame = pl.readCSV(asBuffer(batch), {
        ...common,
        hasHeader: o.hasHeader ?? true,
        ...(o.dtypes === undefined ? {} : { dtypes: o.dtypes }),
        ...(o.tryParseDates === undefined ? {} : { tryParseDates: o.tryParseDates }),
        ...(o.inferSchemaLength === undefined ? {} : { inferSchemaLength: o.inferSchemaLength }),
      });
      this.#schema = frame.schema;
      this.#projection = projectionOf(frame.columns, o.columns, this.#path);
      return this.#projection === undefined ? frame : frame.select(...this.#projection);
    }
    return pl.readCSV(asBuffer(batch), {
      ...common,
      hasHeader: false,
      schema: this.#schema,
      ...(this.#projection === undefined ? {} : { columns: this.#projection }),
    });
  }

  #jsonLines(batch: Uint8Array): DataFrame {
    const o = this.#options;
    const frame = this.#pl.readJSON(asBuffer(batch), {
      format: "lines",
      ...(o.inferSchemaLength === undefined ? {} : { inferSchemaLength: o.inferSchemaLength }),
    });
    return shape(this.#pl, frame, o, this.#path);
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
 * Extensions nodejs-polars accepts as paths, per reader. JSON Lines never goes by path:
 * nodejs-polars 0.25 reads JSON Lines only from a Buffer (its path route calls a missing
 * binding).
 */
const PATH_EXTENSIONS: Record<string, readonly string[]> = {
  csv: [".csv", ".tsv"],
  json: [".json"],
  ndjson: [],
  parquet: [".parquet"],
  arrow: [".ipc"],
};

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
 * ```ts ignore
 * const frame = await parseWhole(pl, { format: "parquet", gzip: false }, { file }, {}, path);
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
    PATH_EXTENSIONS[format.format]?.some((extension) => source.file!.endsWith(extension));
  const input = byPath ? source.file! : asBuffer(source.bytes ?? await Deno.readFile(source.file!));
  const o = options;
  try {
    switch (format.format) {
      case "csv":
      case "tsv": {
        const frame = pl.readCSV(input, {
          sep: o.sep ?? format.sep ?? ",",
          hasHeader: o.hasHeader ?? true,
          rechunk: false,
          ...(o.quoteChar === undefined ? {} : { quoteChar: o.quoteChar }),
          ...(o.nullValues === undefined ? {} : { nullValues: o.nullValues }),
          ...(o.dtypes === undefined ? {} : { dtypes: o.dtypes }),
          ...(o.tryParseDates === undefined ? {} : { tryParseDates: o.tryParseDates }),
          ...(o.inferSchemaLength === undefined ? {} : { inferSchemaLength: o.inferSchemaLength }),
          ...(o.nRows === undefined ? {} : { nRows: o.nRows }),
        });
        const projection = projectionOf(frame.columns, o.columns, path);
        return limitRows(projection === undefined ? frame : frame.select(...projection), o.nRows);
      }
      case "json":
      case "ndjson": {
        const frame = pl.readJSON(input, {
          format: format.format === "ndjson" ? "lines" : "json",
          ...(o.inferSchemaLength === undefined ? {} : { inferSchemaLength: o.inferSchemaLength }),
        });
        return limitRows(shape(pl, frame, o, path), o.nRows);
      }
      case "parquet":
      case "arrow": {
        const pushed = {
          ...(o.columns === undefined ? {} : { columns: o.columns }),
          ...(o.nRows === undefined ? {} : { nRows: o.nRows }),
        };
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
 * ```ts ignore
 * const frame = combineFrames(pl, frames);
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
 * ```ts ignore
 * const first10 = limitRows(frame, 10);
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
  const names: Record<string, string> = {
    csv: format.sep === "\t" ? "TSV" : "CSV",
    tsv: "TSV",
    json: "JSON",
    ndjson: "JSON Lines",
    parquet: "Parquet",
    arrow: "Arrow IPC",
  };
  return `${format.gzip ? "gzip-compressed " : ""}${names[format.format]}`;
}

function hintFor(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/could not parse .* as dtype/i.test(text)) {
    return " Column types are fixed by the first rows; pass dtypes (e.g. { column: pl.Float64 }) " +
      "or a larger inferSchemaLength.";
  }
  return "";
}
