/**
 * {@linkcode DiskCache}: downloaded files kept on local disk, keyed by the
 * {@linkcode FileVersion} the server describes (store, path, id, date-modified, size), so an
 * unchanged file is never downloaded twice and a changed one never served stale.
 *
 * Layout, in `DIR/downloads/`: each copy is one read-only file named after its version,
 * `<path key>-<version key>.<ext>` (the extension lets Polars read it by path), and
 * `index.jsonl` holds one line per copy made or confirmed: its version (with the store's checksum
 * its bytes were checked against as they arrived, when the read knew one), its XXH64 and, once a
 * later hash confirmed it, what the file was on disk then. A copy of up to 1 KiB is kept in its
 * line instead (`data`, base64), hashed whenever it is served, and written to its file name only
 * when a path is asked for ({@linkcode DiskCache.fileOf}): for many small files, creating one
 * file each would cost more than the rest of the cache. A read that knows the store's checksum
 * is served a copy only when its line records that very checksum. There is one way in
 * ({@linkcode CopyWriter}): bytes go to a temporary file in that folder (a small copy's once
 * complete, one kept in the index's never) and are hashed as they go; `commit()` checks the
 * size, indexes the file and renames it into place, before it returns. Nothing runs after.
 * Several processes share one folder without locks: a name appears only once its line is
 * written and only ever holds a whole copy, and a copy is removed only when proven not tern's
 * (or by the cap and `clear()`), never for a missing line. A reader holds what it reads open
 * (`OpenCopy`), so a removal never fails it.
 *
 * A lookup first finds the version's index line: the index is read again (from where the last
 * read stopped) only when a synchronous `lstat` shows another process changed it, so a miss
 * costs no trip through Deno's thread pool. It then opens the copy without following links
 * (`O_NOFOLLOW`, `O_NONBLOCK`), checks the open file (a regular file of the right size), and
 * trusts it only when the line is that very version's and its hash matches (hashed through the
 * same handle, unless the file is still exactly what tern recorded once its status-change second
 * was over).
 * Symlinks, FIFOs, folders or hard links where the cache expects its folder, index or copies are
 * never followed: they are reported once and moved out of the way (an append checks the file it
 * opened, not just the name). The index is read in bounded pieces (an overlong line is skipped,
 * not held), and a cache that cannot be written (a full disk, no permission) is reported once
 * while reads go on without it.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import fs from "node:fs";
import process from "node:process";
import { join, sep } from "node:path";
import { STORE_CHECKSUM } from "../client/checksum.ts";
import type { FileVersion } from "../client/file_version.ts";
import { contentHasher, hashHandle, hashOf } from "./content_hash.ts";
import { CopyWriter, INLINE_BYTES, SMALL_COPY_BYTES } from "./copy_writer.ts";
import { CacheFolderError, CacheMissError, CorruptCopyError } from "./errors.ts";
import type { CachedFile } from "./cached_file.ts";
import { formatOfExtension } from "../registry/file_formats.ts";

export type { CachedFile, FileVersion };
export { CopyWriter };

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
 * What {@linkcode DiskCache.verify} found: how many copies it hashed, and those that were not
 * what tern wrote (removed).
 *
 * @example
 * ```ts
 * import type { VerifyResult } from "./cache.ts";
 *
 * const ok = (result: VerifyResult) => result.bad.length === 0;
 * ```
 */
export interface VerifyResult {
  /** Copies checked. */
  checked: number;
  /** Bytes hashed. */
  bytes: number;
  /** Copies that were not what tern wrote; each was removed. */
  bad: { path: string; file: string; reason: string }[];
}

/**
 * Sizes of what is in the cache folder, unfinished downloads included.
 *
 * @example
 * ```ts
 * import type { CacheUsage } from "./cache.ts";
 *
 * const total = (usage: CacheUsage) => usage.bytes + usage.tempBytes;
 * ```
 */
export interface CacheUsage {
  /** Complete copies. */
  files: number;
  /** Their bytes. */
  bytes: number;
  /** Temporary files of downloads in progress (or left by a process that died). */
  tempFiles: number;
  /** Their bytes. */
  tempBytes: number;
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
  /**
   * Most bytes of cached files kept; least recently used ones go first.
   * @default {5_000_000_000}
   */
  maxBytes?: number;
  /** Told once per kind of problem (a full disk, a symlink in the cache); default warns. */
  warn?: (message: string) => void;
}

/** Default cap on cached bytes. */
export const DEFAULT_CACHE_BYTES = 5_000_000_000;

/** Temporary files older than this are removed even when their writer's pid is alive. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** A last use is written to the index at most this often per copy (the LRU needs no more). */
const USE_RESOLUTION_MS = 60_000;
/** Deno reports ctime to the second: a copy's identity is trusted once its second is over. */
const CTIME_GRAIN_MS = 2000;
/** Index lines longer than this are skipped without being held in memory. */
const MAX_LINE_BYTES = 64 * 1024;
/** The index is read in pieces of this size. */
const INDEX_PIECE_BYTES = 1024 * 1024;
const INDEX = "index.jsonl";
/**
 * Copies go into their index line only while the index is smaller than this: every process
 * holds the index's lines in memory, so a cache of millions of tiny copies keeps files instead.
 */
