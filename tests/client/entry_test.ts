import assert from "node:assert/strict";
import { entryFromItem, folderEntry } from "../../lib/client/entry.ts";

const ITEM = {
  id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364",
  path: "/iplant/home/shared/a b.csv",
  label: "a b.csv",
  infoType: "csv",
  isFavorite: false,
  badName: false,
  permission: "own" as const,
  "date-created": 1469698401000,
  "date-modified": 1469698402000,
  "file-size": 2048,
};

Deno.test("entryFromItem renames Terrain's fields and turns milliseconds into Dates", () => {
  assert.deepEqual(entryFromItem(ITEM, "file"), {
    id: ITEM.id,
    path: ITEM.path,
    name: "a b.csv",
    type: "file",
    size: 2048,
    created: new Date(1469698401000),
    modified: new Date(1469698402000),
    infoType: "csv",
    permission: "own",
  });
});

Deno.test("folder entries have size 0 and no info type, whatever the item says", () => {
  const entry = entryFromItem(
    { ...ITEM, path: "/iplant/home/shared/dir/", "file-size": 7 },
    "folder",
  );
  assert.equal(entry.name, "dir");
  assert.equal(entry.size, 0);
  assert.equal(entry.infoType, null);
  const top = folderEntry({ ...ITEM, path: "/iplant/home/shared" });
  assert.equal(top.name, "shared");
  assert.equal(top.type, "folder");
  assert.equal(folderEntry({ ...ITEM, path: "/" }).name, "/");
});
