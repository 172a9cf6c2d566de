import assert from "node:assert/strict";
import {
  ANONYMOUS,
  childrenInherit,
  folderLabel,
  isBadName,
  permissionFor,
  weakest,
  ZonePaths,
} from "../../lib/server/permissions.ts";

const paths = new ZonePaths("iplant");

Deno.test("permissionFor follows the data store's default ACLs", () => {
  assert.equal(permissionFor(paths, "demo", "/iplant/home/demo"), "own");
  assert.equal(permissionFor(paths, "demo", "/iplant/home/demo/a/b"), "own");
  assert.equal(permissionFor(paths, "demo", "/iplant/trash/home/de-irods/demo/x"), "own");
  assert.equal(permissionFor(paths, "demo", "/iplant/home/shared/x"), "read");
  assert.equal(permissionFor(paths, "demo", "/iplant/home"), "read");
  assert.equal(permissionFor(paths, "demo", "/iplant"), "read");
  assert.equal(permissionFor(paths, "demo", "/iplant/home/alice"), "none");
  assert.equal(permissionFor(paths, "demo", "/iplant/home/demonstration"), "none");
  assert.equal(permissionFor(paths, "demo", "/iplant/trash/home/de-irods/alice"), "none");
  assert.equal(permissionFor(paths, "demo", "/iplant/trash"), "none");
  assert.equal(permissionFor(paths, ANONYMOUS, "/iplant/home/shared/x"), "read");
  assert.equal(permissionFor(paths, ANONYMOUS, "/iplant/home/anonymous"), "none");
  assert.equal(permissionFor(paths, "demo", "/iplant/home/sharedX"), "none");
});

Deno.test("weakest and childrenInherit", () => {
  assert.equal(weakest("own", "none"), "none");
  assert.equal(weakest("read", "own"), "read");
  assert.ok(childrenInherit(paths, "/iplant/home/shared"));
  assert.ok(childrenInherit(paths, "/iplant/home/demo"));
  assert.ok(childrenInherit(paths, "/iplant/trash/home/de-irods/demo"));
  assert.ok(!childrenInherit(paths, "/iplant/home"));
  assert.ok(!childrenInherit(paths, "/iplant"));
  assert.ok(!childrenInherit(paths, "/iplant/trash/home/de-irods"));
});

Deno.test("folderLabel gives the special root labels", () => {
  assert.equal(folderLabel(paths, "demo", "/iplant/home/shared"), "Community Data");
  assert.equal(folderLabel(paths, ANONYMOUS, "/iplant/home/shared"), "Community Data");
  assert.equal(folderLabel(paths, "demo", "/iplant/home"), "Shared With Me");
  assert.equal(folderLabel(paths, ANONYMOUS, "/iplant/home"), "home");
  assert.equal(folderLabel(paths, "demo", "/iplant/trash/home/de-irods/demo"), "Trash");
  assert.equal(folderLabel(paths, "alice", "/iplant/trash/home/de-irods/demo"), "demo");
  assert.equal(folderLabel(paths, "demo", "/iplant/home/demo"), "demo");
});

Deno.test("isBadName flags protected roots and troublesome characters", () => {
  assert.ok(isBadName(paths, "demo", "/iplant/home/shared"));
  assert.ok(isBadName(paths, "demo", "/iplant/home/demo"));
  assert.ok(isBadName(paths, "demo", "/iplant/home/public"));
  assert.ok(!isBadName(paths, "alice", "/iplant/home/demo"));
  assert.ok(isBadName(paths, "demo", "/iplant/home/demo/cacheServiceTempDir"));
  for (const name of ["a`b", "it's", "a\nb", "a\tb"]) {
    assert.ok(isBadName(paths, "demo", `/iplant/home/demo/${name}`), JSON.stringify(name));
  }
  assert.ok(!isBadName(paths, "demo", "/iplant/home/demo/data.csv"));
});
