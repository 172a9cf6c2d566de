import assert from "node:assert/strict";
import { BadRequestError, type Entry, isAbortError, Listing } from "../../mod.ts";
import {
  captureWarnings,
  generatedName,
  holdingFetch,
  MIXED_FILES,
  MIXED_FOLDERS,
  mixedTime,
  namesOnDisk,
  PAGED_FILES,
  PAGED_FOLDERS,
  PATHS,
  serve,
} from "../handles/_store.ts";
import { until } from "../reliability/_fixtures.ts";

/** A fetch that records the paged-directory queries it sends. */
function recorder() {
  const queries: URLSearchParams[] = [];
  const fetcher: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith("/paged-directory")) queries.push(url.searchParams);
    return fetch(input, init);
  };
  return { fetch: fetcher, queries };
}

const names = (entries: Entry[]) => entries.map((entry) => entry.name);

Deno.test("iteration yields typed entries: dates as Date, sizes, info types, permissions", async () => {
  await using served = await serve();
  const entries = await served.demo().folder(PATHS.mixed).list().toArray();
  assert.deepEqual(names(entries), [...MIXED_FOLDERS, ...MIXED_FILES]);
  const csv = entries.find((entry) => entry.name === "a.csv")!;
  assert.deepEqual({ ...csv, id: "" }, {
    id: "",
    path: `${PATHS.mixed}/a.csv`,
    name: "a.csv",
    type: "file",
    size: 10,
    created: csv.created,
    modified: mixedTime(0),
    infoType: "csv",
    permission: "read",
  });
  const folder = entries[0];
  assert.equal(folder.type, "folder");
  assert.equal(folder.infoType, null);
  assert.equal(folder.size, 0);
  assert.ok(folder.created instanceof Date);
});

Deno.test("take(n) asks for just n entries and stops; take(0) sends nothing", async () => {
  await using served = await serve();
  const { fetch, queries } = recorder();
  const store = served.demo({ fetch });
  const listing = store.folder(PATHS.paged).list();
  const first = await listing.take(3);
  assert.deepEqual(names(first), ["dir-0", "dir-1", "dir-2"]);
  assert.equal(queries.length, 1);
  assert.equal(queries[0].get("limit"), "3");
  assert.deepEqual(await listing.take(0), []);
  assert.equal(queries.length, 1);
  const more = await listing.take(1500);
  assert.equal(more.length, 1500);
  assert.deepEqual(queries.slice(1).map((query) => query.get("limit")), ["1000", "1000"]);
  assert.equal((await store.folder(PATHS.mixed).list().take(100)).length, 8);
  await assert.rejects(listing.take(-1), BadRequestError);
  await assert.rejects(listing.take(1.5), BadRequestError);
  assert.equal(store.stats.inFlight, 0, "the page fetched ahead was cancelled or finished");
});

Deno.test("count() is one request for a plain list; total() ignores the glob, count() does not", async () => {
  await using served = await serve();
  const { fetch, queries } = recorder();
  const store = served.demo({ fetch });
  const folder = store.folder(PATHS.paged);
  assert.equal(await folder.list().count(), PAGED_FILES + PAGED_FOLDERS);
  assert.equal(await folder.list({ type: "file" }).count(), PAGED_FILES);
  assert.equal(await folder.list({ type: "folder" }).total(), PAGED_FOLDERS);
  assert.deepEqual(queries.map((query) => query.get("limit")), ["1", "1", "1"]);

  const globbed = folder.list({ glob: "f-0000*" });
  assert.equal(await globbed.total(), PAGED_FILES + PAGED_FOLDERS);
  assert.equal(queries.length, 4);
  assert.equal(await globbed.count(), 100);
  assert.equal((await globbed.toArray()).length, 100);
  assert.equal(await store.folder(PATHS.empty).list().count(), 0);
});

Deno.test("pages() exposes offsets and totals; their entries add up to the listing", async () => {
  await using served = await serve();
  const listing = served.demo().folder(PATHS.paged).list({ pageSize: 1000, glob: "f-*" });
  const pages = [];
  for await (const page of listing.pages()) pages.push(page);
  assert.deepEqual(pages.map((page) => page.offset), [0, 1000, 2000]);
  assert.ok(pages.every((page) => page.total === PAGED_FILES + PAGED_FOLDERS));
  assert.equal(pages.reduce((sum, page) => sum + page.entries.length, 0), PAGED_FILES);
  assert.equal(pages[0].entries.length, 1000 - PAGED_FOLDERS, "the glob left the folders out");
});

