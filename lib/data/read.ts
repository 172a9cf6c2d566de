/**
 * Reading one data-store file into Polars: from the local cache when it holds the current
 * version, otherwise by downloading it — delimited text and JSON Lines parsed in batches while
 * the body is still arriving (and copied into the cache as it passes), JSON arrays, Parquet and
 * Arrow read whole, from the cached copy when there is one.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import {
  type CachedFile,
  type CacheWriter,
  copyExtension,
  type DiskCache,
  type FileVersion,
} from "../cache/cache.ts";
import { CacheMissError } from "../cache/errors.ts";
import { BadRequestError } from "../client/errors.ts";
import { tableFormat } from "../registry/file_formats.ts";
import type { Entry } from "../client/entry.ts";
import {
  type BodyHandOff,
  checkIsFile,
  EarlyDownload,
  entryBody,
  MAX_RESTARTS,
  restartable,
} from "./body.ts";
import { collect, fileChunks, fileHead, gunzip, Peekable, teeInto } from "./chunks.ts";
import type { DataContext } from "./context.ts";
import { type DetectedFormat, detectFormat, innerFormat, SNIFF_BYTES } from "./formats.ts";
import {
  type BatchOptions,
  checkOptions,
  type DataFrameOptions,
  DEFAULT_BATCH_ROWS,
} from "./options.ts";
import { BatchParser, combineFrames, limitRows, parseWhole } from "./parse.ts";
import { loadPolars, type Polars } from "./polars.ts";
import { type ProgressEvent, ProgressTracker } from "../progress/events.ts";
import { DEFAULT_BATCH_BYTES, RecordSplitter } from "./records.ts";
import { progressFor } from "../progress/reporter.ts";

/**
 * The file a read is about.
 *
 * @example
 * ```ts
 * import { type FileSource, readDataFrame } from "./read.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { statFile } from "../handles/stat.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = store[STORE_CONTEXT].transport;
 * const entry = await statFile(transport, "/iplant/home/shared/tern_samples/formats/penguins.csv");
 * const source: FileSource = {
 *   path: entry.path,
 *   entry,
 *   stat: (signal) => statFile(transport, entry.path, { signal }),
 * };
 * const { frame } = await readDataFrame(store[STORE_CONTEXT], source);
 * assert.deepEqual(frame.shape, { height: 344, width: 7 });
 * ```
 */
export interface FileSource {
  /** Data-store path. */
  path: string;
  /**
   * The entry to trust (one a listing gave); without it the file's current entry is asked
   * for before reading, so a changed file is never served from the cache.
   */
  entry?: Entry;
  /** Reads the file's current entry from the server. */
  stat: (signal?: AbortSignal) => Promise<Entry>;
}

/** Tuning knobs, for the benchmarks and tests; readers use the defaults. */
export interface ReadTuning {
  /** Size delimited text and JSON Lines batches grow to (default 16 MiB). */
  batchBytes?: number;
  /**
   * Arrival rate (bytes/s) from which a whole-file read of delimited text or JSON Lines parses
   * the file once after the transfer, instead of parsing batches as they land (default 600
   * MB/s; 0 always, `Infinity` never).
   */
  nativeRate?: number;
  /**
   * The least size for the native transfer into a file (4 MiB; smaller text is parsed from the
   * body's chunks); the rate is judged on the bytes from 4 to 8 times this many.
   */
  probeBytes?: number;
  /**
   * Without a cache, where a large body of delimited text goes: a temporary file (default), or
   * memory (collected whatever the link, then parsed once: the alternative the benchmark
   * measures).
   */
  uncachedFast?: "file" | "memory";
}

/**
 * How a read got its bytes into Polars: `cache`, a cached copy; `stream`, batches parsed as
 * they arrived; `file`, the body moved natively into a file (the cache copy, or a temporary
 * one) and read once; `memory`, the body collected and parsed once.
 *
 * @example
 * ```ts
 * import { readDataFrame, type ReadRoute } from "./read.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const file = store.file(path);
 * const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const context = store[STORE_CONTEXT];
 * const routes: ReadRoute[] = [];
 * for (const _ of [1, 2]) routes.push((await readDataFrame(context, source)).route);
 * assert.deepEqual(routes, ["stream", "cache"]); // a small file streams; then it is cached
 * ```
 */
