/**
 * The first-read suite: a researcher's first read, timed as a whole process, as issue 22 asks.
 * Each contender is a fresh `deno run` (module code caches warm, as on any second run of a
 * script), timed from spawn to exit, so importing, connecting, loading Polars and anything that
 * keeps the process alive after the frame all count:
 *
 * 1. a small CSV (the sample store's `penguins.csv`, 13.5 kB) through tern
 *    (`bench/_first_read_tern.ts`: import `mod.ts`, `connect`, `file(path).dataframe()`, with an
 *    empty cache folder each run) against `fetch` + nodejs-polars (`bench/_first_read_naive.ts`:
 *    import nodejs-polars, `fetch` → `arrayBuffer` → `pl.readCSV`); target ≤ 1.25×;
 * 2. the 160 MB CSV of the data suite, the same two scripts; target ≤ 1.1×; and tern keeping its
 *    `date` column as text (`tryParseDates: false`), the naive path's frame;
 * 3. importing `mod.ts` alone against importing nodejs-polars alone (context, no target);
 * 4. for both files, the simpler path (tern without the cache) and the bound (the naive script
 *    after importing tern's `mod.ts`: no tern read can take less while tern loads its modules).
 *
 * Both servers (the sample store, the data suite's CSV) are other processes, started once.
 * Contenders are interleaved, the order rotating each round.
 *
 * @module
 */

import { join } from "node:path";
import { ensureSampleStore } from "../lib/sample/mod.ts";
import { SAMPLE_CASES } from "../lib/sample/catalog.ts";
import { type BenchRecord, record, type Suite, type SuiteContext, summarize } from "./_lib.ts";
import { Cleanup, tempDir } from "./_proc.ts";
import { CSV_PATH, ensureCsv, load, rounds, startServer } from "./data.ts";

const TERN = "bench/_first_read_tern.ts";
const NAIVE = "bench/_first_read_naive.ts";
/** The small CSV of measurement 1. */
const SMALL_PATH = `${SAMPLE_CASES.formats}/penguins.csv`;

/** One fresh process: spawn to its first stdout line (the frame) and to its exit, ms. */
interface Run {
  /** Spawn to exit. */
  ms: number;
  /** Spawn to the line the script prints once its frame is made (0 when it prints none). */
  frameMs: number;
  rows: number;
}

/** Runs `deno run -A script ...args` from the repository root and times it. */
async function run(ctx: SuiteContext, script: string, args: string[]): Promise<Run> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ctx.repoRoot,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let frameMs = 0;
  let stdout = "";
  const reading = (async () => {
    for await (const text of child.stdout.pipeThrough(new TextDecoderStream())) {
      if (frameMs === 0 && text.includes("\n")) frameMs = performance.now() - started;
      stdout += text;
    }
  })();
  const stderr = new Response(child.stderr).text();
  const status = await child.status;
  const ms = performance.now() - started;
  await reading;
  if (!status.success) {
    throw new Error(`${script} ${args.join(" ")} exited with ${status.code}: ${await stderr}`);
  }
  await stderr;
  const line = stdout.trim();
  return { ms, frameMs, rows: line === "" ? 0 : JSON.parse(line).rows };
}

/** A tern read with an empty cache folder of its own, removed after the run. */
async function ternRead(
  ctx: SuiteContext,
  cleanup: Cleanup,
  url: string,
  path: string,
  dates: "dates" | "text" = "dates",
) {
  const cacheDir = await tempDir(cleanup, "tern-bench-first-");
  try {
    return await run(ctx, TERN, [url, path, cacheDir, dates]);
  } finally {
    await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
  }
}

const downloadUrl = (url: string, path: string) =>
  `${url}/fileio/download?path=${encodeURIComponent(path)}`;

const ms = (runs: Run[]) => summarize(runs.map((r) => r.ms));
const rangeOf = (runs: Run[]): [number, number] => {
  const s = ms(runs);
  return [s.min, s.max];
};
const frameToExit = (runs: Run[]) => summarize(runs.map((r) => r.ms - r.frameMs)).median;

