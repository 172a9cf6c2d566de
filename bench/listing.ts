/**
 * The listing suite: iterating a folder of many files through tern's `Listing`
 * (`connect({url}).folder(path).list({pageSize: 1000})`) against a plain loop of `fetch` +
 * `JSON.parse` over the same pages, both against our embedded server run as its own process,
 * once without latency and once with 20 ms of latency per response.
 *
 * Each contender runs in its own worker process (`bench/_listing_worker.ts`), so neither shares
 * an event loop with the harness or the server, and a worker's peak RSS is its own. Both workers
 * first prove they deliver the same entries, then take turns (A B, B A, …) after warm-up.
 *
 * @module
 */

import { join } from "node:path";
import {
  type BenchRecord,
  interleave,
  type MemoryWindow,
  record,
  type Repetitions,
  type Stats,
  type Suite,
  type SuiteContext,
  watchMemory,
} from "./_lib.ts";
import { Cleanup, startChild } from "./_proc.ts";
import { makeManyFiles, SHARED_BENCH } from "./_fixtures.ts";

/** Page size of both contenders, as in the issue. */
const PAGE = 1000;
/** Latency of the shaped run, ms before each response. */
const LATENCY_MS = 20;
const WORKER = "bench/_listing_worker.ts";
const BASELINE = "fetch + JSON.parse loop";
/** Longest a worker may take to start or to answer one command. */
const ANSWER_TIMEOUT_MS = 120_000;

/** Sizes and repetitions of one run of the suite. */
interface Plan {
  files: number;
  /** Timed passes without latency. */
  fast: Repetitions;
  /** Timed passes with {@link LATENCY_MS} of latency. */
  shaped: Repetitions;
  /** Passes each memory worker makes before its peak RSS is read. */
  memoryPasses: number;
}

function plan(ctx: SuiteContext): Plan {
  const p: Plan = ctx.quick
    ? {
      files: 3_000,
      fast: { warmup: 2, reps: 5 },
      shaped: { warmup: 1, reps: 3 },
      memoryPasses: 2,
    }
    : {
      files: 20_000,
      fast: { warmup: 3, reps: 21 },
      shaped: { warmup: 2, reps: 11 },
      memoryPasses: 5,
    };
  if (ctx.reps !== undefined) {
    p.fast = { ...p.fast, reps: ctx.reps };
    p.shaped = { ...p.shaped, reps: ctx.reps };
  }
  return p;
}

/** Which contender a worker runs. */
type Side = "tern" | "plain";

const LABEL: Record<Side, string> = {
  tern: "tern Listing worker",
  plain: `${BASELINE} worker`,
};

/** What a worker's `verify` command answers. */
interface Verified {
  entries: number;
  distinctPaths: number;
  distinctIds: number;
  requests: number;
  pathsSha256: string;
  entriesSha256: string;
}

/** What a worker's `time` command answers. */
interface Timed {
  seconds: number;
  entries: number;
}

/** What a worker's `memory` command answers. */
interface HeapPass {
  heapBefore: number;
  heapPeak: number;
  entries: number;
}

/**
 * A running worker process that answers one JSON line per command written to its stdin. It is
 * stopped by closing its stdin (then SIGKILL after 3 s) when its clean-up runs.
 */
class Contender {
  readonly side: Side;
  readonly pid: number;
  #process: Deno.ChildProcess;
  #stdin: WritableStreamDefaultWriter<Uint8Array>;
  #lines: ReadableStreamDefaultReader<string>;
  #tail = "";
  #stopped?: Promise<void>;

  private constructor(side: Side, process: Deno.ChildProcess) {
    this.side = side;
    this.pid = process.pid;
    this.#process = process;
    this.#stdin = process.stdin.getWriter();
    this.#lines = process.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(splitLines())
      .getReader();
    // Drained for the whole life of the worker so a chatty one never blocks on a full pipe.
    const remember = new WritableStream<string>({
      write: (text) => {
        this.#tail = (this.#tail + text).slice(-4096);
      },
    });
    process.stderr.pipeThrough(new TextDecoderStream()).pipeTo(remember).catch(() => {});
  }

