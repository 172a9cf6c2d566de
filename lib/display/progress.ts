/**
 * The progress line: what is being read, a bar, bytes and files done out of the total, the rate
 * and the time left — as HTML for a notebook (updated in place), and as one line of text for a
 * terminal or a plain front end.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatBytes, formatCount, formatDuration, formatRate, oneLine, plural } from "./format.ts";
import { type Html, markup } from "./html.ts";
import { bounded } from "./parts.ts";

/**
 * The counters of a read, shared by its progress events and the line that shows them.
 *
 * @example
 * ```ts
 * import type { ProgressCounts } from "./progress.ts";
 *
 * const counts: ProgressCounts = {
 *   bytes: 5e6, totalBytes: 2e7, files: 100, totalFiles: 400, cachedFiles: 0, rate: 2.5e6,
 *   elapsedMs: 2000,
 * };
 * ```
 */
export interface ProgressCounts {
  /** Bytes received so far over all files (bytes read from the local cache included). */
  bytes: number;
  /** Bytes expected: the sum of the listed sizes of the files being read (0 when unknown). */
  totalBytes: number;
  /** Files finished. */
  files: number;
  /** Files to read. */
  totalFiles: number;
  /** Of the finished files, how many came from the local cache. */
  cachedFiles: number;
  /** Average bytes per second since the start. */
  rate: number;
  /** Milliseconds since the start. */
  elapsedMs: number;
}

/**
 * One state of a read, as the progress line shows it (the counters of a progress event).
 *
 * @example
 * ```ts
 * import type { ProgressView } from "./progress.ts";
 *
 * const view: ProgressView = {
 *   label: "many_files", state: "running", bytes: 5e6, totalBytes: 2e7, files: 100, totalFiles: 400,
 *   cachedFiles: 0, rate: 2.5e6, elapsedMs: 2000,
 * };
 * ```
 */
export interface ProgressView extends ProgressCounts {
  /** What is being read (a file name, a folder). */
  label: string;
  /** `running`, `done`, `failed`, or `interrupted` (stopped by its caller, e.g. Ctrl-C). */
  state: "running" | "done" | "failed" | "interrupted";
  /**
   * For a walk (no byte or entry total): folders visited so far; `files` then counts the
   * entries found.
   */
  folders?: number;
}

/**
 * How far along a read is, from 0 to 1: by bytes when the total is known, else by files.
 *
 * @example
 * ```ts
 * import { fraction } from "./progress.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(fraction({ bytes: 50, totalBytes: 200, files: 0, totalFiles: 4 }), 0.25);
 * ```
 */
export function fraction(
  view: Pick<ProgressView, "bytes" | "totalBytes" | "files" | "totalFiles">,
): number {
  if (view.totalBytes > 0) return Math.min(1, view.bytes / view.totalBytes);
  if (view.totalFiles > 0) return Math.min(1, view.files / view.totalFiles);
  return 0;
}

/**
 * Milliseconds left at the current rate, or `undefined` when it cannot be told yet.
 *
 * @example
 * ```ts
 * import { remainingMs } from "./progress.ts";
 * import assert from "node:assert/strict";
 *
 * const view = { bytes: 5e6, totalBytes: 2e7, rate: 5e6, files: 0, totalFiles: 1, elapsedMs: 1000 };
 * assert.equal(remainingMs(view), 3000);
 * ```
 */
export function remainingMs(
  view: Pick<ProgressView, "bytes" | "totalBytes" | "rate" | "files" | "totalFiles" | "elapsedMs">,
): number | undefined {
  if (view.totalBytes > 0 && view.rate > 0 && view.bytes > 0) {
    return Math.max(0, ((view.totalBytes - view.bytes) / view.rate) * 1000);
  }
  if (view.totalFiles > 0 && view.files > 0 && view.elapsedMs > 0) {
    return Math.max(0, (view.elapsedMs / view.files) * (view.totalFiles - view.files));
  }
  return undefined;
}

/**
 * A rate is shown only once a read has taken this long: over a shorter time it mostly measures
 * start-up (a 13.5 kB read that took 0.9 s is not "15 kB/s" of transfer).
 */
const RATE_AFTER_MS = 1000;

