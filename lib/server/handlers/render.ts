/**
 * The JSON shapes of folders and listing items, shared by the navigation handlers. Key order
 * follows the real service's answers.
 *
 * @module
 */

import { folderLabel, isBadName } from "../permissions.ts";
import type { Item, Store } from "../store.ts";

/**
 * A folder as `directory` and `root` show it (no `folders` key; callers add one where the
 * endpoint does).
 *
 * @example
 * ```ts
 * import type { FolderObject } from "./render.ts";
 * const folder: Partial<FolderObject> = { label: "Community Data", hasSubDirs: true };
 * ```
 */
export interface FolderObject {
  id: string;
  path: string;
  label: string;
  permission: string;
  "date-created": number;
  "date-modified": number;
  isFavorite: boolean;
  badName: boolean;
  hasSubDirs: boolean;
}

/**
 * Renders a folder for the `directory` endpoint.
 *
 * @example
 * ```ts
 * import { folderObject } from "./render.ts";
 * import { Store } from "../store.ts";
 *
 * const root = await Deno.makeTempDir();
 * const store = await Store.open(root, "iplant");
 * const found = await store.lookup("/iplant/home/shared", "demo");
 * if (found.found === "item") console.log(folderObject(store, "demo", found.item).label);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function folderObject(store: Store, user: string, item: Item): FolderObject {
  return {
    id: store.idOf(item.path),
    path: item.path,
    label: folderLabel(store.paths, user, item.path),
    permission: item.permission,
    "date-created": item.created,
    "date-modified": item.modified,
    isFavorite: false,
    badName: isBadName(store.paths, user, item.path),
    hasSubDirs: true,
  };
}

/**
 * A file or folder as a paged listing shows it.
 *
 * @example
 * ```ts
 * import type { ListingItem } from "./render.ts";
 * const item: Partial<ListingItem> = { label: "a.csv", infoType: "csv", "file-size": 3 };
 * ```
 */
export interface ListingItem {
  id: string;
  path: string;
  label: string;
  infoType: string | null;
  isFavorite: boolean;
  badName: boolean;
  permission: string;
  "date-created": number;
  "date-modified": number;
  "file-size": number;
}

/**
 * Renders an item of a paged listing (label = base name; `infoType` null for folders).
 *
 * @example
 * ```ts
 * import { listingItem } from "./render.ts";
 * import { Store } from "../store.ts";
 *
 * const root = await Deno.makeTempDir();
 * const store = await Store.open(root, "iplant");
 * const found = await store.lookup("/iplant/home/shared", "demo");
 * if (found.found === "item") console.log((await listingItem(store, "demo", found.item)).label);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function listingItem(store: Store, user: string, item: Item): Promise<ListingItem> {
  return {
    id: store.idOf(item.path),
    path: item.path,
    label: item.name,
    infoType: await store.infoType(item),
    isFavorite: false,
    badName: isBadName(store.paths, user, item.path),
    permission: item.permission,
    "date-created": item.created,
    "date-modified": item.modified,
    "file-size": item.kind === "file" ? item.size : 0,
  };
}
