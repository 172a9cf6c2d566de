/**
 * Options of the dataframe readers and the scans, and their schemas: each public call parses its
 * options once with one of these, so a mistake is a clear {@linkcode BadRequestError} naming the
 * option before any request, and nothing below checks them again.
 *
 * @module
 */

import type { DataType } from "../deps.ts";
import {
  abortSignal,
  callback,
  count,
  defineOptions,
  filled,
  flag,
  isObject,
  isString,
  oneOf,
  type OptionRules,
  type OptionsSchema,
  rule,
} from "../client/options.ts";
import type { CallOptions } from "../client/endpoints.ts";
import { TABLE_FORMAT_ENTRIES, TABLE_FORMATS, type TableFormat } from "../registry/file_formats.ts";
import type { ProgressEvent } from "../progress/events.ts";
import { type Encoding, ENCODINGS } from "./encoding.ts";
import { JSON_LAYOUTS, type JsonLayout } from "./json_layout.ts";

/**
 * How a file's bytes become a table: the options `file.dataframe()` and `file.scan()` share
 * (and `batches()`, `head()`, `listing.dataframes()` and `listing.scan()` with them). Options
 * named as in `pl.readCSV` pass through to Polars; those about text (`sep`, `hasHeader`,
 * `quoteChar`, `nullValues`, `tryParseDates`, `skipRows`, `commentPrefix`, `decimalComma`) apply
 * to delimited text only (`hasHeader` and `skipRows` to Excel sheets too, and `sheet` only to
 * them), `inferSchemaLength` and `encoding` to delimited text and JSON, `jsonLayout` to JSON;
 * `columns` and `dtypes` apply to every format. An option that does not apply to the file's
 * format is ignored.
 *
 * @example
 * ```ts
 * import type { TableOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const semicolons: TableOptions = { sep: ";", nullValues: ["NA", "-"], skipRows: 2 };
 * assert.equal(semicolons.sep, ";");
 * ```
 */
export interface TableOptions {
  /**
   * Read as this format instead of detecting it (gzip is still detected by its signature).
   *
   * @default detected from the name, Terrain's info type and the first bytes
   */
  format?: TableFormat;
  /**
   * The encoding of a text file (delimited text, JSON, JSON Lines): `utf-16` (byte order from
   * its byte-order mark), `utf-16le`, `utf-16be`, `latin-1` / `iso-8859-1` (read as
   * `windows-1252`, which agrees but for € and the like at 0x80–0x9F) or `windows-1252`,
   * decoded as the bytes arrive. Text that is not valid UTF-8 without this option is a
   * `ParseError` naming the first bad byte's offset.
   *
   * @default "utf-8"
   */
  encoding?: Encoding;
  /**
   * Field separator of delimited text.
   *
   * @default from the name (`,` for `.csv`, a tab for `.tsv`) or the first lines
   */
  sep?: string;
  /**
   * Only these columns (in the file's order).
   *
   * @default every column
   */
  columns?: string[];
  /**
   * Column types to use instead of inferring them, e.g. `{ id: pl.Utf8 }`.
   *
   * @default inferred (see `inferSchemaLength`)
   */
  dtypes?: Record<string, DataType>;
  /**
   * Whether the first line of delimited text names the columns.
   *
   * @default true
   */
  hasHeader?: boolean;
  /**
   * Values read as null: one for all columns, a list, or one per column name.
   *
   * @default none: only empty fields are null
   */
  nullValues?: string | string[] | Record<string, string>;
  /**
   * Read delimited-text columns of ISO 8601 dates (`2012-01-31`) as `Date`, and of ISO
   * datetimes (`2012-01-31 10:00`, `…T10:00:00.5Z`) as `Datetime` (in UTC when they carry an
   * offset), judged from the first `inferSchemaLength` rows; false keeps them as text. Other
   * notations (`01/02/2012`) stay text; a later value that is not a date is a `ParseError`.
   * Datetimes are in microseconds: a finer fraction is never cut (a column showing one stays
   * text; one met later is a `ParseError`).
   *
   * @default true
   */
  tryParseDates?: boolean;
  /**
   * JSON files: which of pandas' `to_json` layouts (`orient`) the file is in: `records`,
   * `columns` (pandas' default), `index`, `split`, `table` or `values`; `auto` tells them apart
   * by their shape, and refuses a file whose keys do not tell `columns` from `index`.
   *
   * @default "auto"
   */
  jsonLayout?: JsonLayout;
  /**
   * Excel workbooks: the sheet to read, by name or by position counting from 0 (as pandas'
   * `sheet_name`); `file.sheets()` lists them.
   *
   * @default 0, the first sheet
   */
  sheet?: string | number;
  /**
   * Delimited text: read numbers written with a decimal comma (`3,14`, as spreadsheets export
   * them where the comma is the decimal mark, with `;` between fields) as numbers, as pandas'
   * `decimal=","` reads them. Only a field that is such a number and nothing else changes:
   * `1.234,5` (with a thousands separator) and `a,b` stay text, and so does every field of a
   * column read as text (`1,2` among codes), as pandas keeps it.
   *
   * @default false: `3,14` is text
   */
  decimalComma?: boolean;
  /**
   * Quote character of delimited text.
   *
   * @default '"'
   */
  quoteChar?: string;
  /**
   * Lines of delimited text to drop before the header (or the first row, without one), as
   * pandas' `skiprows=n`: an instrument's or logger's preamble. Lines as written: a quote in
   * them opens no field. In an Excel sheet, its first n rows (pandas' `read_excel(skiprows=n)`).
   *
   * @default 0
   */
  skipRows?: number;
  /**
   * Delimited text: a line (after `skipRows`) starting with this string is dropped, header
   * included, as pandas' `comment` and Polars' `commentPrefix` drop whole lines; a quote in it
   * opens no field. A line inside a quoted field is not one. 1 to 5 characters.
   *
   * @default none: no line is a comment
   */
  commentPrefix?: string;
  /**
   * Rows used to infer column types. Delimited text: as in Polars; types are fixed by the first
   * batch of rows, except that an integer column meeting a decimal value later is widened to
   * Float64; any other value that does not fit raises a {@linkcode ParseError} suggesting
   * `dtypes`. JSON and JSON Lines: all rows (of each batch of JSON Lines) unless given, since
   * Polars' first 100 would drop keys first seen later; a limit that proves too short falls back
   * to all rows.
   *
   * @default 100 for delimited text, all rows for JSON and JSON Lines
   */
  inferSchemaLength?: number;
}

