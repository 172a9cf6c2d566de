import assert from "node:assert/strict";
import { nameUuid, seededRandom, uuidV5 } from "../../lib/sample/ids.ts";

Deno.test("uuidV5 matches RFC 4122 name-based UUIDs", () => {
  const dns = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
  const url = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
  assert.equal(uuidV5(dns, "www.example.com"), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
  assert.equal(uuidV5(dns, "python.org"), "886313e1-3b8a-5372-9b90-0c9aee199e5d");
  assert.equal(uuidV5(url, "https://www.python.org/"), "5406f80d-92e9-51cd-a176-77445955e733");
});

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
