/**
 * The Terrain client core: a {@linkcode Transport} (credentials, limiter, timeouts, retries,
 * guarded bodies), one typed function per endpoint, the response schemas and the typed errors.
 * Higher layers (store handles, listings) build on the endpoint functions and never build URLs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exampleStore } from "../sample/example.ts";
 * import { getPagedDirectory, NotFoundError, Transport } from "./mod.ts";
 *
 * await using store = await exampleStore();
 * const transport = new Transport({ url: store.options.url });
 * const page = await getPagedDirectory(transport, { path: "/iplant/home/shared", limit: 100 });
 * assert.deepEqual(
 *   page.folders.map((folder) => folder.label),
 *   ["commons_repo", "iplantcollaborative", "tern_samples"],
 * );
 * const missing = getPagedDirectory(transport, { path: "/iplant/home/shared/nope", limit: 100 });
 * await assert.rejects(missing, NotFoundError);
 * ```
 *
 * @module
 */

export * from "./errors.ts";
export * from "./limiter.ts";
export * from "./auth.ts";
export * from "./transport.ts";
export * from "./schemas.ts";
export * from "./endpoints.ts";
export { filenameFromDisposition } from "./disposition.ts";
export { VERSION } from "./version.ts";
