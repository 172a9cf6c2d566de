/**
 * The module's version, read from deno.json so that it is stated in one place.
 *
 * @module
 */

import config from "../../deno.json" with { type: "json" };

/**
 * tern's version, as published (for example `0.1.0`).
 *
 * @example
 * ```ts
 * import { VERSION } from "./version.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(`tern ${VERSION}`, "tern 0.1.0");
 * ```
 */
export const VERSION: string = config.version;

/**
 * The identifying `User-Agent` the client sends: `tern/<version> (Deno/<version>)`, after the
 * caller's own product token when one is given.
 *
 * @example
 * ```ts
 * import { userAgent } from "./version.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(userAgent("my-lab-notebook/2.0"), "my-lab-notebook/2.0 tern/0.1.0 (Deno/2.9.6)");
 * ```
 */
export function userAgent(product?: string): string {
  const own = `tern/${VERSION} (Deno/${Deno.version.deno})`;
  return product === undefined || product.trim() === "" ? own : `${product.trim()} ${own}`;
}
