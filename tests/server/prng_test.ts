import assert from "node:assert/strict";
import { Prng } from "../../lib/server/prng.ts";

Deno.test("Prng repeats its sequence for a seed and differs across seeds and streams", () => {
  const draw = (prng: Prng) => Array.from({ length: 20 }, () => prng.next());
  assert.deepEqual(draw(new Prng(5)), draw(new Prng(5)));
  assert.notDeepEqual(draw(new Prng(5)), draw(new Prng(6)));
  assert.notDeepEqual(draw(new Prng(5, 0)), draw(new Prng(5, 1)));
});

Deno.test("Prng.next stays in [0, 1) and is roughly uniform", () => {
  const prng = new Prng(123);
  const buckets = new Array(10).fill(0);
  for (let i = 0; i < 10_000; i++) {
    const x = prng.next();
    assert.ok(x >= 0 && x < 1);
    buckets[Math.floor(x * 10)]++;
  }
  for (const count of buckets) assert.ok(count > 850 && count < 1150, `bucket ${count}`);
});

Deno.test("Prng.shuffle permutes without touching the input and varies between calls", () => {
  const input = ["a", "b", "c", "d", "e", "f", "g"];
  const prng = new Prng(1);
  const orders = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const shuffled = prng.shuffle(input);
    assert.deepEqual([...shuffled].sort(), input);
    orders.add(shuffled.join(""));
  }
  assert.deepEqual(input, ["a", "b", "c", "d", "e", "f", "g"]);
  assert.ok(orders.size > 10);
});
