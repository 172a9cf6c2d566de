/**
 * {@linkcode OpenCopy}: a verified cached copy held open while it is read.
 *
 * @module
 */

import fs from "node:fs";
import type { CachedFile } from "./cached_file.ts";

/**
 * A copy as a reader is given it: its path (Polars reads a file faster than bytes), or its bytes.
 *
 * @example
 * ```ts
 * import type { LocalCopy } from "./open_copy.ts";
 *
 * const local: LocalCopy = { file: "/home/me/.cache/tern/downloads/abc.csv" };
 * ```
 */
export type LocalCopy = { file: string; bytes?: undefined } | {
  bytes: Uint8Array;
  file?: undefined;
};

/** A copy is streamed in pieces of this size. */
const PIECE_BYTES = 1024 * 1024;
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/**
 * A copy the cache returned, held open while it is read. Another process may remove or replace
 * the copy's name at any moment (the cap's eviction, `clear()`, a download of the same version
 * renaming over it). A lock would make processes wait on each other, and a name kept for each
 * reader would have to be cleaned up after a crash; an open file simply keeps its bytes whatever
 * happens to its name. So the head and the chunks are read through the handle, and a reader given
 * the path ({@linkcode OpenCopy.read}: Polars reads a file faster than bytes) that fails once the
 * name no longer holds this file runs again on the bytes read through it. A small copy comes with
 * its bytes and holds nothing open.
 *
 * @example
 * ```ts
 * import { CopyWriter, DiskCache, OpenCopy } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const cache = new DiskCache({ dir });
 * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
 * const writer = await cache.open(version) as CopyWriter;
 * await writer.write(new TextEncoder().encode("a\n1\n"));
 * const committed = (await writer.commit())!;
 * await cache.fileOf(committed); // a copy this small lives in the index: given a file
 * const { bytes: _, ...copy } = committed; // as a large copy: read by path
 * await using open = (await OpenCopy.open(copy))!;
 * await Deno.remove(copy.file); // as another process's clear() would
 * const text = await open.read(async (local) =>
 *   new TextDecoder().decode(local.bytes ?? await Deno.readFile(local.file))
 * );
 * assert.equal(text, "a\n1\n");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class OpenCopy implements AsyncDisposable {
  /** The copy, as the cache returned it. */
  readonly copy: CachedFile;
  readonly #handle: fs.promises.FileHandle | undefined;

  private constructor(copy: CachedFile, handle: fs.promises.FileHandle | undefined) {
    this.copy = copy;
    this.#handle = handle;
  }

  /**
   * Opens a copy the cache returned (never through a link), or `undefined` when its name no
   * longer holds a regular file of its size: another process removed it since, so its bytes
   * must come from elsewhere.
   *
   * @example
   * ```ts
   * import { OpenCopy } from "./open_copy.ts";
   * import assert from "node:assert/strict";
   *
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const gone = { file: "/nonexistent/b.csv", version, cachedAt: new Date(), lastUsed: new Date() };
   * assert.equal(await OpenCopy.open(gone), undefined);
   * await using small = (await OpenCopy.open({ ...gone, bytes: new TextEncoder().encode("a\n1\n") }))!;
   * assert.equal(new TextDecoder().decode(await small.head(2)), "a\n");
   * ```
   */
  static async open(copy: CachedFile): Promise<OpenCopy | undefined> {
    if (copy.bytes !== undefined || copy.version.size === 0) return new OpenCopy(copy, undefined);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(copy.file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch {
      return undefined;
    }
    const info = await handle.stat();
    if (info.isFile() && info.size === copy.version.size) return new OpenCopy(copy, handle);
    await handle.close();
    return undefined;
  }

  /**
   * The first `count` bytes (fewer when the copy is shorter).
   *
   * @example
   * ```ts
   * import { OpenCopy } from "./open_copy.ts";
   * import assert from "node:assert/strict";
   *
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const bytes = new TextEncoder().encode("a\n1\n");
   * const copy = { file: "/x/b.csv", version, cachedAt: new Date(), lastUsed: new Date(), bytes };
   * await using open = (await OpenCopy.open(copy))!;
   * assert.deepEqual(await open.head(100), bytes);
   * ```
   */
  async head(count: number): Promise<Uint8Array> {
    if (this.#handle === undefined) return this.#bytes.subarray(0, count);
    const head = new Uint8Array(Math.min(count, this.copy.version.size));
    let at = 0;
    while (at < head.length) {
      const { bytesRead } = await this.#handle.read(head, at, head.length - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return head.subarray(0, at);
  }

  /**
   * The copy's bytes from byte `from` on, in order, in pieces of up to 1 MiB (each a new array).
   *
   * @example
   * ```ts
   * import { OpenCopy } from "./open_copy.ts";
   * import assert from "node:assert/strict";
   *
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const bytes = new TextEncoder().encode("a\n1\n");
   * const copy = { file: "/x/b.csv", version, cachedAt: new Date(), lastUsed: new Date(), bytes };
   * await using open = (await OpenCopy.open(copy))!;
   * assert.deepEqual(await Array.fromAsync(open.chunks()), [bytes]);
   * assert.deepEqual(await Array.fromAsync(open.chunks(2)), [bytes.subarray(2)]);
   * ```
   */
  async *chunks(from = 0): AsyncGenerator<Uint8Array<ArrayBuffer>, void> {
    if (this.#handle === undefined) return yield this.#bytes.subarray(from);
    const { size } = this.copy.version;
    for (let at = from; at < size;) {
      const piece = new Uint8Array(Math.min(PIECE_BYTES, size - at));
      const { bytesRead } = await this.#handle.read(piece, 0, piece.length, at);
      if (bytesRead === 0) return;
      yield piece.subarray(0, bytesRead);
      at += bytesRead;
    }
  }

  /**
   * Runs `use` on the copy: on its bytes when it came with them, else on its path. When that
   * fails and the name no longer holds the file opened here (another process removed or
   * replaced it first), `use` runs again on the bytes read through the handle: the failure was
   * the name's, not the copy's.
   *
   * @example
   * ```ts
   * import { OpenCopy } from "./open_copy.ts";
   * import assert from "node:assert/strict";
   *
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 4, modified: 1 };
   * const bytes = new TextEncoder().encode("a\n1\n");
   * const copy = { file: "/x/b.csv", version, cachedAt: new Date(), lastUsed: new Date(), bytes };
   * await using open = (await OpenCopy.open(copy))!;
   * assert.equal(await open.read(async (local) => local.bytes?.length), 4);
   * ```
   */
  async read<T>(use: (local: LocalCopy) => Promise<T>): Promise<T> {
    if (this.#handle === undefined) return await use({ bytes: this.#bytes });
    try {
      return await use({ file: this.copy.file });
    } catch (error) {
      if (await this.#named()) throw error;
      const bytes = new Uint8Array(this.copy.version.size);
      let at = 0;
      for await (const piece of this.chunks()) {
        bytes.set(piece, at);
        at += piece.length;
      }
      return await use({ bytes: bytes.subarray(0, at) });
    }
  }

  /**
   * Closes the handle.
   *
   * @example
   * ```ts
   * import { OpenCopy } from "./open_copy.ts";
   *
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 0, modified: 1 };
   * const open = await OpenCopy.open({ file: "/x/b.csv", version, cachedAt: new Date(), lastUsed: new Date() });
   * await open?.[Symbol.asyncDispose]();
   * ```
   */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#handle?.close();
  }

  /** The bytes of a copy that came with them (an empty copy has none to read). */
  get #bytes(): Uint8Array<ArrayBuffer> {
    return this.copy.bytes ?? new Uint8Array(0);
  }

  /** Whether the copy's name still holds the file opened here. */
  async #named(): Promise<boolean> {
    const [mine, named] = await Promise.all([
      this.#handle!.stat(),
      fs.promises.lstat(this.copy.file).catch(() => undefined),
    ]);
    return named !== undefined && named.dev === mine.dev && named.ino === mine.ino;
  }
}
