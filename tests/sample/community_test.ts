import assert from "node:assert/strict";
import { partCsv, partName } from "../../lib/sample/community.ts";
import { MANY_FILES_COLUMNS, MANY_FILES_COUNT } from "../../lib/sample/constants.ts";

Deno.test("partName pads to five digits", () => {
  assert.deepEqual([0, 1, 20000].map(partName), [
    "part-00000.csv",
    "part-00001.csv",
    "part-20000.csv",
  ]);
});

Deno.test("partCsv: same schema everywhere, 3-6 rows, one station-hour per part", () => {
  for (const n of [1, 2, 12, 13, 777, MANY_FILES_COUNT]) {
    const [header, ...rows] = partCsv(n).trimEnd().split("\n");
    assert.equal(header, MANY_FILES_COLUMNS.join(","));
    assert.ok(rows.length >= 3 && rows.length <= 6, `${n}: ${rows.length} rows`);
    for (const row of rows) assert.equal(row.split(",").length, MANY_FILES_COLUMNS.length);
  }
  const first = (n: number) => partCsv(n).split("\n")[1].split(",");
  assert.deepEqual(first(1).slice(0, 2), ["2023-05-01T00:00:00Z", "S01"]);
  assert.deepEqual(first(12).slice(0, 2), ["2023-05-01T00:00:00Z", "S12"]);
  assert.deepEqual(first(13).slice(0, 2), ["2023-05-01T01:00:00Z", "S01"]);
  assert.deepEqual(first(0).slice(0, 2), ["2023-04-30T23:00:00Z", "S12"]);
  assert.equal(partCsv(321), partCsv(321));
  assert.notEqual(partCsv(321), partCsv(322));
  assert.throws(() => partCsv(-1), RangeError);
});
