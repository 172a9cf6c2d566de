/**
 * Query-parameter validation with the real service's 400 answers: every bad parameter is
 * reported at once in `reason`, keyed by parameter name, with a message in the style of the
 * Clojure schema library Terrain uses (`missing-required-key`, `(not (positive-integer? 0))`).
 *
 * @module
 */

import { illegalArgument } from "./errors.ts";

const MAX_ECHO = 120;
/** Repeated values echoed in one message; the rest show as `...`. */
const MAX_ECHO_VALUES = 5;

/**
 * Longest message kept per parameter, characters: with the fixed set of parameters a route
 * checks, this bounds every 400 body, however many values a query repeats.
 *
 * @example
 * ```ts
 * import { MAX_ERROR_REASON } from "./params.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MAX_ERROR_REASON, 1024);
 * ```
 */
export const MAX_ERROR_REASON = 1024;

/** `items` space-separated in brackets, the ones past `max` replaced by `...`. */
function bracketed(items: readonly string[], max: number): string {
  const shown = items.length > max ? [...items.slice(0, max), "..."] : items;
  return `[${shown.join(" ")}]`;
}
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/**
 * Renders a caller-supplied value for an error message: quoted, escaped, cut to a bounded
 * length (and at most a few of repeated values) so a huge parameter cannot blow up the answer.
 *
 * @example
 * ```ts
 * import { echo } from "./params.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(echo("UP"), '"UP"');
 * assert.equal(echo(["1", "2"]), '["1" "2"]');
 * ```
 */
export function echo(value: string | readonly string[]): string {
  if (typeof value !== "string") {
    return bracketed(value.slice(0, MAX_ECHO_VALUES + 1).map(echo), MAX_ECHO_VALUES);
  }
  const cut = value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}...` : value;
  return JSON.stringify(cut);
}

function setLiteral(allowed: readonly string[]): string {
  return `#{${allowed.map((value) => JSON.stringify(value)).join(" ")}}`;
}

/**
 * Reads and validates the query parameters of one request, collecting problems per parameter;
 * {@link ParamCheck.done} throws the 400 answer when there are any.
 *
 * @example
 * ```ts
 * import { ParamCheck } from "./params.ts";
 * import assert from "node:assert/strict";
 *
 * const check = new ParamCheck(new URLSearchParams("limit=0"));
 * check.integer("limit", { required: true, min: 1 });
 * assert.throws(() => check.done(), { message: "ERR_ILLEGAL_ARGUMENT" });
 * ```
 */
export class ParamCheck {
  readonly #params: URLSearchParams;
  readonly #problems: Record<string, string> = {};

  /**
   * Starts checking `params`.
   *
   * @example
   * ```ts
   * import { ParamCheck } from "./params.ts";
   * const check = new ParamCheck(new URL("http://x/?path=/iplant").searchParams);
   * ```
   */
  constructor(params: URLSearchParams) {
    this.#params = params;
  }

  /**
   * Records a problem with `name` (the first one per parameter wins).
   *
   * @example
   * ```ts
   * import { ParamCheck } from "./params.ts";
   * import assert from "node:assert/strict";
   * const check = new ParamCheck(new URLSearchParams());
   * check.problem("path", "missing-required-key");
   * assert.throws(() => check.done(), { name: "TerrainError" });
   * ```
   */
  problem(name: string, message: string): void {
    const cut = message.length > MAX_ERROR_REASON
      ? `${message.slice(0, MAX_ERROR_REASON)}...`
      : message;
    this.#problems[name] ??= cut;
  }

