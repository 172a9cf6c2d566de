import assert from "node:assert/strict";
import { mapConcurrent } from "../../lib/client/map_concurrent.ts";
import { BadRequestError } from "../../lib/client/errors.ts";

const tick = (ms = 1) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("mapConcurrent keeps input order and never runs more than the limit", async () => {
  let running = 0;
  let most = 0;
  const results = await mapConcurrent(Array.from({ length: 20 }, (_, i) => i), 3, async (n) => {
    most = Math.max(most, ++running);
    await tick(n % 4);
    running--;
    return n * n;
  });
  assert.deepEqual(results, Array.from({ length: 20 }, (_, i) => i * i));
  assert.equal(most, 3);
});

Deno.test("mapConcurrent pulls an async iterable only as slots free up", async () => {
  let pulled = 0;
  let started = 0;
  async function* items() {
    for (let i = 0; i < 6; i++) {
      pulled++;
      // Never more than one item taken beyond the calls started.
      assert.ok(pulled - started <= 1);
      yield i;
    }
  }
  const results = await mapConcurrent(items(), 2, async (n) => {
    started++;
    await tick();
    return n;
  });
  assert.deepEqual(results, [0, 1, 2, 3, 4, 5]);
});

Deno.test("the first error aborts the others, stops taking items and is thrown", async () => {
  const seen: number[] = [];
  const aborted: number[] = [];
  await assert.rejects(
    mapConcurrent([0, 1, 2, 3, 4, 5, 6, 7], 2, async (n, _, signal) => {
      seen.push(n);
      if (n === 1) throw new Error("boom");
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, 50);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          aborted.push(n);
          reject(signal.reason);
        });
      });
      return n;
    }),
    /boom/,
  );
  assert.deepEqual(seen, [0, 1]);
  assert.deepEqual(aborted, [0]);
});

Deno.test("an error of the iteration itself is thrown after the running calls settle", async () => {
  let settled = 0;
  async function* items() {
    yield 1;
    throw new Error("listing failed");
  }
  await assert.rejects(
    mapConcurrent(items(), 4, async () => {
      await tick();
      settled++;
    }),
    /listing failed/,
  );
  assert.equal(settled, 1);
});

Deno.test("the caller's signal stops the pool", async () => {
  const controller = new AbortController();
  const seen: number[] = [];
  await assert.rejects(
    mapConcurrent([0, 1, 2, 3], 1, async (n) => {
      seen.push(n);
      if (n === 1) controller.abort(new Error("stopped"));
      await tick();
    }, { signal: controller.signal }),
    /stopped/,
  );
  assert.deepEqual(seen, [0, 1]);
});

Deno.test("a limit that is not an integer ≥ 1 is refused", async () => {
  for (const limit of [0, -1, 1.5, Number.NaN]) {
    await assert.rejects(mapConcurrent([1], limit, (n) => Promise.resolve(n)), BadRequestError);
  }
});
