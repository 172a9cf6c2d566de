/**
 * The retry policy: which answers are worth another attempt, and how long to wait before it.
 *
 * @module
 */

import { abortError } from "./errors.ts";

/**
 * Whether an answer may succeed if sent again: 429, 502, 503, 504, and 500 without a Terrain
 * `error_code` (a 500 with a code, such as `ERR_DOES_NOT_EXIST`, is a definite answer).
 *
 * @example
 * ```ts
 * import { isRetryableStatus } from "./retry.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isRetryableStatus(503, undefined));
 * assert.equal(isRetryableStatus(500, "ERR_DOES_NOT_EXIST"), false);
 * ```
 */
export function isRetryableStatus(status: number, errorCode: string | undefined): boolean {
  if (status === 429 || status === 502 || status === 503 || status === 504) return true;
  return status === 500 && errorCode === undefined;
}

/**
 * Exponential backoff with full jitter: a random delay between 0 and
 * `min(maxMs, baseMs * 2 ** retry)`, so clients that failed together do not retry together.
 *
 * @param retry 0 for the first retry, 1 for the second, …
 * @param baseMs Ceiling of the first delay.
 * @param maxMs Ceiling of every delay.
 * @param random Source of numbers in [0, 1).
 *
 * @example
 * ```ts
 * import { backoffDelay } from "./retry.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(backoffDelay(3, 100, 10_000, () => 0.5), 400);
 * ```
 */
export function backoffDelay(
  retry: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  return Math.round(random() * Math.min(maxMs, baseMs * 2 ** retry));
}

/**
 * Reads a `Retry-After` header (delay in seconds, or an HTTP date) as milliseconds from `now`.
 *
 * @returns The delay (0 for dates in the past), or `undefined` when absent or unreadable.
 *
 * @example
 * ```ts
 * import { parseRetryAfter } from "./retry.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parseRetryAfter("2"), 2000);
 * const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
 * assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:28:03 GMT", now), 3000);
 * ```
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date always names a weekday or month; this keeps "-1" from parsing as year -1.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Resolves after `ms` milliseconds, or rejects with an `AbortError` as soon as `signal` aborts.
 *
 * @example
 * ```ts
 * import { sleep } from "./retry.ts";
 *
 * await sleep(10);
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