  /** Starts a worker for `side` against the server at `url` and waits for its ready line. */
  static async start(
    cleanup: Cleanup,
    ctx: SuiteContext,
    side: Side,
    url: string,
    folder: string,
  ): Promise<Contender> {
    const process = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--v8-flags=--expose-gc",
        WORKER,
        "--side",
        side,
        "--url",
        url,
        "--path",
        folder,
      ],
      cwd: ctx.repoRoot,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const contender = new Contender(side, process);
    cleanup.defer(() => contender.stop());
    const ready = await contender.#answer<{ ready: boolean; gc: boolean }>("start");
    if (!ready.ready || !ready.gc) {
      throw new Error(`${LABEL[side]} started without --expose-gc: ${JSON.stringify(ready)}`);
    }
    return contender;
  }

  /** Sends one command and returns the worker's answer; throws on its error or silence. */
  async ask<T>(command: "verify" | "time" | "memory"): Promise<T> {
    await this.#stdin.write(new TextEncoder().encode(`${command}\n`));
    return await this.#answer<T>(command);
  }

  async #answer<T>(command: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silence = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer to "${command}" within ${ANSWER_TIMEOUT_MS} ms`)),
        ANSWER_TIMEOUT_MS,
      );
    });
    try {
      const { value, done } = await Promise.race([this.#lines.read(), silence]);
      if (done) throw new Error(`exited before answering "${command}"`);
      const answer = JSON.parse(value);
      if (typeof answer.error === "string") throw new Error(`"${command}" failed: ${answer.error}`);
      return answer as T;
    } catch (error) {
      const tail = this.#tail.trim() === "" ? "" : `; its stderr ended with:\n${this.#tail.trim()}`;
      throw new Error(`${LABEL[this.side]}: ${(error as Error).message}${tail}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes stdin so the worker exits; kills it if it has not within 3 s. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      await this.#stdin.close().catch(() => {});
      const timer = setTimeout(() => {
        try {
          this.#process.kill("SIGKILL");
        } catch {
          // Exited in the meantime.
        }
      }, 3000);
      await this.#process.status;
      clearTimeout(timer);
      await this.#lines.cancel().catch(() => {});
    })();
    return this.#stopped;
  }
}

function splitLines(): TransformStream<string, string> {
  let pending = "";
  return new TransformStream({
    transform(text, controller) {
      pending += text;
      let newline;
      while ((newline = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, newline).trim();
        if (line !== "") controller.enqueue(line);
        pending = pending.slice(newline + 1);
      }
    },
    flush(controller) {
      if (pending.trim() !== "") controller.enqueue(pending.trim());
    },
  });
}

async function startServer(
  cleanup: Cleanup,
  ctx: SuiteContext,
  root: string,
  latencyMs: number,
): Promise<string> {
  const child = await startChild(cleanup, {
    label: `our server (deno run -A lib/server/main.ts --latency-ms ${latencyMs})`,
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "lib/server/main.ts",
      "--root",
      root,
      "--port",
      "0",
      "--latency-ms",
      String(latencyMs),
      "--quiet",
    ],
    cwd: ctx.repoRoot,
    ready: /(http:\/\/[^\s"']+)/,
  });
  return child.readyMatch.replace(/\/+$/, "");
}

/**
 * A store ROOT under the cache holding the folder of `files` small files, written only when the
 * cache lacks a complete one: writing 20,000 files takes far longer on some disks than the
 * whole measurement. A marker written last, outside the served folder, tells a complete folder
 * from an interrupted one; the folder is only ever read.
 */
async function cachedManyFiles(
  ctx: SuiteContext,
  files: number,
): Promise<{ root: string; folder: string }> {
  const root = join(ctx.cacheDir, `listing-${files}`);
  const marker = join(root, "complete.json");
  const folder = `/${SHARED_BENCH}/listing`;
  const complete = await Deno.readTextFile(marker).then(
    (text) => JSON.parse(text).files === files,
    () => false,
  );
  if (complete) {
    ctx.log(`listing: reusing ${count(files)} cached files in ${root}`);
    return { root, folder };
  }
  await Deno.remove(root, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  ctx.log(`listing: writing ${count(files)} small files into ${root}`);
  const written = await makeManyFiles(root, "listing", files, ctx.signal);
  if (written !== folder) throw new Error(`the fixture landed in ${written}, expected ${folder}`);
  await Deno.writeTextFile(marker, JSON.stringify({ files }));
  return { root, folder };
}

/** SHA-256 (hex) of lines joined by newlines, as the worker computes its digests. */
async function sha256(lines: string[]): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(lines.join("\n")));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The folder's data-store paths read straight from disk, sorted: what both sides must list. */
async function expectedPaths(root: string, folder: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(join(root, folder))) names.push(entry.name);
  return names.map((name) => `${folder}/${name}`).sort();
}

/**
 * Checks that both workers delivered every file of the folder, each once, in as many requests
 * as there are pages, and the same entries field for field.
 */
function checkSameEntries(
  answers: Record<Side, Verified>,
  files: number,
  pathsSha256: string,
): void {
  const pages = Math.ceil(files / PAGE);
  for (const side of ["tern", "plain"] as const) {
    const v = answers[side];
    const problems = [];
    if (v.entries !== files) problems.push(`${v.entries} entries`);
    if (v.distinctPaths !== files) problems.push(`${v.distinctPaths} distinct paths`);
    if (v.distinctIds !== files) problems.push(`${v.distinctIds} distinct ids`);
    if (v.pathsSha256 !== pathsSha256) problems.push("paths that differ from the folder on disk");
    if (v.requests !== pages) problems.push(`${v.requests} requests`);
    if (problems.length > 0) {
      throw new Error(
        `${LABEL[side]} delivered ${problems.join(", ")}; expected ${files} distinct files of ` +
          `the folder in ${pages} requests`,
      );
    }
  }
  if (answers.tern.entriesSha256 !== answers.plain.entriesSha256) {
    throw new Error(
      "tern's Listing and the plain loop delivered the same paths but different entries " +
        "(id, size, dates, type or permission differ)",
    );
  }
}

/** One timed pass; throws unless it delivered every entry, so a fast failure never counts. */
async function timedPass(contender: Contender, files: number): Promise<number> {
  const answer = await contender.ask<Timed>("time");
  if (answer.entries !== files) {
    throw new Error(
      `${LABEL[contender.side]} iterated ${answer.entries} entries, expected ${files}`,
    );
  }
  return answer.seconds * 1000;
}

/** Median and range of timed passes of both contenders against one server. */
interface Timing {
  tern: Stats;
  plain: Stats;
}

/**
 * Starts one server with the given latency, verifies both contenders against it, then times
 * them in alternation.
 */
async function timePhase(
  ctx: SuiteContext,
  root: string,
  folder: string,
  expectedSha256: string,
  p: Plan,
  latencyMs: number,
  reps: Repetitions,
): Promise<Timing> {
  const cleanup = new Cleanup();
  ctx.cleanup.defer(() => cleanup.run());
  try {
    const url = await startServer(cleanup, ctx, root, latencyMs);
    const [tern, plain] = await Promise.all([
      Contender.start(cleanup, ctx, "tern", url, folder),
      Contender.start(cleanup, ctx, "plain", url, folder),
    ]);
    checkSameEntries(
      { tern: await tern.ask<Verified>("verify"), plain: await plain.ask<Verified>("verify") },
      p.files,
      expectedSha256,
    );
    ctx.log(`listing: latency ${latencyMs} ms, ${reps.warmup} warm-up + ${reps.reps} rounds`);
    const stats = await interleave(
      () => timedPass(tern, p.files),
      () => timedPass(plain, p.files),
      reps,
    );
    return { tern: stats.ours, plain: stats.baseline };
  } finally {
    await cleanup.run();
  }
}

/** Peak RSS and live heap of both contenders, each in a fresh worker. */
interface MemoryFigures {
  rss: Record<Side, MemoryWindow>;
  heap: Record<Side, HeapPass>;
}

/**
 * Fresh workers, so no verification pass has grown them: VmHWM is reset while they are idle,
 * they make `memoryPasses` timed passes one after the other, then VmHWM is read; last comes one
 * pass with forced collections to read the live heap.
 */
async function memoryPhase(
  ctx: SuiteContext,
  root: string,
  folder: string,
  p: Plan,
): Promise<MemoryFigures> {
  const cleanup = new Cleanup();
  ctx.cleanup.defer(() => cleanup.run());
  try {
    const url = await startServer(cleanup, ctx, root, 0);
    const [tern, plain] = await Promise.all([
      Contender.start(cleanup, ctx, "tern", url, folder),
      Contender.start(cleanup, ctx, "plain", url, folder),
    ]);
    ctx.log(`listing: memory, ${p.memoryPasses} passes per worker`);
    const rss = {} as Record<Side, MemoryWindow>;
    const heap = {} as Record<Side, HeapPass>;
    for (const contender of [tern, plain]) {
      const stop = await watchMemory(contender.pid, 5);
      for (let i = 0; i < p.memoryPasses; i++) await timedPass(contender, p.files);
      rss[contender.side] = await stop();
      heap[contender.side] = await contender.ask<HeapPass>("memory");
      if (heap[contender.side].entries !== p.files) {
        throw new Error(`${LABEL[contender.side]} iterated too few entries in its memory pass`);
      }
    }
    return { rss, heap };
  } finally {
    await cleanup.run();
  }
}

const mb = (bytes: number) => bytes / 1e6;
const count = (n: number) => n.toLocaleString("en-US");

/** What each side does per pass, said once for both timing records. */
function sidesNote(files: number): string {
  return `Each side runs in its own worker process (deno run, warm, keep-alive connection) and ` +
    `times one whole pass over ${count(files)} entries with performance.now(). tern: ` +
    `connect({url, anonymous: true}).folder(path).list({pageSize: ${PAGE}}) iterated with ` +
    `for await (schema-checked pages, Entry objects, duplicate/total checks, next page ` +
    `requested while the current one is consumed). Baseline: sequential fetch of ` +
    `paged-directory?limit=${PAGE}&offset=N, response.text(), JSON.parse, and for every item an ` +
    `object with the same nine fields as tern's Entry (name cut from the path, two Dates), no ` +
    `prefetch and no checks. Per entry both sides then do the same work: count it, add its ` +
    `size, add its name's length. A full GC precedes every pass on both sides; both sides were ` +
    `first verified to deliver the same ${count(files)} distinct entries (paths against the ` +
    `folder on disk, every field against each other, ${Math.ceil(files / PAGE)} requests each).`;
}

function timingRecord(
  p: Plan,
  timing: Timing,
  latencyMs: number,
  reps: Repetitions,
  target: number,
  preface = "",
): BenchRecord {
  const perEntryUs = ((timing.tern.median - timing.plain.median) / p.files) * 1000;
  const rate = (ms: number) => count(Math.round(p.files / (ms / 1000)));
  const span = (s: Stats) =>
    `${s.median.toFixed(1)} ms (range ${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
  return record({
    suite: "listing",
    name: `iterate ${count(p.files)} entries, ${
      latencyMs === 0 ? "no latency" : `server latency ${latencyMs} ms`
    }`,
    value: timing.tern.median,
    baseline: timing.plain.median,
    unit: "ms",
    against: BASELINE,
    better: "lower",
    target,
    reps: reps.reps,
    valueRange: [timing.tern.min, timing.tern.max],
    baselineRange: [timing.plain.min, timing.plain.max],
    note: `${preface}Medians of ${reps.reps} rounds: tern ${span(timing.tern)}, baseline ` +
      `${span(timing.plain)}; ${rate(timing.tern.median)} vs ${rate(timing.plain.median)} ` +
      `entries/s; tern's difference is ${perEntryUs.toFixed(2)} µs per entry. ` +
      (latencyMs === 0 ? "" : `The server waits ${latencyMs} ms before each response. `) +
      `${reps.warmup} warm-up round(s) excluded; rounds alternate which side goes first.`,
  });
}

function memoryRecords(p: Plan, m: MemoryFigures): BenchRecord[] {
  const how = (w: MemoryWindow) =>
    w.hwmReset
      ? "VmHWM reset via /proc/PID/clear_refs while idle, read after the last pass"
      : `largest VmRSS of ${w.polls} polls every 5 ms (VmHWM could not be reset)`;
  const growth = (w: MemoryWindow) =>
    `idle ${mb(w.before).toFixed(1)} MB, growth ${mb(w.peak - w.before).toFixed(1)} MB`;
  const live = (h: HeapPass) => mb(h.heapPeak - h.heapBefore);
  return [
    record({
      suite: "listing",
      name: `peak RSS, iterating ${count(p.files)} entries`,
      value: mb(m.rss.tern.peak),
      baseline: mb(m.rss.plain.peak),
      unit: "MB",
      against: `${BASELINE} worker`,
      better: "lower",
      note: `whole worker process (Deno runtime included), fresh, over ${p.memoryPasses} ` +
        `passes one after the other; tern: ${growth(m.rss.tern)}; baseline: ` +
        `${growth(m.rss.plain)}; ${how(m.rss.tern)}.`,
    }),
    record({
      suite: "listing",
      name: `peak live heap growth, iterating ${count(p.files)} entries`,
      value: live(m.heap.tern),
      baseline: live(m.heap.plain),
      unit: "MB",
      against: BASELINE,
      better: "lower",
      note: `one pass with a forced full GC every 250 entries, then heapUsed; peak minus ` +
        `heapUsed after a GC before the pass (tern ${mb(m.heap.tern.heapBefore).toFixed(1)} MB, ` +
        `baseline ${mb(m.heap.plain.heapBefore).toFixed(1)} MB). This is what stays referenced ` +
        `(pages in flight, entries of the current page), not garbage awaiting collection.`,
    }),
  ];
}

/**
 * The listing suite, for bench/main.ts.
 *
 * @example
 * ```ts ignore
 * import { listingSuite } from "./listing.ts";
 * import { Cleanup } from "./_proc.ts";
 *
 * const cleanup = new Cleanup();
 * const records = await listingSuite.run({
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
export const listingSuite: Suite = {
  name: "listing",
  description: `tern's Listing vs a ${BASELINE} over the same pages: time, with and without ` +
    `${LATENCY_MS} ms latency, and memory`,
  run: async (ctx) => {
    const p = plan(ctx);
    const { root, folder } = await cachedManyFiles(ctx, p.files);
    const expected = await expectedPaths(root, folder);
    if (expected.length !== p.files) {
      throw new Error(`the fixture holds ${expected.length} files, expected ${p.files}`);
    }
    const expectedSha256 = await sha256(expected);

    const fast = await timePhase(ctx, root, folder, expectedSha256, p, 0, p.fast);
    ctx.signal.throwIfAborted();
    const shaped = await timePhase(ctx, root, folder, expectedSha256, p, LATENCY_MS, p.shaped);
    ctx.signal.throwIfAborted();
    const memory = await memoryPhase(ctx, root, folder, p);

    return [
      timingRecord(p, fast, 0, p.fast, 1.1, `${sidesNote(p.files)} `),
      timingRecord(p, shaped, LATENCY_MS, p.shaped, 1),
      ...memoryRecords(p, memory),
    ];
  },
};
