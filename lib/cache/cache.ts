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
import process from "node:process";
import { basename, join } from "node:path";
import { type ContentHasher, contentHasher, type HashAlgorithm, hashFile } from "./content_hash.ts";
import { CorruptCopyError } from "./errors.ts";
import { formatOfExtension } from "../registry/file_formats.ts";

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

/** Temporary files older than this are removed even without evidence that their writer died. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** A last use is written to the index at most this often per copy (the LRU needs no more). */
const USE_RESOLUTION_MS = 60_000;
/** Deno reports ctime to the second: a copy's identity is trusted once its second is over. */
const CTIME_GRAIN_MS = 2000;
/**
 * Adopted copies from this size on are hashed after the read returns (XXH64 reads about 5 GB/s
 * here, so 16 MiB costs about 3 ms; 160 MB costs 30 ms, a tenth of the whole read).
 */
const LATER_BYTES = 16 * 1024 * 1024;
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
  /** XXH64 (hex) of the bytes tern wrote (see content_hash.ts). */
  xxh64?: string;
  /** SHA-256 (hex) of the bytes, recorded instead of `xxh64` by earlier versions of tern. */
  sha256?: string;
  /** What the copy was on disk after tern wrote it (see {@linkcode CopyIdentity}). */
  identity?: CopyIdentity;
  /** Whether a hash taken after the copy's ctime second had passed matched the recorded one. */
  confirmed?: boolean;
  /** Last use, epoch ms (a later line of the same blob carries a later use). */
  usedAt?: number;
}

/**
 * What a copy was on disk right after tern wrote it: any write, rename or replacement since
 * changes at least one of these (a same-size rewrite changes `ctimeMs`, even when the
 * modification time is put back).
 *
 * @example
 * ```ts
 * import type { CopyIdentity } from "./cache.ts";
 *
 * const identity: CopyIdentity = { dev: 65024, ino: 4243474, size: 4, mtimeMs: 1795506497595, ctimeMs: 1795506497000 };
 * ```
 */
export interface CopyIdentity {
  /** Device of the file system. */
  dev: number;
  /** Inode number. */
  ino: number;
  /** Size in bytes. */
  size: number;
  /** Modification time, epoch ms. */
  mtimeMs: number;
  /** Status-change time, epoch ms (Deno reports it to the second). */
  ctimeMs: number;
}

/**
 * What {@linkcode DiskCache.check} found of a version's copy: `valid` (the copy tern wrote),
 * `missing`, or `changed` (something else is there: other bytes, a symlink, a file tern has no
 * record of) with the reason.
 *
 * @example
 * ```ts
 * import type { CopyState } from "./cache.ts";
 *
 * const say = (state: CopyState) => state.state === "changed" ? state.reason : state.state;
 * ```
 */
