import assert from "node:assert/strict";
import fc from "fast-check";
import { backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from "../../lib/client/retry.ts";

Deno.test("isRetryableStatus: gateway failures, 429 and code-less 500 only", () => {
  for (const status of [429, 502, 503, 504]) {
    assert.equal(isRetryableStatus(status, undefined), true);
  }
  assert.equal(isRetryableStatus(500, undefined), true);
  assert.equal(isRetryableStatus(500, "ERR_DOES_NOT_EXIST"), false);
  assert.equal(isRetryableStatus(500, "ERR_UNCHECKED_EXCEPTION"), false);
  for (const status of [400, 401, 403, 404, 409, 501]) {
    assert.equal(isRetryableStatus(status, undefined), false);
  }
});

Deno.test("backoffDelay: full jitter stays within the doubling, capped ceiling", () => {
  fc.assert(fc.property(
    fc.integer({ min: 0, max: 30 }),
    fc.integer({ min: 1, max: 5000 }),
    fc.integer({ min: 1, max: 60_000 }),
    fc.double({ min: 0, max: 0.999999, noNaN: true }),
    (retry, base, max, random) => {
      const delay = backoffDelay(retry, base, max, () => random);
      return delay >= 0 && delay <= Math.min(max, base * 2 ** retry);
    },
  ));
  assert.equal(backoffDelay(0, 100, 10_000, () => 0.999), 100);
  assert.equal(backoffDelay(10, 100, 10_000, () => 0.5), 5000);
});

Deno.test("parseRetryAfter: seconds, HTTP dates, and junk", () => {
  assert.equal(parseRetryAfter("0"), 0);
  assert.equal(parseRetryAfter(" 7 "), 7000);
  const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
  assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:28:02 GMT", now), 2000);
  assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now), 0);
  assert.equal(parseRetryAfter("soon"), undefined);
  assert.equal(parseRetryAfter("-1"), undefined);
  assert.equal(parseRetryAfter(null), undefined);
});

Deno.test("sleep: waits, and an abort ends the wait at once", async () => {
  const started = performance.now();
  await sleep(20);
  assert.ok(performance.now() - started >= 15);
  // A wait that ignored the abort would resolve after 10 s instead of rejecting.
  const controller = new AbortController();
  const waiting = sleep(10_000, controller.signal);
  setTimeout(() => controller.abort(), 5);
  await assert.rejects(waiting, { name: "AbortError" });
});
