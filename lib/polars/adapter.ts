/**
 * Every use tern makes of nodejs-polars' internals, in one place, and the one way tern loads
 * Polars. The internals are safe to reach only because the version is pinned (0.25.2, in
 * `lib/deps.ts`); tests/polars/adapter_test.ts asserts each one's shape, so an upgrade that moves
 * one fails there first, naming it:
 *
 * - the frame factory, `_DataFrame` of the package's `bin/dataframe.js`, reached with Node's
 *   `createRequire`: every frame is made through it, so {@linkcode hookFrames} sees derived
 *   frames too (`filter`, `groupBy().agg`, `join`, `collect()`, …);
 * - a native expression (`expr._expr`) with its `strToDate` / `strToDatetime`, and the wrapper
 *   that makes an `Expr` of one (`pl.Expr(native)`), for {@linkcode exactDates};
 * - the native lazy frame behind a `LazyDataFrame` (`_ldf`), for {@linkcode isLazyFrame}.
 *
 * This module holds tern's only process-wide Polars state: the loaded module and the frame hook
 * (once set, every frame Polars makes passes through it).
 *
 * @module
 */

import {
  type DataFrame,
  type Expr,
  type LazyDataFrame,
  loadPolarsModule,
  polarsEntryUrl,
  type PolarsModule,
} from "../deps.ts";

/**
 * The nodejs-polars namespace (`pl`).
 *
 * @example
 * ```ts
 * import { loadPolars, type Polars } from "./adapter.ts";
 * import assert from "node:assert/strict";
 *
 * const pl: Polars = await loadPolars();
 * assert.deepEqual(pl.readCSV("a,b\n1,2\n").shape, { height: 1, width: 2 });
 * ```
 */
export type Polars = PolarsModule["default"];

/**
 * What every frame Polars makes passes through once {@linkcode hookFrames} has set it: it gets
 * each new frame and returns the frame users get (the same object, given a notebook view, say).
 *
 * @example
 * ```ts
 * import type { FrameHook } from "./adapter.ts";
 *
 * const untouched: FrameHook = { wrapFrame: (frame) => frame };
 * ```
 */
export interface FrameHook {
  /** Called with each frame as Polars makes it; returns the frame to hand out. */
  wrapFrame(frame: DataFrame): DataFrame;
}

/** `bin/dataframe.js` of the pinned nodejs-polars: the factory every frame is made by. */
interface FrameFactory {
  _DataFrame: (native: unknown) => DataFrame;
}

/** A native expression's string-to-date methods (nodejs-polars 0.25.2, `_expr`). */
interface NativeStringExpr {
  strToDate(format: string, strict: boolean, exact: boolean, cache: boolean): unknown;
  strToDatetime(
    format: string,
    timeUnit: "us",
    timeZone: undefined,
    strict: boolean,
    exact: boolean,
    cache: boolean,
    ambiguous: undefined,
  ): unknown;
}

/** Marks a wrapped factory, so that a second copy of tern in the process does not wrap it again. */
const WRAPPED = Symbol.for("tern.frameView");

/** The load in progress or done; a failed load is forgotten, so that the next call tries again. */
let loading: Promise<Polars> | undefined;
/** The factory, once Polars is loaded (`undefined` should its files be out of reach). */
let factory: FrameFactory | undefined;
/** The hook set by {@linkcode hookFrames}; the first one set stays. */
let hook: FrameHook | undefined;

/**
 * Loads nodejs-polars once per process (a native addon: only when a frame is first made, so
 * importing tern needs no `--allow-ffi`) and returns its namespace. Every load of Polars in tern
 * goes through here, so the frame hook, when set, is in place before the first frame is made.
 *
 * @example
 * ```ts
 * import { loadPolars } from "./adapter.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * assert.equal(await loadPolars(), pl); // loaded once
 * assert.equal(pl.DataFrame({ a: [1, 2] }).height, 2);
 * ```
 */
