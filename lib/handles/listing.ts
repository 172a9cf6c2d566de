/**
 * {@linkcode Listing}: what `folder.list()` and `folder.walk()` return — a lazy, re-iterable
 * async iterable of entries that pages invisibly and never stops short without an error.
 *
 * @module
 */

import type { DataFrame, LazyDataFrame } from "../deps.ts";
import { type CallOptions, getPagedDirectory } from "../client/endpoints.ts";
import { BadRequestError, ProtocolError, quoteInput } from "../client/errors.ts";
import type { DataContext } from "../data/context.ts";
import type { ListedFiles } from "../data/many.ts";
import {
  MANY_OPTIONS,
  type ManyOptions,
  SCAN_MANY_OPTIONS,
  type ScanManyOptions,
} from "../data/options.ts";
import { CALL_OPTIONS } from "../client/options.ts";
import { withFrameDisplay } from "../frames/view.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderListing } from "../display/listing.ts";
import { endingProgress } from "./ending_progress.ts";
import { entryRow, viewOrError, withEngineSnippets, withEntriesView } from "./display.ts";
import { baseName } from "../client/paths.ts";
import { statFile } from "./stat.ts";
import { progressReporter } from "../progress/reporter.ts";
import type { Entry } from "../client/entry.ts";
import { entriesToDataFrame } from "../listing/frame.ts";
import { fileManifest } from "../listing/manifest.ts";
import type { ResolvedListOptions, ResolvedWalkOptions } from "../listing/options.ts";
import { type Page, pageFolder } from "../listing/pager.ts";

/** Entries a listing's notebook view shows. */
const LISTING_ROWS = 25;

/**
 * Most pages, and longest time, a listing's notebook view spends looking for its first entries
 * (a glob that matches little could otherwise make it walk a whole tree).
 */
const VIEW_PAGES = 50;
const VIEW_MS = 3000;

/**
 * What a {@linkcode Listing} lists: made by the folder handles, not by hand.
 *
 * @example
 * ```ts
 * import type { ListingPlan } from "./listing.ts";
 *
 * type Mode = ListingPlan["mode"]; // "list" or "walk"
 * ```
 */
export type ListingPlan =
  & {
    /** The store's reading context (transport, cache, offline flag, progress). */
    context: DataContext;
    /** Resolves the folder's path (a handle made from an id looks it up first). */
    folder: (signal?: AbortSignal) => Promise<string>;
    /** How to show the folder before its path is known (its path, or its id). */
    label: string;
  }
  & (
    | { mode: "list"; options: ResolvedListOptions }
    | { mode: "walk"; options: ResolvedWalkOptions }
  );

/**
 * The entries of a folder (`folder.list()`) or of a folder tree (`folder.walk()`), fetched
 * lazily one page per request, with the next page requested while the current one is being
 * consumed.
 *
 * - **Complete or an error.** Iteration delivers every entry the server counts, each once, or
 *   throws: a {@linkcode ListingChangedError} when the folder changed under the listing in a way
 *   that could hide entries (its total moved, a page came back empty early, or entries shifted),
 *   a {@linkcode ProtocolError} when the server's pages contradict its own total. When the
 *   folder's modification date moves with a steady total, one `console.warn` says so.
 * - **Flat memory.** Iterating keeps at most a couple of pages (and, for a walk, the paths of
 *   folders still to visit); only `toArray()` and `toDataFrame()` hold every entry.
 * - **Re-iterable.** Each `for await`, `pages()`, `take()`, … starts from the first page again.
 * - **Abortable** through the store's signal or the `signal` option; the iteration then rejects
 *   with an `AbortError`.
 *
 * @example List, count and load into a DataFrame
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const tables = store.folder("/iplant/home/shared/tern_samples/formats").list({ glob: "*.{csv,tsv}" });
 * const sizes: Record<string, number> = {};
 * for await (const entry of tables) sizes[entry.name] = entry.size;
 * assert.deepEqual(sizes, { "penguins.csv": 13487, "penguins.tsv": 13487 });
 * const frame = await tables.toDataFrame();
 * assert.equal(await tables.count(), 2);
 * assert.deepEqual(frame.shape, { height: 2, width: 9 });
 * ```
 */
export class Listing implements AsyncIterable<Entry> {
  #plan: ListingPlan;