const INLINE_INDEX_BYTES = 32 * 1024 * 1024;
const COPY_NAME = /^([0-9a-f]{32})-([0-9a-f]{16})(\.[a-z0-9]{1,10})$/;
const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
/** Opens never follow a symlink nor wait on a FIFO. */
const SAFE = O_NOFOLLOW | O_NONBLOCK;
const encoder = new TextEncoder();

/** One line of `index.jsonl`. */
interface IndexLine extends FileVersion {
  /** The copy's file name: always {@linkcode copyName} of this line's version. */
  blob: string;
  /** `xxh64:<hex>` of the bytes tern wrote. */
  readonly hash: string;
  format?: string;
  cachedAt: number;
  /** What the copy was on disk when its hash was confirmed ({@linkcode identityOf}), else "". */
  identity: string;
  /** Whether a hash taken after the copy's ctime second had passed matched `hash`. */
  confirmed: boolean;
  usedAt?: number;
  /** The bytes of a copy kept in the index (up to 1 KiB), base64. */
  data?: string;
}

/** What the check of a copy found. */
type Found =
  | { state: "valid"; line: IndexLine; bytes?: Uint8Array<ArrayBuffer> }
  | { state: "missing" }
  | { state: "changed"; reason: string };

/**
 * The on-disk cache of a store (see the module notes for the layout and guarantees). Safe for
 * several processes at once; within a process, concurrent reads of one version share one
 * download ({@linkcode DiskCache.open} waits for a writer of the same version).
 *
 * @example
 * ```ts
 * import { CopyWriter, DiskCache } from "./cache.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const cache = new DiskCache({ dir, maxBytes: 1e6 });
 * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
 * const writer = await cache.open(version);
 * assert.ok(writer instanceof CopyWriter);
 * await writer.write(new TextEncoder().encode("a\n1\n"));
 * const cached = await writer.commit("csv");
 * assert.equal((await cache.lookup(version))?.file, cached?.file);
 * assert.match(cached!.version.hash!, /^xxh64:[0-9a-f]{16}$/);
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
  readonly #warned = new Set<string>();
  /** Bytes of copies and temporary files; `undefined` until first counted. */
  #usage: number | undefined;
  /** Whole reads of this process, by store and path (see {@linkcode DiskCache.claim}). */
  readonly #claims = new Map<string, Promise<void>>();
  /** The newest valid index line of each copy. */
  #records = new Map<string, IndexLine>();
  /**
   * How far the index was read (it only grows between rewrites), how many lines it has, and
   * the bytes this process appended since it was last read.
   */
  #indexRead = { ino: -1, offset: 0, lines: 0, junk: false, appended: 0 };
  #ready: Promise<boolean> | undefined;
  /** The read of the index under way (see {@linkcode DiskCache.#recordsOf}). */
  #reading: Promise<Map<string, IndexLine>> | undefined;
  /** Uses in this process, more precise than the index's. */
  readonly #used = new Map<string, number>();
  /** The index's path. */
  readonly #index: string;
  /** Copy names of versions looked at: a read asks for one twice (lookup, then writer). */
  readonly #names = new WeakMap<FileVersion, string>();

  /**
   * Creates the cache object; the folder is made when first used.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const cache = new DiskCache({ dir: "/tmp/tern-cache" });
   * assert.equal(cache.dir, "/tmp/tern-cache/downloads");
   * ```
   */
  constructor(options: DiskCacheOptions) {
    this.root = options.dir;
    this.dir = join(options.dir, "downloads");
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.#index = this.#inDir(INDEX);
    this.#warn = options.warn ?? ((message) => console.warn(message));
  }

  /**
   * The verified copy of exactly this version (and, when `version.hash` is set, of exactly
   * those bytes), or `undefined`. A copy that is not tern's is removed.
   *
   * @example
   * ```ts
   * import { CopyWriter, DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * assert.equal(await cache.lookup(version), undefined);
   * const writer = await cache.open(version) as CopyWriter;
   * await writer.write(new TextEncoder().encode("a\n1\n"));
   * await writer.commit();
   * assert.deepEqual((await cache.lookup(version))?.bytes, new TextEncoder().encode("a\n1\n"));
   * assert.equal(await cache.lookup({ ...version, hash: "xxh64:0000000000000000" }), undefined);
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async lookup(version: FileVersion): Promise<CachedFile | undefined> {
    const found = await this.#check(version, false);
    return found.state === "valid" ? this.#cached(found.line, found.bytes) : undefined;
  }

  /**
   * The verified copy of `version` when there is one, else a {@linkcode CopyWriter} for it,
   * else `undefined` (larger than the cap, or the cache cannot be written: reported once).
   *
   * @example
   * ```ts
   * import { CopyWriter, DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir, maxBytes: 1000 });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.open(version);
   * assert.ok(writer instanceof CopyWriter);
   * await writer.abort();
   * assert.equal(await cache.open({ ...version, size: 5000 }), undefined); // over the cap
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async open(version: FileVersion): Promise<CachedFile | CopyWriter | undefined> {
    return await this.lookup(version) ?? await this.writer(version);
  }

  /**
   * A {@linkcode CopyWriter} for `version` without looking for a copy first (for a read that
   * just did), else `undefined` (larger than the cap, or the cache cannot be written: reported
   * once). Should another process publish the same version meanwhile, the commit replaces its
   * copy with the same bytes.
   *
   * @example
   * ```ts
   * import { CopyWriter, DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.writer(version);
   * assert.ok(writer instanceof CopyWriter);
   * await writer.write(new TextEncoder().encode("a\n1\n"));
   * const copy = await writer.commit("csv");
   * assert.deepEqual(copy?.bytes, new TextEncoder().encode("a\n1\n")); // small: kept in memory
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async writer(version: FileVersion): Promise<CopyWriter | undefined> {
    if (version.size > this.maxBytes || !await this.#usable()) return undefined;
    const blob = this.#nameOf(version);
    const temp = this.#inDir(`.tmp-${process.pid}-${crypto.randomUUID().slice(0, 8)}-${blob}`);
    try {
      const [file, hasher] = await Promise.all([
        version.size <= SMALL_COPY_BYTES
          ? undefined
          : Deno.open(temp, { read: true, write: true, createNew: true, mode: 0o600 }),
        contentHasher(),
      ]);
      return new CopyWriter(version.size, hasher, file, temp, {
        publish: (hash, format, inline) => this.#publish(version, blob, temp, hash, format, inline),
        report: (error) => {
          // A folder another process's clear() removed is made again by the next writer (else
          // no copy of this process would be kept again); a full disk costs no check per read.
          if (notFound(error)) this.#ready = undefined;
          this.reportFailure(error);
        },
      });
    } catch (error) {
      this.#ready = undefined;
      this.reportFailure(error);
      return undefined;
    }
  }

  /**
   * Waits until no other whole read of this path in this process is under way, then claims it:
   * a read that downloads a file into the cache holds the claim until it is done (call the
   * function returned), so concurrent reads of one file share one download.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const cache = new DiskCache({ dir: "/tmp/tern-cache" }); // claims touch no disk
   * const order: string[] = [];
   * const release = await cache.claim("http://x/terrain", "/a/b.csv");
   * const second = cache.claim("http://x/terrain", "/a/b.csv").then(() => order.push("second"));
   * order.push("first");
   * release();
   * await second;
   * assert.deepEqual(order, ["first", "second"]);
   * ```
   */
  async claim(store: string, path: string): Promise<() => void> {
    const key = `${store}\n${path}`;
    for (let pending = this.#claims.get(key); pending; pending = this.#claims.get(key)) {
      await pending;
    }
    let release!: () => void;
    const claimed = new Promise<void>((resolve) => release = resolve);
    this.#claims.set(key, claimed);
    return () => {
      if (this.#claims.get(key) === claimed) this.#claims.delete(key);
      release();
    };
  }

  /**
   * The newest verified copy of a data-store path, whatever its version: what an offline store
   * serves, since it cannot ask the server which version is current.
   *
   * @throws {CorruptCopyError} when that copy is not the one tern wrote (it is removed).
   *
   * @example
   * ```ts
   * import { CopyWriter, DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.open(version) as CopyWriter;
   * await writer.write(new TextEncoder().encode("a\n1\n"));
   * await writer.commit();
   * assert.equal((await cache.latest("http://x/terrain", "/a/b.csv"))?.version.id, "i");
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async latest(store: string, path: string): Promise<CachedFile | undefined> {
    if (!await this.#usable()) return undefined;
    const lines = [...(await this.#recordsOf()).values()]
      .filter((line) => line.store === store && line.path === path)
      .sort((a, b) => b.cachedAt - a.cachedAt);
    for (const line of lines) {
      const found = await this.#check(versionOf(line), false);
      if (found.state === "valid") return this.#cached(found.line, found.bytes);
      if (found.state === "changed") {
        // Offline there is no good copy to fall back on: an older version would be stale.
        throw new CorruptCopyError(
          `The cached copy of ${JSON.stringify(path)} is not the one tern wrote ` +
            `(${found.reason}); it was removed. Connect without offline: true to download it again.`,
          { path },
        );
      }
    }
    return undefined;
  }

  /**
   * Whether the index records a copy of any version of a data-store path (without checking it).
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * assert.equal(await new DiskCache({ dir }).holds("http://x/terrain", "/a/b.csv"), false);
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async holds(store: string, path: string): Promise<boolean> {
    if (!await this.#usable()) return false;
    for (const line of (await this.#recordsOf()).values()) {
      if (line.store === store && line.path === path) return true;
    }
    return false;
  }

  /**
   * Hashes every indexed copy and compares it with the hash recorded when it was written;
   * copies that differ (or are not regular files) are removed and reported. Reads every cached
   * byte once: for when a disk is suspect, not for every read.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { CopyWriter, DiskCache } from "./cache.ts";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const text = "a\n" + "1\n".repeat(1000); // over 1 KiB: a file of its own
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 2002, modified: 1 };
   * const writer = await cache.open(version) as CopyWriter;
   * await writer.write(new TextEncoder().encode(text));
   * const cached = await writer.commit();
   * assert.deepEqual((await cache.verify()).bad, []);
   * await Deno.chmod(cached!.file, 0o644);
   * await Deno.writeTextFile(cached!.file, text.replace("1", "2")); // same size, other bytes
   * assert.deepEqual((await cache.verify()).bad.map((bad) => bad.path), ["/a/b.csv"]);
   * assert.equal(await cache.lookup(version), undefined); // removed
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async verify(): Promise<VerifyResult> {
    const result: VerifyResult = { checked: 0, bytes: 0, bad: [] };
    if (!await this.#usable()) return result;
    for (const line of [...(await this.#recordsOf()).values()]) {
      const found = await this.#check(versionOf(line), true);
      if (found.state === "missing") continue;
      result.checked++;
      const file = this.#inDir(line.blob);
      if (found.state === "valid") result.bytes += line.size;
      else result.bad.push({ path: line.path, file, reason: found.reason });
    }
    return result;
  }

  /**
   * Every indexed copy that is a regular file of the right size (not hashed), most recently
   * used first.
   *
   * @example
   * ```ts
   * import { CopyWriter, DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.open(version) as CopyWriter;
   * await writer.write(new TextEncoder().encode("a\n1\n"));
   * await writer.commit("csv");
   * const entries = await cache.entries();
   * assert.deepEqual(entries.map((cached) => [cached.version.path, cached.format]), [["/a/b.csv", "csv"]]);
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async entries(): Promise<CachedFile[]> {
    if (!await this.#usable()) return [];
    const entries: CachedFile[] = [];
    for (const line of (await this.#recordsOf()).values()) {
      const info = line.data ?? await Deno.lstat(this.#inDir(line.blob)).catch(() => undefined);
      if (typeof info === "string" || (info?.isFile && info.size === line.size)) {
        entries.push(this.#cached(line));
      }
    }
    return entries.sort((a, b) => b.lastUsed.getTime() - a.lastUsed.getTime());
  }

  /**
   * What the cache folder holds: complete copies, and the temporary files of downloads in
   * progress or left by a process that died (counted against the cap too).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { DiskCache } from "./cache.ts";
   *
   * const dir = await Deno.makeTempDir();
   * assert.deepEqual(await new DiskCache({ dir }).usage(), { files: 0, bytes: 0, tempFiles: 0, tempBytes: 0 });
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async usage(): Promise<CacheUsage> {
    await this.#usable();
    const { copies, temps } = await this.#stored();
    const [files, tempFiles] = [copies.length, temps.length];
    return { files, bytes: sizeOf(copies), tempFiles, tempBytes: sizeOf(temps) };
  }

  /**
   * Removes every copy (and any temporary file) of this cache folder. A symlink in place of
   * `downloads/` is removed, never followed.
   *
   * @example
   * ```ts
   * import { CopyWriter, DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.open(version) as CopyWriter;
   * await writer.write(new TextEncoder().encode("a\n1\n"));
   * await writer.commit();
   * assert.deepEqual(await cache.clear(), { files: 1, bytes: 4 });
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async clear(): Promise<ClearResult> {
    const { copies } = await this.#stored();
    const info = await Deno.lstat(this.dir).catch(() => undefined);
    // remove(recursive) unlinks symlinks inside without following them.
    if (info !== undefined) await Deno.remove(this.dir, { recursive: info.isDirectory });
    this.#ready = undefined;
    this.#usage = undefined;
    this.#forget();
    return { files: copies.length, bytes: sizeOf(copies) };
  }

  /**
   * A real file holding `copy`, for a reader that needs a path: the copy's own, or, for one kept
   * in the index, its name in the cache folder, written there from its verified bytes (read-only,
   * whole: by a rename, as a copy is published).
   *
   * @throws {CacheMissError} when a copy kept in the index, handed over without its bytes, is no
   * longer in it.
   *
   * @example
   * ```ts
   * import { CopyWriter, DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.open(version) as CopyWriter;
   * await writer.write(new TextEncoder().encode("a\n1\n"));
   * const copy = (await writer.commit())!;
   * await assert.rejects(Deno.stat(copy.file)); // kept in the index: no file yet
   * assert.equal(await Deno.readTextFile(await cache.fileOf(copy)), "a\n1\n");
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async fileOf(copy: CachedFile): Promise<string> {
    if (!copy.inline) return copy.file;
    const { path } = copy.version;
    const left = () =>
      new CacheMissError(`The cached copy of ${JSON.stringify(path)} left the cache.`, { path });
    const bytes = copy.bytes ?? (await this.lookup(copy.version))?.bytes;
    if (bytes === undefined) throw left();
    const name = copy.file.slice(copy.file.lastIndexOf("/") + 1);
    const temp = this.#inDir(`.tmp-${process.pid}-${crypto.randomUUID().slice(0, 8)}-${name}`);
    // Another process may clear the cache folder between the lookup and this write.
    await Deno.writeFile(temp, bytes, { createNew: true, mode: 0o444 }).catch((error) => {
      throw error instanceof Deno.errors.NotFound ? left() : error;
    });
    await Deno.rename(temp, copy.file).catch(async () => {
      await this.#moveAside(copy.file, false);
      await Deno.rename(temp, copy.file);
    });
    this.#usage = undefined; // counted again: the file takes room beside the line
    return copy.file;
  }

  /**
   * Reports a problem once per kind and cache object (the read goes on without the cache).
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
  reportFailure(error: unknown, kind = "write"): void {
    if (this.#warned.has(kind)) return;
    this.#warned.add(kind);
    const reason = error instanceof Error ? error.message : String(error);
    this.#warn(
      kind === "write"
        ? `tern: cannot write the local cache in ${this.root} (${reason}); files are read without it.`
        : `tern: ${reason} in the local cache ${this.root}; it was moved aside, not followed.`,
    );
  }

  /**
   * Publishes a writer's finished temporary file (see {@linkcode CopyWriter.commit}): records its
   * hash in the index, renames it into place, and keeps the cache under its cap. An `inline`
   * copy goes into its line, and there is no file to rename.
   */
  async #publish(
    version: FileVersion,
    blob: string,
    temp: string,
    hash: string,
    format: string | undefined,
    inline: Uint8Array | undefined,
  ): Promise<CachedFile> {
    const target = this.#inDir(blob);
    const { offset, appended } = this.#indexRead;
    if (inline !== undefined && offset + appended >= INLINE_INDEX_BYTES) {
      await Deno.writeFile(temp, inline, { createNew: true, mode: 0o444 });
      inline = undefined;
    }
    const now = Date.now();
    const line: IndexLine = {
      ...versionOf(version),
      ...(version.checksum === undefined ? {} : { checksum: version.checksum }),
      blob,
      hash,
      ...(format === undefined ? {} : { format }),
      cachedAt: now,
      // None yet: the rename changes the ctime, so a later check hashes the copy and records
      // what it is then (a stat of the temporary file would only cost a call).
      identity: "",
      confirmed: false,
      usedAt: now,
      ...(inline === undefined ? {} : { data: inline.toBase64() }),
    };
    // Line first, then name: another process never meets a copy tern has no record of (it would
    // pass it over), and the rename may replace a copy of this version that another process
    // published meanwhile, in one step: whole copies of one version hold the same bytes, and a
    // reader that opened the old one keeps it. A rename replaces anything but a folder, never
    // following a link; a folder in the way is moved aside.
    await this.#append(line);
    if (inline === undefined) {
      await Deno.rename(temp, target).catch(async () => {
        await this.#moveAside(target, false);
        await Deno.rename(temp, target);
      });
    }
    const usage = this.#usage === undefined
      ? await this.usage().then((found) => found.bytes + found.tempBytes)
      : this.#usage + version.size;
    this.#usage = usage;
    const { lines, junk } = this.#indexRead;
    if (usage > this.maxBytes || junk || lines > 4 * this.#records.size + 256) {
      await this.#trim(blob);
    }
    return this.#cached(line);
  }

  /**
   * Checks the copy of `version`: opened without following links, a regular file of the right
   * size whose index line is the line of that very version, and whose bytes hash to the recorded
   * hash (hashed through the same handle unless its identity was confirmed, or `deep`).
   */
  async #check(version: FileVersion, deep: boolean): Promise<Found> {
    if (!await this.#usable()) return { state: "missing" };
    const blob = this.#nameOf(version);
    // A copy is named only after its line is written, so a version with no line has nothing
    // to find: a miss costs a synchronous look at the index, not a failed open of the copy.
    let line = this.#records.get(blob);
    if (line === undefined && !this.#indexUnchanged()) line = (await this.#recordsOf()).get(blob);
    // Passed over, not removed: its line may have been lost to another process's index
    // rewrite while that process reads it. A download of this version renames over it; the
    // cap evicts it first.
    if (line === undefined) return { state: "missing" };
    if (line.data !== undefined) return await this.#checkInline(version, line);
    const file = this.#inDir(blob);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, O_RDONLY | SAFE);
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return { state: "missing" };
      return await this.#bad(blob, "it is a symlink or cannot be opened");
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) return await this.#bad(blob, "it is not a regular file");
      if (info.size !== version.size) {
        return await this.#bad(blob, `it has ${info.size} bytes, not ${version.size}`);
      }
      if (line.identity !== identityOf(info)) {
        // Another process may have written (or confirmed) it since the index was read.
        line = (await this.#recordsOf()).get(blob);
        if (line === undefined) return { state: "missing" };
      }
      if (version.hash !== undefined && version.hash !== line.hash) return { state: "missing" };
      // Served to a version that knows the store's checksum only when its bytes were checked
      // against that very checksum as they were written (a copy from a listing's read was not).
      if (version.checksum !== undefined && version.checksum !== line.checksum) {
        return { state: "missing" };
      }
      const trusted = !deep && line.confirmed && line.identity === identityOf(info);
      if (trusted && info.size > SMALL_COPY_BYTES) return { state: "valid", line: this.#use(line) };
      const started = Date.now();
      const { hash, bytes } = await hashHandle(handle, info.size, info.size <= SMALL_COPY_BYTES);
      if (hash !== line.hash) return await this.#bad(blob, "its bytes are not the ones tern wrote");
      if (!trusted && started >= info.ctimeMs + CTIME_GRAIN_MS) {
        // The bytes are tern's and no edit can hide in the ctime second any more.
        line = { ...line, identity: identityOf(info), confirmed: true };
        await this.#append(line).catch(() => {});
      }
      return { state: "valid", line: this.#use(line), ...(bytes === undefined ? {} : { bytes }) };
    } finally {
      await handle.close();
    }
  }

  /** Checks a copy kept in its index line: its bytes are served only when they hash right. */
  async #checkInline(version: FileVersion, line: IndexLine): Promise<Found> {
    if (version.hash !== undefined && version.hash !== line.hash) return { state: "missing" };
    if (version.checksum !== undefined && version.checksum !== line.checksum) {
      return { state: "missing" };
    }
    const bytes = new Uint8Array(Buffer.from(line.data!, "base64"));
    if (bytes.length !== line.size || await hashOf(bytes) !== line.hash) {
      const found = await this.#bad(
        line.blob,
        "its bytes in the index are not the ones tern wrote",
      );
      // Forgotten at once, as a bad file is removed: an offline store would otherwise meet it on
      // every read, and an offline store never publishes (the next rewrite would drop it).
      await this.#trim(line.blob).catch((error) => this.reportFailure(error));
      return found;
    }
    return { state: "valid", line: this.#use(line), bytes };
  }

  async #bad(blob: string, reason: string): Promise<Found> {
    await this.#moveAside(this.#inDir(blob));
    this.#records.delete(blob);
    this.#usage = undefined;
    return { state: "changed", reason };
  }

  /**
   * Makes sure `downloads/` is a real folder and the index, when there, a regular file; moves
   * anything else out of the way (reported once). Cleans up temporary files of dead writers.
   * `false` when the folder cannot be made (reported once).
   */
  #usable(): Promise<boolean> {
    this.#ready ??= (async () => {
      try {
        const info = await Deno.lstat(this.dir).catch(() => undefined);
        if (info !== undefined && !info.isDirectory) await this.#moveAside(this.dir);
        await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
        const index = await Deno.lstat(this.#index).catch(() => undefined);
        if (index !== undefined && !index.isFile) await this.#moveAside(this.#index);
        // Temporary files only: an `lstat` of every copy would cost a large cache's first read.
        const { temps } = await this.#scan(false);
        for (const temp of temps) {
          const pid = Number(/^\.tmp-(\d+)-/.exec(temp.name)?.[1]);
          const dead = Number.isSafeInteger(pid) && pid !== process.pid && !alive(pid);
          if (dead || Date.now() - temp.mtime > STALE_TEMP_MS) {
            await Deno.remove(this.#inDir(temp.name)).catch(() => {});
          }
        }
        return true;
      } catch (error) {
        this.#ready = undefined;
        this.reportFailure(error);
        return false;
      }
    })();
    return this.#ready;
  }

  /**
   * Removes what is at `path` (a regular file of its own only with `files`; one with another
   * name too, always); a folder (never entered) is renamed aside. Reported once.
   */
  async #moveAside(path: string, files = true): Promise<void> {
    const info = await Deno.lstat(path).catch(() => undefined);
    // A file with another name too is someone else's: a hard link to it is no file of tern's.
    const linked = info?.isFile === true && info.nlink !== null && info.nlink > 1;
    if (info === undefined || (info.isFile && !linked && !files)) return;
    if (!info.isFile || linked) {
      const what = info.isSymlink
        ? "a symlink"
        : info.isDirectory
        ? "a folder"
        : linked
        ? "a hard link"
        : "a special file";
      this.reportFailure(new Error(`${what} stood where ${path} was expected`), "part");
    }
    if (info.isDirectory) {
      await Deno.rename(path, join(this.root, `.tern-moved-${crypto.randomUUID().slice(0, 8)}`));
    } else await Deno.remove(path).catch(() => {});
  }

  /** Evicts least recently used copies (never `keep`) over the cap, then rewrites the index. */
  async #trim(keep: string): Promise<void> {
    const { copies, temps } = await this.#stored();
    const records = this.#records;
    let usage = sizeOf(copies) + sizeOf(temps);
    const lastUse = (name: string) => this.#lastUse(records.get(name));
    copies.sort((a, b) => lastUse(a.name) - lastUse(b.name));
    const alive = new Set(copies.map((copy) => copy.name));
    for (const copy of copies) {
      if (usage <= this.maxBytes) break;
      if (copy.name === keep) continue;
      // A copy kept in the index may have no file: its line goes below all the same.
      await Deno.remove(this.#inDir(copy.name)).catch(() => {});
      alive.delete(copy.name);
      usage -= copy.size;
    }
    this.#usage = usage;
    const lines = [...records.values()].filter((line) => alive.has(line.blob))
      .map((line) => ({ ...line, usedAt: this.#lastUse(line) }));
    const temp = this.#inDir(`.tmp-index-${crypto.randomUUID().slice(0, 8)}`);
    await Deno.writeTextFile(temp, lines.map((line) => `${JSON.stringify(line)}\n`).join(""), {
      createNew: true,
    });
    // A rename replaces whatever stands at the index's name, following nothing.
    await Deno.rename(temp, this.#index);
    this.#forget(lines);
  }

  /**
   * Every copy once, with the bytes it takes (its file's, its index line's, or both when a copy
   * kept in the index was also written for a path), and the temporary files.
   */
  async #stored(): Promise<{ copies: Entry[]; temps: Entry[] }> {
    const { copies, temps } = await this.#scan();
    const sizes = new Map(copies.map((copy) => [copy.name, copy.size]));
    for (const line of (await this.#recordsOf()).values()) {
      if (line.data !== undefined) sizes.set(line.blob, (sizes.get(line.blob) ?? 0) + line.size);
    }
    return { copies: [...sizes].map(([name, size]) => ({ name, size, mtime: 0 })), temps };
  }

  /** The copies (unless `withCopies` is false) and temporary files in the folder, with sizes. */
  async #scan(withCopies = true): Promise<{ copies: Entry[]; temps: Entry[] }> {
    const copies: Entry[] = [];
    const temps: Entry[] = [];
    const info = await Deno.lstat(this.dir).catch(() => undefined);
    if (!info?.isDirectory) return { copies, temps };
    for await (const item of Deno.readDir(this.dir)) {
      const isCopy = withCopies && COPY_NAME.test(item.name);
      if (!isCopy && !item.name.startsWith(".tmp-")) continue;
      const found = await Deno.lstat(this.#inDir(item.name)).catch(() => undefined);
      if (found === undefined) continue;
      const entry = { name: item.name, size: found.size, mtime: found.mtime?.getTime() ?? 0 };
      (isCopy ? copies : temps).push(entry);
    }
    return { copies, temps };
  }

  /**
   * The newest valid line of each copy, reading what was appended since the last read in pieces
   * (a line over 64 KiB is skipped, never held). An index that is not a regular file is moved
   * aside and counts as empty. Calls meanwhile share the read under way: two reads of one
   * stretch would count its lines twice, and one starting over would empty the map the other
   * fills.
   */
  #recordsOf(): Promise<Map<string, IndexLine>> {
    return this.#reading ??= this.#readIndex().finally(() => this.#reading = undefined);
  }

  async #readIndex(): Promise<Map<string, IndexLine>> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.#index, O_RDONLY | SAFE);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") {
        await this.#moveAside(this.#index);
      }
      return this.#records;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await this.#moveAside(this.#index);
        return this.#records;
      }
      if (this.#indexRead.ino !== info.ino) this.#forget([], info.ino);
      await this.#readLines(handle, info.size);
    } finally {
      await handle.close();
    }
    return this.#records;
  }

  async #readLines(handle: fs.promises.FileHandle, size: number): Promise<void> {
    const read = this.#indexRead;
    // Lines appended before the stat are read now; any since are not counted (and so re-read).
    read.appended = 0;
    const buffer = new Uint8Array(Math.min(INDEX_PIECE_BYTES, Math.max(1, size - read.offset)));
    let line: Uint8Array[] = [];
    let lineBytes = 0;
    let skipping = false;
    for (let position = read.offset; position < size;) {
      const want = Math.min(buffer.length, size - position);
      const { bytesRead } = await handle.read(buffer, 0, want, position);
      if (bytesRead === 0) break;
      for (let start = 0; start < bytesRead;) {
        const newline = buffer.subarray(start, bytesRead).indexOf(10);
        const end = newline === -1 ? bytesRead : start + newline;
        skipping ||= lineBytes + end - start > MAX_LINE_BYTES;
        if (!skipping) line.push(buffer.slice(start, end));
        lineBytes += end - start;
        if (newline === -1) break;
        // A whole line (one being appended right now is read next time).
        if (skipping) read.junk = true;
        else this.#parseLine(Buffer.concat(line).toString("utf8"));
        read.lines++;
        read.offset = position + end + 1;
        [line, lineBytes, skipping, start] = [[], 0, false, end + 1];
      }
      position += bytesRead;
    }
  }

  /**
   * Whether the index holds nothing new: it is the file last read, grown by this process's own
   * lines only, or there is none (a fresh cache, or one no copy fits in: there, reading it again
   * would cost every miss a failed open). A synchronous `lstat`: cheaper than any trip through
   * the thread pool.
   */
  #indexUnchanged(): boolean {
    const read = this.#indexRead;
    try {
      const info = Deno.lstatSync(this.#index);
      return info.ino === read.ino && info.size === read.offset + read.appended;
    } catch (error) {
      return error instanceof Deno.errors.NotFound;
    }
  }

  #parseLine(text: string): void {
    try {
      const line = JSON.parse(text);
      if (isIndexLine(line)) this.#records.set(line.blob, line);
      else this.#indexRead.junk = true;
    } catch {
      // A line cut short by a crash: its copy is simply not listed.
      this.#indexRead.junk = true;
    }
  }

  /**
   * Appends one line (one `O_APPEND` write: lines never interleave) to the regular file at the
   * index's name, never through a link. The calls are synchronous: appending a line to a file
   * takes less than the trips through the thread pool that asynchronous calls make, and nothing
   * is held while they run.
   *
   * @throws {CacheFolderError} when the index is still not a file of its own after whatever
   * stood at its name was moved aside.
   */
  async #append(line: IndexLine): Promise<void> {
    const text = encoder.encode(`${JSON.stringify(line)}\n`);
    let written = await this.#appendOnce(text);
    if (written === undefined) {
      // A hard link or a FIFO at the name goes (reported); an index another process renamed
      // into place since the open is a regular file of its own, and stays.
      await this.#moveAside(this.#index, false);
      written = await this.#appendOnce(text);
    }
    if (written === undefined) {
      throw new CacheFolderError(
        `the cache's index ${this.#index} is not the regular file opened at its name`,
      );
    }
    this.#indexRead.appended += written;
    this.#records.set(line.blob, line);
    this.#indexRead.lines++;
  }

  /** The bytes appended, or `undefined` when the file opened is not the index (none written). */
  async #appendOnce(text: Uint8Array): Promise<number | undefined> {
    const path = this.#index;
    const flags = O_WRONLY | O_APPEND | O_CREAT | SAFE;
    let fd: number;
    try {
      fd = fs.openSync(path, flags, 0o600);
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") throw error;
      await this.#moveAside(path);
      fd = fs.openSync(path, flags, 0o600);
    }
    try {
      // The file opened must be the one at the name, and that name its only one: a FIFO with a
      // reader (the one thing besides a file that this open accepts), a name swapped since the
      // open, or a hard link to a file elsewhere would take the line out of the index.
      // Where the platform reports no inode (Windows), the file's type is all there is to check.
      const opened = fs.fstatSync(fd);
      const named = Deno.lstatSync(path);
      const own = opened.isFile() && (named.ino === null ||
        opened.nlink === 1 && opened.dev === named.dev && opened.ino === named.ino);
      return own ? fs.writeSync(fd, text) : undefined;
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Notes a use; written to the index at most once a minute per copy (the LRU needs no more). */
  #use(line: IndexLine): IndexLine {
    const now = Date.now();
    this.#used.set(line.blob, now);
    if (now - (line.usedAt ?? line.cachedAt) < USE_RESOLUTION_MS) return line;
    const used = { ...line, usedAt: now };
    this.#append(used).catch(() => {});
    return used;
  }

  /**
   * The path of a name in the folder: `join()`'s result without its normalizing, which costs
   * more than the rest of a small copy's path work (the folder is normalized once, by the
   * constructor, and names in it are plain).
   */
  #inDir(name: string): string {
    return `${this.dir}${sep}${name}`;
  }

  #nameOf(version: FileVersion): string {
    let name = this.#names.get(version);
    if (name === undefined) this.#names.set(version, name = copyName(version));
    return name;
  }

  #lastUse(line: IndexLine | undefined): number {
    if (line === undefined) return 0;
    return Math.max(this.#used.get(line.blob) ?? 0, line.usedAt ?? 0, line.cachedAt);
  }

  /** Drops what was read of the index (it is read again from its start), keeping `lines`. */
  #forget(lines: IndexLine[] = [], ino = -1): void {
    this.#records = new Map(lines.map((line) => [line.blob, line]));
    this.#indexRead = { ino, offset: 0, lines: 0, junk: false, appended: 0 };
  }

  #cached(line: IndexLine, bytes?: Uint8Array<ArrayBuffer>): CachedFile {
    return {
      file: this.#inDir(line.blob),
      version: {
        ...versionOf(line),
        hash: line.hash,
        ...(line.checksum === undefined ? {} : { checksum: line.checksum }),
      },
      ...(line.format === undefined ? {} : { format: line.format }),
      ...(line.data === undefined ? {} : { inline: true }),
      cachedAt: new Date(line.cachedAt),
      lastUsed: new Date(this.#lastUse(line)),
      ...(bytes === undefined ? {} : { bytes }),
    };
  }
}

