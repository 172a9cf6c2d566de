import assert from "node:assert/strict";
import { startServer } from "../../../server.ts";
import {
  ALICE,
  assertShape,
  bearer,
  DEMO,
  fastTempParent,
  get,
  makeStore,
  serveStore,
  standardTree,
} from "../_store.ts";

const FOLDER_SHAPE = {
  id: "string",
  path: "string",
  label: "string",
  permission: "string",
  "date-created": "integer",
  "date-modified": "integer",
  isFavorite: "boolean",
  badName: "boolean",
  hasSubDirs: "boolean",
};

// deno-lint-ignore no-explicit-any
type Folder = any;

Deno.test("directory lists a folder's readable sub-folders only, by name", async () => {
  await using fixture = await serveStore();
  const { status, json } = await get(
    `${fixture.url}/secured/filesystem/directory?path=/iplant/home/shared/project/`,
    bearer(DEMO.token),
  );
  assert.equal(status, 200);
  assertShape(json, { ...FOLDER_SHAPE, folders: "array" }, "directory");
  assert.equal(json.path, "/iplant/home/shared/project");
  assert.equal(json.hasSubDirs, true);
  assert.equal(json.isFavorite, false);
  assert.equal(json.badName, false);
  json.folders.forEach((folder: Folder) => assertShape(folder, FOLDER_SHAPE, folder.path));
  assert.deepEqual(json.folders.map((f: Folder) => f.label), ["sub1", "sub2"]);
});

Deno.test("directory of /iplant/home shows only what the caller can read", async () => {
  await using fixture = await serveStore();
  const demo = await get(
    `${fixture.url}/secured/filesystem/directory?path=/iplant/home/`,
    bearer(DEMO.token),
  );
  assert.equal(demo.json.label, "Shared With Me");
  assert.deepEqual(
    demo.json.folders.map((f: Folder) => [f.path, f.label, f.permission, f.badName]),
    [
      ["/iplant/home/demo", "demo", "own", true],
      ["/iplant/home/shared", "Community Data", "read", true],
    ],
  );
  const alice = await get(
    `${fixture.url}/secured/filesystem/directory?path=/iplant/home`,
    bearer(ALICE.token),
  );
  assert.deepEqual(alice.json.folders.map((f: Folder) => f.label), ["alice", "Community Data"]);
});

Deno.test("directory without a path answers the three roots, each with its folders", async () => {
  await using fixture = await serveStore();
  const { json } = await get(`${fixture.url}/secured/filesystem/directory`, bearer(DEMO.token));
  assert.deepEqual(Object.keys(json), ["roots"]);
  assert.equal(json.roots.length, 3);
  json.roots.forEach((root: Folder) => assertShape(root, { ...FOLDER_SHAPE, folders: "array" }));
  assert.deepEqual(json.roots.map((r: Folder) => r.label), [
    "demo",
    "Community Data",
    "Shared With Me",
  ]);
  assert.deepEqual(json.roots[0].folders.map((f: Folder) => f.label), ["data"]);
  assert.deepEqual(json.roots[1].folders.map((f: Folder) => f.label), ["other", "project"]);
});

Deno.test("directory errors use the plural paths key", async () => {
  await using fixture = await serveStore();
  const ask = (query: string) =>
    get(`${fixture.url}/secured/filesystem/directory?${query}`, bearer(DEMO.token));
  const missing = await ask("path=/iplant/home/shared/nope");
  assert.equal(missing.status, 500);
  assert.deepEqual(missing.json, {
    error_code: "ERR_DOES_NOT_EXIST",
    paths: ["/iplant/home/shared/nope"],
  });
  const other = await ask("path=/iplant/home/alice");
  assert.deepEqual(other.json, {
    error_code: "ERR_NOT_READABLE",
    paths: ["/iplant/home/alice"],
    user: "demo",
  });
  const file = await ask("path=/iplant/home/shared/project/a.csv");
  assert.deepEqual(file.json, {
    error_code: "ERR_NOT_A_FOLDER",
    paths: ["/iplant/home/shared/project/a.csv"],
  });
  const blank = await ask("path=%20");
  assert.equal(blank.status, 400);
  assert.deepEqual(blank.json, {
    error_code: "ERR_ILLEGAL_ARGUMENT",
    reason: { path: '(not (non-blank-string? " "))' },
  });
  assert.equal(
    (await get(`${fixture.url}/secured/filesystem/directory?path=/iplant/home`)).status,
    401,
  );
});

Deno.test("a folder with many sub-folders is streamed, folders in name order", async () => {
  const { ".terrain/users.json": users } = standardTree();
  await using store = await makeStore({ ".terrain/users.json": users }, fastTempParent());
  const dir = `${store.root}/iplant/home/shared/wide`;
  for (let i = 0; i < 1_200; i++) {
    await Deno.mkdir(`${dir}/d-${String(i).padStart(4, "0")}`, { recursive: true });
  }
  await Deno.writeTextFile(`${dir}/a-file.csv`, "x\n");
  await using server = await startServer({ root: store.root, quiet: true });
  const response = await fetch(
    `${server.url}/secured/filesystem/directory?path=/iplant/home/shared/wide`,
    { headers: bearer(DEMO.token) },
  );
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-length"), null, "streamed, not sized up front");
  const json = await response.json();
  assert.equal(json.path, "/iplant/home/shared/wide");
  assert.deepEqual(
    json.folders.map((folder: { label: string }) => folder.label),
    Array.from({ length: 1_200 }, (_, i) => `d-${String(i).padStart(4, "0")}`),
  );
  for (const folder of json.folders.slice(0, 3)) assertShape(folder, FOLDER_SHAPE);
  const { folders: _, ...head } = json;
  assertShape(head, FOLDER_SHAPE);
});
