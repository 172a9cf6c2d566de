/**
 * {@linkcode FileHashes}: the hashes of the files a server serves, remembered per file version:
 * XXH64 for a download's `ETag` (see `conditional.ts`), MD5 for the checksum `stat` reports (as
 * iRODS keeps one per file). Each version is read for each kind of hash once, and only when asked.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { loadXxhashModule } from "../deps.ts";

/** An XXH64 WebAssembly instance. */
type Xxhash = Awaited<ReturnType<Awaited<ReturnType<typeof loadXxhashModule>>["default"]>>;

/** Bytes read at a time while hashing. */
const READ_BYTES = 1024 * 1024;

/**
 * How long a file's identity must have stood still before its hash is remembered: longer than the
 * coarsest timestamp grain of the file systems served (Deno reports ctime in whole seconds).
 *
 * @example
 * ```ts
 * import { SETTLED_MS } from "./file_hashes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SETTLED_MS, 2000);
 * ```
 */
export const SETTLED_MS = 2000;

/**
 * The hashes {@linkcode FileHashes} computes: `xxh64` (fast, for `ETag`s) and `md5` (what iRODS
 * records as a file's checksum).
 *
 * @example
 * ```ts
 * import type { HashAlgorithm } from "./file_hashes.ts";
 *
 * const algorithm: HashAlgorithm = "md5";
 * ```
 */
export type HashAlgorithm = "xxh64" | "md5";

/**
 * What identifies one version of a file on disk: device, inode, size, and modification, change
 * and birth times. Any write, and any change of the times (even one restoring the modification
 * time), moves the change time, so two versions never share an identity once it has settled.
 *
 * @example
 * ```ts
 * import { fileIdentity } from "./file_hashes.ts";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile();
 * const before = fileIdentity(await Deno.stat(path));
 * await Deno.writeTextFile(path, "a");
 * assert.notEqual(fileIdentity(await Deno.stat(path)), before);
 * await Deno.remove(path);
 * ```
 */
export function fileIdentity(info: Deno.FileInfo): string {
  const times = [info.mtime, info.ctime, info.birthtime].map((time) => time?.getTime());
  return [info.dev, info.ino, info.size, ...times].join(":");
}

/**
 * Whether a file's identity had stood still for {@linkcode SETTLED_MS} at `now` (ms): only then
 * may a hash be remembered under it (git's "racily clean" rule). A file system without inode
 * numbers never settles.
 *
 * @example
 * ```ts
 * import { isSettled } from "./file_hashes.ts";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile();
 * const info = await Deno.stat(path);
 * assert.equal(isSettled(info, Date.now()), false);
 * assert.equal(isSettled(info, Date.now() + 60_000), true);
 * await Deno.remove(path);
 * ```
 */
export function isSettled(info: Deno.FileInfo, now: number): boolean {
  const modified = info.mtime?.getTime() ?? 0;
  const changed = Math.max(modified, info.ctime?.getTime() ?? now);
  return now - changed >= SETTLED_MS && info.ino !== null;
}

/**
 * How many hashes {@linkcode FileHashes} remembers, and the clock that says when a file has
 * settled.
 *
 * @example
 * ```ts
 * import type { FileHashesOptions } from "./file_hashes.ts";
 * import assert from "node:assert/strict";
 *
 * const options: FileHashesOptions = { max: 100, clock: () => 0 };
 * assert.equal(options.clock?.(), 0);
 * ```
 */
export interface FileHashesOptions {
  /**
   * Most hashes remembered; past it, the least recently used is forgotten.
   * @default 4096
   */
  max?: number;
  /**
   * The clock, ms since the epoch, against which a file's identity must have stood still for
   * {@linkcode SETTLED_MS} ({@linkcode isSettled}): a test steps it past a file's change time
   * instead of waiting for that.
   * @default {Date.now}
   */
  clock?: () => number;
}

/**
 * One server's remembered file hashes, by algorithm and file identity ({@linkcode fileIdentity}),
 * least recently used first, bounded. The store a server serves owns one (`DiskStore`), so two
 * servers in one process share nothing.
 *
 * @example
 * ```ts
 * import { FileHashes } from "./file_hashes.ts";
 * import assert from "node:assert/strict";
 *
 * const hashes = new FileHashes({ max: 1 });
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "a");
 * using file = await Deno.open(path);
 * assert.equal(await hashes.hash(file, 1), "d24ec4f1a98c6e5b");
 * assert.equal(await hashes.of(file, "md5"), "0cc175b9c0f1b6a831c399e269772661");
 * assert.equal(hashes.computed, 2);
 * hashes.remember("one", "d24ec4f1a98c6e5b");
 * hashes.remember("two", "ef46db3751d8e999");
 * assert.equal(hashes.recall("one"), undefined); // forgotten: at most one
 * assert.equal(hashes.recall("two"), "ef46db3751d8e999");
 * await Deno.remove(path);
 * ```
 */
