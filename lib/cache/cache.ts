/**
 * {@linkcode DiskCache}: downloaded files kept on local disk, keyed by what the server says
 * about them (store, path, id, date-modified, size), so an unchanged file is never downloaded
 * twice and a changed one never served stale.
 *
 * Layout, in `DIR/downloads/`: each copy is one file named after its key, `<path key>-<version
 * key>.<ext>`, the extension derived from the data-store name (see {@linkcode copyExtension}:
 * it lets Polars read the copy by path), so finding the copy of a version is one `stat` and a
 * size check. Copies are written to a temporary file in the same folder and
 * renamed into place, so a reader (in this process or another) sees a complete copy or none.
 * `index.jsonl` gets one line per copy made (path, id, date, size, format, time), appended,
 * never rewritten in place: it serves `info()` and offline reads (which must find a path's copy
 * without asking the server for its version). A copy's modification time records its last use,
 * for the least-recently-used size cap. Making a copy creates one file and appends one line —
 * creating files is what costs on busy disks, and many small files are a common workload.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";

/**
 * Which version of which file: the cache key.
 *
 * @example
 * ```ts
 * import type { FileVersion } from "./cache.ts";
 *
 * const version: FileVersion = {
 *   store: "https://de.cyverse.org/terrain",
 *   path: "/iplant/home/shared/a.csv",
 *   id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364",
 *   size: 2048,
 *   modified: 1469698402000,
 * };
 * ```
 */
export interface FileVersion {
  /** Base URL of the store. */
  store: string;
  /** Data-store path. */
  path: string;
  /** Item id. */
  id: string;
  /** Size in bytes. */
  size: number;
  /** Date-modified, epoch ms. */
  modified: number;
  /** MD5 (hex), when the service gave one. */
  md5?: string;
}

/**
 * A complete cached copy.
 *
 * @example
 * ```ts
 * import type { CachedFile } from "./cache.ts";
 *
 * const describe = (cached: CachedFile) => `${cached.version.path} → ${cached.file}`;
 * ```
 */
export interface CachedFile {
  /** Absolute local path of the copy (read it, never write it). */
  file: string;
  /** The version it holds. */
  version: FileVersion;
  /** The format it was read as, when known (`csv`, `parquet`, …). */
  format?: string;
  /** When it was downloaded, when known. */
  cachedAt?: Date;
  /** When it was last used. */
  lastUsed: Date;
}

/**
 * What {@linkcode DiskCache.clear} removed.
 *
 * @example
 * ```ts
 * import type { ClearResult } from "./cache.ts";
 *
 * const say = (r: ClearResult) => `${r.files} files, ${r.bytes} bytes freed`;
 * ```
 */
export interface ClearResult {
  /** Cached files removed. */
  files: number;
  /** Their bytes. */
  bytes: number;
}

/**
 * Options of {@linkcode DiskCache}.
 *
 * @example
 * ```ts
 * import type { DiskCacheOptions } from "./cache.ts";
 *
 * const options: DiskCacheOptions = { dir: "/tmp/tern-cache", maxBytes: 1e9 };
 * ```
 */
export interface DiskCacheOptions {
  /** The cache folder; entries go in its `downloads/` sub-folder. */
  dir: string;
  /** Most bytes of cached files kept; least recently used ones go first (default 5 GB). */
  maxBytes?: number;
  /** Told once when the cache cannot be written (full disk, no permission); default warns. */
  warn?: (message: string) => void;
}

/** Default cap on cached bytes. */
export const DEFAULT_CACHE_BYTES = 5_000_000_000;

/** Temporary files older than this belong to a process that died; they are removed. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** Size of the pieces the writer hands to the file system. */
const WRITE_PIECE_BYTES = 4 * 1024 * 1024;
const INDEX = "index.jsonl";
const COPY_NAME = /^([0-9a-f]{32})-([0-9a-f]{16})(\.[a-z0-9]{1,10})$/;