Deno.test("a listing is re-iterable: each pass starts fresh and sees the folder as it is now", async () => {
  await using served = await serve();
  const listing = served.demo().folder(PATHS.mixed).list();
  const first = names(await listing.toArray());
  const concurrent = await Promise.all([listing.toArray(), listing.toArray()]);
  assert.deepEqual(concurrent.map(names), [first, first]);
  await Deno.writeTextFile(`${served.root}${PATHS.mixed}/g.csv`, "new");
  assert.deepEqual(names(await listing.toArray()), [...first, "g.csv"]);
  assert.equal(await listing.count(), first.length + 1);
});

Deno.test("sort and order are applied by the server, folders first", async () => {
  await using served = await serve();
  const folder = served.demo().folder(PATHS.mixed);
  const files = [...MIXED_FILES];
  const list = async (options: Parameters<typeof folder.list>[0]) =>
    names(await folder.list({ type: "file", ...options }).toArray());
  assert.deepEqual(await list({ sort: "name", order: "desc" }), [...files].reverse());
  assert.deepEqual(await list({ sort: "size", order: "desc" }), [...files].reverse());
  assert.deepEqual(await list({ sort: "size" }), files);
  assert.deepEqual(await list({ sort: "modified", order: "desc" }), [...files].reverse());
  assert.deepEqual(await list({ sort: "path" }), files);
  const created = await folder.list({ sort: "created" }).toArray();
  assert.deepEqual(names(created).slice(0, 2), [...MIXED_FOLDERS]);
  const mixed = names(await folder.list({ sort: "name", order: "desc" }).toArray());
  assert.deepEqual(mixed, [...[...MIXED_FOLDERS].reverse(), ...[...files].reverse()]);
});

Deno.test("type and infoType filter on the server; glob filters names on the client", async () => {
  await using served = await serve();
  const folder = served.demo().folder(PATHS.mixed);
  assert.deepEqual(names(await folder.list({ type: "folder" }).toArray()), [...MIXED_FOLDERS]);
  assert.deepEqual(names(await folder.list({ infoType: "csv", type: "file" }).toArray()), [
    "a.csv",
    "e.csv",
  ]);
  assert.deepEqual(names(await folder.list({ infoType: ["tsv", "python"] }).toArray()), [
    ...MIXED_FOLDERS,
    "b.tsv",
    "f.py",
  ]);
  assert.deepEqual(names(await folder.list({ infoType: "unknown", type: "file" }).toArray()), [
    "d.txt",
  ]);
  assert.deepEqual(names(await folder.list({ glob: "*.{csv,py}" }).toArray()), [
    "a.csv",
    "e.csv",
    "f.py",
  ]);
  assert.deepEqual(names(await folder.list({ glob: "!*.*" }).toArray()), [...MIXED_FOLDERS]);
  assert.equal(await folder.list({ glob: "*.csv", infoType: "tsv" }).count(), 0);
});

Deno.test("the whole paged folder arrives once per entry with any page size", async () => {
  await using served = await serve();
  const disk = await namesOnDisk(`${served.root}${PATHS.paged}`);
  for (const pageSize of [1000, 333]) {
    const entries = await served.demo().folder(PATHS.paged).list({ pageSize }).toArray();
    assert.deepEqual(names(entries), [...disk.folders, ...disk.files]);
    assert.equal(new Set(entries.map((entry) => entry.id)).size, entries.length);
  }
});

Deno.test("breaking out early cancels the page requested ahead", async () => {
  await using served = await serve();
  // The page ahead is never answered: only its abort can give its slot back.
  await using holding = holdingFetch((url) => url.searchParams.get("offset") === "100");
  const store = served.demo({ fetch: holding.fetch, timeoutMs: 600_000 });
  for await (const entry of store.folder(PATHS.paged).list({ pageSize: 100 })) {
    assert.equal(entry.name, "dir-0");
    break;
  }
  await until(() => store.stats.inFlight === 0, "the page ahead was aborted");
  assert.equal(holding.held(), 1);
  assert.equal(store.stats.requests, 2, "one page read, one fetched ahead and cancelled");
});

