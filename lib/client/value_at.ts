/**
 * The value at a path of keys inside parsed JSON, as a schema issue names it: shared by the
 * response checks (`schemas.ts`) and the lock file's (`reproduce/lock.ts`), whose messages both
 * show what was found where.
 *
 * @module
 */

/**
 * The value at `path` inside `value`, or `undefined` where the path leaves the objects.
 *
 * @example
 * ```ts
 * import { valueAt } from "./value_at.ts";
 * import assert from "node:assert/strict";
 *
 * const body = { files: [{ size: "3" }] };
 * assert.equal(valueAt(body, ["files", 0, "size"]), "3");
 * assert.equal(valueAt(body, ["files", 0, "size", "x"]), undefined);
 * assert.equal(valueAt(body, []), body);
 * ```
 */
export function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let here = value;
  for (const key of path) {
    if (typeof here !== "object" || here === null) return undefined;
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here;
}
