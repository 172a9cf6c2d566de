/**
 * Polars DataFrames shown the tern way: {@linkcode frameView} turns a frame into the plain view
 * data of `lib/display/frame.ts` (types as short labels, numbers rounded per column with the
 * exact value kept, integers as integers, dates as dates, nulls marked), and {@linkcode view}
 * wraps a frame so that a notebook renders it as a tern card. Once an entry point has installed
 * the frame view ({@linkcode installFrameView}), every frame tern's Polars makes — read by tern
 * or derived by `filter`, `groupBy`, `join`, … — shows the same card, as itables'
 * `init_notebook_mode` does for pandas; {@linkcode setFrameView} switches back to Polars' own
 * table.
 *
 * @module
 */

import { BadRequestError } from "../client/errors.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { withDisplay } from "../display/attach.ts";
import {
  type ColumnKind,
  type FrameCell,
  type FrameColumn,
  frameText,
  type FrameView,
  renderFrame,
} from "../display/frame.ts";
import { cellText } from "../display/value.ts";
import type { DataFrame } from "../deps.ts";
import { type FrameHook, frameHook, hookFrames } from "../polars/adapter.ts";

/**
 * How much of a frame a view shows.
 *
 * @example
 * ```ts
 * import type { ViewOptions } from "./view.ts";
 *
 * const options: ViewOptions = { rows: 10, precision: 2, title: "penguins.csv", width: 80 };
 * ```
 */
export interface ViewOptions {
  /**
   * Most rows shown; a longer frame shows its first rows and its last five.
   * @default 20
   */
  rows?: number;
  /**
   * Most columns shown; the rest are counted.
   * @default 30
   */
  columns?: number;
  /**
   * Decimals every float shows (0–15); the exact value stays on hover.
   * @default up to 6 significant digits and at most 4 decimals, the same for a whole column
   */
  precision?: number;
  /** A title above the table (where the frame came from). */
  title?: string;
  /** Short notes under the title (which columns were parsed as dates, say). */
  notes?: readonly string[];
  /**
   * Width of the plain-text table in characters.
   * @default 100
   */
  width?: number;
}

/** Rows kept at the end of a frame too long to show whole. */
const TAIL_ROWS = 5;

/** Decimals a rounded number keeps at most. */
const MAX_DECIMALS = 4;

/** Significant digits a rounded number keeps (fewer when MAX_DECIMALS cuts first). */
const SIGNIFICANT = 6;

/** Most decimals the `precision` option takes: a float64 holds about 15 significant digits. */
const MAX_PRECISION = 15;

/**
 * The plain view data of a frame: shape, column names and type labels, and the formatted cells
 * of the rows shown.
 *
 * @example Rounded for display, exact on hover; integers stay integers
 * ```ts
 * import pl from "../../polars.ts";
 * import { frameView } from "./view.ts";
 * import assert from "node:assert/strict";
 *
 * const frame = pl.DataFrame({ mass: [3733.0882352941176, 39.1], year: [2020, 2021] });
 * const view = frameView(frame);
 * assert.deepEqual(view.columns.map((column) => column.type), ["f64", "f64"]);
 * assert.deepEqual(view.head[0], [{ text: "3733.09", exact: "3733.0882352941176" }, { text: "2020" }]);
 * assert.deepEqual(view.head[1][0], { text: "39.10", exact: "39.1" });
 * ```
 */
export function frameView(frame: DataFrame, options: ViewOptions = {}): FrameView {
  const precision = options.precision;
  if (
    precision !== undefined &&
    (!Number.isInteger(precision) || precision < 0 || precision > MAX_PRECISION)
  ) {
    throw new BadRequestError(
      `precision must be an integer from 0 to ${MAX_PRECISION}, got ${String(precision)}.`,
    );
  }
  const maxRows = Math.max(1, options.rows ?? 20);
  const maxColumns = Math.max(1, options.columns ?? 30);
  const { height, width } = frame.shape;
  const names = frame.columns.slice(0, maxColumns);
  const shown = names.length < width ? frame.select(...names) : frame;
  const split = height > maxRows;
  const tailRows = split ? Math.min(TAIL_ROWS, Math.max(0, maxRows - 1)) : 0;
  const headRows = split ? maxRows - tailRows : height;
  const head = shown.head(headRows);
  const tail = tailRows > 0 ? shown.tail(tailRows) : undefined;
  const columns: FrameColumn[] = [];
  const headCells: FrameCell[][] = Array.from({ length: head.height }, () => []);
  const tailCells: FrameCell[][] = Array.from({ length: tail?.height ?? 0 }, () => []);
  names.forEach((name, index) => {
    const dtype = shown.dtypes[index];
    const kind = kindOf(dtype);
    columns.push({ name, type: typeLabel(dtype), kind });
    const values = variantOf(dtype) === "Decimal" ? decimalTexts : columnValues;
    const top = values(head, name);
    const bottom = tail === undefined ? [] : values(tail, name);
    const cells = formatColumn([...top, ...bottom], kind, precision, zoneOf(dtype));
    cells.forEach((cell, row) => {
      if (row < top.length) headCells[row].push(cell);
      else tailCells[row - top.length].push(cell);
    });
  });
  return {
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.notes === undefined ? {} : { notes: options.notes }),
    height,
    width,
    columns,
    head: headCells,
    tail: tailCells,
  };
}

