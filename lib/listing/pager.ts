/**
 * Pages through one folder with `filesystem/paged-directory`, one request per page, fetching
 * the next page while the caller works on the current one, and refusing to hand back less than
 * the folder holds.
 *
 * @module
 */

import {
  type EntityType,
  getPagedDirectory,
  type SortColumn,
  type SortDirection,
} from "../client/endpoints.ts";
import { ProtocolError } from "../client/errors.ts";
import type { PagedListing } from "../client/schemas.ts";
import type { Transport } from "../client/transport.ts";
import { type Entry, entryFromItem } from "./entry.ts";
import { ListingChangedError } from "./errors.ts";

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
 * Yields a folder's pages in order, one request each, with the request for page k+1 sent as
 * soon as page k arrives so that it overlaps the caller's work on page k.
 *
 * Guarantees: every entry the server counts in `total` is delivered, or a typed error says why
 * not. A `total` that moves between pages, or a page that comes back empty before the total is
 * reached, is a {@linkcode ListingChangedError}; a short page while the total holds is a
 * {@linkcode ProtocolError}. Entries repeated across adjacent pages (offset paging repeats them
 * when entries shift) are dropped; since the total held, that means others were skipped, so the
 * listing then ends with a {@linkcode ListingChangedError} too. A change of the folder's
 * modification date with a steady total (entries replaced) is reported once via `onChange`.
 * Memory: two pages of ids, whatever the folder's size.
 *
 * @example
 * ```ts ignore
 * import { pageFolder } from "./pager.ts";
 *
 * const query = { path: "/iplant/home/shared", entityType: "any" } as const;
 * for await (const page of pageFolder(transport, query, { pageSize: 500, onChange: console.warn })) {
 *   console.log(page.offset, page.entries.length, page.total);
 * }
 * ```
 */
export async function* pageFolder(
  transport: Transport,
  query: FolderQuery,
  options: PagerOptions,
): AsyncGenerator<Page, void, undefined> {
  const { pageSize, signal, onChange } = options;
  const request = (offset: number, limit: number) => {
    const pending = getPagedDirectory(transport, { ...query, offset, limit }, { signal });
    // A prefetched page may never be awaited when the caller stops early.
    pending.catch(() => {});
    return pending;
  };
  const where = JSON.stringify(query.path);
  const details = { path: query.path, endpoint: "filesystem/paged-directory" };

  let limit = options.firstPageSize ?? pageSize;
  let next: Promise<PagedListing> | undefined = request(0, limit);
  let deferred: number | undefined;
  let offset = 0;
  let total: number | undefined;
  let firstModified: number | undefined;
  let warned = false;
  let previousIds = new Set<string>();
  let repeats = 0;

  while (next !== undefined) {
    const page: PagedListing = await next;
    next = undefined;
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
    if (total === undefined) total = pageTotal;
    else if (pageTotal !== total) {
      throw new ListingChangedError(
        `${where} changed while being listed: it had ${total} entries at first and ` +
          `${pageTotal} at offset ${offset}, so entries may have been missed or repeated. ` +
          "List it again.",
        details,
      );
    }
    const modified = page["date-modified"];
    if (firstModified === undefined) firstModified = modified;
    else if (modified !== firstModified && !warned) {
      warned = true;
      onChange(
        `tern: ${where} was modified while being listed (at entry ${offset} of ${total}); ` +
          "the listing may not match any single moment of the folder.",
      );
    }

    const nextOffset = offset + count;
    if (nextOffset < total) {
      if (count < limit) {
        throw new ProtocolError(
          `filesystem/paged-directory sent ${count} entries for ${where} at offset ${offset} ` +
            `(limit ${limit}) although it announced ${total}: its pages end early.`,
          details,
        );
      }
      limit = pageSize;
      // Ask ahead only for pages the caller is expected to read.
      if (nextOffset < (options.wanted ?? Infinity)) next = request(nextOffset, limit);
      else deferred = nextOffset;
    }

    const ids = new Set<string>();
    const entries: Entry[] = [];
    for (const item of page.folders) {
      if (previousIds.has(item.id) || ids.has(item.id)) repeats++;
      else {
        ids.add(item.id);
        entries.push(entryFromItem(item, "folder"));
      }
    }
    for (const item of page.files) {
      if (previousIds.has(item.id) || ids.has(item.id)) repeats++;
      else {
        ids.add(item.id);
        entries.push(entryFromItem(item, "file"));
      }
    }
    previousIds = ids;
    const current: Page = { folder: page.path, offset, total, entries };
    offset = nextOffset;
    yield current;
    if (deferred !== undefined) {
      next = request(deferred, limit);
      deferred = undefined;
    }
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