export type ReadRoute = "cache" | "stream" | "file" | "memory";

/** Cached copies up to this size are read into memory at once rather than opened by Polars. */
const SMALL_FILE_BYTES = 1024 * 1024;
/** Temporary copies at least this large are removed without waiting (see `viaFile`). */
const DETACHED_REMOVE_BYTES = 16 * 1024 * 1024;
/** See {@linkcode ReadTuning}. */
const PROBE_BYTES = 4 * 1024 * 1024;
/**
 * On 2 cores Polars parses a 160 MB CSV from a file in about 0.21 s, and the batch parse of the
 * same bytes read back as they land takes about 0.46 s in all. Parsing once after the transfer
 * (transfer + 0.21 s) therefore wins only while the transfer takes less than about 0.25 s, above
 * roughly 650 MB/s; measured on shaped links: at 400 MB/s the batch parse took 0.47–0.52 s and
 * the single parse 0.59–0.62 s. Loopback measures 1–2 GB/s here.
 */
const NATIVE_RATE = 600e6;

/**
 * Reads a file into one DataFrame.
 *
 * @throws {UnsupportedFormatError} when it is not a supported table format.
 * @throws {ParseError} when Polars cannot parse it with the options given.
 * @throws {IntegrityError} when its bytes never matched the listed size (or checksum).
 * @throws {CacheMissError} when the store is offline and the file is not cached.
 *
 * @example
 * ```ts
 * import { readDataFrame } from "./read.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const file = store.file(path);
 * const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const context = store[STORE_CONTEXT];
 * const { frame, fromCache } = await readDataFrame(context, source, { nRows: 100 });
 * assert.equal(frame.height, 100);
 * assert.equal(fromCache, false); // a partial read is never cached
 * ```
 */
export async function readDataFrame(
  context: DataContext,
  source: FileSource,
  options: DataFrameOptions = {},
  tuning: ReadTuning = {},
  tracker?: ProgressTracker,
): Promise<{ frame: DataFrame; fromCache: boolean; route: ReadRoute }> {
  checkOptions(options);
  const pl = await loadPolars();
  const progress = tracker ??
    new ProgressTracker(reporterOf(context, options, source), 1, source.entry?.size ?? 0);
  try {
    for (let restart = 0;; restart++) {
      const frames: DataFrame[] = [];
      const stream = frameStream(pl, {
        context,
        source,
        options,
        tuning,
        tracker: progress,
        streaming: false,
        fresh: restart > 0,
        share: true,
        single: tracker === undefined,
      });
      try {
        let next = await stream.next();
        while (!next.done) {
          frames.push(next.value);
          next = await stream.next();
        }
        const frame = limitRows(combineFrames(pl, frames), options.nRows);
        if (tracker === undefined) {
          progress.fileDone(source.path, next.value.fromCache, next.value.route);
          progress.done(true);
        }
        return { frame, ...next.value };
      } catch (error) {
        if (restartable(error) && restart < MAX_RESTARTS) continue;
        throw error;
      }
    }
  } catch (error) {
    if (tracker === undefined) progress.done(false);
    throw error;
  }
}

/**
 * Reads a file as DataFrames of `rows` rows each (the last may be smaller), holding about one
 * batch in memory at a time: for files larger than memory. Iteration starts the read; leaving
 * the loop early cancels the download.
 *
 * @example
 * ```ts
 * import { readBatches } from "./read.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const file = store.file(path);
 * const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const context = store[STORE_CONTEXT];
 * const heights: number[] = [];
 * for await (const batch of readBatches(context, source, { rows: 100 })) heights.push(batch.height);
 * assert.deepEqual(heights, [100, 100, 100, 44]);
 * ```
 */
