/**
 * The error a listing raises rather than hand back an incomplete folder.
 *
 * @module
 */

import { TernError } from "../client/errors.ts";

/**
 * A folder changed while it was being listed, so the entries delivered so far may be
 * incomplete: its `total` moved between pages, a page came back empty before the announced
 * total, or entries shifted so that some arrived twice (and therefore others were skipped).
 * Offset paging cannot give a consistent view of a changing folder; list it again.
 *
 * @example
 * ```ts
 * import { ListingChangedError } from "./errors.ts";
 * import { TernError } from "../client/errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new ListingChangedError(
 *   '"/iplant/home/demo/out" changed while being listed: 1000 entries at first, 1003 at offset 2000.',
 *   { path: "/iplant/home/demo/out", endpoint: "filesystem/paged-directory" },
 * );
 * assert.ok(error instanceof TernError);
 * assert.equal(error.name, "ListingChangedError");
 * ```
 */
export class ListingChangedError extends TernError {}
