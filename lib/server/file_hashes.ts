/**
 * {@linkcode FileHashes}: the XXH64 hashes of the files a server sends, remembered per file
 * version so that each version is read for its `ETag` once (see `conditional.ts`).
 *
 * @module
 */

import { loadXxhashModule } from "../deps.ts";

/** An XXH64 WebAssembly instance. */
type Xxhash = Awaited<ReturnType<Awaited<ReturnType<typeof loadXxhashModule>>["default"]>>;

/** Bytes read at a time while hashing. */
const READ_BYTES = 1024 * 1024;

/**
 * How many hashes {@linkcode FileHashes} remembers.
 *
 * @example
 * ```ts
 * import type { FileHashesOptions } from "./file_hashes.ts";
 *
 * const options: FileHashesOptions = { max: 100 };
 * ```
 */
export interface FileHashesOptions {
  /**
   * Most hashes remembered; past it, the least recently used is forgotten.
   * @default 4096
   */
  max?: number;
}

/**
 * One server's remembered file hashes, by file identity (device, inode, size and times: what
 * `conditional.ts` decides may be trusted), least recently used first, bounded. The store a
 * server serves owns one (`DiskStore`), so two servers in one process share nothing.
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
 * hashes.remember("one", "d24ec4f1a98c6e5b");
 * hashes.remember("two", "ef46db3751d8e999");
 * assert.equal(hashes.recall("one"), undefined); // forgotten: at most one
 * assert.equal(hashes.recall("two"), "ef46db3751d8e999");
 * await Deno.remove(path);
 * ```
 */
export class FileHashes {
  readonly #max: number;
  /** Remembered hashes by identity; oldest first, so the first key is the one to evict. */
  readonly #remembered = new Map<string, string>();
  /** The WebAssembly, instantiated on the first hash (each instance holds its own memory). */
  #xxhash: Promise<Xxhash> | undefined;

  /** No hash remembered yet; the WebAssembly loads with the first {@linkcode FileHashes.hash}. */
  constructor(options: FileHashesOptions = {}) {
    this.#max = options.max ?? 4096;
  }

  /** How many hashes are remembered. */
  get size(): number {
    return this.#remembered.size;
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

  /** Remembers `hash` for `identity`, forgetting the least recently used past the bound. */
  remember(identity: string, hash: string): void {
    this.#remembered.delete(identity);
    if (this.#remembered.size >= this.#max) {
      this.#remembered.delete(this.#remembered.keys().next().value!);
    }
    this.#remembered.set(identity, hash);
  }

  /**
   * The XXH64 of an open file's first `size` bytes, in hex, read from its start; leaves it
   * positioned at its start.
   */
  async hash(file: Deno.FsFile, size: number): Promise<string> {
    this.#xxhash ??= loadXxhashModule().then((module) => module.default()).catch((error) => {
      this.#xxhash = undefined; // not kept: the next hash tries again
      throw error;
    });
    const state = (await this.#xxhash).create64();
    const buffer = new Uint8Array(Math.min(size + 1, READ_BYTES));
    await file.seek(0, Deno.SeekMode.Start);
    while (true) {
      const count = await file.read(buffer);
      if (count === null || count === 0) break;
      state.update(buffer.subarray(0, count));
    }
    await file.seek(0, Deno.SeekMode.Start);
    return state.digest().toString(16).padStart(16, "0");
  }
}