export function readBatches(
  context: DataContext,
  source: FileSource,
  options: BatchOptions = {},
  tuning: ReadTuning = {},
): AsyncIterable<DataFrame> {
  checkOptions(options);
  const rows = options.rows ?? DEFAULT_BATCH_ROWS;
  return {
    async *[Symbol.asyncIterator]() {
      const pl = await loadPolars();
      const progress = new ProgressTracker(
        reporterOf(context, options, source),
        1,
        source.entry?.size ?? 0,
      );
      let yielded = false;
      try {
        for (let restart = 0;; restart++) {
          let pending: DataFrame | undefined;
          const stream = frameStream(pl, {
            context,
            source,
            options,
            tuning,
            tracker: progress,
            streaming: true,
            fresh: restart > 0,
            // A batch iterator may be left half-read for a long time; sharing its download
            // would make other reads of the file wait for it.
            share: false,
            single: true,
          });
          try {
            let next = await stream.next();
            while (!next.done) {
              pending = pending === undefined
                ? next.value
                : combineFrames(pl, [pending, next.value]);
              while (pending.height >= rows) {
                yielded = true;
                yield pending.slice(0, rows);
                pending = pending.slice(rows, pending.height - rows);
              }
              next = await stream.next();
            }
            if (pending !== undefined && pending.height > 0) {
              yielded = true;
              yield pending;
            }
            progress.fileDone(source.path, next.value.fromCache, next.value.route);
            progress.done(true);
            return;
          } catch (error) {
            // Once batches went out, starting over would repeat them.
            if (!yielded && restartable(error) && restart < MAX_RESTARTS) continue;
            throw error;
          } finally {
            await stream.return(undefined as never);
          }
        }
      } catch (error) {
        progress.done(false);
        throw error;
      }
    },
  };
}

/**
 * Makes sure the current version of a file is in the cache (downloading it once if not) and
 * returns the local copy's path.
 *
 * @throws {BadRequestError} when the store has no cache.
 * @throws {CacheMissError} when the store is offline and the file is not cached.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { cachedCopy } from "./read.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.parquet";
 * const file = store.file(path);
 * const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const local = await cachedCopy(store[STORE_CONTEXT], source);
 * const lazy = pl.scanParquet(local);
 * assert.equal(lazy.collectSync().height, 344);
 * ```
 */
export async function cachedCopy(
  context: DataContext,
  source: FileSource,
  options: Pick<DataFrameOptions, "signal" | "onProgress" | "progress"> = {},
): Promise<string> {
  const cache = context.cache;
  if (cache === undefined) {
    throw new BadRequestError(
      `There is no local cache to keep ${JSON.stringify(source.path)} in: the store was ` +
        "opened with cacheDir: false (or no cache folder could be chosen).",
      { path: source.path },
    );
  }
  const progress = new ProgressTracker(
    reporterOf(context, options, source),
    1,
    source.entry?.size ?? 0,
  );
  try {
    if (context.offline) {
      const cached = await offlineCopy(context, cache, source.path);
      progress.done(true);
      return cached.file;
    }
    const entry = source.entry ?? await source.stat(options.signal);
    const version = versionOf(context, entry);
    while (true) {
      // Claimed before the lookup, so a read that finishes in between is never repeated.
      const claim = cache.claim(version);
      if (!claim.owner) {
        await claim.settled;
        continue;
      }
      try {
        const cached = await cache.lookup(version);
        if (cached !== undefined) {
          progress.fileDone(source.path, true);
          progress.done(true);
          return cached.file;
        }
        const chunks = new Peekable(bodyOf(context, source, entry, options.signal, progress));
        try {
          const writer = await cache.create(version);
          if (writer === undefined) {
            throw new BadRequestError(
              `${JSON.stringify(source.path)} cannot be cached: it is larger than the cache's ` +
                `cap of ${cache.maxBytes} bytes, or the cache folder cannot be written.`,
              { path: source.path },
            );
          }
          try {
            for await (const _ of teeInto(chunks, writer)) { /* teeInto writes each chunk */ }
          } catch (error) {
            await writer.abort();
            throw error;
          }
          const cached = await writer.commit();
          if (cached === undefined) {
            throw new BadRequestError(
              `${JSON.stringify(source.path)} was downloaded but could not be kept in the cache.`,
              { path: source.path },
            );
          }
          progress.fileDone(source.path, false);
          progress.done(true);
          return cached.file;
        } finally {
          await chunks.close();
        }
      } finally {
        claim.release();
      }
    }
  } catch (error) {
    progress.done(false);
    throw error;
  }
}

