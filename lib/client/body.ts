/**
 * A watchdog around a response body: it turns a stalled, short, long or broken body into a
 * {@linkcode NetworkError}, honours an abort signal, and reports exactly once when the body is
 * finished (read to the end, failed or cancelled) so the request's limiter slot comes back.
 * {@linkcode guardBody} wraps a body handed on as a stream; {@linkcode readBody} reads one
 * whole (a JSON answer) under the same checks, and {@linkcode readWhole} a small download's in
 * one piece.
 *
 * The guarded body is a byte stream: a reader in BYOB mode has the bytes read straight into its
 * own buffer, as a fetch body's native reads would (a few large chunks rather than many small
 * ones: each chunk costs its consumer a write and a hash step).
 *
 * @module
 */

import { abortError, NetworkError } from "./errors.ts";

/**
 * Options of {@linkcode guardBody}.
 *
 * @example
 * ```ts
 * import type { GuardOptions } from "./body.ts";
 *
 * const options: GuardOptions = {
 *   expectedLength: 1024,
 *   idleTimeoutMs: 60_000,
 *   signal: new AbortController().signal,
 *   onFinish: () => {},
 *   context: { endpoint: "fileio/download", subject: "/iplant/home/shared/a.csv" },
 * };
 * ```
 */
export interface GuardOptions {
  /** Bytes promised by `Content-Length`; `undefined` when unknown or when content was encoded. */
  expectedLength?: number;
  /** Longest wait for the next chunk while a read is pending, in ms. */
  idleTimeoutMs: number;
  /** Aborting it errors the body with an `AbortError` and releases at once. */
  signal: AbortSignal;
  /** Called exactly once when the body is done with, whatever the outcome. */
  onFinish: () => void;
  /** Endpoint and path, for error messages. */
  context: { endpoint: string; subject?: string };
  /**
   * Arms the idle timer: runs `run` after `ms` unless the returned function is called first.
   * Tests pass one on a clock they step, so no idle time depends on how busy the machine is.
   * @default setTimeout and clearTimeout
   */
  timer?: (run: () => void, ms: number) => () => void;
}

/**
 * The real timer behind the transport's timeouts: runs `run` after `ms` unless the returned
 * function is called first.
 *
 * @example Disarmed before it runs
 * ```ts
 * import assert from "node:assert/strict";
 * import { realTimer } from "./body.ts";
 *
 * let ran = false;
 * const disarm = realTimer(() => (ran = true), 0);
 * disarm();
 * await new Promise((resolve) => setTimeout(resolve, 5));
 * assert.equal(ran, false);
 * ```
 */
export function realTimer(run: () => void, ms: number): () => void {
  const id = setTimeout(run, ms);
  return () => clearTimeout(id);
}

/** Bytes read at a time for a reader that brings no buffer of its own. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Wraps `source` so that (a) no chunk for `idleTimeoutMs` while a read is pending fails with a
 * {@linkcode NetworkError}, (b) a body shorter or longer than `expectedLength` fails with a
 * {@linkcode NetworkError}, (c) a broken connection fails with a {@linkcode NetworkError}, and
 * (d) `onFinish` runs exactly once. The idle clock runs only while the consumer waits, so a slow
 * consumer never trips it.
 *
 * @example
 * ```ts
 * import { guardBody } from "./body.ts";
 * import assert from "node:assert/strict";
 *
 * const source = new Response("hello").body!;
 * let released = false;
 * const body = guardBody(source, {
 *   expectedLength: 5,
 *   idleTimeoutMs: 1000,
 *   signal: new AbortController().signal,
 *   onFinish: () => released = true,
 *   context: { endpoint: "fileio/download", subject: "/iplant/home/demo/a.txt" },
 * });
 * assert.equal(await new Response(body).text(), "hello");
 * assert.ok(released);
 * ```
 */
