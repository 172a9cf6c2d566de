/**
 * {@linkcode SearchListing}: what `store.search()` returns — the hits of a data search, fetched
 * lazily one page per request, with the surface of `folder.list()`.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import { type CallOptions, SEARCH_SORT_FIELDS, type SearchSort } from "../client/endpoints.ts";
import { BadRequestError, truncate } from "../client/errors.ts";
import {
  abortSignal,
  CALL_OPTIONS,
  count,
  defineOptions,
  type OptionsSchema,
  rule,
} from "../client/options.ts";
import type { SearchQuery } from "../client/search_query.ts";
import type { DataContext } from "../data/context.ts";
import { MANY_OPTIONS, type ManyOptions } from "../data/options.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderListing } from "../display/listing.ts";
import { withFrameDisplay } from "../frames/view.ts";
import { entriesToDataFrame } from "../listing/frame.ts";
import { fileManifest } from "../listing/manifest.ts";
import {
  pageSearch,
  SEARCH_WINDOW,
  type SearchEntry,
  type SearchPage,
} from "../listing/search_pager.ts";
import { loadPolars } from "../polars/adapter.ts";
import { entryRow, viewOrError, withEngineSnippets, withEntriesView } from "./display.ts";
import { endingProgress } from "./ending_progress.ts";
import { statFile } from "./stat.ts";

/** Hits a search's notebook view shows. */
const VIEW_ROWS = 25;

const SORT_FIELDS: readonly string[] = SEARCH_SORT_FIELDS;

/**
 * Options of `store.search()`.
 *
 * @example
 * ```ts
 * import type { SearchOptions } from "./search_listing.ts";
 *
 * const options: SearchOptions = { sort: [{ field: "fileSize", order: "descending" }], pageSize: 500 };
 * ```
 */
export interface SearchOptions extends CallOptions {
  /**
   * Sort keys, first one first: `field` one of `id`, `label`, `path`, `creator`, `dateCreated`,
   * `dateModified`, `fileSize`; `order` `ascending` (the default) or `descending`.
   * @default [] (the service's order)
   */
  sort?: readonly SearchSort[];
  /**
   * Hits per request (at most 10,000).
   * @default 1000
   */
  pageSize?: number;
}

/**
 * The options schema of `store.search()`.
 *
 * @example
 * ```ts
 * import { SEARCH_OPTIONS } from "./search_listing.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => SEARCH_OPTIONS.parse("store.search()", { sort: [{ field: "size" }] }), {
 *   name: "BadRequestError",
 *   message: /sort must be a list of \{ field, order \}/,
 * });
 * ```
 */
export const SEARCH_OPTIONS: OptionsSchema<SearchOptions> = defineOptions<SearchOptions>(() => ({
  signal: abortSignal(),
  sort: rule(
    `a list of { field, order } with field one of ${
      SORT_FIELDS.join(", ")
    } and order "ascending" or "descending"`,
    (value): value is SearchSort[] =>
      Array.isArray(value) && value.every((key) =>
        typeof key === "object" && key !== null &&
        Object.keys(key).every((name) => name === "field" || name === "order") &&
        SORT_FIELDS.includes(key.field) &&
        (key.order === undefined || key.order === "ascending" || key.order === "descending")
      ),
  ),
  pageSize: count(1).refine((size) => size <= SEARCH_WINDOW, `at most ${SEARCH_WINDOW}`),
}));

/**
 * What a {@linkcode SearchListing} searches: made by `store.search()`.
 *
 * @example
 * ```ts
 * import type { SearchListingPlan } from "./search_listing.ts";
 *
 * type Query = SearchListingPlan["query"];
 * ```
 */
export interface SearchListingPlan extends SearchOptions {
  /** The store's reading context. */
  context: DataContext;
  /**
   * The query, checked; or how to get it when the hits are first asked for (a saved search's
   * template is read then, so `store.runSavedSearch(name)` needs no `await` of its own).
   */
  query: SearchQuery | (() => Promise<SearchQuery>);
  /** How to name the search (`search`, a saved search's name). */
  label: string;
}

/**
 * The hits of a data search (`store.search()`), each an `Entry` with its `creator` and
 * `metadata` (so `store.file(hit)` and `store.folder(hit)` take it). Lazy and re-iterable: each
 * `for await`, `take()`, … searches again from the first page, and a page is requested only when
 * the iteration reaches it; `take(n)` never asks for more than `n` hits. More than 10,000 hits
 * come through a scroll, each once.
 *
 * @example Find by metadata, count, and read the hits' files
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { search } from "../client/search_builder.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const hits = store.search(search.name("penguins.csv", { exact: true }));
 * assert.ok(await hits.count() >= 1);
 * const [first] = await hits.take(1);
 * assert.equal((await store.file(first).stat()).name, "penguins.csv");
 * ```
 */