/** The progress callback of a one-file read: the call's own, plus the store's display. */
function reporterOf(
  context: DataContext,
  options: Pick<DataFrameOptions, "onProgress" | "progress">,
  source: FileSource,
): ((event: ProgressEvent) => void) | undefined {
  return progressFor(
    context.progress,
    options,
    source.path.slice(source.path.lastIndexOf("/") + 1),
  );
}

/** Everything {@linkcode frameStream} needs. */
interface Plan {
  context: DataContext;
  source: FileSource;
  options: DataFrameOptions;
  tuning: ReadTuning;
  tracker: ProgressTracker;
  /** Prefer bounded memory (batches) over the fastest whole-file parse of a cached text file. */
  streaming: boolean;
  /** Ask for the file's entry even when one was given (after a restart). */
  fresh: boolean;
  /** Let concurrent reads of the same version wait for this download instead of repeating it. */
  share: boolean;
  /** The tracker is this file's own, so its expected total is this file's size. */
  single: boolean;
}

/** Where the frames came from. */
interface Outcome {
  fromCache: boolean;
  route: ReadRoute;
}

/**
 * The frames of one file, in order; each already limited so that together they hold at most
 * `nRows` rows. Stopping early (or reaching `nRows`) cancels the download and keeps nothing
 * partial in the cache.
 */
async function* frameStream(pl: Polars, plan: Plan): AsyncGenerator<DataFrame, Outcome> {
  const { context, source, options } = plan;
  const cache = options.cache === false ? undefined : context.cache;
  if (context.offline) {
    if (cache === undefined) {
      throw new BadRequestError(
        `${JSON.stringify(source.path)} cannot be read offline with cache: false.`,
        { path: source.path },
      );
    }
    yield* fromCached(pl, plan, await offlineCopy(context, cache, source.path), null);
    return { fromCache: true, route: "cache" };
  }
  const needsStat = plan.fresh || source.entry === undefined;
  const early = needsStat && !plan.fresh
    ? await earlyDownload(context, cache, source.path, options.signal)
    : undefined;
  const started = early?.download;
  try {
    const entry = needsStat ? await source.stat(options.signal) : source.entry!;
    checkIsFile(entry);
    if (plan.single) plan.tracker.expectBytes(entry.size);
    if (cache === undefined) {
      return { fromCache: false, route: yield* fromNetwork(pl, plan, entry, undefined, started) };
    }
    const version = versionOf(context, entry);
    const keep = { cache, version };
    while (true) {
      // Claimed before the lookup: a read that finishes in between leaves its copy, never a
      // second download.
      const claim = plan.share ? cache.claim(version) : undefined;
      // From here on, other reads of this version wait for the claim instead.
      early?.release();
      if (claim !== undefined && !claim.owner) {
        // Another read in this process is downloading this version: use its copy when done.
        started?.drop();
        await claim.settled;
        continue;
      }
      try {
        const cached = await cache.lookup(version);
        if (cached !== undefined) {
          claim?.release();
          started?.drop();
          yield* fromCached(pl, plan, cached, entry.infoType);
          return { fromCache: true, route: "cache" };
        }
        return { fromCache: false, route: yield* fromNetwork(pl, plan, entry, keep, started) };
      } finally {
        claim?.release();
      }
    }
  } finally {
    started?.drop();
    early?.release();
  }
}

/** Reads in this process that asked for a path's bytes before its stat, per cache. */
const earlyReads = new WeakMap<DiskCache, Map<string, Promise<void>>>();

/**
 * The download of a file sent alongside its stat, when the bytes will be needed whatever the
 * stat says (unless it fails or names a folder): a cold read then waits one round trip, not two.
 * Not when the cache holds a copy of any version (the stat may show it is current). A second
 * read of the path in this process waits for the first, then finds its copy in the cache.
 */
async function earlyDownload(
  context: DataContext,
  cache: DiskCache | undefined,
  path: string,
  signal: AbortSignal | undefined,
): Promise<{ download: EarlyDownload; release(): void } | undefined> {
  if (cache === undefined) {
    return { download: new EarlyDownload(context.transport, path, signal), release: () => {} };
  }
  let reading = earlyReads.get(cache);
  if (reading === undefined) earlyReads.set(cache, reading = new Map());
  const pending = reading.get(path);
  if (pending !== undefined) {
    // Its copy is on the way: this read waits for it through the cache.
    await pending;
    return undefined;
  }
  let release!: () => void;
  const mine = new Promise<void>((resolve) => release = resolve);
  reading.set(path, mine);
  const done = () => {
    if (reading.get(path) === mine) reading.delete(path);
    release();
  };
  if (await cache.holds(context.transport.url, path).catch(() => true)) {
    done();
    return undefined;
  }
  return { download: new EarlyDownload(context.transport, path, signal), release: done };
}