/** One line of `index.jsonl`. */
interface IndexLine {
  store: string;
  path: string;
  id: string;
  size: number;
  modified: number;
  md5?: string;
  blob: string;
  format?: string;
  cachedAt: number;
}

/**
 * Who reads a version that is not cached yet: the first caller downloads it (`owner`), later
 * callers wait for that download and then look again.
 *
 * @example
 * ```ts
 * import { type Claim, DiskCache } from "./cache.ts";
 * import assert from "node:assert/strict";
 *
 * const cache = new DiskCache({ dir: "/tmp/tern-cache" }); // claims touch no disk
 * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
 * const first: Claim = cache.claim(version);
 * const second: Claim = cache.claim(version);
 * assert.ok(first.owner && !second.owner);
 * if (first.owner) first.release(); // after downloading (or failing to)
 * if (!second.owner) await second.settled; // then look the version up again
 * ```
 */
export type Claim =
  | { owner: true; release: () => void }
  | { owner: false; settled: Promise<void> };

/**
 * The on-disk cache of one store (see the module notes for the layout and guarantees). Safe
 * for several processes at once; within a process, concurrent reads of one version share one
 * download through {@linkcode DiskCache.claim}. Failures to write it are reported once through
 * `warn` and never fail a read.
 *
 * @example
 * ```ts
 * import { DiskCache } from "./cache.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const cache = new DiskCache({ dir, maxBytes: 1e6 });
 * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
 * const writer = await cache.create(version);
 * await writer!.write(new TextEncoder().encode("a\n1\n"));
 * const cached = await writer!.commit({ format: "csv" });
 * console.log((await cache.lookup(version))?.file === cached?.file); // true
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class DiskCache {
  /** The cache folder given. */
  readonly root: string;
  /** The folder holding the entries (`root/downloads`). */
  readonly dir: string;
  /** Cap on cached bytes. */
  readonly maxBytes: number;
  readonly #warn: (message: string) => void;
  #warned = false;
  #folderReady = false;
  /** Bytes of copies this process knows of; `undefined` until first counted. */
  #usage: number | undefined;
  readonly #inflight = new Map<string, Promise<void>>();

  /**
   * Creates the cache object; the folder is made when first written.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   *
   * const cache = new DiskCache({ dir: "/tmp/tern-cache" });
   * console.log(cache.dir); // "/tmp/tern-cache/downloads"
   * ```
   */
  constructor(options: DiskCacheOptions) {
    this.root = options.dir;
    this.dir = join(options.dir, "downloads");
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.#warn = options.warn ?? ((message) => console.warn(message));
  }

  /**
   * The cached copy of exactly this version, or `undefined`. A hit is size-checked and marked
   * as used.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * assert.equal(await cache.lookup(version), undefined);
   * const writer = await cache.create(version);
   * await writer!.write(new TextEncoder().encode("a\n1\n"));
   * await writer!.commit();
   * assert.ok((await cache.lookup(version))?.file.endsWith(".csv"));
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async lookup(version: FileVersion): Promise<CachedFile | undefined> {
    const file = join(this.dir, copyName(version));
    const used = await this.#use(file, version.size);
    return used === undefined ? undefined : { file, version, lastUsed: used };
  }

  /**
   * The newest cached copy of a data-store path, whatever its version: what an offline store
   * serves, since it cannot ask the server which version is current.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.create(version);
   * await writer!.write(new TextEncoder().encode("a\n1\n"));
   * await writer!.commit();
   * assert.equal((await cache.latest("http://x/terrain", "/a/b.csv"))?.version.id, "i");
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async latest(store: string, path: string): Promise<CachedFile | undefined> {
    const lines = (await this.#readIndex()).filter((line) =>
      line.store === store && line.path === path
    );
    for (const line of lines.reverse()) {
      const file = join(this.dir, line.blob);
      const used = await this.#use(file, line.size);
      if (used !== undefined) return toCached(this.dir, line, used);
    }
    return undefined;
  }

  /**
   * Claims the download of a version: the first caller becomes its owner and must call
   * `release()` when done (committed or not); others get a promise that settles then.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const cache = new DiskCache({ dir: "/tmp/tern-cache" }); // claims touch no disk
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const claim = cache.claim(version);
   * assert.ok(claim.owner && !cache.claim(version).owner);
   * if (claim.owner) claim.release();
   * assert.ok(cache.claim(version).owner); // free again
   * ```
   */
  claim(version: FileVersion): Claim {
    const key = copyName(version);
    const pending = this.#inflight.get(key);
    if (pending !== undefined) return { owner: false, settled: pending };
    let settle!: () => void;
    this.#inflight.set(key, new Promise<void>((resolve) => settle = resolve));
    let released = false;
    return {
      owner: true,
      release: () => {
        if (released) return;
        released = true;
        this.#inflight.delete(key);
        settle();
      },
    };
  }

  /**
   * Starts writing a copy of `version`. Returns `undefined` when the file is larger than the cap
   * or the folder cannot be written (reported once).
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir, maxBytes: 1000 });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.create(version);
   * await writer!.abort();
   * assert.equal(await cache.create({ ...version, size: 5000 }), undefined); // over the cap
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async create(version: FileVersion): Promise<CacheWriter | undefined> {
    const opened = await this.openTemp(version);
    return opened && new CacheWriter(this, version, opened.temp, opened.file);
  }

  /**
   * Opens a new temporary file for a copy of `version`, for a caller that writes it itself
   * (a download piped natively into it) and then hands it to {@linkcode DiskCache.adopt}, or
   * removes it. Returns `undefined` when the file is larger than the cap or the folder cannot be
   * written (reported once).
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const opened = await cache.openTemp(version);
   * await opened!.file.write(new TextEncoder().encode("a\n1\n"));
   * opened!.file.close();
   * assert.equal((await cache.adopt(version, opened!.temp, { format: "csv" }))?.format, "csv");
   * assert.ok(await cache.lookup(version));
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async openTemp(version: FileVersion): Promise<{ temp: string; file: Deno.FsFile } | undefined> {
    if (version.size > this.maxBytes) return undefined;
    const temp = join(this.dir, `.tmp-${crypto.randomUUID().slice(0, 8)}-${copyName(version)}`);
    try {
      if (!this.#folderReady) {
        await Deno.mkdir(this.dir, { recursive: true });
        this.#folderReady = true;
      }
      return { temp, file: await Deno.open(temp, { write: true, createNew: true }) };
    } catch (error) {
      this.#folderReady = false;
      this.reportFailure(error);
      return undefined;
    }
  }

  /**
   * Makes a complete temporary file from {@linkcode DiskCache.openTemp} the copy of `version`:
   * size-checked, then renamed into place (readers see the whole copy or none). Returns the
   * copy, or `undefined` when the size is wrong or publishing failed (reported once); the
   * temporary file is then left to the caller, who may still read it, and must remove it.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir, warn: () => {} });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const opened = await cache.openTemp(version);
   * await opened!.file.write(new TextEncoder().encode("a\n"));
   * opened!.file.close();
   * assert.equal(await cache.adopt(version, opened!.temp), undefined); // 2 bytes of 4
   * assert.equal(await cache.lookup(version), undefined);
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async adopt(
    version: FileVersion,
    temp: string,
    extra: { format?: string } = {},
  ): Promise<CachedFile | undefined> {
    try {
      const size = (await Deno.stat(temp)).size;
      if (size !== version.size) {
        throw new Error(`the copy has ${size} bytes, expected ${version.size}`);
      }
      return await this.publish(version, temp, extra);
    } catch (error) {
      this.reportFailure(error);
      return undefined;
    }
  }

  /**
   * Every complete copy the index knows of, most recently used first (a path's older versions
   * included until they are trimmed).
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.create(version);
   * await writer!.write(new TextEncoder().encode("a\n1\n"));
   * await writer!.commit({ format: "csv" });
   * const entries = await cache.entries();
   * assert.deepEqual(entries.map((cached) => [cached.version.path, cached.format]), [["/a/b.csv", "csv"]]);
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async entries(): Promise<CachedFile[]> {
    const latest = new Map<string, IndexLine>();
    for (const line of await this.#readIndex()) latest.set(line.blob, line);
    const entries: CachedFile[] = [];
    for (const line of latest.values()) {
      const info = await Deno.stat(join(this.dir, line.blob)).catch(() => undefined);
      if (info === undefined || info.size !== line.size) continue;
      entries.push(toCached(this.dir, line, info.mtime ?? new Date(line.cachedAt)));
    }
    return entries.sort((a, b) => b.lastUsed.getTime() - a.lastUsed.getTime());
  }

  /**
   * Removes every copy (and any leftover temporary file) of this cache folder. Files the
   * sample store or other tools keep next to `downloads/` are not touched.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.create(version);
   * await writer!.write(new TextEncoder().encode("a\n1\n"));
   * await writer!.commit();
   * assert.deepEqual(await cache.clear(), { files: 1, bytes: 4 });
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async clear(): Promise<ClearResult> {
    const copies = await this.#copies();
    try {
      await Deno.remove(this.dir, { recursive: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    this.#folderReady = false;
    this.#usage = 0;
    return { files: copies.length, bytes: copies.reduce((sum, copy) => sum + copy.size, 0) };
  }

  /**
   * Reports a failure to write the cache, once per cache object.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const warnings: string[] = [];
   * const cache = new DiskCache({ dir: "/tmp/tern-cache", warn: (message) => warnings.push(message) });
   * cache.reportFailure(new Deno.errors.PermissionDenied("read-only"));
   * cache.reportFailure(new Deno.errors.PermissionDenied("read-only"));
   * assert.equal(warnings.length, 1);
   * ```
   */
  reportFailure(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.#warn(
      `tern: cannot write the local cache in ${this.root} (${reason}); files are read without it.`,
    );
  }

  /**
   * Publishes a finished copy: renames it into place, records it in the index, and keeps the
   * cache under its cap. Used by {@linkcode CacheWriter.commit}.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * await Deno.mkdir(cache.dir, { recursive: true });
   * const temp = `${cache.dir}/.tmp-example.csv`; // next to the copies, so the rename is atomic
   * await Deno.writeTextFile(temp, "a\n1\n");
   * const cached = await cache.publish(version, temp, { format: "csv" });
   * assert.equal(await Deno.readTextFile(cached.file), "a\n1\n");
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async publish(
    version: FileVersion,
    temp: string,
    extra: { format?: string },
  ): Promise<CachedFile> {
    const blob = copyName(version);
    await Deno.rename(temp, join(this.dir, blob));
    const line: IndexLine = {
      store: version.store,
      path: version.path,
      id: version.id,
      size: version.size,
      modified: version.modified,
      ...(version.md5 === undefined ? {} : { md5: version.md5 }),
      blob,
      ...(extra.format === undefined ? {} : { format: extra.format }),
      cachedAt: Date.now(),
    };
    // One write of one line with O_APPEND: lines of concurrent processes do not interleave.
    await Deno.writeTextFile(join(this.dir, INDEX), `${JSON.stringify(line)}\n`, { append: true });
    if (this.#usage === undefined) this.#usage = await this.#countUsage();
    else this.#usage += version.size;
    if (this.#usage > this.maxBytes) await this.#trim(blob);
    return toCached(this.dir, line, new Date());
  }

  /**
   * Evicts least recently used copies (never `keep`) until the cache fits its cap, then
   * rewrites the index without the lines of copies that are gone.
   */
  async #trim(keep: string): Promise<void> {
    const copies = await this.#copies(true);
    let usage = copies.reduce((sum, copy) => sum + copy.size, 0);
    copies.sort((a, b) => a.lastUsed - b.lastUsed);
    const removed = new Set<string>();
    for (const copy of copies) {
      if (usage <= this.maxBytes) break;
      if (copy.name === keep) continue;
      await Deno.remove(join(this.dir, copy.name)).catch(() => {});
      removed.add(copy.name);
      usage -= copy.size;
    }
    this.#usage = usage;
    const alive = new Set(copies.map((copy) => copy.name).filter((name) => !removed.has(name)));
    const lines = (await this.#readIndex()).filter((line) => alive.has(line.blob));
    const temp = join(this.dir, `.tmp-index-${crypto.randomUUID().slice(0, 8)}.jsonl`);
    await Deno.writeTextFile(temp, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    await Deno.rename(temp, join(this.dir, INDEX));
  }

  /** The copies on disk with their sizes and last use; `tidy` also drops stale temp files. */
  async #copies(tidy = false): Promise<{ name: string; size: number; lastUsed: number }[]> {
    const copies: { name: string; size: number; lastUsed: number }[] = [];
    const now = Date.now();
    try {
      for await (const item of Deno.readDir(this.dir)) {
        if (!item.isFile) continue;
        const path = join(this.dir, item.name);
        if (COPY_NAME.test(item.name)) {
          const info = await Deno.stat(path).catch(() => undefined);
          if (info !== undefined) {
            copies.push({ name: item.name, size: info.size, lastUsed: info.mtime?.getTime() ?? 0 });
          }
        } else if (tidy && item.name.startsWith(".tmp-")) {
          const info = await Deno.stat(path).catch(() => undefined);
          if (now - (info?.mtime?.getTime() ?? now) > STALE_TEMP_MS) {
            await Deno.remove(path).catch(() => {});
          }
        }
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    return copies;
  }

  async #countUsage(): Promise<number> {
    return (await this.#copies()).reduce((sum, copy) => sum + copy.size, 0);
  }

  /** The index's valid lines, in order (a torn last line from a crash is skipped). */
  async #readIndex(): Promise<IndexLine[]> {
    let text: string;
    try {
      text = await Deno.readTextFile(join(this.dir, INDEX));
    } catch {
      return [];
    }
    const lines: IndexLine[] = [];
    for (const raw of text.split("\n")) {
      if (raw === "") continue;
      try {
        const line = JSON.parse(raw);
        if (isIndexLine(line)) lines.push(line);
      } catch {
        // A line cut short by a crash: its copy is simply not listed.
      }
    }
    return lines;
  }

  /** Size-checks a copy and marks it used; its last-use time, or `undefined` when unusable. */
  async #use(file: string, size: number): Promise<Date | undefined> {
    let actual: number;
    try {
      actual = (await Deno.stat(file)).size;
    } catch {
      return undefined;
    }
    if (actual !== size) return undefined;
    const now = new Date();
    // The copy's modification time is its last use, for the size cap; best effort.
    await Deno.utime(file, now, now).catch(() => {});
    return now;
  }
}

