import assert from "node:assert/strict";
import {
  authored,
  avu,
  avuSidecar,
  avuWithUnit,
  comment,
  commentSidecar,
  jsonBytes,
  utc,
} from "../../lib/sample/sidecars.ts";

Deno.test("avu builders produce {attr, value, unit} with nested avus only when given", () => {
  assert.deepEqual(avu("title", "T"), { attr: "title", value: "T", unit: "" });
  assert.deepEqual(avuWithUnit("rows", "3", "count", avu("x", "")), {
    attr: "rows",
    value: "3",
    unit: "count",
    avus: [{ attr: "x", value: "", unit: "" }],
  });
});

Deno.test("authored stamps every level of nesting with who and when", () => {
  const [a] = authored("curator", "2020-01-02T03:04:05Z", [
    avu("identifier", "10.1/x", avu("identifierType", "DOI")),
  ]);
  const ms = Date.UTC(2020, 0, 2, 3, 4, 5);
  for (const x of [a, a.avus![0]]) {
    assert.equal(x.created_by, "curator");
    assert.equal(x.modified_by, "curator");
    assert.equal(x.created_on, ms);
    assert.equal(x.modified_on, ms);
  }
});

Deno.test("utc accepts only full ISO UTC timestamps", () => {
  assert.equal(utc("2024-02-29T12:00:00Z").getTime(), Date.UTC(2024, 1, 29, 12));
  for (const bad of ["2024-02-29", "2024-02-29T12:00:00+01:00", "2024-13-01T00:00:00Z"]) {
    assert.throws(() => utc(bad), TypeError, bad);
  }
});

Deno.test("comment ids are stable per key; blank comments are refused", () => {
  const a = comment("k1", "demo", "2021-01-01T00:00:00Z", "Nice");
  assert.equal(comment("k1", "alice", "2022-01-01T00:00:00Z", "Other").id, a.id);
  assert.notEqual(comment("k2", "demo", "2021-01-01T00:00:00Z", "Nice").id, a.id);
  assert.deepEqual(Object.keys(a).sort(), ["comment", "commenter", "id", "post_time", "retracted"]);
  assert.equal(comment("k3", "demo", "2021-01-01T00:00:00Z", "x", true).retracted, true);
  assert.throws(() => comment("k4", "demo", "2021-01-01T00:00:00Z", "  "), /must not be blank/);
});

Deno.test("sidecar paths: folder sidecars inside, file sidecars beside as dotfiles", () => {
  assert.equal(avuSidecar("iplant/home/shared/ds", "folder"), "iplant/home/shared/ds/.avus.json");
  assert.equal(avuSidecar("ds/sub/a.csv", "file"), "ds/sub/.a.csv.avus.json");
  assert.equal(commentSidecar("ds", "folder"), "ds/.comments.json");
  assert.equal(commentSidecar("ds/a b.csv", "file"), "ds/.a b.csv.comments.json");
  assert.equal(new TextDecoder().decode(jsonBytes([])), "[]\n");
});