/**
 * Downloads and parses a file, keeping a copy in the cache when one is given. Parquet, Arrow
 * and JSON arrays, and any large text file, move natively (no JavaScript per chunk) into a file
 * (the cache copy or a temporary one). Large delimited text and JSON Lines are then parsed in
 * batches as they arrive when the link is slow, or once from the file when it arrives faster
 * than the batch parse could keep up with. Small text files, row limits and `batches()` are
 * parsed from the body's chunks as they arrive.
 */
async function* fromNetwork(
  pl: Polars,
  plan: Plan,
  entry: Entry,
  keep: { cache: DiskCache; version: FileVersion } | undefined,
  started?: EarlyDownload,
): AsyncGenerator<DataFrame, ReadRoute> {
  const { source, options, tuning } = plan;
  const handOff: BodyHandOff = {};
  // Ends the native transfer when the parse fails or its reader stops early.
  const stop = new AbortController();
  const signal = options.signal === undefined
    ? stop.signal
    : AbortSignal.any([options.signal, stop.signal]);
  const chunks = new Peekable(
    bodyOf(plan.context, source, entry, signal, plan.tracker, handOff, started),
  );
  try {
    const detected = detectFormat({
      path: entry.path,
      infoType: entry.infoType,
      head: await chunks.peek(SNIFF_BYTES),
      format: options.format,
    });
    const probeBytes = tuning.probeBytes ?? PROBE_BYTES;
    const large = entry.size >= probeBytes;
    const body = { chunks, handOff, stop };
    if (isWhole(detected) && !detected.gzip) {
      const target = keep !== undefined || large ? await fileFor(entry, keep) : undefined;
      if (target === undefined) {
        // Small, or no file could be made (no write permission, a full disk): in memory.
        const bytes = await collect(chunks, entry.size);
        yield await parseWhole(pl, detected, { bytes }, options, entry.path);
        return "memory";
      }
      return yield* throughFile(pl, plan, entry, detected, body, target);
    }
    if (large && keep === undefined && tuning.uncachedFast === "memory") {
      // The alternative measured against a temporary file: the body collected in memory.
      const bytes = await collect(chunks, entry.size);
      yield await parseWhole(pl, detected, { bytes }, options, entry.path);
      return "memory";
    } else if (large && options.nRows === undefined && !plan.streaming) {
      // A row limit is met by the first batches, and `batches()` may read a file larger than
      // memory or disk allows: both parse from the chunks, so that the download goes no faster
      // than they do and stops with them. So does a read for which no file can be made.
      const target = await fileFor(entry, keep);
      if (target !== undefined) {
        return yield* throughFile(pl, plan, entry, detected, body, target);
      }
    }
    const writer = keep === undefined ? undefined : await keep.cache.create(keep.version);
    let complete = false;
    try {
      const stopped = yield* parseArriving(pl, plan, entry, detected, chunks, writer);
      if (!stopped) {
        complete = true;
        await writer?.commit({ format: detected.format });
      }
    } finally {
      if (!complete) await writer?.abort();
    }
    return "stream";
  } finally {
    await chunks.close();
  }
}

/**
 * Parses delimited text or JSON Lines (gzip-compressed or not) as its bytes arrive, handing
 * them to `writer` first when given (the compressed bytes, for gzip). Returns whether it stopped
 * early at `nRows`.
 */
async function* parseArriving(
  pl: Polars,
  plan: Plan,
  entry: Entry,
  detected: DetectedFormat,
  chunks: Peekable,
  writer?: CacheWriter,
): AsyncGenerator<DataFrame, boolean> {
  const text = detected.gzip ? new Peekable(gunzip(teeInto(chunks, writer))) : chunks;
  try {
    return yield* parseText(
      pl,
      plan,
      entry.path,
      entry.infoType,
      detected,
      text,
      detected.gzip ? undefined : writer,
      entry.size,
    );
  } finally {
    if (text !== chunks) await text.close();
  }
}

