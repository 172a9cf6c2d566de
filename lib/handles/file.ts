/**
 * {@linkcode File}: a data-store file — its bytes (streamed, whole, as text or JSON, or saved to
 * disk atomically), its table as a Polars DataFrame (whole, in batches, or its first rows), its
 * cached local copy, its manifest, and its inline-display form.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { basename, dirname, join, resolve } from "node:path";
import type { DataFrame, LazyDataFrame } from "../deps.ts";
import {
  type Access,
  type CallOptions,
  displayDownload,
  getManifest,
  publicUrlOf,
  readUrlOf,
} from "../client/endpoints.ts";
import {
  BadRequestError,
  isAbortError,
  quoteInput,
  TernError,
  type TernErrorDetails,
} from "../client/errors.ts";
import { checkIsFile } from "../data/body.ts";
import { collect } from "../data/chunks.ts";
import { CALL_OPTIONS } from "../client/options.ts";
import {
  BATCH_OPTIONS,
  type BatchOptions,
  COPY_OPTIONS,
  type CopyOptions,
  DATAFRAME_OPTIONS,
  type DataFrameOptions,
  SCAN_OPTIONS,
} from "../data/options.ts";
import { ProgressTracker } from "../progress/events.ts";
import { endingProgress } from "./ending_progress.ts";
import { withFrameDisplay } from "../frames/view.ts";
import { formatOfName } from "../registry/format_detection.ts";
import { withDisplay } from "../display/attach.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderFile } from "../display/file.ts";
import { renderManifest } from "../display/manifest.ts";
import { progressFor } from "../progress/reporter.ts";
import {
  cachedCopy,
  type FileSource,
  readBatches,
  readBytes,
  readDataFrame,
  streamBytes,
} from "../data/read.ts";
import { progressListener, withProgress } from "../data/read_progress.ts";
import type { ScanOptions } from "../data/scan.ts";
import type { Entry } from "../client/entry.ts";
import { datesNote, decimalCommaNote, fileView, viewOrError } from "./display.ts";
import type { StoreContext } from "./store_context.ts";
import { Handle, type Location } from "./handle.ts";
import { statFile } from "./stat.ts";
import { isSafeLocalName } from "../client/paths.ts";

/**
 * A file's content is not what the method reads: `text()` met bytes that are not UTF-8, or
 * `json()` met text that is not JSON. The bytes arrived intact; use `bytes()` to get them.
 *
 * @example
 * ```ts
 * import { ContentError } from "./file.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new ContentError('"/iplant/home/shared/a.png" is not UTF-8 text.', {
 *   path: "/iplant/home/shared/a.png",
 * });
 * assert.equal(error.name, "ContentError");
 * ```
 */
export class ContentError extends TernError {}

/**
 * The local file system refused a step of {@linkcode File.downloadTo}: a folder that cannot be
 * created, no permission, no space left, a name it does not allow. The message names the local
 * path and the system's reason; nothing partial is left behind.
 *
 * @example
 * ```ts
 * import { LocalFileError } from "./file.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new LocalFileError('Could not save "/iplant/a.csv" to "/data/a.csv".', {
 *   localPath: "/data/a.csv",
 *   path: "/iplant/a.csv",
 * });
 * assert.equal(error.name, "LocalFileError");
 * assert.equal(error.localPath, "/data/a.csv");
 * ```
 */
export class LocalFileError extends TernError {
  /** The local path that could not be written. */
  readonly localPath: string;

  /**
   * Creates the error for `details.localPath`.
   *
   * @param message A sentence naming the file, the local path and the system's reason.
   * @param details The local path, the data-store path and the system's error as `cause`.
   *
   * @example
   * ```ts
   * import { LocalFileError } from "./file.ts";
   * import assert from "node:assert/strict";
   *
   * const error = new LocalFileError("Could not save it.", { localPath: "/data/a.csv" });
   * assert.equal(error.localPath, "/data/a.csv");
   * ```
   */
  constructor(message: string, details: TernErrorDetails & { localPath: string }) {
    super(message, details);
    this.localPath = details.localPath;
  }
}

