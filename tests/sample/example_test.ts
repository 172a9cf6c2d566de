/**
 * The store that runnable examples use: a real server over the sample store (its own, or the one
 * the test run shares between examples), connected as the demo user, that leaves nothing running
 * and nothing on disk once disposed of. Each case runs in a child process, since whether a
 * shared server is named comes from the process's environment.
 */

import assert from "node:assert/strict";
import { AuthError } from "../../lib/client/errors.ts";
import { EXAMPLE_SERVER_ENV, exampleStore, serveSampleStore } from "../../lib/sample/example.ts";
import { DEMO_USER, FORMATS_PATH } from "../../lib/sample/mod.ts";

const CHILD = new URL("./_example_child.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

interface ChildReport {
  url: string;
  height: number;
  cached: number;
  copy: string;
}

/** Runs an example store in a child process; `shared` is its `EXAMPLE_SERVER_ENV` ("" unset). */
async function inChild(shared: string): Promise<ChildReport> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, CHILD],
    env: { [EXAMPLE_SERVER_ENV]: shared },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
  const report: ChildReport = JSON.parse(new TextDecoder().decode(result.stdout));
  assert.equal(report.height, 2);
  assert.equal(report.cached, 1, "the read went through the example's own cache");
  await assert.rejects(Deno.stat(report.copy), Deno.errors.NotFound, "the cache folder is removed");
  return report;
}

Deno.test("on its own, the example store serves the sample store and is gone once disposed of", async () => {
  const report = await inChild("");
  assert.match(report.url, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
  await assert.rejects(fetch(`${report.url}/`), TypeError, "the server no longer listens");
});

Deno.test("given a shared server, example stores use it, leave it running and clean their own cache", async () => {
  await using server = await serveSampleStore();
  const [first, second] = await Promise.all([inChild(server.url), inChild(server.url)]);
  assert.equal(first.url, server.url);
  assert.equal(second.url, server.url);
  assert.notEqual(first.copy, second.copy, "each example has a cache folder of its own");
  const query = `path=${encodeURIComponent(FORMATS_PATH)}&limit=1`;
  const res = await fetch(`${server.url}/secured/filesystem/paged-directory?${query}`, {
    headers: { Authorization: `Bearer ${DEMO_USER.token}` },
  });
  assert.equal(res.status, 200, "the shared server still listens");
  await res.body?.cancel();
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

Deno.test("a served sample store shows as one line (its URL and store id), in a notebook as in a console", async () => {
  await using server = await serveSampleStore();
  const line = `TerrainServer ${server.url} (store id tern-sample-store)`;
  assert.equal(Deno.inspect(server), line);
  assert.equal(String(server), line);
  // A notebook shows a value without a view of its own as Deno.inspect prints it.
  assert.ok(!Deno.inspect(server, { colors: true }).includes("[Function"));
});
