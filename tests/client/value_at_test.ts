import assert from "node:assert/strict";
import { valueAt } from "../../lib/client/value_at.ts";

Deno.test("valueAt follows keys and indexes, and stops where the path leaves the objects", () => {
  const body = { a: [{ b: null }, { b: { c: 0 } }], "x.y": "dotted" };
  assert.equal(valueAt(body, ["a", 1, "b", "c"]), 0);
  assert.equal(valueAt(body, ["a", 0, "b", "c"]), undefined); // through null
  assert.equal(valueAt(body, ["x.y"]), "dotted");
  assert.equal(valueAt(body, ["missing", "deeper"]), undefined);
  assert.equal(valueAt("text", ["length"]), undefined); // not an object
});