/**
 * How to read a file into a DataFrame: the {@linkcode TableOptions} plus a row limit, the cache,
 * progress and a signal.
 *
 * @example
 * ```ts
 * import type { DataFrameOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const options: DataFrameOptions = { sep: ";", columns: ["date", "value"], nRows: 1000 };
 * assert.equal(options.nRows, 1000);
 * ```
 */
export interface DataFrameOptions extends TableOptions {
  /**
   * At most this many rows; the download stops as soon as they have arrived.
   *
   * @default every row
   */
  nRows?: number;
  /**
   * Use the store's local cache: serve an unchanged file from it, and keep a downloaded one
   * there.
   *
   * @default true when the store has a cache
   */
  cache?: boolean;
  /** Called with progress events (bytes received, rate); see {@linkcode ProgressEvent}. */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Show this read's progress: one line updated in place in a notebook, a bar on a terminal's
   * stderr. `false` keeps it quiet; `onProgress` is called either way.
   *
   * @default the store's `progress` setting (on unless `connect()` turned it off)
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
  /**
   * Rows per batch; the last batch may be smaller.
   *
   * @default 100_000
   */
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
  /**
   * Name of the column with each row's data-store path; false for none.
   *
   * @default "source"
   */
  source?: string | false;
}

/**
 * Options of `file.cachedPath()` and `file.downloadTo()`: the call's signal and its progress.
 *
 * @example
 * ```ts
 * import type { CopyOptions } from "./options.ts";
 *
 * const quiet: CopyOptions = { progress: false };
 * ```
 */
export interface CopyOptions extends CallOptions {
  /** Called with progress events (bytes received, rate); see {@linkcode ProgressEvent}. */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Show this call's progress; `false` keeps it quiet (`onProgress` is called either way).
   *
   * @default the store's `progress` setting
   */
  progress?: boolean;
}

