/**
 * Traffic shaping for tests and demos of unreliable networks: latency before each response,
 * a bandwidth cap over all response bodies, injected retryable failures, and download bodies
 * cut short. All randomness comes from seeded generators, so a given seed and request order
 * give the same faults every run. Also the single place that turns a {@link Reply} into a
 * `Response`, so bytes are counted and bodies are closed in one spot.
 *
 * Bodies take one of two routes. A whole file that no setting shapes goes to the connection
 * layer as the file itself ({@link FileResponse}), which moves it from disk to socket in large
 * pieces through one reused buffer, so memory stays flat whatever the file size. Everything shaped (throttled, or chosen
 * to be cut) is a pull-driven byte stream that reads straight into the buffer the stream
 * allocates for each chunk, so nothing is read ahead of what the connection accepts.
 *
 * @module
 */

import { Prng } from "./prng.ts";
import { BytesResponse, FileResponse } from "./http.ts";
import { type FileBody, type Reply, textReply } from "./reply.ts";

/**
 * Shaping settings (all off when zero).
 *
 * @example
 * ```ts
 * import type { ShapingOptions } from "./shaping.ts";
 * const flaky: ShapingOptions = { latencyMs: 20, bandwidth: 0, failRate: 0.1, dropRate: 0.1, seed: 1 };
 * ```
 */
export interface ShapingOptions {
  /** Delay before each response, ms. */
  latencyMs: number;
  /** Bytes per second over all response bodies together; 0 = unlimited. */
  bandwidth: number;
  /** Fraction of requests (except the health check) answered 503 or 500 without error_code. */
  failRate: number;
  /** Fraction of download bodies cut at a random offset. */
  dropRate: number;
  /** Seed of every random choice. */
  seed: number;
}

/**
 * Counters of what the server did.
 *
 * @example
 * ```ts
 * import type { ServerStats } from "./shaping.ts";
 * const zero: ServerStats = { requests: 0, faultsInjected: 0, bodiesDropped: 0, bytesSent: 0 };
 * ```
 */
export interface ServerStats {
  /** Requests received (including the health check and failed ones). */
  requests: number;
  /** Requests answered with an injected 500/503. */
  faultsInjected: number;
  /** Download bodies cut short on purpose. */
  bodiesDropped: number;
  /**
   * Response body bytes handed to the network. An unshaped whole-file body is handed to the
   * connection layer in one piece (it sends the file by itself), so it counts in full even when the
   * client goes away before the end; shaped bodies count piece by piece.
   */
  bytesSent: number;
}

/**
 * Waits `ms`, or rejects with the signal's reason as soon as it aborts (clearing the timer).
 *
 * @example
 * ```ts
 * import { sleep } from "./shaping.ts";
 * await sleep(1, new AbortController().signal);
 * ```
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Where a {@link TokenBucket} reads the time and waits: the real clock by default; tests pass
 * one that only records the waits asked for, so pacing is checked without timing anything.
 *
 * @example A clock on which every wait passes at once
 * ```ts
 * import type { Clock } from "./shaping.ts";
 * import assert from "node:assert/strict";
 *
 * let now = 0;
 * const instant: Clock = { now: () => now, sleep: (ms) => Promise.resolve(void (now += ms)) };
 * await instant.sleep(50, new AbortController().signal);
 * assert.equal(instant.now(), 50);
 * ```
 */
export interface Clock {
  /** Milliseconds since an arbitrary start, never decreasing. */
  now(): number;
  /** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The real clock: `performance.now()` and {@linkcode sleep}. */
const REAL_CLOCK: Clock = { now: () => performance.now(), sleep };

/**
 * Options of a {@link TokenBucket}.
 *
 * @example
 * ```ts
 * import type { TokenBucketOptions } from "./shaping.ts";
 * import assert from "node:assert/strict";
 *
 * const options: TokenBucketOptions = {};
 * assert.equal(options.clock, undefined);
 * ```
 */
export interface TokenBucketOptions {
  /**
   * Where time is read and waited out.
   *
   * @default the real clock (`performance.now()` and {@linkcode sleep})
   */
  clock?: Clock;
}

/**
 * A token bucket shared by all bodies: at most `rate` bytes per second on average, in bursts
 * of at most {@link TokenBucket.burst} bytes. Takers are served in arrival order.
 *
 * @example
 * ```ts
 * import { TokenBucket } from "./shaping.ts";
 * const bucket = new TokenBucket(1_000_000);
 * await bucket.take(1000, new AbortController().signal);
 * ```
 *
 * @example The waits it asks for, on a clock that only records them
 * ```ts
 * import { TokenBucket } from "./shaping.ts";
 * import assert from "node:assert/strict";
 *
 * let now = 0;
 * const waits: number[] = [];
 * const clock = {
 *   now: () => now,
 *   sleep: (ms: number) => Promise.resolve(void (waits.push(ms), now += ms)),
 * };
 * const bucket = new TokenBucket(20_000, { clock });
 * const signal = new AbortController().signal;
 * for (let i = 0; i < 3; i++) await bucket.take(bucket.burst, signal);
 * assert.deepEqual(waits, [50, 50]); // a full burst first, then 1,000 bytes per 50 ms
 * ```
 */
export class TokenBucket {
  /** The largest piece a body sends at once (50 ms worth of bandwidth, at least 1 byte). */
  readonly burst: number;
  readonly #rate: number;
  readonly #clock: Clock;
  #tokens: number;
  #refilledAt: number;
  #queue: Promise<void> = Promise.resolve();

