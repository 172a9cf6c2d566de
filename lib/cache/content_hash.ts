/**
 * The content hash each cached copy records, so that a copy whose identity changed can be told
 * apart from the copy tern wrote (see docs/security.md, "Integrity of cached copies").
 *
 * New copies record XXH64: a checksum, not a cryptographic hash. It guards against corruption
 * (bit rot, a truncated or partly rewritten file, a restore from a backup) and against a
 * substitution that the copy's identity already flagged. A cryptographic hash would add nothing
 * against a writer of the cache folder, who can rewrite the index (and its hashes) too. XXH64
 * hashes 160 MB in 20–35 ms here, where SHA-256 takes about 80 ms; even so a large copy is
 * hashed just after its read returned the frame (see `DiskCache.take`), not before. Copies
 * recorded by an earlier tern carry a SHA-256 and are still checked with it.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { loadXxhashModule } from "../deps.ts";

/**
 * A content-hash algorithm an index line may name: `xxh64` for new copies, `sha256` for copies
 * recorded by an earlier tern.
 *
 * @example
 * ```ts
 * import type { HashAlgorithm } from "./content_hash.ts";
 * import assert from "node:assert/strict";
 *
 * const algorithm: HashAlgorithm = "xxh64";
 * assert.equal(algorithm, "xxh64");
 * ```
 */
export type HashAlgorithm = "xxh64" | "sha256";

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

let xxhash: ReturnType<typeof loadXxhash> | undefined;

async function loadXxhash() {
  return await (await loadXxhashModule()).default();
}

/**
 * A new incremental hasher for `algorithm` (XXH64 by default; its WebAssembly is loaded once per
 * process, on first use).
 *
 * @example
 * ```ts
 * import { contentHasher } from "./content_hash.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode("a\n1\n");
 * const whole = await contentHasher();
 * whole.update(bytes);
 * const pieces = await contentHasher();
 * pieces.update(bytes.subarray(0, 1));
 * pieces.update(bytes.subarray(1));
 * assert.equal(pieces.digest(), whole.digest());
 * assert.equal((await contentHasher("sha256")).digest().length, 64);
 * ```
 */
export async function contentHasher(algorithm: HashAlgorithm = "xxh64"): Promise<ContentHasher> {
  if (algorithm === "sha256") {
    const hash = createHash("sha256");
    return { update: (bytes) => void hash.update(bytes), digest: () => hash.digest("hex") };
  }
  const state = (await (xxhash ??= loadXxhash())).create64();
  return {
    update: (bytes) => void state.update(bytes),
    digest: () => state.digest().toString(16).padStart(16, "0"),
  };
}

/**
 * Reads of a file being hashed. 1 MiB reads hashed 160 MB as fast as 8 MiB ones here (20 ms);
 * 256 KiB ones took 28. Larger reads would only hold more memory (the buffer, and the
 * WebAssembly memory XXH64 copies each read into) next to the frame just parsed.
 */
const READ_BYTES = 1024 * 1024;
/** The read buffer of the last file hashed, reused: fresh memory costs a page fault per 4 KiB. */
let spare: Uint8Array | undefined;

/**
 * The hex content hash of a file's bytes, in reads of up to 1 MiB into one
 * reused buffer.
 *
 * @example
 * ```ts
 * import { contentHasher, hashFile } from "./content_hash.ts";
 * import assert from "node:assert/strict";
 *
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "a\n1\n");
 * const hasher = await contentHasher();
 * hasher.update(new TextEncoder().encode("a\n1\n"));
 * assert.equal(await hashFile(file), hasher.digest());
 * assert.equal((await hashFile(file, "sha256")).length, 64);
 * await Deno.remove(file);
 * ```
 */
export async function hashFile(path: string, algorithm: HashAlgorithm = "xxh64"): Promise<string> {
  const hasher = await contentHasher(algorithm);
  using file = await Deno.open(path);
  const size = (await file.stat()).size;
  // Taken, not shared: two files hashed at once each need their own buffer.
  let buffer = spare !== undefined && spare.byteLength >= Math.min(size + 1, READ_BYTES)
    ? spare
    : undefined;
  spare = undefined;
  buffer ??= new Uint8Array(Math.min(size + 1, READ_BYTES));
  try {
    while (true) {
      const n = await file.read(buffer);
      if (n === null) break;
      hasher.update(buffer.subarray(0, n));
    }
  } finally {
    keepSpare(buffer);
  }
  return hasher.digest();
}

/** Keeps the larger of the spare and a buffer done with, for the next file hashed. */
function keepSpare(buffer: Uint8Array): void {
  if (buffer.byteLength > (spare?.byteLength ?? 0)) spare = buffer;
}
