/**
 * The fields Terrain's search service sorts results by: the client checks a sort against them
 * and the embedded server refuses any other, so both read this one list.
 *
 * A leaf module: it imports nothing.
 *
 * @module
 */

/**
 * The sort fields the search service accepts, in the order its refusal lists them.
 *
 * @example
 * ```ts
 * import { SEARCH_SORT_FIELDS } from "./search_sort_fields.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(SEARCH_SORT_FIELDS.includes("dateModified"));
 * assert.equal(SEARCH_SORT_FIELDS.length, 7);
 * ```
 */
export const SEARCH_SORT_FIELDS = [
  "id",
  "label",
  "path",
  "creator",
  "dateCreated",
  "dateModified",
  "fileSize",
] as const;

/**
 * A field of {@linkcode SEARCH_SORT_FIELDS}.
 *
 * @example
 * ```ts
 * import type { SearchSortField } from "./search_sort_fields.ts";
 *
 * const field: SearchSortField = "fileSize";
 * ```
 */
export type SearchSortField = typeof SEARCH_SORT_FIELDS[number];