/** Data-store extensions and the extension their copies get, as Polars accepts it by path. */
const COPY_EXTENSIONS: Record<string, string> = {
  csv: ".csv",
  tsv: ".csv",
  tab: ".csv",
  parquet: ".parquet",
  pq: ".parquet",
  arrow: ".ipc",
  feather: ".ipc",
  ipc: ".ipc",
  arrows: ".ipc",
  json: ".json",
  ndjson: ".ndjson",
  jsonl: ".ndjson",
  ldjson: ".ndjson",
};

/**
 * The extension of a data-store file's copy: the one Polars needs to read it by path
 * (`.tsv` → `.csv`, `.feather` → `.ipc`, …), else the name's own extension when short and
 * plain, else `.bin`. It depends on the name only, so a lookup needs no index.
 *
 * @example
 * ```ts
 * import { copyExtension } from "./cache.ts";
 *
 * console.log(copyExtension("/a/flights.feather"), copyExtension("/a/b.csv.gz"), copyExtension("/a/README")); // .ipc .gz .bin
 * ```
 */
export function copyExtension(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  const extension = dot <= 0 ? "" : name.slice(dot + 1);
  return COPY_EXTENSIONS[extension] ??
    (/^[a-z0-9]{1,10}$/.test(extension) ? `.${extension}` : ".bin");
}

