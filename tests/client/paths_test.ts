import assert from "node:assert/strict";
import { BadRequestError } from "../../lib/client/errors.ts";
import {
  baseName,
  isId,
  joinPath,
  normalizePath,
  normalizeRelative,
  parentPath,
  parseRef,
} from "../../lib/client/paths.ts";

const ID = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";

Deno.test("normalizePath collapses repeated and trailing slashes and keeps everything else", () => {
  assert.equal(normalizePath("/iplant/home/shared/"), "/iplant/home/shared");
  assert.equal(normalizePath("//iplant//home///shared//"), "/iplant/home/shared");
  assert.equal(normalizePath("/"), "/");
  assert.equal(normalizePath("/iplant/home/x y/ü.csv"), "/iplant/home/x y/ü.csv");
  assert.equal(normalizePath("/iplant/home/..hidden/.x"), "/iplant/home/..hidden/.x");
});

Deno.test("normalizePath refuses relative paths, dot segments, NUL and non-strings, naming them", () => {
  const cases: [unknown, RegExp][] = [
    ["data/x.csv", /absolute data-store path.*"data\/x\.csv".*relative paths are not supported/],
    ["", /absolute data-store path/],
    [
      "/iplant/home/../etc",
      /must not contain "\." or "\.\." segments.*"\/iplant\/home\/\.\.\/etc"/,
    ],
    ["/iplant/./home", /"\." or "\.\."/],
    ["/iplant/ho\0me", /NUL/],
    [42, /got number/],
    [null, /got null/],
  ];
  for (const [input, message] of cases) {
    assert.throws(() => normalizePath(input, "store.folder()"), (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.match(error.message, message);
      assert.match(error.message, /^store\.folder\(\)/);
      return true;
    });
  }
});

Deno.test("parseRef tells ids from paths; ids are lower-cased", () => {
  assert.deepEqual(parseRef(ID), { id: ID });
  assert.deepEqual(parseRef(ID.toUpperCase()), { id: ID });
  assert.deepEqual(parseRef("/iplant/home/"), { path: "/iplant/home" });
  assert.equal(isId(ID), true);
  assert.equal(isId(`/${ID}`), false);
  assert.equal(isId(`${ID}x`), false);
  assert.throws(() => parseRef(`${ID}-extra`), BadRequestError);
});

Deno.test("normalizeRelative accepts nested names and refuses absolute, empty and climbing ones", () => {
  assert.equal(normalizeRelative("a.csv"), "a.csv");
  assert.equal(normalizeRelative("raw//2019/"), "raw/2019");
  assert.throws(() => normalizeRelative("/abs"), /cannot start with "\/"/);
  assert.throws(() => normalizeRelative(""), /non-empty name/);
  assert.throws(() => normalizeRelative("  "), /non-empty name/);
  assert.throws(() => normalizeRelative("a/../b"), /"\." or "\.\."/);
  assert.throws(() => normalizeRelative(undefined), BadRequestError);
});

Deno.test("joinPath, parentPath and baseName handle the root and nested paths", () => {
  assert.equal(joinPath("/", "iplant"), "/iplant");
  assert.equal(joinPath("/iplant/home", "a/b.csv"), "/iplant/home/a/b.csv");
  assert.equal(parentPath("/iplant/home/a.csv"), "/iplant/home");
  assert.equal(parentPath("/iplant"), "/");
  assert.equal(baseName("/iplant/home/a.csv"), "a.csv");
  assert.equal(baseName("/"), "/");
});