/**
 * What {@linkcode File.manifest} returns.
 *
 * @example
 * ```ts
 * import type { FileManifest } from "./file.ts";
 *
 * const isPublic = (manifest: FileManifest) => manifest.publicUrl !== undefined;
 * ```
 */
export interface FileManifest {
  /** Media type the server detected (`text/csv`, `image/png`, …). */
  contentType: string;
  /** Terrain's info type (`csv`, `unknown`, …). */
  infoType: string;
  /** The URLs Terrain lists for the file, each with a label. */
  urls: { label: string; url: string }[];
  /** The `anonymous` URL, present only when anyone may read the file. */
  publicUrl?: string;
  /**
   * Where another engine reads the file: {@linkcode FileManifest.publicUrl} when there is one,
   * else Terrain's download URL for the caller (no credential in it).
   */
  url: string;
  /** How to read `url`: `public` with no credentials, `token` with the caller's access token. */
  access: Access;
}

/**
 * What {@linkcode File.openInline} returns.
 *
 * @example
 * ```ts
 * import type { InlineFile } from "./file.ts";
 *
 * const isImage = (file: InlineFile) => file.contentType.startsWith("image/");
 * ```
 */
export interface InlineFile {
  /** Media type the server detected, for the viewer to pick a renderer. */
  contentType: string;
  /** File name the server gave (the data-store name when it gave none). */
  filename: string;
  /** The bytes; read them to the end or cancel, since the request holds a slot until then. */
  body: ReadableStream<Uint8Array>;
}

/**
 * What {@linkcode File.downloadTo} returns.
 *
 * @example
 * ```ts
 * import type { SavedFile } from "./file.ts";
 *
 * const describe = (saved: SavedFile) => `${saved.size} bytes in ${saved.path}`;
 * ```
 */
export interface SavedFile {
  /** Absolute local path written. */
  path: string;
  /** Bytes written. */
  size: number;
}

/**
 * A file in the data store. Made by `store.file(path | id | entry)` or `folder.file(name)`;
 * nothing is sent until a method needs it.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
 * const text = await file.text();
 * const frame = await file.head(3);
 * assert.equal(text.length, 13487);
 * assert.equal(frame.height, 3);
 * ```
 */
export class File extends Handle {
  /** Always `file`. */
  readonly kind = "file" as const;
  /** Made from a listing's entry, which reads trust instead of asking for the entry again. */
  readonly #fromListing: boolean;

  /**
   * Used by the store and folders; call `store.file()` or `folder.file()` instead.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { File } from "./file.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * assert.ok(file instanceof File);
   * ```
   */
  constructor(context: StoreContext, location: Location) {
    super(context, location);
    this.#fromListing = location.entry !== undefined;
  }

