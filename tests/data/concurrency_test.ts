/**
 * Concurrent reads never wait on themselves (issue 29): any number of reads of any mix of
 * handles and read kinds, at any concurrency, with or without a cache, settle with the true
 * rows. A watchdog turns a hang into a failure naming the mix; it asserts no speed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import fc from "fast-check";
import pl, { type DataFrame } from "../../polars.ts";
import type { Entry, Store } from "../../mod.ts";
import { MANY_FILES_PATH } from "../../lib/sample/constants.ts";
import { withDeadline } from "../reliability/_fixtures.ts";
import { DATA, dataStore, generatedCsv } from "./_store.ts";

/** Far above what any mix takes on a busy machine: it only turns a hang into a failure. */
const DEADLINE_MS = 60_000;

/** Frames equal in columns, types and values (nulls equal). */
function assertFrameEqual(actual: DataFrame, expected: DataFrame, what: string) {
  assert.deepEqual(actual.columns, expected.columns, `${what}: columns`);
  assert.deepEqual(actual.dtypes.map(String), expected.dtypes.map(String), `${what}: types`);
  assert.ok(actual.frameEqual(expected, true), `${what}: values differ`);
}

Deno.test("the reported case: 8 distinct sample CSVs by path at the default concurrency, 16 at concurrency 2, all settle", async () => {
  await using store = await dataStore("sample");
  const curated = "/iplant/home/shared/commons_repo/curated";
  const eight = [
    `${curated}/Immer_BarleyVarietyTrials_Jun2018/barley.csv`,
    `${curated}/NOAA_SeattleWeather_Daily_2016/seattle-weather.csv`,
    `${curated}/Gapminder_LifeExpectancyFertility_2019/gapminder.csv`,
    `${curated}/NOAA_SeattleWeather_Daily_Jun2019/weather.csv`,
    `${curated}/Carberry_WindVectorSimulation_2022/wind_vectors.csv`,
    `${curated}/Keeling_MaunaLoaCO2_Monthly_2021/co2_mlo_monthly.csv`,
    `${curated}/BTS_FlightDelays_OnTime_2021/reference/airports.csv`,
    "/iplant/home/shared/tern_samples/formats/penguins.csv",
  ];
  const sixteen = Array.from(
    { length: 16 },
    (_, i) => `${MANY_FILES_PATH}/part-${String(i + 1).padStart(5, "0")}.csv`,
  );
  for (const [paths, concurrency] of [[eight, 4], [sixteen, 2]] as const) {
    // Each case starts with an empty cache folder of its own.
    const cacheDir = `${store.cacheDir}/${concurrency}`;
    const tern = store.connect({ cacheDir, progress: false, concurrency });
    const frames = await withDeadline(
      DEADLINE_MS,
      `${paths.length} reads at concurrency ${concurrency}`,
      (signal) => Promise.all(paths.map((path) => tern.file(path).dataframe({ signal }))),
    );
    paths.forEach((path, i) => {
      const truth = pl.readCSV(`${store.root}${path}`);
      assert.deepEqual(frames[i].shape, truth.shape, path);
      assert.deepEqual(frames[i].columns, truth.columns, path);
    });
    assert.equal(tern.stats.inFlight, 0, "every request slot was given back");
  }
});

/** A generated CSV of the test store, with what Polars reads from its text alone. */
interface Truth {
  folder: string;
  name: string;
  path: string;
  text: string;
  frame: DataFrame;
}

const TABLES = `${DATA}/tables`;
/**
 * More files than the first request of a file's stat covers (1,000): a stat of one of the last
 * takes several requests, each queued on the limiter on its own.
 */
const DEEP = `${DATA}/deep`;
const DEEP_FILES = 1_010;

/** The `i`-th file of {@linkcode DEEP}: its name and text. */
function deepFile(i: number): [string, string] {
  return [`d${String(i).padStart(4, "0")}.csv`, generatedCsv(i % 9 + 1)];
}

function truthOf(folder: string, name: string, text: string): Truth {
  // The ISO dates of `day` arrive as dates (tryParseDates, on by default).
  const frame = pl.readCSV(Buffer.from(text), { dtypes: { day: pl.Date } });
  return { folder, name, path: `${folder}/${name}`, text, frame };
}

/** Tables of distinct sizes, one larger than any read-ahead, and the last files of a deep folder. */
function tables(): Truth[] {
  const rows = [1, 3, 20, 150, 1_200, 8_000];
  const shallow = rows.map((n) => truthOf(TABLES, `t${n}.csv`, generatedCsv(n)));
  const deep = [DEEP_FILES - 2, DEEP_FILES - 1].map((i) => truthOf(DEEP, ...deepFile(i)));
  return [...shallow, ...deep];
}

const HANDLES = ["path", "entry", "child", "dataset"] as const;
const KINDS = [
  "dataframe",
  "uncached",
  "head",
  "batches",
  "bytes",
  "text",
  "stream",
  "cachedPath",
  "dataframes",
] as const;

