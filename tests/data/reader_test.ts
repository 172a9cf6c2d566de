/**
 * The store's one reader: every read kind takes its bytes from `reader.open()` (the verified
 * cached copy or the network), and every download a read makes is one a byte source started.
 */

import assert from "node:assert/strict";
import { collect } from "../../lib/data/chunks.ts";
import { ReadEvents } from "../../lib/data/read_events.ts";
import { Reader } from "../../lib/data/reader.ts";
import { DiskCache } from "../../lib/cache/cache.ts";
import { versionOfEntry } from "../../lib/client/file_version.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { DATA, dataStore, generatedCsv } from "./_store.ts";

const CSV = `${DATA}/many/a.csv`;
const OTHER = `${DATA}/many/b.csv`;

Deno.test("every read kind takes its bytes from the store's one reader, cached or not", async () => {
  await using served = await dataStore({ [CSV]: generatedCsv(300), [OTHER]: generatedCsv(20) });
  const downloads: string[] = [];
  const store = served.connect({
    progress: false,
    fetch: (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/fileio/download")) downloads.push(url);
      return fetch(input, init);
    },
  });
  const { reader } = store[STORE_CONTEXT];
  const opened: string[] = [];
  const open = reader.open.bind(reader);
  // The real reader, counted: each open() names the read kind that asked for bytes.
  reader.open = async (pinned, call) => {
    const source = await open(pinned, call);
    opened.push(`${call.operation}:${source.copy === undefined ? "network" : "cache"}`);
    return source;
  };
  const file = store.file(CSV);
  const folder = `${served.root}-out`;
  try {
    await file.head(3, { cache: false });
    await file.bytes();
    await file.text();
    await new Response(await file.stream()).bytes();
    await Array.fromAsync(file.batches({ rows: 100 }));
    await file.downloadTo(`${folder}/a.csv`);
    await file.cachedPath();
    await file.dataframe();
    await file.scan({ remote: false });
    await store.folder(`${DATA}/many`).list().dataframes();
  } finally {
    await Deno.remove(folder, { recursive: true }).catch(() => {});
  }
  // dataframes() reads its files side by side: in either order.
  assert.deepEqual([...opened.slice(0, 9), ...opened.slice(9).sort()], [
    "head:network",
    "bytes:network",
    "text:network",
    "stream:network",
    "batches:network",
    // batches() with a cache downloads into the copy these read.
    "downloadTo:cache",
    "cachedPath:cache",
    "dataframe:cache",
    "scan:cache", // a scan of text parses the copy it kept: one open
    "dataframe:cache", // a.csv, cached by the reads above
    "dataframe:network", // b.csv
  ]);
  // Each download a read made came from a byte source the reader opened on the network.
  assert.equal(downloads.length, opened.filter((kind) => kind.endsWith(":network")).length);
});

Deno.test("a reader gives the bytes of a cached copy with no network at all", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tern-reader-" });
  try {
    const cache = new DiskCache({ dir });
    const entry = {
      id: "a1",
      path: "/a/b.csv",
      name: "b.csv",
      type: "file" as const,
      size: 4,
      created: new Date(0),
      modified: new Date(1000),
      infoType: null,
      permission: "read" as const,
    };
    const version = versionOfEntry("http://127.0.0.1:9/terrain", entry);
    const writer = await cache.writer(version);
    await writer!.write(new TextEncoder().encode("a\n1\n"));
    await writer!.commit();
    // A transport that throws on use: the copy must be the only source of the bytes.
    const reader = new Reader(undefined as never, cache);
    const call = { events: new ReadEvents(), operation: "bytes" } as const;
    await using bytes = await reader.open({ version }, call);
    assert.ok(bytes.copy !== undefined);
    assert.equal(new TextDecoder().decode(await collect(bytes.chunks())), "a\n1\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