  /**
   * Creates a bucket allowing `bytesPerSecond` on average.
   *
   * @example
   * ```ts
   * import { TokenBucket } from "./shaping.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new TokenBucket(20_000).burst, 1000);
   * ```
   */
  constructor(bytesPerSecond: number, options: TokenBucketOptions = {}) {
    this.#rate = bytesPerSecond;
    this.#clock = options.clock ?? REAL_CLOCK;
    this.burst = Math.max(1, Math.floor(bytesPerSecond / 20));
    this.#tokens = this.burst;
    this.#refilledAt = this.#clock.now();
  }

  /**
   * Waits until `bytes` (at most {@link TokenBucket.burst}) may be sent.
   *
   * @example
   * ```ts
   * import { TokenBucket } from "./shaping.ts";
   * await new TokenBucket(100_000).take(10, new AbortController().signal);
   * ```
   */
  take(bytes: number, signal: AbortSignal): Promise<void> {
    const turn = this.#queue.then(() => this.#wait(bytes, signal));
    this.#queue = turn.catch(() => {});
    return turn;
  }

  async #wait(bytes: number, signal: AbortSignal): Promise<void> {
    this.#refill();
    if (this.#tokens < bytes) {
      await this.#clock.sleep(((bytes - this.#tokens) / this.#rate) * 1000, signal);
      this.#refill();
    }
    this.#tokens -= bytes;
  }

  #refill(): void {
    const now = this.#clock.now();
    this.#tokens = Math.min(
      this.burst,
      this.#tokens + ((now - this.#refilledAt) / 1000) * this.#rate,
    );
    this.#refilledAt = now;
  }
}

/** Largest piece a shaped body reads and sends at once. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Applies the shaping options and keeps the counters. One per server.
 *
 * @example
 * ```ts
 * import { Shaper } from "./shaping.ts";
 * import { textReply } from "./reply.ts";
 * import assert from "node:assert/strict";
 *
 * const shaper = new Shaper({ latencyMs: 0, bandwidth: 0, failRate: 0, dropRate: 0, seed: 1 });
 * const response = shaper.respond(textReply(200, "ok"), "GET");
 * assert.equal(await response.text(), "ok");
 * assert.deepEqual(
 *   shaper.stats(),
 *   { requests: 0, faultsInjected: 0, bodiesDropped: 0, bytesSent: 2 },
 * );
 * await shaper.close();
 * ```
 */
export class Shaper {
  readonly #options: ShapingOptions;
  readonly #faults: Prng;
  readonly #drops: Prng;
  readonly #bucket: TokenBucket | undefined;
  readonly #closing = new AbortController();
  readonly #active = new Set<() => void>();
  readonly #stats: ServerStats = { requests: 0, faultsInjected: 0, bodiesDropped: 0, bytesSent: 0 };

  /**
   * Creates a shaper; generators for faults and drops are seeded from `options.seed`.
   *
   * @example
   * ```ts
   * import { Shaper } from "./shaping.ts";
   * const shaper = new Shaper({ latencyMs: 5, bandwidth: 0, failRate: 0, dropRate: 0, seed: 9 });
   * await shaper.close();
   * ```
   */
  constructor(options: ShapingOptions) {
    this.#options = options;
    this.#faults = new Prng(options.seed, 0);
    this.#drops = new Prng(options.seed, 1);
    this.#bucket = options.bandwidth > 0 ? new TokenBucket(options.bandwidth) : undefined;
  }

  /**
   * Aborted when the server closes; pending waits end with it.
   *
   * @example
   * ```ts
   * import { Shaper } from "./shaping.ts";
   * import assert from "node:assert/strict";
   * const shaper = new Shaper({ latencyMs: 0, bandwidth: 0, failRate: 0, dropRate: 0, seed: 1 });
   * assert.equal(shaper.signal.aborted, false);
   * await shaper.close();
   * assert.equal(shaper.signal.aborted, true);
   * ```
   */
  get signal(): AbortSignal {
    return this.#closing.signal;
  }

