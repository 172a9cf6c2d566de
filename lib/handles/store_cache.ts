/**
 * {@linkcode StoreCache}: what `store.cache` shows of a store's local cache — where it is, what
 * it holds (as a DataFrame), and a way to empty it.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import { definedOf } from "../client/defined.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderCache } from "../display/cache.ts";
import type { CacheUsage, ClearResult, DiskCache, VerifyResult } from "../cache/cache.ts";
import { loadPolars } from "../polars/adapter.ts";

/**
 * A store's local cache, as `store.cache`. A store opened with `cacheDir: false` has a disabled
 * one: it holds nothing and `clear()` removes nothing.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore(); // a store with a cache folder of its own
 * await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").dataframe();
 * const info = (await store.cache.info()).select("path", "size");
 * assert.deepEqual(info.toRecords(), [
 *   { path: "/iplant/home/shared/tern_samples/formats/penguins.csv", size: 13487 },
 * ]);
 * await store.cache.clear();
 * assert.equal((await store.cache.info()).height, 0);
 * ```
 */
export class StoreCache {
  readonly #cache: DiskCache | undefined;
  readonly #offline: boolean;

  /**
   * Made by the store; use `store.cache`.
   *
   * @example
   * ```ts
   * import { DiskCache } from "../cache/cache.ts";
   * import { StoreCache } from "./store_cache.ts";
   * import assert from "node:assert/strict";
   *
   * const view = new StoreCache(new DiskCache({ dir: "/tmp/tern-cache" }), false);
   * assert.equal(view.dir, "/tmp/tern-cache");
   * assert.equal(String(new StoreCache(undefined, false)), "StoreCache(disabled)");
   * ```
   */
  constructor(cache: DiskCache | undefined, offline: boolean) {
    this.#cache = cache;
    this.#offline = offline;
  }

  /** Whether the store keeps downloaded files locally. */
  get enabled(): boolean {
    return this.#cache !== undefined;
  }

  /** The cache folder (entries live in its `downloads/` sub-folder), when enabled. */
  get dir(): string | undefined {
    return this.#cache?.root;
  }

  /** Cap on cached bytes; least recently used files are removed beyond it (0 when disabled). */
  get maxBytes(): number {
    return this.#cache?.maxBytes ?? 0;
  }

  /** Whether the store serves files only from the cache. */
  get offline(): boolean {
    return this.#offline;
  }

  /**
   * The cached files as a DataFrame, most recently used first, with columns `path`, `size`,
   * `modified` (the file's date on the server), `cachedAt`, `lastUsed`, `format`, `id`,
   * `store` (base URL) and `file` (the local copy). Loads nodejs-polars (needs `--allow-ffi`).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/penguins.parquet").dataframe();
   * const entries = await store.cache.info();
   * assert.deepEqual(entries.getColumn("path").toArray(), ["/iplant/home/shared/tern_samples/formats/penguins.parquet"]);
   * assert.equal(entries.getColumn("size").sum(), 5048);
   * ```
   */
  async info(): Promise<DataFrame> {
    const pl = await loadPolars();
    const entries = this.#cache === undefined ? [] : await this.#cache.entries();
    const datetime = pl.Datetime("ms", "UTC");
    return pl.DataFrame([
      pl.Series("path", entries.map((e) => e.version.path), pl.Utf8),
      pl.Series("size", entries.map((e) => e.version.size), pl.Int64),
      pl.Series("modified", entries.map((e) => new Date(e.version.modified)), datetime),
      pl.Series("cachedAt", entries.map((e) => e.cachedAt), datetime),
      pl.Series("lastUsed", entries.map((e) => e.lastUsed), datetime),
      pl.Series("format", entries.map((e) => e.format ?? null), pl.Utf8),
      pl.Series("id", entries.map((e) => e.version.id), pl.Utf8),
      pl.Series("store", entries.map((e) => e.version.store), pl.Utf8),
      pl.Series("file", entries.map((e) => e.inline ? null : e.file), pl.Utf8),
    ]);
  }

  /**
   * Removes every cached file of this cache folder (those of other stores sharing the folder
   * too); returns how many files and bytes were freed.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/penguins.parquet").dataframe();
   * const { files, bytes } = await store.cache.clear();
   * assert.deepEqual({ files, bytes }, { files: 1, bytes: 5048 });
   * ```
   */
  async clear(): Promise<ClearResult> {
    return this.#cache === undefined ? { files: 0, bytes: 0 } : await this.#cache.clear();
  }

  /**
   * Hashes every cached copy against the content hash recorded when tern wrote it, and removes (and
   * reports) those that differ. Every read already checks a copy's identity cheaply; this reads
   * every byte, for when the disk itself is suspect.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/penguins.parquet").dataframe();
   * const { checked, bad } = await store.cache.verify();
   * assert.deepEqual({ checked, bad }, { checked: 1, bad: [] });
   * ```
   */
  async verify(): Promise<VerifyResult> {
    return this.#cache === undefined
      ? { checked: 0, bytes: 0, bad: [] }
      : await this.#cache.verify();
  }

  /**
   * Files and bytes in the cache folder: complete copies, and temporary files of downloads in
   * progress (a killed download's are removed when a store next opens the cache).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/penguins.parquet").dataframe();
   * assert.deepEqual(await store.cache.usage(), { files: 1, bytes: 5048, tempFiles: 0, tempBytes: 0 });
   * ```
   */
  async usage(): Promise<CacheUsage> {
    return this.#cache === undefined
      ? { files: 0, bytes: 0, tempFiles: 0, tempBytes: 0 }
      : await this.#cache.usage();
  }

  /** `StoreCache(/home/me/.cache/tern, max 5000000000 bytes)` or `StoreCache(disabled)`. */
  toString(): string {
    if (this.#cache === undefined) return "StoreCache(disabled)";
    return `StoreCache(${this.#cache.root}, max ${this.#cache.maxBytes} bytes` +
      `${this.#offline ? ", offline" : ""})`;
  }

  /** Same as `toString()`, for `Deno.inspect` and notebooks' plain output. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.toString();
  }

  /**
   * The notebook view: the folder, how full it is against its cap, and the ten most recently
   * used files (`info()` has them all).
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/penguins.parquet").dataframe();
   * // In a notebook, `store.cache` as a cell's last line shows this bundle.
   * const card = await store.cache[JUPYTER_DISPLAY]();
   * assert.match(card["text/plain"], /^Cache \S+ — 1 file, 5\.05 kB of 5\.00 GB/);
   * assert.match(card["text/plain"], /formats\/penguins\.parquet +5\.05 kB/);
   * ```
   */
  async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    const entries = this.#cache === undefined ? [] : await this.#cache.entries();
    return renderCache({
      enabled: this.#cache !== undefined,
      ...(this.#cache === undefined ? {} : { dir: this.#cache.root }),
      maxBytes: this.maxBytes,
      offline: this.#offline,
      files: entries.length,
      bytes: entries.reduce((sum, entry) => sum + entry.version.size, 0),
      recent: entries.slice(0, 10).map((entry) => ({
        ...definedOf(entry.version, ["path", "size"]),
        ...definedOf(entry, ["lastUsed", "format"]),
      })),
    });
  }
}