export function loadPolars(): Promise<Polars> {
  loading ??= Promise.all([
    loadPolarsModule(),
    // node:module costs tens of milliseconds to load: only with Polars.
    import("node:module"),
  ]).then(([polars, { createRequire }]) => {
    factory = frameFactory(createRequire);
    wrapFactory(); // the hook, when one was set before Polars loaded
    return polars.default;
  }).catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The pinned package's `bin/dataframe.js`, or `undefined` where its files are out of reach. */
function frameFactory(
  createRequire: (from: string) => (id: string) => unknown,
): FrameFactory | undefined {
  try {
    const entry = polarsEntryUrl();
    if (!entry.startsWith("file:")) return undefined;
    const found = createRequire(entry)("./dataframe") as Partial<FrameFactory>;
    return typeof found._DataFrame === "function" ? found as FrameFactory : undefined;
  } catch {
    return undefined;
  }
}

function wrapFactory(): void {
  if (factory === undefined || hook === undefined || WRAPPED in factory._DataFrame) return;
  const make = factory._DataFrame;
  const wrapFrame = hook.wrapFrame.bind(hook);
  const wrapped = (native: unknown) => wrapFrame(make(native));
  Object.defineProperty(wrapped, WRAPPED, { value: true });
  factory._DataFrame = wrapped;
}

/**
 * Sets what every frame nodejs-polars makes from now on passes through: at once when Polars is
 * loaded, else as soon as {@linkcode loadPolars} loads it. Idempotent: given a hook of the class
 * of the one already set, it keeps and returns that one; a hook of another class is refused, as
 * two hooks would each see the other's frames. Should Polars' files be out of reach (its package
 * resolved to no `file:` URL), no frame passes through it.
 *
 * @throws {Error} when a hook of another class is set already.
 *
 * @example Derived frames pass through the hook too
 * ```ts
 * import { type DataFrame } from "../deps.ts";
 * import { type FrameHook, hookFrames, loadPolars } from "./adapter.ts";
 * import assert from "node:assert/strict";
 *
 * class Recorder implements FrameHook {
 *   readonly seen: DataFrame[] = [];
 *   wrapFrame(frame: DataFrame): DataFrame {
 *     this.seen.push(frame);
 *     return frame;
 *   }
 * }
 * const recorder = hookFrames(new Recorder());
 * const pl = await loadPolars();
 * const derived = pl.DataFrame({ a: [1, 2, 3] }).filter(pl.col("a").gt(1));
 * assert.ok(recorder.seen.includes(derived));
 * assert.equal(hookFrames(new Recorder()), recorder); // the first one stays
 * ```
 */
export function hookFrames<T extends FrameHook>(next: T): T {
  hook ??= next;
  if (hook.constructor !== next.constructor) {
    throw new Error(
      `Every nodejs-polars frame already passes through a ${hook.constructor.name}; ` +
        `a ${next.constructor.name} cannot be set beside it.`,
    );
  }
  wrapFactory();
  // The same class as `next`, checked above.
  return hook as T;
}

/**
 * The hook {@linkcode hookFrames} set, or `undefined` before any was set.
 *
 * @example
 * ```ts
 * import { frameHook, type FrameHook } from "./adapter.ts";
 * import assert from "node:assert/strict";
 *
 * // Unset until something sets one (tern's entry points install the frame view).
 * const current: FrameHook | undefined = frameHook();
 * assert.ok(current === undefined || typeof current.wrapFrame === "function");
 * ```
 */
export function frameHook(): FrameHook | undefined {
  return hook;
}

/**
 * How {@linkcode exactDates} converts a text column.
 *
 * @example
 * ```ts
 * import type { ExactDatesOptions } from "./adapter.ts";
 *
 * const options: ExactDatesOptions = { column: "at", format: "%Y-%m-%d %H:%M", to: "datetime" };
 * ```
 */
export interface ExactDatesOptions {
  /** The text column to convert. */
  column: string;
  /** The chrono format every value must match whole, such as `%Y-%m-%dT%H:%M:%S%.f%#z`. */
  format: string;
  /** `"date"` gives a `Date` column; `"datetime"` a microsecond `Datetime` (UTC with `%#z`). */
  to: "date" | "datetime";
}

/**
 * The expression converting a text column to dates with a format the whole value must match
 * (exactly, not strictly: a value that does not fit becomes null). Polars' public
 * `str.strptime` matches the format anywhere in the value (`2012-01-01 10:00:00 and more`
 * would parse) and infers the time unit, so this calls the native methods.
 *
 * @example
 * ```ts
 * import { exactDates, loadPolars } from "./adapter.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const text = pl.DataFrame({ at: ["2012-01-31 10:00", "2012-01-31 10:00 and more"] });
 * const dated = text.select(exactDates(pl, { column: "at", format: "%Y-%m-%d %H:%M", to: "datetime" }));
 * assert.equal(String(dated.getColumn("at").dtype), String(pl.Datetime("us")));
 * assert.deepEqual(dated.getColumn("at").nullCount(), 1); // the second does not fit whole
 * ```
 */
export function exactDates(pl: Polars, options: ExactDatesOptions): Expr {
  const native = (pl.col(options.column) as unknown as { _expr: NativeStringExpr })._expr;
  const converted = options.to === "date"
    ? native.strToDate(options.format, false, true, false)
    : native.strToDatetime(options.format, "us", undefined, false, true, false, undefined);
  return (pl.Expr as unknown as (native: unknown) => Expr)(converted);
}

/**
 * Whether `value` is a nodejs-polars `LazyDataFrame` (it holds a native lazy frame); Polars
 * exports no class to test against.
 *
 * @example
 * ```ts
 * import { isLazyFrame, loadPolars } from "./adapter.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const frame = pl.DataFrame({ a: [1] });
 * assert.equal(isLazyFrame(frame.lazy()), true);
 * assert.equal(isLazyFrame(frame), false);
 * ```
 */
export function isLazyFrame(value: unknown): value is LazyDataFrame {
  return typeof value === "object" && value !== null && "_ldf" in value;
}
