/**
 * Field schemas that several Terrain answers share (`stat_answer.ts`, `schemas.ts`).
 *
 * @module
 */

import { loadZodModule } from "../deps.ts";

const { z } = await loadZodModule();

/**
 * A time as Terrain gives it: milliseconds since the epoch.
 *
 * @example
 * ```ts
 * import { millis } from "./fields.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(millis.parse(1469698401000), 1469698401000);
 * ```
 */
export const millis = z.number();

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