export type CopyState =
  | { state: "valid"; file: string }
  | { state: "missing"; file: string }
  | { state: "changed"; file: string; reason: string };

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
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const cache = new DiskCache({ dir, maxBytes: 1e6 });
 * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
 * const writer = await cache.create(version);
 * await writer!.write(new TextEncoder().encode("a\n1\n"));
 * const cached = await writer!.commit({ format: "csv" });
 * assert.ok((await cache.lookup(version))?.file === cached?.file);
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
  /** The newest index line of each copy this process knows of. */
  #records: Map<string, IndexLine> | undefined;
  /** Last uses in this process not yet written to the index (blob → epoch ms). */
  readonly #used = new Map<string, number>();
  /** Hashes of adopted copies being taken after their read returned (by blob). */
  readonly #hashing = new Map<string, Later>();
  /** Large copies taken with `take`, being published after their read returned (by blob). */
  readonly #adopting = new Map<string, Later>();
  #opened: Promise<void> | undefined;

  /**
   * Creates the cache object; the folder is made when first written.
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
    const blob = copyName(version);
    const state = await this.check(version);
    if (state.state !== "valid") {
      // A copy that is not tern's is dropped; the download that follows replaces it anyway.
      if (state.state === "changed") await this.#drop(blob);
      return undefined;
    }
    const line = this.#records?.get(blob);
    const used = await this.#markUsed(blob);
    return line === undefined ? { file: state.file, version, lastUsed: used } : {
      ...toCached(this.dir, line, used),
      version,
    };
  }

  /**
   * Whether the file on disk for `version` is the copy tern wrote of exactly that version (id,
   * date-modified, size): one `lstat` compared with what was recorded when it was written —
   * device, inode, size, modification and status-change times. A symlink or other non-file is
   * never valid. Only when the identity differs, or is too recent to be trusted (Deno reports
   * the status-change time to the second), are the bytes hashed and compared with the hash
   * recorded at write time (XXH64; SHA-256 for copies an earlier tern wrote); a match is recorded, so the next check is one `lstat` again.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { DiskCache } from "./cache.ts";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * assert.equal((await cache.check(version)).state, "missing");
   * const writer = await cache.create(version);
   * writer!.write(new TextEncoder().encode("a\n1\n"));
   * const cached = await writer!.commit();
   * assert.equal((await cache.check(version)).state, "valid");
   * await Deno.writeTextFile(cached!.file, "a\n2\n"); // same size, other bytes
   * assert.equal((await cache.check(version)).state, "changed");
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async check(version: FileVersion): Promise<CopyState> {
    await this.#open();
    const blob = copyName(version);
    // A copy this process is still publishing is looked at once it is in place.
    await this.#adopting.get(blob)?.done;
    const file = join(this.dir, blob);
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(file);
    } catch {
      return { state: "missing", file };
    }
    if (!info.isFile) {
      return { state: "changed", file, reason: info.isSymlink ? "it is a symlink" : "not a file" };
    }
    if (info.size !== version.size) {
      return {
        state: "changed",
        file,
        reason: `it has ${info.size} bytes, not ${version.size}`,
      };
    }
    let line = (await this.#recordsOf()).get(blob);
    if (line === undefined || !sameIdentity(line.identity, info)) {
      // Another process may have written (or confirmed) it since the index was read.
      line = (await this.#recordsOf(true)).get(blob);
    }
    const pending = this.#hashing.get(blob)?.done;
    if (pending !== undefined && line !== undefined && recordedHash(line) === undefined) {
      // This process adopted the copy a moment ago and is hashing it: that hash decides.
      await pending;
      return await this.check(version);
    }
    if (line === undefined) {
      return { state: "changed", file, reason: "tern has no record of writing it" };
    }
    if (sameIdentity(line.identity, info) && line.confirmed === true) {
      return { state: "valid", file };
    }
    const recorded = recordedHash(line);
    if (recorded === undefined && !sameIdentity(line.identity, info)) {
      return { state: "changed", file, reason: "it changed before tern recorded its hash" };
    }
    const actual = await hashFile(file, recorded?.algorithm).catch(() => undefined);
    if (actual === undefined || (recorded !== undefined && actual !== recorded.value)) {
      return { state: "changed", file, reason: "its bytes are not the ones tern wrote" };
    }
    // The bytes are tern's: record what the copy is now, trusted once its ctime second is over.
    const confirmed = Date.now() >= (info.ctime?.getTime() ?? Infinity) + CTIME_GRAIN_MS;
    const identity = identityOf(info);
    if (
      recorded === undefined || !sameIdentity(line.identity, info) ||
      confirmed !== (line.confirmed === true)
    ) {
      const hash = recorded === undefined ? { xxh64: actual } : {};
      await this.#append({ ...line, ...hash, identity, confirmed }).catch(() => {});
    }
    return { state: "valid", file };
  }

  /**
   * Records that the file now at `version`'s copy path is the copy tern just wrote, with the
   * XXH64 of its bytes (see {@linkcode contentHasher}, computed while writing): its identity is read now and kept in the
   * index, for {@linkcode DiskCache.check}. {@linkcode DiskCache.publish} calls it; a writer
   * that puts a copy in place by other means calls it right after.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { DiskCache } from "./cache.ts";
   * import { hashFile } from "./content_hash.ts";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * await Deno.mkdir(cache.dir, { recursive: true });
   * const file = cache.copyPath(version);
   * await Deno.writeTextFile(file, "a\n1\n");
   * await cache.record(version, { xxh64: await hashFile(file) });
   * assert.equal((await cache.check(version)).state, "valid");
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async record(
    version: FileVersion,
    extra: { xxh64?: string; format?: string },
  ): Promise<CachedFile> {
    const blob = copyName(version);
    const info = await Deno.lstat(join(this.dir, blob));
    const now = Date.now();
    const line: IndexLine = {
      store: version.store,
      path: version.path,
      id: version.id,
      size: version.size,
      modified: version.modified,
      ...(version.md5 === undefined ? {} : { md5: version.md5 }),
      blob,
      ...(extra.format === undefined ? {} : { format: extra.format }),
      cachedAt: now,
      ...(extra.xxh64 === undefined ? {} : { xxh64: extra.xxh64 }),
      identity: identityOf(info),
      confirmed: false,
      usedAt: now,
    };
    await this.#append(line);
    return toCached(this.dir, line, new Date(now));
  }

  /**
   * Where `version`'s copy lives (whether or not it is there).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { DiskCache } from "./cache.ts";
   *
   * const cache = new DiskCache({ dir: "/tmp/tern-cache" });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * assert.ok(cache.copyPath(version).startsWith("/tmp/tern-cache/downloads/"));
   * ```
   */
  copyPath(version: FileVersion): string {
    return join(this.dir, copyName(version));
  }

  /**
   * Hashes every copy the index knows of and compares it with the hash recorded when it was
   * written (XXH64, or SHA-256 for copies an earlier tern wrote); copies that differ (or are symlinks, or have no record) are removed and reported.
   * Reads every cached byte once: for when a disk is suspect, not for every read.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { DiskCache } from "./cache.ts";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.create(version);
   * writer!.write(new TextEncoder().encode("a\n1\n"));
   * const cached = await writer!.commit();
   * assert.deepEqual((await cache.verify()).bad, []);
   * const bytes = await Deno.readFile(cached!.file);
   * bytes[2] ^= 1; // a flipped bit, size and times as they were
   * await Deno.writeFile(cached!.file, bytes);
   * const result = await cache.verify();
   * assert.deepEqual(result.bad.map((bad) => bad.path), ["/a/b.csv"]);
   * assert.equal((await cache.check(version)).state, "missing"); // removed
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async verify(): Promise<VerifyResult> {
    await this.#open();
    const result: VerifyResult = { checked: 0, bytes: 0, bad: [] };
    await this.settled();
    for (const line of (await this.#recordsOf(true)).values()) {
      const file = join(this.dir, line.blob);
      const info = await Deno.lstat(file).catch(() => undefined);
      if (info === undefined) continue;
      result.checked++;
      const recorded = recordedHash(line);
      let reason: string | undefined;
      if (!info.isFile) reason = info.isSymlink ? "it is a symlink" : "not a file";
      else if (recorded === undefined && !sameIdentity(line.identity, info)) {
        reason = "it changed before tern recorded its hash";
      } else {
        result.bytes += info.size;
        const actual = await hashFile(file, recorded?.algorithm).catch(() => undefined);
        if (actual === undefined || (recorded !== undefined && actual !== recorded.value)) {
          reason = "its bytes are not the ones tern wrote";
        } else if (recorded === undefined) {
          // Adopted by a process that ended before it took the hash: the identity vouches.
          await this.#append({ ...line, xxh64: actual }).catch(() => {});
        }
      }
      if (reason === undefined) continue;
      await this.#drop(line.blob);
      result.bad.push({ path: line.path, file, reason });
    }
    return result;
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
  /**
   * Whether the index records a copy of any version of a data-store path (without checking the
   * copy): when it does not, a read will download whatever the server says of the file.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * assert.equal(await cache.holds("http://x/terrain", "/a/b.csv"), false);
   * const writer = await cache.create(version);
   * await writer!.write(new TextEncoder().encode("a\n1\n"));
   * await writer!.commit();
   * assert.equal(await cache.holds("http://x/terrain", "/a/b.csv"), true);
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async holds(store: string, path: string): Promise<boolean> {
    for (const adopting of this.#adopting.values()) {
      if (adopting.store === store && adopting.path === path) return true;
    }
    for (const line of (await this.#recordsOf(true)).values()) {
      if (line.store === store && line.path === path) return true;
    }
    return false;
  }

  async latest(store: string, path: string): Promise<CachedFile | undefined> {
    await this.settled();
    const lines = [...(await this.#recordsOf(true)).values()].filter((line) =>
      line.store === store && line.path === path
    ).sort((a, b) => a.cachedAt - b.cachedAt);
    for (const line of lines.reverse()) {
      const version = toCached(this.dir, line, new Date()).version;
      const state = await this.check(version);
      if (state.state === "missing") continue;
      if (state.state === "changed") {
        // Offline there is no good copy to fall back on: an older version would be stale.
        await this.#drop(line.blob);
        throw new CorruptCopyError(
          `The cached copy of ${
            JSON.stringify(path)
          } is not the one tern wrote (${state.reason}); ` +
            "it was removed. Connect without offline: true to download it again.",
          { path },
        );
      }
      return toCached(this.dir, line, await this.#markUsed(line.blob));
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
    if (version.size <= WRITE_PIECE_BYTES) {
      // A copy of one piece is written in one go when complete: creating it then takes one
      // file operation instead of four (open, lock, write, close), the main cost of caching many
      // small files. It exists on disk only between that write and its rename.
      if (version.size > this.maxBytes || !await this.#ready()) return undefined;
      return new CacheWriter(
        this,
        version,
        this.#tempPath(version),
        "later",
        await contentHasher(),
      );
    }
    const opened = await this.openTemp(version);
    return opened &&
      new CacheWriter(this, version, opened.temp, opened.file, await contentHasher());
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
    if (version.size > this.maxBytes || !await this.#ready()) return undefined;
    const temp = this.#tempPath(version);
    try {
      const file = await Deno.open(temp, { write: true, createNew: true });
      // The hash's WebAssembly (1–6 ms on first use) loads while the body downloads, not after.
      contentHasher().catch(() => {});
      // A lock held while writing: evidence for the clean-up at start that nobody writes it.
      await file.lock(true).catch(() => {});
      return { temp, file };
    } catch (error) {
      this.#folderReady = false;
      this.reportFailure(error);
      return undefined;
    }
  }

  /** Whether the folder is there to write copies in (made once); a failure is reported once. */
  async #ready(): Promise<boolean> {
    try {
      await this.#open();
      if (!this.#folderReady) {
        await Deno.mkdir(this.dir, { recursive: true });
        this.#folderReady = true;
      }
      return true;
    } catch (error) {
      this.#folderReady = false;
      this.reportFailure(error);
      return false;
    }
  }

  /**
   * A new temporary file name for a copy of `version`. The writer's pid in the name, and a lock
   * held while writing: evidence for the clean-up at start (see `#open`) that nobody is writing
   * a leftover any more.
   */
  #tempPath(version: FileVersion): string {
    return join(
      this.dir,
      `.tmp-${process.pid}-${crypto.randomUUID().slice(0, 8)}-${copyName(version)}`,
    );
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
      // A large copy is hashed right after the caller has its frame, not before.
      const later = size >= LATER_BYTES;
      const cached = await this.publish(version, temp, { ...extra, hashLater: later });
      if (later) this.#hashSoon(cached);
      return cached;
    } catch (error) {
      this.reportFailure(error);
      return undefined;
    }
  }

  /**
   * Waits for what this process still does to large copies after the reads that wrote them
   * returned: publishing them (see {@linkcode DiskCache.take}) and taking their hashes.
   *
   * @example
   * ```ts
   * import { DiskCache } from "./cache.ts";
   *
   * const cache = new DiskCache({ dir: "/tmp/tern-cache" });
   * await cache.settled(); // nothing adopted: returns at once
   * ```
   */
  async settled(): Promise<void> {
    while (this.#adopting.size > 0 || this.#hashing.size > 0) {
      for (const pending of [this.#adopting, this.#hashing]) {
        await Promise.all([...pending.values()].map((later) => later.done));
      }
    }
  }

  /**
   * Takes a complete temporary file from {@linkcode DiskCache.openTemp} to become `version`'s
   * copy. A copy under 16 MiB is published (see {@linkcode DiskCache.adopt}) before this
   * returns; a larger one right after the caller has moved on, since renaming, indexing and
   * hashing it are not needed for the frame the caller is returning, and a lookup of that
   * version in this process waits for it. Returns whether the cache took the file: it then
   * publishes it or removes it; otherwise the file is still the caller's to remove.
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
   * assert.equal(await cache.take(version, opened!.temp, { format: "csv" }), true);
   * assert.equal((await cache.lookup(version))?.format, "csv");
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async take(
    version: FileVersion,
    temp: string,
    extra: { format?: string } = {},
  ): Promise<boolean> {
    if (version.size < LATER_BYTES) return await this.adopt(version, temp, extra) !== undefined;
    later(this.#adopting, copyName(version), version, async () => {
      if (await this.adopt(version, temp, extra) === undefined) {
        await Deno.remove(temp).catch(() => {});
      }
    });
    return true;
  }

  /**
   * Takes the hash of an adopted copy on a later turn of the event loop and records it, if the
   * copy is still the file that was adopted (else the next check finds it changed).
   */
  #hashSoon(cached: CachedFile): void {
    const blob = basename(cached.file);
    later(this.#hashing, blob, cached.version, async () => {
      const line = this.#records?.get(blob);
      const before = await Deno.lstat(cached.file);
      if (line === undefined || !sameIdentity(line.identity, before)) return;
      const xxh64 = await hashFile(cached.file);
      const after = await Deno.lstat(cached.file);
      const current = this.#records?.get(blob) ?? line;
      if (!sameIdentity(line.identity, after) || recordedHash(current) !== undefined) return;
      await this.#append({ ...current, xxh64 });
    });
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
    await this.settled();
    const entries: CachedFile[] = [];
    for (const line of (await this.#recordsOf(true)).values()) {
      const info = await Deno.lstat(join(this.dir, line.blob)).catch(() => undefined);
      if (info === undefined || !info.isFile || info.size !== line.size) continue;
      entries.push(toCached(this.dir, line, new Date(this.#lastUse(line))));
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
   * const cache = new DiskCache({ dir });
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const writer = await cache.create(version);
   * writer!.write(new TextEncoder().encode("a\n1\n"));
   * await writer!.commit();
   * assert.deepEqual(await cache.usage(), { files: 1, bytes: 4, tempFiles: 0, tempBytes: 0 });
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async usage(): Promise<CacheUsage> {
    await this.settled();
    await this.#open();
    const { copies, temps } = await this.#scan();
    return {
      files: copies.length,
      bytes: copies.reduce((sum, copy) => sum + copy.size, 0),
      tempFiles: temps.length,
      tempBytes: temps.reduce((sum, temp) => sum + temp.size, 0),
    };
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
    await this.settled();
    const { copies } = await this.#scan();
    try {
      await Deno.remove(this.dir, { recursive: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    this.#folderReady = false;
    this.#usage = 0;
    this.#records = new Map();
    this.#used.clear();
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
    extra: { format?: string; xxh64?: string; hashLater?: boolean },
  ): Promise<CachedFile> {
    const blob = copyName(version);
    const xxh64 = extra.xxh64 ?? (extra.hashLater ? undefined : await hashFile(temp));
    await Deno.rename(temp, join(this.dir, blob));
    const cached = await this.record(version, { format: extra.format, xxh64 });
    if (this.#usage === undefined) this.#usage = await this.#countUsage();
    else this.#usage += version.size;
    const lines = this.#records?.size ?? 0;
    if (this.#usage > this.maxBytes || this.#indexLines > 4 * lines + 256) await this.#trim(blob);
    return cached;
  }

  /**
   * Evicts least recently used copies (never `keep`) until the cache, unfinished downloads
   * included, fits its cap, then rewrites the index with one line per copy left.
   */
  async #trim(keep: string): Promise<void> {
    const { copies, temps } = await this.#scan();
    const records = await this.#recordsOf(true);
    let usage = [...copies, ...temps].reduce((sum, copy) => sum + copy.size, 0);
    const lastUse = (name: string) => {
      const line = records.get(name);
      return line === undefined ? 0 : this.#lastUse(line);
    };
    copies.sort((a, b) => lastUse(a.name) - lastUse(b.name));
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
    const lines = [...records.values()].filter((line) => alive.has(line.blob)).map((line) => ({
      ...line,
      usedAt: this.#lastUse(line),
    }));
    const temp = join(this.dir, `.tmp-index-${crypto.randomUUID().slice(0, 8)}.jsonl`);
    await Deno.writeTextFile(temp, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    await Deno.rename(temp, join(this.dir, INDEX));
    this.#records = new Map(lines.map((line) => [line.blob, line]));
    this.#indexLines = lines.length;
    this.#indexRead = undefined;
  }

  /**
   * Opens the cache once per object: removes the temporary files of downloads whose writer is
   * gone — no process holds the file's lock, and its pid (in the name) is not alive or the file
   * is older than an hour — so a killed download leaves nothing behind past the next start.
   */
  #open(): Promise<void> {
    this.#opened ??= (async () => {
      const { temps } = await this.#scan();
      for (const temp of temps) {
        if (await writerGone(join(this.dir, temp.name), temp)) {
          await Deno.remove(join(this.dir, temp.name)).catch(() => {});
        }
      }
    })().catch(() => {});
    return this.#opened;
  }

  /** The copies and temporary files on disk, with their sizes and modification times. */
  async #scan(): Promise<{ copies: Found[]; temps: Found[] }> {
    const copies: Found[] = [];
    const temps: Found[] = [];
    try {
      for await (const item of Deno.readDir(this.dir)) {
        const isCopy = COPY_NAME.test(item.name);
        if (!isCopy && !item.name.startsWith(".tmp-")) continue;
        const info = await Deno.lstat(join(this.dir, item.name)).catch(() => undefined);
        if (info === undefined) continue;
        const found = { name: item.name, size: info.size, mtime: info.mtime?.getTime() ?? 0 };
        (isCopy ? copies : temps).push(found);
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { copies, temps };
      throw error;
    }
    return { copies, temps };
  }

  async #countUsage(): Promise<number> {
    const { copies, temps } = await this.#scan();
    return [...copies, ...temps].reduce((sum, copy) => sum + copy.size, 0);
  }

  /** Lines in the index file as last read or written by this object. */
  #indexLines = 0;
  /** Bytes of the index already read (the index only grows between rewrites). */
  #indexRead: { ino: number; offset: number } | undefined;

  /** The newest line of each copy; `refresh` reads what other processes appended since. */
  async #recordsOf(refresh = false): Promise<Map<string, IndexLine>> {
    if (this.#records !== undefined && !refresh) return this.#records;
    const records = this.#records ?? new Map<string, IndexLine>();
    let file: Deno.FsFile;
    try {
      file = await Deno.open(join(this.dir, INDEX));
    } catch {
      this.#records = records;
      return records;
    }
    try {
      const info = await file.stat();
      let offset = 0;
      if (this.#indexRead !== undefined && this.#indexRead.ino === info.ino) {
        offset = this.#indexRead.offset;
      } else records.clear();
      if (info.size > offset) {
        await file.seek(offset, Deno.SeekMode.Start);
        const bytes = new Uint8Array(info.size - offset);
        let read = 0;
        while (read < bytes.length) {
          const n = await file.read(bytes.subarray(read));
          if (n === null) break;
          read += n;
        }
        const text = new TextDecoder().decode(bytes.subarray(0, read));
        // Only whole lines: a line being appended right now is read next time.
        const end = text.lastIndexOf("\n") + 1;
        for (const raw of text.slice(0, end).split("\n")) {
          if (raw === "") continue;
          this.#indexLines++;
          try {
            const line = JSON.parse(raw);
            if (isIndexLine(line)) records.set(line.blob, line);
          } catch {
            // A line cut short by a crash: its copy is simply not listed.
          }
        }
        offset += new TextEncoder().encode(text.slice(0, end)).byteLength;
      }
      this.#indexRead = { ino: info.ino ?? 0, offset };
    } finally {
      file.close();
    }
    this.#records = records;
    return records;
  }

  /** Appends one line to the index (one write with O_APPEND: lines never interleave). */
  async #append(line: IndexLine): Promise<void> {
    await Deno.writeTextFile(join(this.dir, INDEX), `${JSON.stringify(line)}\n`, { append: true });
    (this.#records ??= new Map()).set(line.blob, line);
    this.#indexLines++;
  }

  /** Notes a use; written to the index at most once a minute per copy. */
  async #markUsed(blob: string): Promise<Date> {
    const now = Date.now();
    this.#used.set(blob, now);
    const line = this.#records?.get(blob);
    if (line !== undefined && now - (line.usedAt ?? line.cachedAt) >= USE_RESOLUTION_MS) {
      await this.#append({ ...line, usedAt: now }).catch(() => {});
    }
    return new Date(now);
  }

  #lastUse(line: IndexLine): number {
    return Math.max(this.#used.get(line.blob) ?? 0, line.usedAt ?? 0, line.cachedAt);
  }

  /** Removes a copy that is not tern's (a symlink itself is removed, never its target). */
  async #drop(blob: string): Promise<void> {
    await Deno.remove(join(this.dir, blob)).catch(() => {});
    this.#used.delete(blob);
    this.#usage = undefined;
  }
}

/** A copy or temporary file found in the folder. */
interface Found {
  name: string;
  size: number;
  mtime: number;
}

/** Whether a temporary file's writer is gone: nobody holds its lock, and it is dead or old. */
async function writerGone(path: string, temp: Found): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return false;
  }
  try {
    let free: boolean;
    try {
      free = await file.tryLock(true);
    } catch {
      free = true; // No locks on this file system: the pid and the age decide.
    }
    if (!free) return false;
    const pid = Number(/^\.tmp-(\d+)-/.exec(temp.name)?.[1]);
    const old = Date.now() - temp.mtime > STALE_TEMP_MS;
    return old || (Number.isSafeInteger(pid) && pid !== process.pid && !alive(pid));
  } finally {
    file.close();
  }
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

function identityOf(info: Deno.FileInfo): CopyIdentity {
  return {
    dev: info.dev,
    ino: info.ino ?? 0,
    size: info.size,
    mtimeMs: info.mtime?.getTime() ?? 0,
    ctimeMs: info.ctime?.getTime() ?? 0,
  };
}

function sameIdentity(identity: CopyIdentity | undefined, info: Deno.FileInfo): boolean {
  if (identity === undefined) return false;
  const now = identityOf(info);
  return identity.dev === now.dev && identity.ino === now.ino && identity.size === now.size &&
    identity.mtimeMs === now.mtimeMs && identity.ctimeMs === now.ctimeMs;
}

/** Work on a copy that runs after the read that wrote it has returned. */
interface Later {
  store: string;
  path: string;
  done: Promise<void>;
}

/**
 * Runs `work` on a later turn of the event loop (after the caller's frame is back), tracked in
 * `pending` under `blob` until it is done; its failure only means the work was not done.
 */
function later(
  pending: Map<string, Later>,
  blob: string,
  version: FileVersion,
  work: () => Promise<void>,
): void {
  const done: Promise<void> = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await work();
  })().catch(() => {}).finally(() => {
    if (pending.get(blob)?.done === done) pending.delete(blob);
  });
  pending.set(blob, { store: version.store, path: version.path, done });
}