/**
 * What {@linkcode view} returns: a notebook shows it as a tern DataFrame card, and its string
 * form is the plain-text table.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
 * import { type FrameDisplay, view } from "./view.ts";
 * import assert from "node:assert/strict";
 *
 * const shown: FrameDisplay = view(pl.DataFrame({ a: [1] }));
 * assert.equal(typeof shown[JUPYTER_DISPLAY], "function");
 * ```
 */
export interface FrameDisplay {
  /** The MIME bundle a notebook shows. */
  [JUPYTER_DISPLAY](): MediaBundle;
  /** The plain-text table. */
  toString(): string;
}

/**
 * A Polars DataFrame shown the tern way: shape, column types, the first and last rows with
 * "N more rows" between them, numbers rounded (exact on hover), text cut with an ellipsis
 * (whole on hover), dates as dates, nulls set apart, and a table that scrolls sideways inside
 * its card. Make it a cell's last expression in a notebook; print it in a terminal.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
 * import { view } from "./view.ts";
 * import assert from "node:assert/strict";
 *
 * const shown = view(pl.DataFrame({ species: ["Adelie", "<b>Gentoo</b>"], year: [2007, 2009] }));
 * const html = shown[JUPYTER_DISPLAY]()["text/html"];
 * assert.ok(html.includes("&lt;b&gt;Gentoo&lt;/b&gt;") && !html.includes("<b>Gentoo"));
 * assert.match(String(shown), /^DataFrame 2 rows × 2 columns/);
 * ```
 */
export function view(frame: DataFrame, options: ViewOptions = {}): FrameDisplay {
  const width = options.width ?? 100;
  return {
    [JUPYTER_DISPLAY]: () => renderFrame(frameView(frame, options), width),
    toString: () => frameText(frameView(frame, options), width),
    [Symbol.for("Deno.customInspect")]: () => frameText(frameView(frame, options), width),
  };
}

/**
 * Gives a frame the tern view in notebooks (a hidden display method; the frame is otherwise
 * untouched), and returns it. The frame keeps Polars' own display for {@linkcode setFrameView}.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { withFrameDisplay } from "./view.ts";
 * import assert from "node:assert/strict";
 *
 * const frame = withFrameDisplay(pl.DataFrame({ a: [1] }), { title: "a.csv" });
 * const bundle = (frame as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")]();
 * assert.ok(bundle["text/html"].includes("t-frame") && bundle["text/html"].includes("a.csv"));
 * ```
 */
export function withFrameDisplay<T extends DataFrame>(frame: T, options: ViewOptions = {}): T {
  const current = (frame as unknown as Record<symbol, unknown>)[JUPYTER_DISPLAY];
  // A frame given the tern view before (by the frame view, then with a title by tern) keeps
  // Polars' own display on tern's display method.
  const polars = typeof current !== "function"
    ? undefined
    : POLARS_DISPLAY in current
    ? (current as { [POLARS_DISPLAY]: (() => unknown) | undefined })[POLARS_DISPLAY]
    : current as () => unknown;
  const render = () => {
    const hook = frameHook();
    const mode = hook instanceof FrameViewer ? hook.mode : "tern";
    if (mode === "polars" && polars !== undefined) return polars.call(frame) as MediaBundle;
    return renderFrame(frameView(frame, options), options.width ?? 100);
  };
  Object.defineProperty(render, POLARS_DISPLAY, { value: polars });
  return withDisplay(frame, render);
}

/** Where tern's display method of a frame keeps the frame's own Polars display method. */
const POLARS_DISPLAY = Symbol("tern.polarsDisplay");

