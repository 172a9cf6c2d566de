/**
 * Dates in delimited text: which text columns hold ISO 8601 dates or datetimes, decided from the
 * rows Polars infers types from, and read by Polars itself as `Date` or `Datetime`.
 *
 * Only ISO 8601 is taken (`2012-01-31`, `2012-01-31 10:00`, `2012-01-31T10:00:00.5Z`): Polars'
 * own `tryParseDates` also reads `01/02/2012`, as 1 February, which an American file means as
 * 2 January — a wrong table is worse than a column of text. The decision is made once per read,
 * from the first `inferSchemaLength` rows (100 by default, as for every other type), so every
 * batch of a file gets the same types whichever way it is read; a later value that is not a date
 * is a {@linkcode ParseError} naming it, never a silent null, and a fraction of a second finer than
 * a microsecond is never cut (such columns stay text).
 *
 * The decision looks at text columns only, in the frame Polars reads with its own inference
 * anyway (no sample read of every column as text): numbers are numbers, whatever their width.
 *
 * Polars' CSV reader parses a column typed `Date`/`Datetime` several times slower than text, so
 * {@linkcode readDated} reads date columns as text and converts them with the exact format of
 * the first sampled value; only when some value does not fit that format (another ISO shape, or
 * no date) does it read again with the types, the reader's own (slower) parse deciding.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { DataFrame, DataType, Expr } from "../deps.ts";
import type { DataFrameOptions } from "./options.ts";
import { columnsOfType, exactDates } from "../polars/adapter.ts";
import type { Polars } from "./polars.ts";

/** Rows Polars infers types from by default; the same rows decide which columns are dates. */
const DEFAULT_SAMPLE = 100;

/**
 * An ISO 8601 date, or datetime to the minute or second with an optional fraction (none finer
 * than a microsecond: a nonzero seventh digit would be cut) and offset.
 */
