import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { CacheMissError } from "../../lib/cache/errors.ts";
import { BadRequestError, connect, FileChangedError, ParseError } from "../../mod.ts";
import type { ReadGate } from "../../lib/data/context.ts";
import { ReadEvents } from "../../lib/data/read_events.ts";
import type { FileVersion } from "../../lib/client/file_version.ts";
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

/** A Parquet file of `years` × `perYear` rows, sorted by an `Int32` year column from 2015. */
function yearsParquet(years: number, perYear: number): Uint8Array {
  const rows = years * perYear;
  const year = Array.from({ length: rows }, (_, i) => 2015 + Math.floor(i / perYear));
  // Values that barely compress, so that the bytes a query reads are mostly its row groups'.
  const value = Array.from({ length: rows }, (_, i) => Math.sin(i) * 1e6);
  return pl.DataFrame({ year: pl.Series("year", year, pl.Int32), value }).writeParquet();
}

Deno.test("scan: a filter with a plain number prunes an integer column's row groups as a typed literal does", async () => {
  // Older code cast the column to Float64 for `pl.col("year").eq(2024)` and fetched every row
  // group; the typed literal fetched about a tenth of the file.
  const path = "/iplant/home/shared/data/years.parquet";
  const perYear = 200_000;
  await using served = await dataStore({ [path]: yearsParquet(10, perYear) });
  const file = served.connect().file(path);
  const size = (await file.stat()).size;
  const lazy = await file.scan();
  const sentBy = async (predicate: ReturnType<typeof pl.col>) => {
    const before = served.server.stats().bytesSent;
    const rows = await lazy.filter(predicate).collect();
    return { rows, sent: served.server.stats().bytesSent - before };
  };
  const typed = await sentBy(pl.col("year").eq(pl.lit(2024).cast(pl.Int32)));
  assert.equal(typed.rows.height, perYear);
  assert.ok(typed.sent < size / 3, `the typed literal sent ${typed.sent} of ${size} bytes`);
  const cases = [
    { predicate: pl.col("year").eq(2024), years: [2024] },
    // The column on either side, and every comparison.
    { predicate: pl.lit(2016).gtEq(pl.col("year")), years: [2015, 2016] },
    { predicate: pl.col("year").gt(2023).and(pl.col("year").ltEq(2024)), years: [2024] },
  ];
  for (const { predicate, years } of cases) {
    const plain = await sentBy(predicate);
    const shown = `${predicate} sent ${plain.sent} of ${size} bytes`;
    assert.ok(plain.sent <= typed.sent * years.length * 1.2, shown);
    assert.deepEqual(plain.rows.getColumn("year").unique().sort().toArray(), years);
    assert.equal(plain.rows.height, perYear * years.length);
  }
  sameFrame(await sentBy(pl.col("year").eq(2024)).then(({ rows }) => rows), typed.rows);
  // A number an Int32 does not hold is compared as it was written, with the same rows.
  const half = await sentBy(pl.col("year").lt(2015.5));
  assert.deepEqual(half.rows.getColumn("year").unique().toArray(), [2015]);
  assert.equal(half.rows.height, perYear);
  assert.equal((await sentBy(pl.col("year").neq(2024))).rows.height, perYear * 9);
});

Deno.test("scan: a server that ignores Range gives the right frame through the cache", async () => {
  await using served = await dataStore({ [PUBLIC]: PENGUINS });
  await using proxy = rangeIgnoringProxy(served.url);
  await using store = connect({ url: proxy.url, anonymous: true, cacheDir: served.cacheDir });
  const file = store.file(PUBLIC);
  const source = { path: PUBLIC, stat: (signal?: AbortSignal) => file.stat({ signal }) };
  const { frame, route } = await scanFile(store[STORE_CONTEXT], source);
  assert.equal(route.url, undefined);
  assert.match(route.reason ?? "", /byte ranges/);
  assert.ok(proxy.dropped >= 1);
  sameFrame(await frame.collect(), pl.readParquet(PENGUINS_PATH));
  sameFrame(await (await file.scan()).collect(), pl.readParquet(PENGUINS_PATH));
});