Deno.test("the listing's signal and the store's signal abort the iteration with AbortError", async () => {
  await using served = await serve({ latencyMs: 50 });
  const controller = new AbortController();
  const listing = served.demo().folder(PATHS.paged).list({
    pageSize: 200,
    signal: controller.signal,
  });
  let seen = 0;
  await assert.rejects(
    (async () => {
      for await (const _ of listing) if (++seen === 300) controller.abort();
    })(),
    (error: unknown) => isAbortError(error),
  );
  assert.ok(seen >= 300 && seen <= 400, `${seen} entries before the abort took effect`);

  const storeController = new AbortController();
  const store = served.demo({ signal: storeController.signal });
  const pending = store.folder(PATHS.paged).list().toArray();
  setTimeout(() => storeController.abort(), 20);
  await assert.rejects(pending, (error: unknown) => isAbortError(error));
  assert.equal(store.stats.inFlight, 0);
  const already = new AbortController();
  already.abort();
  await assert.rejects(
    served.demo().folder(PATHS.mixed).list({ signal: already.signal }).toArray(),
    (error: unknown) => isAbortError(error),
  );
});

Deno.test("toDataFrame has the documented columns and types, one row per entry", async () => {
  await using served = await serve();
  const listing = served.demo().folder(PATHS.mixed).list();
  const frame = await listing.toDataFrame();
  assert.deepEqual(frame.columns, [
    "path",
    "name",
    "type",
    "size",
    "created",
    "modified",
    "infoType",
    "id",
    "permission",
  ]);
  assert.deepEqual(frame.shape, { height: 8, width: 9 });
  assert.deepEqual(frame.getColumn("name").toArray(), [...MIXED_FOLDERS, ...MIXED_FILES]);
  assert.deepEqual(frame.getColumn("size").toArray(), [0, 0, 10, 20, 30, 40, 50, 60]);
  assert.deepEqual(
    frame.getColumn("modified").toArray().slice(2),
    MIXED_FILES.map((_, i) => mixedTime(i)),
  );
  assert.deepEqual(frame.getColumn("infoType").toArray().slice(0, 3), [null, null, "csv"]);
  assert.match(String(frame.getColumn("size").dtype), /Int64/);
  assert.match(String(frame.getColumn("created").dtype), /Datetime.*UTC/);
  const empty = await served.demo().folder(PATHS.empty).list().toDataFrame();
  assert.deepEqual(empty.shape, { height: 0, width: 9 });
  assert.match(String(empty.getColumn("size").dtype), /Int64/);
});

Deno.test("a listing whose folder changes under it warns once, through console.warn", async () => {
  await using served = await serve();
  const store = served.demo();
  const listing = store.folder(PATHS.paged).list({ pageSize: 500 });
  assert.ok(listing instanceof Listing);
  const folder = `${served.root}${PATHS.paged}`;
  const [count, warnings] = await captureWarnings(async () => {
    let count = 0;
    for await (const page of listing.pages()) {
      if (page.offset === 0) {
        const last = generatedName(PAGED_FILES - 1);
        await Deno.rename(`${folder}/${last}`, `${folder}/${last}.bak`);
      }
      count += page.entries.length;
    }
    return count;
  });
  assert.equal(count, PAGED_FILES + PAGED_FOLDERS);
  assert.equal(warnings.length, 1);
});

Deno.test("dataframes() reads the listed files into one frame with their paths", async () => {
  await using served = await serve();
  const cacheDir = await Deno.makeTempDir();
  try {
    const store = served.demo({ cacheDir });
    // The walk tree holds small text files named .csv, .tsv and .txt, one line each.
    const listing = store.folder(PATHS.tree).walk({ glob: "**/*.csv", type: "file" });
    const entries = await listing.toArray();
    const frame = await listing.dataframes({ hasHeader: false });
    assert.deepEqual(frame.columns, ["source", "column_1"]);
    assert.deepEqual(frame.getColumn("source").toArray(), entries.map((entry) => entry.path));
    assert.deepEqual(
      frame.getColumn("column_1").toArray(),
      entries.map((entry) => entry.path.slice(PATHS.tree.length + 1)),
    );
    await assert.rejects(listing.dataframes({ source: "" }), BadRequestError);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});
