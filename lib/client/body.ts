/**
 * A watchdog around a response body: it turns a stalled, short, long or broken body into a
 * {@linkcode NetworkError}, honours an abort signal, and reports exactly once when the body is
 * finished (read to the end, failed or cancelled) so the request's limiter slot comes back.
 * {@linkcode guardBody} wraps a body handed on as a stream; {@linkcode readBody} reads one
 * whole (a JSON answer) through the same guard.
 *
 * The guarded body is a byte stream: a reader in BYOB mode has the bytes read straight into its
 * own buffer, as a fetch body's native reads would (a few large chunks rather than many small
 * ones: each chunk costs its consumer a write and a hash step).
 *
 * @module
 */

import { Buffer } from "node:buffer";
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
  const { expectedLength, idleTimeoutMs, signal, context, timer = realTimer } = options;
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
  const about = context.subject === undefined
    ? `the answer of ${context.endpoint}`
    : `the body of ${JSON.stringify(context.subject)} (${context.endpoint})`;
  const broken = (message: string, cause?: unknown) =>
    fail(new NetworkError(message, { endpoint: context.endpoint, path: context.subject, cause }));
  const stalledAt = () =>
    broken(
      `The server stopped sending ${about}: no data for ${formatMs(idleTimeoutMs)} ` +
        `after ${received} bytes.`,
    );

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
      }, idleTimeoutMs);
      const request = controller.byobRequest;
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = plain
          ? await plain.read()
          : await byob!.read(request?.view as Uint8Array ?? new Uint8Array(CHUNK_BYTES));
      } catch (error) {
        if (signal.aborted) return fail(abortError(signal));
        if (stalled) return stalledAt();
        const of = expectedLength === undefined ? "" : ` of ${expectedLength}`;
        return broken(
          `The connection broke while reading ${about}, after ${received} bytes${of}.`,
          error,
        );
      } finally {
        disarm();
      }
      if (finished) return;
      if (stalled) return stalledAt();
      if (result.done) {
        if (expectedLength !== undefined && received < expectedLength) {
          return broken(
            `The server closed ${about} early: ${received} of ${expectedLength} bytes arrived.`,
          );
        }
        controller.close();
        // A reader's buffer, moved into the source's read, comes back empty with the end.
        if (byob !== undefined && result.value) request?.respondWithNewView(result.value);
        else request?.respond(0);
        return finish();
      }
      received += result.value.byteLength;
      if (expectedLength !== undefined && received > expectedLength) {
        return broken(
          `The server sent more than the ${expectedLength} bytes it announced for ${about}.`,
        );
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
  if (options.expectedLength !== undefined && options.expectedLength > maxBytes) {
    // Announced as too large: not a byte of it is read.
    await source.cancel().catch(() => {});
    options.onFinish();
    return undefined;
  }
  return await readAll(guardBody(source, options), maxBytes);
}

/**
 * Reads a guarded body to the end, giving up (and cancelling the rest) past `maxBytes`.
 *
 * @returns All bytes, or `undefined` when the body was larger than `maxBytes`.
 *
 * @example
 * ```ts
 * import { readAll } from "./body.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = await readAll(new Response("abc").body!, 1024);
 * assert.equal(bytes?.length, 3);
 * ```
 */
export async function readAll(
  body: ReadableStream<Uint8Array>,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early cancels the rest.
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
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
