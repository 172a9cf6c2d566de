/**
 * The one content hash tern computes: XXH64, written `xxh64:<16 hex digits>` in a
 * {@linkcode FileVersion}'s `hash`, in the cache's index and in provenance. A checksum, not a
 * cryptographic hash: it guards against corruption (bit rot, a truncated or partly rewritten
 * file) and tells one version's bytes from another's. A cryptographic hash would add nothing
 * against a writer of the cache folder, who can rewrite the index (and its hashes) too; XXH64
 * costs a few percent of a read where SHA-256 would cost a third.
 *
 * @module
 */

import type fs from "node:fs";
import type { FileVersion } from "../client/file_version.ts";
import { loadXxhashModule } from "../deps.ts";

/**
 * An incremental content hash: feed bytes in order, then take the hex digest once.
 *
 * @example
 * ```ts
 * import { contentHasher, type ContentHasher } from "./content_hash.ts";
 * import assert from "node:assert/strict";
 *
 * const hasher: ContentHasher = await contentHasher();
 * hasher.update(new TextEncoder().encode("a"));
 * assert.equal(hasher.digest(), "d24ec4f1a98c6e5b");
 * ```
 */
export interface ContentHasher {
  /** Adds bytes (they are copied; the caller may reuse its buffer). */
  update(bytes: Uint8Array): void;
  /** The hex digest of everything added. */
  digest(): string;
}

/**
 * The XXH64 WebAssembly, instantiated on first use: a lazily built singleton, never replaced (its
 * states, one per hasher, hold what changes).
 */
let xxhash: ReturnType<typeof loadXxhash> | undefined;

async function loadXxhash() {
  return await (await loadXxhashModule()).default();
}

/**
 * A new XXH64 hasher (the WebAssembly is loaded once, on first use).
 *
 * @example
 * ```ts
 * import { contentHasher } from "./content_hash.ts";
 * import assert from "node:assert/strict";
 *
 * const hasher = await contentHasher();
 * assert.equal(hasher.digest(), "ef46db3751d8e999"); // of no bytes
 * ```
 */
export async function contentHasher(): Promise<ContentHasher> {
  const state = (await (xxhash ??= loadXxhash())).create64();
  return {
    update: (bytes) => void state.update(bytes),
    digest: () => state.digest().toString(16).padStart(16, "0"),
  };
}

/**
 * The `hash` of a {@linkcode FileVersion} for `bytes`: `xxh64:<hex>`.
 *
 * @example
 * ```ts
 * import { hashOf } from "./content_hash.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await hashOf(new TextEncoder().encode("a")), "xxh64:d24ec4f1a98c6e5b");
 * ```
 */
export async function hashOf(bytes: Uint8Array): Promise<NonNullable<FileVersion["hash"]>> {
  const hasher = await contentHasher();
  hasher.update(bytes);
  return `xxh64:${hasher.digest()}`;
}

/** Bytes read at a time when hashing an open file. */
const READ_BYTES = 1024 * 1024;

/**
 * Hashes `size` bytes of an open file from its start, through that handle (so what is hashed is
 * the file that was checked, whatever its path names meanwhile), keeping the bytes when `keep`.
 *
 * @example
 * ```ts
 * import fs from "node:fs";
 * import { hashHandle } from "./content_hash.ts";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "a");
 * const handle = await fs.promises.open(path);
 * const { hash, bytes } = await hashHandle(handle, 1, true);
 * await handle.close();
 * assert.equal(hash, "xxh64:d24ec4f1a98c6e5b");
 * assert.deepEqual(bytes, new TextEncoder().encode("a"));
 * await Deno.remove(path);
 * ```
 */
export async function hashHandle(
  handle: fs.promises.FileHandle,
  size: number,
  keep: boolean,
): Promise<{ hash: string; bytes?: Uint8Array<ArrayBuffer> }> {
  const hasher = await contentHasher();
  const whole = keep ? new Uint8Array(size) : undefined;
  const buffer = whole ?? new Uint8Array(Math.min(READ_BYTES, Math.max(1, size)));
  let position = 0;
  while (position < size) {
    const target = whole === undefined ? buffer : whole.subarray(position);
    const want = Math.min(target.length, size - position);
    const { bytesRead } = await handle.read(target, 0, want, position);
    if (bytesRead === 0) break;
    hasher.update(target.subarray(0, bytesRead));
    position += bytesRead;
  }
  const hash = `xxh64:${hasher.digest()}`;
  // A file that shrank meanwhile gives a short read: its hash cannot match.
  return position < size || whole === undefined ? { hash } : { hash, bytes: whole };
}
