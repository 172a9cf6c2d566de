import assert from "node:assert/strict";
import { DiskStore } from "../../../lib/server/disk_store.ts";
import { assertShape, bearer, DEMO, get, serveStore, standardTree } from "../_store.ts";

const AVU_SHAPE = {
  id: "string",
  attr: "string",
  value: "string",
  unit: "string",
  target_id: "string",
  created_by: "string",
  modified_by: "string",
  created_on: "integer",
  modified_on: "integer",
  avus: "array",
};

const PROJECT = "/iplant/home/shared/project";

async function idOf(url: string, folder: string, label: string): Promise<string> {
  const { json } = await get(
    `${url}/filesystem/paged-directory?path=${encodeURIComponent(folder)}&limit=100`,
  );
  // deno-lint-ignore no-explicit-any
  const found = [...json.folders, ...json.files].find((item: any) => item.label === label);
  assert.ok(found, `${label} is listed`);
  return found.id;
}

// deno-lint-ignore no-explicit-any
function checkAvus(avus: any[], where: string) {
  avus.forEach((avu, i) => {
    assertShape(avu, AVU_SHAPE, `${where}[${i}]`);
    checkAvus(avu.avus, `${where}[${i}].avus`);
  });
}

Deno.test("folder metadata: nested AVUs with ids, targets, authors and times", async () => {
  await using fixture = await serveStore();
  const id = await idOf(fixture.url, "/iplant/home/shared", "project");
  const { status, json } = await get(`${fixture.url}/filesystem/${id}/metadata`);
  assert.equal(status, 200);
  assertShape(json, { path: "string", "irods-avus": "array", avus: "array" });
  assert.equal(json.path, PROJECT);
  assert.deepEqual(json["irods-avus"], []);
  checkAvus(json.avus, "avus");
  const [title, creator, subject] = json.avus;
  assert.deepEqual([title.attr, title.value, title.unit], ["title", "Project", ""]);
  assert.equal(title.target_id, id);
  assert.equal(title.created_by, "curator");
  const sidecarTime = (await Deno.stat(`${fixture.root}${PROJECT}/.avus.json`)).mtime!.getTime();
  assert.equal(title.created_on, sidecarTime);
  assert.equal(creator.avus[0].attr, "affiliation");
  assert.equal(creator.avus[0].target_id, creator.id);
  assert.equal(subject.created_by, "editor");
  assert.equal(subject.created_on, 1000);
  assert.equal(subject.modified_by, "curator");
  const again = await get(
    `${fixture.url}/secured/filesystem/${id.toUpperCase()}/metadata`,
    bearer(DEMO.token),
  );
  assert.deepEqual(again.json, json, "stable across calls and id case");
});

Deno.test("file metadata: irods-avus without ipc attributes; no sidecar means empty lists", async () => {
  await using fixture = await serveStore();
  const csv = await idOf(fixture.url, PROJECT, "a.csv");
  const { json } = await get(`${fixture.url}/filesystem/${csv}/metadata`);
  assert.deepEqual(json["irods-avus"], [{ attr: "source", value: "lab", unit: "" }]);
  assert.equal(json.avus[0].attr, "description");
  const tsv = await idOf(fixture.url, PROJECT, "b.tsv");
  assert.deepEqual((await get(`${fixture.url}/filesystem/${tsv}/metadata`)).json, {
    path: `${PROJECT}/b.tsv`,
    "irods-avus": [],
    avus: [],
  });
});

Deno.test("metadata finds items by id even when no listing has shown them", async () => {
  await using fixture = await serveStore();
  const other = await DiskStore.open(fixture.root, "iplant");
  const id = other.idOf(`${PROJECT}/sub2/inner.txt`);
  const { status, json } = await get(`${fixture.url}/filesystem/${id}/metadata`);
  assert.equal(status, 200);
  assert.equal(json.path, `${PROJECT}/sub2/inner.txt`);
});

Deno.test("metadata errors: bad UUID, unknown id, unreadable item", async () => {
  await using fixture = await serveStore();
  const bad = await get(`${fixture.url}/filesystem/not-a-uuid/metadata`);
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json, {
    error_code: "ERR_ILLEGAL_ARGUMENT",
    reason: "java.lang.IllegalArgumentException: Invalid UUID string: not-a-uuid",
  });
  const unknown = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";
  const missing = await get(`${fixture.url}/filesystem/${unknown}/metadata`);
  assert.equal(missing.status, 500);
  assert.deepEqual(missing.json, { error_code: "ERR_DOES_NOT_EXIST", uuid: unknown });
  const other = await DiskStore.open(fixture.root, "iplant");
  const privateId = other.idOf("/iplant/home/alice/private.csv");
  const hidden = await get(
    `${fixture.url}/secured/filesystem/${privateId}/metadata`,
    bearer(DEMO.token),
  );
  // Refused without saying where the private item lives.
  assert.equal(hidden.status, 403);
  assert.deepEqual(hidden.json, { error_code: "ERR_NOT_READABLE", uuid: privateId, user: "demo" });
  assert.doesNotMatch(hidden.text, /alice|private/);
  const anonymous = await get(`${fixture.url}/filesystem/${privateId}/metadata`);
  assert.equal(anonymous.status, 403);
  assert.equal(anonymous.json.user, "anonymous");
  assert.doesNotMatch(anonymous.text, /alice|private/);
});

Deno.test("a malformed sidecar fails its item's metadata but never the listing", async () => {
  await using fixture = await serveStore({
    ...standardTree(),
    "iplant/home/shared/project/.c.fastq.avus.json": '[{"attr": "x", "value": 3}]',
  });
  const { status, json } = await get(
    `${fixture.url}/filesystem/paged-directory?path=${PROJECT}&limit=100`,
  );
  assert.equal(status, 200);
  assert.equal(json.total, 10);
  const id = await idOf(fixture.url, PROJECT, "c.fastq");
  const broken = await get(`${fixture.url}/filesystem/${id}/metadata`);
  assert.equal(broken.status, 500);
  assert.equal(broken.json.error_code, "ERR_UNCHECKED_EXCEPTION");
  assert.equal(
    broken.json.reason,
    `malformed ${PROJECT}/.c.fastq.avus.json: [0].value: Invalid input: expected string, received number`,
  );
  assert.ok(!broken.text.includes(fixture.root));
});