const SCHEDSTAT = "/proc/thread-self/schedstat";
const canReadSchedstat = (() => {
  try {
    return Deno.build.os === "linux" &&
      Deno.permissions.querySync({ name: "read", path: SCHEDSTAT }).state === "granted";
  } catch {
    return false;
  }
})();

/** Milliseconds this thread has waited on a run queue so far (Linux; 0 elsewhere). */
function runQueueMs(): number {
  if (!canReadSchedstat) return 0;
  try {
    return Number(Deno.readTextFileSync(SCHEDSTAT).split(" ")[1]) / 1e6;
  } catch {
    return 0;
  }
}

/** The body of a read and what lets it move natively into a file. */
interface NativeBody {
  chunks: Peekable;
  handOff: BodyHandOff;
  /** Ends the transfer. */
  stop: AbortController;
}

/**
 * The file route: the body moves natively into a new file — the cache copy when the target
 * has `keep` (published only once it parsed, so a failed read caches nothing), else a temporary
 * file removed afterwards. While it arrives, its rate (see `arrivalRate`) decides how text is
 * parsed: once from the file when the link is fast, else in batches read back from the file as
 * it grows, so that a slow link overlaps the parse with the transfer (gzip always so). Whole
 * formats are parsed once.
 */
async function* throughFile(
  pl: Polars,
  plan: Plan,
  entry: Entry,
  detected: DetectedFormat,
  body: NativeBody,
  target: FileTarget,
): AsyncGenerator<DataFrame, ReadRoute> {
  const { options, tuning } = plan;
  const { temp } = target;
  let moved = false;
  const transfer = moveInto(temp, body).finally(() => moved = true);
  // Its failure is the read's; until awaited below it must not count as unhandled.
  transfer.catch(() => {});
  let published = false;
  try {
    const rate = tuning.nativeRate ?? NATIVE_RATE;
    const once = isWhole(detected) ||
      (!detected.gzip && rate < Infinity &&
        (rate <= 0 ||
          await arrivalRate(temp, () => moved, tuning.probeBytes ?? PROBE_BYTES, rate) >= rate));
    let route: ReadRoute;
    if (once) {
      await transfer;
      yield await parseWhole(pl, detected, { file: temp }, options, entry.path);
      route = "file";
    } else {
      const arriving = new Peekable(fileChunks(temp, transfer));
      let stopped: boolean;
      try {
        stopped = yield* parseArriving(pl, plan, entry, detected, arriving);
      } finally {
        await arriving.close();
      }
      // A partial read keeps nothing.
      if (stopped) return "stream";
      await transfer;
      route = "stream";
    }
    // Only a temp file the cache opened becomes an entry (not one over the cap, nor elsewhere).
    if (target.keep !== undefined) {
      const { cache, version } = target.keep;
      published = await cache.take(version, temp, { format: detected.format });
    }
    return route;
  } finally {
    if (!moved) {
      body.stop.abort();
      await transfer.catch(() => {});
    }
    if (!published) {
      const removed = Deno.remove(temp).catch(() => {});
      // Unlinking a large file takes tens of ms (about 50 for 160 MB here): not on the way to the
      // frame. The pending removal keeps the process alive until it is done.
      if (entry.size < DETACHED_REMOVE_BYTES) await removed;
    }
  }
}

/** The file a body moves into: the cache's temporary file, or one of the system's. */
interface FileTarget {
  temp: string;
  /** The cache that opened it, and the version it becomes the copy of once read. */
  keep?: { cache: DiskCache; version: FileVersion };
}

/**
 * A new file for the body: the cache's temporary file for `keep`, else (no cache, over its cap,
 * or its folder not writable) a temporary file of the system's; `undefined` when neither can be
 * made, and the read goes on without a file.
 */
async function fileFor(
  entry: Entry,
  keep: { cache: DiskCache; version: FileVersion } | undefined,
): Promise<FileTarget | undefined> {
  const opened = keep === undefined ? undefined : await keep.cache.openTemp(keep.version);
  if (opened !== undefined) {
    opened.file.close();
    return { temp: opened.temp, keep };
  }
  try {
    return {
      temp: await Deno.makeTempFile({ prefix: "tern-", suffix: copyExtension(entry.path) }),
    };
  } catch {
    return undefined;
  }
}