const ISO =
  /^\d{4}-(?:0[1-9]|1[0-2])-(\d{2})(?:([T ])(?:[01]\d|2[0-3]):[0-5]\d(:(?:[0-5]\d|60)(\.\d{1,6}0{0,3})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
/** A fraction of a second finer than a microsecond; Rust regex syntax, for `str.contains`. */
const SUB_MICROSECOND = "\\.\\d{6}\\d*[1-9]";

/**
 * The chrono format that reads exactly `value`'s ISO shape (`%Y-%m-%d %H:%M:%S`, ...), or
 * `undefined` when it is no ISO date or datetime of a day the calendar has (no 2012-02-30).
 */
function isoFormat(value: string): string | undefined {
  const iso = ISO.exec(value);
  // Date parses 2012-02-30 as 1 March.
  if (iso === null || new Date(`${value.slice(0, 10)}T00:00Z`).getUTCDate() !== Number(iso[1])) {
    return undefined;
  }
  const [, , separator, seconds, fraction, offset] = iso;
  if (separator === undefined) return "%Y-%m-%d";
  return `%Y-%m-%d${separator}%H:%M${seconds === undefined ? "" : ":%S"}` +
    `${fraction === undefined ? "" : "%.f"}${offset === undefined ? "" : "%#z"}`;
}

/**
 * The Polars type for a text column whose sampled values are `values` (nulls left out): `Date`
 * when all are dates, `Datetime("us")` when all are datetimes without an offset (dates among
 * them read as midnight), `Datetime("us", "UTC")` when all carry an offset; `undefined` (stay
 * text) for anything else, a mix of offsets and none included, a fraction of a second finer
 * than a microsecond (it would be cut), and for no values at all.
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
 * assert.equal(dateTypeOf(pl, ["2012-01-01T10:00:00.123456789"]), undefined); // nanoseconds
 * ```
 */
export function dateTypeOf(pl: Polars, values: readonly string[]): DataType | undefined {
  const formats = values.map(isoFormat);
  if (formats.length === 0 || formats.includes(undefined)) return undefined;
  if (formats.every((format) => format === "%Y-%m-%d")) return pl.Date;
  const offsets = formats.filter((format) => format!.endsWith("%#z")).length;
  if (offsets === 0) return pl.Datetime("us");
  return offsets === formats.length ? pl.Datetime("us", "UTC") : undefined;
}

/**
 * A column of delimited text read as dates: its Polars type, and the chrono format of its first
 * sampled value, which {@linkcode readDated} converts the column's text with first.
 *
 * @example
 * ```ts
 * import { loadPolars } from "./polars.ts";
 * import type { DateColumn } from "./dates.ts";
 *
 * const pl = await loadPolars();
 * const column: DateColumn = { type: pl.Datetime("us"), format: "%Y-%m-%d %H:%M:%S" };
 * ```
 */
export interface DateColumn {
  /** `Date`, `Datetime("us")` or `Datetime("us", "UTC")` ({@linkcode dateTypeOf}). */
  type: DataType;
  /** The format of the column's first sampled value, such as `%Y-%m-%dT%H:%M:%S%.f%#z`. */
  format: string;
}

/**
 * The columns of delimited text to read as dates, with their Polars types, judged from `frame`,
 * the text as read with Polars' inference (`tryParseDates` off): every text column whose
 * non-null values among the first `inferSchemaLength` rows (default 100) are all ISO 8601 dates
 * or datetimes ({@linkcode dateTypeOf}), except columns the caller typed with `dtypes`. Empty
 * when `tryParseDates` is false. Only text columns are looked at: inference has made numbers
 * and booleans of the others, and pulling every column of a wide numeric table into JavaScript
 * would cost more than reading it. Which columns are text is asked of the native frame in one
 * read ({@linkcode columnsOfType}): a wide frame's `dtypes` and `columns` cost a pass over every
 * column each.
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
 * const frame = pl.readCSV(csv);
 * const columns = dateColumns(pl, frame, {});
 * assert.deepEqual(Object.keys(columns), ["date"]);
 * assert.equal(columns.date.format, "%Y-%m-%d");
 * assert.deepEqual(dateColumns(pl, frame, { tryParseDates: false }), {});
 * ```
 */
export function dateColumns(
  pl: Polars,
  frame: DataFrame,
  options: Pick<DataFrameOptions, "tryParseDates" | "inferSchemaLength" | "dtypes">,
): Record<string, DateColumn> {
  if (options.tryParseDates === false) return {};
  const typed = options.dtypes ?? {};
  // Column names are data: `constructor` is "in" every object, and only an own key was typed.
  const text = columnsOfType(frame, ["String"]).filter((name) => !Object.hasOwn(typed, name));
  if (text.length === 0) return {};
  // Each call into Polars costs more than a small file's parse: none that can be left out.
  const rows = options.inferSchemaLength ?? DEFAULT_SAMPLE;
  const sample = (frame.height > rows ? frame.head(rows) : frame).select(...text);
  const columns: [string, DateColumn][] = [];
  for (const series of sample.getColumns()) {
    const values = (series.toArray() as (string | null)[]).filter((value) => value !== null);
    const type = dateTypeOf(pl, values);
    if (type !== undefined) columns.push([series.name, { type, format: isoFormat(values[0])! }]);
  }
  // Built by entries: assigning a column named `__proto__` would set the prototype instead.
  return Object.fromEntries(columns);
}

/** Text up to this size is searched for a date before any column is sampled. */
const SEARCHED_BYTES = 1024 * 1024;
/** How every value {@linkcode isoFormat} accepts begins. */
const ISO_START = /\d{4}-(?:0[1-9]|1[0-2])-\d{2}/;

/**
 * Whether delimited text may hold a column of dates: `false` only when `bytes`, the very text
 * parsed (up to 1 MiB), has nothing shaped like the start of an ISO 8601 date. A value is a
 * piece of its text with at most quotes taken out, so then no column can be one, and
 * {@linkcode dateColumns} (several calls into Polars, more than a small file's parse) is left
 * out. Longer text is always sampled.
 *
 * @example
 * ```ts
 * import { mayHoldDates } from "./dates.ts";
 * import assert from "node:assert/strict";
 *
 * const text = (csv: string) => new TextEncoder().encode(csv);
 * assert.equal(mayHoldDates(text("station,temp\nST1,12.5\n")), false);
 * assert.equal(mayHoldDates(text('at,temp\n"2012-01-31 10:00",12.5\n')), true);
 * ```
 */
export function mayHoldDates(bytes: Uint8Array): boolean {
  if (bytes.byteLength > SEARCHED_BYTES) return true;
  // Digits and "-" are single bytes in UTF-8: a byte-wise decoding finds them exactly.
  return ISO_START.test(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"),
  );
}

/**
 * Reads delimited text with the `dates` columns as their Date/Datetime types, the fast way:
 * `read(types)` reads the text with `types` for those columns (to merge into `dtypes` or a
 * schema); `text`, when given, is the text already read with those columns as text. It reads
 * them as text, then converts each with its {@linkcode DateColumn.format},
 * exactly (the whole value, strictly that shape). When every value fits, that is the frame;
 * when one does not (another ISO shape, or no date), it reads again with the date types and the
 * reader's own parse decides, as it always did: other ISO shapes are read, a value that is no
 * date throws. Either way a fraction of a second finer than a microsecond throws, naming the
 * value, rather than being cut.
 *
 * @throws {Error} the reader's, or one naming a value with a sub-microsecond fraction.
 *
 * @example
 * ```ts
 * import { Buffer } from "node:buffer";
 * import { loadPolars } from "./polars.ts";
 * import { dateColumns, readDated } from "./dates.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const csv = Buffer.from("at,n\n2012-01-01 10:00:00,1\n2012-01-01T11:30,2\n");
 * const text = pl.readCSV(csv);
 * const dates = dateColumns(pl, text, {});
 * const frame = readDated(pl, dates, (dtypes) => pl.readCSV(csv, { dtypes }), text);
 * assert.equal(String(frame.getColumn("at").dtype), String(pl.Datetime("us")));
 * assert.deepEqual(
 *   (frame.getColumn("at").toArray() as unknown as Date[]).map((d) => d.toISOString()),
 *   ["2012-01-01T10:00:00.000Z", "2012-01-01T11:30:00.000Z"], // the second in another shape
 * );
 * ```
 */
export function readDated(
  pl: Polars,
  dates: Record<string, DateColumn>,
  read: (types: Record<string, DataType>) => DataFrame,
  text?: DataFrame,
): DataFrame {
  const names = Object.keys(dates);
  if (names.length === 0) return text ?? read({});
  text ??= read(Object.fromEntries(names.map((name) => [name, pl.String])));
  const columns = new Set(text.columns);
  const present = names.filter((name) => columns.has(name));
  if (present.length === 0) return text;
  const parsed = text.withColumns(...present.map((name) => converted(pl, name, dates[name])));
  const fits = present.every((name) => {
    const column = parsed.getColumn(name);
    return String(column.dtype) === String(dates[name].type) &&
      column.nullCount() === text.getColumn(name).nullCount();
  });
  for (const name of present) {
    // Either parse cuts what a microsecond cannot hold; only a fraction in the format (or a
    // value the format did not fit) can hold one.
    const datetime = String(dates[name].type) !== String(pl.Date);
    if (datetime && (!fits || dates[name].format.includes("%.f"))) refuseCut(pl, text, name);
  }
  return fits ? parsed : read(Object.fromEntries(names.map((name) => [name, dates[name].type])));
}

/**
 * The expression converting text column `name` with `date.format`, null where a value does not
 * fit the whole value.
 */
function converted(pl: Polars, name: string, date: DateColumn): Expr {
  const to = String(date.type) === String(pl.Date) ? "date" : "datetime";
  return exactDates(pl, { column: name, format: date.format, to });
}

/** Throws when a value of text column `name` has a fraction a microsecond cannot hold. */
function refuseCut(pl: Polars, text: DataFrame, name: string): void {
  const finer = text.select(pl.col(name)).filter(pl.col(name).str.contains(SUB_MICROSECOND));
  if (finer.height === 0) return;
  const value = String(finer.getColumn(name).head(1).toArray()[0]);
  throw new Error(
    `could not parse \`${value}\` as dtype \`datetime[μs]\` at column '${name}': its fraction ` +
      "of a second is finer than a microsecond, and would be cut",
  );
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
