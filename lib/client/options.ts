/**
 * Options of public calls, read once at the public edge. Each call has one zod schema, built on
 * its first use, that names every option with what it must be; {@linkcode OptionsSchema.parse}
 * turns what the caller passed into one plain value that travels down, and nothing below checks
 * it again. An unknown option or a bad value is a {@linkcode BadRequestError} before any
 * request, naming the call, the option, the value given and what it must be; an unknown name
 * also gets the nearest valid one.
 *
 * @module
 */

import { loadZodModule, type z as Z } from "../deps.ts";
import type { CallOptions } from "./endpoints.ts";
import { closest } from "./closest.ts";
import { BadRequestError, quoteInput, truncate } from "./errors.ts";
import { visibleText } from "../registry/visible_text.ts";

// Calls parse their options before doing anything, and some are synchronous (`connect()`,
// `folder.list()`), so zod must be loaded before the first call: with this module. tern's lock
// module loads it at import anyway, so this costs no extra import.
const { z } = await loadZodModule();

/**
 * The rule of each option of `T`: a zod schema of its value (never `undefined`: every option may
 * be left out) made by {@linkcode rule}, whose message says what the value must be
 * (`"an integer ≥ 1"`).
 *
 * @example
 * ```ts
 * import { flag, type OptionRules } from "./options.ts";
 *
 * const rules: OptionRules<{ refresh?: boolean }> = { refresh: flag() };
 * ```
 */
export type OptionRules<T> = { readonly [K in keyof T]-?: Z.ZodType<Exclude<T[K], undefined>> };

/**
 * The options schema of a public call, made by {@linkcode defineOptions}.
 *
 * @example
 * ```ts
 * import { defineOptions, flag, type OptionsSchema } from "./options.ts";
 *
 * const STAT: OptionsSchema<{ refresh?: boolean }> = defineOptions(() => ({ refresh: flag() }));
 * ```
 */
export interface OptionsSchema<T> {
  /**
   * Checks `options` (what the caller passed to `call`) and returns them as one plain value.
   *
   * @param call The call as the caller wrote it, e.g. `file.dataframe()`, for the message.
   * @throws {BadRequestError} for a value that is not an object, an unknown option, or a bad
   * value, naming `call` and the option.
   */
  parse(call: string, options: unknown): T;
}

/**
 * Defines a call's options schema (a zod strict object) from the rules of its options. `rules`
 * runs once, on the first parse, so a module's schemas cost nothing until their call is made.
 *
 * @example
 * ```ts
 * import { count, defineOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const HEAD = defineOptions<{ rows?: number }>(() => ({ rows: count(1) }));
 * assert.deepEqual(HEAD.parse("table.head()", { rows: 5 }), { rows: 5 });
 * assert.throws(() => HEAD.parse("table.head()", { row: 5 }), {
 *   name: "BadRequestError",
 *   message: 'table.head(): unknown option "row": did you mean "rows"?',
 * });
 * assert.throws(() => HEAD.parse("table.head()", { rows: 0 }), {
 *   message: "table.head(): rows must be an integer ≥ 1, got 0.",
 * });
 * ```
 */
export function defineOptions<T extends object>(rules: () => OptionRules<T>): OptionsSchema<T> {
  let schema: Z.ZodType | undefined;
  return {
    parse(call, options) {
      schema ??= z.strictObject(Object.fromEntries(
        Object.entries(rules() as Record<string, Z.ZodType>)
          .map(([name, check]) => [name, check.optional()]),
      ));
      // Options are parsed once per call: compiling zod's fast path for an object costs more
      // than it saves.
      const result = schema.safeParse(options, { jitless: true });
      if (result.success) return result.data as T;
      throw optionsError(call, schema, options, result.error.issues);
    },
  };
}

