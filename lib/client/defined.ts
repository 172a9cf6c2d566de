/**
 * Copying the fields of a record that are set.
 *
 * @module
 */

/**
 * `value`'s fields among `keys` that are not `undefined`, in the order of `keys`: what tern's
 * records, locks and views hold (a field absent, never present as `undefined`, so JSON and
 * equality see the same object).
 *
 * @example
 * ```ts
 * import { definedOf } from "./defined.ts";
 * import assert from "node:assert/strict";
 *
 * const file = { path: "/a.csv", size: 3, checksum: undefined as string | undefined };
 * assert.deepEqual(definedOf(file, ["size", "checksum", "path"]), { size: 3, path: "/a.csv" });
 * assert.deepEqual(Object.keys(definedOf(file, ["size", "path"])), ["size", "path"]);
 * ```
 */
export function definedOf<T extends object, K extends keyof T>(
  value: T,
  keys: readonly K[],
): Pick<T, K> {
  return Object.fromEntries(
    keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]),
  ) as Pick<T, K>;
}
