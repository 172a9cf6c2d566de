/**
 * Files as found in the wild, read over the embedded server: each gives the table the file
 * holds or a typed error naming the file, never a wrong table and never a crash of the process.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ParseError } from "../../lib/data/errors.ts";
import { DATA, dataStore } from "./_store.ts";

Deno.test("JSON nested 100,000 levels deep is a ParseError, not a stack overflow that kills the process", async () => {
  const deep = 100_000;
  await using served = await dataStore({
    [`${DATA}/arrays.json`]: "[".repeat(deep) + "]".repeat(deep),
    [`${DATA}/objects.json`]: `[${'{"a":'.repeat(deep)}1${"}".repeat(deep)}]`,
    [`${DATA}/lines.ndjson`]: `{"a":1}\n${'{"a":'.repeat(deep)}1${"}".repeat(deep)}\n`,
    // Brackets inside strings are text, not nesting.
    [`${DATA}/shallow.json`]: JSON.stringify([{ a: "[".repeat(500), b: { c: [1, 2] } }]),
  });
  const store = served.connect();
  for (const name of ["arrays.json", "objects.json", "lines.ndjson"]) {
    const path = `${DATA}/${name}`;
    for (const read of [() => store.file(path).dataframe(), () => store.file(path).head(1)]) {
      await assert.rejects(read(), (error: unknown) => {
        assert.ok(error instanceof ParseError);
        assert.equal(error.path, path);
        assert.match(error.message, /more than 128 levels deep/);
        return true;
      });
    }
  }
  const shallow = await store.file(`${DATA}/shallow.json`).dataframe();
  assert.equal(shallow.getColumn("a").toArray()[0], "[".repeat(500));
});
