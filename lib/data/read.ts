/**
 * Every read of one data-store file, in one shape: resolve the {@linkcode FileVersion} (the
 * listing's entry or a fresh stat; offline, the cache's newest copy), let the store's gate
 * admit it (a lock may pin another version, then served only from the cache), read exactly that
 * version, and publish on the store's {@linkcode ReadEvents} what was pinned, the bytes as they
 * arrive, and what was read (with its content hash) or that the read failed. Progress and
 * provenance are subscribers; nothing here calls them.
 *
 * Frames come by two routes. A whole read (`dataframe()`) moves the body into the cache copy
 * (hashed as it goes, published before Polars sees it) and Polars reads that file once; without
 * a cache the body is collected in memory and parsed once. `batches()` and row limits parse
 * delimited text and JSON Lines from the body's chunks as they arrive, stop early, and never
 * hold more than a batch.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import type { DiskCache } from "../cache/cache.ts";
import { CacheMissError } from "../cache/errors.ts";
import type { LocalCopy } from "../cache/open_copy.ts";
import type { CopyWriter } from "../cache/copy_writer.ts";
import { BadRequestError } from "../client/errors.ts";
import type { Entry } from "../client/entry.ts";
import {
  describeVersion,
  type FileVersion,
  type ReadOperation,
  sameVersion,
  versionOfEntry,
} from "../client/file_version.ts";
import { tableFormat } from "../registry/file_formats.ts";
import type { DetectedFormat } from "../registry/format_detection.ts";
import { checkIsFile, earlyDownload } from "./body.ts";
import type { DataContext } from "./context.ts";
import { ChecksumMismatchError, FileChangedError } from "./errors.ts";
import { detectFormat } from "./formats.ts";
import { utf8Head } from "./encoding.ts";
import { type BatchOptions, type DataFrameOptions, DEFAULT_BATCH_ROWS } from "./options.ts";
import { combineFrames, limitRows, parseChunks, parseLocal } from "./parse.ts";
import { type Polars, polarsLoading } from "./polars.ts";
import type { ReadEvents, ReadRoute } from "./read_events.ts";
import type { ContentHasher } from "../cache/content_hash.ts";
import type { Limiter } from "../client/limiter.ts";
import { type ByteSource, checkHash, type Pinned } from "./reader.ts";

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

/**
 * Resolves the version a read will read and asks the store's gate to admit it. Online, that is
 * the file's current version (its listing entry, else a stat); offline, the newest verified
 * cached copy. A gate that pins another version gets it only from the cache. Publishes
 * `pinned` with the version chosen.
 *
 * @throws {CacheMissError} offline without a copy, or when a pinned version is not cached.
 * @throws {BadRequestError} when the path is a folder, or offline without a cache.
 *
 * @example
 * ```ts
 * import { pinVersion } from "./read.ts";
 * import { CacheMissError } from "../cache/errors.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const file = store.file(path);
 * const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const gate = { admit: (v: { size: number }) => ({ ...v, size: 1 }) };
 * const context = { ...store[STORE_CONTEXT], gate };
 * await assert.rejects(pinVersion(context as never, source, "text"), CacheMissError);
 * ```
 */
export async function pinVersion(
  context: DataContext,
  source: FileSource,
  operation: ReadOperation,
  signal?: AbortSignal,
  cache: DiskCache | undefined = context.reader.cache,
): Promise<Pinned> {
  const { path } = source;
  let current: Pinned;
  if (context.offline) {
    if (cache === undefined) {
      throw new BadRequestError(
        `${JSON.stringify(path)} cannot be read offline without the local cache.`,
        { path },
      );
    }
    const copy = await cache.latest(context.transport.url, path);
    if (copy === undefined) {
      throw new CacheMissError(
        `${JSON.stringify(path)} is not in the local cache (${cache.root}), and the store is ` +
          "offline. Connect without offline: true to download it.",
        { path },
      );
    }
    current = { version: copy.version, copy };
  } else {
    const entry = source.entry ?? await source.stat(signal);
    checkIsFile(entry);
    current = { version: versionOfEntry(context.transport.url, entry), entry };
  }
  const admitted = await context.gate?.admit(current.version, operation) ?? current.version;
  let pinned: Pinned;
  if (sameVersion(admitted, current.version)) {
    const hash = admitted.hash ?? current.version.hash;
    pinned = { ...current, version: { ...current.version, hash } };
  } else {
    const copy = await cache?.lookup(admitted);
    if (copy === undefined) {
      throw new CacheMissError(
        `${JSON.stringify(path)} is pinned to another version (${describeVersion(admitted)}) ` +
          `than the store's (${describeVersion(current.version)}), and the local cache holds ` +
          "no verified copy of it.",
        { path },
      );
    }
    pinned = { version: copy.version, copy };
  }
  context.events.publish({ kind: "pinned", operation, version: pinned.version });
  return pinned;
}

