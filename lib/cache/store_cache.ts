/**
 * {@linkcode StoreCache}: what `store.cache` shows of a store's local cache — where it is, what
 * it holds (as a DataFrame), and a way to empty it.
 *
 * @module
 */

import type { DataFrame } from "nodejs-polars";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderCache } from "../display/cache.ts";
import type { ClearResult, DiskCache } from "./cache.ts";

/**
 * A store's local cache, as `store.cache`. A store opened with `cacheDir: false` has a disabled
 * one: it holds nothing and `clear()` removes nothing.
 *
 * @example
 * ```ts ignore
 * const store = connect({ cacheDir: "/tmp/tern-cache" });
 * await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").dataframe();
 * console.log((await store.cache.info()).select("path", "size").toString());
 * await store.cache.clear();
 * ```
 */
export class StoreCache {
  readonly #cache: DiskCache | undefined;
  readonly #offline: boolean;

  /**
   * Made by the store; use `store.cache`.
   *
   * @example
   * ```ts ignore
   * const view = new StoreCache(new DiskCache({ dir }), false);
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
   * ```ts ignore
   * const entries = await store.cache.info();
   * console.log(entries.height, entries.getColumn("size").sum());
   * ```
   */
  async info(): Promise<DataFrame> {
    const { default: pl } = await import("nodejs-polars");
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
      pl.Series("file", entries.map((e) => e.file), pl.Utf8),
    ]);
  }

  /**
   * Removes every cached file of this cache folder (those of other stores sharing the folder
   * too); returns how many files and bytes were freed.
   *
   * @example
   * ```ts ignore
   * const { files, bytes } = await store.cache.clear();
   * ```
   */
  async clear(): Promise<ClearResult> {
    return this.#cache === undefined ? { files: 0, bytes: 0 } : await this.#cache.clear();
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
   * ```ts ignore
   * store.cache; // last line of a cell: the cache card
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
        path: entry.version.path,
        size: entry.version.size,
        lastUsed: entry.lastUsed,
        ...(entry.format === undefined ? {} : { format: entry.format }),
      })),
    });
  }
}
