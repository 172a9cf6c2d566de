/**
 * Saving one data-store file to a local path for `tern get`: skipped when the local file already
 * matches (same size and modification time, as rsync's quick check), copied from the store's
 * cache when it holds the current version (no download), else downloaded — through the cache
 * when it can keep the file, straight to disk otherwise. The target only ever appears whole: the
 * bytes go to a hidden file beside it, renamed into place when complete and of the listed size.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import {
  ChecksumMismatchError,
  type Entry,
  FileChangedError,
  IntegrityError,
  type ProgressEvent,
  type Store,
} from "../../mod.ts";
import { localStep, partialName } from "../handles/file.ts";
import { placeFile, realFolders, upToDate } from "../handles/destination.ts";

/**
 * How a file reached its target.
 *
 * @example
 * ```ts
 * import type { SaveSource } from "./transfer.ts";
 *
 * const skipped: SaveSource = "up-to-date";
 * ```
 */
export type SaveSource = "downloaded" | "cache" | "up-to-date";

/**
 * What {@linkcode saveFile} did.
 *
 * @example
 * ```ts
 * import type { SaveResult } from "./transfer.ts";
 *
 * const result: SaveResult = { source: "cache", local: "/tmp/penguins.csv", size: 13487 };
 * ```
 */
export interface SaveResult {
  /** Downloaded, copied from the local cache, or already there. */
  source: SaveSource;
  /** The local path. */
  local: string;
  /** Bytes. */
  size: number;
  /**
   * The store's checksum the bytes were checked against as they were written (or as the cached
   * copy they came from was); absent when the entry carried none (a folder walk's listing, a
   * file the store has not checksummed yet) or the file was already up to date.
   */
  checksum?: string;
}

/**
 * Options of {@linkcode saveFile}.
 *
 * @example
 * ```ts
 * import type { SaveOptions } from "./transfer.ts";
 *
 * let received = 0;
 * const options: SaveOptions = { force: false, onBytes: (count) => received += count };
 * ```
 */
export interface SaveOptions {
  /** Write even when the target already matches. */
  force: boolean;
  /** Told about bytes as they arrive (a copy from the cache counts as arriving at once). */
  onBytes: (count: number) => void;
  /** Aborts the transfer; the target is left as it was. */
  signal?: AbortSignal;
  /**
   * The destination folder the user named: followed if it is a symlink, while no symlink below
   * it is (see lib/handles/destination.ts). Default: the target's own folder.
   */
  root?: string;
}

/**
 * Saves the file `entry` (from a listing or a stat) at `target`, creating parent folders, and
 * gives the file the server's modification time so the next run can tell it is current.
 * A local failure (a folder that cannot be created, no permission) is a `LocalFileError`.
 *
 * A file that changed since `entry` was listed is fetched again as it is now (once). When `entry`
 * carries the store's checksum, the bytes are checked against it as they are written; a
 * mismatch is read once more from the network, then a {@linkcode ChecksumMismatchError} with
 * nothing saved or cached.
 *
 * @throws {IntegrityError} when the bytes never match the listed size or the store's checksum.
 *
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { exampleStore } from "../sample/example.ts";
 * import { saveFile } from "./transfer.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const entry = await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").stat();
 * const dir = await Deno.makeTempDir();
 * const target = join(dir, "penguins.csv");
 * const options = { force: false, onBytes: () => {} };
 * assert.equal((await saveFile(store, entry, target, options)).source, "downloaded");
 * assert.equal((await saveFile(store, entry, target, options)).source, "up-to-date");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function saveFile(
  store: Store,
  entry: Entry,
  target: string,
  options: SaveOptions,
): Promise<SaveResult> {
  // A folder that cannot be created, no permission, no space: typed, naming both paths.
  return localStep(entry.path, target, async () => {
    if (!options.force && await upToDate(target, entry.size, entry.modified)) {
      options.onBytes(entry.size);
      return { source: "up-to-date", local: target, size: entry.size };
    }
    await realFolders(options.root ?? dirname(target), dirname(target));
    const temporary = join(dirname(target), partialName(basename(target)));
    try {
      let current = entry;
      let source: SaveSource;
      try {
        source = await fetchTo(store, current, temporary, options);
      } catch (error) {
        // The file changed since it was listed: once more, with what the server says now.
        if (!(error instanceof IntegrityError || error instanceof FileChangedError)) throw error;
        // A read through the cache already read a mismatched body once more.
        if (error instanceof ChecksumMismatchError && throughCache(store, current)) throw error;
        await Deno.remove(temporary).catch(() => {});
        current = await store.file(entry.path).stat({ refresh: true, signal: options.signal });
        source = await fetchTo(store, current, temporary, options);
      }
      const { size } = await Deno.stat(temporary);
      // The server's date marks the copy as current only when it is the version listed.
      if (size === current.size && !Number.isNaN(current.modified.getTime())) {
        await Deno.utime(temporary, new Date(), current.modified);
      }
      await placeFile(temporary, target);
      const { checksum } = current;
      return { source, local: target, size, ...(checksum === undefined ? {} : { checksum }) };
    } catch (error) {
      await Deno.remove(temporary).catch(() => {});
      throw error;
    }
  });
}

/**
 * The bytes of `entry` into `temporary`: through the store's cache when it can keep them (its
 * copy when current, else a download that fills it), else straight to disk, counting bytes and
 * checking the total against the listed size.
 */
async function fetchTo(
  store: Store,
  entry: Entry,
  temporary: string,
  options: SaveOptions,
): Promise<SaveSource> {
  if (throughCache(store, entry)) {
    let reported = 0;
    let fromCache = false;
    const onProgress = (event: ProgressEvent) => {
      if (event.kind === "file") fromCache = event.cachedFiles > 0;
      if (event.bytes > reported) {
        options.onBytes(event.bytes - reported);
        reported = event.bytes;
      }
    };
    // A handle made from the entry trusts it: no second stat before the cache lookup.
    const copy = await store.file(entry).cachedPath({ onProgress, signal: options.signal });
    await Deno.copyFile(copy, temporary);
    if (reported < entry.size) options.onBytes(entry.size - reported);
    return fromCache ? "cache" : "downloaded";
  }
  const body = await store.file(entry).stream({ signal: options.signal });
  let received = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        options.onBytes(chunk.byteLength);
        controller.enqueue(chunk);
      },
    }),
  );
  const file = await Deno.open(temporary, { write: true, createNew: true });
  // pipeTo closes the file at the end, and aborts (closes) it when the body fails.
  await counted.pipeTo(file.writable, { signal: options.signal });
  if (received !== entry.size) {
    throw new IntegrityError(
      `${JSON.stringify(entry.path)} arrived with ${received} bytes, but the listing says ` +
        `${entry.size}; nothing was saved.`,
      { path: entry.path },
    );
  }
  return "downloaded";
}

/** Whether `entry` is saved through the store's cache (it can keep it). */
function throughCache(store: Store, entry: Entry): boolean {
  return store.cache.enabled && entry.size <= store.cache.maxBytes;
}