/**
 * Reads a file into one DataFrame (`nRows` makes it a `head` read: parsed from the arriving
 * chunks of delimited text and JSON Lines, stopping early, caching nothing partial).
 * `operation` is what its events name: `scan` for a scan that reads its copy whole.
 *
 * @throws {UnsupportedFormatError} when it is not a supported table format.
 * @throws {ParseError} when Polars cannot parse it with the options given.
 * @throws {IntegrityError} when its bytes never matched the listed size.
 * @throws {CacheMissError} when the store is offline and the file is not cached.
 * @throws {FileChangedError} when it kept changing on the server while it was read.
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
 * const { frame, fromCache } = await readDataFrame(store[STORE_CONTEXT], source, { nRows: 100 });
 * assert.equal(frame.height, 100);
 * assert.equal(fromCache, false); // a partial read is never cached
 * ```
 */
export async function readDataFrame(
  context: DataContext,
  source: FileSource,
  options: DataFrameOptions = {},
  operation: "dataframe" | "head" | "scan" = options.nRows === undefined ? "dataframe" : "head",
): Promise<{ frame: DataFrame; fromCache: boolean; route: ReadRoute; version: FileVersion }> {
  const pl = polarsLoading();
  const { events } = context, { signal } = options;
  return await announced({ events, source, operation, signal }, async (source) => {
    const frames: DataFrame[] = [];
    const stream = frameStream(pl, { context, source, options, operation });
    let next = await stream.next();
    for (; !next.done; next = await stream.next()) frames.push(next.value);
    return { frame: limitRows(combineFrames(await pl, frames), options.nRows), ...next.value };
  });
}

/**
 * Reads a file as DataFrames of `rows` rows each (the last may be smaller), holding about one
 * batch in memory at a time: for files larger than memory. Iteration starts the read; leaving
 * the loop early cancels the download. A file that changes mid-way is a
 * {@linkcode FileChangedError}, never a batch of the new version.
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
 * const heights: number[] = [];
 * for await (const batch of readBatches(store[STORE_CONTEXT], source, { rows: 100 })) heights.push(batch.height);
 * assert.deepEqual(heights, [100, 100, 100, 44]);
 * ```
 */
export function readBatches(
  context: DataContext,
  source: FileSource,
  options: BatchOptions = {},
): AsyncIterable<DataFrame> {
  const rows = options.rows ?? DEFAULT_BATCH_ROWS;
  return {
    async *[Symbol.asyncIterator]() {
      const pl = polarsLoading();
      const { events } = context;
      let yielded = false;
      // A mismatch with the store's checksum reads once more, unless a batch was handed over
      // (it cannot be taken back): then the loop ends with the error.
      for (let attempt = 1;; attempt++) {
        const stream = frameStream(pl, { context, source, options, operation: "batches" });
        try {
          let pending: DataFrame | undefined;
          let next = await stream.next();
          for (; !next.done; next = await stream.next()) {
            pending = pending === undefined
              ? next.value
              : combineFrames(await pl, [pending, next.value]);
            for (; pending.height >= rows; pending = pending.slice(rows, pending.height - rows)) {
              yielded = true;
              yield pending.slice(0, rows);
            }
          }
          if (pending !== undefined && pending.height > 0) yield pending;
          events.publish({ kind: "done", operation: "batches", ...next.value });
          return;
        } catch (error) {
          if (error instanceof ChecksumMismatchError && !yielded && attempt === 1) continue;
          events.publish({ kind: "failed", operation: "batches", path: source.path, error });
          throw error;
        } finally {
          await stream.return(undefined as never);
        }
      }
    },
  };
}

