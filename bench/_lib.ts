/**
 * Shared measurement tools for the benchmark suites: the result record, repeated sampling with
 * warm-up and median, interleaved A/B comparison, peak RSS of a child process read from
 * `/proc/PID/status`, and the table renderers.
 *
 * Every suite reports ratios against a baseline measured in the same run on the same machine, so
 * the numbers stay comparable across machines while the absolute values are only context.
 *
 * @module
 */

import type { Cleanup } from "./_proc.ts";

/** Which direction of a ratio counts as an improvement. */
export type Better = "higher" | "lower";

/**
 * One benchmark result: a value, the baseline it is compared against (same unit, same run), the
 * ratio `value / baseline`, and optionally a target ratio with whether it was met.
 *
 * @example
 * ```ts
 * import type { BenchRecord } from "./_lib.ts";
 *
 * const record: BenchRecord = {
 *   suite: "server",
 *   name: "paged listing, 20,000 files",
 *   value: 90_000,
 *   unit: "entries/s",
 *   baseline: 60_000,
 *   against: "python3 -m http.server (HTML listing)",
 *   ratio: 1.5,
 *   better: "higher",
 *   target: 1,
 *   met: true,
 * };
 * ```
 */
export interface BenchRecord {
  /** Suite that produced the record, e.g. `"server"`. */
  suite: string;
  /** What was measured, including the size, e.g. `"download, 500 MB file"`. */
  name: string;
  /** Our measured value (the median unless the name says otherwise). */
  value: number;
  /** Unit of `value` and `baseline`. */
  unit: string;
  /** The baseline, measured in the same run, in the same unit. */
  baseline: number;
  /** What the baseline is, in a few words. */
  against?: string;
  /** `value / baseline`. */
  ratio: number;
  /** Whether a larger or a smaller ratio is better. */
  better: Better;
  /** Target for `ratio`: at least this when `better` is higher, at most this when lower. */
  target?: number;
  /** Whether `ratio` meets `target`; absent when there is no target. */
  met?: boolean;
  /** Number of measured repetitions behind `value` and `baseline` (warm-up excluded). */
  reps?: number;
  /** Smallest and largest sample behind `value`. */
  valueRange?: [number, number];
  /** Smallest and largest sample behind `baseline`. */
  baselineRange?: [number, number];
  /** Anything a reader needs to interpret the figure fairly. */
  note?: string;
}

/**
 * Builds a record, computing `ratio` and `met` so suites cannot get them inconsistent.
 *
 * @example
 * ```ts
 * import { record } from "./_lib.ts";
 *
 * const r = record({
 *   suite: "server",
 *   name: "download",
 *   value: 900,
 *   baseline: 1000,
 *   unit: "MB/s",
 *   better: "higher",
 *   target: 1,
 * });
 * console.log(r.ratio, r.met); // 0.9 false
 * ```
 */
export function record(fields: Omit<BenchRecord, "ratio" | "met">): BenchRecord {
  const ratio = fields.baseline === 0 ? Number.NaN : fields.value / fields.baseline;
  const out: BenchRecord = { ...fields, ratio };
  if (fields.target !== undefined) {
    out.met = fields.better === "higher" ? ratio >= fields.target : ratio <= fields.target;
  }
  return out;
}

/**
 * Summary of repeated samples.
 *
 * @example
 * ```ts
 * import { summarize } from "./_lib.ts";
 *
 * const s = summarize([3, 1, 2]);
 * console.log(s.median, s.min, s.max); // 2 1 3
 * ```
 */
export interface Stats {
  /** Median of the samples (mean of the two middle ones for an even count). */
  median: number;
  /** Smallest sample. */
  min: number;
  /** Largest sample. */
  max: number;
  /** The samples in the order they were taken. */
  samples: number[];
}

/**
 * Summarizes samples by median and range; the median resists the odd slow repetition caused by
 * other work on a shared 2-core machine better than the mean does.
 *
 * @example
 * ```ts
 * import { summarize } from "./_lib.ts";
 *
 * console.log(summarize([4, 1, 3, 2]).median); // 2.5
 * ```
 */
