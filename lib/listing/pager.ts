/**
 * Pages through one folder with `filesystem/paged-directory`, one request per page, keeping a
 * few page requests in flight while the caller works on the current page, and refusing to hand
 * back less than the folder holds.
 *
 * @module
 */

import {
  type EntityType,
  getPagedDirectory,
  type SortColumn,
  type SortDirection,
} from "../client/endpoints.ts";
import { abortError, ProtocolError, quoteInput } from "../client/errors.ts";
import type { PagedListing } from "../client/schemas.ts";
import type { Transport } from "../client/transport.ts";
import { type Entry, entryFromItem } from "../client/entry.ts";
import { ListingChangedError } from "./errors.ts";

/**
 * Most pages requested ahead of the one being read: enough to hide a server's latency behind
 * the requests for the next pages, few enough that the parsed pages waiting to be read stay small.
 */
const MAX_AHEAD = 3;

/**
 * One page of a listing.
 *
 * @example
 * ```ts
 * import type { Page } from "./pager.ts";
 *
 * const progress = (page: Page) => `${page.offset + page.entries.length} of ${page.total}`;
 * ```
 */
export interface Page {
  /** Path of the folder this page lists (for a walk, one of the folders visited). */
  readonly folder: string;
  /** Position of the page's first entry in the folder's listing. */
  readonly offset: number;
  /**
   * Entries the server counts for this folder under the server-side filters (`type`,
   * `infoType`), across all pages. Client-side filters (`glob`, and `type` during a walk) may
   * leave fewer in `entries`.
   */
  readonly total: number;
  /** This page's entries, de-duplicated and filtered. */
  readonly entries: readonly Entry[];
}

/**
 * What {@linkcode pageFolder} lists: a folder and Terrain's filters.
 *
 * @example
 * ```ts
 * import type { FolderQuery } from "./pager.ts";
 *
 * const query: FolderQuery = { path: "/iplant/home/shared", entityType: "file", sortCol: "size" };
 * ```
 */
export interface FolderQuery {
  /** Folder path. */
  path: string;
  /** Which kinds the server sends. */
  entityType: EntityType;
  /** Sort column. */
  sortCol?: SortColumn;
  /** Sort direction. */
  sortDir?: SortDirection;
  /** Info types kept. */
  infoType?: readonly string[];
}

/**
 * How {@linkcode pageFolder} pages.
 *
 * @example
 * ```ts
 * import type { PagerOptions } from "./pager.ts";
 *
 * const options: PagerOptions = { pageSize: 1000, onChange: (message) => console.warn(message) };
 * ```
 */
export interface PagerOptions {
  /** Entries per request. */
  pageSize: number;
  /** Size of the first request, when the caller needs fewer entries (e.g. `take(5)`). */
  firstPageSize?: number;
  /**
   * Entries the caller expects to need (`take(n)`): pages beyond are not requested ahead, only
   * when asked for.
   */
  wanted?: number;
  /** Aborts the requests. */
  signal?: AbortSignal;
  /** Told (once) when the folder's modification date moves between pages. */
  onChange: (message: string) => void;
}

/**
 * Yields a folder's pages in order, one request each. The first page tells the folder's total;
 * from then on the next page is requested as soon as a page arrives, so that it overlaps the
 * caller's work. When the caller still has to wait for a page, the window widens, one page at a
 * time up to the store's `concurrency` − 1 pages in flight (at most 3, at least 1), so that a server's latency is paid once per window rather
 * than once per page; a caller slower than the server keeps a single page ahead. Pages still
 * come back strictly in order, and none is requested beyond the total or, ahead of time, beyond
 * `wanted`. Stopping early (a `break`, an error, an abort) aborts the requests still in flight;
 * their failures are never reported.
 *
 * Guarantees: every entry the server counts in `total` is delivered, or a typed error says why
 * not. A `total` that moves between pages, or a page that comes back empty before the total is
 * reached, is a {@linkcode ListingChangedError}; a short page while the total holds is a
 * {@linkcode ProtocolError}. Entries repeated across adjacent pages (offset paging repeats them
 * when entries shift) are dropped; since the total held, that means others were skipped, so the
 * listing then ends with a {@linkcode ListingChangedError} too, or at once for a page that is all
 * repeats (pages that go round would be followed to any total). A change of the folder's
 * modification date with a steady total (entries replaced) is reported once via `onChange`.
 * Memory: the page being read, at most `ahead` pages requested ahead, and two pages of ids,
 * whatever the folder's size.
 *
 * @example
 * ```ts
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import { pageFolder } from "./pager.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = store[STORE_CONTEXT].transport;
 * const query = { path: "/iplant/home/shared/tern_samples/formats", entityType: "any" } as const;
 * const pages = [];
 * for await (const page of pageFolder(transport, query, { pageSize: 4, onChange: console.warn })) {
 *   pages.push([page.offset, page.entries.length, page.total]);
 * }
 * assert.deepEqual(pages, [[0, 4, 9], [4, 4, 9], [8, 1, 9]]);
 * ```
 */