export class FileHashes {
  /** The clock files are judged settled by ({@linkcode FileHashesOptions.clock}). */
  readonly clock: () => number;
  readonly #max: number;
  /** Remembered hashes by identity; oldest first, so the first key is the one to evict. */
  readonly #remembered = new Map<string, string>();
  /** The WebAssembly, instantiated on the first hash (each instance holds its own memory). */
  #xxhash: Promise<Xxhash> | undefined;
  #computed = 0;

  /** No hash remembered yet; the WebAssembly loads with the first XXH64 hash. */
  constructor(options: FileHashesOptions = {}) {
    this.#max = options.max ?? 4096;
    this.clock = options.clock ?? Date.now;
  }

  /** How many hashes are remembered. */
  get size(): number {
    return this.#remembered.size;
  }

  /** How many times a file's bytes were read to hash them (remembered hashes read none). */
  get computed(): number {
    return this.#computed;
  }

  /** The hash remembered for `identity` (now the most recently used), or `undefined`. */
  recall(identity: string): string | undefined {
    const hash = this.#remembered.get(identity);
    if (hash !== undefined) {
      this.#remembered.delete(identity);
      this.#remembered.set(identity, hash);
    }
    return hash;
  }

  /**
   * The `algorithm` hash remembered for the version of a file `info` (its `stat`) describes, or
   * `undefined`: a file hashed before is answered without being opened.
   */
  recallFile(info: Deno.FileInfo, algorithm: HashAlgorithm): string | undefined {
    return this.recall(`${algorithm}:${fileIdentity(info)}`);
  }

  /** Remembers `hash` for `identity`, forgetting the least recently used past the bound. */
  remember(identity: string, hash: string): void {
    this.#remembered.delete(identity);
    if (this.#remembered.size >= this.#max) {
      this.#remembered.delete(this.#remembered.keys().next().value!);
    }
    this.#remembered.set(identity, hash);
  }

  /**
   * The `algorithm` hash of an open file's bytes, in lowercase hex: the one remembered for this
   * version of the file, else read through the descriptor (so it describes the bytes that
   * descriptor serves even if the path was replaced meanwhile) and remembered when the version
   * had settled ({@linkcode isSettled}) and did not change while it was read. Leaves the file
   * positioned at its start.
   *
   * @param info The file's `stat()`, when the caller has just taken it.
   */
  async of(
    file: Deno.FsFile,
    algorithm: HashAlgorithm,
    info?: Deno.FileInfo,
  ): Promise<string> {
    const started = this.clock();
    info ??= await file.stat();
    const identity = `${algorithm}:${fileIdentity(info)}`;
    const known = this.recall(identity);
    if (known !== undefined) return known;
    const hash = await this.hash(file, info.size, algorithm);
    // An edit in place while hashing would leave a hash of mixed bytes: never remember that.
    if (
      isSettled(info, started) &&
      `${algorithm}:${fileIdentity(await file.stat())}` === identity
    ) this.remember(identity, hash);
    return hash;
  }

  /**
   * The hash of an open file's first `size` bytes, in lowercase hex, read from its start (never
   * remembered: see {@linkcode FileHashes.of}); leaves it positioned at its start.
   */
  async hash(file: Deno.FsFile, size: number, algorithm: HashAlgorithm = "xxh64"): Promise<string> {
    let update: (bytes: Uint8Array) => void;
    let digest: () => string;
    if (algorithm === "md5") {
      const md5 = createHash("md5");
      update = (bytes) => void md5.update(bytes);
      digest = () => md5.digest("hex");
    } else {
      this.#xxhash ??= loadXxhashModule().then((module) => module.default()).catch((error) => {
        this.#xxhash = undefined; // not kept: the next hash tries again
        throw error;
      });
      const state = (await this.#xxhash).create64();
      update = (bytes) => void state.update(bytes);
      digest = () => state.digest().toString(16).padStart(16, "0");
    }
    this.#computed++;
    const buffer = new Uint8Array(Math.min(size + 1, READ_BYTES));
    await file.seek(0, Deno.SeekMode.Start);
    while (true) {
      const count = await file.read(buffer);
      if (count === null || count === 0) break;
      update(buffer.subarray(0, count));
    }
    await file.seek(0, Deno.SeekMode.Start);
    return digest();
  }
}