export function guardBody(
  source: ReadableStream<Uint8Array>,
  options: GuardOptions,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const { expectedLength, signal, timer = realTimer } = options;
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = source.getReader({ mode: "byob" });
  } catch {
    // Not a byte stream: read its chunks as they come.
  }
  const plain = byob === undefined ? source.getReader() : undefined;
  const reader = byob ?? plain!;
  let received = 0;
  let finished = false;
  let controller!: ReadableByteStreamController;

  const finish = () => {
    if (finished) return;
    finished = true;
    signal.removeEventListener("abort", onAbort);
    options.onFinish();
  };
  const fail = (error: unknown) => {
    if (finished) return;
    try {
      controller.error(error);
    } catch {
      // Already closed or errored by the consumer: nothing left to tell.
    }
    reader.cancel(error).catch(() => {});
    finish();
  };
  const onAbort = () => fail(abortError(signal));

  return new ReadableStream({
    type: "bytes",
    start(streamController) {
      controller = streamController;
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull() {
      let stalled = false;
      // Cancelling settles the pending read, which lets the stall be reported.
      const disarm = timer(() => {
        stalled = true;
        reader.cancel().catch(() => {});
      }, options.idleTimeoutMs);
      const request = controller.byobRequest;
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = plain
          ? await plain.read()
          : await byob!.read(request?.view as Uint8Array ?? new Uint8Array(CHUNK_BYTES));
      } catch (error) {
        if (signal.aborted) return fail(abortError(signal));
        return fail(
          stalled ? failures(options).stalled(received) : failures(options).broken(received, error),
        );
      } finally {
        disarm();
      }
      if (finished) return;
      if (stalled) return fail(failures(options).stalled(received));
      if (result.done) {
        if (expectedLength !== undefined && received < expectedLength) {
          return fail(failures(options).short(received));
        }
        controller.close();
        // A reader's buffer, moved into the source's read, comes back empty with the end.
        if (byob !== undefined && result.value) request?.respondWithNewView(result.value);
        else request?.respond(0);
        return finish();
      }
      received += result.value.byteLength;
      if (expectedLength !== undefined && received > expectedLength) {
        return fail(failures(options).long());
      }
      // Read into the reader's own buffer, or (from a source that is no byte stream) copied in.
      if (request !== null && byob !== undefined) request.respondWithNewView(result.value);
      else controller.enqueue(result.value as Uint8Array<ArrayBuffer>);
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason).catch(() => {});
    },
  });
}

/**
 * Reads a body whole under the rules of {@linkcode guardBody} — no chunk for `idleTimeoutMs`, a
 * length other than `expectedLength`, a broken connection: a {@linkcode NetworkError}; an abort:
 * an `AbortError` — and calls `onFinish` exactly once, by the time it settles.
 *
 * @param maxBytes Past this many bytes (or when `Content-Length` announces more), the rest is
 *   cancelled and the result is `undefined`.
 * @returns The bytes, or `undefined` when the body was larger than `maxBytes`.
 *
 * @example
 * ```ts
 * import { readBody } from "./body.ts";
 * import assert from "node:assert/strict";
 *
 * let released = false;
 * const bytes = await readBody(new Response('{"total":3}').body!, {
 *   expectedLength: 11,
 *   idleTimeoutMs: 1000,
 *   signal: new AbortController().signal,
 *   onFinish: () => released = true,
 *   context: { endpoint: "filesystem/paged-directory", subject: "/iplant/home/demo" },
 * });
 * assert.equal(new TextDecoder().decode(bytes), '{"total":3}');
 * assert.ok(released);
 * ```
 */
export async function readBody(
  source: ReadableStream<Uint8Array>,
  options: GuardOptions,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Uint8Array | undefined> {
  const { expectedLength, signal, timer = realTimer } = options;
  // Read straight from the source, not through guardBody's stream: a body read whole needs no
  // stream handed on, and the same checks cost a fraction of the work.
  const reader = source.getReader();
  const stop = () => reader.cancel().catch(() => {});
  const chunks: Uint8Array[] = [];
  let received = 0;
  let ended = false;
  signal.addEventListener("abort", stop, { once: true });
  try {
    // Announced as too large: not a byte of it is read.
    if (expectedLength !== undefined && expectedLength > maxBytes) return undefined;
    while (true) {
      if (signal.aborted) throw abortError(signal);
      let stalled = false;
      // Cancelling settles the pending read (as done), which lets the stall be reported.
      const disarm = timer(() => {
        stalled = true;
        stop();
      }, options.idleTimeoutMs);
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        if (signal.aborted) throw abortError(signal);
        throw stalled
          ? failures(options).stalled(received)
          : failures(options).broken(received, error);
      } finally {
        disarm();
      }
      if (signal.aborted) throw abortError(signal);
      if (stalled) throw failures(options).stalled(received);
      if (result.done) break;
      received += result.value.byteLength;
      if (expectedLength !== undefined && received > expectedLength) throw failures(options).long();
      if (received > maxBytes) return undefined;
      chunks.push(result.value);
    }
    ended = true;
    if (expectedLength !== undefined && received < expectedLength) {
      throw failures(options).short(received);
    }
    return chunks.length === 1 ? chunks[0] : joined(chunks, received);
  } finally {
    signal.removeEventListener("abort", stop);
    if (!ended) stop();
    options.onFinish();
  }
}

