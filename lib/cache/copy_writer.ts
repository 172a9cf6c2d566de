/**
 * {@linkcode CopyWriter}: the one way a copy enters the {@linkcode DiskCache}.
 *
 * @module
 */

import type { CachedFile } from "./cached_file.ts";
import type { ContentHasher } from "./content_hash.ts";

/** Copies up to this size are kept in memory too: a reader parses them without reopening. */
export const SMALL_COPY_BYTES = 1024 * 1024;

/**
 * Copies up to this size live in their index line, not in a file of their own: creating a file
 * costs more than a few hundred bytes do, and the line is written anyway. The cap keeps the
 * index (read whole by every process) a small multiple of the number of copies.
 */
export const INLINE_BYTES = 1024;

/**
 * Writes one copy for a {@linkcode DiskCache}, the cache's only way in: bytes are hashed as they
 * are written to a temporary file beside the copies; {@linkcode CopyWriter.commit} checks the
 * size, indexes and publishes the copy before it returns (a small copy with its bytes, kept as
 * they were written, so that its reader need not open it again), or {@linkcode CopyWriter.abort}
 * removes it. A small copy (up to 1 MiB) is only kept in memory until `commit`, which writes its
 * temporary file, read-only, in one call; one of up to 1 KiB goes into its index line and has no
 * file at all (`DiskCache.fileOf` writes one when a path is asked for). A write failure (a full
 * disk) is reported once and makes `write` (or `commit`) fail; {@linkcode CopyWriter.salvage}
 * then hands back the bytes written so far, so the read goes on without the cache and without a
 * second download.
 *
 * @example
 * ```ts
 * import { CopyWriter, DiskCache } from "./cache.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const cache = new DiskCache({ dir, warn: () => {} });
 * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 8, modified: 1 };
 * const short = await cache.open(version) as CopyWriter;
 * await short.write(new TextEncoder().encode("a,b\n"));
 * assert.equal(await short.commit(), undefined); // 4 bytes of 8: nothing published
 * assert.equal(new TextDecoder().decode(await short.salvage()), "a,b\n\0\0\0\0");
 * const writer = await cache.open(version) as CopyWriter;
 * await writer.write(new TextEncoder().encode("a,b\n1,2\n"));
 * const copy = (await writer.commit("csv"))!;
 * assert.equal(await Deno.readTextFile(await cache.fileOf(copy)), "a,b\n1,2\n");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class CopyWriter {
  readonly #size: number;
  readonly #hash: ContentHasher;
  /** The open temporary file of a large copy (a small one is written by `commit`). */
  readonly #file: Deno.FsFile | undefined;
  readonly #temp: string;
  readonly #cache: WriterHooks;
  /** The bytes of a small copy, as written. */
  #kept: Uint8Array<ArrayBuffer> | undefined;
  #written = 0;
  #failed = false;
  #done = false;

  /**
   * Made by {@linkcode DiskCache.open}, with the temporary file opened for a large copy.
   *
   * @example
   * ```ts
   * import { CopyWriter, DiskCache } from "./cache.ts";
   * import assert from "node:assert/strict";
   *
   * const dir = await Deno.makeTempDir();
   * const version = { store: "http://x/terrain", path: "/a/b.csv", id: "i", size: 1, modified: 1 };
   * const writer = await new DiskCache({ dir }).open(version);
   * assert.ok(writer instanceof CopyWriter);
   * await writer.abort();
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  constructor(
    size: number,
    hasher: ContentHasher,
    file: Deno.FsFile | undefined,
    temp: string,
    cache: WriterHooks,
  ) {
    this.#size = size;
    this.#hash = hasher;
    this.#file = file;
    this.#temp = temp;
    this.#cache = cache;
    this.#kept = file === undefined ? new Uint8Array(size) : undefined;
  }

  /** Hashes and writes `chunk` (the caller may reuse it once this resolves); `false` once writing failed. */
  async write(chunk: Uint8Array): Promise<boolean> {
    if (this.#failed || this.#done) return !this.#failed;
    try {
      // The disk write runs off the JavaScript thread: the hash is taken meanwhile.
      const written = this.#file?.write(chunk);
      this.#hash.update(chunk);
      // Longer than announced: commit refuses it, and a small copy keeps only what fits.
      if (this.#kept !== undefined && this.#written < this.#size) {
        this.#kept.set(chunk.subarray(0, this.#size - this.#written), this.#written);
      }
      for (let at = await written ?? chunk.byteLength; at < chunk.byteLength;) {
        at += await this.#file!.write(chunk.subarray(at));
      }
      this.#written += chunk.byteLength;
    } catch (error) {
      this.#failed = true;
      this.#cache.report(error);
    }
    return !this.#failed;
  }

  /**
   * Checks the size and publishes the copy, hashed, indexed and renamed. Returns it, or
   * `undefined` when anything failed (reported once; `salvage()` still has the bytes).
   */
  async commit(format?: string): Promise<CachedFile | undefined> {
    if (this.#failed || this.#done) return undefined;
    try {
      if (this.#written !== this.#size) {
        throw new Error(`the copy has ${this.#written} bytes, expected ${this.#size}`);
      }
      const inline = this.#size <= INLINE_BYTES ? this.#kept : undefined;
      // Read-only from the start: a copy is never written again.
      if (this.#kept === undefined) await Deno.chmod(this.#temp, 0o444);
      else if (inline === undefined) {
        await Deno.writeFile(this.#temp, this.#kept, { createNew: true, mode: 0o444 });
      }
      const copy = await this.#cache.publish(`xxh64:${this.#hash.digest()}`, format, inline);
      // Renamed into place: there is no temporary file left to remove.
      this.#done = true;
      this.#file?.close();
      return this.#kept === undefined ? copy : { ...copy, bytes: this.#kept };
    } catch (error) {
      this.#failed = true;
      this.#cache.report(error);
      return undefined;
    }
  }

  /**
   * The bytes written so far (a small copy's as kept, a larger one's read back through the
   * writer's own handle: the temporary file
   * may be gone from the folder) into a buffer of the copy's size; then discards the copy.
   */
  async salvage(): Promise<Uint8Array<ArrayBuffer>> {
    const file = this.#file;
    if (file === undefined) {
      await this.abort();
      return this.#kept!;
    }
    const bytes = new Uint8Array(this.#size);
    await file.seek(0, Deno.SeekMode.Start);
    for (let at = 0; at < this.#written;) {
      at += await file.read(bytes.subarray(at, this.#written)) ?? this.#written;
    }
    await this.abort();
    return bytes;
  }

  /** Discards the copy; nothing is published. */
  async abort(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    this.#file?.close();
    // clear() from another process may have removed it already (or a small one never written).
    await Deno.remove(this.#temp).catch(() => {});
  }
}

/**
 * What a {@linkcode CopyWriter} asks of its cache.
 *
 * @example
 * ```ts
 * import type { WriterHooks } from "./copy_writer.ts";
 *
 * const hooks: Pick<WriterHooks, "report"> = { report: (error) => console.warn(error) };
 * ```
 */
export interface WriterHooks {
  /** Indexes the copy; `inline`, its bytes go into the line instead of a file. */
  publish(hash: string, format: string | undefined, inline?: Uint8Array): Promise<CachedFile>;
  report(error: unknown): void;
}
