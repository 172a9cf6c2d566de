/**
 * Lazy scans of data-store files as Polars LazyFrames. A public Parquet file is scanned in place
 * over its anonymous (`dav-anon`) URL, so Polars fetches only the footer and the column chunks
 * of the row groups a query needs; everything else — private files, servers that do not answer
 * byte ranges, formats Polars cannot read in part over HTTP — is scanned from the store's cached
 * copy, transparently.
 *
 * Which formats gain from a remote scan was measured against the embedded server with
 * nodejs-polars 0.25.2 (`select(first column).head(3)`): Parquet reads only what the query
 * needs; Arrow IPC, CSV and NDJSON scans over HTTP all work but download the whole file (CSV and
 * NDJSON twice), so those go through the cache, where the next scan costs nothing. From the
 * cache, Parquet and Arrow files are scanned lazily; text (CSV, TSV, JSON, JSON Lines), gzip and
 * Arrow streams are parsed whole, by the parser `dataframe()` uses, so a scan's table is always
 * the one `dataframe()` gives. A file named as text is read as `dataframe()` reads it, so it
 * needs no cache (without one, or over its cap, it is read from the network).
 *
 * @module
 */

import type { DataType, LazyDataFrame } from "../deps.ts";
import { getManifest, publicUrlOf } from "../client/endpoints.ts";
import { mapConcurrent } from "../client/map_concurrent.ts";
import { BadRequestError, isAbortError, TernError } from "../client/errors.ts";
import type { Entry } from "../client/entry.ts";
import { checkIsFile } from "./body.ts";
import { fileHead } from "./chunks.ts";
import type { DataContext } from "./context.ts";
import type { ListedFiles } from "./many.ts";
import type { ScanManyOptions, ScanOptions } from "./options.ts";
import { FileChangedError, ParseError, polarsReason } from "./errors.ts";
import { guardFrame, guardOf } from "./scan_proxy.ts";
import { sameVersion, versionOfEntry } from "../client/file_version.ts";
import { TABLE_FORMATS, type TableFormat, tableFormat } from "../registry/file_formats.ts";
import {
  type DetectedFormat,
  formatOfInfo,
  formatOfName,
  SNIFF_BYTES,
} from "../registry/format_detection.ts";
import { detectFormat } from "./formats.ts";
import { utf8Head } from "./encoding.ts";
import { loadPolars, type Polars } from "./polars.ts";
import { progressFor } from "../progress/reporter.ts";
import { cachedCopy, type FileSource, readDataFrame } from "./read.ts";
import { parseLocal } from "./parse.ts";
import { progressListener, withProgress } from "./read_progress.ts";
import { ProgressTracker } from "../progress/events.ts";

export type { ScanOptions };

/**
 * How a scan reads its file: in place over `url`, or from the local copy at `localPath`.
 *
 * @example
 * ```ts
 * import type { ScanRoute } from "./scan.ts";
 *
 * const describe = (route: ScanRoute) => route.url ?? route.localPath;
 * ```
 */
export interface ScanRoute {
  /** The anonymous URL Polars reads byte ranges from, for a remote scan. */
  url?: string;
  /** The cached copy Polars reads, for a local scan (absent for formats read whole). */
  localPath?: string;
  /** Why the file was not scanned in place (absent for a remote scan). */
  reason?: string;
}

/**
 * A scan and how it reads.
 *
 * @example
 * ```ts
 * import type { Scan } from "./scan.ts";
 *
 * const wasRemote = (scan: Scan) => scan.route.url !== undefined;
 * ```
 */
export interface Scan {
  /** The lazy frame; nothing is read until `collect()` (or `fetch`, `head(n).collect()`, …). */
  frame: LazyDataFrame;
  /** How it reads. */
  route: ScanRoute;
}

