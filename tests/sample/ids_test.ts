import assert from "node:assert/strict";
import { nameUuid, seededRandom } from "../../lib/sample/ids.ts";

Deno.test("nameUuid is stable, distinct per name and a valid version-5 UUID", () => {
  const ids = ["a", "b", "comment:1", "comment:2"].map(nameUuid);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(nameUuid("a"), ids[0]);
  for (const id of ids) {
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
});

Deno.test("seededRandom repeats per seed, differs across seeds, stays in [0, 1)", () => {
  const draw = (seed: number) => {
    const next = seededRandom(seed);
    return Array.from({ length: 1000 }, () => next());
  };
  assert.deepEqual(draw(42), draw(42));
  assert.notDeepEqual(draw(42), draw(43));
  const values = draw(7);
  assert.ok(values.every((v) => v >= 0 && v < 1));
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  assert.ok(Math.abs(mean - 0.5) < 0.05, `mean ${mean}`);
});
