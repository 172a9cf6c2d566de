import assert from "node:assert/strict";
import { join } from "node:path";
import { storeRelative, StoreTree } from "../../lib/sample/tree.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const at = (iso: string) => new Date(iso);

Deno.test("StoreTree.writeTo writes contents and fixed times for files and folders", async () => {
  const tree = new StoreTree();
  tree.addFile("a/old.csv", bytes("1\n"), at("2020-01-01T00:00:00Z"));
  tree.addFile("a/new.csv", bytes("22\n"), at("2021-06-01T00:00:00Z"));
  // A hidden sidecar newer than everything must not make its folder look modified.
  tree.addFile("a/.avus.json", bytes("[]\n"), at("2024-01-01T00:00:00Z"), "sidecar");
  tree.addFile("a/b/deep.txt", bytes("x"), at("2022-03-03T00:00:00Z"));
  tree.addDir("empty", at("2019-09-09T00:00:00Z"));
  tree.addDir("explicit", at("2018-01-01T00:00:00Z"));
  tree.addFile("explicit/later.txt", bytes("y"), at("2023-01-01T00:00:00Z"));
  tree.addFile(".terrain/users.json", bytes("{}"), at("2017-01-01T00:00:00Z"), "config");

  const root = await Deno.makeTempDir();
  try {
    await tree.writeTo(root);
    const mtime = (rel: string) => Deno.statSync(rel ? join(root, rel) : root).mtime!.toISOString();
    assert.equal(Deno.readTextFileSync(join(root, "a/new.csv")), "22\n");
    assert.equal(mtime("a/old.csv"), "2020-01-01T00:00:00.000Z");
    assert.equal(mtime("a/b"), "2022-03-03T00:00:00.000Z");
    assert.equal(mtime("a"), "2022-03-03T00:00:00.000Z", "newest visible child, sidecar ignored");
    assert.equal(mtime("empty"), "2019-09-09T00:00:00.000Z");
    assert.deepEqual([...Deno.readDirSync(join(root, "empty"))], []);
    assert.equal(mtime("explicit"), "2018-01-01T00:00:00.000Z", "explicit time wins");
    assert.equal(mtime(""), "2022-03-03T00:00:00.000Z", "children's resolved times, not files");
    assert.deepEqual(tree.counts(), { files: 4, bytes: 7, sidecars: 1, folders: 5 });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("StoreTree rejects duplicate, escaping and conflicting paths", () => {
  const tree = new StoreTree();
  tree.addFile("a/x", bytes(""), at("2020-01-01T00:00:00Z"));
  assert.throws(() => tree.addFile("a/x", bytes(""), new Date(0)), /already has an entry at a\/x/);
  assert.throws(() => tree.addFile("a/x/y", bytes(""), new Date(0)), /has a file at a\/x/);
  assert.throws(() => tree.addDir("a/x"), /has a file at a\/x/);
  for (const bad of ["", "/abs", "a/../b", "a//b", "a/"]) {
    assert.throws(() => tree.addFile(bad, bytes(""), new Date(0)), TypeError, bad);
  }
});

Deno.test("storeRelative maps data-store paths and refuses anything else", () => {
  assert.equal(storeRelative("/iplant/home/demo/x.csv"), "iplant/home/demo/x.csv");
  for (const bad of ["iplant/home", "/iplant/home/", "/iplant//home", "/iplant/../etc", "/./x"]) {
    assert.throws(() => storeRelative(bad), TypeError, bad);
  }
});
