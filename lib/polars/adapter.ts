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
 * - the native lazy frame behind a `LazyDataFrame` (`_ldf`), for {@linkcode isLazyFrame};
 * - the JSON form of an expression tree (`expr.serialize("json")`, `pl.Expr.deserialize`), whose
 *   node shapes are Polars' own, for {@linkcode typedLiterals};
 * - the native frame behind a `DataFrame` (`frame.inner()`), its `columns` and its `dtypes()` (each
 *   type in serde form: a variant name such as `"String"`, or `{ variant, inner }`), for
 *   {@linkcode columnsOfType}.
 *
 * This module holds tern's only process-wide Polars state: the loaded module and the frame hook
 * (once set, every frame Polars makes passes through it).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import {
  type DataFrame,
  type DataType,
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
/** The namespace, once {@linkcode loadPolars} has loaded it. */
let loaded: Polars | undefined;
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
    loaded = polars.default;
    return loaded;
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

/** A native frame's column names and types (nodejs-polars 0.25.2, `frame.inner()`). */
interface NativeFrame {
  columns: string[];
  dtypes(): unknown[];
}

/**
 * The names of `frame`'s columns whose type is one of `variants` (`"String"`, `"Date"`,
 * `"Datetime"` …, whatever their time unit or zone), in order, from one read of the native frame.
 * Every property read of a nodejs-polars frame lists all its column names first (its Proxy looks
 * for a column of that name), and `frame.dtypes` makes a type object per column on top: on a
 * frame of thousands of columns, each such read costs more than the question is worth.
 *
 * @example
 * ```ts
 * import { columnsOfType, loadPolars } from "./adapter.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const frame = pl.readCSV("station,temp,day\nST1,12.5,2012-01-01\n", { dtypes: { day: pl.Date } });
 * assert.deepEqual(columnsOfType(frame, ["String"]), ["station"]);
 * assert.deepEqual(columnsOfType(frame, ["Date", "Datetime"]), ["day"]);
 * ```
 */
export function columnsOfType(frame: DataFrame, variants: readonly string[]): string[] {
  const native = (frame as unknown as { inner(): NativeFrame }).inner();
  const types = native.dtypes();
  return native.columns.filter((_, i) => {
    const type = types[i];
    return variants.includes(
      typeof type === "string" ? type : (type as { variant: string }).variant,
    );
  });
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
 * Whether `value` is a nodejs-polars expression (`pl.Expr.isExpr`), `false` before
 * {@linkcode loadPolars} has loaded Polars.
 *
 * @example
 * ```ts
 * import { isExpr, loadPolars } from "./adapter.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * assert.equal(isExpr(pl.col("a")), true);
 * assert.equal(isExpr("a"), false);
 * ```
 */
export function isExpr(value: unknown): value is Expr {
  return loaded?.Expr.isExpr(value) ?? false;
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

/** The integer types a literal may be given, with the values each holds. */
const INTEGER_RANGES: ReadonlyMap<string, readonly [number, number]> = new Map([
  ["Int8", [-128, 127]],
  ["Int16", [-32_768, 32_767]],
  ["Int32", [-2_147_483_648, 2_147_483_647]],
  ["Int64", [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]],
  ["UInt8", [0, 255]],
  ["UInt16", [0, 65_535]],
  ["UInt32", [0, 4_294_967_295]],
  ["UInt64", [0, Number.MAX_SAFE_INTEGER]],
]);

/** The comparisons whose literal is given the column's type. */
const COMPARISONS: ReadonlySet<string> = new Set(["Eq", "NotEq", "Lt", "LtEq", "Gt", "GtEq"]);

/** A node of an expression's JSON form. */
type ExprNode = { [key: string]: unknown };

/**
 * `predicate` with every plain number compared with an integer column of `schema`
 * (`pl.col("year").eq(2024)`, `lt`, `ltEq`, `gt`, `gtEq`, `neq`, on either side) given that
 * column's type, so that Polars compares the column as it is stored and can skip a Parquet row
 * group by its statistics. nodejs-polars makes a JS number a `Float64` literal, and Polars then
 * casts the whole column to `Float64`, which no statistic answers. A number the column's type
 * does not hold exactly (`2024.5`, `1e10` against an `Int32`) is left as it is, and so is any
 * number beyond 2^53: for every number changed, comparing as integers gives the same rows as
 * comparing as floats. The same `predicate` is returned when nothing changed.
 *
 * @example The column is compared as stored
 * ```ts
 * import { loadPolars, typedLiterals } from "./adapter.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const frame = pl.DataFrame({ year: pl.Series("year", [2023, 2024], pl.Int32) });
 * const typed = typedLiterals(pl.col("year").eq(2024), frame.schema);
 * assert.match(frame.lazy().filter(typed).describeOptimizedPlan(), /col\("year"\)\) == \(2024\)/);
 * assert.deepEqual(frame.filter(typed).getColumn("year").toArray(), [2024]);
 * const half = pl.col("year").lt(2024.5);
 * assert.equal(typedLiterals(half, frame.schema), half); // not an Int32: left as it is
 * ```
 */
export function typedLiterals(predicate: Expr, schema: Readonly<Record<string, DataType>>): Expr {
  // An expression made without loadPolars() (another copy of the package) is passed on as is.
  if (loaded === undefined) return predicate;
  const tree = JSON.parse(predicate.serialize("json").toString()) as unknown;
  let changed = false;
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    const binary = (node as ExprNode).BinaryExpr as ExprNode | undefined;
    if (binary !== undefined && COMPARISONS.has(binary.op as string)) {
      for (const [column, literal] of [["left", "right"], ["right", "left"]]) {
        const name = (binary[column] as ExprNode | undefined)?.Column;
        const variant = typeof name === "string" ? schema[name]?.variant : undefined;
        const typed = variant === undefined ? undefined : typedLiteral(binary[literal], variant);
        if (typed !== undefined) {
          binary[literal] = typed;
          changed = true;
        }
      }
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(tree);
  if (!changed) return predicate;
  return loaded.Expr.deserialize(Buffer.from(JSON.stringify(tree)), "json");
}

/** The literal node of `node`'s number as a `variant` scalar, when `node` is a `Float64` literal that type holds exactly. */
function typedLiteral(node: unknown, variant: string): ExprNode | undefined {
  const scalar = ((node as ExprNode | undefined)?.Literal as ExprNode | undefined)?.Scalar as
    | ExprNode
    | undefined;
  const value = scalar?.Float64;
  const range = INTEGER_RANGES.get(variant);
  if (typeof value !== "number" || range === undefined || !Number.isInteger(value)) return;
  if (value < range[0] || value > range[1]) return;
  return { Literal: { Scalar: { [variant]: value } } };
}
