import assert from "node:assert/strict";
import { closest } from "../../lib/client/closest.ts";

Deno.test("closest suggests plausible misspellings and other spellings, and nothing else", () => {
  assert.equal(closest("tre", ["ls", "tree", "stat"]), "tree");
  assert.equal(closest("cta", ["cat", "cite"]), "cat");
  assert.equal(closest("download", ["ls", "get"]), undefined);
  assert.equal(closest("cachedir", ["cacheDir", "cacheMaxBytes"]), "cacheDir");
  assert.equal(closest("n_rows", ["nRows", "rows"]), "nRows");
  assert.equal(closest("seperator", ["sep", "format"]), "sep");
  assert.equal(closest("separator", ["sep", "format"]), "sep");
  assert.equal(closest("depth", ["maxDepth", "concurrency"]), "maxDepth");
  assert.equal(closest("header", ["hasHeader", "sep"]), "hasHeader");
  // A name unlike any is left alone.
  assert.equal(closest("delimiter", ["sep", "quoteChar", "format"]), undefined);
});