  /**
   * The file as a nodejs-polars DataFrame. The format comes from `format`, else the name,
   * Terrain's info type and the first bytes: CSV, TSV and other delimited text, JSON (an array
   * of records), NDJSON/JSON Lines, Parquet, Arrow IPC/Feather, and gzip of the text formats.
   *
   * - **Current and cached.** Unless the handle came from a listing, the file's size and date
   *   are asked for first (one request); an unchanged file is then read from the store's local
   *   cache, a changed or new one downloaded (and kept there).
   * - **Streaming.** Delimited text and JSON Lines are parsed in batches while the body is still
   *   arriving, so the time approaches the transfer time, and the file is never held twice in
   *   memory. Column types of delimited text come from the first rows (`inferSchemaLength`,
   *   default 100) unless `dtypes` says otherwise; an integer column that meets a decimal value
   *   later becomes Float64. JSON types come from all rows. `nRows` stops the download as soon
   *   as enough rows arrived.
   * - **Never a wrong table.** A body shorter or longer than the listed size is downloaded again
   *   (up to the store's `retries`), and an error if it never matches.
   * - **Memory.** The whole frame is held, and a text read peaks at about 3× the file's size;
   *   nothing refuses a file too large for the machine. For one near its memory, read parts with
   *   {@linkcode File.batches}, lazily with {@linkcode File.scan}, or the first rows with
   *   {@linkcode File.head}.
   *
   * Loads nodejs-polars on first use (`--allow-ffi`). The frame keeps one chunk per batch; call
   * `rechunk()` if an operation needs contiguous columns.
   *
   * @throws {UnsupportedFormatError} naming the file and the supported formats.
   * @throws {ParseError} when Polars cannot parse it with the options given.
   * @throws {IntegrityError} when the bytes never matched the listed size.
   * @throws {CacheMissError} for an offline store without a cached copy.
   *
   * @example
   * ```ts
   * import pl from "../../polars.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
   * const penguins = await formats.file("penguins.csv").dataframe();
   * const typed = await formats.file("penguins.tsv").dataframe({
   *   columns: ["Species", "Body Mass (g)"],
   *   dtypes: { "Body Mass (g)": pl.Float64 },
   * });
   * assert.equal(penguins.height, 344);
   * assert.equal(typed.width, 2);
   * ```
   */
  async dataframe(options: DataFrameOptions = {}): Promise<DataFrame> {
    return await endingProgress(
      options,
      (given) => this.#dataframe(DATAFRAME_OPTIONS.parse("file.dataframe()", given)),
    );
  }

