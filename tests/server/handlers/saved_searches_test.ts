import assert from "node:assert/strict";
import { ALICE, bearer, DEMO, get, serveStore, standardTree } from "../_store.ts";

Deno.test("saved searches come back byte for byte, or {} when there are none", async () => {
  await using fixture = await serveStore();
  for (const path of ["/secured/saved-searches", "/saved-searches"]) {
    const demo = await get(`${fixture.url}${path}`, bearer(DEMO.token));
    assert.equal(demo.status, 200);
    assert.equal(demo.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(demo.text, '[ {"label": "fastq", "fileQuery": "*.fastq"} ]\n');
    const alice = await get(`${fixture.url}${path}`, bearer(ALICE.token));
    assert.equal(alice.text, "{}");
  }
});

Deno.test("saved searches need a user on both variants", async () => {
  await using fixture = await serveStore();
  for (const path of ["/secured/saved-searches", "/saved-searches"]) {
    const { status, json } = await get(`${fixture.url}${path}`);
    assert.equal(status, 401, path);
    assert.equal(json.error_code, "ERR_NOT_AUTHORIZED");
  }
});

Deno.test("a saved-searches file that is not JSON is a 500 naming the file", async () => {
  await using fixture = await serveStore({
    ...standardTree(),
    ".terrain/saved-searches/demo.json": "[ broken",
  });
  const { status, json, text } = await get(`${fixture.url}/saved-searches`, bearer(DEMO.token));
  assert.equal(status, 500);
  assert.equal(json.error_code, "ERR_UNCHECKED_EXCEPTION");
  assert.match(json.reason, /^malformed \.terrain\/saved-searches\/demo\.json: not valid JSON/);
  assert.ok(!text.includes(fixture.root));
});
