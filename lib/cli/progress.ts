/**
 * Progress of a multi-file transfer on stderr: one bar for all files (bytes, files, rate, time
 * left), drawn only when stderr is a terminal and the transfer lasts long enough to need it,
 * with status lines printed above it without tearing it. The bar itself is the library's
 * terminal progress display.
 *
 * @module
 */

import { ProgressTracker, type ProgressTrackerOptions } from "../progress/events.ts";
import { progressReporter, terminalSink } from "../progress/mod.ts";
import type { Output } from "./io.ts";

/**
 * Options of a {@linkcode TransferProgress}: the clock that says how long the transfer has
 * lasted, and so whether it is slow enough to need a bar.
 *
 * @example
 * ```ts
 * import type { TransferProgressOptions } from "./progress.ts";
 * import assert from "node:assert/strict";
 *
 * let now = 0;
 * const options: TransferProgressOptions = { clock: () => now };
 * now = 1000;
 * assert.equal(options.clock?.(), 1000);
 * ```
 */
export type TransferProgressOptions = ProgressTrackerOptions;

/**
 * Counts bytes and files across a transfer and shows them.
 *
 * @example
 * ```ts
 * import { Output } from "./io.ts";
 * import { TransferProgress } from "./progress.ts";
 * import assert from "node:assert/strict";
 *
 * let written = "";
 * const sink = {
 *   write: (bytes: Uint8Array) => {
 *     written += new TextDecoder().decode(bytes);
 *     return Promise.resolve(bytes.length);
 *   },
 * };
 * const progress = new TransferProgress(new Output(sink, false), "formats", 3, 40_461);
 * progress.bytes(13_487);
 * progress.fileDone("/iplant/home/shared/tern_samples/formats/penguins.csv", false);
 * await progress.finish(true);
 * assert.equal(written, ""); // not a terminal: no bar is drawn
 * ```
 */
export class TransferProgress {
  readonly #stderr: Output;
  // The library's counting, so the bar shows what a notebook's progress line would.
  readonly #tracker: ProgressTracker;

  /**
   * Starts counting; draws nothing unless `stderr` is a terminal.
   *
   * @param label What is transferred, shown on the bar.
   * @param options The clock (see {@linkcode TransferProgressOptions}).
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import { TransferProgress } from "./progress.ts";
   *
   * const stderr = new Output(Deno.stderr, Deno.stderr.isTerminal());
   * const progress = new TransferProgress(stderr, "penguins.csv", 1, 13_487);
   * await progress.finish(true);
   * ```
   */
  constructor(
    stderr: Output,
    label: string,
    totalFiles: number,
    totalBytes: number,
    options: TransferProgressOptions = {},
  ) {
    this.#stderr = stderr;
    const report = stderr.isTerminal
      ? progressReporter({ label, sink: terminalSink((text) => this.#write(text)) })
      : undefined;
    this.#tracker = new ProgressTracker(report, totalFiles, totalBytes, options);
  }

  /**
   * Counts bytes received.
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import { TransferProgress } from "./progress.ts";
   *
   * const progress = new TransferProgress(new Output(Deno.stderr, false), "a.csv", 1, 13_487);
   * for (const chunk of [new Uint8Array(8_192), new Uint8Array(5_295)]) {
   *   progress.bytes(chunk.byteLength);
   * }
   * await progress.finish(true);
   * ```
   */
  bytes(count: number): void {
    this.#tracker.bytes(count);
  }

  /**
   * Counts a finished file.
   *
   * @param path The file's data-store path.
   * @param fromCache Whether it needed no download.
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import { TransferProgress } from "./progress.ts";
   *
   * const progress = new TransferProgress(new Output(Deno.stderr, false), "formats", 2, 26_974);
   * progress.fileDone("/iplant/home/shared/a.csv", false); // downloaded
   * progress.fileDone("/iplant/home/shared/b.csv", true); // already in the cache
   * await progress.finish(true);
   * ```
   */
  fileDone(path: string, fromCache: boolean): void {
    this.#tracker.fileDone(path, fromCache);
  }

  /**
   * Prints a status line on stderr, above the bar when one is shown.
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import { TransferProgress } from "./progress.ts";
   * import assert from "node:assert/strict";
   *
   * let written = "";
   * const stderr = new Output({
   *   write(bytes) {
   *     written += new TextDecoder().decode(bytes);
   *     return Promise.resolve(bytes.length);
   *   },
   * }, false);
   * const progress = new TransferProgress(stderr, "a.csv", 1, 100);
   * progress.note("from cache  /iplant/home/shared/a.csv → ./a.csv");
   * await progress.finish(true);
   * assert.equal(written, "from cache  /iplant/home/shared/a.csv → ./a.csv\n");
   * ```
   */
  note(line: string): void {
    this.#write(`${this.#stderr.isTerminal ? "\r\x1b[2K" : ""}${line}\n`);
  }

  /**
   * Shows the final state (the bar's last line stays, as a record) and waits for stderr:
   * `true` done (✓), `false` failed (✗), `"interrupted"` stopped by Ctrl-C (✗, "interrupted").
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import { TransferProgress } from "./progress.ts";
   *
   * const progress = new TransferProgress(new Output(Deno.stderr, false), "formats", 1, 13_487);
   * const signal = AbortSignal.timeout(60_000);
   * const failures = 0;
   * await progress.finish(signal.aborted ? "interrupted" : failures === 0);
   * ```
   */
  async finish(ok: boolean | "interrupted"): Promise<void> {
    this.#tracker.done(ok);
    await this.#stderr.flush().catch(() => {});
  }

  /** Sends text to stderr now; the stream keeps writes in order. */
  #write(text: string): void {
    this.#stderr.text(text);
    void this.#stderr.flush().catch(() => {});
  }
}
