/**
 * {@linkcode StoreContext}: what a store gives every handle and listing it makes — the
 * transport, the cache, the offline flag, how progress shows, and the factories that make the
 * other handles. The store builds one and passes it to each handle's constructor; nothing looks
 * it up elsewhere.
 *
 * @module
 */

import type { DataContext } from "../data/context.ts";
import type { File } from "./file.ts";
import type { Dataset } from "./dataset.ts";
import type { Folder } from "./folder.ts";
import type { Location } from "./handle.ts";

/**
 * A store's context: its reading context plus the handle factories. Handles make other handles
 * through it (`folder.file(name)`, `folder.datasets()`), so `folder.ts` never imports
 * `dataset.ts` (whose class extends `Folder`).
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
 * assert.equal(context.cache?.root, store.cache.dir);
 * const readme = context.file({ path: "/iplant/home/shared/tern_samples/README.txt" });
 * assert.equal(readme.name, "README.txt");
 * ```
 */
export interface StoreContext extends DataContext {
  /** A folder handle of this store. */
  folder(location: Location): Folder;
  /** A file handle of this store. */
  file(location: Location): File;
  /** A dataset handle of this store. */
  dataset(location: Location): Dataset;
}

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
