/**
 * {@linkcode File}: a data-store file — its bytes (streamed, whole, as text or JSON, or saved to
 * disk atomically), its table as a Polars DataFrame (whole, in batches, or its first rows), its
 * cached local copy, its manifest, and its inline-display form.
 *
 * @module
 */

import { basename, dirname, join, resolve } from "node:path";
import type { DataFrame } from "nodejs-polars";
import { type CallOptions, displayDownload, download, getManifest } from "../client/endpoints.ts";
import { BadRequestError, TernError } from "../client/errors.ts";
import type { Transport } from "../client/transport.ts";
import { dataContextOf } from "../data/context.ts";
import { type BatchOptions, checkOptions, type DataFrameOptions } from "../data/options.ts";
import { type ProgressEvent, ProgressTracker } from "../data/progress.ts";
import { withDisplay } from "../display/attach.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderFile } from "../display/file.ts";
import { renderManifest } from "../display/manifest.ts";
import { progressFor } from "../progress/reporter.ts";
import { cachedCopy, type FileSource, readBatches, readDataFrame } from "../data/read.ts";
import type { Entry } from "../listing/entry.ts";
import { fileView } from "./display.ts";
import { Handle, type Location, transportOf } from "./handle.ts";
import { statFile } from "./stat.ts";

/**
 * A file's content is not what the method reads: `text()` met bytes that are not UTF-8, or
 * `json()` met text that is not JSON. The bytes arrived intact; use `bytes()` to get them.
 *
 * @example
 * ```ts
 * import { ContentError } from "./file.ts";
 *
 * const error = new ContentError('"/iplant/home/shared/a.png" is not UTF-8 text.', {
 *   path: "/iplant/home/shared/a.png",
 * });
 * console.log(error.name); // "ContentError"
 * ```
 */