/**
 * How notebooks show Polars frames: `"tern"`, the tern card, or `"polars"`, Polars' own table
 * (HTML plus `application/vnd.dataresource+json`, for front ends and tools that read the latter).
 *
 * @example
 * ```ts
 * import type { FrameViewMode } from "./view.ts";
 *
 * const mode: FrameViewMode = "polars";
 * ```
 */
export type FrameViewMode = "tern" | "polars";

/**
 * The frame view as installed: what gives every frame Polars makes the tern view, and the mode
 * {@linkcode setFrameView} switches. The Polars adapter holds the one instance.
 */
class FrameViewer implements FrameHook {
  mode: FrameViewMode = "tern";

  wrapFrame(frame: DataFrame): DataFrame {
    return withFrameDisplay(frame);
  }
}

/**
 * Chooses how notebooks show every frame of tern's Polars — the frames tern returns and those
 * derived from them or made with `pl` — from now on, including frames made earlier; returns the
 * mode it replaces. `view(frame)` shows the tern card in either mode. Installs the frame view
 * ({@linkcode installFrameView}) when no entry point has.
 *
 * @throws {BadRequestError} when `next` is neither `"tern"` nor `"polars"`.
 *
 * @example Polars' own table, then the tern card again
 * ```ts
 * import pl from "../../polars.ts";
 * import { setFrameView } from "./view.ts";
 * import assert from "node:assert/strict";
 *
 * const frame = pl.DataFrame({ a: [1.5] });
 * const show = () => (frame as unknown as Record<symbol, () => Record<string, unknown>>)[Symbol.for("Jupyter.display")]();
 * assert.equal(setFrameView("polars"), "tern");
 * assert.ok("application/vnd.dataresource+json" in show());
 * setFrameView("tern");
 * assert.ok(String(show()["text/html"]).includes("t-frame"));
 * ```
 */
export function setFrameView(next: FrameViewMode): FrameViewMode {
  if (next !== "tern" && next !== "polars") {
    throw new BadRequestError(
      `setFrameView takes "tern" or "polars", got ${JSON.stringify(next)}.`,
    );
  }
  const viewer = hookFrames(new FrameViewer());
  const previous = viewer.mode;
  viewer.mode = next;
  return previous;
}

/**
 * Makes every frame nodejs-polars makes from now on show the tern view in notebooks, as
 * itables' `init_notebook_mode` does for pandas: frames tern reads, and those derived from any
 * frame (`filter`, `groupBy`, `join`, …) or made with `pl`. tern's entry points (`mod.ts`,
 * `polars.ts`) call it; calling it again does nothing. It loads nothing: when Polars is not
 * loaded yet, the view is put in place as it loads. Should Polars' files be out of reach (its
 * package resolved to no `file:` URL), only the frames tern returns show its view.
 *
 * @example
 * ```ts
 * import { loadPolars } from "../data/polars.ts";
 * import { installFrameView } from "./view.ts";
 * import assert from "node:assert/strict";
 *
 * installFrameView();
 * installFrameView(); // once is enough; again changes nothing
 * const pl = await loadPolars();
 * const derived = pl.DataFrame({ a: [1, 2] }).filter(pl.col("a").gt(1));
 * const bundle = (derived as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")]();
 * assert.ok(bundle["text/html"].includes("t-frame"));
 * ```
 */
export function installFrameView(): void {
  hookFrames(new FrameViewer());
}

function columnValues(frame: DataFrame, name: string): unknown[] {
  return frame.getColumn(name).toArray() as unknown[];
}

/**
 * A Decimal column's values as Polars writes them (`1.25`, `-3.10`), null where empty:
 * nodejs-polars hands no Decimal to JavaScript (Parquet from Spark, pyarrow and databases has
 * them), and its CSV text is exact where a float would not be.
 */
function decimalTexts(frame: DataFrame, name: string): (string | null)[] {
  const text = String(frame.select(name).rename({ [name]: "v" }).writeCSV());
  return text.split("\n").slice(1, -1).map((value) => value === "" ? null : value);
}

/** The kind of a Polars data type, by its variant name. */
function kindOf(dtype: unknown): ColumnKind {
  const variant = variantOf(dtype);
  if (/^U?Int\d+$/.test(variant)) return "integer";
  if (/^(Float\d+|Decimal)$/.test(variant)) return "number";
  if (variant === "String" || variant === "Utf8" || variant === "Categorical") return "text";
  if (variant === "Date") return "date";
  if (variant === "Datetime") return "datetime";
  if (variant === "Bool") return "boolean";
  return "other";
}