/**
 * Writes one copy for a {@linkcode DiskCache}: bytes are gathered into pieces of up to 4 MiB,
 * each written while the next is gathered, then {@linkcode CacheWriter.commit} publishes the
 * copy or {@linkcode CacheWriter.abort} removes it. A write failure is reported once and turns
 * the writer into a no-op whose commit publishes nothing, so the read goes on without the cache.
 *
 * @example
 * ```ts
 * import { DiskCache } from "./cache.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const cache = new DiskCache({ dir });
 * const body = ReadableStream.from([new TextEncoder().encode("a,b\n"), new TextEncoder().encode("1,2\n")]);
 * const writer = await cache.create({ store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 8, modified: 1 });
 * for await (const chunk of body) await writer?.write(chunk);
 * const cached = await writer?.commit({ format: "csv" });
 * assert.equal(await Deno.readTextFile(cached!.file), "a,b\n1,2\n");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class CacheWriter {
  /** The temporary file being written (same folder as the final copy, same extension). */
  readonly temp: string;
  readonly #cache: DiskCache;
  readonly #version: FileVersion;
  #file: Deno.FsFile | undefined;
  #piece: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  #pieceFill = 0;
  /** A written piece's memory, reused for the next: fresh memory costs a page fault per 4 KiB. */
  #spare: Uint8Array<ArrayBuffer> | undefined;
  #pending: Promise<void> = Promise.resolve();
  #accepted = 0;
  #failed = false;
  #done = false;

  /**
   * Made by {@linkcode DiskCache.create}.
   *
   * @example
   * ```ts
   * import { CacheWriter, DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const writer = await cache.create({ store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 });
   * assert.ok(writer instanceof CacheWriter);
   * await writer!.abort();
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  constructor(cache: DiskCache, version: FileVersion, temp: string, file: Deno.FsFile) {
    this.#cache = cache;
    this.#version = version;
    this.temp = temp;
    this.#file = file;
  }

  /** Whether writing failed (the read continues, uncached). */
  get failed(): boolean {
    return this.#failed;
  }

  /**
   * Adds bytes. Returns a promise only when the caller should wait for the disk (a piece is
   * still being written); otherwise `undefined`, so the common case costs no extra turn.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const writer = await cache.create({ store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 });
   * for (const chunk of [new TextEncoder().encode("a\n"), new TextEncoder().encode("1\n")]) {
   *   const wait = writer!.write(chunk);
   *   if (wait) await wait; // only when the disk lags behind
   * }
   * assert.equal((await writer!.commit())?.version.size, 4);
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  write(chunk: Uint8Array): Promise<void> | undefined {
    if (this.#failed || this.#done) return undefined;
    let offset = 0;
    let wait: Promise<void> | undefined;
    while (offset < chunk.byteLength) {
      if (this.#piece.byteLength === 0) {
        // Small files get a piece of their own size, not 4 MiB each.
        const left = Math.max(1, this.#version.size - this.#accepted);
        const size = Math.min(WRITE_PIECE_BYTES, left);
        const spare = this.#spare;
        this.#spare = undefined;
        this.#piece = spare !== undefined && spare.byteLength >= size
          ? spare.subarray(0, size)
          : new Uint8Array(size);
      }
      const take = Math.min(chunk.byteLength - offset, this.#piece.byteLength - this.#pieceFill);
      this.#piece.set(chunk.subarray(offset, offset + take), this.#pieceFill);
      this.#pieceFill += take;
      this.#accepted += take;
      offset += take;
      if (this.#pieceFill === this.#piece.byteLength) wait = this.#flush();
    }
    return wait;
  }

  /**
   * Writes what is left, checks the size, and publishes the copy. Returns it, or `undefined`
   * when writing failed (already reported).
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir, warn: () => {} });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const short = await cache.create(version);
   * await short!.write(new TextEncoder().encode("a\n"));
   * assert.equal(await short!.commit(), undefined); // 2 bytes of 4: nothing published
   * const writer = await cache.create(version);
   * await writer!.write(new TextEncoder().encode("a\n1\n"));
   * assert.equal((await writer!.commit({ format: "csv" }))?.format, "csv");
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async commit(extra: { format?: string } = {}): Promise<CachedFile | undefined> {
    if (this.#done) return undefined;
    this.#flush();
    await this.#pending;
    this.#done = true;
    this.#close();
    try {
      if (this.#failed) throw new Error("writing the copy failed");
      if (this.#accepted !== this.#version.size) {
        throw new Error(`the copy has ${this.#accepted} bytes, expected ${this.#version.size}`);
      }
      return await this.#cache.publish(this.#version, this.temp, extra);
    } catch (error) {
      this.#cache.reportFailure(error);
      await Deno.remove(this.temp).catch(() => {});
      return undefined;
    }
  }

  /**
   * Discards the copy (an incomplete or unwanted download); nothing is published.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.create(version);
   * await writer!.write(new TextEncoder().encode("a\n"));
   * await writer!.abort();
   * assert.equal(await cache.lookup(version), undefined);
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async abort(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await this.#pending.catch(() => {});
    this.#close();
    await Deno.remove(this.temp).catch(() => {});
  }

  /** Queues the current piece after the pieces before it; returns the previous write. */
  #flush(): Promise<void> {
    if (this.#pieceFill === 0 || this.#failed) return this.#pending;
    const piece = this.#piece.subarray(0, this.#pieceFill);
    this.#piece = new Uint8Array(0);
    this.#pieceFill = 0;
    const previous = this.#pending;
    this.#pending = previous.then(async () => {
      await this.#writeAll(piece);
      this.#spare = new Uint8Array(piece.buffer);
    });
    return previous;
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    if (this.#failed || this.#file === undefined) return;
    try {
      let offset = 0;
      while (offset < bytes.byteLength) offset += await this.#file.write(bytes.subarray(offset));
    } catch (error) {
      this.#failed = true;
      this.#cache.reportFailure(error);
    }
  }

  #close(): void {
    try {
      this.#file?.close();
    } catch {
      // Already closed.
    }
    this.#file = undefined;
  }
}

