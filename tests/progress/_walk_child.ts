/**
 * Child process for the walk-progress test: walks a tree of the sample store over a slow link,
 * so that the walk lasts long enough to show its progress line on the (pseudo-)terminal.
 */

import { connect } from "../../mod.ts";
import { startServer } from "../../server.ts";
import { COMMONS_REPO_PATH, ensureSampleStore } from "../../lib/sample/mod.ts";

await using server = await startServer({
  root: await ensureSampleStore(),
  port: 0,
  quiet: true,
  latencyMs: 60,
});
const store = connect({ url: server.url, anonymous: true, cacheDir: false });
const entries = await store.folder(COMMONS_REPO_PATH).walk().toArray();
console.log(`walked ${entries.length}`);
