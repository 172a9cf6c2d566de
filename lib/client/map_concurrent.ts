/**
 * The one bounded-concurrency helper: every pool of parallel work in tern (catalog metadata,
 * many-file reads, `tern get` downloads) goes through {@linkcode mapConcurrent}.
 *
 * @module
 */

import { BadRequestError } from "./errors.ts";

/**
 * Options of {@linkcode mapConcurrent}.
 *
 * @example
 * ```ts
 * import type { MapConcurrentOptions } from "./map_concurrent.ts";
 * import assert from "node:assert/strict";
 *
 * const options: MapConcurrentOptions = { signal: new AbortController().signal };
 * assert.equal(options.signal?.aborted, false);
 * ```
 */
export interface MapConcurrentOptions {
  /** Stops taking new items; passed on (joined with the first failure's) to every call. */
  signal?: AbortSignal;
}

/**
 * Calls `fn` on every item with at most `limit` calls running at once, taking items from
 * `items` (an array or an async generator) only as slots free up, and returns the results in
 * input order. The first error (from `fn` or the iteration) aborts the signal the running calls
 * got, takes no further item, waits for the running calls to settle and is thrown; errors that
 * follow it are dropped. A caller that wants to collect failures catches them inside `fn`.
 *
 * @throws {BadRequestError} when `limit` is not an integer ≥ 1.
 *
 * @example
 * ```ts
 * import { mapConcurrent } from "./map_concurrent.ts";
 * import assert from "node:assert/strict";
 *
 * let running = 0, most = 0;
 * const doubled = await mapConcurrent([1, 2, 3, 4, 5], 2, async (n) => {
 *   most = Math.max(most, ++running);
 *   await new Promise((resolve) => setTimeout(resolve, 6 - n));
 *   running--;
 *   return n * 2;
 * });
 * assert.deepEqual(doubled, [2, 4, 6, 8, 10]);
 * assert.equal(most, 2);
 * ```
 */
export async function mapConcurrent<T, R>(
  items: Iterable<T> | AsyncIterable<T>,
  limit: number,
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  options: MapConcurrentOptions = {},
): Promise<R[]> {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new BadRequestError(`concurrency must be an integer ≥ 1, got ${String(limit)}.`);
  }
  const stop = new AbortController();
  const signal = options.signal === undefined
    ? stop.signal
    : AbortSignal.any([options.signal, stop.signal]);
  const results: R[] = [];
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    stop.abort();
  };

  let index = 0;
  try {
    for await (const item of items) {
      if (failure !== undefined || signal.aborted) break;
      const at = index++;
      const task: Promise<void> = fn(item, at, signal)
        .then((result) => {
          results[at] = result;
        }, fail)
        .finally(() => running.delete(task));
      running.add(task);
      if (running.size >= limit) await Promise.race(running);
    }
  } catch (error) {
    fail(error);
  }
  await Promise.all(running);
  if (failure !== undefined) throw failure.error;
  signal.throwIfAborted();
  return results;
}
