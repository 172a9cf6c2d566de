import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { connect, ParseError } from "../../mod.ts";
import { ensureSampleStore } from "../../lib/sample/mod.ts";
import { SAMPLE_CASES } from "../../lib/sample/catalog.ts";
import { scanFile } from "../../lib/data/scan.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { ALICE, DEMO, usersFile } from "../_store.ts";
import { dataStore, generatedCsv } from "./_store.ts";
import { rangeIgnoringProxy } from "./_proxy.ts";

const SAMPLE = await ensureSampleStore();
const PENGUINS_PATH = `${SAMPLE}/iplant/home/shared/tern_samples/formats/penguins.parquet`;
const PENGUINS = await Deno.readFile(PENGUINS_PATH);
const PUBLIC = "/iplant/home/shared/data/penguins.parquet";
const PRIVATE = "/iplant/home/demo/penguins.parquet";

/** The same frame, row for row. */
function sameFrame(actual: { toRecords(): unknown[] }, expected: { toRecords(): unknown[] }) {
  assert.deepEqual(actual.toRecords(), expected.toRecords());
}

Deno.test("scan: a public Parquet file is read in place, fetching a few percent of its bytes", async () => {
  await using served = await dataStore("sample");
  const store = served.connect();
  const file = store.file(SAMPLE_CASES.parquetLarge);
  const size = (await file.stat()).size;
  const before = served.server.stats().bytesSent;
  const lazy = await file.scan();
  const head = await lazy.select("origin").head(1000).collect();
  const sent = served.server.stats().bytesSent - before;
  assert.equal(head.height, 1000);
  assert.ok(sent < size * 0.05, `sent ${sent} of ${size} bytes`);
  // Nothing went into the cache: the scan never downloaded the file.
  assert.equal((await store.cache.info()).height, 0);
  const local = pl.scanParquet(`${SAMPLE}${SAMPLE_CASES.parquetLarge}`);
  sameFrame(head, await local.select("origin").head(1000).collect());
});

Deno.test("scan: a predicate on the sorted date column prunes row groups", async () => {
  await using served = await dataStore("sample");
  const file = served.connect().file(SAMPLE_CASES.parquetLarge);
  const size = (await file.stat()).size;
  const lazy = await file.scan();
  const before = served.server.stats().bytesSent;
  const late = await lazy.filter(pl.col("date").gtEq(pl.lit(new Date("2001-06-25T00:00:00Z"))))
    .collect();
  const sent = served.server.stats().bytesSent - before;
  assert.ok(late.height > 0 && late.height < 3_000_000);
  assert.ok(sent < size * 0.25, `sent ${sent} of ${size} bytes`);
});

Deno.test("scan: a server that ignores Range gives the right frame through the cache", async () => {
  await using served = await dataStore({ [PUBLIC]: PENGUINS });
  await using proxy = rangeIgnoringProxy(served.url);
  const store = connect({ url: proxy.url, anonymous: true, cacheDir: served.cacheDir });
  const file = store.file(PUBLIC);
  const source = { path: PUBLIC, stat: (signal?: AbortSignal) => file.stat({ signal }) };
  const { frame, route } = await scanFile(store[STORE_CONTEXT], source);
  assert.equal(route.url, undefined);
  assert.match(route.reason ?? "", /byte ranges/);
  assert.ok(proxy.dropped >= 1);
  sameFrame(await frame.collect(), pl.readParquet(PENGUINS_PATH));
  sameFrame(await (await file.scan()).collect(), pl.readParquet(PENGUINS_PATH));
});

Deno.test("scan: when Polars' own range reads fail after the probe passed, it falls back", async () => {
  await using served = await dataStore({ [PUBLIC]: PENGUINS });
  // Only the probe's 4-byte range is honoured; Polars' footer reads get the whole body.
  await using proxy = rangeIgnoringProxy(served.url, (range) => range === "bytes=0-3");
  const store = connect({ url: proxy.url, anonymous: true, cacheDir: served.cacheDir });
  const file = store.file(PUBLIC);
  const source = { path: PUBLIC, stat: (signal?: AbortSignal) => file.stat({ signal }) };
  const { frame, route } = await scanFile(store[STORE_CONTEXT], source);
  assert.equal(route.url, undefined);
  assert.match(route.reason ?? "", /Polars could not read/);
  sameFrame(await frame.collect(), pl.readParquet(PENGUINS_PATH));
});

Deno.test("scan: a private file has no anonymous URL and is scanned from the cache", async () => {
  await using served = await dataStore({
    [PRIVATE]: PENGUINS,
    "/.terrain/users.json": usersFile(DEMO, ALICE, 300),
  });
  const store = connect({ url: served.url, token: DEMO.token, cacheDir: served.cacheDir });
  const file = store.file(PRIVATE);
  assert.equal((await file.manifest()).publicUrl, undefined);
  const source = { path: PRIVATE, stat: (signal?: AbortSignal) => file.stat({ signal }) };
  const { frame, route } = await scanFile(store[STORE_CONTEXT], source);
  assert.match(route.reason ?? "", /not public/);
  assert.ok(route.localPath?.startsWith(served.cacheDir));
  sameFrame(await frame.collect(), pl.readParquet(PENGUINS_PATH));
});

Deno.test("scan: CSV, NDJSON and JSON arrays are scanned from the cache copy, equal to dataframe()", async () => {
  const csv = generatedCsv(500);
  const ndjson = '{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n';
  await using served = await dataStore({
    "/iplant/home/shared/data/t.csv": csv,
    "/iplant/home/shared/data/t.ndjson": ndjson,
    "/iplant/home/shared/data/t.json": JSON.stringify([{ a: 1 }, { a: 2 }]),
  });
  const store = served.connect();
  for (const name of ["t.csv", "t.ndjson", "t.json"]) {
    const file = store.file(`/iplant/home/shared/data/${name}`);
    const scanned = await (await file.scan()).collect();
    assert.equal(scanned.height, (await file.dataframe()).height, name);
  }
  const lazy = await store.file("/iplant/home/shared/data/t.csv").scan();
  const odd = await lazy.filter(pl.col("id").modulo(2).eq(pl.lit(1))).select("id").collect();
  assert.equal(odd.height, 250);
});

Deno.test("scan: a file that is not Parquet inside fails the scan with a ParseError", async () => {
  const bad = new Uint8Array([...new TextEncoder().encode("PAR1"), ...new Uint8Array(100)]);
  await using served = await dataStore({ "/iplant/home/shared/data/bad.parquet": bad });
  const file = served.connect().file("/iplant/home/shared/data/bad.parquet");
  await assert.rejects(() => file.scan(), ParseError);
});

Deno.test("scan: listing.scan() unites the files with their source path as a column", async () => {
  await using served = await dataStore({
    "/iplant/home/shared/data/a/penguins.parquet": PENGUINS,
    "/iplant/home/shared/data/b/penguins.parquet": PENGUINS,
    "/iplant/home/shared/data/b/notes.txt": "not a table",
  });
  const store = served.connect();
  const lazy = await store.folder("/iplant/home/shared/data").walk({ glob: "**/*.parquet" })
    .scan();
  const counts = await lazy.groupBy("source").agg(pl.len().alias("rows")).sort("source")
    .collect();
  assert.deepEqual(counts.toRecords(), [
    { source: "/iplant/home/shared/data/a/penguins.parquet", rows: 344 },
    { source: "/iplant/home/shared/data/b/penguins.parquet", rows: 344 },
  ]);
  // Both were read in place: nothing was cached.
  assert.equal((await store.cache.info()).height, 0);
});