Deno.test("scan: a file that changed since it was listed is a FileChangedError naming both versions", async () => {
  await using served = await dataStore({ [PUBLIC]: PENGUINS });
  const store = served.connect();
  const file = store.file(PUBLIC);
  const disk = `${served.root}${PUBLIC}`;
  // Versions renamed in after the listing: the first range answer names another size (a larger
  // file answers the range, a much smaller one answers 416).
  for (
    const next of [new Uint8Array([...PENGUINS, ...new Uint8Array(100)]), PENGUINS.slice(0, 9)]
  ) {
    await Deno.writeFile(disk, PENGUINS);
    const listed = await file.stat({ refresh: true });
    await Deno.writeFile(`${disk}.new`, next);
    await Deno.rename(`${disk}.new`, disk);
    const source = { path: PUBLIC, entry: listed, stat: () => file.stat({ refresh: true }) };
    await assert.rejects(() => scanFile(store[STORE_CONTEXT], source), (error: unknown) => {
      assert.ok(error instanceof FileChangedError, String(error));
      assert.equal(error.expected.size, PENGUINS.length);
      assert.equal(error.actual?.size, next.length);
      assert.match(error.message, new RegExp(`${JSON.stringify(PUBLIC)} changed on the server`));
      return true;
    });
  }
});