  /**
   * Wraps a plan; folder handles do this in `list()` and `walk()`.
   *
   * @example
   * ```ts
   * import { STORE_CONTEXT } from "./store_context.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import { Listing } from "./listing.ts";
   * import { resolveListOptions } from "../listing/options.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const path = "/iplant/home/shared/tern_samples";
   * const listing = new Listing({
   *   context: store[STORE_CONTEXT],
   *   folder: () => Promise.resolve(path),
   *   label: path,
   *   mode: "list",
   *   options: resolveListOptions({ type: "file" }),
   * });
   * assert.deepEqual((await listing.toArray()).map((entry) => entry.name), ["README.txt"]);
   * ```
   */
  constructor(plan: ListingPlan) {
    this.#plan = plan;
  }

  /**
   * Iterates the entries, one page per request, prefetching the next page.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
   * const paths = [];
   * for await (const entry of formats.list()) paths.push(entry.path);
   * assert.equal(paths.length, 9);
   * assert.equal(paths[0], "/iplant/home/shared/tern_samples/formats/README.txt");
   * ```
   */
  [Symbol.asyncIterator](): AsyncIterableIterator<Entry> {
    // A hand-written iterator over the current page: an async generator's `yield*` costs
    // several promise turns per entry, which dominates for folders of 100,000 entries.
    const pages = this.#pages(true);
    let entries: readonly Entry[] = [];
    let index = 0;
    const iterator: AsyncIterableIterator<Entry> = {
      async next(): Promise<IteratorResult<Entry>> {
        while (index >= entries.length) {
          const page = await pages.next();
          if (page.done) return { done: true, value: undefined };
          entries = page.value.entries;
          index = 0;
        }
        return { done: false, value: entries[index++] };
      },
      async return(): Promise<IteratorResult<Entry>> {
        entries = [];
        await pages.return();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /**
   * Iterates page by page, for progress ("offset of total") or batch work. Each page carries
   * its folder, offset, the server's total and the entries left after client-side filters.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
   * const progress: string[] = [];
   * for await (const page of formats.list({ pageSize: 4 }).pages()) {
   *   progress.push(`${page.offset + page.entries.length} / ${page.total}`);
   * }
   * assert.deepEqual(progress, ["4 / 9", "8 / 9", "9 / 9"]);
   * ```
   */
  pages(): AsyncIterable<Page> {
    return { [Symbol.asyncIterator]: () => this.#pages(true) };
  }

  /**
   * The first `n` entries (fewer only when the listing holds fewer). Without a glob, the first
   * request asks for just `n` entries.
   *
   * @throws {BadRequestError} when `n` is not a non-negative integer.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
   * const biggest = await formats.list({ sort: "size", order: "desc" }).take(2);
   * assert.deepEqual(biggest.map((entry) => entry.name), ["penguins.json", "penguins.ndjson"]);
   * ```
   */
  async take(n: number): Promise<Entry[]> {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
      throw new BadRequestError(`take(n) needs an integer n ≥ 0, got ${String(n)}.`);
    }
    const taken = this.#shown([]);
    if (n === 0) return taken;
    const hint = this.#plan.mode === "list" && this.#plan.options.glob === undefined
      ? Math.min(n, this.#plan.options.pageSize)
      : undefined;
    for await (const page of this.#pages(true, hint, n)) {
      for (const entry of page.entries) {
        taken.push(entry);
        if (taken.length === n) return taken;
      }
    }
    return taken;
  }

  /** An array of this listing's entries, which a notebook shows as a listing (a walk by path). */
  #shown(entries: Entry[]): Entry[] {
    const name = this.#plan.mode === "walk" ? (entry: Entry) => entry.path : undefined;
    return withEntriesView(entries, "Entries", this.#described(), name);
  }

  /**
   * Every entry, in order, in one array.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
   * const entries = await formats.list().toArray();
   * assert.equal(entries.length, 9);
   * ```
   */
  async toArray(): Promise<Entry[]> {
    const entries = this.#shown([]);
    for await (const page of this.#pages(true)) {
      for (const entry of page.entries) entries.push(entry);
    }
    return entries;
  }

  /**
   * How many entries iterating would yield. One request (a one-entry page, whose `total` says)
   * for a plain `list()` without a glob; otherwise a full pass that counts without keeping.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const manyFiles = store.folder("/iplant/home/shared/tern_samples/many_files");
   * assert.equal(await manyFiles.list({ type: "file" }).count(), 20000); // in one request
   * ```
   */
  async count(): Promise<number> {
    const plain = this.#plan.mode === "list" && this.#plan.options.glob === undefined;
    return plain ? await this.#serverTotal() : await this.#countPages(true);
  }

  /**
   * How many entries match every filter except `glob` — the number the server can count. For a
   * `list()` this is one request and is known before any entry is read; a glob is applied on the
   * client, so `count()` may be smaller. For a `walk()` there is no server-side total, so this is
   * a full pass without the glob.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
   * const csv = formats.list({ glob: "*.csv" });
   * assert.equal(
   *   `${await csv.count()} CSV files among ${await csv.total()} entries`,
   *   "1 CSV files among 9 entries",
   * );
   * ```
   */
  async total(): Promise<number> {
    return this.#plan.mode === "list" ? await this.#serverTotal() : await this.#countPages(false);
  }

  /**
   * The entries as a nodejs-polars DataFrame with columns `path`, `name`, `type`, `size`,
   * `created`, `modified`, `infoType`, `id`, `permission` (nodejs-polars is loaded on first
   * use, which needs `--allow-ffi`).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const frame = await store.folder("/iplant/home/demo").walk({ type: "file" }).toDataFrame();
   * const biggest = frame.select("name", "size").sort("size", true).head(3);
   * assert.deepEqual(biggest.getColumn("name").toArray(), [
   *   "stocks.csv",
   *   "données_météo_seattle.csv",
   *   "sp500.csv",
   * ]);
   * assert.deepEqual(biggest.getColumn("size").toArray(), [12245, 3019, 2305]);
   * ```
   */
  async toDataFrame(): Promise<DataFrame> {
    return withFrameDisplay(await entriesToDataFrame(this));
  }

  /**
   * Reads every file of the listing (folders are skipped) into one DataFrame — the files'
   * contents, unlike {@linkcode Listing.toDataFrame} which lists the entries. A `source` column
   * (first) holds each row's data-store path; rows keep the listing's order. Downloads overlap
   * up to the store's `concurrency`; each file is parsed as it completes, read from the local
   * cache when unchanged, and checked against its listed size. Files whose columns differ still
   * combine: columns are united and types widened (a column a file lacks is null there).
   * Options apply to every file; `onProgress` receives bytes, files done out of the total, and
   * the rate.
   *
   * @throws {UnsupportedFormatError} when a file is not a table (filter with `glob`/`infoType`).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const tables = store.folder("/iplant/home/demo").walk({ glob: "**" + "/*.csv" });
   * let read = "";
   * const frame = await tables.dataframes({
   *   onProgress: (event) => read = `${event.files}/${event.totalFiles} files`,
   * });
   * assert.equal(frame.groupBy("source").len().height, 4);
   * assert.equal(read, "4/4 files");
   * ```
   */
  async dataframes(options: ManyOptions = {}): Promise<DataFrame> {
    return await endingProgress(options, async (given) => {
      const parsed = MANY_OPTIONS.parse("listing.dataframes()", given);
      const listed = await this.#listed();
      const { readMany } = await import("../data/many.ts");
      return withFrameDisplay(await readMany(this.#plan.context, listed, parsed));
    });
  }

  /**
   * Every file of the listing (folders are skipped) as one Polars LazyFrame, with a `source`
   * column (first) holding each row's data-store path (`source` renames it). Each file is
   * scanned as `file.scan()` would: public Parquet in place over its anonymous URL, the rest
   * from the cached copy, with `file.scan()`'s options (`dataframe()`'s options of how bytes
   * become a table among them). Columns are united across files and types widened.
   *
   * @throws {BadRequestError} when the listing holds no file.
   *
   * @example
   * ```ts
   * import pl from "../../polars.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const tables = store.folder("/iplant/home/shared/tern_samples").walk({ glob: "**" + "/*.parquet" });
   * const lazy = await tables.scan();
   * const counts = await lazy.groupBy("source").agg(pl.len()).collect();
   * assert.ok(counts.height >= 1);
   * ```
   */
  async scan(options: ScanManyOptions = {}): Promise<LazyDataFrame> {
    return await endingProgress(options, async (given) => {
      const parsed = SCAN_MANY_OPTIONS.parse("listing.scan()", given);
      const { scanMany } = await import("../data/scan.ts");
      return await scanMany(this.#plan.context, await this.#listed(), parsed);
    });
  }

  /** The listing's entries, and how the readers ask for one's current entry again. */
  async #listed(): Promise<ListedFiles> {
    const { transport } = this.#plan.context;
    return {
      entries: await this.toArray(),
      stat: (path, signal) => statFile(transport, path, { signal }),
    };
  }

  /**
   * The listing's files as a manifest for other engines: a DataFrame with `path`, `id`, `size`,
   * `modified` (UTC datetime), `checksum` (the store's), `format` (from the name), `contentType`,
   * `url` and `access` (the public `dav-anon` URL the server gives, `public`; for a private file
   * Terrain's download URL, `token`: read with the caller's token as a bearer header). No token is
   * ever in it. One `file/manifest` request per file, overlapped up to the store's concurrency,
   * and one `filesystem/stat` per 1,000 files. Write it with
   * `writeManifest(frame, "manifest.csv")` (or `.parquet`, `.json`); Dask, DuckDB or Polars then
   * read the URLs directly. In a notebook it shows its table and ready-to-run code for those
   * engines, which takes the token from `TERRAIN_TOKEN` and sends it only to this store's URLs
   * (see `docs/engines.md`).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
   * const manifest = await formats.list({ glob: "*.{csv,parquet}" }).manifest();
   * assert.deepEqual(manifest.getColumn("format").toArray(), ["csv", "parquet"]);
   * assert.equal(manifest.getColumn("url").nullCount(), 0);
   * assert.deepEqual(manifest.getColumn("access").toArray(), ["public", "public"]);
   * ```
   */
  async manifest(options: CallOptions = {}): Promise<DataFrame> {
    options = CALL_OPTIONS.parse("listing.manifest()", options);
    const { transport } = this.#plan.context;
    const frame = await fileManifest(transport, await this.toArray(), options);
    const title = `Manifest: ${this.#described()}`;
    return withEngineSnippets(withFrameDisplay(frame, { title }), transport.url);
  }

  /** `Listing(list /iplant/home/shared, type "file", glob "*.csv")`. */
  toString(): string {
    return `Listing(${this.#described()})`;
  }

  /** The mode and folder, then the filters, as toString() says them. */
  #described(filtersOnly = false): string {
    const { options, mode, label } = this.#plan;
    const parts = filtersOnly ? [] : [`${mode} ${label}`];
    if (options.type !== undefined) parts.push(`type "${options.type}"`);
    if (options.infoType !== undefined) parts.push(`infoType ${options.infoType.join("|")}`);
    if (options.sortCol !== undefined) {
      parts.push(`sort ${options.sortCol} ${(options.sortDir ?? "ASC").toLowerCase()}`);
    }
    if (options.glob !== undefined) parts.push(`glob ${JSON.stringify(options.glob.pattern)}`);
    if (mode === "walk" && this.#plan.options.maxDepth !== Infinity) {
      parts.push(`maxDepth ${this.#plan.options.maxDepth}`);
    }
    return parts.join(", ");
  }

  /** Same as {@linkcode Listing.toString}, for `Deno.inspect` and notebooks' plain output. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.toString();
  }

  /**
   * The notebook view: the listing's first 25 entries (a walk shows their paths relative to
   * its folder), its filters, and how many entries there are — the server's total for a plain
   * `list()`, otherwise whether there are more. One request for a plain `list()`; a walk or a
   * glob reads at most 50 pages (3 s) looking for its first entries, and says so when it stopped.
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * // In a notebook, a listing as the last line of a cell shows this view.
   * const demo = store.folder("/iplant/home/demo");
   * const listing = demo.list({ type: "file", sort: "size", order: "desc" });
   * const lines = (await listing[JUPYTER_DISPLAY]())["text/plain"].split("\n");
   * assert.equal(lines[0], 'Listing /iplant/home/demo — type "file", sort size desc — 4 entries');
   * assert.match(lines[2], /^ {2}données_météo_seattle\.csv +csv +3\.02 kB/);
   * ```
   */
  async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    const plan = this.#plan;
    return await viewOrError(async () => {
      const path = await plan.folder(plan.options.signal);
      const plain = plan.mode === "list" && plan.options.glob === undefined;
      const wanted = LISTING_ROWS + 1;
      const hint = plain ? Math.min(wanted, plan.options.pageSize) : undefined;
      const first: Entry[] = [];
      let total: number | undefined;
      let pages = 0;
      let stopped = false;
      const started = performance.now();
      for await (const page of this.#pages(true, hint, wanted, true)) {
        // Without a glob the server's count is the listing's: no request of its own.
        if (plain) total ??= page.total;
        first.push(...page.entries.slice(0, wanted - first.length));
        if (first.length >= wanted) break;
        if (++pages >= VIEW_PAGES || performance.now() - started >= VIEW_MS) {
          stopped = true;
          break;
        }
      }
      const shown = first.slice(0, LISTING_ROWS);
      const description = this.#described(true);
      return renderListing({
        kind: plan.mode === "walk" ? "Walk" : "Listing",
        title: baseName(path),
        path,
        ...(description === "" ? {} : { description }),
        ...(stopped ? { facts: [`stopped looking after ${pages} pages`] } : {}),
        entries: shown.map((entry) =>
          entryRow(
            entry,
            plan.mode === "walk" && entry.path.startsWith(`${path}/`)
              ? entry.path.slice(path.length + 1)
              : entry.name,
          )
        ),
        ...(total === undefined ? {} : { total }),
        more: first.length > LISTING_ROWS || stopped,
        hint: "iterate the listing for every entry",
      });
    });
  }

  async *#pages(
    applyGlob: boolean,
    firstPageSize?: number,
    wanted?: number,
    quiet = false,
  ): AsyncGenerator<Page, void, undefined> {
    const plan = this.#plan;
    // Stopping early (break, take) aborts the page already requested ahead.
    const stop = new AbortController();
    const signal = plan.options.signal === undefined
      ? stop.signal
      : AbortSignal.any([plan.options.signal, stop.signal]);
    let warned = false;
    const onChange = (message: string) => {
      if (warned) return;
      warned = true;
      console.warn(message);
    };
    try {
      const path = await plan.folder(signal);
      if (plan.mode === "walk") {
        const options = applyGlob ? plan.options : { ...plan.options, glob: undefined };
        const { walkPages } = await import("../listing/walk.ts");
        const pages = walkPages(
          { transport: plan.context.transport, root: path, signal, onChange },
          options,
        );
        const report = quiet ? undefined : progressReporter({
          setting: plan.context.progress,
          label: `walk ${baseName(path)}`,
        });
        if (report === undefined) {
          yield* pages;
          return;
        }
        // A walk has no total to count against: the line shows entries found and folders seen.
        const started = performance.now();
        const folders = new Set<string>();
        let entries = 0;
        let failed = false;
        const event = (kind: "start" | "bytes" | "done") =>
          report({
            kind,
            entries,
            folders: folders.size,
            elapsedMs: performance.now() - started,
            ...(kind === "done" ? { ok: !failed } : {}),
          });
        event("start");
        try {
          for await (const page of pages) {
            folders.add(page.folder);
            entries += page.entries.length;
            event("bytes");
            yield page;
          }
        } catch (error) {
          failed = true;
          throw error;
        } finally {
          event("done");
        }
        return;
      }
      const { options } = plan;
      const glob = applyGlob ? options.glob : undefined;
      await glob?.ready();
      const pages = pageFolder(plan.context.transport, { ...options, path }, {
        pageSize: options.pageSize,
        firstPageSize,
        // Without a glob every entry counts, so take(n) needs exactly n of them.
        wanted: glob === undefined ? wanted : undefined,
        signal,
        onChange,
      });
      for await (const page of pages) {
        yield glob === undefined
          ? page
          : { ...page, entries: page.entries.filter((entry) => glob.matches(entry.name)) };
      }
    } finally {
      stop.abort();
    }
  }

  async #countPages(applyGlob: boolean): Promise<number> {
    let count = 0;
    for await (const page of this.#pages(applyGlob)) count += page.entries.length;
    return count;
  }

  async #serverTotal(): Promise<number> {
    const { context, options } = this.#plan;
    const path = await this.#plan.folder(options.signal);
    const page = await getPagedDirectory(context.transport, {
      path,
      limit: 1,
      entityType: options.entityType,
      infoType: options.infoType,
    }, { signal: options.signal });
    if (page.total !== null) return page.total;
    if (page.folders.length + page.files.length === 0) return 0;
    throw new ProtocolError(
      `filesystem/paged-directory sent entries for ${quoteInput(path)} without a total.`,
      { path, endpoint: "filesystem/paged-directory" },
    );
  }
}