  /**
   * A copy of the counters.
   *
   * @example
   * ```ts
   * import { Shaper } from "./shaping.ts";
   * import assert from "node:assert/strict";
   * const shaper = new Shaper({ latencyMs: 0, bandwidth: 0, failRate: 0, dropRate: 0, seed: 1 });
   * assert.equal(shaper.stats().requests, 0);
   * await shaper.close();
   * ```
   */
  stats(): ServerStats {
    return { ...this.#stats };
  }

  /**
   * Counts a request and waits out the configured latency.
   *
   * @example
   * ```ts
   * import { Shaper } from "./shaping.ts";
   * const shaper = new Shaper({ latencyMs: 1, bandwidth: 0, failRate: 0, dropRate: 0, seed: 1 });
   * await shaper.arrive();
   * await shaper.close();
   * ```
   */
  async arrive(): Promise<void> {
    this.#stats.requests++;
    if (this.#options.latencyMs > 0) await sleep(this.#options.latencyMs, this.signal);
  }

  /**
   * An injected failure for this request, or `undefined` (draws from the fault generator only
   * when a fail rate is set).
   *
   * @example
   * ```ts
   * import { Shaper } from "./shaping.ts";
   * import assert from "node:assert/strict";
   * const shaper = new Shaper({ latencyMs: 0, bandwidth: 0, failRate: 1, dropRate: 0, seed: 1 });
   * assert.equal(shaper.fault()?.status, 500);
   * await shaper.close();
   * ```
   */
  fault(): Reply | undefined {
    if (this.#options.failRate <= 0 || this.#faults.next() >= this.#options.failRate) {
      return undefined;
    }
    this.#stats.faultsInjected++;
    return this.#faults.next() < 0.5
      ? textReply(503, "Service Unavailable (injected fault)\n")
      : textReply(500, "Internal Server Error (injected fault)\n");
  }

  /**
   * Turns a reply into the `Response` to send: HEAD gets headers only, bodies are throttled,
   * counted, and (downloads only) possibly cut short. A whole file with no shaping to apply is
   * handed to the connection layer as the file itself (see the module notes).
   *
   * After {@link Shaper.close}, file bodies are not started: the file is closed and a 503
   * goes out instead.
   *
   * @example
   * ```ts
   * import { Shaper } from "./shaping.ts";
   * import { jsonReply } from "./reply.ts";
   * import assert from "node:assert/strict";
   *
   * const shaper = new Shaper({ latencyMs: 0, bandwidth: 0, failRate: 0, dropRate: 0, seed: 1 });
   * const response = shaper.respond(jsonReply({ a: 1 }), "HEAD");
   * assert.equal(response.headers.get("content-length"), "7");
   * await shaper.close();
   * ```
   */
  respond(reply: Reply, method: string): Response {
    const init = { status: reply.status, headers: reply.headers };
    const body = reply.body;
    if (body === null) return new Response(null, init);
    if (body instanceof ReadableStream) {
      if (method === "HEAD" || this.signal.aborted) {
        body.cancel().catch(() => {});
        if (method === "HEAD") return new Response(null, init);
        return this.respond(textReply(503, "Service Unavailable (shutting down)\n"), method);
      }
      return new Response(this.#bucket ? this.#stream(body, undefined) : this.#counted(body), init);
    }
    if (method === "HEAD") {
      if (!(body instanceof Uint8Array)) body.file.close();
      return new Response(null, init);
    }
    if (!(body instanceof Uint8Array) && this.signal.aborted) {
      body.file.close();
      return this.respond(textReply(503, "Service Unavailable (shutting down)\n"), method);
    }
    const length = body instanceof Uint8Array ? body.byteLength : body.length;
    let dropAt: number | undefined;
    if (reply.download && this.#options.dropRate > 0 && length > 0) {
      if (this.#drops.next() < this.#options.dropRate) dropAt = this.#drops.below(length);
    }
    if (this.#bucket || dropAt !== undefined) {
      return new Response(this.#stream(body, dropAt), init);
    }
    if (body instanceof Uint8Array) {
      this.#stats.bytesSent += body.byteLength;
      return new BytesResponse(body, init);
    }
    if (body.start === 0 && body.length === body.size) {
      this.#stats.bytesSent += body.length;
      return new FileResponse(body.file, body.length, init);
    }
    return new Response(this.#stream(body, undefined), init);
  }

  /**
   * Ends every body still being sent (their connections are cut) and cancels pending waits.
   *
   * @example
   * ```ts
   * import { Shaper } from "./shaping.ts";
   * import assert from "node:assert/strict";
   * const shaper = new Shaper({ latencyMs: 0, bandwidth: 0, failRate: 0, dropRate: 0, seed: 1 });
   * await shaper.close();
   * assert.ok(shaper.signal.aborted);
   * ```
   */
  close(): Promise<void> {
    this.#closing.abort(new DOMException("server closed", "AbortError"));
    for (const end of [...this.#active]) end();
    return Promise.resolve();
  }

  /**
   * `body`'s chunks as they are, counted as sent; one is asked for only when the connection
   * wants more (no copy, no read-ahead).
   */
  #counted(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const stats = this.#stats;
    const reader = body.getReader();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read();
        if (next.done) return controller.close();
        stats.bytesSent += next.value.byteLength;
        controller.enqueue(next.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    }, { highWaterMark: 0 });
  }

  /**
   * A pull-driven byte stream: reads only when the connection wants more, straight into the
   * chunk the stream allocates, so throttling and the cut-off point apply to what is actually
   * sent. A body that ends early is closed (not errored) while `Content-Length` promises
   * more; the server then aborts the connection, which is what a client sees when a real
   * transfer breaks.
   */
  #stream(
    source: Uint8Array | FileBody | ReadableStream<Uint8Array>,
    dropAt: number | undefined,
  ): ReadableStream<Uint8Array> {
    const stats = this.#stats;
    const bucket = this.#bucket;
    const signal = this.signal;
    const active = this.#active;
    const reader = source instanceof Uint8Array
      ? streamReader(ReadableStream.from([source]))
      : source instanceof ReadableStream
      ? streamReader(source)
      : fileReader(source);
    let sent = 0;
    let controller!: ReadableByteStreamController;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      active.delete(finish);
      reader.close();
      try {
        controller.close();
        controller.byobRequest?.respond(0);
      } catch {
        // Already closed by the consumer side.
      }
    };
    active.add(finish);
    return new ReadableStream({
      type: "bytes",
      autoAllocateChunkSize: bucket ? Math.min(CHUNK_BYTES, bucket.burst) : CHUNK_BYTES,
      start(c) {
        controller = c;
      },
      async pull(c) {
        try {
          const view = c.byobRequest!.view!;
          let room = view.byteLength;
          if (dropAt !== undefined) room = Math.min(room, dropAt - sent);
          const count = room > 0
            ? await reader.readInto(new Uint8Array(view.buffer, view.byteOffset, room))
            : 0;
          if (count > 0 && bucket) await bucket.take(count, signal);
          if (finished) return;
          if (count > 0) {
            c.byobRequest!.respond(count);
            sent += count;
            stats.bytesSent += count;
          }
          if (dropAt !== undefined && sent >= dropAt) {
            stats.bodiesDropped++;
            return finish();
          }
          if (count === 0) finish();
        } catch (error) {
          // A generated body (no Content-Length) must not end cleanly when it failed: the
          // connection layer cuts the connection on an errored stream.
          if (source instanceof ReadableStream && !finished) {
            finished = true;
            active.delete(finish);
            reader.close();
            c.error(error);
          } else finish();
        }
      },
      cancel() {
        finish();
      },
    }, { highWaterMark: 0 });
  }
}

interface ChunkReader {
  /** Fills the start of `into` with the next bytes; 0 at the end. */
  readInto(into: Uint8Array): Promise<number>;
  close(): void;
}

/**
 * Reads a stream's chunks into the pieces asked for, asking the stream for its next chunk only
 * once the last one is used up. A stream that errors fails the read (the body is then ended
 * and the connection cut).
 */
function streamReader(stream: ReadableStream<Uint8Array>): ChunkReader {
  const reader = stream.getReader();
  let pending: Uint8Array = new Uint8Array(0);
  let closed = false;
  return {
    async readInto(into) {
      while (pending.byteLength === 0) {
        if (closed) return 0;
        const next = await reader.read();
        if (next.done) return 0;
        pending = next.value;
      }
      const count = Math.min(into.byteLength, pending.byteLength);
      into.set(pending.subarray(0, count));
      pending = pending.subarray(count);
      return count;
    },
    close() {
      closed = true;
      reader.cancel().catch(() => {}); // a second cancel is a no-op
    },
  };
}

/**
 * Reads exactly `length` bytes from `start`. A file that shrinks meanwhile ends the body early
 * (the connection is then cut); one that grows is read no further than promised.
 */
function fileReader({ file, start, length }: FileBody): ChunkReader {
  let remaining = length;
  let positioned = start === 0;
  let closed = false;
  return {
    async readInto(into) {
      if (remaining <= 0 || closed) return 0;
      if (!positioned) {
        await file.seek(start, Deno.SeekMode.Start);
        positioned = true;
      }
      const count = await file.read(into.subarray(0, Math.min(into.byteLength, remaining)));
      if (count === null || count === 0) {
        throw new Error("file ended before its recorded size");
      }
      remaining -= count;
      return count;
    },
    close() {
      closed = true;
      file[Symbol.dispose](); // unlike close(), no throw when closed already
    },
  };
}