/** The content hash an index line recorded, if any (a line of an earlier tern: SHA-256). */
function recordedHash(line: IndexLine): { algorithm: HashAlgorithm; value: string } | undefined {
  if (line.xxh64 !== undefined) return { algorithm: "xxh64", value: line.xxh64 };
  if (line.sha256 !== undefined) return { algorithm: "sha256", value: line.sha256 };
  return undefined;
}

/**
 * The extension of a data-store file's copy: the one Polars needs to read it by path
 * (`.tsv` → `.csv`, `.feather` → `.ipc`, …), else the name's own extension when short and
 * plain, else `.bin`. It depends on the name only, so a lookup needs no index.
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

/**
 * Writes one copy for a {@linkcode DiskCache}: bytes are gathered into pieces of up to 4 MiB,
 * each written while the next is gathered (a copy of one piece is created by that one write,
 * when complete), then {@linkcode CacheWriter.commit} publishes the
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
  /** The open temporary file; `"later"`: a one-piece copy, created by the write of its piece. */
  #file: Deno.FsFile | "later" | undefined;
  #piece: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  #pieceFill = 0;
  /** A written piece's memory, reused for the next: fresh memory costs a page fault per 4 KiB. */
  #spare: Uint8Array<ArrayBuffer> | undefined;
  #pending: Promise<void> = Promise.resolve();
  /** Content hash of the bytes accepted, recorded with the copy for its integrity checks. */
  readonly #hash: ContentHasher;
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
  constructor(
    cache: DiskCache,
    version: FileVersion,
    temp: string,
    file: Deno.FsFile | "later",
    hasher: ContentHasher,
  ) {
    this.#hash = hasher;
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
      const part = chunk.subarray(offset, offset + take);
      this.#hash.update(part);
      this.#piece.set(part, this.#pieceFill);
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
    // An empty copy has no piece to create its file.
    if (this.#file === "later" && this.#accepted === 0) await this.#writeAll(new Uint8Array(0));
    this.#done = true;
    this.#close();
    try {
      if (this.#failed) throw new Error("writing the copy failed");
      if (this.#accepted !== this.#version.size) {
        throw new Error(`the copy has ${this.#accepted} bytes, expected ${this.#version.size}`);
      }
      const xxh64 = this.#hash.digest();
      return await this.#cache.publish(this.#version, this.temp, { ...extra, xxh64 });
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
      if (this.#file === "later") {
        this.#file = undefined; // One piece: a second one means too many bytes (commit refuses).
        await Deno.writeFile(this.temp, bytes, { createNew: true });
        return;
      }
      let offset = 0;
      while (offset < bytes.byteLength) offset += await this.#file.write(bytes.subarray(offset));
    } catch (error) {
      this.#failed = true;
      this.#cache.reportFailure(error);
    }
  }

  #close(): void {
    try {
      if (this.#file !== "later") this.#file?.close();
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
