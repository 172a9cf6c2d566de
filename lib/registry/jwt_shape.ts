/**
 * What Terrain takes for a bearer token: a value that is not JWT-shaped is ignored as if no
 * credentials were sent. The client refuses such a token before any request and the embedded
 * server ignores it, so both read this one rule.
 *
 * A leaf module: it imports nothing.
 *
 * @module
 */

/**
 * True when `value` looks like a JWT: three non-empty base64url segments joined by dots.
 *
 * @example
 * ```ts
 * import { isJwtShaped } from "./jwt_shape.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isJwtShaped("abc.def.ghi"));
 * assert.ok(!isJwtShaped("opaque-token"));
 * ```
 */
export function isJwtShaped(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);
}
