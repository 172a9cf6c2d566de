/**
 * Options of the dataframe readers, checked before any request so a mistake is a clear
 * {@linkcode BadRequestError} naming the option.
 *
 * @module
 */

import type { DataType } from "../deps.ts";
import { BadRequestError } from "../client/errors.ts";
import { TABLE_FORMATS, type TableFormat } from "../registry/file_formats.ts";
import type { ProgressEvent } from "../progress/events.ts";

/**
 * How to read a file into a DataFrame. Options named as in `pl.readCSV` pass through to Polars;
 * those about text (`sep`, `hasHeader`, `quoteChar`, `nullValues`, `tryParseDates`) apply to
 * delimited text only, `inferSchemaLength` to delimited text and JSON; `columns`, `dtypes` and
 * `nRows` apply to every format.
 *
 * @example
 * ```ts
 * import type { DataFrameOptions } from "./options.ts";
 *
 * const options: DataFrameOptions = { sep: ";", columns: ["date", "value"], nRows: 1000 };
 * ```
 */
export interface DataFrameOptions {
  /** Read as this format instead of detecting it (gzip is still detected by its signature). */
  format?: TableFormat;
  /** Field separator of delimited text (default: from the name or the first lines). */
  sep?: string;
  /** Only these columns (in the file's order). */
  columns?: string[];
  /** Column types to use instead of inferring them, e.g. `{ id: pl.Utf8 }`. */
  dtypes?: Record<string, DataType>;
  /** Whether the first line of delimited text names the columns (default true). */
  hasHeader?: boolean;
  /** Values read as null: one for all columns, a list, or one per column name. */
  nullValues?: string | string[] | Record<string, string>;
  /** At most this many rows; the download stops as soon as they have arrived. */
  nRows?: number;
  /**
   * Read delimited-text columns of ISO 8601 dates (`2012-01-31`) as `Date`, and of ISO
   * datetimes (`2012-01-31 10:00`, `…T10:00:00.5Z`) as `Datetime` (in UTC when they carry an
   * offset), judged from the first `inferSchemaLength` rows; false keeps them as text. Other
   * notations (`01/02/2012`) stay text; a later value that is not a date is a `ParseError`.
   * Datetimes are in microseconds: a finer fraction is never cut (a column showing one stays
   * text; one met later is a `ParseError`).
   * @default true
   */
  tryParseDates?: boolean;
  /** Quote character of delimited text (default `"`). */
  quoteChar?: string;
  /**
   * Rows used to infer column types. Delimited text: default 100, as in Polars; types are fixed
   * by the first batch of rows, except that an integer column meeting a decimal value later is
   * widened to Float64; any other value that does not fit raises a {@linkcode ParseError}
   * suggesting `dtypes`. JSON and JSON Lines: default all rows (of each batch of JSON Lines),
   * since Polars' first 100 would drop keys first seen later; a limit that proves too short
   * falls back to all rows.
   */
  inferSchemaLength?: number;
  /**
   * Use the store's local cache (default true when the store has one): serve an unchanged file
   * from it, and keep a downloaded one there.
   */
  cache?: boolean;
  /** Called with progress events (bytes received, rate); see {@linkcode ProgressEvent}. */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Show this read's progress (default: the store's `progress` setting, on by default): one
   * line updated in place in a notebook, a bar on a terminal's stderr. `false` keeps it quiet;
   * `onProgress` is called either way.
   */
  progress?: boolean;
  /** Aborts the read; the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
}

/**
 * Options of `file.batches()`: those of {@linkcode DataFrameOptions} plus the batch size.
 *
 * @example
 * ```ts
 * import type { BatchOptions } from "./options.ts";
 *
 * const options: BatchOptions = { rows: 50_000, columns: ["id", "value"] };
 * ```
 */
export interface BatchOptions extends DataFrameOptions {
  /** Rows per batch (default 100,000); the last batch may be smaller. */
  rows?: number;
}

/**
 * Options of `listing.dataframes()`: those of {@linkcode DataFrameOptions} (applied to every
 * file) plus the name of the column holding each row's file.
 *
 * @example
 * ```ts
 * import type { ManyOptions } from "./options.ts";
 *
 * const done: number[] = [];
 * const options: ManyOptions = {
 *   source: "file",
 *   onProgress: (event) => void done.push(event.files),
 * };
 * ```
 */
export interface ManyOptions extends DataFrameOptions {
  /** Name of the column with each row's data-store path (default `source`); false for none. */
  source?: string | false;
}

/** Default rows per batch of `file.batches()`. */
export const DEFAULT_BATCH_ROWS = 100_000;

/**
 * Checks reader options (a scan's `remote` too); nothing is sent when they are wrong.
 *
 * @throws {BadRequestError} naming the first bad option, what it was and what it must be.
 *
 * @example
 * ```ts
 * import { checkOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * checkOptions({ sep: "\t", nRows: 10 }); // fine
 * assert.throws(() => checkOptions({ quoteChar: "ab" }), {
 *   name: "BadRequestError",
 *   message: 'quoteChar must be one ASCII character, got "ab".',
 * });
 * ```
 */
export function checkOptions(options: unknown): asserts options is BatchOptions & ManyOptions {
  if (!isObject(options)) {
    throw new BadRequestError("Reader options must be an object, e.g. { sep: ';' }.");
  }
  for (const [name, [valid, expected]] of Object.entries(RULES)) {
    const value = options[name];
    if (value !== undefined && !valid(value)) {
      const shown = Deno.inspect(value, { depth: 1, iterableLimit: 5, strAbbreviateSize: 40 });
      throw new BadRequestError(`${name} must be ${expected}, got ${shown}.`);
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === "string";
// Polars' readers take one byte.
const oneAscii = (value: unknown) =>
  isString(value) && value.length === 1 && value.charCodeAt(0) < 0x80;
const boolean = [(value: unknown) => typeof value === "boolean", "true or false"] as const;
const integer = (min: number) =>
  [
    (value: unknown) => Number.isSafeInteger(value) && value as number >= min,
    `an integer ≥ ${min}`,
  ] as const;

/** Each option's check, and what the message says the option must be when it fails. */
const RULES: Record<string, readonly [(value: unknown) => boolean, string]> = {
  format: [
    (value) => TABLE_FORMATS.includes(value as TableFormat),
    `one of ${TABLE_FORMATS.join(", ")}`,
  ],
  sep: [
    (value) => oneAscii(value) && value !== "\n" && value !== "\r",
    "one ASCII character, not a line break",
  ],
  quoteChar: [oneAscii, "one ASCII character"],
  columns: [
    (value) => Array.isArray(value) && value.length > 0 && value.every(isString),
    "a non-empty array of column names",
  ],
  dtypes: [isObject, "an object of column name to Polars type, e.g. { a: pl.Utf8 }"],
  hasHeader: boolean,
  tryParseDates: boolean,
  cache: boolean,
  progress: boolean,
  remote: boolean,
  nullValues: [
    (value) =>
      isString(value) ||
      (Array.isArray(value) || isObject(value)) && Object.values(value).every(isString),
    "a string, an array of strings, or an object of column name to string",
  ],
  nRows: integer(0),
  inferSchemaLength: integer(1),
  rows: integer(1),
  onProgress: [(value) => typeof value === "function", "a function"],
  signal: [(value) => value instanceof AbortSignal, "an AbortSignal"],
  source: [
    (value) => value === false || isString(value) && value !== "",
    "a column name, or false for no source column",
  ],
};
