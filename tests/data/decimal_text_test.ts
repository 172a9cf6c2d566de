/**
 * `decimalComma: true` turns a column to numbers only when each of its fields is one, as pandas'
 * `decimal=","` does: a text column keeps its commas (`1,2` among codes), on every route, read
 * over loopback from the embedded server.
 *
 * @module
 */

import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { DATA, dataStore } from "./_store.ts";

Deno.test("decimalComma leaves the fields of a text column as written", async () => {
  // A code column of text beside a decimal-comma column; the long file's code column meets a
  // field like a decimal comma only after the first parse batch.
  const mixed = "code;value\n1,2;0,5\nx;1,5\n";
  const long = "code;value\n" +
    Array.from({ length: 20_000 }, (_, i) => `c${i};${i},5`).join("\n") +
    "\n3,7;2,5\n";
  await using served = await dataStore({
    [`${DATA}/eu/mixed.csv`]: mixed,
    [`${DATA}/eu/long.csv`]: long,
  });
  const store = served.connect();
  const o = { decimalComma: true };
  for (const name of ["mixed.csv", "long.csv"]) {
    const file = store.file(`${DATA}/eu/${name}`);
    const batches = [];
    for await (const batch of file.batches(o)) batches.push(batch);
    const reads = {
      whole: await file.dataframe(o),
      batches: pl.concat(batches),
      scan: await (await file.scan(o)).collect(),
    };
    for (const [route, frame] of Object.entries(reads)) {
      const what = `${name} ${route}`;
      assert.deepEqual(frame.dtypes, [pl.String, pl.Float64], what);
      const codes = frame.getColumn("code").toArray();
      assert.equal(codes[0], name === "mixed.csv" ? "1,2" : "c0", what);
      assert.equal(codes.at(-1), name === "mixed.csv" ? "x" : "3,7", what);
      assert.deepEqual(frame.getColumn("value").toArray().slice(-2), [
        name === "mixed.csv" ? 0.5 : 19_999.5,
        name === "mixed.csv" ? 1.5 : 2.5,
      ], what);
    }
  }
});