/** The counters after the label, e.g. `12.3 MB of 19.8 MB · 248/400 files · 5.1 MB/s · 2 s left`. */
function counters(view: ProgressView): string[] {
  if (view.folders !== undefined) {
    return [
      plural(view.files, "entry", "entries"),
      `${plural(view.folders, "folder")} ${view.state === "running" ? "visited" : "walked"}`,
      formatDuration(view.elapsedMs),
    ];
  }
  const parts: string[] = [];
  if (view.state === "running") {
    parts.push(
      view.totalBytes > 0
        ? `${formatBytes(view.bytes)} of ${formatBytes(view.totalBytes)}`
        : formatBytes(view.bytes),
    );
    if (view.totalFiles > 1) {
      parts.push(`${formatCount(view.files)}/${formatCount(view.totalFiles)} files`);
    }
    if (view.rate > 0 && view.elapsedMs >= RATE_AFTER_MS) parts.push(formatRate(view.rate));
    const left = remainingMs(view);
    if (left !== undefined && view.elapsedMs > 500) parts.push(`${formatDuration(left)} left`);
    return parts;
  }
  const stopped = view.state === "failed" || view.state === "interrupted";
  if (view.state === "interrupted") parts.push("interrupted");
  if (view.totalFiles > 1 || stopped) {
    const of = stopped ? ` of ${formatCount(view.totalFiles)}` : "";
    parts.push(`${formatCount(view.files)}${of} files`);
  }
  parts.push(`${formatBytes(view.bytes)} in ${formatDuration(view.elapsedMs)}`);
  if (view.rate > 0 && view.elapsedMs >= RATE_AFTER_MS) parts.push(formatRate(view.rate));
  if (view.cachedFiles > 0) parts.push(`${formatCount(view.cachedFiles)} from the cache`);
  return parts;
}

function verb(view: ProgressView): string {
  if (view.state === "done") return "✓";
  if (view.state === "failed" || view.state === "interrupted") return "✗";
  if (view.folders !== undefined) return "…";
  return `${Math.floor(fraction(view) * 100)}%`;
}

/**
 * The progress line as a MIME bundle (the HTML is one line with a bar; the text the same line).
 *
 * @example
 * ```ts
 * import { renderProgress } from "./progress.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderProgress({
 *   label: "penguins.csv", state: "done", bytes: 13_478, totalBytes: 13_478, files: 1, totalFiles: 1,
 *   cachedFiles: 0, rate: 1_000_000, elapsedMs: 13,
 * });
 * assert.equal(out["text/plain"], "✓ penguins.csv · 13.5 kB in 13 ms");
 * ```
 */
export function renderProgress(view: ProgressView): MediaBundle {
  return bundle(progressHtml(view), progressLine(view));
}

/**
 * The progress line as plain text.
 *
 * @example
 * ```ts
 * import { progressLine } from "./progress.ts";
 * import assert from "node:assert/strict";
 *
 * const line = progressLine({
 *   label: "many_files", state: "running", bytes: 5e6, totalBytes: 2e7, files: 100, totalFiles: 400,
 *   cachedFiles: 0, rate: 2.5e6, elapsedMs: 2000,
 * });
 * assert.equal(
 *   line,
 *   "25% many_files · 5.00 MB of 20.0 MB · 100/400 files · 2.50 MB/s · 6.0 s left",
 * );
 * ```
 */
export function progressLine(view: ProgressView): string {
  return [`${verb(view)} ${oneLine(view.label)}`, ...counters(view)].join(" · ");
}

/**
 * A terminal progress bar of `width` characters: `[########··········]`.
 *
 * @example
 * ```ts
 * import { textBar } from "./progress.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(textBar(0.4, 10), "[####······]");
 * ```
 */
export function textBar(done: number, width = 24): string {
  const filled = Math.round(Math.max(0, Math.min(1, done)) * width);
  return `[${"#".repeat(filled)}${"·".repeat(width - filled)}]`;
}

function progressHtml(view: ProgressView): Html {
  const percent = view.state === "done" ? 100 : fraction(view) * 100;
  const state = view.state === "running" ? "" : view.state === "done" ? " t-done" : " t-failed";
  // A walk has no total to measure against: no bar until it is done.
  const bar = view.folders !== undefined && view.state === "running"
    ? ""
    : markup`<div class="t-bar"><span style="width:${percent.toFixed(1)}%"></span></div>`;
  return markup`<div class="t-progress${state}">${bar}<span class="t-what">${verb(view)} <bdi>${
    bounded(view.label, 120)
  }</bdi></span><span class="t-muted">${counters(view).join(" · ")}</span></div>`;
}
