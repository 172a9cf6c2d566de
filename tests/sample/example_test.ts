/**
 * The store that runnable examples use: a real server over the sample store, connected as the
 * demo user, that leaves nothing running and nothing on disk once disposed of.
 */

import assert from "node:assert/strict";
import { AuthError } from "../../lib/client/errors.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { exampleStore } from "../../lib/sample/example.ts";
import { DEMO_USER, FORMATS_PATH } from "../../lib/sample/mod.ts";

Deno.test("the example store serves the sample store and is gone once disposed of", async () => {
  let url: string;
  let cacheRoot: string;
  {
    await using store = await exampleStore();
    url = store[STORE_CONTEXT].transport.url;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
    const frame = await store.file(`${FORMATS_PATH}/penguins.csv`).head(2);
    assert.equal(frame.height, 2);
    const info = await store.cache.info();
    assert.equal(info.height, 1, "the read went through the example's own cache");
    cacheRoot = String(info.getColumn("file").get(0));
    assert.ok((await Deno.stat(cacheRoot)).isFile);
  }
  await assert.rejects(fetch(`${url}/`), TypeError, "the server no longer listens");
  await assert.rejects(Deno.stat(cacheRoot), Deno.errors.NotFound, "the cache folder is removed");
});

Deno.test("the example store connects as the demo user unless asked to be anonymous", async () => {
  {
    await using store = await exampleStore();
    const home = await store.folder(`/iplant/home/${DEMO_USER.username}`).list().toArray();
    assert.ok(home.length > 0);
  }
  {
    await using anonymous = await exampleStore({ anonymous: true });
    await assert.rejects(
      anonymous.folder(`/iplant/home/${DEMO_USER.username}`).list().toArray(),
      AuthError,
    );
  }
});
