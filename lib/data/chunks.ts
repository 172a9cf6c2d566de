/**
 * Small helpers over byte streams: looking at the first bytes without losing them, copying a
 * stream into the cache as it passes, gunzipping, and reading a local file's first bytes.
 *
 * @module
 */

import type { CacheWriter } from "../cache/cache.ts";

/**
 * An async iterator of chunks whose first bytes can be inspected before iterating; the
 * inspected chunks are then yielded as usual.
 *
 * @example
 * ```ts
 * import { Peekable } from "./chunks.ts";
 *
 * async function* source() {
 *   yield new Uint8Array([1, 2]);
 *   yield new Uint8Array([3]);
 * }
 * const chunks = new Peekable(source());
 * console.log(await chunks.peek(3)); // Uint8Array(3) [ 1, 2, 3 ]
 * let total = 0;
 * for await (const chunk of chunks) total += chunk.byteLength;
 * console.log(total); // 3
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
   * ```ts ignore
   * const chunks = new Peekable(verifiedBody(options));
   * ```
   */
  constructor(source: AsyncIterator<Uint8Array> | AsyncIterable<Uint8Array>) {
    this.#source = Symbol.asyncIterator in source
      ? (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
      : source as AsyncIterator<Uint8Array>;
  }

  /**
   * The first `count` bytes (fewer when the stream is shorter), as a copy.
   *
   * @example
   * ```ts ignore
   * const head = await chunks.peek(4096);
   * ```
   */
  async peek(count: number): Promise<Uint8Array> {
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
   * ```ts ignore
   * for await (const chunk of chunks) splitter.push(chunk);
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
   * ```ts ignore
   * await chunks.close();
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
 * Passes chunks through, copying each into `writer` first (waiting only when the disk lags).
 *
 * @example
 * ```ts ignore
 * for await (const chunk of teeInto(chunks, writer)) splitter.push(chunk);
 * ```
 */
export async function* teeInto(
  chunks: AsyncIterable<Uint8Array>,
  writer: CacheWriter | undefined,
): AsyncGenerator<Uint8Array, void> {
  for await (const chunk of chunks) {
    const wait = writer?.write(chunk);
    if (wait !== undefined) await wait;
    yield chunk;
  }
}

/**
 * The decompressed bytes of a gzip stream. Cancelling the result cancels `chunks`.
 *
 * @example
 * ```ts ignore
 * for await (const text of gunzip(teeInto(chunks, writer))) splitter.push(text);
 * ```
 */
export function gunzip(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): ReadableStream<Uint8Array> {
  const source = ReadableStream.from(chunks) as ReadableStream<BufferSource>;
  return source.pipeThrough(new DecompressionStream("gzip"));
}

/**
 * A local file's chunks.
 *
 * @example
 * ```ts ignore
 * for await (const chunk of fileChunks("/tmp/a.csv")) size += chunk.byteLength;
 * ```
 */
export async function* fileChunks(path: string): AsyncGenerator<Uint8Array, void> {
  using file = await Deno.open(path, { read: true });
  const buffer = new Uint8Array(1 << 20);
  while (true) {
    const count = await file.read(buffer);
    if (count === null) return;
    // The buffer is reused, so each chunk is a copy.
    yield buffer.slice(0, count);
  }
}

/**
 * The first `count` bytes of a local file (fewer when it is shorter).
 *
 * @example
 * ```ts ignore
 * const head = await fileHead("/tmp/a.parquet", 4096);
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
 * ```ts ignore
 * const bytes = await collect(chunks, entry.size);
 * ```
 */
export async function collect(
  chunks: AsyncIterable<Uint8Array>,
  size?: number,
): Promise<Uint8Array> {
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
