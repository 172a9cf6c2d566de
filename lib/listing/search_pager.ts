/**
 * Pages through a data search (`filesystem/search`), one request per page and only when the
 * caller asks for the next one: by `from` and `size` while the server's total is exact (at most
 * 10,000 hits), through a scroll beyond.
 *
 * @module
 */

import { searchData, type SearchRequest, type SearchSort } from "../client/endpoints.ts";
import type { Entry } from "../client/entry.ts";
import { BadRequestError, ProtocolError, quoteInput } from "../client/errors.ts";
import type { SearchHit } from "../client/schemas.ts";
import type { SearchQuery } from "../client/search_query.ts";
import type { Transport } from "../client/transport.ts";
import { ListingChangedError } from "./errors.ts";

/** Hits Elasticsearch pages through by `from` and `size`; past it only a scroll goes. */
export const SEARCH_WINDOW = 10_000;

/** How long the server keeps a scroll between two pages. */
const KEEP_SCROLL = "5m";

/**
 * An AVU a search hit carries, and which metadata it is from.
 *
 * @example
 * ```ts
 * import type { HitAvu } from "./search_pager.ts";
 *
 * const avu: HitAvu = { attribute: "subject", value: "maize", unit: "", type: "cyverse" };
 * ```
 */
export interface HitAvu {
  /** Attribute. */
  readonly attribute: string;
  /** Value. */
  readonly value: string;
  /** Unit (`""` when none). */
  readonly unit: string;
  /** The metadata service's (`cyverse`) or iRODS's (`irods`). */
  readonly type: "irods" | "cyverse";
}

/**
 * A search hit as an {@linkcode Entry} (so `store.file(hit)` and `store.folder(hit)` take it),
 * with its creator and metadata.
 *
 * @example
 * ```ts
 * import type { SearchEntry } from "./search_pager.ts";
 *
 * const subjects = (hit: SearchEntry) =>
 *   hit.metadata.filter((avu) => avu.attribute === "subject").map((avu) => avu.value);
 * ```
 */
export interface SearchEntry extends Entry {
  /** Who created it: a username, without the zone. */
  readonly creator: string | null;
  /** Its AVUs, the metadata service's first. */
  readonly metadata: readonly HitAvu[];
}

/**
 * One page of search hits.
 *
 * @example
 * ```ts
 * import type { SearchPage } from "./search_pager.ts";
 *
 * const progress = (page: SearchPage) => `${page.offset + page.entries.length} of ${page.total}`;
 * ```
 */
export interface SearchPage {
  /** Position of the page's first hit. */
  readonly offset: number;
  /** The server's total: exact, or at least this many when `exact` is false. */
  readonly total: number;
  /** Whether `total` is exact (Elasticsearch counts exactly up to 10,000). */
  readonly exact: boolean;
  /** This page's hits. */
  readonly entries: readonly SearchEntry[];
}

/**
 * What {@linkcode pageSearch} searches for, and how.
 *
 * @example
 * ```ts
 * import type { SearchPlan } from "./search_pager.ts";
 *
 * const plan: SearchPlan = { query: { all: [] }, sort: [], pageSize: 100 };
 * ```
 */
export interface SearchPlan {
  /** The query, already checked. */
  query: SearchQuery;
  /** Sort keys. */
  sort: readonly SearchSort[];
  /** Hits per request. */
  pageSize: number;
  /** Hits the caller needs (`take(n)`): no request asks for more. */
  wanted?: number;
  /** Aborts the requests. */
  signal?: AbortSignal;
}

/**
 * Yields a search's pages in order, each requested when the caller asks for it, none asking for
 * more than `wanted`. Up to 10,000 hits pages by `from`/`size`; when the first page says there
 * are more, the rest comes from a scroll opened on the same query and sort, whose first page
 * repeats the hits already delivered (they are skipped), so every hit comes once.
 *
 * @throws {ListingChangedError} when hits run out before the exact total the server gave.
 * @throws {ProtocolError} when a scroll sends a hit it sent before (its pages go round).
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { pageSearch } from "./search_pager.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const query = { all: [{ type: "path" as const, args: { prefix: "/iplant/home/shared/tern_samples/formats/" } }] };
 * const sizes = [];
 * for await (const page of pageSearch(store[STORE_CONTEXT].transport, { query, sort: [], pageSize: 4 })) {
 *   sizes.push(page.entries.length);
 * }
 * assert.deepEqual(sizes, [4, 4, 1]);
 * ```
 */