function variantOf(dtype: unknown): string {
  const variant = (dtype as { variant?: unknown } | null)?.variant;
  if (typeof variant === "string") return variant;
  return String(dtype).replace(/^DataType\((\w+).*$/, "$1");
}

const SHORT: Record<string, string> = {
  String: "str",
  Utf8: "str",
  Bool: "bool",
  Date: "date",
  Categorical: "cat",
  Null: "null",
};

/** Polars' own short labels (`f64`, `str`, `datetime[ms]`). */
function typeLabel(dtype: unknown): string {
  const variant = variantOf(dtype);
  if (SHORT[variant] !== undefined) return SHORT[variant];
  // Int64 → i64, UInt8 → u8, Float32 → f32.
  const sized = /^(Int|UInt|Float)(8|16|32|64)$/.exec(variant);
  if (sized !== null) return `${sized[1][0].toLowerCase()}${sized[2]}`;
  const full = String(dtype).replace(/^DataType\((.*)\)$/, "$1");
  const datetime = /^Datetime\((\w+),\s*([^)]*)\)$/.exec(full);
  if (datetime !== null) {
    return `datetime[${datetime[1]}${datetime[2] === "" ? "" : `, ${datetime[2]}`}]`;
  }
  return full.toLowerCase();
}

function formatColumn(
  values: readonly unknown[],
  kind: ColumnKind,
  precision: number | undefined,
  zone: string | undefined,
): FrameCell[] {
  if (kind === "number") {
    const decimals = precision ?? Math.max(
      0,
      ...values.map((value) => typeof value === "number" ? decimalsOf(value) : 0),
    );
    return values.map((value) => numberCell(value, decimals, precision));
  }
  if (kind === "datetime") {
    const dates = values.filter((value): value is Date => value instanceof Date);
    const unit = dates.some((date) => date.getUTCMilliseconds() !== 0)
      ? 23
      : dates.some((date) => date.getUTCSeconds() !== 0)
      ? 19
      : 16;
    return values.map((value) => dateCell(value, unit, zone));
  }
  if (kind === "date") return values.map((value) => dateCell(value, 10));
  return values.map((value) =>
    value === null || value === undefined ? NULL : { text: cellText(value) }
  );
}

const NULL: FrameCell = Object.freeze({ text: "null", null: true });

/** Decimals a number needs when rounded to the shown precision (trailing zeros dropped). */
function decimalsOf(value: number): number {
  if (!Number.isFinite(value) || value === 0 || exponential(value)) return 0;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const digits = Math.min(MAX_DECIMALS, Math.max(0, SIGNIFICANT - 1 - magnitude));
  const fixed = value.toFixed(digits).replace(/\.?0+$/, "");
  const dot = fixed.indexOf(".");
  return dot < 0 ? 0 : fixed.length - dot - 1;
}

/** Too large or too small for fixed decimals. */
function exponential(value: number): boolean {
  const size = Math.abs(value);
  return size >= 1e15 || (size !== 0 && size < 1e-4);
}

function numberCell(value: unknown, decimals: number, precision: number | undefined): FrameCell {
  if (value === null || value === undefined) return NULL;
  if (typeof value !== "number") return { text: cellText(value) };
  const exact = String(value);
  let text: string;
  if (Number.isNaN(value)) text = "NaN";
  else if (!Number.isFinite(value)) text = value > 0 ? "inf" : "-inf";
  else if (exponential(value)) text = value.toExponential(precision ?? 3);
  else text = value.toFixed(decimals);
  return text === exact ? { text } : { text, exact };
}

function dateCell(value: unknown, length: number, zone?: string): FrameCell {
  if (value === null || value === undefined) return NULL;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return { text: cellText(value) };
  const iso = value.toISOString();
  const wall = zone === undefined ? iso : wallClock(value, zone);
  return { text: wall.slice(0, length).replace("T", " "), exact: iso };
}

/** The zone of a Datetime type that has one other than UTC (`Europe/Paris`). */
function zoneOf(dtype: unknown): string | undefined {
  const zone = /^(?:DataType\()?Datetime\(\w+,\s*([^)]+)\)/.exec(String(dtype))?.[1];
  return zone === undefined || zone === "UTC" ? undefined : zone;
}

/**
 * The time a clock in `zone` showed at `date`, as ISO text without offset: a column typed
 * `datetime[us, Europe/Paris]` shows Paris time, as Polars prints it, not UTC's.
 */
function wallClock(date: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).formatToParts(date).map(({ type, value }) => [type, value]),
  );
  const ms = String(date.getUTCMilliseconds()).padStart(3, "0");
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${ms}`;
}