/**
 * Makes sure the pinned version of a file is in the cache (downloading it once if not) and
 * returns the verified copy's path; `operation` is what its events name (`scan` for a scan
 * of the copy).
 *
 * @throws {BadRequestError} when the store has no cache, or the file cannot be kept in it.
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
 * assert.equal(pl.scanParquet(local).collectSync().height, 344);
 * ```
 */
export async function cachedCopy(
  context: DataContext,
  source: FileSource,
  options: { signal?: AbortSignal } = {},
  operation: ReadOperation = "cachedPath",
): Promise<string> {
  const { cache } = context.reader;
  const path = source.path;
  if (cache === undefined) {
    throw new BadRequestError(
      `There is no local cache to keep ${JSON.stringify(path)} in: the store was opened with ` +
        "cacheDir: false (or no cache folder could be chosen).",
      { path },
    );
  }
  const cannotKeep = (version: FileVersion) =>
    new BadRequestError(
      `${JSON.stringify(path)} cannot be kept in the local cache: ` +
        (version.size > cache.maxBytes
          ? `its ${version.size} bytes are more than the cache's cap of ${cache.maxBytes} ` +
            "(cacheMaxBytes)."
          : `its folder ${cache.dir} cannot be written.`),
      { path },
    );
  const { events } = context, { signal } = options;
  const keep = async (source: FileSource) => {
    const pinned = await pinVersion(context, source, operation, signal);
    const call = { events, operation, signal, recheck: source.stat, whole: true };
    await using bytes = await context.reader.open(pinned, call);
    if (bytes.copy !== undefined) return { ...bytes.copy.copy, fromCache: true };
    const writer = await cache.writer(pinned.version);
    if (writer === undefined) throw cannotKeep(pinned.version);
    const kept = await bytes.whole(writer, { memory: false });
    await using published = kept.copy;
    if (published === undefined) throw cannotKeep(pinned.version);
    return { ...published.copy, fromCache: false };
  };
  const release = await cache.claim(context.transport.url, path);
  try {
    return await cache.fileOf(await announced({ events, source, operation, signal }, keep));
  } finally {
    release();
  }
}

/**
 * Reads the bytes of the pinned version of a file and hands them, in order, to `consume`
 * (which must read them to the end): from the verified cached copy when the cache holds that
 * version, else downloaded and checked. Starts over once with the file's new version when it
 * changed mid-way (`consume` must then start its result afresh). Its `done` event carries the
 * content hash.
 *
 * @example
 * ```ts
 * import { readBytes } from "./read.ts";
 * import { collect } from "./chunks.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const file = store.file(path);
 * const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const bytes = await readBytes(store[STORE_CONTEXT], source, "bytes", {}, (chunks) => collect(chunks));
 * assert.equal(bytes.byteLength, 13487);
 * ```
 */
export async function readBytes<T>(
  context: DataContext,
  source: FileSource,
  operation: ReadOperation,
  options: { signal?: AbortSignal },
  consume: (chunks: AsyncIterable<Uint8Array>, version: FileVersion) => Promise<T>,
): Promise<T> {
  const { events } = context, { signal } = options;
  return (await announced({ events, source, operation, signal }, async (source) => {
    const pinned = await pinVersion(context, source, operation, signal);
    await using bytes = await context.reader.open(pinned, {
      events,
      operation,
      signal,
      recheck: source.stat,
    });
    const value = await consume(bytes.chunks(), bytes.version);
    return { value, version: bytes.hashed(), fromCache: bytes.copy !== undefined };
  })).value;
}

/**
 * The bytes of the pinned version of a file as a stream (from the verified cached copy when
 * the cache holds that version). It is `done` once the stream was read to the end, `failed` when
 * it errs (a cancelled stream publishes neither). Waits for the first bytes, so a file that
 * cannot be read fails this call.
 *
 * @example
 * ```ts
 * import { streamBytes } from "./read.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const file = store.file(path);
 * const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const stream = await streamBytes(store[STORE_CONTEXT], source);
 * assert.equal((await new Response(stream).bytes()).byteLength, 13487);
 * ```
 */
