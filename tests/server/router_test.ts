import assert from "node:assert/strict";
import { bearer, DEMO, get, serveStore, standardTree } from "./_store.ts";

Deno.test("the health route answers plain text with and without the prefix", async () => {
  await using fixture = await serveStore();
  const origin = fixture.url.replace(/\/terrain$/, "");
  for (const path of ["/", "/terrain", "/terrain/"]) {
    const { status, headers, text } = await get(`${origin}${path}`);
    assert.equal(status, 200, path);
    assert.equal(text, "The infinite is attainable with Terrain!\n");
    assert.equal(headers.get("content-type"), "text/plain; charset=utf-8");
  }
});

Deno.test("routes answer the same with and without /terrain", async () => {
  await using fixture = await serveStore();
  const origin = fixture.url.replace(/\/terrain$/, "");
  const query = "filesystem/paged-directory?path=/iplant/home/shared&limit=5";
  const prefixed = await get(`${origin}/terrain/secured/${query}`, bearer(DEMO.token));
  const bare = await get(`${origin}/secured/${query}`, bearer(DEMO.token));
  assert.equal(prefixed.status, 200);
  assert.deepEqual(bare.json, prefixed.json);
  const terrainX = await get(`${origin}/terrainX/secured/${query}`);
  assert.equal(terrainX.status, 401, "only a literal /terrain prefix is recognised");
});

Deno.test("unknown paths: 401 without credentials, 404 with them", async () => {
  await using fixture = await serveStore();
  for (
    const path of ["/secured/nothing", "/nothing/at/all", "/secured/filesystem/root/", "/uuid"]
  ) {
    const anonymous = await get(`${fixture.url}${path}`);
    assert.equal(anonymous.status, 401, path);
    assert.equal(anonymous.headers.get("www-authenticate"), "Custom");
    const known = await get(`${fixture.url}${path}`, bearer(DEMO.token));
    assert.equal(known.status, 404, path);
    assert.equal(known.headers.get("content-type"), "text/html; charset=utf-8");
    assert.deepEqual(known.json, { reason: "unrecognized service path" });
  }
  const bad = await get(`${fixture.url}/nothing`, bearer("bad.token.here"));
  assert.equal(bad.status, 403);
});

Deno.test("only GET and HEAD are served; other methods fall to the catch-all", async () => {
  await using fixture = await serveStore();
  const url = `${fixture.url}/filesystem/paged-directory?path=/iplant/home/shared&limit=5`;
  for (const method of ["POST", "PUT", "DELETE"]) {
    const anonymous = await fetch(url, { method });
    await anonymous.body?.cancel();
    assert.equal(anonymous.status, 401, method);
    const known = await fetch(url, { method, headers: bearer(DEMO.token) });
    await known.body?.cancel();
    assert.equal(known.status, 404, method);
  }
  const head = await fetch(url, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.ok(Number(head.headers.get("content-length")) > 0);
  assert.equal((await head.arrayBuffer()).byteLength, 0);
});

Deno.test("search documentation on both variants; anonymous only on the plain one", async () => {
  await using fixture = await serveStore();
  const plain = await get(`${fixture.url}/filesystem/search-documentation`);
  assert.equal(plain.status, 200);
  assert.deepEqual(Object.keys(plain.json), ["clauses", "sortFields"]);
  assert.equal(Object.keys(plain.json.clauses).length, 9);
  assert.equal((await get(`${fixture.url}/secured/filesystem/search-documentation`)).status, 401);
  const orders = new Set<string>();
  for (let i = 0; i < 8; i++) {
    const { json } = await get(
      `${fixture.url}/secured/filesystem/search-documentation`,
      bearer(DEMO.token),
    );
    orders.add(json.sortFields.join(","));
  }
  assert.ok(orders.size > 1, "sortFields order varies per call");
});

Deno.test("unexpected failures get a short 500 without a stack trace or the store's location", async () => {
  const tree = standardTree();
  delete tree[".terrain/saved-searches/demo.json"];
  await using fixture = await serveStore({ ...tree, ".terrain/saved-searches/demo.json/": null });
  const { status, json, text } = await get(`${fixture.url}/saved-searches`, bearer(DEMO.token));
  assert.equal(status, 500);
  assert.deepEqual(Object.keys(json), ["error_code", "reason"]);
  assert.equal(json.error_code, "ERR_UNCHECKED_EXCEPTION");
  assert.ok(json.reason.length <= 300);
  assert.ok(!text.includes(fixture.root), text);
  assert.ok(!/\bat .*\.ts:\d+/.test(text), "no stack frames");
});

Deno.test("every answer says nosniff, and requests are counted", async () => {
  await using fixture = await serveStore();
  const responses = [
    await get(`${fixture.url}/`),
    await get(`${fixture.url}/secured/filesystem/root`),
    await get(`${fixture.url}/filesystem/display-download?path=/iplant/home/shared/project/a.csv`),
  ];
  for (const response of responses) {
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  }
  assert.equal(fixture.server.stats().requests, 3);
});
