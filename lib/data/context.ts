/**
 * What a read needs from its store besides the transport: the local cache and whether the store
 * is offline. Stores register it per transport, so every handle and listing of a store (however
 * it was made) reads through the same cache.
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
 * import { type DataContext, dataContextOf } from "./context.ts";
 * import { transportOf } from "../handles/handle.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const context: DataContext = dataContextOf(transportOf(store.folder("/iplant/home/shared")));
 * assert.equal(context.offline, false);
 * assert.equal(context.cache?.root, store.cache.dir);
 * ```
 */
export interface DataContext {
  /** The store's transport. */
  transport: Transport;
  /** The local cache, when the store has one. */
  cache: DiskCache | undefined;
  /** Serve only from the cache; never download. */
  offline: boolean;
  /** How reads show progress (default `true`: in a notebook or on a terminal's stderr). */
  progress?: ProgressSetting;
}

const contexts = new WeakMap<Transport, DataContext>();

/**
 * Registers the reading context of a store's transport (done by the store).
 *
 * @example
 * ```ts
 * import { bindDataContext, dataContextOf } from "./context.ts";
 * import { DiskCache } from "../cache/cache.ts";
 * import { Transport } from "../client/transport.ts";
 * import assert from "node:assert/strict";
 *
 * const transport = new Transport({ url: "http://127.0.0.1:8080/terrain" }); // sends nothing yet
 * const cache = new DiskCache({ dir: "/tmp/tern-cache" });
 * bindDataContext(transport, { cache, offline: true });
 * assert.equal(dataContextOf(transport).cache, cache);
 * ```
 */
export function bindDataContext(
  transport: Transport,
  context: Omit<DataContext, "transport">,
): void {
  contexts.set(transport, { ...context, transport });
}

/**
 * The reading context of a transport: the registered one, else no cache and online.
 *
 * @example
 * ```ts
 * import { dataContextOf } from "./context.ts";
 * import { Transport } from "../client/transport.ts";
 * import { transportOf } from "../handles/handle.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const { cache, offline } = dataContextOf(transportOf(store.folder("/iplant/home/shared")));
 * assert.ok(cache !== undefined && !offline);
 * const unbound = new Transport({ url: "http://127.0.0.1:8080/terrain" }); // no store registered it
 * assert.equal(dataContextOf(unbound).cache, undefined);
 * ```
 */
export function dataContextOf(transport: Transport): DataContext {
  return contexts.get(transport) ?? { transport, cache: undefined, offline: false };
}
