/**
 * Small helpers over byte streams: looking at the first bytes without losing them, gunzipping,
 * collecting, and reading a local file's chunks or first bytes.
 *
 * @module
 */

import { pipeline, Readable } from "node:stream";
import { createGunzip } from "node:zlib";

/**
 * The first `count` bytes of `chunks` (fewer when they are shorter), and every chunk again,
 * those read to find them first (copied: a source may reuse its buffer). Whoever calls it
 * closes `chunks` (e.g. with `return()`) when done, which also ends a download the result was
 * not read to the end of.
 *
 * @example
 * ```ts
 * import { peek } from "./chunks.ts";
 * import assert from "node:assert/strict";
 *
 * const source = ReadableStream.from([Uint8Array.of(1, 2), Uint8Array.of(3)]);
 * const { head, chunks } = await peek(source, 1);
 * assert.deepEqual(head, Uint8Array.of(1));
 * const seen: number[][] = [];
 * for await (const chunk of chunks) seen.push([...chunk]);
 * assert.deepEqual(seen, [[1, 2], [3]]); // the peeked chunk is not lost
 * ```
 */
export async function peek(
  chunks: AsyncIterable<Uint8Array>,
  count: number,
): Promise<{ head: Uint8Array; chunks: AsyncIterable<Uint8Array> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const seen: Uint8Array[] = [];
  let next: IteratorResult<Uint8Array> | undefined;
  for (
    let have = 0;
    have < count && !(next = await iterator.next()).done;
    have += next.value.length
  ) {
    seen.push(next.value.slice());
  }
  const rest = async function* () {
    yield* seen;
    if (next?.done) return;
    for (let item = await iterator.next(); !item.done; item = await iterator.next()) {
      yield item.value;
    }
  };
  const head = new Uint8Array(Math.min(count, seen.reduce((sum, chunk) => sum + chunk.length, 0)));
  for (let i = 0, at = 0; at < head.length; at += seen[i++].length) {
    head.set(seen[i].subarray(0, head.length - at), at);
  }
  return { head, chunks: rest() };
}

/**
 * The decompressed bytes of a gzip stream, of every member when there are several (as `gzip`
 * appends them, or `cat a.gz b.gz` joins them; the web's `DecompressionStream` fails past the
 * first). Leaving the loop early closes `chunks`.
 *
 * @example
 * ```ts
 * import { collect, gunzip } from "./chunks.ts";
 * import { gzipSync } from "node:zlib";
 * import assert from "node:assert/strict";
 *
 * const member = (text: string) => gzipSync(new TextEncoder().encode(text));
 * const joined = [member("a,b\n1,2\n"), member("3,4\n")];
 * const text = new TextDecoder().decode(await collect(gunzip(joined)));
 * assert.equal(text, "a,b\n1,2\n3,4\n");
 * ```
 */
export async function* gunzip(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): AsyncGenerator<Uint8Array, void> {
  // Large pieces: each passes a stream and a loop, and 16 KiB ones made that the cost.
  const inflater = createGunzip({ chunkSize: 1024 * 1024 });
  // The source's errors reach the loop below; leaving that loop destroys both streams.
  pipeline(Readable.from(chunks, { objectMode: false }), inflater, () => {});
  for await (const chunk of inflater) yield chunk as Uint8Array;
}

/**
 * The first `count` bytes of a local file (fewer when it is shorter).
 *
 * @example
 * ```ts
 * import { fileHead } from "./chunks.ts";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile({ suffix: ".csv" });
 * await Deno.writeTextFile(path, "a,b\n1,2\n");
 * const head = await fileHead(path, 4096); // the file is shorter: all of it
 * assert.equal(new TextDecoder().decode(head), "a,b\n1,2\n");
 * await Deno.remove(path);
 * ```
 */
export async function fileHead(path: string, count: number): Promise<Uint8Array> {
  using file = await Deno.open(path);
  const head = new Uint8Array(count);
  let at = 0;
  for (let read; at < count && (read = await file.read(head.subarray(at))) !== null;) at += read;
  return head.subarray(0, at);
}

/**
 * Collects chunks into one array; `size`, when known, avoids growing it.
 *
 * @example
 * ```ts
 * import { collect } from "./chunks.ts";
 * import assert from "node:assert/strict";
 *
 * const chunks = ReadableStream.from([Uint8Array.of(1, 2), Uint8Array.of(3)]);
 * const bytes = await collect(chunks, 3); // the size from the listing, when known
 * assert.deepEqual(bytes, Uint8Array.of(1, 2, 3));
 * ```
 */
export async function collect(
  chunks: AsyncIterable<Uint8Array>,
  size?: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (size === undefined) {
    // Kept apart and joined once: growing one buffer copies and faults in far more.
    const parts: Uint8Array[] = [];
    for await (const chunk of chunks) parts.push(chunk.slice());
    return joinBytes(parts);
  }
  let bytes = new Uint8Array(size);
  let fill = 0;
  for await (const chunk of chunks) {
    if (fill + chunk.byteLength > bytes.byteLength) {
      const grown = new Uint8Array(Math.max(bytes.byteLength * 2, fill + chunk.byteLength));
      grown.set(bytes.subarray(0, fill));
      bytes = grown;
    }
    bytes.set(chunk, fill);
    fill += chunk.byteLength;
  }
  return bytes.subarray(0, fill);
}

/**
 * One new array of `parts`' bytes, in order (a chunk may be a buffer its source reuses, so
 * joining copies).
 *
 * @example
 * ```ts
 * import { joinBytes } from "./chunks.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(joinBytes([new Uint8Array([1]), new Uint8Array([2, 3])]), new Uint8Array([1, 2, 3]));
 * ```
 */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) bytes.set(part, at), at += part.byteLength;
  return bytes;
}
