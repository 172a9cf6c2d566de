import assert from "node:assert/strict";
import {
  baseName,
  DiskLayout,
  formatZonePath,
  isServableName,
  isSidecarName,
  parentPath,
  parseZonePath,
} from "../../lib/server/zone_path.ts";

Deno.test("parseZonePath accepts zone paths and drops empty segments", () => {
  assert.deepEqual(parseZonePath("/iplant", "iplant"), ["iplant"]);
  assert.deepEqual(parseZonePath("/iplant/home/", "iplant"), ["iplant", "home"]);
  assert.deepEqual(parseZonePath("//iplant//home///shared", "iplant"), [
    "iplant",
    "home",
    "shared",
  ]);
  assert.deepEqual(parseZonePath("/iplant/home/shared/.hidden", "iplant"), [
    "iplant",
    "home",
    "shared",
    ".hidden",
  ]);
  assert.deepEqual(parseZonePath("/iplant/home/shared/%2e%2e", "iplant"), [
    "iplant",
    "home",
    "shared",
    "%2e%2e",
  ], "percent escapes stay literal: they are never decoded twice");
});

Deno.test("parseZonePath refuses every escape vector", () => {
  const vectors = [
    "",
    "iplant/home",
    "/",
    "/etc/passwd",
    "/other/home/shared",
    "/iplantX/home",
    "/iplant/../etc",
    "/iplant/home/shared/../../..",
    "/iplant/home/./shared",
    "/iplant/home/shared/..\\..\\etc",
    "/iplant/home/shared\\..\\alice",
    "/iplant/home/shared/a\u0000b",
    "/iplant/home/shared/bad\uFFFDname",
    "/iplant/home/shared/.avus.json",
    "/iplant/home/shared/project/.a.csv.avus.json",
    "/iplant/home/shared/project/.comments.json",
    "/iplant/home/shared/project/.a.csv.comments.json",
  ];
  for (const vector of vectors) {
    assert.equal(parseZonePath(vector, "iplant"), undefined, JSON.stringify(vector));
  }
});

Deno.test("isSidecarName and isServableName", () => {
  assert.ok(isSidecarName(".avus.json"));
  assert.ok(isSidecarName(".x.y.avus.json"));
  assert.ok(isSidecarName(".name with\nnewline.comments.json"));
  assert.ok(!isSidecarName("avus.json"));
  assert.ok(!isSidecarName(".avus.json.bak"));
  assert.ok(isServableName("it's fine\ttoo"));
  assert.ok(!isServableName("."));
  assert.ok(!isServableName(""));
  assert.ok(!isServableName("a/b"));
});

Deno.test("path helpers", () => {
  assert.equal(formatZonePath(["iplant", "home", "x"]), "/iplant/home/x");
  assert.equal(baseName("/iplant/home/x.csv"), "x.csv");
  assert.equal(parentPath("/iplant/home/x.csv"), "/iplant/home");
  assert.equal(parentPath("/iplant"), "/");
});

Deno.test("DiskLayout maps both ways and refuses places outside the zone folder", () => {
  const layout = new DiskLayout("/srv/store/iplant/", "/iplant");
  assert.equal(layout.toDisk(["iplant", "home", "a b"]), "/srv/store/iplant/home/a b");
  assert.equal(layout.toDisk(["other", "x"]), undefined);
  assert.equal(layout.toZonePath("/srv/store/iplant"), "/iplant");
  assert.equal(layout.toZonePath("/srv/store/iplant/home/shared"), "/iplant/home/shared");
  assert.equal(layout.toZonePath("/srv/store/iplant-other/x"), undefined);
  assert.equal(layout.toZonePath("/srv/store"), undefined);
  assert.equal(layout.toZonePath("/srv/store/iplant/home/.x.avus.json"), undefined);
});

Deno.test("DiskLayout of a plain folder served deeper down: places above it are not on disk", () => {
  const layout = new DiskLayout("/data/flat", "/iplant/home/shared/lab");
  assert.equal(layout.toDisk(["iplant", "home", "shared", "lab"]), "/data/flat");
  assert.equal(layout.toDisk(["iplant", "home", "shared", "lab", "a.csv"]), "/data/flat/a.csv");
  assert.equal(layout.toDisk(["iplant", "home", "shared"]), undefined);
  assert.equal(layout.toDisk(["iplant", "home", "shared", "other", "a.csv"]), undefined);
  assert.equal(layout.toZonePath("/data/flat"), "/iplant/home/shared/lab");
  assert.equal(layout.toZonePath("/data/flat/x/y.csv"), "/iplant/home/shared/lab/x/y.csv");
  assert.equal(layout.toZonePath("/data/flatter/y.csv"), undefined);
  assert.equal(layout.toZonePath("/data"), undefined);
});