/**
 * The rule of one option: `check` says whether a value is good, `must` what it must be (the
 * error's words). Every rule is the same cheap zod kind: a schema is built when its call is first
 * made, and zod's richer kinds (unions, checked numbers, descriptions) take several times as long
 * to build.
 *
 * @example
 * ```ts
 * import { defineOptions, rule } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const even = rule("an even number", (value): value is number => (value as number) % 2 === 0);
 * const TILES = defineOptions<{ side?: number }>(() => ({ side: even }));
 * assert.throws(() => TILES.parse("tiles()", { side: 3 }), {
 *   message: "tiles(): side must be an even number, got 3.",
 * });
 * ```
 */
export function rule<T>(must: string, check: (value: unknown) => value is T): Z.ZodType<T> {
  return z.custom<T>(check, must);
}

/**
 * `true` or `false`.
 *
 * @example
 * ```ts
 * import { flag } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(flag().safeParse("yes").error?.issues[0].message, "true or false");
 * ```
 */
export function flag(): Z.ZodType<boolean> {
  return rule("true or false", (value) => typeof value === "boolean");
}

/**
 * A safe integer of at least `min`.
 *
 * @example
 * ```ts
 * import { count } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(count(1).safeParse(2 ** 60).success, false);
 * ```
 */
export function count(min: number): Z.ZodType<number> {
  return rule(
    `an integer ≥ ${min}`,
    (value): value is number => Number.isSafeInteger(value) && (value as number) >= min,
  );
}

/**
 * One of `values`. A string that is not one is answered, in the call's error, with the value it
 * was likely meant to be: `aliases` (other names for a value, e.g. Python's `cp1252`, matched
 * without regard to case), else the nearest of `values`.
 *
 * @example
 * ```ts
 * import { defineOptions, oneOf } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(oneOf(["asc", "desc"]).safeParse("up").error?.issues[0].message, 'one of "asc", "desc"');
 * const options = defineOptions(() => ({ order: oneOf(["asc", "desc"], { ascending: "asc" }) }));
 * assert.throws(() => options.parse("list()", { order: "Ascending" }), {
 *   message: 'list(): order must be one of "asc", "desc", got "Ascending". Did you mean "asc"?',
 * });
 * ```
 */
export function oneOf<const V extends string>(
  values: readonly V[],
  aliases: Readonly<Record<string, V>> = {},
): Z.ZodType<V> {
  const message = `one of ${values.map((value) => JSON.stringify(value)).join(", ")}`;
  return z.custom<V>(
    (value) => (values as readonly unknown[]).includes(value),
    { message, params: { values, aliases } },
  );
}

/** The value a string given for a {@linkcode oneOf} was likely meant to be, if any. */
function meant(issue: Z.ZodError["issues"][number], value: unknown): string | undefined {
  const hints = (issue as { params?: { values?: string[]; aliases?: Record<string, string> } })
    .params;
  if (hints?.values === undefined || typeof value !== "string") return undefined;
  const alias = Object.entries(hints.aliases ?? {})
    .find(([name]) => name.toLowerCase() === value.toLowerCase());
  return alias?.[1] ?? closest(value, hints.values);
}

/**
 * A function (a callback such as `onProgress`).
 *
 * @example
 * ```ts
 * import { callback } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(callback<() => void>().safeParse(() => {}).success, true);
 * ```
 */
export function callback<F extends (...args: never[]) => unknown>(
  must = "a function",
): Z.ZodType<F> {
  return rule(must, (value): value is F => typeof value === "function");
}

/**
 * An `AbortSignal`.
 *
 * @example
 * ```ts
 * import { abortSignal } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(abortSignal().safeParse({}).success, false);
 * ```
 */
export function abortSignal(): Z.ZodType<AbortSignal> {
  return rule("an AbortSignal", (value) => value instanceof AbortSignal);
}

/**
 * A string, described by `must`.
 *
 * @example
 * ```ts
 * import { text } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(text("a string").safeParse("").success, true);
 * ```
 */
export function text(must: string): Z.ZodType<string> {
  return rule(must, isString);
}

/**
 * A string with something in it besides white space, described by `must`.
 *
 * @example
 * ```ts
 * import { filled } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(filled("a column name").safeParse(" ").success, false);
 * ```
 */
