/**
 * A watchdog around a response body: it turns a stalled, short, long or broken body into a
 * {@linkcode NetworkError}, honours an abort signal, and reports exactly once when the body is
 * finished (read to the end, failed or cancelled) so the request's limiter slot comes back.
 *
 * @module
 */

import { abortError, NetworkError, type TernErrorDetails } from "./errors.ts";

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
}

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
 *
 * const source = new Response("hello").body!;
 * const body = guardBody(source, {
 *   expectedLength: 5,
 *   idleTimeoutMs: 1000,
 *   signal: new AbortController().signal,
 *   onFinish: () => console.log("released"),
 *   context: { endpoint: "fileio/download", subject: "/iplant/home/demo/a.txt" },
 * });
 * console.log(await new Response(body).text()); // "hello" (after "released")
 * ```
 */
export function guardBody(
  source: ReadableStream<Uint8Array>,
  options: GuardOptions,
): ReadableStream<Uint8Array> {
  const { expectedLength, idleTimeoutMs, signal, context } = options;
  const reader = source.getReader();
  let received = 0;
  let finished = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const details = (cause?: unknown): TernErrorDetails => ({
    endpoint: context.endpoint,
    path: context.subject,
    cause,
  });
  const about = context.subject === undefined
    ? `the answer of ${context.endpoint}`
    : `the body of ${JSON.stringify(context.subject)} (${context.endpoint})`;

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

  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull() {
      let idle = false;
      const timer = setTimeout(() => {
        idle = true;
        // Cancelling settles the pending read, which lets pull report the stall below.
        reader.cancel().catch(() => {});
      }, idleTimeoutMs);
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        if (signal.aborted) return fail(abortError(signal));
        return fail(
          idle ? stalled() : new NetworkError(
            `The connection broke while reading ${about}, after ${received} bytes` +
              `${expectedLength === undefined ? "" : ` of ${expectedLength}`}.`,
            details(error),
          ),
        );
      } finally {
        clearTimeout(timer);
      }
      if (finished) return;
      if (idle) return fail(stalled());
      if (result.done) {
        if (expectedLength !== undefined && received < expectedLength) {
          return fail(
            new NetworkError(
              `The server closed ${about} early: ${received} of ${expectedLength} bytes arrived.`,
              details(),
            ),
          );
        }
        controller.close();
        return finish();
      }
      received += result.value.byteLength;
      if (expectedLength !== undefined && received > expectedLength) {
        return fail(
          new NetworkError(
            `The server sent more than the ${expectedLength} bytes it announced for ${about}.`,
            details(),
          ),
        );
      }
      controller.enqueue(result.value);
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason).catch(() => {});
    },
  }, { highWaterMark: 0 });

  function stalled(): NetworkError {
    return new NetworkError(
      `The server stopped sending ${about}: no data for ${formatMs(idleTimeoutMs)} ` +
        `after ${received} bytes.`,
      details(),
    );
  }
}

/**
 * Reads a guarded body to the end, giving up (and cancelling the rest) past `maxBytes`.
 *
 * @returns All bytes, or `undefined` when the body was larger than `maxBytes`.
 *
 * @example
 * ```ts
 * import { readAll } from "./body.ts";
 *
 * const bytes = await readAll(new Response("abc").body!, 1024);
 * console.log(bytes?.length); // 3
 * ```
 */
export async function readAll(
  body: ReadableStream<Uint8Array>,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Formats a duration for messages: `800 ms`, `30 s`, `1.5 s`.
 *
 * @example
 * ```ts
 * import { formatMs } from "./body.ts";
 *
 * console.log(formatMs(30_000)); // "30 s"
 * ```
 */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
