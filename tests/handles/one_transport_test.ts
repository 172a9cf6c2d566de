/**
 * Every request a store makes goes through its transport (issue 30 item 2): the `fetch` given to
 * `connect()` sees each one, of every kind of read, remote scans' range reads included, and
 * each carries the store's `User-Agent`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { VERSION } from "../../lib/client/version.ts";
import { DEMO_USER } from "../../lib/sample/constants.ts";
import { SAMPLE_CASES } from "../../lib/sample/catalog.ts";
import { dataStore } from "../data/_store.ts";

Deno.test("a counting fetch sees every request of every read kind, each with the store's User-Agent", async () => {
  // Older code: a remote scan's range reads left through the global fetch, without it.
  await using served = await dataStore("sample");
  const agents: (string | null)[] = [];
  const counting: typeof fetch = (input, init) => {
    agents.push(new Headers(init?.headers).get("user-agent"));
    return fetch(input, init);
  };
  const store = served.connect({
    anonymous: false,
    token: DEMO_USER.token,
    fetch: counting,
    userAgent: "myapp/1.0",
  });
  const before = served.server.stats().requests;
  const table = store.file(SAMPLE_CASES.fileWithMetadata);
  const kinds: Record<string, number> = {};
  const counted = async (kind: string, read: () => Promise<unknown>) => {
    const at = agents.length;
    await read();
    kinds[kind] = agents.length - at;
  };
  await counted("listing", () => store.folder(SAMPLE_CASES.formats).list().toArray());
  await counted("metadata", () => table.metadata());
  await counted("dataframe", () => table.dataframe());
  await counted("bytes", () => store.file(SAMPLE_CASES.tsv).bytes());
  await counted("head", () => store.file(SAMPLE_CASES.ndjson).head(3));
  await counted("batches", async () => {
    for await (const _batch of store.file(SAMPLE_CASES.csvGz).batches()) {
      // Every batch read: the whole file went through.
    }
  });
  await counted("cachedPath", () => store.file(SAMPLE_CASES.arrowLarge).cachedPath());
  const lazy = await store.file(SAMPLE_CASES.parquetLarge).scan();
  await counted("collect", () => lazy.select("origin").head(1000).collect());
  for (const [kind, requests] of Object.entries(kinds)) {
    assert.ok(requests > 0, `${kind}: no request went through the store's fetch`);
  }
  // Nothing reached the server but through that fetch.
  assert.equal(agents.length, served.server.stats().requests - before);
  assert.equal(store.stats.requests, agents.length);
  const expected = `myapp/1.0 tern/${VERSION} (Deno/${Deno.version.deno})`;
  assert.deepEqual(new Set(agents), new Set([expected]));
});
