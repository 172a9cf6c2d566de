/**
 * Many files into one DataFrame: downloads overlapped up to the store's concurrency, each file
 * parsed as it completes, rows kept in listing order with a column naming their file, and
 * progress reported across all files.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import { BadRequestError } from "../client/errors.ts";
import { mapConcurrent } from "../client/map_concurrent.ts";
import type { Entry } from "../client/entry.ts";
import type { DataContext } from "./context.ts";
import type { ManyOptions } from "./options.ts";
import { combineFrames, limitRows } from "./parse.ts";
import { loadPolars, type Polars } from "./polars.ts";
import { ProgressTracker } from "../progress/events.ts";
import { progressFor } from "../progress/reporter.ts";
import { readDataFrame } from "./read.ts";
import { progressListener } from "./read_progress.ts";

/**
 * The files of a listing, and how to read one's current entry again.
 *
 * @example
 * ```ts
 * import type { ListedFiles } from "./many.ts";
 *
 * const none: ListedFiles = { entries: [], stat: (path) => Promise.reject(new Error(path)) };
 * ```
 */
export interface ListedFiles {
  /** The listing's entries; folders among them are skipped. */
  entries: readonly Entry[];
  /**
   * Reads a file's current entry, used to check it before re-downloading after a broken
   * transfer.
   */
  stat: (path: string, signal?: AbortSignal) => Promise<Entry>;
}

/**
 * Reads every file among `listed.entries` (folders are skipped) into one DataFrame with a `source`
 * column (first) holding each row's data-store path. Files are read `concurrency` at a time
 * (default: the store's), each from the cache when it holds the listed version. Columns are
 * united across files and types widened to a common supertype (Polars' relaxed diagonal
 * concatenation), so files whose columns differ still combine; a column missing from a file is
 * null in its rows; files without rows add their new columns but never change a column's type.
 * The frame comes back with contiguous columns (one chunk, not one per file). The first
 * failure cancels the other reads and is thrown.
 *
 * @throws {BadRequestError} when a file already has the source column.
 *
 * @example
 * ```ts
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { statFile } from "../handles/stat.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import { readMany } from "./many.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const folder = store.folder("/iplant/home/shared/tern_samples/formats");
 * const transport = store[STORE_CONTEXT].transport;
 * const entries = await folder.list({ glob: "*.{csv,tsv}" }).toArray();
 * const stat = (path: string, signal?: AbortSignal) => statFile(transport, path, { signal });
 * const frame = await readMany(store[STORE_CONTEXT], { entries, stat });
 * assert.equal(frame.height, 688);
 * assert.equal(frame.columns[0], "source");
 * ```
 */
export async function readMany(
  context: DataContext,
  listed: ListedFiles,
  options: ManyOptions = {},
): Promise<DataFrame> {
  const { stat } = listed;
  const pl = await loadPolars();
  const files = listed.entries.filter((entry) => entry.type === "file");
  const source = options.source ?? "source";
  const tracker = new ProgressTracker(
    progressFor(context.progress, options, labelOf(files)),
    files.length,
    files.reduce((sum, entry) => sum + entry.size, 0),
  );
  const { onProgress: _, source: __, progress: ___, ...fileOptions } = options;
  const concurrency = context.transport.policy.concurrency;
  const reading = { ...context, events: context.events.with(progressListener(tracker, false)) };
  try {
    const reads = await mapConcurrent(files, concurrency, async (entry, _index, signal) => {
      const { frame } = await readDataFrame(
        reading,
        { path: entry.path, entry, stat: (s) => stat(entry.path, s) },
        { ...fileOptions, signal },
      );
      // Read once: each property of a Polars frame is a call into native code (its proxy lists
      // the columns first). A file's columns are asked for only when the join needs them.
      return { frame, height: frame.height };
    }, { signal: options.signal });
    let rows: DataFrame;
    try {
      rows = combineFrames(pl, typedByRows(reads));
    } catch (error) {
      // Files whose own columns named `source` differ in type cannot even be joined: the
      // clash is the error to report, not Polars' supertype message.
      if (source !== false && reads.some((read) => read.frame.columns.includes(source))) {
        throw sourceTaken(source, files, reads);
      }
      throw error;
    }
    if (source !== false && rows.columns.includes(source)) throw sourceTaken(source, files, reads);
    const frame = source === false || reads.length === 0
      ? rows
      : pl.concat([sourceColumn(pl, source, files, reads), rows], { how: "horizontal" });
    tracker.done(true);
    // One chunk per file makes later filters and group-bys several times slower; joining them
    // once costs a few milliseconds per million rows.
    const joined = limitRows(frame, options.nRows);
    return reads.length > 1 ? joined.rechunk() : joined;
  } catch (error) {
    tracker.done(false);
    throw error;
  }
}

/** What the progress line calls a many-file read: the folder the files share, else "files". */
function labelOf(files: readonly Entry[]): string {
  const folders = new Set(files.map((file) => file.path.slice(0, file.path.lastIndexOf("/"))));
  if (folders.size !== 1) return `files in ${folders.size} folders`;
  const [folder] = folders;
  return folder.slice(folder.lastIndexOf("/") + 1) || folder;
}

/**
 * The frames to join, where files without rows keep only the columns no file with rows has: a
 * header-only file's columns are all text, and would otherwise turn a number column of every
 * other file into text.
 */
function typedByRows(reads: readonly FileFrame[]): DataFrame[] {
  if (reads.every((read) => read.height > 0)) return reads.map((read) => read.frame);
  const typed = new Set(reads.flatMap((read) => read.height > 0 ? read.frame.columns : []));
  return reads.map(({ frame, height }) =>
    height > 0 || typed.size === 0
      ? frame
      : frame.select(...frame.columns.filter((name) => !typed.has(name)))
  );
}

/** One file's frame, with the shape the join needs. */
interface FileFrame {
  frame: DataFrame;
  height: number;
}

/** The error for the first file (in listing order) that has a column named `source`. */
function sourceTaken(
  source: string,
  files: readonly Entry[],
  reads: readonly FileFrame[],
): BadRequestError {
  const { path } = files[reads.findIndex((read) => read.frame.columns.includes(source))];
  return new BadRequestError(
    `${JSON.stringify(path)} already has a column named ${JSON.stringify(source)}; pass ` +
      'source: "another_name" (or false) to dataframes().',
    { path },
  );
}

/**
 * The source column of the joined frame, built once: each path repeated as many times as its
 * file has rows. (A literal added to every file's frame costs about ten times the time and
 * holds a copy of the path per row.)
 */
function sourceColumn(
  pl: Polars,
  name: string,
  files: readonly Entry[],
  reads: readonly FileFrame[],
): DataFrame {
  // Exploding an empty repeat would give a null row, so files without rows are left out.
  const kept = files.flatMap((file, index) =>
    reads[index].height > 0 ? [{ path: file.path, rows: reads[index].height }] : []
  );
  const counts = pl.DataFrame([
    pl.Series(name, kept.map((file) => file.path), pl.String),
    pl.Series("rows", kept.map((file) => file.rows), pl.UInt32),
  ]);
  return counts.select(pl.col(name).repeatBy("rows")).explode(name);
}
