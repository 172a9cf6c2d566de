/**
 * The Terrain client core: a {@linkcode Transport} (credentials, limiter, timeouts, retries,
 * guarded bodies), one typed function per endpoint, the response schemas and the typed errors.
 * Higher layers (store handles, listings) build on the endpoint functions and never build URLs.
 *
 * @example
 * ```ts ignore
 * import { getPagedDirectory, NotFoundError, Transport } from "./mod.ts";
 *
 * const transport = new Transport({ url: "https://de.cyverse.org/terrain" });
 * try {
 *   const page = await getPagedDirectory(transport, { path: "/iplant/home/shared", limit: 100 });
 *   console.log(page.total);
 * } catch (error) {
 *   if (error instanceof NotFoundError) console.log(error.message);
 *   else throw error;
 * }
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