export async function* pageFolder(
  transport: Transport,
  query: FolderQuery,
  options: PagerOptions,
): AsyncGenerator<Page, void, undefined> {
  const { pageSize, onChange } = options;
  const ahead = Math.max(1, Math.min(MAX_AHEAD, transport.policy.concurrency - 1));
  const wanted = options.wanted ?? Infinity;
  // Requests still in flight when the caller stops, or when a page proves the listing wrong,
  // are aborted so that they give their slots back at once.
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal].filter((s) => s !== undefined));
  /** Requested pages not yet yielded, in offset order. */
  const queue: Requested[] = [];
  /** Offset of the next page to request. */
  let requested = 0;
  /** Pages currently allowed ahead; grows while the caller has to wait. */
  let allowed = 1;
  let total: number | undefined;

  const request = (limit: number) => {
    const pending: Requested = {
      offset: requested,
      limit,
      answer: getPagedDirectory(transport, { ...query, offset: requested, limit }, { signal }),
      settled: false,
    };
    const settle = () => {
      pending.settled = true;
    };
    // Also keeps a page requested ahead, and never awaited when the caller stops, from being
    // reported as an unhandled rejection.
    pending.answer.then(settle, settle);
    queue.push(pending);
    requested += limit;
  };
  /** Requests ahead up to the window: only pages the caller is expected to read. */
  const fill = (end: number) => {
    let sent = 0;
    while (queue.length < allowed && requested < end && requested < wanted) {
      // One more request ahead must leave a slot free for other calls. `sent` requests were
      // issued just now and have not reached the limiter yet; earlier ones hold or wait for
      // their slots already.
      const { limiter } = transport;
      const spare = limiter.pending === 0 && limiter.max - limiter.active - sent >= 2;
      if (queue.length > 0 && !spare) break;
      request(pageSize);
      sent++;
    }
  };
  const where = quoteInput(query.path);
  const details = { path: query.path, endpoint: "filesystem/paged-directory" };

  let firstModified: number | undefined;
  let warned = false;
  let previousIds = new Set<string>();
  let repeats = 0;

  try {
    request(options.firstPageSize ?? pageSize);
    while (queue.length > 0) {
      if (!queue[0].settled && total !== undefined && allowed < ahead) {
        allowed++;
        fill(total);
      }
      const { offset, limit, answer } = queue.shift()!;
      const page: PagedListing = await answer;
      // A page that arrived before an abort is not handed out after it.
      if (options.signal?.aborted) throw abortError(options.signal);
      const count = page.folders.length + page.files.length;
      total = checkedTotal(page, { path: query.path, offset, limit, total });
      const modified = page["date-modified"];
      if (firstModified === undefined) firstModified = modified;
      else if (modified !== firstModified && !warned) {
        warned = true;
        onChange(
          `tern: ${where} was modified while being listed (at entry ${offset} of ${total}); ` +
            "the listing may not match any single moment of the folder.",
        );
      }
      // Pages were requested on the promise that each before the last is full; offsets of the
      // ones in flight are right only if this one kept it.
      if (offset + count < total && count < limit) {
        throw new ProtocolError(
          `filesystem/paged-directory sent ${count} entries for ${where} at offset ${offset} ` +
            `(limit ${limit}) although it announced ${total}: its pages end early.`,
          details,
        );
      }
      fill(total);

      const ids = new Set<string>();
      const entries: Entry[] = [];
      for (const [items, type] of [[page.folders, "folder"], [page.files, "file"]] as const) {
        for (const item of items) {
          if (previousIds.has(item.id) || ids.has(item.id)) repeats++;
          else {
            ids.add(item.id);
            entries.push(entryFromItem(item, type));
          }
        }
      }
      // A page that is all repeats is no shift of a few entries: the pages go round (a broken
      // or hostile server), and a total it chose would be followed for ever.
      if (count > 0 && entries.length === 0) {
        throw new ListingChangedError(
          `${where} changed while being listed: the page at offset ${offset} held only entries ` +
            "already given, so its pages go round. List it again.",
          details,
        );
      }
      previousIds = ids;
      yield { folder: page.path, offset, total, entries };
      // Past `wanted`, the caller asked for more after all: one page at a time.
      if (queue.length === 0 && requested < total) request(pageSize);
    }
  } finally {
    stop.abort();
  }

  if (repeats > 0) {
    throw new ListingChangedError(
      `${where} changed while being listed: ${repeats} ${
        repeats === 1 ? "entry" : "entries"
      } came twice, so as many others were skipped (${total! - repeats} of ${total} delivered). ` +
        "List it again.",
      details,
    );
  }
}

/** A page request in flight or answered, not yet yielded. */
interface Requested {
  offset: number;
  limit: number;
  answer: Promise<PagedListing>;
  /** Whether `answer` has settled, i.e. the caller would not wait for it. */
  settled: boolean;
}

/**
 * The folder's total as `page` states it, checked against the page's size and what the listing
 * promised so far (`total`, from the first page): a server that broke its word is a
 * {@linkcode ProtocolError}, a folder that changed meanwhile a {@linkcode ListingChangedError}.
 */
function checkedTotal(
  page: PagedListing,
  { path, offset, limit, total }: { path: string; offset: number; limit: number; total?: number },
): number {
  const where = quoteInput(path);
  const details = { path, endpoint: "filesystem/paged-directory" };
  const count = page.folders.length + page.files.length;
  if (count > limit) {
    throw new ProtocolError(
      `filesystem/paged-directory sent ${count} entries for ${where} at offset ${offset}, ` +
        `more than the ${limit} asked for.`,
      details,
    );
  }
  const pageTotal = page.total ?? (count === 0 && offset === 0 ? 0 : undefined);
  if (pageTotal === undefined) {
    if (count > 0) {
      throw new ProtocolError(
        `filesystem/paged-directory sent entries for ${where} at offset ${offset} without a total.`,
        details,
      );
    }
    throw new ListingChangedError(
      `${where} changed while being listed: the server had no entries at offset ${offset} ` +
        `although it had announced ${total}; entries were probably removed. List it again.`,
      details,
    );
  }
  if (total !== undefined && pageTotal !== total) {
    throw new ListingChangedError(
      `${where} changed while being listed: it had ${total} entries at first and ` +
        `${pageTotal} at offset ${offset}, so entries may have been missed or repeated. ` +
        "List it again.",
      details,
    );
  }
  return pageTotal;
}