export class ContentError extends TernError {}

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
 * ```ts ignore
 * import { connect } from "../../mod.ts";
 *
 * const file = connect().file("/iplant/home/shared/tern_samples/formats/penguins.csv");
 * const text = await file.text();
 * await file.downloadTo("./data/");
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
   * ```ts ignore
   * const file = store.file("/iplant/home/shared/a.csv");
   * ```
   */
  constructor(transport: Transport, location: Location) {
    super(transport, location);
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
   *   memory. Column types are fixed by the first rows (`inferSchemaLength`, default 100) unless
   *   `dtypes` says otherwise. `nRows` stops the download as soon as enough rows arrived.
   * - **Never a wrong table.** A body shorter or longer than the listed size is downloaded again
   *   (up to the store's `retries`), and an error if it never matches.
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
   * ```ts ignore
   * import pl from "nodejs-polars";
   *
   * const penguins = await store.file(`${formats}/penguins.csv`).dataframe();
   * const typed = await store.file(`${formats}/penguins.tsv`).dataframe({
   *   columns: ["Species", "Body Mass (g)"],
   *   dtypes: { "Body Mass (g)": pl.Float64 },
   * });
   * ```
   */
  async dataframe(options: DataFrameOptions = {}): Promise<DataFrame> {
    checkOptions(options);
    const source = await this.#source(options.signal);
    return (await readDataFrame(dataContextOf(transportOf(this)), source, options)).frame;
  }

  /**
   * The first `n` rows (default 10): like {@linkcode File.dataframe} with `nRows`, so the
   * download stops as soon as they have arrived and nothing partial is cached.
   *
   * @throws {BadRequestError} when `n` is not a non-negative integer.
   *
   * @example
   * ```ts ignore
   * console.log((await store.file(path).head(5)).toString());
   * ```
   */
  async head(n = 10, options: DataFrameOptions = {}): Promise<DataFrame> {
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new BadRequestError(`head(n) needs an integer n ≥ 0, got ${String(n)}.`);
    }
    return await this.dataframe({ ...options, nRows: n });
  }

  /**
   * The file as DataFrames of `rows` rows each (default 100,000; the last may be smaller),
   * holding about one batch in memory at a time: for files larger than memory. Same formats
   * and options as {@linkcode File.dataframe}; Parquet, Arrow and JSON arrays are read whole
   * and then sliced. Iterating starts the read; leaving the loop early cancels the download.
   * A transfer that fails after batches went out is an error, never a silent gap.
   *
   * @example
   * ```ts ignore
   * let heavy = 0;
   * for await (const batch of store.file(path).batches({ rows: 50_000 })) {
   *   heavy += batch.filter(pl.col("mass").gt(5000)).height;
   * }
   * ```
   */
  batches(options: BatchOptions = {}): AsyncIterable<DataFrame> {
    checkOptions(options);
    const context = dataContextOf(transportOf(this));
    const source = (signal?: AbortSignal) => this.#source(signal);
    return {
      async *[Symbol.asyncIterator]() {
        yield* readBatches(context, await source(options.signal), options);
      },
    };
  }

  /**
   * The path of the file's copy in the store's local cache, downloading it there first unless
   * the current version is already cached: for tools that want a local file (e.g.
   * `pl.scanParquet`). Treat the copy as read-only; it may be removed when the cache is trimmed.
   *
   * @throws {BadRequestError} when the store has no cache, or the file is larger than its cap.
   * @throws {CacheMissError} for an offline store without a cached copy.
   *
   * @example
   * ```ts ignore
   * import pl from "nodejs-polars";
   *
   * const lazy = pl.scanParquet(await store.file(path).cachedPath());
   * ```
   */
  async cachedPath(
    options: CallOptions & { onProgress?: (event: ProgressEvent) => void } = {},
  ): Promise<string> {
    checkOptions(options);
    const source = await this.#source(options.signal);
    return await cachedCopy(dataContextOf(transportOf(this)), source, options);
  }

  /** What the readers need: the path, the entry when it came from a listing, and a fresh stat. */
  async #source(signal?: AbortSignal): Promise<FileSource> {
    const path = await this.locate(signal);
    const entry = this.#fromListing ? await this.stat({ signal }) : undefined;
    return {
      path,
      ...(entry === undefined ? {} : { entry }),
      stat: (statSignal) => this.stat({ refresh: true, signal: statSignal ?? signal }),
    };
  }

  /**
   * The file's bytes as a stream (`fileio/download`). Read it to the end or cancel it: the
   * request holds one of the store's `concurrency` slots until then. It errors with a
   * `NetworkError` when the transfer stalls or ends short.
   *
   * @example
   * ```ts ignore
   * const body = await file.stream();
   * await body.pipeTo((await Deno.create("copy.csv")).writable);
   * ```
   */
  async stream(options: CallOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const answer = await download(transportOf(this), await this.locate(options.signal), options);
    return answer.body;
  }

  /**
   * The whole file in memory.
   *
   * @example
   * ```ts ignore
   * const bytes = await file.bytes();
   * console.log(bytes.length);
   * ```
   */
  async bytes(options: CallOptions = {}): Promise<Uint8Array> {
    const reader = (await this.stream(options)).getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
  }

  /**
   * The file decoded as UTF-8 (a leading byte-order mark is dropped).
   *
   * @throws {ContentError} when the bytes are not valid UTF-8 — rather than replace them.
   *
   * @example
   * ```ts ignore
   * const lines = (await file.text()).split("\n");
   * ```
   */
  async text(options: CallOptions = {}): Promise<string> {
    const bytes = await this.bytes(options);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new ContentError(
        `${JSON.stringify(this.path)} is not UTF-8 text (${bytes.length} bytes); use bytes() ` +
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
   * ```ts ignore
   * const records = await store.file("/iplant/home/shared/tern_samples/formats/penguins.json").json();
   * ```
   */
  async json(options: CallOptions = {}): Promise<unknown> {
    const text = await this.text(options);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ContentError(
        `${JSON.stringify(this.path)} is not valid JSON: ${(error as Error).message}.`,
        { path: this.path },
      );
    }
  }

  /**
   * The file's detected media type, Terrain info type and public URL (`file/manifest`).
   *
   * @throws {BadRequestError} when the path is a folder.
   *
   * @example
   * ```ts ignore
   * const { contentType, publicUrl } = await file.manifest();
   * ```
   */
  async manifest(options: CallOptions = {}): Promise<FileManifest> {
    const answer = await getManifest(transportOf(this), await this.locate(options.signal), options);
    const publicUrl = answer.urls.find((url) => url.label === "anonymous")?.url;
    const manifest: FileManifest = {
      contentType: answer["content-type"],
      infoType: answer.infoType,
      urls: answer.urls.map(({ label, url }) => ({ label, url })),
      ...(publicUrl === undefined ? {} : { publicUrl }),
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
   * target, which is renamed over the target only once complete. On any failure or abort the
   * temporary file is removed and the target is left as it was. A `localPath` that is an
   * existing folder, or ends with `/`, receives the file under its data-store name. Missing
   * parent folders are created; an existing file is replaced. Progress shows as for reads (the
   * store's `progress` setting; `progress: false` for this call), and `onProgress` receives the
   * events.
   *
   * @example
   * ```ts ignore
   * const saved = await file.downloadTo("./data/");
   * console.log(saved.path, saved.size);
   * ```
   */
  async downloadTo(
    localPath: string,
    options: CallOptions & { onProgress?: (event: ProgressEvent) => void; progress?: boolean } = {},
  ): Promise<SavedFile> {
    if (typeof localPath !== "string" || localPath === "") {
      throw new BadRequestError("downloadTo needs a local file or folder path.");
    }
    const path = await this.locate(options.signal);
    let target = resolve(localPath);
    if (localPath.endsWith("/") || await isFolder(target)) target = join(target, basename(path));
    await Deno.mkdir(dirname(target), { recursive: true });
    const answer = await download(transportOf(this), path, options);
    const known = this.#fromListing ? (await this.stat()).size : answer.size;
    const tracker = new ProgressTracker(
      progressFor(dataContextOf(transportOf(this)).progress, options, basename(path)),
      1,
      known ?? 0,
    );
    const counted = answer.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          tracker.bytes(chunk.byteLength);
          controller.enqueue(chunk);
        },
      }),
    );
    const temporary = join(
      dirname(target),
      `.${basename(target)}.${crypto.randomUUID().slice(0, 8)}.tern-partial`,
    );
    try {
      const file = await Deno.open(temporary, { write: true, createNew: true });
      // pipeTo closes the file when the body ends and aborts (closes) it when the body fails.
      await counted.pipeTo(file.writable);
      const { size } = await Deno.stat(temporary);
      await Deno.rename(temporary, target);
      tracker.fileDone(path, false);
      tracker.done(true);
      return { path: target, size };
    } catch (error) {
      tracker.done(false);
      await counted.cancel().catch(() => {});
      await answer.body.cancel().catch(() => {});
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
   * ```ts ignore
   * const { contentType, body } = await store.file(pngPath).openInline();
   * const image = new Uint8Array(await new Response(body).arrayBuffer());
   * ```
   */
  async openInline(options: CallOptions = {}): Promise<InlineFile> {
    const path = await this.locate(options.signal);
    const answer = await displayDownload(transportOf(this), path, { inline: true }, options);
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
   * ```ts ignore
   * store.file("/iplant/home/shared/tern_samples/formats/penguins.csv"); // last line of a cell
   * ```
   */
  async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    try {
      return renderFile(await fileView(this));
    } catch (error) {
      if (error instanceof TernError) return error[JUPYTER_DISPLAY]();
      throw error;
    }
  }

  /**
   * Finds the file in its parent's listing; see {@linkcode statFile} for the request count.
   *
   * @example
   * ```ts ignore
   * const entry = await store.file(path).stat(); // calls fetchEntry once
   * ```
   */
  protected fetchEntry(path: string, options: CallOptions): Promise<Entry> {
    return statFile(transportOf(this), path, options);
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