/**
 * Options of `file.scan()` and `listing.scan()`: the {@linkcode TableOptions} of `dataframe()`,
 * with the meanings they have there, plus the remote route, progress and a signal. Text,
 * workbooks, gzip and Arrow streams are read whole, as `dataframe()` reads them with these
 * options. Parquet and Arrow files are scanned lazily: `columns` and `dtypes` are a lazy
 * selection and cast (a column `columns` names that the file lacks is a `ParseError` at
 * `scan()`), and the options about text are ignored, as `dataframe()` ignores them there; so a
 * scan collects to the table `dataframe()` gives with the same options.
 *
 * @example
 * ```ts
 * import type { ScanOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const localOnly: ScanOptions = { remote: false, sep: ";", nullValues: "NA" };
 * assert.equal(localOnly.remote, false);
 * ```
 */
export interface ScanOptions extends TableOptions {
  /**
   * Scan public Parquet files in place over their anonymous URL. With `false` every file is
   * scanned from its cached copy.
   *
   * @default true
   */
  remote?: boolean;
  /**
   * Called with progress events: of the cache copy, or, for a remote scan, of each `collect()`
   * (the bytes it reads; the total is not known beforehand).
   */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Show progress for this call.
   *
   * @default the store's `progress` setting
   */
  progress?: boolean;
  /**
   * Cancels the scan's requests: the footer read and the cache copy in `scan()`, and, for a
   * remote scan, every range read of each later `collect()`, which then rejects with an
   * `AbortError`.
   */
  signal?: AbortSignal;
}

/**
 * Options of `listing.scan()`: those of `file.scan()` plus the name of the column holding each
 * row's file.
 *
 * @example
 * ```ts
 * import type { ScanManyOptions } from "./options.ts";
 *
 * const options: ScanManyOptions = { source: "file", remote: false };
 * ```
 */
export interface ScanManyOptions extends ScanOptions {
  /**
   * Name of the column with each row's data-store path.
   *
   * @default "source"
   */
  source?: string;
}

/** Default rows per batch of `file.batches()`. */
export const DEFAULT_BATCH_ROWS = 100_000;

// Polars' readers take one byte.
const oneAscii = (value: unknown): value is string =>
  isString(value) && value.length === 1 && value.charCodeAt(0) < 0x80;
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every(isString);

/**
 * Python's names (pandas' `encoding=`) for encodings tern spells otherwise, and that no spelling
 * check would find: the hint of a refused `encoding` (`latin1`, `utf8` and `UTF-8` are found as
 * misspellings).
 */
const PYTHON_ENCODINGS: Readonly<Record<string, Encoding>> = {
  cp1252: "windows-1252",
  "utf-8-sig": "utf-8",
  utf_8_sig: "utf-8",
  ascii: "utf-8",
};

/**
 * A format named by its file extension (`xlsx`, `jsonl`, `feather`), as pandas' readers are
 * named: the hint of a refused `format`, from the registry's extensions (a spelling check
 * would take `jsonl` for `json`).
 */
const FORMAT_EXTENSIONS: Readonly<Record<string, TableFormat>> = Object.fromEntries(
  TABLE_FORMAT_ENTRIES.flatMap((entry) =>
    entry.extensions.map((extension) => [extension, entry.table.reader])
  ),
);

/** The rules of {@linkcode TableOptions}: every reader's and every scan's. */
function tableRules() {
  return {
    format: oneOf(TABLE_FORMATS, FORMAT_EXTENSIONS),
    encoding: oneOf(ENCODINGS, PYTHON_ENCODINGS),
    sep: rule(
      "one ASCII character, not a line break",
      (value): value is string => oneAscii(value) && value !== "\n" && value !== "\r",
    ),
    quoteChar: rule("one ASCII character", oneAscii),
    skipRows: count(0),
    commentPrefix: rule(
      "a string of 1 to 5 characters without a line break",
      (value): value is string =>
        isString(value) && value.length >= 1 && value.length <= 5 && !/[\r\n]/.test(value),
    ),
    columns: rule(
      "a non-empty array of column names",
      (value): value is string[] => isStrings(value) && value.length > 0,
    ),
    dtypes: rule(
      "an object of column name to Polars type, e.g. { a: pl.Utf8 }",
      (value): value is Record<string, DataType> => isObject(value),
    ),
    sheet: rule(
      "a sheet name or a position counting from 0",
      (value): value is string | number =>
        isString(value) || Number.isSafeInteger(value) && (value as number) >= 0,
    ),
    jsonLayout: oneOf(JSON_LAYOUTS),
    hasHeader: flag(),
    decimalComma: flag(),
    tryParseDates: flag(),
    nullValues: rule(
      "a string, an array of strings, or an object of column name to string",
      (value): value is string | string[] | Record<string, string> =>
        isString(value) || isStrings(value) || isObject(value) && isStrings(Object.values(value)),
    ),
    inferSchemaLength: count(1),
  } satisfies OptionRules<TableOptions>;
}

