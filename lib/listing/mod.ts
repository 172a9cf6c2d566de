/**
 * Lazy listings of data-store folders: {@linkcode Listing} (what `folder.list()` and
 * `folder.walk()` return), {@linkcode Entry}, their options, and the error raised instead of
 * handing back an incomplete folder.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { type Entry, Listing } from "./mod.ts";
 *
 * await using store = await exampleStore();
 * const tables = store.folder("/iplant/home/shared/tern_samples/formats").list({ glob: "*.csv" });
 * console.log(tables instanceof Listing); // true
 * const entries: Entry[] = await tables.toArray();
 * console.log(entries.map((entry) => entry.name)); // [ "penguins.csv" ]
 * ```
 *
 * @module
 */

export {
  type Entry,
  entryFromItem,
  type EntryType,
  folderEntry,
  type Permission,
} from "../client/entry.ts";
export { ListingChangedError } from "./errors.ts";
export { entriesToDataFrame, ENTRY_COLUMNS } from "./frame.ts";
export { Listing, type ListingPlan } from "../handles/listing.ts";
export { fileManifest, MANIFEST_COLUMNS, writeManifest } from "./manifest.ts";
export {
  compileGlob,
  DEFAULT_PAGE_SIZE,
  type Glob,
  type ListOptions,
  type ResolvedListOptions,
  type ResolvedWalkOptions,
  resolveListOptions,
  resolveWalkOptions,
  type SortKey,
  type SortOrder,
  type WalkOptions,
} from "./options.ts";
export { type FolderQuery, type Page, pageFolder, type PagerOptions } from "./pager.ts";
export { type WalkContext, walkPages } from "./walk.ts";