/**
 * Reads a small body in one piece, as fetch reads it natively (no stream is read chunk by
 * chunk), under the checks of {@linkcode readBody}: a length other than `expectedLength` or a
 * broken connection is a {@linkcode NetworkError}, an abort an `AbortError`; `onFinish` runs
 * exactly once, by the time it settles. Its idle time covers the whole body: a body of a few
 * kilobytes comes in one or two reads, so waiting for all of it is waiting for its next chunk.
 *
 * @param stop Ends the request, which fails the read: what the idle timer calls (the caller
 *   ends the request on `options.signal` too).
 *
 * @example
 * ```ts
 * import { readWhole } from "./body.ts";
 * import assert from "node:assert/strict";
 *
 * let released = 0;
 * const bytes = await readWhole(new Response("a,b\n1,2\n"), {
 *   expectedLength: 8,
 *   idleTimeoutMs: 1000,
 *   signal: new AbortController().signal,
 *   onFinish: () => released++,
 *   context: { endpoint: "fileio/download", subject: "/iplant/home/demo/t.csv" },
 * }, () => {});
 * assert.equal(new TextDecoder().decode(bytes), "a,b\n1,2\n");
 * assert.equal(released, 1);
 * ```
 */
export async function readWhole(
  response: Response,
  options: GuardOptions,
  stop: () => void,
): Promise<Uint8Array> {
  const { expectedLength, signal, timer = realTimer } = options;
  let stalled = false;
  const disarm = timer(() => {
    stalled = true;
    stop();
  }, options.idleTimeoutMs);
  let bytes: Uint8Array;
  try {
    bytes = await response.bytes();
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw stalled ? failures(options).stalled() : failures(options).broken(undefined, error);
  } finally {
    disarm();
    options.onFinish();
  }
  if (expectedLength !== undefined && bytes.byteLength < expectedLength) {
    throw failures(options).short(bytes.byteLength);
  }
  if (expectedLength !== undefined && bytes.byteLength > expectedLength) {
    throw failures(options).long();
  }
  return bytes;
}

/** `chunks` in one array of its own (never a view of a shared pool, as `Buffer.concat`'s). */
function joined(chunks: Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * The errors a guarded body fails with, worded alike however it is read; made only once one
 * is due (most bodies need none). A body read in one piece knows no count of bytes before it
 * failed (`received` undefined).
 */
function failures(options: GuardOptions) {
  const { expectedLength, context } = options;
  const about = context.subject === undefined
    ? `the answer of ${context.endpoint}`
    : `the body of ${JSON.stringify(context.subject)} (${context.endpoint})`;
  const of = expectedLength === undefined ? "" : ` of ${expectedLength}`;
  const error = (message: string, cause?: unknown) =>
    new NetworkError(message, { endpoint: context.endpoint, path: context.subject, cause });
  return {
    stalled: (received?: number) =>
      error(
        `The server stopped sending ${about}: ` + (received === undefined
          ? `not all of its ${expectedLength} bytes came within ${formatMs(options.idleTimeoutMs)}.`
          : `no data for ${formatMs(options.idleTimeoutMs)} after ${received} bytes.`),
      ),
    broken: (received: number | undefined, cause: unknown) =>
      error(
        `The connection broke while reading ${about}` + (received === undefined
          ? expectedLength === undefined ? "." : ` (${expectedLength} bytes announced).`
          : `, after ${received} bytes${of}.`),
        cause,
      ),
    short: (received: number) =>
      error(`The server closed ${about} early: ${received} of ${expectedLength} bytes arrived.`),
    long: () =>
      error(`The server sent more than the ${expectedLength} bytes it announced for ${about}.`),
  };
}

/**
 * Formats a duration for messages: `800 ms`, `30 s`, `1.5 s`.
 *
 * @example
 * ```ts
 * import { formatMs } from "./body.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatMs(30_000), "30 s");
 * ```
 */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
