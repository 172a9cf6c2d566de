/**
 * Dates in delimited text: which text columns hold ISO 8601 dates or datetimes, decided from the
 * rows Polars infers types from, and read by Polars itself as `Date` or `Datetime`.
 *
 * Only ISO 8601 is taken (`2012-01-31`, `2012-01-31 10:00`, `2012-01-31T10:00:00.5Z`): Polars'
 * own `tryParseDates` also reads `01/02/2012`, as 1 February, which an American file means as
 * 2 January — a wrong table is worse than a column of text. The decision is made once per read,
 * from the first `inferSchemaLength` rows (100 by default, as for every other type), so every
 * batch of a file gets the same types whichever way it is read; a later value that is not a date
 * is a {@linkcode ParseError} naming it, never a silent null.
 *
 * @module
 */

import type { Buffer } from "node:buffer";
import type { DataFrame, DataType } from "../deps.ts";
import type { DataFrameOptions } from "./options.ts";
import type { Polars } from "./polars.ts";
import type { TableFormat } from "./formats.ts";

/** Rows Polars infers types from by default; the same rows decide which columns are dates. */
const DEFAULT_SAMPLE = 100;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** What one text value is: a date, a datetime with or without an offset, or neither. */
type Shape = "date" | "local" | "offset" | undefined;

