/**
 * What a read needs from its store besides the file: the transport, the local cache and whether
 * the store is offline. The store builds one and passes it down (handles hold it), so every
 * handle and listing of a store reads through the same cache.
 *
 * @module
 */

import type { DiskCache } from "../cache/cache.ts";
import type { Transport } from "../client/transport.ts";
import type { ProgressSetting } from "../progress/reporter.ts";

/**
 * A store's reading context.
 *
 * @example
 * ```ts
 * import type { DataContext } from "./context.ts";
 * import { DiskCache } from "../cache/cache.ts";
 * import { Transport } from "../client/transport.ts";
 * import assert from "node:assert/strict";
 *
 * const transport = new Transport({ url: "http://127.0.0.1:8080/terrain" }); // sends nothing yet
 * const context: DataContext = {
 *   transport,
 *   cache: new DiskCache({ dir: "/tmp/tern-cache" }),
 *   offline: true,
 * };
 * assert.equal(context.cache?.root, "/tmp/tern-cache");
 * ```
 */
export interface DataContext {
  /** The store's transport. */
  readonly transport: Transport;
  /** The local cache, when the store has one. */
  readonly cache: DiskCache | undefined;
  /** Serve only from the cache; never download. */
  readonly offline: boolean;
  /** How reads show progress (default `true`: in a notebook or on a terminal's stderr). */
  readonly progress?: ProgressSetting;
}