export async function streamBytes(
  context: DataContext,
  source: FileSource,
  options: { signal?: AbortSignal } = {},
): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
  // Cancelling the stream ends the request even while a read waits for bytes.
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, ...(options.signal ? [options.signal] : [])]);
  async function* published(): AsyncGenerator<Uint8Array, void> {
    try {
      const { events } = context, operation = "stream";
      const pinned = await pinVersion(context, source, operation, signal);
      const call = { events, operation, signal, recheck: source.stat } as const;
      await using bytes = await context.reader.open(pinned, call);
      yield* bytes.chunks();
      const fromCache = bytes.copy !== undefined;
      events.publish({ kind: "done", operation, version: bytes.hashed(), fromCache });
    } catch (error) {
      context.events.publish({ kind: "failed", operation: "stream", path: source.path, error });
      throw error;
    }
  }
  const chunks = published();
  let first: IteratorResult<Uint8Array, void> | undefined = await chunks.next();
  // ArrayBuffer-backed (as fetch bodies are), so that it pipes into DecompressionStream.
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      const next = first ?? await chunks.next();
      first = undefined;
      if (!next.done) return controller.enqueue(next.value as Uint8Array<ArrayBuffer>);
      controller.close();
    },
    async cancel() {
      stop.abort();
      await chunks.return().catch(() => {});
    },
  }, { highWaterMark: 0 });
}

/**
 * Runs a whole read, and once more: with the file's current entry when it changed mid-way, or
 * from the network again when its bytes did not match the store's checksum (nothing of them was
 * cached). Publishes `done` with what it read, or `failed` with why not.
 */
async function announced<T extends { fromCache: boolean; route?: ReadRoute; version: FileVersion }>(
  { events, source, operation, signal }: {
    events: ReadEvents;
    source: FileSource;
    operation: ReadOperation;
    signal?: AbortSignal;
  },
  read: (source: FileSource) => Promise<T>,
): Promise<T> {
  try {
    const result = await read(source).catch(async (error) => {
      if (error instanceof ChecksumMismatchError) return await read(source);
      if (!(error instanceof FileChangedError)) throw error;
      return await read({ ...source, entry: await source.stat(signal) });
    });
    const { version, fromCache, route } = result;
    events.publish({ kind: "done", operation, version, fromCache, ...(route && { route }) });
    return result;
  } catch (error) {
    events.publish({ kind: "failed", operation, path: source.path, error });
    throw error;
  }
}

/** Where the frames came from. */
type Outcome = { fromCache: boolean; route: ReadRoute; version: FileVersion };

/**
 * The frames of one file, in order; together they hold at most `nRows` rows: version → open →
 * bytes → parse. A whole read (`dataframe`) moves a download into the cache copy (else memory)
 * and parses it once; `head` and `batches` parse delimited text and JSON Lines as the chunks
 * arrive and cache nothing partial (a whole format is downloaded whole all the same).
 */
