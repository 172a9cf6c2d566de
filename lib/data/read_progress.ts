/**
 * Progress as a subscriber of read events: a call that shows progress reads through a channel
 * whose first listener drives its {@linkcode ProgressTracker}.
 *
 * @module
 */

import type { DataContext } from "./context.ts";
import type { ReadListener } from "./read_events.ts";
import type { FileSource } from "./read.ts";
import { ProgressTracker } from "../progress/events.ts";
import { progressFor } from "../progress/reporter.ts";

/**
 * A listener that drives `tracker`. With `whole` (one file is the whole call), `pinned` sets
 * the expected size, and `done` or `failed` ends the tracker; otherwise the caller ends it (a
 * many-file read, a download that still has to move its file into place).
 *
 * @example
 * ```ts
 * import { progressListener } from "./read_progress.ts";
 * import { ProgressTracker } from "../progress/events.ts";
 * import assert from "node:assert/strict";
 *
 * const kinds: string[] = [];
 * const listen = progressListener(new ProgressTracker((e) => kinds.push(e.kind), 1, 0), true);
 * const version = { store: "s", path: "/a.csv", id: "i", size: 3, modified: 0 };
 * listen({ kind: "pinned", operation: "dataframe", version });
 * listen({ kind: "bytes", operation: "dataframe", path: "/a.csv", count: 3 });
 * listen({ kind: "done", operation: "dataframe", version, fromCache: false, route: "memory" });
 * assert.deepEqual(kinds, ["start", "bytes", "file", "done"]);
 * ```
 */
export function progressListener(tracker: ProgressTracker, whole: boolean): ReadListener {
  return (event) => {
    if (event.kind === "bytes") tracker.bytes(event.count);
    else if (event.kind === "done") {
      tracker.fileDone(event.version.path, event.fromCache, event.route);
      if (whole) tracker.done(true);
    } else if (!whole) return;
    else if (event.kind === "pinned") tracker.expectBytes(event.version.size);
    else tracker.done(false);
  };
}

/**
 * The context a one-file call reads `source` through when it shows progress: the call's
 * `onProgress`, and the store's display unless `progress` is false (see `progressFor`). The
 * size expected is the listing entry's, when the source has one, until the read pins a version.
 *
 * @example
 * ```ts
 * import { withProgress } from "./read_progress.ts";
 * import { readDataFrame } from "./read.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const file = store.file(path);
 * const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const kinds: string[] = [];
 * const call = { progress: false, onProgress: (e: { kind: string }) => void kinds.push(e.kind) };
 * await readDataFrame(withProgress(store[STORE_CONTEXT], call, source), source);
 * assert.deepEqual([kinds[0], ...kinds.slice(-2)], ["start", "file", "done"]);
 * ```
 */
export function withProgress<T extends DataContext>(
  context: T,
  call: Parameters<typeof progressFor>[1],
  source: Pick<FileSource, "path" | "entry">,
): T {
  const { path } = source;
  const report = progressFor(context.progress, call, path.slice(path.lastIndexOf("/") + 1));
  if (report === undefined) return context;
  const tracker = new ProgressTracker(report, 1, source.entry?.size ?? 0);
  return { ...context, events: context.events.with(progressListener(tracker, true)) };
}
