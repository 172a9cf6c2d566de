/**
 * {@linkcode ProgressChannel}: a reader's progress callback as an async iterable, for code that
 * prefers `for await`; in a notebook it shows the latest event.
 *
 * @module
 */

import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderProgress } from "../display/progress.ts";
import type { ProgressEvent } from "./events.ts";
import { viewOf } from "./reporter.ts";

/**
 * Progress events as an async iterable: pass {@linkcode ProgressChannel.report} as a reader's
 * `onProgress`, then iterate the channel. Iteration ends after the `done` event. Events that
 * arrive while nobody is iterating are queued, except that consecutive `bytes` events collapse
 * into the latest, so a slow consumer never builds up a backlog.
 *
 * @example
 * ```ts
 * import { ProgressChannel } from "./channel.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const folder = store.folder("/iplant/home/shared/tern_samples/formats");
 * const progress = new ProgressChannel();
 * const frame = folder.list({ glob: "*.?sv" }).dataframes({ onProgress: progress.report });
 * let last = "";
 * for await (const event of progress) last = `${event.kind} ${event.files}/${event.totalFiles}`;
 * assert.equal((await frame).height, 688); // penguins.csv and penguins.tsv
 * assert.equal(last, "done 2/2");
 * ```
 */
export class ProgressChannel implements AsyncIterable<ProgressEvent> {
  #queue: ProgressEvent[] = [];
  #latest: ProgressEvent | undefined;
  #wake: (() => void) | undefined;
  #closed = false;

  /**
   * The callback to hand to a reader (already bound to this channel).
   *
   * @example
   * ```ts
   * import { ProgressChannel } from "./channel.ts";
   * import assert from "node:assert/strict";
   *
   * const channel = new ProgressChannel();
   * channel.report({ kind: "done", bytes: 0, totalBytes: 0, files: 0, totalFiles: 0, cachedFiles: 0, rate: 0, elapsedMs: 0, ok: true });
   * const events = await Array.fromAsync(channel); // "done" ends the iteration
   * assert.deepEqual(events.map((event) => event.kind), ["done"]);
   * ```
   */
  readonly report = (event: ProgressEvent): void => {
    if (this.#closed) return;
    this.#latest = event;
    const last = this.#queue.at(-1);
    if (event.kind === "bytes" && last?.kind === "bytes") {
      this.#queue[this.#queue.length - 1] = event;
    } else this.#queue.push(event);
    if (event.kind === "done") this.#closed = true;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  };

  /**
   * Yields events until (and including) `done`.
   *
   * @example
   * ```ts
   * import { ProgressChannel } from "./channel.ts";
   * import { ProgressTracker } from "./events.ts";
   * import assert from "node:assert/strict";
   *
   * const channel = new ProgressChannel();
   * const tracker = new ProgressTracker(channel.report, 1, 4);
   * tracker.fileDone("/a.csv", false);
   * tracker.done(true);
   * const kinds: string[] = [];
   * for await (const event of channel) kinds.push(event.kind);
   * assert.deepEqual(kinds, ["start", "file", "done"]); // ends after done
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncIterator<ProgressEvent> {
    while (true) {
      while (this.#queue.length === 0) {
        await new Promise<void>((resolve) => this.#wake = resolve);
      }
      const event = this.#queue.shift()!;
      yield event;
      if (event.kind === "done") return;
    }
  }

  /**
   * The notebook view: the latest event as a progress line (after `done`, what was read, how
   * much and how fast), or a note that nothing was reported yet.
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { ProgressChannel } from "./channel.ts";
   * import { ProgressTracker } from "./events.ts";
   * import assert from "node:assert/strict";
   *
   * const progress = new ProgressChannel();
   * const tracker = new ProgressTracker(progress.report, 1, 13487);
   * tracker.bytes(13487);
   * tracker.fileDone("/iplant/home/shared/tern_samples/formats/penguins.csv", false);
   * tracker.done(true);
   * // In a notebook, `progress` as a cell's last line shows this bundle.
   * assert.equal(progress[JUPYTER_DISPLAY]()["text/plain"], "✓ read · 13.5 kB in 0 ms");
   * ```
   */
  [JUPYTER_DISPLAY](): MediaBundle {
    const latest = this.#latest ??
      {
        kind: "start",
        bytes: 0,
        totalBytes: 0,
        files: 0,
        totalFiles: 0,
        cachedFiles: 0,
        rate: 0,
        elapsedMs: 0,
      };
    return renderProgress(
      viewOf(this.#latest === undefined ? "waiting for a read" : "read", latest),
    );
  }
}