export function summarize(samples: number[]): Stats {
  if (samples.length === 0) throw new RangeError("summarize: no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], samples: [...samples] };
}

/**
 * How many times to run a measurement: unrecorded warm-up runs first, then recorded repetitions.
 *
 * @example
 * ```ts
 * import type { Repetitions } from "./_lib.ts";
 *
 * const plan: Repetitions = { warmup: 2, reps: 15 };
 * ```
 */
export interface Repetitions {
  /** Runs whose samples are thrown away (caches, JIT, connection pools). */
  warmup: number;
  /** Runs whose samples are kept; at least 1. */
  reps: number;
}

/**
 * Runs `sample` `warmup` times unrecorded, then `reps` times, and summarizes the returned values.
 * The sample function returns the figure itself (e.g. a time reported by curl), so the harness's
 * own overhead never enters the measurement.
 *
 * @example
 * ```ts
 * import { repeat, wallSeconds } from "./_lib.ts";
 *
 * const hashOneMegabyte = () => crypto.subtle.digest("SHA-256", new Uint8Array(1e6));
 * const stats = await repeat(() => wallSeconds(hashOneMegabyte), { warmup: 1, reps: 5 });
 * console.log(stats.median > 0); // true
 * ```
 */
export async function repeat(sample: () => Promise<number>, plan: Repetitions): Promise<Stats> {
  checkPlan(plan);
  for (let i = 0; i < plan.warmup; i++) await sample();
  const samples: number[] = [];
  for (let i = 0; i < plan.reps; i++) samples.push(await sample());
  return summarize(samples);
}

/**
 * Measures two contenders in alternating order (A B, B A, A B, …) so that drift on the machine
 * (page cache, frequency scaling, a neighbour's job) falls on both sides alike instead of on
 * whichever ran second.
 *
 * @example
 * ```ts
 * import { interleave, wallSeconds } from "./_lib.ts";
 *
 * const { ours, baseline } = await interleave(
 *   () => wallSeconds(() => Promise.resolve()),
 *   () => wallSeconds(() => new Promise((r) => setTimeout(r, 1))),
 *   { warmup: 1, reps: 3 },
 * );
 * console.log(ours.samples.length, baseline.samples.length); // 3 3
 * ```
 */
export async function interleave(
  ours: () => Promise<number>,
  baseline: () => Promise<number>,
  plan: Repetitions,
): Promise<{ ours: Stats; baseline: Stats }> {
  checkPlan(plan);
  for (let i = 0; i < plan.warmup; i++) {
    await ours();
    await baseline();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < plan.reps; i++) {
    if (i % 2 === 0) {
      a.push(await ours());
      b.push(await baseline());
    } else {
      b.push(await baseline());
      a.push(await ours());
    }
  }
  return { ours: summarize(a), baseline: summarize(b) };
}

function checkPlan(plan: Repetitions): void {
  if (!Number.isInteger(plan.warmup) || plan.warmup < 0) {
    throw new RangeError(`warm-up runs must be an integer >= 0, got ${plan.warmup}`);
  }
  if (!Number.isInteger(plan.reps) || plan.reps < 1) {
    throw new RangeError(`repetitions must be an integer >= 1, got ${plan.reps}`);
  }
}

/**
 * Wall-clock seconds taken by `fn`, from the monotonic clock.
 *
 * @example
 * ```ts
 * import { wallSeconds } from "./_lib.ts";
 *
 * const s = await wallSeconds(() => new Promise((r) => setTimeout(r, 10)));
 * console.log(s >= 0.009); // true
 * ```
 */
export async function wallSeconds(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

/**
 * Resident-set figures of one process, in bytes, from `/proc/PID/status`.
 *
 * @example
 * ```ts
 * import { readMemory } from "./_lib.ts";
 *
 * const m = await readMemory(Deno.pid);
 * console.log(m.hwm >= m.rss); // true
 * ```
 */
export interface Memory {
  /** Current resident set size (VmRSS). */
  rss: number;
  /** Peak resident set size since start or since the last reset (VmHWM). */
  hwm: number;
}

/**
 * Reads VmRSS and VmHWM of a live process.
 *
 * @example
 * ```ts
 * import { readMemory } from "./_lib.ts";
 *
 * console.log((await readMemory(Deno.pid)).rss > 0); // true
 * ```
 */
export async function readMemory(pid: number): Promise<Memory> {
  const text = await Deno.readTextFile(`/proc/${pid}/status`);
  return { rss: statusKb(text, "VmRSS") * 1024, hwm: statusKb(text, "VmHWM") * 1024 };
}

function statusKb(text: string, key: string): number {
  const match = new RegExp(`^${key}:\\s+(\\d+) kB$`, "m").exec(text);
  if (!match) throw new Error(`/proc status has no ${key} line`);
  return Number(match[1]);
}

/**
 * Resets a process's VmHWM to its current RSS by writing `5` to `/proc/PID/clear_refs` (Linux ≥
 * 4.0, needs permission over the process). Returns false when the kernel refuses, in which case
 * VmHWM keeps counting from process start.
 *
 * @example
 * ```ts
 * import { resetPeakMemory } from "./_lib.ts";
 *
 * const ok = await resetPeakMemory(Deno.pid);
 * console.log(typeof ok); // "boolean"
 * ```
 */
export async function resetPeakMemory(pid: number): Promise<boolean> {
  try {
    await Deno.writeTextFile(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * What a {@link watchMemory} window saw.
 *
 * @example
 * ```ts
 * import type { MemoryWindow } from "./_lib.ts";
 *
 * const w: MemoryWindow = { before: 1, peak: 2, hwmReset: true, polls: 10 };
 * ```
 */
export interface MemoryWindow {
  /** RSS when the window opened, bytes. */
  before: number;
  /**
   * Peak RSS inside the window, bytes: VmHWM when it could be reset at the start (exact), else
   * the largest polled VmRSS (a lower bound, since a spike between polls is missed).
   */
  peak: number;
  /** Whether VmHWM was reset when the window opened, making `peak` exact. */
  hwmReset: boolean;
  /** How many times VmRSS was polled. */
  polls: number;
}

/**
 * Opens a window over a child's memory: resets its VmHWM, then polls VmRSS every `intervalMs`
 * until the returned `stop` is called. Polling keeps a fallback peak for kernels that refuse the
 * reset; a poll is one small /proc read, so it costs the measured processes nothing noticeable.
 *
 * @example
 * ```ts
 * import { watchMemory } from "./_lib.ts";
 *
 * const stop = await watchMemory(Deno.pid, 5);
 * const junk = new Uint8Array(32 * 1024 * 1024).fill(1);
 * const window = await stop();
 * console.log(window.peak >= window.before, junk.length > 0); // true true
 * ```
 */
export async function watchMemory(
  pid: number,
  intervalMs = 20,
): Promise<() => Promise<MemoryWindow>> {
  const hwmReset = await resetPeakMemory(pid);
  const before = (await readMemory(pid)).rss;
  let maxRss = before;
  let polls = 0;
  let failure: unknown;
  const timer = setInterval(() => {
    readMemory(pid).then((m) => {
      polls++;
      maxRss = Math.max(maxRss, m.rss);
    }, (error) => failure ??= error);
  }, intervalMs);
  return async () => {
    clearInterval(timer);
    if (failure !== undefined) throw failure;
    const last = await readMemory(pid);
    maxRss = Math.max(maxRss, last.rss);
    return { before, peak: hwmReset ? Math.max(last.hwm, maxRss) : maxRss, hwmReset, polls };
  };
}

/**
 * Formats a number for a table: thousands separators, and 3 significant digits below 100.
 *
 * @example
 * ```ts
 * import { formatNumber } from "./_lib.ts";
 *
 * console.log(formatNumber(123456.7), formatNumber(1.23456)); // "123,457" "1.23"
 * ```
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString("en-US");
  return n.toPrecision(3);
}

function targetText(r: BenchRecord): string {
  if (r.target === undefined) return "";
  return `${r.better === "higher" ? "≥" : "≤"} ${r.target.toFixed(2)}×`;
}

function metText(r: BenchRecord): string {
  if (r.met === undefined) return "";
  return r.met ? "yes" : "NO";
}

function rows(records: BenchRecord[]): string[][] {
  return records.map((r) => [
    r.suite,
    r.name,
    `${formatNumber(r.value)} ${r.unit}`,
    `${formatNumber(r.baseline)} ${r.unit}`,
    r.against ?? "",
    `${r.ratio.toFixed(2)}×`,
    targetText(r),
    metText(r),
  ]);
}

const HEADER = ["suite", "benchmark", "value", "baseline", "baseline is", "ratio", "target", "met"];

/**
 * Renders records as an aligned plain-text table for the terminal.
 *
 * @example
 * ```ts
 * import { formatTable, record } from "./_lib.ts";
 *
 * console.log(formatTable([
 *   record({ suite: "s", name: "n", value: 2, baseline: 1, unit: "x", better: "higher" }),
 * ]));
 * ```
 */
export function formatTable(records: BenchRecord[]): string {
  const table = [HEADER, ...rows(records)];
  const widths = HEADER.map((_, c) => Math.max(...table.map((row) => row[c].length)));
  const line = (row: string[]) => row.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd();
  return [line(table[0]), widths.map((w) => "-".repeat(w)).join("  "), ...table.slice(1).map(line)]
    .join("\n");
}

/**
 * Renders records as a Markdown table, with each record's note listed below it.
 *
 * @example
 * ```ts
 * import { formatMarkdown, record } from "./_lib.ts";
 *
 * const md = formatMarkdown([
 *   record({ suite: "s", name: "n", value: 2, baseline: 1, unit: "x", better: "higher" }),
 * ]);
 * console.log(md.startsWith("| suite")); // true
 * ```
 */
export function formatMarkdown(records: BenchRecord[]): string {
  const escape = (cell: string) => cell.replaceAll("|", "\\|");
  const lines = [
    `| ${HEADER.join(" | ")} |`,
    `|${HEADER.map(() => "---").join("|")}|`,
    ...rows(records).map((row) => `| ${row.map(escape).join(" | ")} |`),
  ];
  const notes = records.filter((r) => r.note).map((r) => `- **${r.suite} / ${r.name}**: ${r.note}`);
  return notes.length > 0 ? `${lines.join("\n")}\n\n${notes.join("\n")}` : lines.join("\n");
}

/**
 * What a suite gets from the harness.
 *
 * @example
 * ```ts
 * import type { SuiteContext } from "./_lib.ts";
 * import { Cleanup } from "./_proc.ts";
 *
 * const ctx: SuiteContext = {
 *   quick: true,
 *   repoRoot: Deno.cwd(),
 *   cacheDir: "bench/out/cache",
 *   cleanup: new Cleanup(),
 *   signal: new AbortController().signal,
 *   log: (message) => console.error(message),
 * };
 * ```
 */
export interface SuiteContext {
  /** Small sizes and few repetitions, for a smoke run of a few seconds. */
  quick: boolean;
  /** Overrides every measurement's number of recorded repetitions. */
  reps?: number;
  /** The repository root (child processes run from here). */
  repoRoot: string;
  /** A git-ignored directory for data worth keeping between runs. */
  cacheDir: string;
  /** Children and temporary directories registered here are removed when the run ends. */
  cleanup: Cleanup;
  /** Aborted on Ctrl-C or SIGTERM; long loops (writing fixtures) stop when it fires. */
  signal: AbortSignal;
  /** Progress messages (to stderr, not into the results). */
  log: (message: string) => void;
}

/**
 * A benchmark suite: one module under bench/ exporting one of these, listed in bench/main.ts.
 *
 * @example
 * ```ts
 * import { record, type Suite } from "./_lib.ts";
 *
 * export const noop: Suite = {
 *   name: "noop",
 *   description: "measures nothing",
 *   run: () =>
 *     Promise.resolve([
 *       record({ suite: "noop", name: "n", value: 1, baseline: 1, unit: "x", better: "higher" }),
 *     ]),
 * };
 * ```
 */
export interface Suite {
  /** Name used on the command line and in the table. */
  name: string;
  /** One line on what the suite measures and against what. */
  description: string;
  /** Runs every measurement of the suite and returns its records. */
  run(ctx: SuiteContext): Promise<BenchRecord[]>;
}
