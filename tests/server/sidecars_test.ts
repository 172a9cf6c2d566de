import assert from "node:assert/strict";
import {
  fileTypeOverride,
  parseAvuSidecar,
  parseComments,
  renderAvus,
  sidecarName,
  visibleIrodsAvus,
} from "../../lib/server/sidecars.ts";
import { StoreFileError } from "../../lib/server/store_file.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const ITEM = "a8e1c3f4-5a8e-11ed-9b6a-0242ac120002";

Deno.test("sidecarName", () => {
  assert.equal(sidecarName("x.csv", "file", "avus"), ".x.csv.avus.json");
  assert.equal(sidecarName("x.csv", "file", "comments"), ".x.csv.comments.json");
  assert.equal(sidecarName("d", "folder", "avus"), ".avus.json");
});

Deno.test("parseAvuSidecar reads both forms and reports the bad field", () => {
  const array = parseAvuSidecar(bytes([{ attr: "a", value: "b" }]), "s");
  assert.deepEqual(array, { avus: [{ attr: "a", value: "b" }], irodsAvus: [] });
  const object = parseAvuSidecar(
    bytes({ "irods-avus": [{ attr: "x", value: "y", unit: null }] }),
    "s",
  );
  assert.deepEqual(object, { avus: [], irodsAvus: [{ attr: "x", value: "y", unit: "" }] });
  assert.throws(
    () =>
      parseAvuSidecar(
        bytes([{ attr: "a", value: "b", avus: [{ attr: 1, value: "" }] }]),
        "/p/.x.avus.json",
      ),
    (error: unknown) =>
      error instanceof StoreFileError && error.file === "/p/.x.avus.json" &&
      /avus/.test(error.problem),
  );
  assert.throws(() => parseAvuSidecar(new TextEncoder().encode("[{"), "s"), /not valid JSON/);
  assert.throws(() => parseAvuSidecar(new Uint8Array([0xff]), "s"), /not valid UTF-8/);
});

Deno.test("renderAvus fills ids, targets, authors and times, nesting included", () => {
  const [title, creator] = renderAvus(
    [
      { attr: "title", value: "T", unit: "" },
      {
        attr: "creator",
        value: "C",
        created_by: "x",
        modified_on: 5,
        avus: [{ attr: "affiliation", value: "A" }],
      },
    ],
    ITEM,
    "owner",
    1234,
  );
  assert.deepEqual(Object.keys(title), [
    "id",
    "attr",
    "value",
    "unit",
    "target_id",
    "created_by",
    "modified_by",
    "created_on",
    "modified_on",
    "avus",
  ]);
  assert.equal(title.target_id, ITEM);
  assert.equal(title.created_by, "owner");
  assert.equal(title.created_on, 1234);
  assert.deepEqual(title.avus, []);
  assert.equal(creator.created_by, "x");
  assert.equal(creator.modified_by, "owner");
  assert.equal(creator.modified_on, 5);
  assert.equal(creator.avus[0].target_id, creator.id);
  assert.equal(creator.avus[0].unit, "");
  assert.notEqual(title.id, creator.id);
  const again = renderAvus([{ attr: "title", value: "T" }], ITEM, "owner", 1);
  assert.equal(again[0].id, title.id, "ids are stable");
});

Deno.test("visibleIrodsAvus hides ipc attributes and the reserved unit", () => {
  const shown = visibleIrodsAvus([
    { attr: "ipc_UUID", value: "x", unit: "" },
    { attr: "IPC-filetype", value: "csv", unit: "" },
    { attr: "source", value: "lab", unit: "ipc-reserved-unit" },
    { attr: "depth", value: "3", unit: "m" },
  ]);
  assert.deepEqual(shown, [
    { attr: "source", value: "lab", unit: "" },
    { attr: "depth", value: "3", unit: "m" },
  ]);
  assert.equal(fileTypeOverride([{ attr: "ipc-filetype", value: "vcf", unit: "" }]), "vcf");
  assert.equal(fileTypeOverride([{ attr: "ipc-filetype", value: "", unit: "" }]), undefined);
});

Deno.test("parseComments validates and sorts by post_time", () => {
  const comments = parseComments(
    bytes([
      {
        id: "B04F5E2D-2B3C-11EE-8F44-0242AC120002",
        comment: "b",
        commenter: "x",
        post_time: 2,
        retracted: true,
      },
      {
        id: "9e1d7c1a-2b3c-11ee-8f44-0242ac120002",
        comment: "a",
        commenter: "y",
        post_time: 1,
        retracted: false,
      },
    ]),
    "s",
  );
  assert.deepEqual(comments.map((c) => c.comment), ["a", "b"]);
  assert.equal(comments[1].id, "b04f5e2d-2b3c-11ee-8f44-0242ac120002");
  assert.deepEqual(Object.keys(comments[0]), [
    "id",
    "commenter",
    "post_time",
    "retracted",
    "comment",
  ]);
  assert.throws(
    () =>
      parseComments(
        bytes([{ id: "x", comment: " ", commenter: "y", post_time: -1, retracted: 0 }]),
        "s",
      ),
    (error: unknown) =>
      error instanceof StoreFileError && /\[0\]\.id: must be a UUID/.test(error.problem),
  );
});