export function filled(must: string): Z.ZodType<string> {
  return rule(must, isFilled);
}

/**
 * Whether `value` is a string.
 *
 * @example
 * ```ts
 * import { isString } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isString(""), true);
 * ```
 */
export function isString(value: unknown): value is string {
  return typeof value === "string";
}

/**
 * Whether `value` is a string with something in it besides white space.
 *
 * @example
 * ```ts
 * import { isFilled } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isFilled(" \t"), false);
 * ```
 */
export function isFilled(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * Whether `value` is a plain object (not `null`, not an array).
 *
 * @example
 * ```ts
 * import { isObject } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isObject([]), false);
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The options of calls that take only a `signal` ({@linkcode CallOptions}).
 *
 * @example
 * ```ts
 * import { CALL_OPTIONS } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => CALL_OPTIONS.parse("file.text()", { signl: AbortSignal.timeout(1000) }), {
 *   message: 'file.text(): unknown option "signl": did you mean "signal"?',
 * });
 * ```
 */
export const CALL_OPTIONS: OptionsSchema<CallOptions> = defineOptions<CallOptions>(() => ({
  signal: abortSignal(),
}));

/** Options whose value may hold a credential: an error says only what kind of value it was. */
const UNSHOWN: ReadonlySet<string> = new Set(["token", "password", "url"]);

/** Longest option name compared for a hint: a longer one is nobody's typo. */
const HINTED_NAME_CHARS = 64;

/** pandas' names for options tern spells otherwise, a pandas user's first guess. */
const PANDAS_NAMES: ReadonlyMap<string, string> = new Map([
  ["usecols", "columns"],
  ["na_values", "nullValues"],
  ["parse_dates", "tryParseDates"],
  ["delimiter", "sep"],
  ["orient", "jsonLayout"],
  ["decimal", "decimalComma"],
]);

function optionsError(
  call: string,
  schema: Z.ZodType,
  options: unknown,
  issues: Z.ZodError["issues"],
): BadRequestError {
  const names = Object.keys((schema as Z.ZodObject).shape);
  const unknown = issues.find((issue) => issue.code === "unrecognized_keys");
  if (unknown !== undefined) {
    const [key] = unknown.keys;
    const pandas = PANDAS_NAMES.get(key);
    const near = pandas !== undefined && names.includes(pandas)
      ? pandas
      : key.length > HINTED_NAME_CHARS
      ? undefined
      : closest(key, names);
    const hint = near === undefined
      ? `; the options are ${names.join(", ")}.`
      : `: did you mean ${JSON.stringify(near)}?`;
    return new BadRequestError(`${call}: unknown option ${quoteInput(key)}${hint}`);
  }
  const [issue] = issues;
  const key = issue.path[0];
  if (typeof key !== "string" || !names.includes(key)) {
    return new BadRequestError(`${call} takes an options object, got ${show(options)}.`);
  }
  const value = (options as Record<string, unknown>)[key];
  const shown = UNSHOWN.has(key) ? kindOf(value) : show(value);
  const near = UNSHOWN.has(key) ? undefined : meant(issue, value);
  const hint = near === undefined ? "" : ` Did you mean ${JSON.stringify(near)}?`;
  return new BadRequestError(`${call}: ${key} must be ${issue.message}, got ${shown}.${hint}`);
}

/** A value as an error shows it: abbreviated, on one line, invisible characters escaped. */
function show(value: unknown): string {
  const text = Deno.inspect(value, {
    depth: 1,
    iterableLimit: 5,
    strAbbreviateSize: 40,
    breakLength: Infinity,
    colors: false,
  });
  return truncate(visibleText(text), 120);
}

/** What kind of value was given, without the value: `a string`, `a URL`, `null`. */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (value === "") return '""';
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `a ${typeof value}`;
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  return typeof name === "string" && name !== "Object" ? `a ${name}` : "an object";
}