  async #dataframe(options: DataFrameOptions): Promise<DataFrame> {
    const source = await this.#source(options.signal);
    const { frame } = await readDataFrame(
      withProgress(this.context, options, source),
      source,
      options,
    );
    const title = source.path.slice(source.path.lastIndexOf("/") + 1);
    const format = options.format ?? formatOfName(title);
    const notes = [datesNote(frame, format, options), decimalCommaNote(frame, format, options)]
      .filter((note) => note !== undefined);
    return withFrameDisplay(frame, { title, ...(notes.length === 0 ? {} : { notes }) });
  }

  /**
   * The names of an Excel workbook's sheets, in order: what the `sheet` option of
   * {@linkcode File.dataframe} takes (a name, or a position counting from 0).
   *
   * @throws {ParseError} when the file is not an Excel workbook (`.xlsx`).
   *
   * @example
   * ```ts
   * import { connect } from "../../mod.ts";
   * import { startServer } from "../../server.ts";
   * import { exampleWorkbook } from "../data/excel.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * await Deno.mkdir(`${root}/iplant/home/shared`, { recursive: true });
   * await Deno.writeFile(`${root}/iplant/home/shared/stations.xlsx`, await exampleWorkbook());
   * await using server = await startServer({ root, port: 0, quiet: true });
   * await using store = connect({ url: server.url, anonymous: true, cacheDir: false });
   * const file = store.file("/iplant/home/shared/stations.xlsx");
   * assert.deepEqual(await file.sheets(), ["Sheet1"]);
   * assert.deepEqual((await file.dataframe({ sheet: "Sheet1" })).columns, ["station", "depth"]);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async sheets(options: CallOptions = {}): Promise<string[]> {
    const parsed = CALL_OPTIONS.parse("file.sheets()", options);
    const bytes = await this.#bytes("bytes", parsed);
    const { sheetNames } = await import("../data/excel.ts");
    return await sheetNames(bytes, await this.locate(parsed.signal));
  }

  /**
   * The first `n` rows (default 10): like {@linkcode File.dataframe} with `nRows`, so the
   * download stops as soon as they have arrived and nothing partial is cached.
   *
   * @throws {BadRequestError} when `n` is not a non-negative integer (options go second:
   * `head(5, { columns })`), or for a bad option.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * const first = await file.head(5);
   * assert.equal(first.height, 5);
   * assert.deepEqual(first.getColumn("Species").toArray(), Array(5).fill("Adelie"));
   * ```
   */
  async head(n = 10, options: DataFrameOptions = {}): Promise<DataFrame> {
    if (typeof n === "object" && n !== null) {
      throw new BadRequestError(
        "file.head(n, options) takes the number of rows first, got an object: head(10, { … }).",
      );
    }
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new BadRequestError(`file.head(n) needs an integer n ≥ 0, got ${String(n)}.`);
    }
    return await endingProgress(
      options,
      (given) => this.#dataframe({ ...DATAFRAME_OPTIONS.parse("file.head()", given), nRows: n }),
    );
  }

  /**
   * The file as DataFrames of `rows` rows each (default 100,000; the last may be smaller),
   * holding about one batch in memory at a time (and up to 16 MiB of the body read ahead, so a
   * loop paused between batches holds no request slot): for files larger than memory. Same formats
   * and options as {@linkcode File.dataframe}; Parquet, Arrow and JSON arrays are read whole
   * and then sliced. Iterating starts the read; leaving the loop early cancels the download.
   * A transfer that fails after batches went out is an error, never a silent gap.
   *
   * @example
   * ```ts
   * import pl from "../../polars.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * let heavy = 0;
   * for await (const batch of file.batches({ rows: 100 })) {
   *   heavy += batch.filter(pl.col("Body Mass (g)").gt(5000)).height;
   * }
   * assert.equal(heavy, 61);
   * ```
   */
  batches(options: BatchOptions = {}): AsyncIterable<DataFrame> {
    const parsed = BATCH_OPTIONS.parse("file.batches()", options);
    const { context } = this;
    const source = (signal?: AbortSignal) => this.#source(signal);
    return {
      async *[Symbol.asyncIterator]() {
        const from = await source(parsed.signal);
        const tracker = new ProgressTracker(
          progressFor(context.progress, parsed, basename(from.path)),
          1,
          from.entry?.size ?? 0,
        );
        const events = context.events.with(progressListener(tracker, true));
        try {
          yield* readBatches({ ...context, events }, from, parsed);
        } finally {
          // A loop left early ends its progress too (a read's end or failure ended it already).
          tracker.done("interrupted");
        }
      },
    };
  }

  /**
   * The path of the file's copy in the store's local cache, downloading it there first unless
   * the current version is already cached: for tools that want a local file (e.g.
   * `pl.scanParquet`). Treat the copy as read-only; it may be removed when the cache is trimmed.
   *
   * @throws {BadRequestError} when the store has no cache, the file is larger than its cap, or
   * its folder cannot be written.
   * @throws {CacheMissError} for an offline store without a cached copy.
   *
   * @example
   * ```ts
   * import pl from "../../polars.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.parquet");
   * const lazy = pl.scanParquet(await file.cachedPath());
   * assert.equal((await lazy.select("Species").collect()).height, 344);
   * ```
   */
  async cachedPath(options: CopyOptions = {}): Promise<string> {
    return await endingProgress(options, async (given) => {
      const parsed = COPY_OPTIONS.parse("file.cachedPath()", given);
      const source = await this.#source(parsed.signal);
      return await cachedCopy(withProgress(this.context, parsed, source), source, parsed);
    });
  }

  /**
   * The file as a Polars LazyFrame: nothing is read until `collect()`.
   *
   * - **Public Parquet is scanned in place** over the file's anonymous (`dav-anon`) URL, which
   *   the manifest gives, with byte-range reads: a projection, a predicate on a column with
   *   statistics, or `head(n)` fetch only the footer and the chunks they need. The footer is
   *   read at once, through a local proxy that checks every range answer and pins the version
   *   (see docs/data.md); a server that ignores `Range` never yields a wrong frame.
   * - **Everything else goes through the cache copy**: private files, servers without range
   *   support, offline stores and the other formats. Parquet and Arrow files are scanned lazily
   *   from the copy; text (CSV, TSV, JSON, JSON Lines), workbooks, gzip and Arrow streams are
   *   parsed whole by `dataframe()`'s parser, so the table is always the one `dataframe()` gives
   *   (Polars' lazy CSV reader keeps blank lines, reads no dates, …; see docs/data.md). Polars
   *   0.25.2 can scan Arrow, CSV and NDJSON over HTTP too, but it downloads the whole file to
   *   do so, so the copy is never worse.
   *
   * It takes `dataframe()`'s options of how bytes become a table (`sep`, `nullValues`, `dtypes`,
   * `columns`, `sheet`, …) with their meanings there: text and workbooks are read with them;
   * Parquet and Arrow take `columns` and `dtypes` as a lazy selection and cast, remote scans
   * included, and ignore the options about text, as `dataframe()` does.
   *
   * Integer and date predicates keep row-group pruning only with a typed literal
   * (`pl.lit(2023).cast(pl.Int32)`, not a plain JS number, which becomes Float64). Progress
   * shows for the cache copy, and for each `collect()` of a remote scan.
   *
   * @throws {UnsupportedFormatError} when the file is not a table format.
   * @throws {ParseError} when the file cannot be read: a Parquet or Arrow file's footer or header,
   *   text anywhere in it (read whole, as `dataframe()` reads it).
   * @throws {CacheMissError} for an offline store without a cached copy.
   *
   * @example
   * ```ts
   * import pl from "../../polars.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const flights = store.file(
   *   "/iplant/home/shared/commons_repo/curated/BTS_FlightDelays_OnTime_2021/flights_3m.parquet",
   * );
   * const lazy = await flights.scan();
   * const origins = await lazy.select("origin").head(1000).collect();
   * assert.equal(origins.shape.height, 1000);
   * const june = lazy.filter(pl.col("date").gtEq(pl.lit(new Date("2001-06-30T00:00:00Z"))));
   * assert.ok((await june.select(pl.len()).collect()).getColumn("len").get(0) > 0);
   *
   * const penguins = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * const masses = await penguins.scan({ columns: ["Species", "Body Mass (g)"], dtypes: { "Body Mass (g)": pl.Float32 } });
   * assert.deepEqual((await masses.collect()).dtypes.map(String), ["DataType(String)", "DataType(Float32)"]);
   * ```
   */
  async scan(options: ScanOptions = {}): Promise<LazyDataFrame> {
    return await endingProgress(options, async (given) => {
      const parsed = SCAN_OPTIONS.parse("file.scan()", given);
      const source = await this.#source(parsed.signal);
      const { scanFile } = await import("../data/scan.ts");
      return (await scanFile(this.context, source, parsed)).frame;
    });
  }

  /** What the readers need: the path, the entry when it came from a listing, and a fresh stat. */
  async #source(signal?: AbortSignal): Promise<FileSource> {
    const path = await this.locate(signal);
    const entry = this.#fromListing ? await this.statEntry({ signal }) : undefined;
    return {
      path,
      ...(entry === undefined ? {} : { entry }),
      stat: (statSignal) => this.statEntry({ refresh: true, signal: statSignal ?? signal }),
    };
  }

  /**
   * The file's bytes as a stream (`fileio/download`), passed on as they arrive. The bytes are
   * counted against the file's size (from the listing the handle came from, else asked for
   * first): a body that breaks, stalls, ends short or runs long is downloaded again, skipping
   * what was already delivered, up to the store's `retries`. Read it to the end or cancel it:
   * the request holds one of the store's `concurrency` slots until then.
   *
   * The stream errors with an `IntegrityError` (the bytes never matched the size) or a
   * `NetworkError` (the transfer kept failing), and with a `FileChangedError` when the file
   * changed on the server mid-way (what was delivered belongs to the old version: read again).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * let size = 0;
   * for await (const chunk of await file.stream()) size += chunk.byteLength;
   * assert.equal(size, 13487);
   * ```
   */
  async stream(options: CallOptions = {}): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
    const parsed = CALL_OPTIONS.parse("file.stream()", options);
    return await streamBytes(this.context, await this.#source(parsed.signal), parsed);
  }

  /**
   * The whole file in memory, checked against its size like {@linkcode File.stream}, and read
   * again from the start if the file changed on the server meanwhile.
   *
   * @throws {IntegrityError} when the bytes never matched the file's size.
   * @throws {NetworkError} when the transfer kept failing.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const png = store.file("/iplant/home/shared/tern_samples/formats/penguin_body_mass.png");
   * const bytes = await png.bytes();
   * assert.equal(bytes.length, 1925);
   * ```
   */
  async bytes(options: CallOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
    return await this.#bytes("bytes", CALL_OPTIONS.parse("file.bytes()", options));
  }

  async #bytes(
    operation: "bytes" | "text",
    options: CallOptions,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const source = await this.#source(options.signal);
    return await readBytes(
      this.context,
      source,
      operation,
      options,
      (chunks, version) => collect(chunks, version.size),
    );
  }

  /**
   * The file decoded as UTF-8 (a leading byte-order mark is dropped).
   *
   * @throws {ContentError} when the bytes are not valid UTF-8 — rather than replace them.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const readme = store.file("/iplant/home/shared/tern_samples/formats/README.txt");
   * const lines = (await readme.text()).split("\n");
   * assert.equal(lines[0], "One table, every format");
   * ```
   */
  async text(options: CallOptions = {}): Promise<string> {
    return await this.#text(CALL_OPTIONS.parse("file.text()", options));
  }

  async #text(options: CallOptions): Promise<string> {
    const bytes = await this.#bytes("text", options);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new ContentError(
        `${quoteInput(this.path)} is not UTF-8 text (${bytes.length} bytes); use bytes() ` +
          "for binary files.",
        { path: this.path },
      );
    }
  }

  /**
   * The file parsed as JSON.
   *
   * @throws {ContentError} when it is not UTF-8 text or not valid JSON.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.json");
   * const records = await file.json() as { Species: string }[];
   * assert.equal(records.length, 344);
   * assert.equal(records[0].Species, "Adelie");
   * ```
   */
  async json(options: CallOptions = {}): Promise<unknown> {
    const text = await this.#text(CALL_OPTIONS.parse("file.json()", options));
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ContentError(
        `${quoteInput(this.path)} is not valid JSON: ${(error as Error).message}.`,
        { path: this.path },
      );
    }
  }

  /**
   * The file's detected media type, Terrain info type and public URL (`file/manifest`), and the
   * URL another engine reads it at with how to read it (`url`, `access`): the public URL, or for
   * a private file Terrain's download URL, read with the caller's token.
   *
   * @throws {BadRequestError} when the path is a folder.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * const { contentType, publicUrl, url, access } = await file.manifest();
   * assert.equal(contentType, "text/csv");
   * assert.ok(publicUrl !== undefined);
   * assert.equal(url, publicUrl);
   * assert.equal(access, "public");
   * ```
   */
  async manifest(options: CallOptions = {}): Promise<FileManifest> {
    options = CALL_OPTIONS.parse("file.manifest()", options);
    const { transport } = this.context;
    const located = await this.locate(options.signal);
    const answer = await getManifest(transport, located, options);
    const publicUrl = publicUrlOf(answer);
    const manifest: FileManifest = {
      contentType: answer["content-type"],
      infoType: answer.infoType,
      urls: answer.urls.map(({ label, url }) => ({ label, url })),
      ...(publicUrl === undefined ? {} : { publicUrl }),
      ...readUrlOf(transport, located, answer),
    };
    // In a notebook, the manifest as a small card (the object itself is unchanged).
    const path = this.path;
    return withDisplay(
      manifest,
      () => renderManifest({ ...(path === undefined ? {} : { path }), ...manifest }),
    );
  }

  /**
   * Saves the file to `localPath` atomically: the bytes go to a hidden temporary file beside the
   * target, which is renamed over the target only once complete. The bytes are checked and
   * resumed like {@linkcode File.stream}'s. On any failure or abort the temporary file is removed
   * and the target is left as it was. A `localPath` that is an existing folder, or ends with `/`,
   * receives the file under its data-store name. Missing parent folders are created; an existing
   * file is replaced. Progress shows as for reads (the store's `progress` setting;
   * `progress: false` for this call), and `onProgress` receives the events.
   *
   * @throws {BadRequestError} for a bad option, or when the file is to keep its data-store name
   * in a folder and that name is not a safe local file name (`..`, `.`, empty, holding `\` or
   * NUL, or starting with a drive letter).
   * @throws {LocalFileError} when the local file system refuses a step, naming the local path.
   * @throws {IntegrityError} when the bytes never matched the file's size.
   * @throws {NetworkError} when the transfer kept failing.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * const folder = await Deno.makeTempDir();
   * try {
   *   const saved = await file.downloadTo(`${folder}/data/`); // creates data/, keeps the name
   *   assert.ok(saved.path.endsWith("/data/penguins.csv"));
   *   assert.equal(saved.size, 13487);
   * } finally {
   *   await Deno.remove(folder, { recursive: true });
   * }
   * ```
   */
  async downloadTo(localPath: string, options: CopyOptions = {}): Promise<SavedFile> {
    return await endingProgress(options, (given) => this.#downloadTo(localPath, given));
  }

  async #downloadTo(localPath: string, options: CopyOptions): Promise<SavedFile> {
    if (typeof localPath !== "string" || localPath === "") {
      throw new BadRequestError("file.downloadTo() needs a local file or folder path.");
    }
    options = COPY_OPTIONS.parse("file.downloadTo()", options);
    const path = await this.locate(options.signal);
    let target = resolve(localPath);
    const onDisk = <T>(step: () => Promise<T>) => localStep(path, target, step);
    if (localPath.endsWith("/") || await onDisk(() => isFolder(target))) {
      target = join(target, localName(path));
    }
    const source = await this.#source(options.signal);
    const entry = source.entry ?? await source.stat(options.signal);
    checkIsFile(entry);
    // The folder named (or the file's folder) is followed; a symlink at the file is replaced.
    const { placeFile, realFolders } = await import("./destination.ts");
    await onDisk(() => realFolders(dirname(target), dirname(target)));
    const tracker = new ProgressTracker(
      progressFor(this.context.progress, options, basename(path)),
      1,
      entry.size,
    );
    const temporary = join(dirname(target), partialName(basename(target)));
    let file: Deno.FsFile | undefined;
    try {
      const opened = await onDisk(() => Deno.open(temporary, { write: true, createNew: true }));
      file = opened;
      const events = this.context.events.with(progressListener(tracker, false));
      const size = await readBytes(
        { ...this.context, events },
        { ...source, entry },
        "downloadTo",
        { signal: options.signal },
        async (chunks) => {
          // A read that starts over (the file changed) writes the new version from the start.
          await onDisk(() => opened.truncate(0));
          await onDisk(() => opened.seek(0, Deno.SeekMode.Start));
          let written = 0;
          for await (const chunk of chunks) {
            await onDisk(() => writeAll(opened, chunk));
            written += chunk.byteLength;
          }
          return written;
        },
      );
      file = undefined;
      opened.close();
      await onDisk(() => placeFile(temporary, target));
      tracker.done(true);
      return { path: target, size };
    } catch (error) {
      tracker.done(false);
      file?.close();
      await Deno.remove(temporary).catch(() => {});
      throw error;
    }
  }

  /**
   * Opens the file for **inline display** (`filesystem/display-download`): the answer carries
   * the media type the server detected (`image/png`, `text/csv`, …) so a notebook or browser can
   * render it. Same bytes as {@linkcode File.stream}, which is the one to use for saving or
   * parsing (it always says `application/octet-stream`).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const png = store.file("/iplant/home/shared/tern_samples/formats/penguin_body_mass.png");
   * const { contentType, body } = await png.openInline();
   * const image = new Uint8Array(await new Response(body).arrayBuffer());
   * assert.equal(contentType, "image/png");
   * assert.equal(image.length, 1925);
   * ```
   */
  async openInline(options: CallOptions = {}): Promise<InlineFile> {
    options = CALL_OPTIONS.parse("file.openInline()", options);
    const path = await this.locate(options.signal);
    const answer = await displayDownload(this.context.transport, path, { inline: true }, options);
    return {
      contentType: answer.contentType,
      filename: answer.filename ?? path.slice(path.lastIndexOf("/") + 1),
      body: answer.body,
    };
  }

  /**
   * The notebook view: size, type and dates, the public URL when anyone may read the file, and
   * for tables the first five rows (streamed formats download only what those rows need;
   * Parquet, Arrow and JSON are previewed up to 16 MB). A file that cannot be read shows its
   * typed error instead.
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * // In a notebook, a cell whose last line is this file shows its view.
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * const view = await file[JUPYTER_DISPLAY](); // what the notebook asks for
   * assert.ok(view["text/plain"].includes("first 5 rows"));
   * ```
   */
  async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    return await viewOrError(async () => renderFile(await fileView(this)));
  }

  /**
   * One `filesystem/stat` request ({@linkcode statFile}): the entry carries the store's checksum
   * when it has one.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const before = store.stats.requests;
   * await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").stat(); // fetchEntry
   * assert.equal(store.stats.requests - before, 1);
   * ```
   */
  protected fetchEntry(path: string, options: CallOptions): Promise<Entry> {
    return statFile(this.context.transport, path, options);
  }
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * The data-store name of `path` as a local file name in a folder. Names that would not stay a
 * file inside that folder are refused before anything is written: a server may list anything.
 */
