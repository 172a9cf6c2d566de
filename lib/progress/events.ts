/**
 * Progress of reads, as plain events: bytes received, files done out of the total, and the
 * rate. Readers report to a callback; {@linkcode ProgressChannel} turns that callback into an
 * async iterable for code that prefers `for await` (`channel.ts`). Rendering (a notebook progress bar) is left
 * to the caller.
 *
 * @module
 */

import type { ProgressCounts } from "../display/progress.ts";

/**
 * One progress report.
 *
 * @example
 * ```ts
 * import type { ProgressEvent } from "./events.ts";
 *
 * const line = (e: ProgressEvent) =>
 *   `${e.files}/${e.totalFiles} files, ${(e.bytes / 1e6).toFixed(1)} MB at ${(e.rate / 1e6).toFixed(1)} MB/s`;
 * ```
 */
export interface ProgressEvent extends ProgressCounts {
  /**
   * `start` before the first byte, `bytes` as data arrives (at most every 100 ms), `file` when
   * a file is done, `done` once at the very end (also after a failure; see `ok`).
   */
  kind: "start" | "bytes" | "file" | "done";
  /** For `file` events: the data-store path of the file just finished. */
  path?: string;
  /**
   * For `file` events of DataFrame reads: how its bytes reached Polars (`cache`, `stream`,
   * `file` or `memory`; see `ReadRoute` in data/read_events.ts).
   */
  route?: "cache" | "stream" | "file" | "memory";
  /** For `done` events: whether the read succeeded. */
  ok?: boolean;
  /** For `done` events: the read was stopped by its caller (Ctrl-C, an abort), not failed. */
  interrupted?: boolean;
}

/** Shortest interval between two `bytes` events. */
const BYTES_INTERVAL_MS = 100;

/**
 * Options of a {@linkcode ProgressTracker}.
 *
 * @example
 * ```ts
 * import { ProgressTracker, type ProgressTrackerOptions } from "./events.ts";
 * import assert from "node:assert/strict";
 *
 * let now = 0;
 * const options: ProgressTrackerOptions = { clock: () => now };
 * const rates: number[] = [];
 * const tracker = new ProgressTracker((e) => e.kind === "file" && rates.push(e.rate), 1, 10, options);
 * tracker.bytes(10);
 * now = 2000;
 * tracker.fileDone("/a.csv", false);
 * assert.deepEqual(rates, [5]); // 10 bytes in 2 s
 * ```
 */
export interface ProgressTrackerOptions {
  /**
   * The time in milliseconds, for the throttle and the rate; tests step it rather than sleep.
   *
   * @default performance.now
   */
  clock?: () => number;
}

/**
 * Keeps the counters of one read (one file or many) and reports them to a callback: `bytes`
 * events throttled to one per 100 ms, every `file` event, and one `done`. A callback that throws
 * is ignored, so a broken progress display never breaks the read.
 *
 * @example
 * ```ts
 * import { ProgressTracker } from "./events.ts";
 * import assert from "node:assert/strict";
 *
 * const events: string[] = [];
 * const tracker = new ProgressTracker((event) => events.push(event.kind), 2, 300);
 * tracker.bytes(100);
 * tracker.fileDone("/a.csv", false);
 * tracker.done(true);
 * assert.deepEqual(events, ["start", "bytes", "file", "done"]);
 * ```
 */
export class ProgressTracker {
  readonly #report: ((event: ProgressEvent) => void) | undefined;
  readonly #totalFiles: number;
  #totalBytes: number;
  readonly #clock: () => number;
  readonly #started: number;
  #bytes = 0;
  #files = 0;
  #cached = 0;
  #lastBytesEvent = Number.NEGATIVE_INFINITY;
  #finished = false;

  /**
   * Starts tracking and sends the `start` event.
   *
   * @param report The callback, or `undefined` to track silently.
   * @param totalFiles Files to read.
   * @param totalBytes Sum of their listed sizes.
   * @param options The clock (see {@linkcode ProgressTrackerOptions}).
   *
   * @example
   * ```ts
   * import { ProgressTracker } from "./events.ts";
   * import assert from "node:assert/strict";
   *
   * const tracker = new ProgressTracker(undefined, 1, 1024);
   * assert.equal(tracker.received, 0);
   * ```
   */
  constructor(
    report: ((event: ProgressEvent) => void) | undefined,
    totalFiles: number,
    totalBytes: number,
    options: ProgressTrackerOptions = {},
  ) {
    this.#clock = options.clock ?? (() => performance.now());
    this.#started = this.#clock();
    this.#report = report;
    this.#totalFiles = totalFiles;
    this.#totalBytes = totalBytes;
    this.#send("start");
  }

