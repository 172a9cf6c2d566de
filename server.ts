/**
 * tern's embedded Terrain-compatible read server: serves a local folder as the CyVerse data
 * store, for tests, demos and labs that share a folder with notebooks.
 *
 * @example
 * ```ts
 * import { startServer } from "./server.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * {
 *   await using server = await startServer({ root, quiet: true });
 *   assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/); // a free port
 * }
 * await Deno.remove(root, { recursive: true });
 * ```
 *
 * @module
 */

export {
  type ServerOptions,
  ServerOptionsError,
  type ServerStats,
  startServer,
  type TerrainServer,
} from "./lib/server/mod.ts";