export class SearchListing implements AsyncIterable<SearchEntry> {
  #plan: SearchListingPlan;
  #query: Promise<SearchQuery> | undefined;
  #known: SearchQuery | undefined;

  /**
   * Wraps a plan; `store.search()` does this.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { STORE_CONTEXT } from "./store_context.ts";
   * import { SearchListing } from "./search_listing.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const hits = new SearchListing({
   *   context: store[STORE_CONTEXT],
   *   query: { all: [{ type: "label", args: { label: "penguins.tsv", exact: true } }] },
   *   label: "search",
   *   sort: [],
   *   pageSize: 10,
   * });
   * assert.equal((await hits.toArray())[0].name, "penguins.tsv");
   * ```
   */
  constructor(plan: SearchListingPlan) {
    this.#plan = plan;
    if (typeof plan.query !== "function") this.#known = plan.query;
  }

  /** The query, got once; a failure (a network error) is not kept, so the next read tries again. */
  #resolved(): Promise<SearchQuery> {
    const { query } = this.#plan;
    if (typeof query !== "function") return Promise.resolve(query);
    this.#query ??= query().then(
      (known) => this.#known = known,
      (error) => {
        this.#query = undefined;
        throw error;
      },
    );
    return this.#query;
  }

  /**
   * Iterates the hits, one page per request.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const names = [];
   * for await (const hit of store.search(search.under("/iplant/home/shared/tern_samples/formats/"))) {
   *   names.push(hit.name);
   * }
   * assert.equal(names.length, 9);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncIterator<SearchEntry> {
    // Not `yield* page.entries`: an async generator delegates to an array through an async
    // wrapper of its iterator, which takes more promise steps per hit than this loop.
    for await (const page of this.#pages()) for (const hit of page.entries) yield hit;
  }

  /**
   * Iterates page by page (offset, the server's total, the hits).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.search(search.under("/iplant/home/shared/tern_samples/formats/"), { pageSize: 5 });
   * const seen = [];
   * for await (const page of formats.pages()) seen.push(`${page.offset + page.entries.length} / ${page.total}`);
   * assert.deepEqual(seen, ["5 / 9", "9 / 9"]);
   * ```
   */
  pages(): AsyncIterable<SearchPage> {
    return { [Symbol.asyncIterator]: () => this.#pages() };
  }

  /**
   * The first `n` hits; no request asks for more than `n`.
   *
   * @throws {BadRequestError} when `n` is not a non-negative integer.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const biggest = await store.search(search.under("/iplant/home/shared/tern_samples/formats/"), {
   *   sort: [{ field: "fileSize", order: "descending" }],
   * }).take(2);
   * assert.deepEqual(biggest.map((hit) => hit.name), ["penguins.json", "penguins.ndjson"]);
   * ```
   */
  async take(n: number): Promise<SearchEntry[]> {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
      throw new BadRequestError(`take(n) needs an integer n ≥ 0, got ${String(n)}.`);
    }
    const taken = this.#shown([]);
    if (n === 0) return taken;
    for await (const page of this.#pages(n)) taken.push(...page.entries);
    return taken;
  }

  /**
   * Every hit, in order, in one array.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const hits = await store.search(search.name("penguins.csv", { exact: true })).toArray();
   * assert.ok(hits.every((hit) => hit.name === "penguins.csv"));
   * ```
   */
  async toArray(): Promise<SearchEntry[]> {
    const hits = this.#shown([]);
    for await (const page of this.#pages()) hits.push(...page.entries);
    return hits;
  }

  /** An array of hits, which a notebook shows as the search's view does: by path. */
  #shown(hits: SearchEntry[]): SearchEntry[] {
    return withEntriesView(hits, "Hits", this.#plan.label, (hit) => hit.path);
  }

  /**
   * How many hits there are: the server's total, in one request asking for one hit. Past 10,000
   * the server counts only "at least 10,000", so the hits are then counted by scrolling.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * assert.equal(await store.search(search.under("/iplant/home/shared/tern_samples/formats/")).count(), 9);
   * ```
   */
  async count(): Promise<number> {
    for await (const page of this.#pages(1)) {
      if (page.exact) return page.total;
      break;
    }
    let counted = 0;
    for await (const page of this.#pages()) counted += page.entries.length;
    return counted;
  }

  /**
   * The hits as a DataFrame: `path`, `name`, `type`, `size`, `created`, `modified`, `infoType`,
   * `id`, `permission`, `creator`, then one string column per metadata attribute the hits carry
   * (in order of first appearance; several values of one attribute joined with `"; "`; null where
   * a hit lacks it; an attribute named like a column above gets a `metadata.` prefix).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const frame = await store.search(search.metadata("rights", "CC0")).toDataFrame();
   * assert.ok(frame.height >= 1);
   * assert.ok(frame.columns.includes("creator") && frame.columns.includes("rights"));
   * ```
   */
  async toDataFrame(): Promise<DataFrame> {
    const pl = await loadPolars();
    const hits = await this.toArray();
    const frame = await entriesToDataFrame(hits);
    const taken = new Set([...frame.columns, "creator"]);
    const attributes = new Map<string, (string | null)[]>();
    hits.forEach((hit, row) => {
      for (const avu of hit.metadata) {
        let column = attributes.get(avu.attribute);
        if (column === undefined) {
          column = new Array(hits.length).fill(null);
          attributes.set(avu.attribute, column);
        }
        column[row] = column[row] === null ? avu.value : `${column[row]}; ${avu.value}`;
      }
    });
    const extra = [
      pl.Series("creator", hits.map((hit) => hit.creator), pl.Utf8),
      ...[...attributes].map(([attribute, values]) =>
        pl.Series(taken.has(attribute) ? `metadata.${attribute}` : attribute, values, pl.Utf8)
      ),
    ];
    return withFrameDisplay(frame.hstack(pl.DataFrame(extra)));
  }

  /**
   * Reads every file found (folders are skipped) into one DataFrame, as `listing.dataframes()`
   * does: a `source` column first, columns united across files.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const csv = search.under("/iplant/home/shared/tern_samples/formats/").name("penguins.csv", { exact: true });
   * const frame = await store.search(csv).dataframes();
   * assert.equal(frame.columns[0], "source");
   * assert.equal(frame.height, 344);
   * ```
   */
  async dataframes(options: ManyOptions = {}): Promise<DataFrame> {
    return await endingProgress(options, async (given) => {
      const parsed = MANY_OPTIONS.parse("search.dataframes()", given);
      const { context } = this.#plan;
      const listed = {
        entries: await this.toArray(),
        stat: (path: string, signal?: AbortSignal) => statFile(context.transport, path, { signal }),
      };
      const { readMany } = await import("../data/many.ts");
      return withFrameDisplay(await readMany(context, listed, parsed));
    });
  }

  /**
   * The files found as a manifest for other engines, as `listing.manifest()` makes it (no token
   * in it).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const query = search.under("/iplant/home/shared/tern_samples/formats/").name("*.parquet");
   * const manifest = await store.search(query).manifest();
   * assert.deepEqual(manifest.getColumn("format").toArray(), ["parquet"]);
   * ```
   */
  async manifest(options: CallOptions = {}): Promise<DataFrame> {
    options = CALL_OPTIONS.parse("search.manifest()", options);
    const { transport } = this.#plan.context;
    const frame = await fileManifest(transport, await this.toArray(), options);
    return withEngineSnippets(
      withFrameDisplay(frame, { title: `Manifest: ${this.#plan.label}` }),
      transport.url,
    );
  }

  /** `SearchListing(search {"all":[…]})`; a saved search not read yet, by its name alone. */
  toString(): string {
    const known = this.#known;
    const query = known === undefined ? "" : ` ${truncate(JSON.stringify(known), 200)}`;
    return `SearchListing(${this.#plan.label}${query})`;
  }

  /** Same as {@linkcode SearchListing.toString}. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.toString();
  }

  /**
   * The notebook view: the first 25 hits (their paths), and the server's total; one request.
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const hits = store.search(search.under("/iplant/home/shared/tern_samples/formats/"));
   * const text = (await hits[JUPYTER_DISPLAY]())["text/plain"];
   * assert.match(text.split("\n")[0], /^Search search — .* — 9 entries$/);
   * ```
   */
  async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    return await viewOrError(async () => {
      let first: SearchPage | undefined;
      for await (const page of this.#pages(VIEW_ROWS + 1)) {
        first = page;
        break;
      }
      const hits = first?.entries ?? [];
      return renderListing({
        kind: "Search",
        title: this.#plan.label,
        description: truncate(JSON.stringify(await this.#resolved()), 300),
        entries: hits.slice(0, VIEW_ROWS).map((hit) => entryRow(hit, hit.path)),
        ...(first?.exact ? { total: first.total } : {}),
        more: hits.length > VIEW_ROWS,
        hint: "iterate the search for every hit",
      });
    });
  }

  async *#pages(wanted?: number): AsyncGenerator<SearchPage, void, undefined> {
    const { context, sort = [], pageSize = 1000, signal } = this.#plan;
    const query = await this.#resolved();
    yield* pageSearch(context.transport, { query, sort, pageSize, wanted, signal });
  }
}
