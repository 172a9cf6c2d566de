/**
 * Runs checked searches over a store's {@link SearchIndex}: filters by the query and by what the
 * caller may read, sorts, pages (`from + size` at most 10,000, as Elasticsearch's result window)
 * and scrolls, and renders the Elasticsearch-shaped answer the search service passes on.
 *
 * @module
 */

import type { DiskStore } from "../disk_store.ts";
import { searchRefused } from "../errors.ts";
import { type Permission, permissionFor } from "../permissions.ts";
import { renderAvus } from "../sidecars.ts";
import type { Matcher } from "./query.ts";
import type { SearchSortField } from "../../registry/search_sort_fields.ts";
import { type IndexedDoc, SearchIndex } from "./search_index.ts";

/** Elasticsearch's result window: `from + size` beyond it is refused; scroll goes further. */
const RESULT_WINDOW = 10_000;

/** Open scrolls at most (Elasticsearch's `search.max_open_scroll_context`). */
const MAX_SCROLLS = 500;
/** Hits held by open scrolls at most, together (each is one reference into the index). */
const MAX_SCROLL_HITS = 4_000_000;

/**
 * A checked search request.
 *
 * @example
 * ```ts
 * import type { SearchRequest } from "./searcher.ts";
 * const request: SearchRequest = {
 *   kind: "query", matches: () => true, from: 0, size: 10, sort: [],
 * };
 * ```
 */
export type SearchRequest =
  | {
    kind: "query";
    /** The compiled query. */
    matches: Matcher;
    /** Hits to skip. */
    from: number;
    /** Hits per answer. */
    size: number;
    /** Sort order; empty = by relevance (all equal here, so by path). */
    sort: { field: SearchSortField; order: "ascending" | "descending" }[];
    /** Keep-alive of a scroll to open, ms. */
    scrollMs?: number;
  }
  | {
    kind: "scroll";
    /** The scroll to continue. */
    scrollId: string;
    /** Its new keep-alive, ms. */
    scrollMs: number;
  };

/** What each sort field sorts by. */
const SORT_VALUES: Record<SearchSortField, (doc: IndexedDoc, store: DiskStore) => string | number> =
  {
    id: (doc, store) => store.idOf(doc.path),
    label: (doc) => doc.label,
    path: (doc) => doc.path,
    creator: (doc, store) => `${doc.owner}#${store.zone}`,
    dateCreated: (doc) => doc.created,
    dateModified: (doc) => doc.modified,
    fileSize: (doc) => doc.size,
  };

interface Scroll {
  user: string;
  hits: IndexedDoc[];
  position: number;
  size: number;
  sort: { field: SearchSortField; order: "ascending" | "descending" }[];
  expiresAt: number;
}