/**
 * Scans one file lazily: public Parquet in place over its anonymous URL when the server answers
 * byte ranges (checked by reading the footer through the pinning proxy), anything else from the
 * store's cached copy (downloaded once, verified against the listed size).
 *
 * @throws {UnsupportedFormatError} when the file is not a table format.
 * @throws {ParseError} when the file cannot be read: a Parquet or Arrow file's footer or header,
 *   text anywhere in it (read whole, as `dataframe()` reads it).
 * @throws {CacheMissError} for an offline store without a cached copy.
 *
 * @example
 * ```ts
 * import { scanFile } from "./scan.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.parquet");
 * const source = { path: file.path!, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const { frame, route } = await scanFile(store[STORE_CONTEXT], source);
 * assert.ok(route.url?.includes("/dav-anon/"));
 * assert.equal((await frame.select("Species").collect()).height, 344);
 * ```
 */
export async function scanFile(
  context: DataContext,
  source: FileSource,
  options: ScanOptions = {},
): Promise<Scan> {
  const pl = await loadPolars();
  let reason = "the store is offline";
  if (!context.offline) {
    const entry = source.entry ?? await source.stat(options.signal);
    checkIsFile(entry);
    const remote = await remoteScan(pl, context, source, entry, options);
    if (typeof remote !== "string") return remote;
    reason = remote;
    // The cache copy below is checked against this entry rather than asking again.
    source = { ...source, entry };
  }
  return await localScan(pl, context, source, options, reason);
}

/**
 * Scans every file among `listed.entries` (folders are skipped) as one LazyFrame with a `source`
 * column (first) holding each row's data-store path. Columns are united across files and types
 * widened (Polars' relaxed diagonal concatenation). Each file takes the route
 * {@linkcode scanFile} would give it; the footer reads run `concurrency` at a time.
 *
 * @throws {BadRequestError} when there is no file to scan.
 *
 * @example
 * ```ts
 * import { scanMany } from "./scan.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { statFile } from "../handles/stat.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const folder = store.folder("/iplant/home/shared/tern_samples/formats");
 * const transport = store[STORE_CONTEXT].transport;
 * const entries = await folder.list({ glob: "*.{csv,parquet}" }).toArray();
 * const stat = (path: string, signal?: AbortSignal) => statFile(transport, path, { signal });
 * const lazy = await scanMany(store[STORE_CONTEXT], { entries, stat });
 * const frame = await lazy.collect();
 * assert.equal(frame.height, 688);
 * assert.equal(frame.columns[0], "source");
 * ```
 */
export async function scanMany(
  context: DataContext,
  listed: ListedFiles,
  options: ScanManyOptions = {},
): Promise<LazyDataFrame> {
  const { source: column = "source", ...fileOptions } = options;
  const { stat } = listed;
  const pl = await loadPolars();
  const files = listed.entries.filter((entry) => entry.type === "file");
  if (files.length === 0) {
    throw new BadRequestError("There is no file to scan: the listing holds no files.");
  }
  const concurrency = Math.min(context.transport.policy.concurrency, files.length);
  // Several files are one call: one progress line that ends once, as listing.dataframes() has.
  const tracker = files.length > 1
    ? new ProgressTracker(
      progressFor(context.progress, options, `${files.length} files`),
      files.length,
      files.reduce((sum, entry) => sum + entry.size, 0),
    )
    : undefined;
  const reading = tracker === undefined
    ? context
    : { ...context, events: context.events.with(progressListener(tracker, false)) };
  const each = tracker === undefined
    ? fileOptions
    : { ...fileOptions, onProgress: undefined, progress: false };
  let frames: LazyDataFrame[];
  try {
    frames = await mapConcurrent(files, concurrency, async (entry, _index, signal) => {
      const source = { path: entry.path, entry, stat: (s?: AbortSignal) => stat(entry.path, s) };
      const { frame } = await scanFile(reading, source, { ...each, signal });
      return frame.select(pl.lit(entry.path).alias(column), pl.all());
    }, { signal: fileOptions.signal });
  } catch (error) {
    tracker?.done(false);
    throw error;
  }
  tracker?.done(true);
  if (frames.length === 1) return frames[0];
  const all = pl.concat(frames, { how: "diagonalRelaxed" });
  // concat reads the frames' plans; the result is guarded by every pin they held.
  const guards = frames.map((frame) => guardOf(frame));
  const pins = guards.flatMap((guard) => guard?.pins ?? []);
  if (pins.length === 0) return all;
  const report = progressFor(context.progress, fileOptions, `${files.length} files`);
  return guardFrame(all, { pins, report, schema: commonSchema(guards) });
}

