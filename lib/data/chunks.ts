/**
 * Small helpers over byte streams: looking at the first bytes without losing them, gunzipping,
 * collecting, and reading a local file's chunks or first bytes.
 *
 * @module
 */

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
 * The decompressed bytes of a gzip stream. Cancelling the result cancels `chunks`.
 *
 * @example
 * ```ts
 * import { gunzip } from "./chunks.ts";
 * import assert from "node:assert/strict";
 *
 * const csv = new TextEncoder().encode("a,b\n1,2\n");
 * const compressed = ReadableStream.from([csv]).pipeThrough(new CompressionStream("gzip"));
 * const text = await new Response(gunzip(compressed)).text();
 * assert.equal(text, "a,b\n1,2\n");
 * ```
 */
export function gunzip(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): ReadableStream<Uint8Array> {
  const source = ReadableStream.from(chunks) as ReadableStream<BufferSource>;
  return source.pipeThrough(new DecompressionStream("gzip"));
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
  let bytes = new Uint8Array(size ?? 1 << 16);
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
