/**
 * {@linkcode StoreContext}: what a store gives every handle and listing it makes — the
 * transport, the cache, the offline flag, how progress shows. The store builds one and passes it
 * to each handle's constructor; nothing looks it up elsewhere.
 *
 * @module
 */

import type { DataContext } from "../data/context.ts";

/**
 * A store's context: what its handles read with (the transport, the cache, the offline flag, how
 * progress shows, the lock gate and the scan proxy). Handles make other handles with `new`,
 * passing it on; it names no handle, so every handle file may import it.
 *
 * @example
 * ```ts
 * import { STORE_CONTEXT, type StoreContext } from "./store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const context: StoreContext = store[STORE_CONTEXT];
 * assert.equal(context.offline, false);
 * assert.equal(context.reader.cache?.root, store.cache.dir);
 * ```
 */
export type StoreContext = DataContext;

/**
 * The key under which a {@linkcode Store} hands out its context to tern's own layers (tests and
 * examples of the client, data and listing functions). Not exported by `mod.ts`.
 *
 * @example
 * ```ts
 * import { STORE_CONTEXT } from "./store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * assert.equal(store[STORE_CONTEXT].transport.anonymous, false);
 * ```
 */
export const STORE_CONTEXT: unique symbol = Symbol("tern.storeContext");
