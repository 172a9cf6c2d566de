/**
 * Turns progress events into what a person sees: one line updated in place in a notebook, a bar
 * redrawn on a terminal's stderr, or nothing. Reads that finish within {@linkcode SHOW_AFTER_MS}
 * show nothing at all, so quick reads do not litter a notebook; longer ones keep their final
 * line (what was read, how much, how fast) as a record of the run.
 *
 * @module
 */

import {
  fraction,
  progressLine,
  type ProgressView,
  renderProgress,
  textBar,
} from "../display/progress.ts";
import type { ProgressEvent } from "./events.ts";
import { type DisplayFunction, kernelDisplay, progressTarget } from "./detect.ts";

/**
 * How a store or a call shows progress: `true` (the default) shows it where it can be seen (the
 * notebook, else a terminal's stderr), `false` never, and a function receives every event
 * instead (your own display; nothing else is shown).
 *
 * @example
 * ```ts
 * import type { ProgressSetting } from "./reporter.ts";
 *
 * const quiet: ProgressSetting = false;
 * const kinds: string[] = [];
 * const collected: ProgressSetting = (event) => void kinds.push(event.kind);
 * ```
 */
export type ProgressSetting = boolean | ((event: ProgressEvent) => void);

/**
 * A read's progress as the walk reports it: entries found and folders visited so far.
 *
 * @example
 * ```ts
 * import type { WalkProgress } from "./reporter.ts";
 *
 * const update: WalkProgress = { kind: "bytes", entries: 1200, folders: 14, elapsedMs: 900 };
 * ```
 */
export interface WalkProgress {
  /** `start`, `bytes` (an update), `done`. */
  kind: "start" | "bytes" | "done";
  /** Entries found. */
  entries: number;
  /** Folders visited. */
  folders: number;
  /** Time since the start. */
  elapsedMs: number;
  /** For `done`: whether the walk finished. */
  ok?: boolean;
}

/** Reads shorter than this show no progress at all. */
export const SHOW_AFTER_MS = 400;

/** Shortest interval between two redraws (a notebook front end re-renders every update). */
const INTERVAL_MS = { jupyter: 250, terminal: 100 } as const;

/**
 * Where a reporter draws: given the view, show it (first time), replace it, or finish it.
 *
 * @example
 * ```ts
 * import type { ProgressSink } from "./reporter.ts";
 *
 * const lines: string[] = [];
 * const sink: ProgressSink = { draw: (view) => lines.push(view.label), finish: (view) => lines.push("done") };
 * ```
 */
export interface ProgressSink {
  /** Shows or replaces the line. */
  draw(view: ProgressView): void;
  /** Shows the final state and releases the line. */
  finish(view: ProgressView): void;
}

/**
 * A sink that shows a line in a notebook and updates it in place through `display` (the
 * kernel's `Deno.jupyter.display`): a `display_data` with a fresh display id, then
 * `update_display_data` messages for it. A display call that fails is ignored.
 *
 * @example
 * ```ts
 * import { notebookSink } from "./reporter.ts";
 * import assert from "node:assert/strict";
 *
 * const updates: (boolean | undefined)[] = [];
 * const sink = notebookSink((bundle, options) => { updates.push(options?.update); });
 * const view = {
 *   label: "penguins.csv", state: "running", bytes: 0, totalBytes: 13487, files: 0, totalFiles: 1,
 *   cachedFiles: 0, rate: 0, elapsedMs: 0,
 * } as const;
 * sink.draw(view);
 * sink.finish({ ...view, state: "done", bytes: 13487, files: 1 });
 * assert.deepEqual(updates, [undefined, true]); // shown once, then replaced in place
 * ```
 */
export function notebookSink(display: DisplayFunction): ProgressSink {
  const id = `tern-progress-${crypto.randomUUID()}`;
  let shown = false;
  const send = (view: ProgressView) => {
    const options = { raw: true as const, ...(shown ? { update: true } : {}), display_id: id };
    shown = true;
    try {
      const sent = display({ ...renderProgress(view) }, options);
      if (sent instanceof Promise) sent.catch(() => {});
    } catch {
      // A failing display must never fail the read.
    }
  };
  return { draw: send, finish: send };
}

/**
 * A sink that redraws one line on a terminal: `\r`, the line cut to the terminal's width, and a
 * line break when finished.
 *
 * @example
 * ```ts
 * import { terminalSink } from "./reporter.ts";
 * import assert from "node:assert/strict";
 *
 * let screen = "";
 * const sink = terminalSink((text) => { screen += text; }, 80);
 * const view = {
 *   label: "penguins.csv", state: "running", bytes: 0, totalBytes: 13487, files: 0, totalFiles: 1,
 *   cachedFiles: 0, rate: 0, elapsedMs: 0,
 * } as const;
 * sink.draw(view);
 * sink.finish({ ...view, state: "done", bytes: 13487, files: 1 });
 * assert.match(screen, /^\r.*penguins\.csv.*\r.*penguins\.csv.*\n$/);
 * ```
 */
export function terminalSink(write: (text: string) => void, columns?: number): ProgressSink {
  const width = () => {
    if (columns !== undefined) return columns;
    try {
      // A pseudo-terminal without a size (script, some CI runners) reports 0 columns.
      const { columns } = Deno.consoleSize();
      return columns >= 20 ? columns : 80;
    } catch {
      return 80;
    }
  };
  const line = (view: ProgressView) => {
    const bar = view.folders !== undefined
      ? ""
      : `${textBar(view.state === "done" ? 1 : fraction(view), 20)} `;
    const text = `${bar}${progressLine(view)}`;
    const max = Math.max(20, width() - 1);
    const points = Array.from(text);
    return points.length > max ? `${points.slice(0, max - 1).join("")}…` : text;
  };
  const safe = (text: string) => {
    try {
      write(text);
    } catch {
      // A closed stderr must never fail the read.
    }
  };
  return {
    draw: (view) => safe(`\r\x1b[2K${line(view)}`),
    finish: (view) => safe(`\r\x1b[2K${line(view)}\n`),
  };
}

