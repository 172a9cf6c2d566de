/**
 * Benchmark data: a folder with many small files, and a large file of deterministic bytes cached
 * between runs. Both are laid out as a store (`ROOT/iplant/home/shared/...`) so the same ROOT can
 * be served by our server and by any plain static file server.
 *
 * @module
 */

import { createCipheriv, createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { dirname, join } from "node:path";

/** The data-store folder, relative to the zone, that benchmark fixtures live in. */
export const SHARED_BENCH = "iplant/home/shared/bench";

/**
 * Creates `ROOT/iplant/home/shared/bench/<name>/` holding `count` small CSV files named
 * `sample-00000.csv`, … and returns the folder's data-store path.
 *
 * @example
 * ```ts
 * import { makeManyFiles } from "./_fixtures.ts";
 *
 * const root = await Deno.makeTempDir();
 * const path = await makeManyFiles(root, "listing", 10);
 * console.log(path); // "/iplant/home/shared/bench/listing"
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function makeManyFiles(
  root: string,
  name: string,
  count: number,
  signal?: AbortSignal,
): Promise<string> {
  const folder = join(root, SHARED_BENCH, name);
  await Deno.mkdir(folder, { recursive: true });
  const width = Math.max(5, String(count - 1).length);
  const encoder = new TextEncoder();
  // Bounded parallelism: fast on a warm disk without exhausting file descriptors.
  const batch = 256;
  for (let start = 0; start < count; start += batch) {
    signal?.throwIfAborted();
    const writes = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const body = encoder.encode(`id,value\n${i},${(i * 7919) % 10007}\n`);
      writes.push(
        Deno.writeFile(join(folder, `sample-${String(i).padStart(width, "0")}.csv`), body),
      );
    }
    await Promise.all(writes);
  }
  return `/${SHARED_BENCH}/${name}`;
}

/**
 * A cached deterministic file and how to check it.
 *
 * @example
 * ```ts
 * import type { BigFile } from "./_fixtures.ts";
 *
 * const f: BigFile = {
 *   root: "/tmp/store",
 *   storePath: "/iplant/home/shared/bench/bytes-1000.bin",
 *   bytes: 1000,
 *   sha256: "…",
 *   generated: false,
 * };
 * ```
 */
export interface BigFile {
  /** ROOT of the store holding the file. */
  root: string;
  /** The file's data-store path, e.g. `/iplant/home/shared/bench/bytes-500000000.bin`. */
  storePath: string;
  /** Its size in bytes. */
  bytes: number;
  /** Hex SHA-256 of its content, recorded when it was generated. */
  sha256: string;
  /** Whether this call generated it (false: reused from the cache). */
  generated: boolean;
}

/** Bumped whenever the byte generator changes, so stale caches are regenerated. */
const GENERATOR = "aes-128-ctr keystream, key = sha256('tern bench')[0..16], iv = 0, v1";
const CHUNK = 1 << 20;

/**
 * Returns a file of `bytes` deterministic, incompressible bytes (an AES-128-CTR keystream with a
 * fixed key) under `ROOT = cacheDir/store`, generating it only when the cache lacks it. The file
 * is written under a temporary name and renamed when complete, and a small JSON record next to
 * the store notes the generator and SHA-256, so an interrupted or outdated file is never reused.
 *
 * @example
 * ```ts
 * import { ensureBigFile } from "./_fixtures.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const file = await ensureBigFile(dir, 1_000_000);
 * console.log(file.generated, (await ensureBigFile(dir, 1_000_000)).generated); // true false
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function ensureBigFile(
  cacheDir: string,
  bytes: number,
  signal?: AbortSignal,
): Promise<BigFile> {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new RangeError(`file size must be a whole number of bytes, got ${bytes}`);
  }
  const root = join(cacheDir, "store");
  const name = `bytes-${bytes}.bin`;
  const storePath = `/${SHARED_BENCH}/${name}`;
  const file = join(root, SHARED_BENCH, name);
  const recordFile = join(cacheDir, `${name}.json`);

  const cached = await readRecord(recordFile);
  if (cached && cached.generator === GENERATOR && cached.bytes === bytes) {
    const size = await Deno.stat(file).then((s) => s.size, () => -1);
    if (size === bytes) return { root, storePath, bytes, sha256: cached.sha256, generated: false };
  }

  await Deno.mkdir(dirname(file), { recursive: true });
  const partial = `${file}.partial-${Deno.pid}`;
  const sha256 = await writeKeystream(partial, bytes, signal);
  await Deno.rename(partial, file);
  await Deno.writeTextFile(recordFile, JSON.stringify({ generator: GENERATOR, bytes, sha256 }));
  return { root, storePath, bytes, sha256, generated: true };
}

async function readRecord(
  path: string,
): Promise<{ generator: string; bytes: number; sha256: string } | undefined> {
  try {
    const value = JSON.parse(await Deno.readTextFile(path));
    if (
      typeof value?.generator === "string" && typeof value.bytes === "number" &&
      typeof value.sha256 === "string"
    ) return value;
  } catch {
    // Missing or unreadable record: regenerate.
  }
  return undefined;
}

async function writeKeystream(path: string, bytes: number, signal?: AbortSignal): Promise<string> {
  const key = createHash("sha256").update("tern bench").digest().subarray(0, 16);
  const cipher = createCipheriv("aes-128-ctr", key, Buffer.alloc(16));
  const hash = createHash("sha256");
  const zeros = Buffer.alloc(CHUNK);
  const out = await Deno.open(path, { write: true, create: true, truncate: true });
  try {
    for (let left = bytes; left > 0; left -= CHUNK) {
      signal?.throwIfAborted();
      const chunk = cipher.update(left >= CHUNK ? zeros : zeros.subarray(0, left));
      hash.update(chunk);
      let written = 0;
      while (written < chunk.length) written += await out.write(chunk.subarray(written));
    }
  } catch (error) {
    out.close();
    await Deno.remove(path).catch(() => {});
    throw error;
  }
  out.close();
  return hash.digest("hex");
}

/**
 * SHA-256 (hex) of a byte stream, e.g. an HTTP response body.
 *
 * @example
 * ```ts
 * import { sha256OfStream } from "./_fixtures.ts";
 *
 * const hex = await sha256OfStream(new Blob(["abc"]).stream());
 * console.log(hex.slice(0, 8)); // "ba7816bf"
 * ```
 */
export async function sha256OfStream(stream: ReadableStream<Uint8Array>): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest("hex");
}