async function* frameStream(
  pl: Promise<Polars>,
  read: {
    context: DataContext;
    source: FileSource;
    options: DataFrameOptions;
    operation: "dataframe" | "head" | "batches" | "scan";
  },
): AsyncGenerator<DataFrame, Outcome> {
  const { context, source, options, operation } = read;
  const cache = options.cache === false ? undefined : context.reader.cache;
  const whole = operation === "dataframe" || operation === "scan";
  // A whole read waits for another of the same path in this process, then uses its copy.
  const release = whole ? await cache?.claim(context.transport.url, source.path) : undefined;
  // Ends a download that runs ahead of its parser when the parser stops early: `batches` only,
  // as the other reads end theirs by closing it.
  const stop = operation === "batches" ? new AbortController() : undefined;
  const signal = stop === undefined
    ? options.signal
    : AbortSignal.any([stop.signal, ...(options.signal ? [options.signal] : [])]);
  // A cold read of a small file asks for its bytes beside the stat: one round trip, not two.
  // That download never holds its request slot waiting for the stat (see earlyDownload).
  const early = !context.offline && source.entry === undefined &&
      !await cache?.holds(context.transport.url, source.path)
    ? earlyDownload(context.transport, source.path, signal)
    : undefined;
  try {
    const pinned = await pinVersion(context, source, operation, options.signal, cache);
    const { version } = pinned;
    const { path } = version;
    const infoType = pinned.entry?.infoType ?? null;
    const { events } = context;
    const recheck = source.stat;
    // Taken only by a download: one that is not taken is dropped (cancelled) below.
    const started = early && (() => early.take());
    const call = { events, operation, signal, recheck, started, whole, cache: cache !== undefined };
    await using bytes = await context.reader.open(pinned, call);
    const { copy } = bytes;
    const head = utf8Head(await bytes.head(), options.encoding);
    const detected = detectFormat({ path, infoType, head, format: options.format }, options);
    const parsing = { options, path, infoType, pl: await pl, detected };
    const parse = (source: LocalCopy) => parseLocal({ ...parsing, source });
    if (copy !== undefined) {
      // The copy's own chunks: hashing them as they pass would check nothing (the copy was
      // checked when it was found), and `head()` published its bytes already.
      if (operation === "batches" && isStreamed(detected)) {
        yield* parseChunks({ ...parsing, chunks: copy.chunks() });
      } else yield await copy.read(parse);
      return { fromCache: true, route: "cache", version: checkHash(version, copy.copy.version) };
    }
    // A loop paused between batches must hold no request slot: a cell that reads beside it
    // (at concurrency 1, any read) would wait for ever. So the body is read ahead of the parser
    // (into the cache copy, when there is a cache), and the batches are parsed at their own pace.
    const streamed = isStreamed(detected);
    if (operation === "batches" && streamed) {
      const writer = await cache?.writer(version);
      // The loop may have paused for long: a file changed since is refused before its bytes
      // reach a batch, by its size and date, and by the first download's ETag (If-Match) where
      // the store sends one (the joined hash, checked at the end, comes after the batches).
      const reopen = async (published: number) => {
        const now = versionOfEntry(version.store, await recheck(signal));
        if (!sameVersion(version, now)) {
          throw new FileChangedError(version, now, "between two downloads of it");
        }
        const again = { ...call, started: undefined, cache: false, published, ifMatch: bytes.etag };
        return await context.reader.open({ version }, again);
      };
      let end: PacedEnd | undefined;
      const chunks = async function* () {
        const { limiter } = context.transport, format = detected.format;
        end = yield* pacedChunks({ bytes, writer, format, reopen, stop: stop!, limiter });
      };
      yield* parseChunks({ ...parsing, chunks: chunks() });
      return { fromCache: false, ...(end ?? { route: "stream", version }) };
    }
    if (!whole && streamed) {
      const stopped = yield* parseChunks({ ...parsing, chunks: bytes.chunks() });
      const hashed = stopped ? version : bytes.hashed();
      return { fromCache: false, route: "stream", version: hashed };
    }
    // Opened once the first bytes showed a table: a refused file leaves nothing behind. The
    // lookup found no copy, and the claim keeps this process from making one since.
    const kept = await bytes.whole(await cache?.writer(version), { format: detected.format });
    await using published = kept.copy;
    yield published ? await published.read(parse) : await parse({ bytes: kept.bytes! });
    return { fromCache: false, route: published ? "file" : "memory", version: kept.version };
  } finally {
    early?.drop();
    release?.();
  }
}

/** Bytes of a body kept in memory for a parser that lags behind its download. */
const PACED_BYTES = 16 * 1024 * 1024;

/** How a paced read ended: `stream` when every chunk came from a download, else `file`. */
type PacedEnd = { route: ReadRoute; version: FileVersion };

/**
 * The body's chunks for a parser that may pause, the download never holding its request slot
 * while another request waits for one. With a `writer` the body goes whole into the cache copy as
 * fast as it arrives. Chunks wait in memory up to {@linkcode PACED_BYTES}; past that the parser
 * takes the rest from the published copy or, without one (no cache, or it failed), from the
 * download, which waits for the parser while no other request waits for a slot, and else is ended
 * and followed by a new download of the same version (`reopen`) once the parser needs it,
 * skipping what was taken. The bytes taken from several downloads must hash as the last one,
 * which read the whole file (the first download hashed what it handed out, all of it taken: the
 * common case hashes nothing more). Returns (as the generator's value) the route and the version,
 * its hash checked.
 */