/**
 * A store's search: its index and its open scrolls.
 *
 * @example
 * ```ts
 * import { DiskStore } from "../disk_store.ts";
 * import { Searcher } from "./searcher.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const searcher = new Searcher(await DiskStore.open(root, "iplant"));
 * const answer = await searcher.run("anonymous", {
 *   kind: "query", matches: (doc) => doc.label === "shared", from: 0, size: 10, sort: [],
 * });
 * assert.deepEqual(answer.total, { value: 1, relation: "eq" });
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export class Searcher {
  /** The index searched. */
  readonly index: SearchIndex;
  readonly #store: DiskStore;
  readonly #scrolls = new Map<string, Scroll>();

  /**
   * The search of `store`; its index is built on the first search.
   *
   * @example
   * ```ts
   * import { DiskStore } from "../disk_store.ts";
   * import { Searcher } from "./searcher.ts";
   * const root = await Deno.makeTempDir();
   * const searcher = new Searcher(await DiskStore.open(root, "iplant"));
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  constructor(store: DiskStore) {
    this.#store = store;
    this.index = new SearchIndex(store);
  }

  /**
   * Answers `request` for `user`.
   *
   * @throws {TerrainError} 400 for a page beyond the result window, a scroll past its end
   * (`EOF`) or expired, and too many open scrolls.
   *
   * @example
   * ```ts
   * import { DiskStore } from "../disk_store.ts";
   * import { Searcher } from "./searcher.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const searcher = new Searcher(await DiskStore.open(root, "iplant"));
   * await assert.rejects(
   *   searcher.run("demo", { kind: "query", matches: () => true, from: 9_999, size: 2, sort: [] }),
   *   (error: { status: number; body: { error: string } }) =>
   *     error.status === 400 && /all shards failed/.test(error.body.error),
   * );
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async run(user: string, request: SearchRequest): Promise<Record<string, unknown>> {
    const now = Date.now();
    for (const [id, scroll] of this.#scrolls) {
      if (scroll.expiresAt < now) this.#scrolls.delete(id);
    }
    if (request.kind === "scroll") return this.#continue(user, request.scrollId, request.scrollMs);
    if (request.scrollMs === undefined && request.from + request.size > RESULT_WINDOW) {
      throw searchRefused(
        "elastic: Error 400 (Bad Request): all shards failed [type=search_phase_execution_exception]",
      );
    }
    if (request.scrollMs !== undefined && request.from > 0) {
      throw searchRefused(
        "elastic: Error 400 (Bad Request): Validation Failed: 1: using [from] is not allowed in a scroll context; [type=action_request_validation_exception]",
      );
    }
    if (request.scrollMs !== undefined && request.size > RESULT_WINDOW) {
      throw searchRefused(
        `elastic: Error 400 (Bad Request): Batch size is too large, size must be less than or equal to: [${RESULT_WINDOW}] but was [${request.size}]. [type=illegal_argument_exception]`,
      );
    }
    const docs = await this.index.docs();
    // The query first: it rejects most entries, and cheaply when they carry no metadata.
    const hits = docs.filter((doc) =>
      request.matches(doc) && permissionFor(this.#store.paths, user, doc.path) !== "none"
    );
    if (request.sort.length > 0) this.#sort(hits, request.sort);
    if (request.scrollMs === undefined) {
      const page = hits.slice(request.from, request.from + request.size);
      return this.#answer(user, page, hits.length, request.sort);
    }
    const held = [...this.#scrolls.values()].reduce((sum, scroll) => sum + scroll.hits.length, 0);
    if (this.#scrolls.size >= MAX_SCROLLS || held + hits.length > MAX_SCROLL_HITS) {
      throw searchRefused(
        `elastic: Error 500 (Internal Server Error): Trying to create too many scroll contexts. Must be less than or equal to: [${MAX_SCROLLS}] [type=exception]`,
      );
    }
    const scrollId = btoa(crypto.randomUUID()).replaceAll("=", "");
    this.#scrolls.set(scrollId, {
      user,
      hits,
      position: request.size,
      size: request.size,
      sort: request.sort,
      expiresAt: now + request.scrollMs,
    });
    const page = hits.slice(0, request.size);
    return { scroll_id: scrollId, ...this.#answer(user, page, hits.length, request.sort) };
  }

  #continue(user: string, scrollId: string, scrollMs: number): Record<string, unknown> {
    const scroll = this.#scrolls.get(scrollId);
    if (!scroll || scroll.user !== user) {
      throw searchRefused(
        `elastic: Error 404 (Not Found): No search context found for id [${scrollId}] [type=search_context_missing_exception]`,
      );
    }
    if (scroll.position >= scroll.hits.length) {
      this.#scrolls.delete(scrollId);
      throw searchRefused("EOF");
    }
    const page = scroll.hits.slice(scroll.position, scroll.position + scroll.size);
    scroll.position += scroll.size;
    scroll.expiresAt = Date.now() + scrollMs;
    return { scroll_id: scrollId, ...this.#answer(user, page, scroll.hits.length, scroll.sort) };
  }

  #sort(hits: IndexedDoc[], sort: Scroll["sort"]): void {
    const keyed = hits.map((doc) => ({
      doc,
      keys: sort.map((s) => SORT_VALUES[s.field](doc, this.#store)),
    }));
    keyed.sort((a, b) => {
      for (let i = 0; i < sort.length; i++) {
        const x = a.keys[i];
        const y = b.keys[i];
        if (x === y) continue;
        const ascending = x < y ? -1 : 1;
        return sort[i].order === "descending" ? -ascending : ascending;
      }
      return 0;
    });
    keyed.forEach((entry, i) => hits[i] = entry.doc);
  }

  #answer(
    user: string,
    page: IndexedDoc[],
    total: number,
    sort: Scroll["sort"],
  ): Record<string, unknown> {
    const zone = this.#store.zone;
    const answer: Record<string, unknown> = {
      total: total > RESULT_WINDOW
        ? { value: RESULT_WINDOW, relation: "gte" }
        : { value: total, relation: "eq" },
    };
    if (sort.length === 0) answer.max_score = total > 0 ? 1 : null;
    if (page.length === 0) return answer;
    answer.hits = page.map((doc) => {
      const id = this.#store.idOf(doc.path);
      const avus = (list: readonly { attr: string; value: string; unit: string }[]) =>
        list.length === 0
          ? null
          : list.map((avu) => ({ attribute: avu.attr, value: avu.value, unit: avu.unit }));
      const permission: Permission = permissionFor(this.#store.paths, user, doc.path);
      return {
        _index: "data",
        _type: "_doc",
        _id: id,
        ...(sort.length === 0
          ? { _score: 1 }
          : { sort: sort.map((s) => SORT_VALUES[s.field](doc, this.#store)) }),
        _source: {
          doc_type: doc.kind,
          id,
          path: doc.path,
          label: doc.label,
          creator: `${doc.owner}#${zone}`,
          fileType: doc.fileType,
          dateCreated: doc.created,
          dateModified: doc.modified,
          fileSize: doc.size,
          metadata: {
            irods: avus(doc.irods),
            cyverse: avus(renderAvus(doc.cyverse, id, doc.owner, doc.metadataTime)),
          },
          userPermissions: doc.permissions.map((held) => ({
            user: `${held.user}#${zone}`,
            permission: held.permission,
          })),
        },
        fields: { permission: [permission] },
      };
    });
    return answer;
  }
}