/**
 * The extension of a data-store file's copy: the one Polars needs to read it by path
 * (`.tsv` → `.csv`, `.feather` → `.ipc`, …), else the name's own extension when short and
 * plain, else `.bin`.
 *
 * @example
 * ```ts
 * import { copyExtension } from "./cache.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(copyExtension("/a/flights.feather"), ".ipc");
 * assert.equal(copyExtension("/a/b.csv.gz"), ".gz");
 * assert.equal(copyExtension("/a/README"), ".bin");
 * ```
 */
export function copyExtension(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  const extension = dot <= 0 ? "" : name.slice(dot + 1);
  return formatOfExtension(extension)?.table?.copyExtension ??
    (/^[a-z0-9]{1,10}$/.test(extension) ? `.${extension}` : ".bin");
}

function sizeOf(entries: readonly Entry[]): number {
  return entries.reduce((sum, entry) => sum + entry.size, 0);
}

/** A copy or temporary file found in the folder. */
interface Entry {
  name: string;
  size: number;
  mtime: number;
}

/** Whether `error` says a file or folder is missing (Deno's error or Node's code). */
function notFound(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound ||
    (error as { code?: string } | null)?.code === "ENOENT";
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as { code?: string }).code === "EPERM";
  }
}

/** What a file is on disk: any write or replacement changes it. */
function identityOf(info: fs.Stats): string {
  return [info.dev, info.ino, info.size, info.mtimeMs, info.ctimeMs].join(":");
}

