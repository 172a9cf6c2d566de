import assert from "node:assert/strict";
import type { Entry } from "../../lib/client/entry.ts";
import { entriesToDataFrame, ENTRY_COLUMNS } from "../../lib/listing/frame.ts";

const ENTRY: Entry = {
  id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364",
  path: "/iplant/home/shared/big.bin",
  name: "big.bin",
  type: "file",
  size: 2 ** 40,
  created: new Date(Date.UTC(2016, 6, 28)),
  modified: new Date(Date.UTC(2020, 1, 20, 12, 30)),
  infoType: "unknown",
  permission: "read",
};

Deno.test("entriesToDataFrame keeps large sizes and exact UTC times, from sync or async input", async () => {
  async function* twice() {
    yield ENTRY;
    yield { ...ENTRY, name: "dir", type: "folder" as const, size: 0, infoType: null };
  }
  for (
    const input of [[ENTRY, {
      ...ENTRY,
      name: "dir",
      type: "folder" as const,
      size: 0,
      infoType: null,
    }], twice()]
  ) {
    const frame = await entriesToDataFrame(input);
    assert.deepEqual(frame.columns, [...ENTRY_COLUMNS]);
    assert.deepEqual(frame.getColumn("size").toArray(), [2 ** 40, 0]);
    assert.deepEqual(frame.getColumn("modified").toArray()[0], ENTRY.modified);
    assert.deepEqual(frame.getColumn("infoType").toArray(), ["unknown", null]);
    assert.deepEqual(frame.getColumn("type").toArray(), ["file", "folder"]);
  }
});

Deno.test("entriesToDataFrame of nothing is an empty frame with the full schema", async () => {
  const frame = await entriesToDataFrame([]);
  assert.deepEqual(frame.shape, { height: 0, width: ENTRY_COLUMNS.length });
  assert.match(String(frame.getColumn("created").dtype), /Datetime/);
  assert.match(String(frame.getColumn("infoType").dtype), /String|Utf8/);
});