  #single(name: string, required: boolean, type: string): string | undefined {
    const values = this.#params.getAll(name);
    if (values.length === 0) {
      if (required) this.problem(name, "missing-required-key");
      return undefined;
    }
    if (values.length > 1) {
      this.problem(name, `(not (instance? java.lang.${type} ${echo(values)}))`);
      return undefined;
    }
    return values[0];
  }

  /**
   * A string parameter. `nonBlank` rejects empty or whitespace-only values; NUL bytes are
   * always rejected, since no data-store name can hold one.
   *
   * @example
   * ```ts
   * import { ParamCheck } from "./params.ts";
   * import assert from "node:assert/strict";
   *
   * const check = new ParamCheck(new URLSearchParams("path=/iplant/home"));
   * assert.equal(check.string("path", { required: true }), "/iplant/home");
   * ```
   */
  string(
    name: string,
    options: { required?: boolean; nonBlank?: boolean } = {},
  ): string | undefined {
    const value = this.#single(name, options.required ?? false, "String");
    if (value === undefined) return undefined;
    if (value.includes("\u0000")) {
      this.problem(name, `(not (nul-free-string? ${echo(value)}))`);
      return undefined;
    }
    if (options.nonBlank && value.trim() === "") {
      this.problem(name, `(not (non-blank-string? ${echo(value)}))`);
      return undefined;
    }
    return value;
  }

  /**
   * An integer parameter (a Java long) with a lower bound.
   *
   * @example
   * ```ts
   * import { ParamCheck } from "./params.ts";
   * import assert from "node:assert/strict";
   *
   * const check = new ParamCheck(new URLSearchParams("offset=20"));
   * assert.equal(check.integer("offset", { min: 0 }), 20);
   * ```
   */
  integer(name: string, options: { required?: boolean; min: 0 | 1 }): number | undefined {
    const value = this.#single(name, options.required ?? false, "Long");
    if (value === undefined) return undefined;
    const big = /^[+-]?\d{1,19}$/.test(value) ? BigInt(value) : undefined;
    if (big === undefined || big < LONG_MIN || big > LONG_MAX) {
      this.problem(name, `(not (instance? java.lang.Long ${echo(value)}))`);
      return undefined;
    }
    if (big < BigInt(options.min)) {
      const predicate = options.min === 1 ? "positive-integer?" : "non-negative-integer?";
      this.problem(name, `(not (${predicate} ${big}))`);
      return undefined;
    }
    return big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big);
  }

  /**
   * An enumerated parameter; `normalize` is applied first (Terrain upper- or lower-cases some).
   *
   * @example
   * ```ts
   * import { ParamCheck } from "./params.ts";
   * import assert from "node:assert/strict";
   *
   * const check = new ParamCheck(new URLSearchParams("sort-dir=asc"));
   * const dir = check.choice("sort-dir", ["ASC", "DESC"], (v) => v.toUpperCase());
   * assert.equal(dir, "ASC");
   * ```
   */
  choice<T extends string>(
    name: string,
    allowed: readonly T[],
    normalize: (value: string) => string = (value) => value,
  ): T | undefined {
    const raw = this.#single(name, false, "String");
    if (raw === undefined) return undefined;
    const value = normalize(raw);
    if (!(allowed as readonly string[]).includes(value)) {
      this.problem(name, `(not (${setLiteral(allowed)} ${echo(value)}))`);
      return undefined;
    }
    return value as T;
  }

  /**
   * A parameter that may repeat, each value from `allowed`.
   *
   * @example
   * ```ts
   * import { ParamCheck } from "./params.ts";
   * import assert from "node:assert/strict";
   *
   * const check = new ParamCheck(new URLSearchParams("info-type=csv&info-type=tsv"));
   * assert.deepEqual(check.choices("info-type", ["csv", "tsv"]), ["csv", "tsv"]);
   * ```
   */
  choices(name: string, allowed: readonly string[]): string[] {
    const values = this.#params.getAll(name);
    const bad = values.map((value) => allowed.includes(value) ? undefined : value);
    if (bad.every((value) => value === undefined)) return values;
    // Each message repeats the allowed set: only the first few are spelled out.
    const messages = bad.slice(0, MAX_ECHO_VALUES + 1).map((value) =>
      value === undefined ? "nil" : `(not (${setLiteral(allowed)} ${echo(value)}))`
    );
    this.problem(name, values.length === 1 ? messages[0] : bracketed(messages, MAX_ECHO_VALUES));
    return [];
  }

  /**
   * Throws the 400 `ERR_ILLEGAL_ARGUMENT` answer if any parameter was bad.
   *
   * @example
   * ```ts
   * import { ParamCheck } from "./params.ts";
   * new ParamCheck(new URLSearchParams()).done();
   * ```
   */
  done(): void {
    if (Object.keys(this.#problems).length > 0) throw illegalArgument({ ...this.#problems });
  }
}
