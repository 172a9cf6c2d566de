/**
 * The shapes suite: tables whose shape, not size, used to cost (issue 33, item 3).
 *
 * 1. A 200 × 5,001-column numeric CSV → `dataframe()` (default options, dates detected, cold
 *    cache) against `pl.readCSV` of the local file: the date check must not visit numeric columns.
 *    Each side is timed from a warm start of its own kind: Polars has parsed a small CSV, tern has
 *    connected and read one small file of the same store (what a first read costs besides is the
 *    first-read suite's). Medians of 9 (3 with `--quick`). `deno task bench shapes-wide` runs
 *    this part alone.
 * 2. 10,000 CSV files of about 250 bytes → `list().dataframes()` (default cache) against a plain
 *    loop with the same concurrency: the listing, then `fetch` → `arrayBuffer()` → `pl.readCSV`
 *    for each file, the frames joined with `pl.concat`, no cache. Beside them, tern without its
 *    cache, and the bound of any cache that keeps one file per copy: the plain loop writing each
 *    body to a new file too. Then both again, over a link of 50 ms latency (1,000 files, 200
 *    with `--quick`): what the loopback gap costs where the store is remote.
 *
 * Every contender runs in its own process (bench/_data_worker.ts); the server is another.
 *
 * @module
 */

import { join } from "node:path";
import { type BenchRecord, record, type Suite, type SuiteContext, summarize } from "./_lib.ts";
import { Cleanup, tempDir } from "./_proc.ts";
import { load, rounds, type Sample, sample, startServer } from "./data.ts";

const FOLDER = "/iplant/home/shared/bench/shapes";
const WIDE_PATH = `${FOLDER}/wide.csv`;
const SMALL_PATH = `${FOLDER}/small`;
const WIDE_ROWS = 200;
const WIDE_COLUMNS = 5001;
/** Concurrency of both many-files contenders: the store's default. */
const CONCURRENCY = 4;
/** Latency of the realistic link the many-files contenders also meet, ms before each answer. */
const LINK_LATENCY_MS = 50;

interface Plan {
  files: number;
  reps: number;
  /** Rounds of the wide part, which is short and, at its margin, needs more. */
  wideReps: number;
  /** Whether to measure the many-files part. */
  many: boolean;
  /** Files read over the realistic link (each costs the latency, a quarter of it in all). */
  linkFiles: number;
}

function plan(ctx: SuiteContext, many = true): Plan {
  const p = ctx.quick
    ? { files: 1000, reps: 1, wideReps: 3, many, linkFiles: 200 }
    : { files: 10_000, reps: 3, wideReps: 9, many, linkFiles: 1000 };
  return ctx.reps === undefined ? p : { ...p, reps: ctx.reps, wideReps: ctx.reps };
}

/** Writes the fixtures under `cacheDir/shapes-<files>/` once, with a completion marker. */
async function ensureFixtures(ctx: SuiteContext, files: number): Promise<string> {
  const root = join(ctx.cacheDir, `shapes-${files}`);
  const marker = join(root, "complete.json");
  if (await Deno.stat(marker).then(() => true, () => false)) return root;
  ctx.log(`shapes: writing a ${WIDE_ROWS} × ${WIDE_COLUMNS} CSV and ${files} small files`);
  await Deno.remove(root, { recursive: true }).catch(() => {});
  await Deno.mkdir(join(root, SMALL_PATH), { recursive: true });
  const lines = [Array.from({ length: WIDE_COLUMNS }, (_, i) => `c${i}`).join(",")];
  for (let row = 0; row < WIDE_ROWS; row++) {
    lines.push(Array.from({ length: WIDE_COLUMNS }, (_, i) => ((row * 31 + i) % 1000) / 10).join());
  }
  await Deno.writeTextFile(join(root, WIDE_PATH), lines.join("\n") + "\n");
  for (let file = 0; file < files; file++) {
    ctx.signal.throwIfAborted();
    let text = "id,station,temp_c,count\n";
    for (let row = 0; text.length < 230; row++) {
      text += `${file * 100 + row},ST${(file + row) % 50},${((file * 7 + row * 13) % 400) / 10},` +
        `${(file * row) % 997}\n`;
    }
    const name = `part-${String(file).padStart(5, "0")}.csv`;
    await Deno.writeTextFile(join(root, SMALL_PATH, name), text);
  }
  await Deno.writeTextFile(marker, JSON.stringify({ files }));
  return root;
}

const median = (samples: Sample[], pick: (s: Sample) => number) =>
  summarize(samples.map(pick)).median;