function shapeOf(value: string): Shape {
  const date = DATE.exec(value);
  if (date !== null) return validDay(date) ? "date" : undefined;
  const time = DATETIME.exec(value);
  if (time === null || !validDay(time)) return undefined;
  const [hour, minute, second] = [Number(time[4]), Number(time[5]), Number(time[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  return time[7] === undefined ? "local" : "offset";
}

/** The calendar has that day (no 2012-02-30). */
function validDay(match: RegExpExecArray): boolean {
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day;
}

/**
 * The Polars type for a text column whose sampled values are `values` (nulls left out): `Date`
 * when all are dates, `Datetime("us")` when all are datetimes without an offset (dates among
 * them read as midnight), `Datetime("us", "UTC")` when all carry an offset; `undefined` (stay
 * text) for anything else, a mix of offsets and none included, and for no values at all.
 *
 * @example
 * ```ts
 * import { loadPolars } from "./polars.ts";
 * import { dateTypeOf } from "./dates.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * assert.equal(String(dateTypeOf(pl, ["2012-01-01", "2012-02-29"])), String(pl.Date));
 * assert.equal(String(dateTypeOf(pl, ["2012-01-01T10:00", "2012-01-02"])), String(pl.Datetime("us")));
 * assert.equal(String(dateTypeOf(pl, ["2012-01-01T10:00Z"])), String(pl.Datetime("us", "UTC")));
 * assert.equal(dateTypeOf(pl, ["2013-02-29"]), undefined); // no such day
 * assert.equal(dateTypeOf(pl, ["01/02/2012"]), undefined); // 1 February or 2 January?
 * ```
 */
export function dateTypeOf(pl: Polars, values: readonly string[]): DataType | undefined {
  if (values.length === 0) return undefined;
  const shapes = new Set(values.map(shapeOf));
  if (shapes.has(undefined)) return undefined;
  if (shapes.size === 1 && shapes.has("date")) return pl.Date;
  if (shapes.has("offset")) return shapes.size === 1 ? pl.Datetime("us", "UTC") : undefined;
  return pl.Datetime("us");
}

/**
 * Options of `pl.readCSV` that shape the rows and values read (the sample is read with the same
 * ones, so its column names and nulls are those of the real read).
 *
 * @example
 * ```ts
 * import type { TextReadOptions } from "./dates.ts";
 *
 * const options: TextReadOptions = { sep: ";", hasHeader: true, nullValues: "NA" };
 * ```
 */
export interface TextReadOptions {
  /** Field separator. */
  sep: string;
  /** The first line names the columns. */
  hasHeader: boolean;
  /** Quote character. */
  quoteChar?: string;
  /** Values read as null. */
  nullValues?: string | string[] | Record<string, string>;
}

/**
 * The columns of delimited text to read as dates, with their Polars types: every column whose
 * non-null values among the first `inferSchemaLength` rows (default 100) are all ISO 8601 dates
 * or datetimes ({@linkcode dateTypeOf}), except columns the caller typed with `dtypes`. Empty
 * when `tryParseDates` is false. Reads only those rows, as text.
 *
 * @example
 * ```ts
 * import { Buffer } from "node:buffer";
 * import { loadPolars } from "./polars.ts";
 * import { dateColumns } from "./dates.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const csv = Buffer.from("date,temp,note\n2012-01-01,12.8,\n2012-01-02,10.6,2012-01-02 rain\n");
 * const types = dateColumns(pl, csv, { sep: ",", hasHeader: true }, {});
 * assert.deepEqual(Object.keys(types), ["date"]);
 * assert.deepEqual(dateColumns(pl, csv, { sep: ",", hasHeader: true }, { tryParseDates: false }), {});
 * ```
 */
export function dateColumns(
  pl: Polars,
  input: string | Buffer,
  read: TextReadOptions,
  options: Pick<DataFrameOptions, "tryParseDates" | "inferSchemaLength" | "dtypes">,
): Record<string, DataType> {
  if (options.tryParseDates === false) return {};
  const sample = pl.readCSV(input, {
    ...read,
    // Every column as text: the values are judged here, not by Polars' inference.
    inferSchemaLength: 0,
    nRows: options.inferSchemaLength ?? DEFAULT_SAMPLE,
    rechunk: false,
  });
  const types: Record<string, DataType> = {};
  for (const column of sample.columns) {
    if (options.dtypes !== undefined && column in options.dtypes) continue;
    const values = sample.getColumn(column).dropNulls().toArray() as string[];
    const type = dateTypeOf(pl, values);
    if (type !== undefined) types[column] = type;
  }
  return types;
}

/**
 * The hint a Polars error about a date gets: which option keeps the column as text.
 *
 * @example
 * ```ts
 * import { dateHint } from "./dates.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new Error("could not parse `n/a` as dtype `date` at column 'day' (column number 1)");
 * assert.match(dateHint(error) ?? "", /dates from the first 100 rows/);
 * assert.equal(dateHint(new Error("other")), undefined);
 * ```
 */
export function dateHint(error: unknown): string | undefined {
  const text = error instanceof Error ? error.message : String(error);
  if (!/could not parse .* as dtype `(date|datetime)/i.test(text)) return undefined;
  return " The column held ISO dates from the first 100 rows (or inferSchemaLength) on, so it " +
    "was read as dates, and this value is not one: pass nullValues for a placeholder such as " +
    '"n/a", dtypes: { column: pl.String } for that column, or tryParseDates: false to keep ' +
    "every column as text.";
}

/**
 * What a frame's card says about dates: the columns of a delimited-text file that tern read as
 * dates or datetimes, and how to keep them as text; `undefined` when there are none (or the
 * format has types of its own).
 *
 * @example
 * ```ts
 * import { loadPolars } from "./polars.ts";
 * import { datesNote } from "./dates.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const frame = pl.DataFrame({ day: [new Date(0)], n: [1] }).withColumns(pl.col("day").cast(pl.Date));
 * assert.equal(datesNote(frame, "csv", {}), "dates parsed from text: day (tryParseDates: false keeps text)");
 * assert.equal(datesNote(frame, "parquet", {}), undefined);
 * ```
 */
export function datesNote(
  frame: DataFrame,
  format: TableFormat | undefined,
  options: Pick<DataFrameOptions, "tryParseDates" | "dtypes">,
): string | undefined {
  if (format !== "csv" && format !== "tsv") return undefined;
  if (options.tryParseDates === false) return undefined;
  const parsed = frame.columns.filter((column, index) =>
    /^(Date|Datetime)/.test(variantOf(frame.dtypes[index])) &&
    !(options.dtypes !== undefined && column in options.dtypes)
  );
  if (parsed.length === 0) return undefined;
  return `dates parsed from text: ${parsed.join(", ")} (tryParseDates: false keeps text)`;
}

function variantOf(dtype: unknown): string {
  const variant = (dtype as { variant?: unknown } | null)?.variant;
  return typeof variant === "string" ? variant : String(dtype).replace(/^DataType\(/, "");
}