/**
 * Writes the body into `path`: what is queued first, then the body's next read pipes the rest
 * in natively (a body that cannot still yields chunks, written here).
 */
async function moveInto(path: string, body: NativeBody): Promise<void> {
  // Appending, like the body's own pipes into the same file (after a resumed download too).
  using file = await Deno.open(path, { write: true, append: true });
  body.handOff.file = { path };
  for await (const chunk of body.chunks) await writeAll(file, chunk);
}

/**
 * The rate in bytes/s at which `path` grew from `4 × probeBytes` to `8 × probeBytes`, or over
 * less once it is clearly below `threshold`; `Infinity` when the transfer ended first (with every
 * byte there, one parse of the file is best whatever the link). The first bytes often come in a
 * burst that says nothing of the link (socket buffers, a shaper's first slice, bytes that arrived
 * while the stat was answered), hence the skipped start; watching costs nothing, since the bytes
 * keep moving natively meanwhile.
 */
async function arrivalRate(
  path: string,
  ended: () => boolean,
  probeBytes: number,
  threshold: number,
): Promise<number> {
  using file = await Deno.open(path, { read: true });
  const started = performance.now();
  let from: { size: number; at: number; queued: number } | undefined;
  while (!ended()) {
    const size = (await file.stat()).size;
    if (from === undefined) {
      if (size >= 4 * probeBytes) from = { size, at: performance.now(), queued: runQueueMs() };
    } else {
      // Time this thread sat runnable but off the CPU (a busy machine) is not the link's.
      const waited = performance.now() - from.at - (runQueueMs() - from.queued);
      const rate = (size - from.size) / (Math.max(waited, 0.1) / 1000);
      // Done at the window's end, or as soon as even the threshold rate would have filled it.
      if (size >= 8 * probeBytes || waited >= (4 * probeBytes) / threshold * 1000) return rate;
    }
    // Every millisecond at first; a link that takes seconds is watched less often.
    const wait = Math.min(50, Math.max(1, (performance.now() - started) / 50));
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return Infinity;
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.byteLength;) {
    offset += await file.write(bytes.subarray(offset));
  }
}

/** Reads a cached copy. */
async function* fromCached(
  pl: Polars,
  plan: Plan,
  cached: CachedFile,
  infoType: string | null,
): AsyncGenerator<DataFrame, void> {
  const { options } = plan;
  const path = cached.version.path;
  plan.tracker.bytes(cached.version.size);
  // Small copies are read in one go (one file operation instead of three).
  const bytes = cached.version.size <= SMALL_FILE_BYTES
    ? await Deno.readFile(cached.file)
    : undefined;
  const detected = detectFormat({
    path,
    infoType,
    head: bytes?.subarray(0, SNIFF_BYTES) ?? await fileHead(cached.file, SNIFF_BYTES),
    format: options.format,
  });
  if (!detected.gzip && (isWhole(detected) || !plan.streaming)) {
    // The fastest route for large files: Polars reads the file itself.
    yield await parseWhole(pl, detected, bytes ? { bytes } : { file: cached.file }, options, path);
    return;
  }
  if (detected.gzip && !plan.streaming) {
    const compressed = bytes ?? await Deno.readFile(cached.file);
    const inner = innerFormat({
      path,
      infoType,
      head: await collectHead(gunzip([compressed]), SNIFF_BYTES),
      format: options.format,
    });
    // Polars decompresses gzip CSV itself; other text is decompressed here.
    const text = inner.format === "csv" ? compressed : await collect(gunzip([compressed]));
    const format = { ...inner, gzip: inner.format === "csv" };
    yield await parseWhole(pl, format, { bytes: text }, options, path);
    return;
  }
  const chunks = new Peekable(
    detected.gzip ? gunzip(fileChunks(cached.file)) : fileChunks(cached.file),
  );
  try {
    yield* parseText(pl, plan, path, infoType, detected, chunks, undefined);
  } finally {
    await chunks.close();
  }
}