/** A remote scan, or the reason there is none. */
async function remoteScan(
  pl: Polars,
  context: DataContext,
  source: FileSource,
  entry: Entry,
  options: ScanOptions,
): Promise<Scan | string> {
  if (options.remote === false) return "remote: false was given";
  const format = options.format ?? formatFromName(entry);
  if (format === undefined || !tableFormat(format).table.remoteScan) {
    const scannable = TABLE_FORMATS.filter((f) => tableFormat(f).table.remoteScan);
    return `only ${scannable.map((f) => tableFormat(f).label).join(", ")} is read in part over ` +
      `HTTP (this is ${format ?? "not a known format"})`;
  }
  if (context.scans === undefined) return "the store runs no scan proxy";
  const { signal } = options;
  const manifest = await getManifest(context.transport, entry.path, { signal });
  const url = publicUrlOf(manifest);
  if (url === undefined) return "the file is not public (it has no anonymous URL)";
  const store = context.transport.url;
  const pin = context.scans.pin({
    upstream: url,
    version: versionOfEntry(store, entry),
    recheck: async (signal) => versionOfEntry(store, await source.stat(signal)),
    signal,
  });
  const raw = pl.scanParquet(pin.url, { glob: false });
  let schema: Record<string, DataType>;
  try {
    // Reading the footer now fixes the server's validators on the pin, and makes a server that
    // answers ranges wrongly, or a file that is not Parquet, fall back to the cached copy,
    // rather than fail every later collect(); there its content decides, as in dataframe().
    schema = (await guardFrame(raw, { pins: [pin] }).head(0).collect()).schema;
  } catch (error) {
    // A change, an abort or a closed store ends the scan; a server's failure falls back.
    if (error instanceof FileChangedError || isAbortError(error) || pin.signal.aborted) {
      throw error;
    }
    if (error instanceof TernError) {
      return `its anonymous URL does not answer byte ranges correctly (${error.message})`;
    }
    return `Polars cannot read it as Parquet (${polarsReason(error)})`;
  }
  const admitted = await context.gate?.admit(pin.version, "scan") ?? pin.version;
  // A lock that pins another version serves it only from the cache.
  if (!sameVersion(admitted, pin.version)) return "a lock pins another version of it";
  // The scan reads lazily, at each collect(): what it pinned is what it reads.
  const { version } = pin;
  context.events.publish({ kind: "pinned", operation: "scan", version });
  context.events.publish({ kind: "done", operation: "scan", version, fromCache: false });
  const report = progressFor(context.progress, options, entry.name);
  return { frame: guardFrame(raw, { pins: [pin], report, schema }), route: { url } };
}

/**
 * The columns every remote scan among `guards` has, of the same type in all of them (a column
 * the union widens, or one a local scan has, is not typed: its filters are passed on as they are).
 */
function commonSchema(
  guards: readonly ({ schema?: Readonly<Record<string, DataType>> } | undefined)[],
): Record<string, DataType> {
  const schemas = guards.map((guard) => guard?.schema ?? {});
  return Object.fromEntries(
    Object.entries(schemas[0]).filter(([name, type]) =>
      schemas.every((schema) => schema[name]?.equals(type))
    ),
  );
}