const range = (samples: Sample[], pick: (s: Sample) => number): [number, number] => {
  const s = summarize(samples.map(pick));
  return [s.min, s.max];
};
const ms = (s: Sample) => s.ms;
const cpu = (s: Sample) => s.cpuMs;
const mainCpu = (s: Sample) => s.mainCpuMs;
/** The median CPU time of a contender's runs, for a note: on a shared machine it moves less. */
const medianCpu = (samples: Sample[]) => `${median(samples, cpu).toFixed(0)} ms`;

async function measure(ctx: SuiteContext, p: Plan): Promise<BenchRecord[]> {
  const root = await ensureFixtures(ctx, p.files);
  const cleanup = new Cleanup();
  ctx.cleanup.defer(() => cleanup.run());
  try {
    const server = await startServer(cleanup, ctx, root, []);
    const fresh = async (args: Record<string, string>) => {
      const cacheDir = await tempDir(cleanup, "tern-bench-cache-");
      try {
        return await sample(ctx, server, { url: server.url, ...args, "cache-dir": cacheDir });
      } finally {
        await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
      }
    };
    const same = (want: Record<string, number>) => (name: string, s: Sample) => {
      const [key] = Object.keys(want);
      const expected = want[key] ??= s.rows;
      if (s.rows !== expected) throw new Error(`${name} read ${s.rows} rows, not ${expected}`);
    };

    ctx.log(`shapes: wide CSV, ${p.wideReps} rounds`);
    const wideLoad = await load();
    const local = join(root, WIDE_PATH);
    const warm = `${SMALL_PATH}/part-00000.csv`;
    const wide = await rounds(
      ctx,
      {
        floor: () => sample(ctx, undefined, { mode: "floor", local }),
        tern: () => fresh({ mode: "tern", path: WIDE_PATH, dates: "true", warm }),
        ternNoDates: () => fresh({ mode: "tern", path: WIDE_PATH, warm }),
        ternCold: () => fresh({ mode: "tern", path: WIDE_PATH, dates: "true" }),
      },
      p.wideReps,
      1,
      same({ rows: WIDE_ROWS }),
    );
    const wideRecord = record({
      suite: "shapes",
      name: `${WIDE_ROWS} × ${WIDE_COLUMNS.toLocaleString("en-US")}-column numeric CSV → ` +
        "dataframe(), vs the floor",
      value: median(wide.tern, ms),
      baseline: median(wide.floor, ms),
      unit: "ms",
      against: "pl.readCSV of the local file",
      better: "lower",
      target: 1.5,
      reps: p.wideReps,
      valueRange: range(wide.tern, ms),
      baselineRange: range(wide.floor, ms),
      note: `dataframe() with default options (dates detected), cold cache, in a fresh ` +
        `process timed from a warm Polars and a tern that has read one small file. CPU ` +
        `${median(wide.tern, cpu).toFixed(0)} / ${median(wide.floor, cpu).toFixed(0)} ms, ` +
        `of the JavaScript thread ${median(wide.tern, mainCpu).toFixed(0)} / ` +
        `${median(wide.floor, mainCpu).toFixed(0)} ms. ` +
        `With tryParseDates: false: ${median(wide.ternNoDates, ms).toFixed(0)} ms. Without ` +
        `the small read first (the first read's own costs included): ` +
        `${median(wide.ternCold, ms).toFixed(0)} ms. Load average ${wideLoad} before, ` +
        `${await load()} after.`,
    });
    if (!p.many) return [wideRecord];

    ctx.log(`shapes: ${p.files} small files, ${p.reps} rounds`);
    const manyLoad = await load();
    const many = await rounds(
      ctx,
      {
        tern: () => fresh({ mode: "many", path: SMALL_PATH, concurrency: String(CONCURRENCY) }),
        ternNoCache: () =>
          sample(ctx, server, {
            mode: "many",
            url: server.url,
            path: SMALL_PATH,
            concurrency: String(CONCURRENCY),
            "cache-dir": "none",
          }),
        plain: () =>
          sample(ctx, server, {
            mode: "many-plain",
            url: server.url,
            path: SMALL_PATH,
            concurrency: String(CONCURRENCY),
          }),
        plainDisk: () =>
          fresh({ mode: "many-plain-disk", path: SMALL_PATH, concurrency: String(CONCURRENCY) }),
      },
      p.reps,
      0,
      same({}),
    );
    const rate = (s: Sample) => p.files / (s.ms / 1000);
    const files = p.files.toLocaleString("en-US");

    // The same read over a realistic link: what the loopback gap costs a user.
    ctx.log(`shapes: ${p.linkFiles} small files over a ${LINK_LATENCY_MS} ms link`);
    const linkRoot = await ensureFixtures(ctx, p.linkFiles);
    const linkServer = await startServer(cleanup, ctx, linkRoot, [
      "--latency-ms",
      String(LINK_LATENCY_MS),
    ]);
    const overLink = async (mode: string) => {
      const cacheDir = await tempDir(cleanup, "tern-bench-cache-");
      try {
        return await sample(ctx, linkServer, {
          mode,
          url: linkServer.url,
          path: SMALL_PATH,
          concurrency: String(CONCURRENCY),
          "cache-dir": cacheDir,
        });
      } finally {
        await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
      }
    };
    const link = await rounds(
      ctx,
      { tern: () => overLink("many"), plain: () => overLink("many-plain") },
      p.reps,
      0,
      same({}),
    );
    const linkRate = (s: Sample) => p.linkFiles / (s.ms / 1000);
    return [
      wideRecord,
      record({
        suite: "shapes",
        name: `${files} CSV files of 250 bytes → list().dataframes(), vs a plain loop`,
        value: median(many.tern, rate),
        baseline: median(many.plain, rate),
        unit: "files/s",
        against: `the listing, then ${CONCURRENCY} loops of fetch → pl.readCSV, no cache`,
        better: "higher",
        target: 0.8,
        reps: p.reps,
        valueRange: range(many.tern, rate),
        baselineRange: range(many.plain, rate),
        note: `Concurrency ${CONCURRENCY} on both sides; tern with its default cache (an empty ` +
          `folder each run). CPU (user + system) medians: tern ${
            medianCpu(many.tern)
          }, without its ` +
          `cache ${medianCpu(many.ternNoCache)}, the plain loop ${
            medianCpu(many.plain)
          }, writing files ` +
          `${medianCpu(many.plainDisk)}. Load average ${manyLoad} before, ${await load()} after.`,
      }),
      record({
        suite: "shapes",
        name: `the same without the cache (cacheDir: false)`,
        value: median(many.ternNoCache, rate),
        baseline: median(many.plain, rate),
        unit: "files/s",
        against: "the plain loop, as above",
        better: "higher",
        reps: p.reps,
        valueRange: range(many.ternNoCache, rate),
        baselineRange: range(many.plain, rate),
      }),
      record({
        suite: "shapes",
        name: `bound: the plain loop writing each file to disk too`,
        value: median(many.plainDisk, rate),
        baseline: median(many.plain, rate),
        unit: "files/s",
        against: "the plain loop, as above",
        better: "higher",
        reps: p.reps,
        valueRange: range(many.plainDisk, rate),
        baselineRange: range(many.plain, rate),
        note: "One Deno.writeFile of each body to a new file in an empty folder: what any " +
          "cache keeping one file per copy adds at the least.",
      }),
      record({
        suite: "shapes",
        name: `${p.linkFiles.toLocaleString("en-US")} files of 250 bytes over a ` +
          `${LINK_LATENCY_MS} ms link, vs the plain loop`,
        value: median(link.tern, linkRate),
        baseline: median(link.plain, linkRate),
        unit: "files/s",
        against: "the plain loop over the same link",
        better: "higher",
        reps: p.reps,
        valueRange: range(link.tern, linkRate),
        baselineRange: range(link.plain, linkRate),
        note: `The server waits ${LINK_LATENCY_MS} ms before each answer (the listing's ` +
          `included); tern with its default cache, concurrency ${CONCURRENCY} on both sides.`,
      }),
    ];
  } finally {
    await cleanup.run();
  }
}