/** The fields of a version that name a copy (an index line's version). */
function versionOf(version: FileVersion): FileVersion {
  const { store, path, id, size, modified } = version;
  return { store, path, id, size, modified };
}

/** The file name of a version's copy: hashes of the path and of the version, and extension. */
function copyName(version: FileVersion): string {
  const path = createHash("sha256").update(`${version.store}\n${version.path}`).digest("hex");
  const id = createHash("sha256").update(`${version.id}\n${version.modified}\n${version.size}`)
    .digest("hex");
  return `${path.slice(0, 32)}-${id.slice(0, 16)}${copyExtension(version.path)}`;
}

/** A well-formed line whose copy name is the one of its own version (no line redirects). */
function isIndexLine(value: unknown): value is IndexLine {
  const line = value as Partial<IndexLine> | null;
  if (
    typeof line !== "object" || line === null || typeof line.store !== "string" ||
    typeof line.path !== "string" || typeof line.id !== "string" ||
    !Number.isSafeInteger(line.size) || !Number.isFinite(line.modified) ||
    typeof line.hash !== "string" || !/^xxh64:[0-9a-f]{16}$/.test(line.hash) ||
    !Number.isFinite(line.cachedAt) || typeof line.identity !== "string" ||
    (line.checksum !== undefined &&
      (typeof line.checksum !== "string" || !STORE_CHECKSUM.test(line.checksum))) ||
    (line.data !== undefined && (typeof line.data !== "string" || line.size! > INLINE_BYTES))
  ) return false;
  return line.blob === copyName(line as IndexLine);
}