interface Read {
  file: number;
  handle: typeof HANDLES[number];
  kind: typeof KINDS[number];
  /** Rows of a head read; a hundred times one more, of each batch. */
  rows: number;
}

interface Mix {
  concurrency: number;
  cache: boolean;
  /** Every read reads the file `one` picks, rather than the one its own `file` picks. */
  same: boolean;
  one: number;
  reads: Read[];
}

const mixes: fc.Arbitrary<Mix> = fc.record({
  concurrency: fc.integer({ min: 1, max: 8 }),
  cache: fc.boolean(),
  same: fc.boolean(),
  one: fc.nat(),
  reads: fc.array(
    fc.record({
      file: fc.nat(),
      handle: fc.constantFrom(...HANDLES),
      kind: fc.constantFrom(...KINDS),
      rows: fc.integer({ min: 0, max: 40 }),
    }),
    { minLength: 1, maxLength: 64, size: "max" },
  ),
});

Deno.test("property: any mix of concurrent reads (1-64, concurrency 1-8, path or entry handles, cache or none) settles with the true rows", async () => {
  const files = tables();
  const tree: Record<string, string> = {};
  for (let i = 0; i < DEEP_FILES; i++) {
    const [name, text] = deepFile(i);
    tree[`${DEEP}/${name}`] = text;
  }
  for (const file of files) tree[file.path] = file.text;
  await using store = await dataStore(tree);
  const entries = new Map<string, Entry>();
  const lister = store.connect({ cacheDir: false, progress: false });
  for (const folder of [TABLES, DEEP]) {
    for await (const entry of lister.folder(folder).list()) entries.set(entry.path, entry);
  }
  const tablesRows = files.filter((file) => file.folder === TABLES)
    .reduce((sum, file) => sum + file.frame.height, 0);

  let run = 0;
  await fc.assert(
    fc.asyncProperty(mixes, async (mix) => {
      const cacheDir = mix.cache ? `${store.cacheDir}/${run++}` : false;
      const tern = store.connect({ cacheDir, concurrency: mix.concurrency, progress: false });
      const checks = await withDeadline(
        DEADLINE_MS,
        `${mix.reads.length} reads at concurrency ${mix.concurrency}`,
        (signal) =>
          Promise.all(mix.reads.map((read) => {
            const truth = files[(mix.same ? mix.one : read.file) % files.length];
            return perform(tern, read, truth, entries.get(truth.path)!, mix.cache, signal);
          })),
      );
      checks.forEach((check, i) => check(`read ${i} (${mix.reads[i].kind})`, tablesRows));
      assert.equal(tern.stats.inFlight, 0, "every request slot was given back");
    }),
    { numRuns: 12, endOnFailure: true },
  );
});

/** Runs one read; returns the check of its result against the truth. */
async function perform(
  tern: Store,
  read: Read,
  truth: Truth,
  entry: Entry,
  cached: boolean,
  signal: AbortSignal,
): Promise<(what: string, tablesRows: number) => void> {
  const file = read.handle === "path"
    ? tern.file(truth.path)
    : read.handle === "entry"
    ? tern.file(entry)
    : read.handle === "child"
    ? tern.folder(truth.folder).file(truth.name)
    : tern.dataset(truth.folder).file(truth.name);
  const bytes = new TextEncoder().encode(truth.text);
  switch (read.kind) {
    case "dataframe":
    case "uncached": {
      const frame = await file.dataframe({ signal, cache: read.kind === "dataframe" });
      return (what) => assertFrameEqual(frame, truth.frame, what);
    }
    case "head": {
      const frame = await file.head(read.rows, { signal });
      return (what) => assertFrameEqual(frame, truth.frame.head(read.rows), what);
    }
    case "batches": {
      const batches: DataFrame[] = [];
      const rows = 100 * (read.rows + 1);
      for await (const batch of file.batches({ rows, signal })) batches.push(batch);
      return (what) => {
        assert.ok(batches.every((batch) => batch.height <= rows), what);
        assertFrameEqual(pl.concat(batches), truth.frame, what);
      };
    }
    case "bytes": {
      const got = await file.bytes({ signal });
      return (what) => assert.deepEqual(got, bytes, what);
    }
    case "text": {
      const got = await file.text({ signal });
      return (what) => assert.equal(got, truth.text, what);
    }
    case "stream": {
      const got = new Uint8Array(await new Response(await file.stream({ signal })).arrayBuffer());
      return (what) => assert.deepEqual(got, bytes, what);
    }
    case "cachedPath": {
      if (!cached) {
        await assert.rejects(file.cachedPath({ signal }), /no local cache/);
        return () => {};
      }
      const got = await Deno.readFile(await file.cachedPath({ signal }));
      return (what) => assert.deepEqual(got, bytes, what);
    }
    case "dataframes": {
      const frame = await tern.folder(TABLES).list().dataframes({ signal });
      return (what, tablesRows) => {
        assert.equal(frame.height, tablesRows, what);
        assert.equal(frame.columns[0], "source", what);
      };
    }
  }
}
