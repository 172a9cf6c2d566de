import assert from "node:assert/strict";
import { ALICE, assertShape, bearer, DEMO, get, serveStore } from "../_store.ts";

const ROOT_SHAPE = {
  id: "string",
  path: "string",
  label: "string",
  "date-created": "integer",
  "date-modified": "integer",
  permission: "string",
  hasSubDirs: "boolean",
};

Deno.test("root lists exactly four roots and snake_case base paths", async () => {
  await using fixture = await serveStore();
  const { status, headers, json } = await get(
    `${fixture.url}/secured/filesystem/root`,
    bearer(DEMO.token),
  );
  assert.equal(status, 200);
  assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
  assert.deepEqual(Object.keys(json), ["roots", "base-paths"]);
  assert.equal(json.roots.length, 4);
  json.roots.forEach((root: unknown, i: number) => assertShape(root, ROOT_SHAPE, `roots[${i}]`));
  // deno-lint-ignore no-explicit-any
  assert.deepEqual(json.roots.map((r: any) => [r.path, r.label, r.permission, r.hasSubDirs]), [
    ["/iplant/home/demo", "demo", "own", true],
    ["/iplant/home/shared", "Community Data", "read", true],
    ["/iplant/home", "Shared With Me", "read", true],
    ["/iplant/trash/home/de-irods/demo", "Trash", "own", true],
  ]);
  assert.deepEqual(json["base-paths"], {
    user_home_path: "/iplant/home/demo",
    user_trash_path: "/iplant/trash/home/de-irods/demo",
    base_trash_path: "/iplant/trash/home/de-irods",
  });
});

Deno.test("root creates the caller's trash (and a missing home) on demand", async () => {
  await using fixture = await serveStore();
  await Deno.remove(`${fixture.root}/iplant/home/alice`, { recursive: true });
  const { status, json } = await get(`${fixture.url}/secured/filesystem/root`, bearer(ALICE.token));
  assert.equal(status, 200);
  assert.equal(json.roots[0].path, "/iplant/home/alice");
  assert.ok((await Deno.stat(`${fixture.root}/iplant/trash/home/de-irods/alice`)).isDirectory);
  assert.ok((await Deno.stat(`${fixture.root}/iplant/home/alice`)).isDirectory);
  const again = await get(`${fixture.url}/secured/filesystem/root`, bearer(ALICE.token));
  assert.deepEqual(again.json.roots[3].id, json.roots[3].id, "ids are stable");
});

Deno.test("root needs a user: 401 anonymously, and there is no plain variant", async () => {
  await using fixture = await serveStore();
  const anonymous = await get(`${fixture.url}/secured/filesystem/root`);
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get("www-authenticate"), "Custom");
  assert.equal(anonymous.headers.get("content-type"), null);
  assert.deepEqual(anonymous.json, {
    error_code: "ERR_NOT_AUTHORIZED",
    reason: "No user authentication information found in request.",
  });
  assert.equal((await get(`${fixture.url}/filesystem/root`)).status, 401);
  const plain = await get(`${fixture.url}/filesystem/root`, bearer(DEMO.token));
  assert.equal(plain.status, 404);
  assert.deepEqual(plain.json, { reason: "unrecognized service path" });
});
