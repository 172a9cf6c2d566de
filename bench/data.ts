/**
 * The data suite: data-store files into Polars DataFrames through tern, against Polars reading
 * the same file from local disk (the floor), the naive path (`fetch` → `arrayBuffer` →
 * `pl.readCSV`), and the raw transfer. Four measurements, as issue 5 asks:
 *
 * 1. a 160 MB CSV from the embedded server (loopback, unshaped) → DataFrame: time against the
 *    floor and the naive path, and peak RSS against the file size;
 * 2. the same over a link shaped to 100 MB/s, against the time the raw bytes take to arrive;
 * 3. 2,000 files of 10 KB read concurrently (the store's default concurrency, 4) against one
 *    at a time, with and without server latency;
 * 4. a cached re-read against `pl.readCSV` of a local file;
 * 5. what checking a download against the store's checksum costs (issue 31): the 160 MB CSV read
 *    verified against the same bytes with no store checksum, on loopback and over 100 MB/s;
 *
 * plus the batch size sweep behind tern's default, and the CPU time that bounds measurement 1 on
 * this machine. Every contender runs in its own process (bench/_data_worker.ts), so its time,
 * CPU and peak RSS are its own; the server is another process.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { type BenchRecord, record, type Suite, type SuiteContext, summarize } from "./_lib.ts";
import { Cleanup, startChild, tempDir } from "./_proc.ts";

/** Where fixtures live in their store. */
const FOLDER = "/iplant/home/shared/bench/data";
/** The data-store path of the large CSV that {@linkcode ensureCsv} writes. */
export const CSV_PATH = `${FOLDER}/weather.csv`;
const MANY_PATH = `${FOLDER}/many`;
const WORKER = "bench/_data_worker.ts";
/** The shaped link of measurement 2, bytes per second. */
const BANDWIDTH = 100_000_000;
/** Server latency of the realistic many-files measurement, ms. */
const MANY_LATENCY_MS = 10;

interface Plan {
  csvBytes: number;
  files: number;
  /** Timed samples per contender for measurements 1 and 4 (after one warm-up each). */
  reps: number;
  /** Samples per contender for the shaped link. */
  shapedReps: number;
  /** Samples per contender for many files. */
  manyReps: number;
  /** Batch sizes of the sweep, MiB (none in quick mode). */
  sweep: number[];
  warmup: number;
}