async function* pacedChunks({ bytes, writer, format, reopen, stop, limiter }: {
  bytes: ByteSource;
  writer: CopyWriter | undefined;
  format: string;
  /** Opens a new download of the version, publishing only the bytes past those given. */
  reopen: (published: number) => Promise<ByteSource>;
  /** Aborts the downloads (their signal). */
  stop: AbortController;
  /** The store's request slots. */
  limiter: Limiter;
}): AsyncGenerator<Uint8Array, PacedEnd> {
  const { size } = bytes.version;
  let taken = 0;
  // What the parser took, hashed, once it comes from more than one download.
  let joined: ContentHasher | undefined;
  /**
   * Runs `pump` ahead of the parser, yielding what it taps, until it ends or lags too far: a copy
   * (`wait` false) then stops queuing, a download waits for room until a slot is wanted.
   */
  async function* ahead<T>(
    pump: (tap: (chunk: Uint8Array) => Promise<boolean>) => Promise<T>,
    wait: boolean,
  ): AsyncGenerator<Uint8Array, T> {
    const queue: Uint8Array[] = [];
    let queued = 0, behind = false, settled = false, drained = false;
    let wake = Promise.withResolvers<void>(), room = Promise.withResolvers<void>();
    const unwatch = limiter.watch(() => room.resolve());
    const full = (chunk: Uint8Array) => queued > 0 && queued + chunk.byteLength > PACED_BYTES;
    // Says whether more is wanted. A download keeps what it read (so its hash covers exactly
    // what was taken); an empty queue takes any chunk, so each download gives some.
    const tap = async (chunk: Uint8Array) => {
      while (wait && !behind && full(chunk) && limiter.pending === 0) {
        await (room = Promise.withResolvers<void>()).promise;
      }
      behind ||= full(chunk);
      if (wait || !behind) queue.push(chunk), queued += chunk.byteLength;
      wake.resolve();
      return !behind;
    };
    const pumped = pump(tap);
    // Its failure is taken below; a parser that stops early never asks (the body is cancelled).
    const done = pumped.then(() => settled = true, () => settled = true)
      .finally(() => wake.resolve());
    try {
      while (true) {
        const chunk = queue.shift();
        if (chunk !== undefined) {
          queued -= chunk.byteLength;
          taken += chunk.byteLength;
          joined?.update(chunk);
          room.resolve();
          yield chunk;
        } else if (behind || settled) {
          drained = true;
          break;
        } else {
          wake = Promise.withResolvers<void>();
          await wake.promise;
        }
      }
    } finally {
      unwatch();
      // A parser that stopped early (a loop left) ends the download and its copy.
      if (!drained && !settled) behind = true, room.resolve(), stop.abort();
      await done;
    }
    return await pumped;
  }
  if (writer !== undefined) {
    const kept = yield* ahead((tap) => bytes.whole(writer, { format, memory: false, tap }), false);
    await using copy = kept.copy;
    if (taken === size) return { route: "stream", version: kept.version };
    if (copy !== undefined) {
      yield* copy.chunks(taken);
      return { route: "file", version: kept.version };
    }
  } else {
    yield* ahead((tap) => forward(bytes, 0, tap), true);
    if (taken === size) return { route: "stream", version: bytes.hashed() };
    joined = bytes.hasher;
  }
  // No copy holds the rest: it comes from new downloads. (After a copy that failed, what was
  // taken before is not hashed: that rare route only checks sizes, as it did.)
  while (true) {
    await using again = await reopen(taken);
    yield* ahead((tap) => forward(again, taken, tap), true);
    if (taken < size) continue;
    const version = again.hashed();
    const hash = joined && `xxh64:${joined.digest()}` as const;
    if (hash !== undefined && hash !== version.hash) {
      throw new FileChangedError(version, { ...version, hash }, "between two downloads of it");
    }
    return { route: "stream", version };
  }
}

/** Hands `source`'s chunks past its first `skip` bytes to `tap` until it wants no more. */
async function forward(
  source: ByteSource,
  skip: number,
  tap: (chunk: Uint8Array) => Promise<boolean>,
): Promise<void> {
  for await (const chunk of source.chunks()) {
    const rest = chunk.subarray(Math.min(skip, chunk.byteLength));
    skip -= chunk.byteLength - rest.byteLength;
    // Ends the download (a body peeked at is not ended by leaving the loop).
    if (rest.byteLength > 0 && !await tap(rest)) return await source[Symbol.asyncDispose]();
  }
}

/** Whether a format is parsed from the arriving chunks (delimited text, JSON Lines). */
function isStreamed(format: DetectedFormat): boolean {
  return tableFormat(format.format).table.streamed;
}
