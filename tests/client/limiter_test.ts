import assert from "node:assert/strict";
import { Limiter } from "../../lib/client/limiter.ts";
import { BadRequestError } from "../../lib/client/errors.ts";

Deno.test("Limiter: never more than max holders, FIFO hand-over", async () => {
  const limiter = new Limiter(2);
  let holding = 0;
  let most = 0;
  const order: number[] = [];
  await Promise.all(Array.from({ length: 10 }, async (_, index) => {
    const release = await limiter.acquire();
    order.push(index);
    holding++;
    most = Math.max(most, holding);
    await new Promise((resolve) => setTimeout(resolve, 2));
    holding--;
    release();
  }));
  assert.equal(most, 2);
  assert.equal(limiter.peak, 2);
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(limiter.active, 0);
});

Deno.test("Limiter: a release function works once only", async () => {
  const limiter = new Limiter(1);
  const first = await limiter.acquire();
  const second = limiter.acquire();
  const third = limiter.acquire();
  assert.equal(limiter.pending, 2);
  first();
  first();
  first();
  const releaseSecond = await second;
  assert.equal(limiter.active, 1);
  assert.equal(limiter.pending, 1, "a repeated release must not admit the third waiter");
  releaseSecond();
  (await third)();
  assert.equal(limiter.active, 0);
});

Deno.test("Limiter: aborting a waiter removes it and rejects with AbortError", async () => {
  const limiter = new Limiter(1);
  const release = await limiter.acquire();
  const controller = new AbortController();
  const waiting = limiter.acquire(controller.signal);
  controller.abort();
  await assert.rejects(waiting, { name: "AbortError" });
  assert.equal(limiter.pending, 0);
  release();
  assert.equal(limiter.active, 0);
  await assert.rejects(limiter.acquire(controller.signal), { name: "AbortError" });
});

Deno.test("Limiter: rejects a bad size", () => {
  assert.throws(() => new Limiter(0), BadRequestError);
  assert.throws(() => new Limiter(1.5), BadRequestError);
  assert.equal(Deno.inspect(new Limiter(3)), "Limiter { active: 0, max: 3, pending: 0 }");
});