function plan(ctx: SuiteContext): Plan {
  const p: Plan = ctx.quick
    ? {
      csvBytes: 16_000_000,
      files: 200,
      reps: 1,
      shapedReps: 1,
      manyReps: 1,
      sweep: [],
      warmup: 0,
    }
    : {
      csvBytes: 160_000_000,
      files: 2000,
      reps: 7,
      shapedReps: 3,
      manyReps: 2,
      sweep: [4, 16, 64],
      warmup: 1,
    };
  if (ctx.reps !== undefined) {
    p.reps = p.shapedReps = p.manyReps = ctx.reps;
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

/** Bumped whenever the generator changes, so cached fixtures are rebuilt. */
const CSV_GENERATOR = "weather csv v1: lcg 1103515245/12345 seed 12345";

/**
 * A deterministic CSV of about `bytes` bytes under `cacheDir/data-csv-<bytes>/`: hourly-style
 * weather observations (integer id, timestamp text, station code, three measurements, a count,
 * a flag, and a free-text note that is quoted when it holds a comma or quotes), the shape of
 * many tables in research data stores. Written under a temporary name and renamed, with a
 * record of its digest, so an interrupted file is never reused.
 */
export async function ensureCsv(
  ctx: SuiteContext,
  bytes: number,
): Promise<{ root: string; local: string }> {
  const root = join(ctx.cacheDir, `data-csv-${bytes}`);
  const local = join(root, CSV_PATH);
  const recordFile = `${root}.json`;
  const known = await Deno.readTextFile(recordFile).then(JSON.parse, () => undefined);
  const size = await Deno.stat(local).then((info) => info.size, () => -1);
  if (known?.generator === CSV_GENERATOR && known.bytes === size) return { root, local };
  ctx.log(`data: writing a ${(bytes / 1e6).toFixed(0)} MB CSV into ${root}`);
  await Deno.mkdir(join(root, FOLDER), { recursive: true });
  const partial = `${local}.partial-${Deno.pid}`;
  const out = await Deno.open(partial, { write: true, create: true, truncate: true });
  const hash = createHash("sha256");
  const encoder = new TextEncoder();
  const stations = ["SEA", "PDX", "SFO", "LAX", "DEN", "ORD", "JFK", "BOS", "ATL", "MIA"];
  const notes = ["clear", "rain", "fog", "snow", "sun", "drizzle, light", 'storm "heavy"'];
  let state = 12345;
  const random = () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 4294967296;
  };
  const start = Date.UTC(2000, 0, 1);
  let written = 0;
  let text = "id,date,station,temp_c,precip_mm,wind_kmh,count,flag,note\n";
  try {
    for (let i = 0; written + text.length < bytes; i++) {
      const date = new Date(start + i * 60_000).toISOString().slice(0, 19).replace("T", " ");
      const note = notes[Math.floor(random() * notes.length)];
      const field = /[,"]/.test(note) ? `"${note.replaceAll('"', '""')}"` : note;
      text += `${i},${date},${stations[i % 10]},${(random() * 40 - 5).toFixed(2)},` +
        `${(random() * 20).toFixed(1)},${Math.floor(random() * 90)},` +
        `${Math.floor(random() * 100_000)},${random() < 0.5},${field}\n`;
      if (text.length > 1 << 20) {
        ctx.signal.throwIfAborted();
        written += await writeAll(out, encoder.encode(text), hash);
        text = "";
      }
    }
    written += await writeAll(out, encoder.encode(text), hash);
  } catch (error) {
    out.close();
    await Deno.remove(partial).catch(() => {});
    throw error;
  }
  out.close();
  await Deno.rename(partial, local);
  await Deno.writeTextFile(
    recordFile,
    JSON.stringify({ generator: CSV_GENERATOR, bytes: written, sha256: hash.digest("hex") }),
  );
  return { root, local };
}

async function writeAll(
  file: Deno.FsFile,
  bytes: Uint8Array,
  hash: ReturnType<typeof createHash>,
): Promise<number> {
  hash.update(bytes);
  let offset = 0;
  while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
  return bytes.length;
}

/** `count` CSV files of about 10 KB under `cacheDir/data-many-<count>/`, with a completion marker. */
async function ensureMany(ctx: SuiteContext, count: number): Promise<string> {
  const root = join(ctx.cacheDir, `data-many-${count}`);
  const marker = join(root, "complete.json");
  const done = await Deno.readTextFile(marker).then(
    (t) => JSON.parse(t).count === count,
    () => false,
  );
  if (done) return root;
  ctx.log(`data: writing ${count} files of 10 KB into ${root}`);
  await Deno.remove(root, { recursive: true }).catch(() => {});
  const folder = join(root, MANY_PATH);
  await Deno.mkdir(folder, { recursive: true });
  for (let file = 0; file < count; file++) {
    ctx.signal.throwIfAborted();
    let text = "id,station,temp_c,count\n";
    for (let row = 0; text.length < 10_000; row++) {
      text += `${file * 1000 + row},ST${(file + row) % 50},${((file * 7 + row * 13) % 400) / 10},` +
        `${(file * row) % 997}\n`;
    }
    await Deno.writeTextFile(join(folder, `part-${String(file).padStart(5, "0")}.csv`), text);
  }
  await Deno.writeTextFile(marker, JSON.stringify({ count }));
  return root;
}

// ---------------------------------------------------------------------------------------------
// Processes

/** A server process started by {@linkcode startServer}. */
export interface Server {
  /** Its Terrain base URL (`http://127.0.0.1:PORT/terrain`). */
  url: string;
  /** Its process id, for CPU figures. */
  pid: number;
}

/** Starts the embedded server over `root` as a child process, stopped by `cleanup`. */
export async function startServer(
  cleanup: Cleanup,
  ctx: SuiteContext,
  root: string,
  flags: string[],
) {
  const child = await startChild(cleanup, {
    label: `our server (lib/server/main.ts ${flags.join(" ")})`,
    command: Deno.execPath(),
    args: ["run", "-A", "lib/server/main.ts", "--root", root, "--port", "0", "--quiet", ...flags],
    cwd: ctx.repoRoot,
    ready: /(http:\/\/[^\s"']+)/,
  });
  return { url: child.readyMatch.replace(/\/+$/, ""), pid: child.pid } satisfies Server;
}

/** CPU time of a process so far, ms (10 ms resolution). */
async function processCpuMs(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One contender's run, as bench/_data_worker.ts prints it. */
export interface Sample {
  ms: number;
  cpuMs: number;
  /** CPU time of the contender's JavaScript thread alone, ms. */
  mainCpuMs: number;
  rows: number;
  columns: number;
  peakRss: number;
  rssBefore: number;
  frameBytes?: number;
  /** The route tern's read took (tern modes). */
  route?: string;
  /** The store checksum tern's read was verified against (`tern` mode), if any. */
  checksum?: string;
  /** CPU the server spent during the sample, ms. */
  serverCpuMs: number;
}

/** Runs one contender in its own process (bench/_data_worker.ts with `args`). */
export async function sample(
  ctx: SuiteContext,
  server: Server | undefined,
  args: Record<string, string>,
): Promise<Sample> {
  const serverBefore = server === undefined ? 0 : await processCpuMs(server.pid);
  const flags = Object.entries(args).flatMap(([key, value]) => [`--${key}`, value]);
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", WORKER, ...flags],
    cwd: ctx.repoRoot,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const serverCpuMs = server === undefined ? 0 : await processCpuMs(server.pid) - serverBefore;
  const stdout = new TextDecoder().decode(result.stdout).trim();
  if (!result.success) {
    const stderr = new TextDecoder().decode(result.stderr).trim().slice(-2000);
    throw new Error(`data worker ${JSON.stringify(args)} failed: ${stderr || stdout}`);
  }
  return { ...JSON.parse(stdout.split("\n").at(-1)!), serverCpuMs };
}

/**
 * Runs each contender `reps` times after `warmup` unrecorded runs, rotating which goes first
 * each round so drift on the machine falls on all alike. Each sample is checked with `check`.
 */
export async function rounds<S>(
  ctx: SuiteContext,
  contenders: Record<string, () => Promise<S>>,
  reps: number,
  warmup: number,
  check: (name: string, sample: S) => void,
): Promise<Record<string, S[]>> {
  const names = Object.keys(contenders);
  const samples: Record<string, S[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < warmup + reps; round++) {
    ctx.signal.throwIfAborted();
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const result = await contenders[name]();
      check(name, result);
      if (round >= warmup) samples[name].push(result);
    }
  }
  return samples;
}

const median = (samples: Sample[], pick: (s: Sample) => number) =>
  summarize(samples.map(pick)).median;
const range = (samples: Sample[], pick: (s: Sample) => number): [number, number] => {
  const s = summarize(samples.map(pick));
  return [s.min, s.max];
};
const ms = (s: Sample) => s.ms;
const mb = (bytes: number) => bytes / 1e6;

/** The 1-minute load average: the machine is shared, so each phase says how busy it was. */
export async function load(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "? ");
  return text.split(" ")[0];
}

// ---------------------------------------------------------------------------------------------
// Measurements

async function bigFile(ctx: SuiteContext, p: Plan): Promise<BenchRecord[]> {
  const { root, local } = await ensureCsv(ctx, p.csvBytes);
  const size = (await Deno.stat(local)).size;
  const sizeMb = mb(size).toFixed(0);
  const cleanup = new Cleanup();
  ctx.cleanup.defer(() => cleanup.run());
  const records: BenchRecord[] = [];
  try {
    const server = await startServer(cleanup, ctx, root, []);
    const base = { url: server.url, path: CSV_PATH, local };
    const size0 = await sample(ctx, undefined, { mode: "frame-size", local });
    const rows = size0.rows;
    const check = (name: string, s: Sample) => {
      const want = name === "raw" ? size : rows;
      if (s.rows !== want) throw new Error(`${name} read ${s.rows} rows, expected ${want}`);
    };
    const fresh = async (args: Record<string, string>) => {
      const cacheDir = await tempDir(cleanup, "tern-bench-cache-");
      try {
        return await sample(ctx, server, { ...args, "cache-dir": cacheDir });
      } finally {
        await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
      }
    };
    ctx.log(`data: ${sizeMb} MB CSV, ${p.warmup} warm-up + ${p.reps} rounds of 8 contenders`);
    const loadBefore = await load();
    const one = await rounds(
      ctx,
      {
        floor: () => sample(ctx, undefined, { ...base, mode: "floor" }),
        naive: () => sample(ctx, server, { ...base, mode: "naive" }),
        simple: () => sample(ctx, server, { ...base, mode: "simple" }),
        tern: () => fresh({ ...base, mode: "tern" }),
        ternNoCache: () => sample(ctx, server, { ...base, mode: "tern", "cache-dir": "none" }),
        statNaive: () => sample(ctx, server, { ...base, mode: "stat-naive" }),
        ternStream: () => fresh({ ...base, mode: "tern-route", route: "stream" }),
        raw: () => sample(ctx, server, { ...base, mode: "raw" }),
      },
      p.reps,
      p.warmup,
      check,
    );

    const floor = median(one.floor, ms);
    const naive = median(one.naive, ms);
    const simple = median(one.simple, ms);
    const tern = median(one.tern, ms);
    const routes = (samples: Sample[]) =>
      [...new Set(samples.map((s) => s.route ?? "?"))].join("/");
    const peakOf = (samples: Sample[]) => mb(median(samples, (s) => s.peakRss)).toFixed(0);
    const machineNote = `Medians of ${p.reps} runs, each in a fresh process (timed from a warm ` +
      `Polars to the frame); the server is another process on the same ` +
      `${navigator.hardwareConcurrency} cores. Load average ${loadBefore} before, ` +
      `${await load()} after (a shared machine).`;
    const ternNote = `tern: connect({ url, cacheDir: <empty folder> }).file(path)` +
      `.dataframe({ tryParseDates: false }), the naive path's frame ` +
      `(route taken: ${routes(one.tern)}). ${rows.toLocaleString("en-US")} rows × ` +
      `${size0.columns} columns. ${machineNote}`;
    records.push(
      record({
        suite: "data",
        name: `${sizeMb} MB CSV from the server → DataFrame, vs the floor`,
        value: tern,
        baseline: floor,
        unit: "ms",
        against: "pl.readCSV of the local file",
        better: "lower",
        reps: p.reps,
        valueRange: range(one.tern, ms),
        baselineRange: range(one.floor, ms),
        note: ternNote,
      }),
      record({
        suite: "data",
        name: `${sizeMb} MB CSV from the server → DataFrame (cold cache), vs naive`,
        value: tern,
        baseline: naive,
        unit: "ms",
        against: "fetch → arrayBuffer → pl.readCSV",
        better: "lower",
        target: 1.0,
        reps: p.reps,
        valueRange: range(one.tern, ms),
        baselineRange: range(one.naive, ms),
        note: `The naive path is ${(naive / floor).toFixed(2)}× the floor here.`,
      }),
      record({
        suite: "data",
        name: `${sizeMb} MB CSV from the server → DataFrame (cold cache), vs simple native`,
        value: tern,
        baseline: simple,
        unit: "ms",
        against: "fetch → Deno.writeFile(tmp, body) → pl.readCSV(tmp)",
        better: "lower",
        target: 1.05,
        reps: p.reps,
        valueRange: range(one.tern, ms),
        baselineRange: range(one.simple, ms),
        note: `tern also asks the server for the file's entry first, checks the size, hashes ` +
          `the bytes (XXH64) and keeps the copy as a cache entry (temporary file, renamed, ` +
          `indexed) before Polars reads it. The simple path is ` +
          `${(simple / naive).toFixed(2)}× naive here.`,
      }),
      record({
        suite: "data",
        name: `${sizeMb} MB CSV → DataFrame without the cache, vs naive`,
        value: median(one.ternNoCache, ms),
        baseline: naive,
        unit: "ms",
        against: "fetch → arrayBuffer → pl.readCSV",
        better: "lower",
        target: 1.0,
        reps: p.reps,
        valueRange: range(one.ternNoCache, ms),
        baselineRange: range(one.naive, ms),
        note: `connect({ cacheDir: false }) (route taken: ${routes(one.ternNoCache)}: the ` +
          `body read into one buffer of the listed size, checked, and parsed once).`,
      }),
      record({
        suite: "data",
        name: `${sizeMb} MB CSV without the cache, the least a pinned read can take`,
        value: median(one.statNaive, ms),
        baseline: naive,
        unit: "ms",
        against: "fetch → arrayBuffer → pl.readCSV",
        better: "lower",
        reps: p.reps,
        valueRange: range(one.statNaive, ms),
        baselineRange: range(one.naive, ms),
        note: "A read that pins the version it reads must learn it (size, date-modified) " +
          "before the bytes: the one listing request tern's stat makes (fetch and JSON.parse, " +
          "no schema), then the naive path. tern without the cache is " +
          `${(median(one.ternNoCache, ms) / median(one.statNaive, ms)).toFixed(2)}× this.`,
      }),
      record({
        suite: "data",
        name: `${sizeMb} MB CSV, cold cache, batches parsed as they arrive (the slow-link route)`,
        value: median(one.ternStream, ms),
        baseline: naive,
        unit: "ms",
        against: "fetch → arrayBuffer → pl.readCSV",
        better: "lower",
        reps: p.reps,
        valueRange: range(one.ternStream, ms),
        note: "file.batches({ rows: 1,000,000, cache: false }): batches of whole records " +
          "parsed from the arriving chunks (bounded memory; nothing is cached), the route of " +
          "head(n) and of batches() without a cache.",
      }),
    );
    // Wall times on a shared machine swing with the other jobs; the CPU a read costs (reader
    // and server) does not, and on 2 busy cores it is what the wall time comes down to.
    const cpuOf = (samples: Sample[]) => median(samples, (s) => s.cpuMs + s.serverCpuMs);
    const least = (samples: Sample[]) => summarize(samples.map(ms)).min.toFixed(0);
    records.push(record({
      suite: "data",
      name: `CPU time of the ${sizeMb} MB read (reader + server), tern cold cache vs naive`,
      value: cpuOf(one.tern),
      baseline: cpuOf(one.naive),
      unit: "ms",
      against: "the naive path's CPU time",
      better: "lower",
      reps: p.reps,
      note: `Medians of reader + server CPU: floor ${cpuOf(one.floor).toFixed(0)} ms, naive ` +
        `${cpuOf(one.naive).toFixed(0)}, simple native ${cpuOf(one.simple).toFixed(0)}, tern ` +
        `${cpuOf(one.tern).toFixed(0)}, tern without cache ${cpuOf(one.ternNoCache).toFixed(0)}, ` +
        `streaming parse ` +
        `${cpuOf(one.ternStream).toFixed(0)}. Fastest of the ${p.reps} runs (the least ` +
        `disturbed): floor ${least(one.floor)} ms, naive ${least(one.naive)}, simple native ` +
        `${least(one.simple)}, tern ${least(one.tern)}, tern without cache ` +
        `${least(one.ternNoCache)}, streaming parse ` +
        `${least(one.ternStream)}.`,
    }));
    const peak = median(one.tern, (s) => s.peakRss);
    records.push(record({
      suite: "data",
      name: `peak RSS reading the ${sizeMb} MB CSV (cold cache), vs naive`,
      value: mb(peak),
      baseline: mb(median(one.naive, (s) => s.peakRss)),
      unit: "MB",
      against: "the naive path's peak",
      better: "lower",
      target: 1.0,
      reps: p.reps,
      note: `Whole process (Deno and Polars loaded: ${
        mb(median(one.tern, (s) => s.rssBefore)).toFixed(0)
      } MB before the read; ${(peak / size).toFixed(2)}× the file). The frame itself is ` +
        `${mb(size0.frameBytes ?? 0).toFixed(0)} MB as Arrow IPC. Peaks: floor ` +
        `${peakOf(one.floor)} MB (the mapped file counts), naive ${peakOf(one.naive)} MB, ` +
        `simple native ${peakOf(one.simple)} MB, tern ${peakOf(one.tern)} MB, tern without ` +
        `cache ${peakOf(one.ternNoCache)} MB, ` +
        `streaming parse ${peakOf(one.ternStream)} MB, raw transfer ${peakOf(one.raw)} MB.`,
    }));
    const clientCpu = median(one.tern, (s) => s.cpuMs);
    const serverCpu = median(one.tern, (s) => s.serverCpuMs);
    const floorCpu = median(one.floor, (s) => s.cpuMs);
    const cores = navigator.hardwareConcurrency;
    records.push(record({
      suite: "data",
      name: `CPU-time lower bound of tern's read on ${cores} cores`,
      value: (clientCpu + serverCpu) / cores,
      baseline: floor,
      unit: "ms",
      against: "pl.readCSV of the local file",
      better: "lower",
      reps: p.reps,
      note: `tern's process used ${clientCpu.toFixed(0)} ms of CPU and the server ` +
        `${serverCpu.toFixed(0)} ms (the floor's read: ${floorCpu.toFixed(0)} ms in ` +
        `${floor.toFixed(0)} ms). With every core busy the read cannot take less than their sum ` +
        `over ${cores} cores: this ratio is the best tern could reach against the floor here.`,
    }));

    // What no reader can beat here: Polars' own parse plus moving the bytes, spread over every
    // core. When this exceeds a target's ratio, the target cannot be met on this machine.
    const rawCpu = median(one.raw, (s) => s.cpuMs);
    const rawServerCpu = median(one.raw, (s) => s.serverCpuMs);
    const bound = (floorCpu + rawCpu + rawServerCpu) / cores;
    records.push(record({
      suite: "data",
      name: `least time any reader could take on ${cores} cores`,
      value: bound,
      baseline: floor,
      unit: "ms",
      against: "pl.readCSV of the local file",
      better: "lower",
      reps: p.reps,
      note: `The floor's parse (${floorCpu.toFixed(0)} ms of CPU) plus the bare transfer ` +
        `(fetch reading the body and keeping nothing: ${rawCpu.toFixed(0)} ms in the reader, ` +
        `${rawServerCpu.toFixed(0)} ms in the server), over ${cores} cores: a reader that parsed ` +
        `as cheaply as Polars and overlapped everything perfectly would still take this long. ` +
        `It is ${(bound / naive).toFixed(2)}× the naive path and ` +
        `${(bound / simple).toFixed(2)}× the simple native path.`,
    }));

    // 4. A cached re-read: in a tern that has read once (a cell run again in a notebook), and
    // in a new process, whose first call's costs the first-read suite measures on their own.
    const warm = await tempDir(cleanup, "tern-bench-warm-");
    await sample(ctx, server, { ...base, mode: "tern", "cache-dir": warm });
    const small = `${FOLDER}/warm-up.csv`;
    await Deno.writeTextFile(join(root, small), "a,b\n1,2\n");
    ctx.log(`data: cached re-read, ${p.reps} rounds`);
    const four = await rounds(
      ctx,
      {
        floor: () => sample(ctx, undefined, { ...base, mode: "floor" }),
        again: () => sample(ctx, server, { ...base, mode: "tern", "cache-dir": warm, warm: small }),
        cached: () => sample(ctx, server, { ...base, mode: "tern", "cache-dir": warm }),
        bound: () => sample(ctx, server, { ...base, mode: "stat-floor" }),
      },
      p.reps,
      p.warmup,
      check,
    );
    records.push(
      record({
        suite: "data",
        name: `cached re-read of the ${sizeMb} MB CSV`,
        value: median(four.again, ms),
        baseline: median(four.floor, ms),
        unit: "ms",
        against: "pl.readCSV of the local file",
        better: "lower",
        target: 1.1,
        reps: p.reps,
        valueRange: range(four.again, ms),
        baselineRange: range(four.floor, ms),
        note: "tern: file(path).dataframe() with the cache already holding the file, in a tern " +
          "that has read a small file once (as a notebook re-runs a cell; every contender starts " +
          "from a Polars that has parsed once): one stat request (is the copy current?), then " +
          "Polars reads the cached copy by path.",
      }),
      record({
        suite: "data",
        name: `cached re-read of the ${sizeMb} MB CSV in a new process`,
        value: median(four.cached, ms),
        baseline: median(four.floor, ms),
        unit: "ms",
        against: "pl.readCSV of the local file",
        better: "lower",
        reps: p.reps,
        valueRange: range(four.cached, ms),
        baselineRange: range(four.floor, ms),
        note: "The same read as tern's first call in a new process: it also pays zod's first " +
          "use, the response schemas and the cache's index.",
      }),
      record({
        suite: "data",
        name: `cached re-read of the ${sizeMb} MB CSV, the least it can take`,
        value: median(four.bound, ms),
        baseline: median(four.floor, ms),
        unit: "ms",
        against: "pl.readCSV of the local file",
        better: "lower",
        reps: p.reps,
        valueRange: range(four.bound, ms),
        baselineRange: range(four.floor, ms),
        note: "The bound of any re-read that must know its copy is current: the one listing " +
          "request tern's stat makes (fetch and JSON.parse, no schema), then pl.readCSV of the " +
          `local file. tern's re-read is ${
            (median(four.cached, ms) / median(four.bound, ms)).toFixed(2)
          }× this bound; the rest is what a new process does at its first call (zod and the ` +
          "response schemas, the cache's index, tern's options and checks).",
      }),
    );

    // The batch size sweep, without the cache so only the parse pipeline differs.
    if (p.sweep.length > 0) {
      ctx.log(`data: batch sizes ${p.sweep.join(", ")} MiB, ${p.reps} rounds`);
      const contenders: Record<string, () => Promise<Sample>> = {
        floor: () => sample(ctx, undefined, { ...base, mode: "floor" }),
      };
      for (const mib of p.sweep) {
        contenders[`${mib}`] = () =>
          sample(ctx, server, { ...base, mode: "tern-batch", "batch-mib": String(mib) });
      }
      const sweep = await rounds(ctx, contenders, p.reps, 0, check);
      for (const mib of p.sweep) {
        records.push(record({
          suite: "data",
          name: `batches growing to ${mib} MiB, ${sizeMb} MB CSV, no cache`,
          value: median(sweep[`${mib}`], ms),
          baseline: median(sweep.floor, ms),
          unit: "ms",
          against: "pl.readCSV of the local file",
          better: "lower",
          reps: p.reps,
          valueRange: range(sweep[`${mib}`], ms),
          note: `peak RSS ${mb(median(sweep[`${mib}`], (s) => s.peakRss)).toFixed(0)} MB.`,
        }));
      }
    }
  } finally {
    await cleanup.run();
  }
  return records;
}

async function shapedLink(ctx: SuiteContext, p: Plan): Promise<BenchRecord[]> {
  const { root, local } = await ensureCsv(ctx, p.csvBytes);
  const size = (await Deno.stat(local)).size;
  const cleanup = new Cleanup();
  ctx.cleanup.defer(() => cleanup.run());
  try {
    const server = await startServer(cleanup, ctx, root, ["--bandwidth", String(BANDWIDTH)]);
    const base = { url: server.url, path: CSV_PATH, local };
    ctx.log(`data: link shaped to ${BANDWIDTH / 1e6} MB/s, ${p.shapedReps} rounds`);
    let rows: number | undefined;
    const check = (name: string, s: Sample) => {
      if (name === "raw" && s.rows !== size) throw new Error(`raw read ${s.rows} bytes of ${size}`);
      if (name !== "raw" && s.rows !== (rows ??= s.rows)) {
        throw new Error(`${name} read ${s.rows} rows, expected ${rows}`);
      }
    };
    const shaped = await rounds(
      ctx,
      {
        raw: () => sample(ctx, server, { ...base, mode: "raw" }),
        tern: async () => {
          const cacheDir = await tempDir(cleanup, "tern-bench-cache-");
          try {
            return await sample(ctx, server, { ...base, mode: "tern", "cache-dir": cacheDir });
          } finally {
            await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
          }
        },
        naive: () => sample(ctx, server, { ...base, mode: "naive" }),
        batches: async () => {
          const cacheDir = await tempDir(cleanup, "tern-bench-cache-");
          try {
            const args = { ...base, mode: "tern-route", route: "stream", "cache-dir": cacheDir };
            return await sample(ctx, server, args);
          } finally {
            await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
          }
        },
        floor: () => sample(ctx, undefined, { ...base, mode: "floor" }),
      },
      p.shapedReps,
      0,
      check,
    );
    const raw = median(shaped.raw, ms);
    // A read that parses once, after the last byte, cannot take less than the transfer and a
    // local parse of the file: the bound of tern's whole-file route and of the naive path.
    const afterTransfer = raw + median(shaped.floor, ms);
    const sizeMb = mb(size).toFixed(0);
    return [
      record({
        suite: "data",
        name: `${sizeMb} MB CSV over a ${BANDWIDTH / 1e6} MB/s link → DataFrame`,
        value: median(shaped.tern, ms),
        baseline: raw,
        unit: "ms",
        against: "the raw bytes arriving (fetch, body read to the end)",
        better: "lower",
        target: 1.05,
        reps: p.shapedReps,
        valueRange: range(shaped.tern, ms),
        baselineRange: range(shaped.raw, ms),
        note: `Server started with --bandwidth ${BANDWIDTH}. tern with a fresh cache folder ` +
          `(default settings; route taken: ${
            [...new Set(shaped.tern.map((s) => s.route ?? "?"))].join("/")
          }). The raw transfer is the physical limit of the link: ` +
          `${(size / (raw / 1000) / 1e6).toFixed(1)} MB/s measured. Parsing once after the ` +
          `transfer (this route) cannot take less than the transfer plus pl.readCSV of the ` +
          `local file: ${afterTransfer.toFixed(0)} ms, ${(afterTransfer / raw).toFixed(2)}× ` +
          `the raw transfer in this run. Load average ${await load()} at the end.`,
      }),
      record({
        suite: "data",
        name: `${sizeMb} MB CSV over a ${BANDWIDTH / 1e6} MB/s link, batches parsed as they arrive`,
        value: median(shaped.batches, ms),
        baseline: raw,
        unit: "ms",
        against: "the raw bytes arriving",
        better: "lower",
        reps: p.shapedReps,
        valueRange: range(shaped.batches, ms),
        note: "file.batches({ rows: 1,000,000, cache: false }): the parse overlaps the transfer " +
          "(the route of head(n) and of batches() without a cache; dataframe() of text parses " +
          "once, after it).",
      }),
      record({
        suite: "data",
        name: `${sizeMb} MB CSV over a ${BANDWIDTH / 1e6} MB/s link, naive path`,
        value: median(shaped.naive, ms),
        baseline: raw,
        unit: "ms",
        against: "the raw bytes arriving",
        better: "lower",
        reps: p.shapedReps,
        valueRange: range(shaped.naive, ms),
        note: "fetch → arrayBuffer → pl.readCSV: transfer, then parse.",
      }),
    ];
  } finally {
    await cleanup.run();
  }
}

/** Where {@linkcode uncheckedCopy} puts the CSV the store has no checksum of. */
const UNCHECKED_PATH = `${FOLDER}/unchecked/weather.csv`;

/**
 * The large CSV again, at {@linkcode UNCHECKED_PATH}, marked not checksummed yet (the
 * `ipc-checksum` AVU set to `""`): a read of it is the very same read with nothing to verify.
 * A hard link, so it is the same bytes on disk and in the page cache.
 */
async function uncheckedCopy(root: string): Promise<void> {
  const local = join(root, UNCHECKED_PATH);
  const folder = join(local, "..");
  await Deno.mkdir(folder, { recursive: true });
  await Deno.remove(local).catch(() => {});
  await Deno.link(join(root, CSV_PATH), local);
  await Deno.writeTextFile(
    join(folder, ".weather.csv.avus.json"),
    JSON.stringify({ "irods-avus": [{ attr: "ipc-checksum", value: "", unit: "" }] }),
  );
}

/**
 * 5. A cold read verified against the store's checksum against the same read with none to
 * verify, interleaved, on loopback and over the shaped link; beside them, one MD5 pass over the
 * bytes in memory, the most verifying can add when nothing overlaps it.
 */
async function verification(ctx: SuiteContext, p: Plan): Promise<BenchRecord[]> {
  const { root, local } = await ensureCsv(ctx, p.csvBytes);
  await uncheckedCopy(root);
  const sizeMb = mb((await Deno.stat(local)).size).toFixed(0);
  const records: BenchRecord[] = [];
  for (const bandwidth of [0, BANDWIDTH]) {
    const cleanup = new Cleanup();
    ctx.cleanup.defer(() => cleanup.run());
    try {
      const flags = bandwidth === 0 ? [] : ["--bandwidth", String(bandwidth)];
      const server = await startServer(cleanup, ctx, root, flags);
      const cold = (path: string) => async () => {
        const cacheDir = await tempDir(cleanup, "tern-bench-cache-");
        try {
          return await sample(ctx, server, {
            url: server.url,
            path,
            mode: "tern",
            "cache-dir": cacheDir,
          });
        } finally {
          await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
        }
      };
      let rows: number | undefined;
      const check = (name: string, s: Sample) => {
        if (name === "md5") return;
        if (s.rows !== (rows ??= s.rows)) {
          throw new Error(`${name} read ${s.rows} rows, not ${rows}`);
        }
        const verified = s.checksum !== undefined;
        if (verified !== (name === "verified")) {
          throw new Error(`${name}: the read was ${verified ? "" : "not "}verified`);
        }
      };
      const link = bandwidth === 0 ? "loopback" : `a ${bandwidth / 1e6} MB/s link`;
      const reps = bandwidth === 0 ? p.reps : p.shapedReps;
      ctx.log(`data: verified vs unverified reads over ${link}, ${reps} rounds`);
      const loadBefore = await load();
      // One warm-up even in quick mode: the server computes a checksum at its first stat of the
      // file, as a store does once, when the file is written.
      const pair = await rounds(
        ctx,
        {
          verified: cold(CSV_PATH),
          unverified: cold(UNCHECKED_PATH),
          md5: () => sample(ctx, undefined, { mode: "md5", local }),
        },
        reps,
        Math.max(1, p.warmup),
        check,
      );
      const verified = median(pair.verified, ms);
      const unverified = median(pair.unverified, ms);
      const md5 = median(pair.md5, ms);
      records.push(record({
        suite: "data",
        name: `${sizeMb} MB CSV verified against the store's checksum (cold cache), ${link}`,
        value: verified,
        baseline: unverified,
        unit: "ms",
        against: "the same read of a file with no store checksum",
        better: "lower",
        target: 1.05,
        reps,
        valueRange: range(pair.verified, ms),
        baselineRange: range(pair.unverified, ms),
        note: `tern's default dataframe() with a fresh cache folder, of the file and of a hard ` +
          `link to it marked not checksummed (ipc-checksum ""): the same stat, download, cache ` +
          `copy and parse, without the MD5 of the bytes as they stream. One MD5 pass over the ` +
          `bytes in memory (node:crypto) takes ${md5.toFixed(0)} ms ` +
          `(${range(pair.md5, ms).map((v) => v.toFixed(0)).join("–")}): the read plus that ` +
          `pass, the cost if nothing overlapped it, is ` +
          `${((unverified + md5) / unverified).toFixed(2)}×. Verified reads' CPU (reader + ` +
          `server) ${median(pair.verified, (s) => s.cpuMs + s.serverCpuMs).toFixed(0)} ms, ` +
          `unverified ${median(pair.unverified, (s) => s.cpuMs + s.serverCpuMs).toFixed(0)}. ` +
          `Load average ${loadBefore} before, ${await load()} after.`,
      }));
    } finally {
      await cleanup.run();
    }
  }
  return records;
}

async function manyFiles(ctx: SuiteContext, p: Plan): Promise<BenchRecord[]> {
  const root = await ensureMany(ctx, p.files);
  const records: BenchRecord[] = [];
  for (const latency of [MANY_LATENCY_MS, 0]) {
    const cleanup = new Cleanup();
    ctx.cleanup.defer(() => cleanup.run());
    try {
      const server = await startServer(cleanup, ctx, root, ["--latency-ms", String(latency)]);
      const read = (concurrency: number, cached = true) => async () => {
        const cacheDir = cached ? await tempDir(cleanup, "tern-bench-cache-") : "none";
        try {
          return await sample(ctx, server, {
            mode: "many",
            url: server.url,
            path: MANY_PATH,
            concurrency: String(concurrency),
            "cache-dir": cacheDir,
          });
        } finally {
          if (cached) await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
        }
      };
      ctx.log(`data: ${p.files} files, server latency ${latency} ms, ${p.manyReps} rounds`);
      let rows: number | undefined;
      const sameRows = (name: string, s: Sample) => {
        rows ??= s.rows;
        if (s.rows !== rows) throw new Error(`${name} read ${s.rows} rows, expected ${rows}`);
      };
      const contenders: Record<string, () => Promise<Sample>> = {
        concurrent: read(4),
        sequential: read(1),
      };
      // Without latency, what one cache file per tiny file costs: the same reads uncached.
      if (latency === 0) {
        contenders.concurrentNoCache = read(4, false);
        contenders.sequentialNoCache = read(1, false);
      }
      const many = await rounds(ctx, contenders, p.manyReps, 0, sameRows);
      const rate = (s: Sample) => p.files / (s.ms / 1000);
      // One at a time, the reader and the server take turns; the cores they leave idle are all
      // concurrency can add, so the speed-up is at most the cores over the cores in use.
      const busy = median(many.sequential, (s) => (s.cpuMs + s.serverCpuMs) / s.ms);
      const cores = navigator.hardwareConcurrency;
      const conditions = latency === 0
        ? "No latency: every request costs only CPU, on the same cores as the server."
        : `The server waits ${latency} ms before each response, a short round trip for a ` +
          "notebook talking to a remote data store.";
      const ceiling = `One at a time kept ${busy.toFixed(2)} of the ${cores} cores busy (reader ` +
        `and server CPU over the wall time), so no concurrency could be more than ` +
        `${(cores / busy).toFixed(2)}× faster here.`;
      records.push(record({
        suite: "data",
        name: `${p.files.toLocaleString("en-US")} files of 10 KB, server latency ${latency} ms`,
        value: median(many.concurrent, rate),
        baseline: median(many.sequential, rate),
        unit: "files/s",
        against: "the same read one file at a time",
        better: "higher",
        // The issue's target is for a notebook's link (10 ms); without latency the row shows
        // what concurrency adds when every request costs only CPU (see the ceiling below).
        ...(latency === 0 ? {} : { target: 3 }),
        reps: p.manyReps,
        valueRange: range(many.concurrent, rate),
        baselineRange: range(many.sequential, rate),
        note: `${
          latency === 0
            ? `Without the cache: ${median(many.concurrentNoCache, rate).toFixed(0)} files/s ` +
              `concurrent, ${median(many.sequentialNoCache, rate).toFixed(0)} one at a time ` +
              `(${
                (median(many.concurrentNoCache, rate) / median(many.sequentialNoCache, rate))
                  .toFixed(2)
              }×). `
            : ""
        }folder.list().dataframes() with concurrency 4 (the default) against ` +
          `concurrency 1; each run in a fresh process with an empty cache folder (default ` +
          `settings: each file is also written to the cache). ${conditions} ${ceiling} Load ` +
          `average ` +
          `${await load()} at the end.`,
      }));
    } finally {
      await cleanup.run();
    }
  }
  return records;
}

/**
 * The data suite, for bench/main.ts.
 *
 * @example
 * ```ts ignore
 * import { dataSuite } from "./data.ts";
 * import { Cleanup } from "./_proc.ts";
 *
 * const cleanup = new Cleanup();
 * const records = await dataSuite.run({
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
export const dataSuite: Suite = {
  name: "data",
  description: "data-store files into Polars: 160 MB CSV vs local pl.readCSV and the naive " +
    "path, a 100 MB/s link vs its raw transfer, 2,000 small files concurrent vs one at a time, " +
    "cached re-reads, verified vs unverified reads",
  run: async (ctx) => {
    const p = plan(ctx);
    return [
      ...await bigFile(ctx, p),
      ...await shapedLink(ctx, p),
      ...await manyFiles(ctx, p),
      ...await verification(ctx, p),
    ];
  },
};