Deno.test("scan: a private file has no anonymous URL and is scanned from the cache", async () => {
  await using served = await dataStore({
    [PRIVATE]: PENGUINS,
    "/.terrain/users.json": usersFile(DEMO, ALICE, 300),
  });
  await using store = connect({ url: served.url, token: DEMO.token, cacheDir: served.cacheDir });
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

Deno.test("scan: text without a cache, or over the cache's cap, is read whole from the network as dataframe() reads it, its events those of one scan", async () => {
  const csv = generatedCsv(200);
  await using served = await dataStore({
    "/iplant/home/shared/data/t.csv": csv,
    "/iplant/home/shared/data/bad.csv": "a,b\n1,2\n3,4,5\n",
  });
  const kept = served.connect({ cacheDir: served.cacheDir, cacheMaxBytes: 100 });
  for (const store of [served.connect({ cacheDir: false }), kept]) {
    const file = store.file("/iplant/home/shared/data/t.csv");
    const seen: string[] = [];
    const events = new ReadEvents();
    events.subscribe((event) =>
      void (event.kind !== "bytes" && seen.push(`${event.kind} ${event.operation}`))
    );
    const context = { ...store[STORE_CONTEXT], events };
    const source = { path: file.path!, stat: (signal?: AbortSignal) => file.stat({ signal }) };
    const { frame } = await scanFile(context, source);
    sameFrame(await frame.collect(), await file.dataframe());
    assert.deepEqual(seen, ["pinned scan", "done scan"]);
    // A parse that fails ends its progress with a failed done, as dataframe()'s does.
    const ends: (boolean | undefined)[] = [];
    const onProgress = (event: { kind: string; ok?: boolean }) =>
      void (event.kind === "done" && ends.push(event.ok));
    const bad = store.file("/iplant/home/shared/data/bad.csv");
    await assert.rejects(bad.scan({ onProgress }), ParseError);
    assert.deepEqual(ends, [false]);
  }
  // The one copy kept is the small bad.csv's: t.csv is over the cap.
  assert.equal((await kept.cache.info()).height, 1);
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

Deno.test("scan: listing.scan() of several files reports one progress that ends once, as listing.dataframes() does", async () => {
  await using served = await dataStore({
    "/iplant/home/shared/data/t/a.csv": "x\n1\n",
    "/iplant/home/shared/data/t/b.csv": "x\n2\n",
    "/iplant/home/shared/data/t/bad.csv": "x\n1,2\n",
  });
  const store = served.connect({ progress: false });
  const folder = store.folder("/iplant/home/shared/data/t");
  const heard = async (glob: string) => {
    const kinds: string[] = [];
    const onProgress = (event: { kind: string; ok?: boolean }) =>
      void (event.kind !== "bytes" &&
        kinds.push(`${event.kind}${event.ok === false ? " failed" : ""}`));
    await folder.list({ glob }).scan({ onProgress }).catch(() => {});
    return kinds;
  };
  assert.deepEqual(await heard("[ab].csv"), ["start", "file", "file", "done"]);
  // A file that fails ends it, failed, once (the others may or may not have been read by then).
  const failed = await heard("*.csv");
  assert.deepEqual([failed[0], failed.at(-1)], ["start", "done failed"]);
  assert.equal(failed.filter((kind) => kind.startsWith("done")).length, 1);
});

Deno.test("scan: listing.scan() prunes with a plain number on an integer column all its files share", async () => {
  const years = yearsParquet(10, 100_000);
  await using served = await dataStore({
    "/iplant/home/shared/data/a/years.parquet": years,
    "/iplant/home/shared/data/b/years.parquet": years,
  });
  const lazy = await served.connect().folder("/iplant/home/shared/data").walk({
    glob: "**/*.parquet",
  })
    .scan();
  const before = served.server.stats().bytesSent;
  const rows = await lazy.filter(pl.col("year").eq(2024)).collect();
  const sent = served.server.stats().bytesSent - before;
  assert.equal(rows.height, 200_000);
  assert.ok(sent < years.byteLength * 2 / 3, `sent ${sent} of ${years.byteLength * 2} bytes`);
});

/** What a scenario's two collect() calls gave: a frame (old, new or neither) or an error. */
type Outcome = { frame?: "old" | "new" | "neither"; error?: string; message?: string };

/** The scenarios of tests/data/_scan_change.ts, in the order its one run takes them. */
const SCENARIOS = [
  "same-size",
  "smaller",
  "lie-long",
  "lie-short",
  "lie-label",
  "lie-chunked",
  "lie-cut",
  "lie-long-early",
];

/** How the one child process running every scenario ended, and what each printed. */
let scenarioRun:
  | Promise<{ code: number; stderr: string; outcomes: Map<string, unknown> }>
  | undefined;

/**
 * A scenario's outcomes from tests/data/_scan_change.ts, run in a child process (older code
 * aborted the process). One child runs all of them, started by the first test that asks and
 * awaited to its end there: each scenario still has a store, a server and a cache of its own,
 * but Polars and tern load once. Each scenario's test requires the child to have printed its
 * outcome and to have ended with status 0, as when each ran in a child of its own: an abort
 * in any scenario fails them all, naming where the child stopped.
 */
async function scanChange(scenario: string): Promise<{ first: Outcome; again: Outcome }> {
  scenarioRun ??= (async () => {
    const script = new URL("./_scan_change.ts", import.meta.url).pathname;
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", script, ...SCENARIOS],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const outcomes = new Map<string, unknown>();
    for (const line of new TextDecoder().decode(stdout).split("\n")) {
      if (!line.startsWith('{"scenario":')) continue;
      const printed = JSON.parse(line);
      outcomes.set(printed.scenario, printed);
    }
    return { code, stderr: new TextDecoder().decode(stderr), outcomes };
  })();
  const { code, stderr, outcomes } = await scenarioRun;
  const printed = outcomes.get(scenario) as { first: Outcome; again: Outcome } | undefined;
  const ended = `exit ${code} after ${[...outcomes.keys()].join(", ") || "no scenario"}`;
  assert.ok(printed !== undefined && code === 0, `${scenario}: ${ended}\n${stderr}`);
  return printed;
}

const VALUES = "/iplant/home/shared/data/values.parquet";

Deno.test("scan: a same-size version renamed in before collect() is refused, never mixed in", async () => {
  // Older code returned rows of the new bytes read at the old footer's offsets.
  const { first, again } = await scanChange("same-size");
  for (const outcome of [first, again]) {
    assert.equal(outcome.error, "FileChangedError", JSON.stringify(outcome));
    assert.ok(outcome.message!.includes(JSON.stringify(VALUES)));
    // Both versions named: the pinned one with its ETag, the new one as the store lists it now.
    const versions = /was 240,478 bytes, modified (\S+), ETag .*now 240,478 bytes, modified (\S+)\./
      .exec(outcome.message!);
    assert.ok(versions, outcome.message);
    assert.notEqual(versions[1], versions[2]);
  }
});

Deno.test("scan: a smaller version renamed in before collect() is a FileChangedError, not an abort", async () => {
  // Older code: a Polars panic, exit 134.
  const { first, again } = await scanChange("smaller");
  for (const outcome of [first, again]) {
    assert.equal(outcome.error, "FileChangedError", JSON.stringify(outcome));
    assert.match(outcome.message!, /was 240,478 bytes, .*now 160,478 bytes/);
  }
});

Deno.test("scan: a server lying about ranges after the scan gives an IntegrityError, not an abort", async () => {
  // Older code: a longer body than asked aborted the process (exit 134).
  const expected: Record<string, RegExp> = {
    "lie-long": /Content-Length "\d+" \(expected \d+\)/,
    "lie-short": /Content-Length "\d+" \(expected \d+\)/,
    "lie-label": /Content-Range "bytes \d+-\d+\/240478" \(expected "bytes \d+-\d+\/240478"\)/,
    "lie-chunked": /sent more than the [\d,]+ bytes of a range of "\/iplant/,
    // Session 7 passed a body with a declared length through untouched: this one then reached
    // the caller as Polars' untyped "request or response body error".
    "lie-cut": /sent [\d,]+ of the [\d,]+ bytes of a range of "\/iplant/,
  };
  for (const [scenario, message] of Object.entries(expected)) {
    const { first, again } = await scanChange(scenario);
    for (const outcome of [first, again]) {
      assert.equal(outcome.error, "IntegrityError", `${scenario}: ${JSON.stringify(outcome)}`);
      assert.match(outcome.message!, message, scenario);
    }
  }
});

Deno.test("scan: a server lying about ranges from the start is read through the cache", async () => {
  const { first, again } = await scanChange("lie-long-early");
  assert.deepEqual(first, { frame: "old" });
  assert.deepEqual(again, { frame: "old" });
});

Deno.test("scan: a remote scan pins the server's ETag, passes the store's gate, refuses collectSync", async () => {
  await using served = await dataStore({ [PUBLIC]: PENGUINS });
  const store = served.connect();
  const file = store.file(PUBLIC);
  const seen: string[] = [];
  const gate: ReadGate = {
    admit: (version, operation) => {
      seen.push(`admit ${operation} ${version.size} ${version.etag}`);
      return version;
    },
  };
  const events = new ReadEvents();
  events.subscribe((event) => {
    if (event.kind === "done") seen.push(`record ${event.operation} ${event.version.etag}`);
  });
  const context = { ...store[STORE_CONTEXT], gate, events };
  const source = { path: PUBLIC, stat: (signal?: AbortSignal) => file.stat({ signal }) };
  const { frame, route } = await scanFile(context, source);
  assert.match(route.url ?? "", /\/dav-anon\//);
  const etag = (await fetch(route.url!, { method: "HEAD" })).headers.get("etag");
  assert.deepEqual(seen, [`admit scan ${PENGUINS.length} ${etag}`, `record scan ${etag}`]);
  assert.throws(() => frame.collectSync(), BadRequestError);
  sameFrame(
    await frame.select("Species").collect(),
    pl.readParquet(PENGUINS_PATH).select("Species"),
  );
  // A lock pinning another version sends the scan to the cache: only a cached copy of that
  // version could serve it, and there is none.
  const locked = { ...context, gate: { ...gate, admit: (v: FileVersion) => ({ ...v, size: 1 }) } };
  await assert.rejects(() => scanFile(locked, source), (error: unknown) => {
    assert.ok(error instanceof CacheMissError);
    assert.match(error.message, /pinned to another version/);
    return true;
  });
});

Deno.test("scan: a remote scan takes dataframe()'s columns and dtypes lazily, stays remote, and filters as dataframe()'s table does", async () => {
  await using served = await dataStore({ [PUBLIC]: PENGUINS });
  const store = served.connect();
  const file = store.file(PUBLIC);
  const source = { path: PUBLIC, stat: (signal?: AbortSignal) => file.stat({ signal }) };
  const options = {
    columns: ["Species", "Body Mass (g)", "Flipper Length (mm)"],
    dtypes: { "Body Mass (g)": pl.Float32 },
    sep: ";", // about text: ignored for Parquet, as dataframe() ignores it
  };
  const { frame, route } = await scanFile(store[STORE_CONTEXT], source, options);
  assert.match(route.url ?? "", /\/dav-anon\//);
  const scanned = await frame.collect();
  // Nothing went into the cache: the file was read in place.
  assert.equal((await store.cache.info()).height, 0);
  const expected = await file.dataframe(options);
  assert.deepEqual(expected.dtypes.map(String), [
    "DataType(String)",
    "DataType(Float32)",
    "DataType(Int64)",
  ]);
  sameFrame(scanned, expected);
  const query = (lazy: typeof frame) => lazy.filter(pl.col("Flipper Length (mm)").gt(200));
  sameFrame(await query(frame).collect(), await query(expected.lazy()).collect());
});

Deno.test("scan: each collect() of a remote scan reports the bytes it reads", async () => {
  await using served = await dataStore("sample");
  const events: string[] = [];
  let bytes = 0;
  const lazy = await served.connect().file(SAMPLE_CASES.parquetLarge).scan({
    progress: false,
    onProgress: (event) => {
      events.push(event.kind);
      bytes = event.bytes;
    },
  });
  assert.deepEqual(events, []);
  const before = served.server.stats().bytesSent;
  await lazy.select("origin").head(1000).collect();
  assert.equal(events[0], "start");
  assert.equal(events.at(-1), "done");
  // Exactly the bytes the server sent for the ranges the query read.
  assert.ok(bytes > 0);
  assert.equal(bytes, served.server.stats().bytesSent - before);
});
