/**
 * Typed errors of the local cache.
 *
 * @module
 */

import { TernError } from "../client/errors.ts";

/**
 * An offline store (`connect({ offline: true })`) was asked for a file that is not in its local
 * cache, or whose cached copy is incomplete.
 *
 * @example
 * ```ts
 * import { CacheMissError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new CacheMissError('"/a/b.csv" is not in the local cache.', { path: "/a/b.csv" });
 * assert.equal(error.name, "CacheMissError");
 * assert.equal(error.path, "/a/b.csv");
 * ```
 */
export class CacheMissError extends TernError {}