  /** Bytes received so far. */
  get received(): number {
    return this.#bytes;
  }

  /**
   * Sets the expected total once it is known (a single file's size after its stat).
   *
   * @example
   * ```ts
   * import { ProgressTracker } from "./events.ts";
   * import assert from "node:assert/strict";
   *
   * const tracker = new ProgressTracker(undefined, 1, 0);
   * tracker.expectBytes(2048);
   * tracker.bytes(1024);
   * assert.equal(tracker.received, 1024);
   * ```
   */
  expectBytes(total: number): void {
    this.#totalBytes = total;
  }

  /**
   * Counts `count` more bytes; sends a `bytes` event when the last one is 100 ms old.
   *
   * @example
   * ```ts
   * import { ProgressTracker } from "./events.ts";
   * import assert from "node:assert/strict";
   *
   * const reported: number[] = [];
   * const tracker = new ProgressTracker((e) => e.kind === "bytes" && reported.push(e.bytes), 1, 2048);
   * for (const chunk of [new Uint8Array(1024), new Uint8Array(1024)]) tracker.bytes(chunk.byteLength);
   * assert.equal(tracker.received, 2048);
   * assert.deepEqual(reported, [1024]); // the second came within 100 ms: counted, not reported
   * ```
   */
  bytes(count: number): void {
    this.#bytes += count;
    if (this.#report === undefined) return;
    const now = this.#clock();
    if (now - this.#lastBytesEvent < BYTES_INTERVAL_MS) return;
    this.#lastBytesEvent = now;
    this.#send("bytes");
  }

  /**
   * Counts one finished file and sends a `file` event.
   *
   * @example
   * ```ts
   * import { type ProgressEvent, ProgressTracker } from "./events.ts";
   * import assert from "node:assert/strict";
   *
   * let last: ProgressEvent | undefined;
   * const tracker = new ProgressTracker((event) => last = event, 2, 0);
   * tracker.fileDone("/iplant/home/shared/a.csv", true);
   * assert.equal(last?.kind, "file");
   * assert.equal(last?.path, "/iplant/home/shared/a.csv");
   * assert.deepEqual([last?.files, last?.cachedFiles, last?.totalFiles], [1, 1, 2]);
   * tracker.fileDone("/iplant/home/shared/b.csv", false, "file");
   * assert.equal(last?.route, "file");
   * ```
   */
  fileDone(path: string, fromCache: boolean, route?: ProgressEvent["route"]): void {
    this.#files++;
    if (fromCache) this.#cached++;
    this.#send("file", route === undefined ? { path } : { path, route });
  }

  /**
   * Sends the final `done` event (once; later calls do nothing).
   *
   * @example
   * ```ts
   * import { ProgressTracker } from "./events.ts";
   * import assert from "node:assert/strict";
   *
   * const outcomes: (boolean | undefined)[] = [];
   * const tracker = new ProgressTracker((e) => e.kind === "done" && outcomes.push(e.ok), 1, 0);
   * tracker.done(false); // the read failed
   * tracker.done(true); // ignored: a read ends once
   * assert.deepEqual(outcomes, [false]);
   *
   * const stopped: (boolean | undefined)[] = [];
   * new ProgressTracker((e) => e.kind === "done" && stopped.push(e.interrupted), 1, 0)
   *   .done("interrupted"); // the caller aborted it
   * assert.deepEqual(stopped, [true]);
   * ```
   */
  done(ok: boolean | "interrupted"): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#send("done", ok === "interrupted" ? { ok: false, interrupted: true } : { ok });
  }

  #send(
    kind: ProgressEvent["kind"],
    extra: Pick<ProgressEvent, "path" | "ok" | "interrupted" | "route"> = {},
  ): void {
    if (this.#report === undefined) return;
    const elapsedMs = this.#clock() - this.#started;
    const event: ProgressEvent = {
      kind,
      bytes: this.#bytes,
      totalBytes: this.#totalBytes,
      files: this.#files,
      totalFiles: this.#totalFiles,
      cachedFiles: this.#cached,
      rate: elapsedMs > 0 ? this.#bytes / (elapsedMs / 1000) : 0,
      elapsedMs,
      ...extra,
    };
    try {
      this.#report(event);
    } catch {
      // A failing progress display must not fail the read.
    }
  }
}
