/**
 * Child process for the example-store tests: opens an example store (its own server, or the one
 * named by `TERN_EXAMPLE_SERVER`), reads through its cache, disposes of it, then prints the URL
 * it used and the cached copy it wrote as JSON.
 *
 * @module
 */

import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { exampleStore } from "../../lib/sample/example.ts";
import { FORMATS_PATH } from "../../lib/sample/mod.ts";

let report: { url: string; height: number; cached: number; copy: string };
{
  await using store = await exampleStore();
  // A whole read goes through the cache (head(n) parses from the stream and keeps no copy).
  const frame = (await store.file(`${FORMATS_PATH}/penguins.csv`).dataframe()).head(2);
  const info = await store.cache.info();
  report = {
    url: store[STORE_CONTEXT].transport.url,
    height: frame.height,
    cached: info.height,
    copy: String(info.getColumn("file").get(0)),
  };
}
console.log(JSON.stringify(report));