/** The rules of the options every reader shares. */
function readerRules() {
  return {
    ...tableRules(),
    nRows: count(0),
    cache: flag(),
    progress: flag(),
    onProgress: callback<(event: ProgressEvent) => void>(),
    signal: abortSignal(),
  } satisfies OptionRules<DataFrameOptions>;
}

/**
 * The options of `file.dataframe()` and `file.head()`.
 *
 * @example
 * ```ts
 * import { DATAFRAME_OPTIONS } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(DATAFRAME_OPTIONS.parse("file.dataframe()", { sep: ";" }), { sep: ";" });
 * assert.throws(() => DATAFRAME_OPTIONS.parse("file.dataframe()", { seperator: ";" }), {
 *   name: "BadRequestError",
 *   message: 'file.dataframe(): unknown option "seperator": did you mean "sep"?',
 * });
 * assert.throws(() => DATAFRAME_OPTIONS.parse("file.dataframe()", { quoteChar: "ab" }), {
 *   message: 'file.dataframe(): quoteChar must be one ASCII character, got "ab".',
 * });
 * ```
 */
export const DATAFRAME_OPTIONS: OptionsSchema<DataFrameOptions> = defineOptions(readerRules);

/**
 * The options of `file.batches()`.
 *
 * @example
 * ```ts
 * import { BATCH_OPTIONS } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => BATCH_OPTIONS.parse("file.batches()", { rows: 0 }), {
 *   message: "file.batches(): rows must be an integer ≥ 1, got 0.",
 * });
 * ```
 */
export const BATCH_OPTIONS: OptionsSchema<BatchOptions> = defineOptions(() => ({
  ...readerRules(),
  rows: count(1),
}));

/**
 * The options of `listing.dataframes()`.
 *
 * @example
 * ```ts
 * import { MANY_OPTIONS } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(MANY_OPTIONS.parse("listing.dataframes()", { source: false }), { source: false });
 * ```
 */
export const MANY_OPTIONS: OptionsSchema<ManyOptions> = defineOptions(() => ({
  ...readerRules(),
  source: rule(
    "a column name, or false for no source column",
    (value): value is string | false => value === false || isString(value) && value !== "",
  ),
}));

/** The rules of `file.scan()`'s options. */
function scanRules() {
  return {
    ...tableRules(),
    remote: flag(),
    onProgress: callback<(event: ProgressEvent) => void>(),
    progress: flag(),
    signal: abortSignal(),
  } satisfies OptionRules<ScanOptions>;
}

/**
 * The options of `file.scan()`.
 *
 * @example
 * ```ts
 * import { SCAN_OPTIONS } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => SCAN_OPTIONS.parse("file.scan()", { remot: false }), {
 *   message: 'file.scan(): unknown option "remot": did you mean "remote"?',
 * });
 * ```
 */
export const SCAN_OPTIONS: OptionsSchema<ScanOptions> = defineOptions(scanRules);

/**
 * The options of `listing.scan()`.
 *
 * @example
 * ```ts
 * import { SCAN_MANY_OPTIONS } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => SCAN_MANY_OPTIONS.parse("listing.scan()", { source: "" }), {
 *   message: 'listing.scan(): source must be a non-empty column name, got "".',
 * });
 * ```
 */
export const SCAN_MANY_OPTIONS: OptionsSchema<ScanManyOptions> = defineOptions(() => ({
  ...scanRules(),
  source: filled("a non-empty column name"),
}));

/**
 * The options of `file.cachedPath()` and `file.downloadTo()`.
 *
 * @example
 * ```ts
 * import { COPY_OPTIONS } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => COPY_OPTIONS.parse("file.cachedPath()", { onprogress: () => {} }), {
 *   message: 'file.cachedPath(): unknown option "onprogress": did you mean "onProgress"?',
 * });
 * ```
 */
export const COPY_OPTIONS: OptionsSchema<CopyOptions> = defineOptions(() => ({
  onProgress: callback<(event: ProgressEvent) => void>(),
  progress: flag(),
  signal: abortSignal(),
}));