/** Scans the cached copy (downloading it first when needed). */
async function localScan(
  pl: Polars,
  context: DataContext,
  source: FileSource,
  options: ScanOptions,
  reason: string,
): Promise<Scan> {
  const { format: forced, encoding, skipRows, commentPrefix, decimalComma } = options;
  const { signal, onProgress, progress } = options;
  const shown = withProgress(context, { onProgress, progress }, source);
  const { cache } = context.reader, { entry } = source;
  const named = forced ?? (entry && formatFromName(entry));
  const uncached = cache === undefined || (entry !== undefined && entry.size > cache.maxBytes);
  if (named !== "parquet" && named !== "arrow" && (named !== undefined || uncached)) {
    // Text is parsed whole anyway: read as dataframe() reads it (kept in the cache when it can
    // be), one read whose events end once the table is made, or fail with its parse.
    const plan = { format: forced, encoding, skipRows, commentPrefix, decimalComma, signal };
    return {
      frame: (await readDataFrame(shown, source, plan, "scan")).frame.lazy(),
      route: { reason },
    };
  }
  const local = await cachedCopy(shown, source, { signal }, "scan");
  const { path } = source, infoType = source.entry?.infoType ?? null;
  const head = await fileHead(local, SNIFF_BYTES);
  const clues = { path, infoType, head: utf8Head(head, encoding), format: forced };
  const detected = detectFormat(clues, { skipRows, commentPrefix });
  let frame: LazyDataFrame | undefined;
  try {
    frame = lazyScan(pl, local, detected);
    // Reading the schema now makes a file Polars cannot read fail the scan, not `collect()`.
    await frame?.head(0).collect();
  } catch (error) {
    throw new ParseError(
      `Cannot scan ${JSON.stringify(source.path)} as ${detected.format}: ${polarsReason(error)}.`,
      { path: source.path, cause: error },
    );
  }
  if (frame !== undefined) return { frame, route: { localPath: local, reason } };
  // Text, gzip and Arrow streams: the copy parsed whole, as `dataframe()` parses it; parsed, not
  // read again, so the store hears one read (pinned, admitted and published once, above). An
  // empty file goes as its no bytes, as the reader hands it to the parser: an empty table.
  const copy = head.byteLength === 0 ? { bytes: head } : { file: local };
  const plan = { format: forced, encoding, skipRows, commentPrefix, decimalComma };
  const whole = await parseLocal({ pl, detected, source: copy, options: plan, path, infoType });
  return { frame: whole.lazy(), route: { reason } };
}

/**
 * A lazy reader of the local copy at `path`, or `undefined` for a format read only whole.
 * Parquet and Arrow files hold their types, so Polars' lazy readers give the table a whole read
 * gives. Text does not: the whole read skips blank lines, mends quoted headers, keeps integers
 * beyond Int64 as text, widens an integer column that meets a decimal anywhere, refuses ragged
 * rows and invalid UTF-8 naming the byte, decodes other encodings and reads ISO dates, where
 * Polars' lazy CSV reader gives another table or fails at `collect()`; only a pass over every
 * byte could prove a file safe, and that pass is the parse. JSON Lines is read whole too: the
 * whole read refuses JSON nested deep enough to overflow Polars' stack, which aborts the
 * process, and Polars' lazy reader would parse it unchecked.
 */
function lazyScan(pl: Polars, path: string, detected: DetectedFormat): LazyDataFrame | undefined {
  if (detected.gzip) return undefined;
  switch (detected.format) {
    case "parquet":
      return pl.scanParquet(path, { glob: false });
    case "arrow":
      return detected.arrowStream ? undefined : pl.scanIPC(path);
    default:
      return undefined;
  }
}

/** The format the name (or Terrain's info type) promises; gzip is never read in part. */
function formatFromName(entry: Entry): TableFormat | undefined {
  if (entry.name.toLowerCase().endsWith(".gz")) return undefined;
  return formatOfName(entry.name) ?? formatOfInfo(entry.infoType);
}
