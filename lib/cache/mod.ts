/**
 * The local cache of downloaded files: {@linkcode DiskCache} (keyed by store, path, id,
 * date-modified and size; atomic writes; size-checked reads; least-recently-used cap; safe
 * across processes). Its face as `store.cache` is the handle `StoreCache` (lib/handles).
 *
 * @example
 * ```ts
 * import { DiskCache } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const cache = new DiskCache({ dir, maxBytes: 1e9 });
 * assert.equal((await cache.entries()).length, 0);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

export * from "./cache.ts";
export { contentHasher, hashOf } from "./content_hash.ts";
export { defaultCacheDir } from "./dir.ts";
export { CacheFolderError, CacheMissError, CorruptCopyError } from "./errors.ts";
export { type LocalCopy, OpenCopy } from "./open_copy.ts";