/** A check that every run made a frame of as many rows as the first run did. */
function sameRows(): (name: string, run: Run) => void {
  let expected: number | undefined;
  return (name, run) => {
    expected ??= run.rows;
    if (run.rows !== expected || run.rows === 0) {
      throw new Error(`${name} read ${run.rows} rows, expected ${expected}`);
    }
  };
}

async function firstReads(ctx: SuiteContext): Promise<BenchRecord[]> {
  const quick = ctx.quick;
  const smallReps = ctx.reps ?? (quick ? 3 : 15);
  const bigReps = ctx.reps ?? (quick ? 1 : 7);
  const warmup = quick ? 0 : 1;
  const cleanup = new Cleanup();
  ctx.cleanup.defer(() => cleanup.run());
  const records: BenchRecord[] = [];
  try {
    const sampleRoot = await ensureSampleStore();
    const { root: csvRoot } = await ensureCsv(ctx, quick ? 16_000_000 : 160_000_000);
    const samples = await startServer(cleanup, ctx, sampleRoot, []);
    const data = await startServer(cleanup, ctx, csvRoot, []);
    const loadBefore = await load();

    ctx.log(`first-read: imports alone, ${warmup} warm-up + ${smallReps} rounds`);
    const imports = await rounds(
      ctx,
      {
        empty: () => run(ctx, "data:text/javascript,", []),
        tern: () => run(ctx, TERN, []),
        polars: () => run(ctx, NAIVE, []),
      },
      smallReps,
      warmup,
      () => {},
    );

    ctx.log(`first-read: ${SMALL_PATH}, ${warmup} warm-up + ${smallReps} rounds`);
    const small = await rounds(
      ctx,
      {
        tern: () => ternRead(ctx, cleanup, samples.url, SMALL_PATH),
        noCache: () => run(ctx, TERN, [samples.url, SMALL_PATH, "none"]),
        bound: () => run(ctx, NAIVE, [downloadUrl(samples.url, SMALL_PATH), "import-tern"]),
        naive: () => run(ctx, NAIVE, [downloadUrl(samples.url, SMALL_PATH)]),
      },
      smallReps,
      warmup,
      sameRows(),
    );

    ctx.log(`first-read: ${CSV_PATH}, ${warmup} warm-up + ${bigReps} rounds`);
    const size = (await Deno.stat(join(csvRoot, CSV_PATH))).size;
    const big = await rounds(
      ctx,
      {
        tern: () => ternRead(ctx, cleanup, data.url, CSV_PATH),
        ternText: () => ternRead(ctx, cleanup, data.url, CSV_PATH, "text"),
        noCacheText: () => run(ctx, TERN, [data.url, CSV_PATH, "none", "text"]),
        bound: () => run(ctx, NAIVE, [downloadUrl(data.url, CSV_PATH), "import-tern"]),
        naive: () => run(ctx, NAIVE, [downloadUrl(data.url, CSV_PATH)]),
      },
      bigReps,
      warmup,
      sameRows(),
    );
    const loadAfter = await load();

    const empty = ms(imports.empty).median;
    const context = `Whole process, spawn to exit: a fresh \`deno run -A\` each time, module ` +
      `caches warm; medians of ${smallReps} runs (${bigReps} for the large file), contenders ` +
      `interleaved; the server is another process on the same ${navigator.hardwareConcurrency} ` +
      `cores. An empty script takes ${empty.toFixed(0)} ms. Load average ${loadBefore} before, ` +
      `${loadAfter} after.`;
    const tail = (runs: Run[], naive: Run[]) =>
      `From printing its frame to its exit tern's process takes ` +
      `${frameToExit(runs).toFixed(0)} ms, the naive one ${frameToExit(naive).toFixed(0)} ms ` +
      `(medians).`;
    /** Our runs against the baseline's, both in ms, lower is better. */
    const compared = (
      name: string,
      ours: Run[],
      baseline: Run[],
      fields: { against: string; target?: number; note: string },
    ) =>
      record({
        suite: "first-read",
        name,
        value: ms(ours).median,
        baseline: ms(baseline).median,
        unit: "ms",
        better: "lower",
        reps: ours.length,
        valueRange: rangeOf(ours),
        baselineRange: rangeOf(baseline),
        ...fields,
      });
    const naive = "naive: import nodejs-polars, fetch → arrayBuffer → pl.readCSV";
    records.push(
      compared("first read of penguins.csv (13.5 kB) in a fresh process", small.tern, small.naive, {
        against: "fetch + nodejs-polars (import, fetch → arrayBuffer → pl.readCSV)",
        target: 1.25,
        note: `tern: import mod.ts, connect({ url, anonymous: true, cacheDir: <empty folder> })` +
          `.file(path).dataframe(). ${tail(small.tern, small.naive)} ${context}`,
      }),
      compared(
        `first read of the ${(size / 1e6).toFixed(0)} MB CSV in a fresh process`,
        big.tern,
        big.naive,
        {
          against: naive,
          target: 1.1,
          note: `${big.tern[0].rows.toLocaleString("en-US")} rows; cold cache; tern reads the ` +
            `\`date\` column as Datetime (tryParseDates, the default), the naive path as text. ` +
            `${tail(big.tern, big.naive)}`,
        },
      ),
      compared(
        "the same, dates kept as text (tryParseDates: false): the naive path's frame",
        big.ternText,
        big.naive,
        {
          against: naive,
          target: 1.1,
          note: `The same columns and types as the naive path: what tern adds besides parsing ` +
            `dates. ${tail(big.ternText, big.naive)}`,
        },
      ),
      compared(
        "penguins.csv without the cache (cacheDir: false): the simpler path",
        small.noCache,
        small.naive,
        {
          against: "fetch + nodejs-polars",
          note: `The read with nothing kept on disk (no copy, no hash, no index). ` +
            `${tail(small.noCache, small.naive)}`,
        },
      ),
      compared(
        "penguins.csv, the least a tern read can take: tern's modules, then the naive read",
        small.bound,
        small.naive,
        {
          against: "fetch + nodejs-polars",
          note: "The naive script after importing tern's mod.ts (nothing of it used): the bound " +
            "of any first read that loads tern's modules as they are.",
        },
      ),
      compared(
        `the ${(size / 1e6).toFixed(0)} MB CSV as text without the cache: the simpler path`,
        big.noCacheText,
        big.naive,
        {
          against: naive,
          note: `tryParseDates: false, cacheDir: false. ${tail(big.noCacheText, big.naive)}`,
        },
      ),
      compared(
        `the ${
          (size / 1e6).toFixed(0)
        } MB CSV, the least a tern read can take: tern's modules, then the naive read`,
        big.bound,
        big.naive,
        {
          against: naive,
          note: "The naive script after importing tern's mod.ts (nothing of it used).",
        },
      ),
      compared("import mod.ts alone, fresh process", imports.tern, imports.polars, {
        against: "import nodejs-polars alone",
        note: `Both include the ${empty.toFixed(0)} ms of an empty script.`,
      }),
    );
  } finally {
    await cleanup.run();
  }
  return records;
}

/**
 * The suite, as `bench/main.ts` runs it.
 *
 * @example
 * ```ts ignore
 * import { firstReadSuite } from "./first_read.ts";
 * import { Cleanup } from "./_proc.ts";
 *
 * const cleanup = new Cleanup();
 * const records = await firstReadSuite.run({
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
export const firstReadSuite: Suite = {
  name: "first-read",
  description: "a first read in a fresh process (import, connect, Polars, the frame, exit) " +
    "against fetch + nodejs-polars, for 13.5 kB and 160 MB CSVs",
  run: firstReads,
};