export async function* pageSearch(
  t: Transport,
  plan: SearchPlan,
): AsyncGenerator<SearchPage, void, undefined> {
  const { query, sort, pageSize, wanted = Infinity, signal } = plan;
  const sizeAt = (offset: number) => Math.min(pageSize, wanted - offset);
  const search = (request: SearchRequest) => searchData(t, request, { signal });
  const first = await search({ query, sort, size: sizeAt(0) });
  let page = pageOf(first, 0);
  yield page;
  let offset = page.entries.length;
  if (page.exact) {
    const total = page.total;
    while (offset < Math.min(total, wanted)) {
      const size = Math.min(sizeAt(offset), total - offset);
      const answer = await search({ query, sort, size, from: offset });
      page = pageOf(answer, offset);
      if (page.entries.length === 0) {
        throw new ListingChangedError(
          `The search's hits ran out at ${offset} of the ${total} the server counted: ` +
            "the store changed during the search. Search again.",
          { endpoint: "filesystem/search" },
        );
      }
      yield page;
      offset += page.entries.length;
    }
    return;
  }
  // Past 10,000 hits: a scroll, whose first hits are the ones already delivered; none is opened
  // when the first page was all the caller wanted (`take(10)` stays one request).
  if (offset >= wanted) return;
  const delivered = new Set(page.entries.map((entry) => entry.id));
  // A scroll never repeats a hit: one that does goes round (a hostile or broken server), and
  // would be followed for ever.
  const scrolled = new Set<string>();
  let answer = await search({ query, sort, size: pageSize, scroll: KEEP_SCROLL });
  while (offset < wanted) {
    const fresh = (answer.hits ?? []).map(entryFromHit).filter((entry) =>
      !delivered.delete(entry.id)
    );
    const again = fresh.find((entry) => scrolled.has(entry.id));
    if (again !== undefined) {
      throw new ProtocolError(
        `filesystem/search's scroll sent the hit ${quoteInput(again.path)} twice, after ` +
          `${offset} hits: its pages go round. Search again.`,
        { endpoint: "filesystem/search" },
      );
    }
    for (const entry of fresh) scrolled.add(entry.id);
    const kept = fresh.slice(0, wanted - offset);
    if (kept.length > 0) {
      yield { offset, total: answer.total.value, exact: false, entries: kept };
      offset += kept.length;
    }
    if ((answer.hits?.length ?? 0) < pageSize || answer.scroll_id === undefined) return;
    if (offset >= wanted) return;
    try {
      answer = await search({ scrollId: answer.scroll_id, scroll: KEEP_SCROLL });
    } catch (error) {
      // The service answers a scroll past its end with 400 "EOF".
      if (error instanceof BadRequestError && /\bEOF\b/.test(error.message)) return;
      throw error;
    }
  }
}

/** A hit as a {@linkcode SearchEntry}. */
function entryFromHit(hit: SearchHit): SearchEntry {
  const source = hit._source;
  const folder = source.doc_type === "folder";
  const avus = (type: "irods" | "cyverse") =>
    (source.metadata?.[type] ?? []).map((avu) => ({
      attribute: avu.attribute,
      value: avu.value,
      unit: avu.unit ?? "",
      type,
    }));
  return {
    id: source.id,
    path: source.path,
    name: source.path.slice(source.path.lastIndexOf("/") + 1) || source.path,
    type: folder ? "folder" : "file",
    size: folder ? 0 : source.fileSize,
    created: new Date(source.dateCreated),
    modified: new Date(source.dateModified),
    infoType: folder ? null : source.fileType || "unknown",
    permission: hit.fields?.permission?.[0] ?? "read",
    creator: source.creator ? source.creator.replace(/#[^#]*$/, "") : null,
    metadata: [...avus("cyverse"), ...avus("irods")],
  };
}

function pageOf(answer: Awaited<ReturnType<typeof searchData>>, offset: number): SearchPage {
  return {
    offset,
    total: answer.total.value,
    exact: answer.total.relation === "eq",
    entries: (answer.hits ?? []).map(entryFromHit),
  };
}