/**
 * Options of {@linkcode progressReporter}.
 *
 * @example
 * ```ts
 * import type { ReporterOptions } from "./reporter.ts";
 *
 * const options: ReporterOptions = { setting: true, label: "many_files" };
 * ```
 */
export interface ReporterOptions {
  /** The store's or the call's setting (default `true`). */
  setting?: ProgressSetting;
  /** What is being read, as shown on the line. */
  label: string;
  /** Where to draw, instead of detecting it (tests, or your own front end). */
  sink?: ProgressSink;
}

/**
 * The progress callback for one read: it draws the events where they can be seen (or calls the
 * user's function), throttled, and nothing for reads that end quickly. Returns `undefined` when
 * nothing would be shown, so callers skip the work of reporting.
 *
 * @example
 * ```ts
 * import { progressReporter } from "./reporter.ts";
 * import assert from "node:assert/strict";
 *
 * const report = progressReporter({ setting: false, label: "penguins.csv" });
 * assert.equal(report, undefined);
 * ```
 */
export function progressReporter(
  options: ReporterOptions,
): ((event: ProgressEvent | WalkProgress) => void) | undefined {
  const setting = options.setting ?? true;
  if (setting === false) return undefined;
  if (typeof setting === "function") {
    // The user's own display gets the read's events unchanged (walk updates are not bytes).
    return (event) => {
      if ("totalFiles" in event) setting(event);
    };
  }
  const target = options.sink === undefined ? progressTarget() : "jupyter";
  const sink = options.sink ?? sinkFor(target);
  if (sink === undefined) return undefined;
  const interval = INTERVAL_MS[target === "terminal" ? "terminal" : "jupyter"];
  let shown = false;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let finished = false;
  return (event) => {
    if (finished) return;
    const view = viewOf(options.label, event);
    if (event.kind === "done") {
      finished = true;
      if (shown || view.elapsedMs >= SHOW_AFTER_MS) sink.finish(view);
      return;
    }
    if (view.elapsedMs < SHOW_AFTER_MS) return;
    const now = performance.now();
    if (shown && now - lastDraw < interval) return;
    shown = true;
    lastDraw = now;
    sink.draw(view);
  };
}

function sinkFor(target: "jupyter" | "terminal" | "none"): ProgressSink | undefined {
  if (target === "jupyter") {
    const display = kernelDisplay();
    return display === undefined ? undefined : notebookSink(display);
  }
  if (target === "terminal") {
    const encoder = new TextEncoder();
    return terminalSink((text) => {
      Deno.stderr.writeSync(encoder.encode(text));
    });
  }
  return undefined;
}

/**
 * The view of an event: a read's counters, or a walk's.
 *
 * @example
 * ```ts
 * import { viewOf } from "./reporter.ts";
 * import assert from "node:assert/strict";
 *
 * const view = viewOf("tree", { kind: "done", entries: 12, folders: 3, elapsedMs: 800, ok: true });
 * assert.equal(view.state, "done");
 * assert.equal(view.files, 12);
 * assert.equal(view.folders, 3);
 * ```
 */
export function viewOf(label: string, event: ProgressEvent | WalkProgress): ProgressView {
  const state = event.kind !== "done"
    ? "running"
    : "interrupted" in event && event.interrupted === true
    ? "interrupted"
    : event.ok === false
    ? "failed"
    : "done";
  if (!("totalFiles" in event)) {
    return {
      label,
      state,
      bytes: 0,
      totalBytes: 0,
      files: event.entries,
      totalFiles: 0,
      cachedFiles: 0,
      rate: 0,
      elapsedMs: event.elapsedMs,
      folders: event.folders,
    };
  }
  const { bytes, totalBytes, files, totalFiles, cachedFiles, rate, elapsedMs } = event;
  return { label, state, bytes, totalBytes, files, totalFiles, cachedFiles, rate, elapsedMs };
}

/**
 * The progress callback a read hands to its tracker: the call's own `onProgress` (always), plus
 * the store's display — unless the call says `progress: false` or the store's setting is
 * `false`. A store setting that is a function replaces the display. `undefined` when nothing
 * listens, so the tracker skips its work.
 *
 * @example
 * ```ts
 * import { progressFor } from "./reporter.ts";
 * import assert from "node:assert/strict";
 *
 * const events: string[] = [];
 * const report = progressFor(false, { onProgress: (event) => events.push(event.kind) }, "a.csv");
 * report?.({ kind: "start", bytes: 0, totalBytes: 0, files: 0, totalFiles: 1, cachedFiles: 0, rate: 0, elapsedMs: 0 });
 * assert.deepEqual(events, ["start"]);
 * ```
 */
export function progressFor(
  setting: ProgressSetting | undefined,
  call: { progress?: boolean; onProgress?: (event: ProgressEvent) => void },
  label: string,
): ((event: ProgressEvent) => void) | undefined {
  const shown = call.progress === false ? undefined : progressReporter({ setting, label });
  const own = call.onProgress;
  if (shown === undefined) return own;
  if (own === undefined) return shown;
  return (event) => {
    try {
      own(event);
    } finally {
      shown(event);
    }
  };
}