/**
 * The shapes suite, for bench/main.ts.
 *
 * @example
 * ```ts ignore
 * import { shapesSuite } from "./shapes.ts";
 * import { Cleanup } from "./_proc.ts";
 *
 * const cleanup = new Cleanup();
 * const records = await shapesSuite.run({
 *   quick: true,
 *   repoRoot: Deno.cwd(),
 *   cacheDir: "bench/out/cache",
 *   cleanup,
 *   signal: new AbortController().signal,
 *   log: console.error,
 * });
 * await cleanup.run();
 * ```
 */
export const shapesSuite: Suite = {
  name: "shapes",
  description: "a 200 × 5,001-column numeric CSV vs local pl.readCSV; 10,000 files of 250 " +
    "bytes vs a plain concurrent fetch + pl.readCSV loop",
  run: async (ctx) => await measure(ctx, plan(ctx)),
};

/**
 * The wide-table part of the shapes suite alone, for bench/main.ts (`deno task bench
 * shapes-wide`); a full run measures it within {@linkcode shapesSuite}.
 *
 * @example
 * ```ts
 * import { shapesSuite, shapesWideSuite } from "./shapes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.notEqual(shapesWideSuite.name, shapesSuite.name);
 * ```
 */
export const shapesWideSuite: Suite = {
  name: "shapes-wide",
  description: "the shapes suite's 200 × 5,001-column CSV alone",
  run: async (ctx) => await measure(ctx, plan(ctx, false)),
};
