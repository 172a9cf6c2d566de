/**
 * {@linkcode endingProgress}: a read's `onProgress` hears `done` however the read ends.
 *
 * @module
 */

import { isAbortError } from "../client/errors.ts";
import { type ProgressEvent, ProgressTracker } from "../progress/events.ts";

/**
 * Runs `read` with `options`, and when it fails before its reader reported `done` (a misspelt
 * option or path, a listing refused), reports `start` and a failed `done` to `onProgress`
 * itself: a {@linkcode ProgressChannel} iterated beside the read would otherwise wait forever
 * for the end it was promised. `read` gets `options` with `onProgress` wrapped, unparsed.
 *
 * @example
 * ```ts
 * import { endingProgress } from "./ending_progress.ts";
 * import assert from "node:assert/strict";
 *
 * const kinds: string[] = [];
 * const options = { onProgress: (event: { kind: string }) => void kinds.push(event.kind) };
 * await assert.rejects(endingProgress(options, () => Promise.reject(new Error("no such file"))));
 * assert.deepEqual(kinds, ["start", "done"]);
 * ```
 */
export async function endingProgress<O, T>(
  options: O,
  read: (options: O) => Promise<T>,
): Promise<T> {
  const report = (options as { onProgress?: unknown } | undefined)?.onProgress;
  if (typeof report !== "function") return await read(options);
  const seen = new Set<ProgressEvent["kind"]>();
  const onProgress = (event: ProgressEvent) => {
    seen.add(event.kind);
    report(event);
  };
  try {
    return await read({ ...options, onProgress });
  } catch (error) {
    if (!seen.has("done")) {
      // One `start` in all: a reader may have sent its own before failing.
      new ProgressTracker(
        (event) => {
          if (event.kind === "done" || !seen.has("start")) report(event);
        },
        0,
        0,
      ).done(isAbortError(error) ? "interrupted" : false);
    }
    throw error;
  }
}
