import assert from "node:assert/strict";
import { anonymousUrl } from "../../../lib/server/handlers/manifest.ts";
import { assertShape, bearer, DEMO, get, serveStore } from "../_store.ts";

const PROJECT = "/iplant/home/shared/project";

Deno.test("anonymousUrl percent-encodes each segment", () => {
  assert.equal(
    anonymousUrl("http://h:1", "/iplant/home/shared/a b/ü#?.csv"),
    "http://h:1/dav-anon/iplant/home/shared/a%20b/%C3%BC%23%3F.csv",
  );
});

Deno.test("manifest of a public file: type, infoType and a working anonymous URL", async () => {
  await using fixture = await serveStore();
  const { status, json } = await get(
    `${fixture.url}/filesystem/file/manifest?path=${
      encodeURIComponent(`${PROJECT}/space name.txt`)
    }`,
  );
  assert.equal(status, 200);
  assertShape(json, { "content-type": "string", infoType: "string", urls: "array" });
  assert.equal(json["content-type"], "text/plain");
  assert.equal(json.infoType, "unknown");
  assert.equal(json.urls.length, 1);
  assertShape(json.urls[0], { label: "string", url: "string" });
  assert.equal(json.urls[0].label, "anonymous");
  const origin = fixture.url.replace(/\/terrain$/, "");
  assert.equal(json.urls[0].url, `${origin}/dav-anon${PROJECT}/space%20name.txt`);
  const body = await get(json.urls[0].url);
  assert.equal(body.text, "spaces\n");
  const readme = await get(`${fixture.url}/filesystem/file/manifest?path=${PROJECT}/README`);
  assert.equal(readme.json.infoType, "fasta", "the ipc-filetype AVU overrides the name");
  const png = await get(`${fixture.url}/filesystem/file/manifest?path=${PROJECT}/image.png`);
  assert.equal(png.json["content-type"], "image/png");
});

Deno.test("manifest of a private file has no URLs", async () => {
  await using fixture = await serveStore();
  const { json } = await get(
    `${fixture.url}/secured/filesystem/file/manifest?path=/iplant/home/demo/notes.txt`,
    bearer(DEMO.token),
  );
  assert.deepEqual(json, { "content-type": "text/plain", infoType: "unknown", urls: [] });
});

Deno.test("manifest errors", async () => {
  await using fixture = await serveStore();
  const ask = (query: string) =>
    get(`${fixture.url}/secured/filesystem/file/manifest${query}`, bearer(DEMO.token));
  const noPath = await ask("");
  assert.equal(noPath.status, 500);
  assert.equal(noPath.json.error_code, "ERR_UNCHECKED_EXCEPTION");
  assert.equal(typeof noPath.json.reason, "string");
  const missing = await ask("?path=/iplant/home/shared/none.csv");
  assert.deepEqual(missing.json, {
    error_code: "ERR_DOES_NOT_EXIST",
    paths: ["/iplant/home/shared/none.csv"],
  });
  const folder = await ask(`?path=${PROJECT}`);
  assert.deepEqual(folder.json, { error_code: "ERR_NOT_A_FILE", paths: [PROJECT] });
  const other = await ask("?path=/iplant/home/alice/private.csv");
  assert.deepEqual(other.json, {
    error_code: "ERR_NOT_READABLE",
    paths: ["/iplant/home/alice/private.csv"],
    user: "demo",
  });
  const anonymous = await get(
    `${fixture.url}/filesystem/file/manifest?path=/iplant/home/demo/notes.txt`,
  );
  assert.equal(anonymous.json.user, "anonymous");
  const blank = await ask("?path=");
  assert.equal(blank.status, 400);
});