/**
 * Parses delimited text or JSON Lines (or gzip-compressed JSON) as it arrives, copying each
 * chunk into `writer` first when given. Returns whether it stopped early at `nRows` (the caller
 * then keeps nothing in the cache).
 */
async function* parseText(
  pl: Polars,
  plan: Plan,
  path: string,
  infoType: string | null,
  detected: DetectedFormat,
  chunks: Peekable,
  writer: CacheWriter | undefined,
  expectedBytes?: number,
): AsyncGenerator<DataFrame, boolean> {
  const { options } = plan;
  let format = detected;
  if (detected.gzip) {
    const head = await chunks.peek(SNIFF_BYTES);
    format = innerFormat({ path, infoType, head, format: options.format });
  }
  if (format.format === "json") {
    const bytes = await collect(teeInto(chunks, writer));
    yield await parseWhole(pl, { ...format, gzip: false }, { bytes }, options, path);
    return false;
  }
  const limit = options.nRows;
  const parser = new BatchParser(pl, format, options, path);
  const splitter = new RecordSplitter({
    quote: format.format === "csv" ? options.quoteChar ?? '"' : undefined,
    batchBytes: plan.tuning.batchBytes ?? DEFAULT_BATCH_BYTES,
    ...(detected.gzip || expectedBytes === undefined ? {} : { expectedBytes }),
  });
  let rows = 0;
  const parse = (batch: Uint8Array): DataFrame => {
    // Polars' row limit is only approximate when parsing in parallel, hence the slice.
    const remaining = limit === undefined ? undefined : Math.max(0, limit - rows);
    const frame = limitRows(parser.parse(batch, remaining === 0 ? 1 : remaining), remaining);
    rows += frame.height;
    return frame;
  };
  const enough = () => limit !== undefined && rows >= limit;
  for await (const chunk of chunks) {
    if (writer !== undefined) {
      const wait = writer.write(chunk);
      if (wait !== undefined) await wait;
    }
    const batch = splitter.push(chunk);
    if (batch === undefined) continue;
    yield parse(batch);
    if (enough()) return true;
  }
  // A chunk larger than a batch leaves more than one batch behind; cut them one by one.
  for (let batch = splitter.push(NO_BYTES); batch !== undefined; batch = splitter.push(NO_BYTES)) {
    yield parse(batch);
    if (enough()) return true;
  }
  const rest = splitter.finish();
  if (rest !== undefined) yield parse(rest);
  return false;
}

const NO_BYTES = new Uint8Array(0);

/** The verified body of a file, reporting bytes to the tracker. */
function bodyOf(
  context: DataContext,
  source: FileSource,
  entry: Entry,
  signal: AbortSignal | undefined,
  tracker: ProgressTracker,
  handOff?: BodyHandOff,
  started?: EarlyDownload,
): AsyncGenerator<Uint8Array, void> {
  return entryBody(context.transport, entry, {
    recheck: source.stat,
    signal,
    onBytes: (count) => tracker.bytes(count),
    handOff,
    started,
  });
}

async function offlineCopy(context: DataContext, cache: DiskCache, path: string) {
  const cached = await cache.latest(context.transport.url, path);
  if (cached === undefined) {
    throw new CacheMissError(
      `${JSON.stringify(path)} is not in the local cache (${cache.root}), and the store is ` +
        "offline. Connect without offline: true to download it.",
      { path },
    );
  }
  return cached;
}

/**
 * The cache key of an entry. A checksum is part of it when the entry carries one (Terrain's
 * listings do not; a stat that does is used as is).
 */
function versionOf(context: DataContext, entry: Entry): FileVersion {
  const md5 = (entry as { md5?: unknown }).md5;
  return {
    store: context.transport.url,
    path: entry.path,
    id: entry.id,
    size: entry.size,
    modified: entry.modified.getTime(),
    ...(typeof md5 === "string" && md5 !== "" ? { md5 } : {}),
  };
}

function isWhole(format: DetectedFormat): boolean {
  return !tableFormat(format.format).table.streamed;
}

async function collectHead(stream: ReadableStream<Uint8Array>, count: number): Promise<Uint8Array> {
  const chunks = new Peekable(stream);
  try {
    return await chunks.peek(count);
  } finally {
    await chunks.close();
  }
}