function localName(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (!isSafeLocalName(name)) {
    throw new BadRequestError(
      `Cannot save ${quoteInput(path)} into a folder under its name ${quoteInput(name)}, ` +
        "which is not a safe local file name; give downloadTo a file path instead.",
      { path },
    );
  }
  return name;
}

/**
 * A temporary name beside the target that fits any file system's 255-byte limit whatever the
 * target's length: a digest of the target's name (to tell whose it is) and a random part (so
 * that saves of the same file at once do not collide).
 *
 * @example
 * ```ts
 * import { partialName } from "./file.ts";
 * import assert from "node:assert/strict";
 *
 * const name = partialName("a".repeat(251) + ".csv");
 * assert.ok(name.length < 40);
 * assert.ok(name.endsWith(".tern-partial"));
 * ```
 */
export function partialName(name: string): string {
  const digest = createHash("sha256").update(name).digest("hex").slice(0, 12);
  return `.${digest}-${crypto.randomUUID().slice(0, 8)}.tern-partial`;
}

/**
 * Runs a local file-system step of saving `path` to `target`; its OS error becomes a
 * {@linkcode LocalFileError} naming both paths (tern's own errors, aborts, and errors
 * `passThrough` accepts are thrown unchanged).
 *
 * @example
 * ```ts
 * import { LocalFileError, localStep } from "./file.ts";
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(
 *   localStep("/iplant/a.csv", "/proc/none/a.csv", () => Deno.mkdir("/proc/none", { recursive: true })),
 *   (error) => error instanceof LocalFileError && error.message.includes('"/iplant/a.csv" to "/proc/none/a.csv"'),
 * );
 * ```
 */
export async function localStep<T>(
  path: string,
  target: string,
  step: () => Promise<T>,
  passThrough: (error: unknown) => boolean = () => false,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (
      error instanceof TernError || isAbortError(error) || !(error instanceof Error) ||
      passThrough(error)
    ) throw error;
    throw new LocalFileError(
      `Could not save ${quoteInput(path)} to ${quoteInput(target)}: ${error.message}.`,
      { localPath: target, path, cause: error },
    );
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.byteLength;) {
    offset += await file.write(bytes.subarray(offset));
  }
}