/** The file name of a version's copy: hashes of the path and of the version, and extension. */
function copyName(version: FileVersion): string {
  const path = createHash("sha256").update(`${version.store}\n${version.path}`).digest("hex");
  const key = createHash("sha256")
    .update(`${version.id}\n${version.modified}\n${version.size}\n${version.md5 ?? ""}`)
    .digest("hex");
  return `${path.slice(0, 32)}-${key.slice(0, 16)}${copyExtension(version.path)}`;
}

function toCached(dir: string, line: IndexLine, lastUsed: Date): CachedFile {
  return {
    file: join(dir, line.blob),
    version: {
      store: line.store,
      path: line.path,
      id: line.id,
      size: line.size,
      modified: line.modified,
      ...(line.md5 === undefined ? {} : { md5: line.md5 }),
    },
    ...(line.format === undefined ? {} : { format: line.format }),
    cachedAt: new Date(line.cachedAt),
    lastUsed,
  };
}

function isIndexLine(value: unknown): value is IndexLine {
  const line = value as Partial<IndexLine> | null;
  return typeof line === "object" && line !== null && typeof line.store === "string" &&
    typeof line.path === "string" && typeof line.id === "string" &&
    Number.isSafeInteger(line.size) && Number.isFinite(line.modified) &&
    typeof line.blob === "string" && COPY_NAME.test(line.blob) &&
    Number.isFinite(line.cachedAt);
}
