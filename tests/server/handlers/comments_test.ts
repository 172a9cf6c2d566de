import assert from "node:assert/strict";
import { DiskStore } from "../../../lib/server/disk_store.ts";
import { assertShape, bearer, DEMO, get, serveStore, standardTree } from "../_store.ts";

const PROJECT = "/iplant/home/shared/project";

async function idsOf(root: string) {
  const store = await DiskStore.open(root, "iplant");
  return {
    csv: store.idOf(`${PROJECT}/a.csv`),
    folder: store.idOf(PROJECT),
    tsv: store.idOf(`${PROJECT}/b.tsv`),
    private: store.idOf("/iplant/home/alice/private.csv"),
  };
}

Deno.test("comments come oldest first with exactly Terrain's keys, retracted ones included", async () => {
  await using fixture = await serveStore();
  const ids = await idsOf(fixture.root);
  const { status, json } = await get(
    `${fixture.url}/secured/filesystem/entry/${ids.csv}/comments`,
    bearer(DEMO.token),
  );
  assert.equal(status, 200);
  assert.deepEqual(Object.keys(json), ["comments"]);
  const shape = {
    id: "string",
    commenter: "string",
    post_time: "integer",
    retracted: "boolean",
    comment: "string",
  };
  json.comments.forEach((comment: unknown) => assertShape(comment, shape));
  // deno-lint-ignore no-explicit-any
  assert.deepEqual(json.comments.map((c: any) => [c.comment, c.retracted]), [
    ["First!", false],
    ["Later, retracted.", true],
  ]);
  const folder = await get(
    `${fixture.url}/secured/filesystem/entry/${ids.folder}/comments`,
    bearer(DEMO.token),
  );
  assert.deepEqual(folder.json, { comments: [] });
  const none = await get(
    `${fixture.url}/secured/filesystem/entry/${ids.tsv}/comments`,
    bearer(DEMO.token),
  );
  assert.deepEqual(none.json, { comments: [] });
});

Deno.test("comments errors: bad UUID, unknown or unreadable item, anonymous caller", async () => {
  await using fixture = await serveStore();
  const ids = await idsOf(fixture.root);
  const bad = await get(`${fixture.url}/secured/filesystem/entry/xyz/comments`, bearer(DEMO.token));
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json, {
    error_code: "ERR_ILLEGAL_ARGUMENT",
    reason: { "entry-id": '(not (instance? java.util.UUID "xyz"))' },
  });
  const unknown = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";
  const missing = await get(
    `${fixture.url}/secured/filesystem/entry/${unknown}/comments`,
    bearer(DEMO.token),
  );
  assert.equal(missing.status, 500);
  assert.deepEqual(missing.json, { error_code: "ERR_NOT_FOUND", uuid: unknown });
  const hidden = await get(
    `${fixture.url}/secured/filesystem/entry/${ids.private}/comments`,
    bearer(DEMO.token),
  );
  assert.deepEqual(hidden.json, { error_code: "ERR_NOT_FOUND", uuid: ids.private });
  assert.equal(
    (await get(`${fixture.url}/secured/filesystem/entry/${ids.csv}/comments`)).status,
    401,
  );
  assert.equal((await get(`${fixture.url}/filesystem/entry/${ids.csv}/comments`)).status, 401);
  const plain = await get(
    `${fixture.url}/filesystem/entry/${ids.csv}/comments`,
    bearer(DEMO.token),
  );
  assert.equal(plain.status, 404, "there is no plain variant");
});

Deno.test("a malformed comments sidecar is a 500 naming the sidecar", async () => {
  await using fixture = await serveStore({
    ...standardTree(),
    "iplant/home/shared/project/.b.tsv.comments.json": '[{"id": "nope"}]',
  });
  const ids = await idsOf(fixture.root);
  const { status, json, text } = await get(
    `${fixture.url}/secured/filesystem/entry/${ids.tsv}/comments`,
    bearer(DEMO.token),
  );
  assert.equal(status, 500);
  assert.equal(json.error_code, "ERR_UNCHECKED_EXCEPTION");
  assert.match(
    json.reason,
    /^malformed \/iplant\/home\/shared\/project\/\.b\.tsv\.comments\.json: \[0\]\.id: must be a UUID/,
  );
  assert.ok(!text.includes(fixture.root));
});
