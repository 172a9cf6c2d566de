/**
 * Field schemas that several Terrain answers share (`stat_answer.ts`, `schemas.ts`).
 *
 * @module
 */

import { loadZodModule } from "../deps.ts";

const { z } = await loadZodModule();

/** The farthest a `Date` reaches either side of the epoch, ms (ECMAScript's time range). */
const MAX_TIME = 8.64e15;

/**
 * A time as Terrain gives it: whole milliseconds since the epoch, within the range a `Date`
 * holds (a server's time past it would become an `Invalid Date`).
 *
 * @example
 * ```ts
 * import { millis } from "./fields.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(millis.parse(1469698401000), 1469698401000);
 * assert.equal(millis.safeParse(1e20).success, false);
 * ```
 */
export const millis = z.number().int().min(-MAX_TIME).max(MAX_TIME);

/**
 * A size in bytes: a whole number, not negative, exact (at most 2^53 − 1; past that a number
 * no longer counts bytes one by one, and a download could not be checked against it).
 *
 * @example
 * ```ts
 * import { byteSize } from "./fields.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(byteSize.parse(13_478), 13_478);
 * assert.equal(byteSize.safeParse(-5).success, false);
 * assert.equal(byteSize.safeParse(2 ** 65).success, false);
 * ```
 */
export const byteSize = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * The caller's permission on an item.
 *
 * @example
 * ```ts
 * import { permission } from "./fields.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(permission.safeParse("admin").success, false);
 * ```
 */
export const permission = z.enum(["read", "write", "own"]);
