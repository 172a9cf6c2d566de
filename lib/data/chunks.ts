/**
 * Small helpers over byte streams: looking at the first bytes without losing them, gunzipping,
 * and reading a local file's chunks or first bytes.
 *
 * @module
 */

/**
 * An async iterator of chunks whose first bytes can be inspected before iterating; the
 * inspected chunks are then yielded as usual.
 *
 * @example
 * ```ts
 * import { Peekable } from "./chunks.ts";
 * import assert from "node:assert/strict";
 *
 * async function* source() {
 *   yield new Uint8Array([1, 2]);
 *   yield new Uint8Array([3]);
 * }
 * const chunks = new Peekable(source());
 * assert.deepEqual(await chunks.peek(3), new Uint8Array([1, 2, 3]));
 * let total = 0;
 * for await (const chunk of chunks) total += chunk.byteLength;
 * assert.equal(total, 3);
 * ```
 */
export class Peekable implements AsyncIterable<Uint8Array> {
  readonly #source: AsyncIterator<Uint8Array>;
  readonly #queued: Uint8Array[] = [];
  #ended = false;
  #closed = false;

  /**
   * Wraps an iterator (or iterable) of chunks.
   *
   * @example
   * ```ts
   * import { Peekable } from "./chunks.ts";
   * import assert from "node:assert/strict";
   *
   * const body = ReadableStream.from([new TextEncoder().encode("PAR1"), new Uint8Array(8)]);
   * const chunks = new Peekable(body);
   * assert.equal(new TextDecoder().decode(await chunks.peek(4)), "PAR1");
   * ```
   */
  constructor(source: AsyncIterator<Uint8Array> | AsyncIterable<Uint8Array>) {
    this.#source = Symbol.asyncIterator in source
      ? (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
      : source as AsyncIterator<Uint8Array>;
  }

  /**
   * Reads ahead until at least `count` bytes are queued (or the stream ends), copying nothing;
   * returns the bytes queued.
   *
   * @example
   * ```ts
   * import { Peekable } from "./chunks.ts";
   * import assert from "node:assert/strict";
   *
   * const chunks = new Peekable(ReadableStream.from([Uint8Array.of(1, 2), Uint8Array.of(3)]));
   * assert.equal(await chunks.fill(2), 2);
   * assert.equal(await chunks.fill(10), 3); // the stream is shorter
   * ```
   */
  async fill(count: number): Promise<number> {
    let have = this.#queued.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    while (have < count && !this.#ended) {
      const next = await this.#source.next();
      if (next.done) {
        this.#ended = true;
        break;
      }
      this.#queued.push(next.value);
      have += next.value.byteLength;
    }
    return have;
  }

  /**
   * The first `count` bytes (fewer when the stream is shorter), as a copy.
   *
   * @example
   * ```ts
   * import { Peekable } from "./chunks.ts";
   * import assert from "node:assert/strict";
   *
   * const chunks = new Peekable(ReadableStream.from([Uint8Array.of(1, 2), Uint8Array.of(3)]));
   * const head = await chunks.peek(4096); // the stream is shorter: all of it
   * assert.deepEqual(head, Uint8Array.of(1, 2, 3));
   * ```
   */
  async peek(count: number): Promise<Uint8Array> {
    const have = await this.fill(count);
    const head = new Uint8Array(Math.min(count, have));
    let offset = 0;
    for (const chunk of this.#queued) {
      if (offset >= head.length) break;
      const piece = chunk.subarray(0, head.length - offset);
      head.set(piece, offset);
      offset += piece.byteLength;
    }
    return head;
  }

  /**
   * Yields the peeked chunks, then the rest of the source.
   *
   * @example
   * ```ts
   * import { Peekable } from "./chunks.ts";
   * import assert from "node:assert/strict";
   *
   * const chunks = new Peekable(ReadableStream.from([Uint8Array.of(1, 2), Uint8Array.of(3)]));
   * await chunks.peek(1);
   * const seen: number[][] = [];
   * for await (const chunk of chunks) seen.push([...chunk]);
   * assert.deepEqual(seen, [[1, 2], [3]]); // the peeked chunk is not lost
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    while (this.#queued.length > 0) yield this.#queued.shift()!;
    while (!this.#ended) {
      const next = await this.#source.next();
      if (next.done) {
        this.#ended = true;
        return;
      }
      yield next.value;
    }
  }

  /**
   * Stops the source (cancelling a download) unless it already ended.
   *
   * @example
   * ```ts
   * import { Peekable } from "./chunks.ts";
   * import assert from "node:assert/strict";
   *
   * let stopped = false;
   * async function* download() {
   *   try { while (true) yield new Uint8Array(1024); } finally { stopped = true; }
   * }
   * const chunks = new Peekable(download()); // an endless body, like a large file
   * await chunks.peek(10);
   * await chunks.close();
   * assert.ok(stopped);
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#queued.length = 0;
    if (!this.#ended) {
      this.#ended = true;
      await this.#source.return?.();
    }
  }
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
 * A local file's chunks, read through one handle.
 *
 * @example
 * ```ts
 * import { fileChunks } from "./chunks.ts";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile({ suffix: ".csv" });
 * await Deno.writeTextFile(path, "a,b\n1,2\n");
 * let size = 0;
 * for await (const chunk of fileChunks(path)) size += chunk.byteLength;
 * assert.equal(size, 8);
 * await Deno.remove(path);
 * ```
 */
export async function* fileChunks(path: string): AsyncGenerator<Uint8Array, void> {
  using file = await Deno.open(path, { read: true });
  const buffer = new Uint8Array(1 << 20);
  for (let count = await file.read(buffer); count !== null; count = await file.read(buffer)) {
    // Copied: the buffer is reused, and a parser may hold chunks until a batch is full.
    if (count > 0) yield buffer.slice(0, count);
  }
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
  using file = await Deno.open(path, { read: true });
  const head = new Uint8Array(count);
  let filled = 0;
  while (filled < count) {
    const read = await file.read(head.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return head.subarray(0, filled);
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
