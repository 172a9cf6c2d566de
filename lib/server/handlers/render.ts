/**
 * The JSON shapes of folders and listing items, shared by the navigation handlers. Key order
 * follows the real service's answers.
 *
 * @module
 */

import { folderLabel, isBadName } from "../permissions.ts";
import type { DiskStore, Item, PagePlan } from "../disk_store.ts";
import type { FolderEntry } from "../folder_cache.ts";

/**
 * Renders a folder for the `directory` endpoint (no `folders` key; callers add one where the
 * endpoint does). `isFavorite` is always false (favourites are not stored) and `hasSubDirs`
 * always true, as Terrain reports it.
 *
 * @example
 * ```ts
 * import { folderObject } from "./render.ts";
 * import { DiskStore } from "../disk_store.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const store = await DiskStore.open(root, "iplant");
 * const found = await store.lookup("/iplant/home/shared", "demo");
 * assert.ok(found.found === "item");
 * assert.equal(folderObject(store, "demo", found.item).label, "Community Data"); // a root's label
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function folderObject(store: DiskStore, user: string, item: Item) {
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
 * Renders the items of a paged listing (label = base name; `infoType` null for folders).
 * Only files with an AVU sidecar wait for it (it may override the type); the rest are built
 * at once.
 *
 * @example
 * ```ts
 * import { listingItems } from "./render.ts";
 * import { DiskStore } from "../disk_store.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const store = await DiskStore.open(root, "iplant");
 * const found = await store.lookup("/iplant/home/shared", "demo");
 * assert.ok(found.found === "item");
 * const [item] = await listingItems(store, "demo", [found.item]);
 * assert.equal(item.label, "shared");
 * assert.equal(item.infoType, null);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function listingItems(
  store: DiskStore,
  user: string,
  items: readonly Item[],
) {
  const types: (string | null | Promise<string | null>)[] = items.map((item) => {
    if (item.kind === "folder") return null;
    return item.hasAvus === false ? item.nameType : store.infoType(item, user);
  });
  const resolved = types.some((type) => type instanceof Promise)
    ? await Promise.all(types)
    : types as (string | null)[];
  return items.map((item, i) => ({
    id: store.idOf(item.path),
    path: item.path,
    label: item.name,
    infoType: resolved[i],
    isFavorite: false,
    badName: isBadName(store.paths, user, item.path),
    permission: item.permission,
    "date-created": item.created,
    "date-modified": item.modified,
    "file-size": item.kind === "file" ? item.size : 0,
  }));
}

/**
 * Listings of more items than this are streamed, a slice at a time as the client reads them
 * ({@link renderedSlices}); smaller ones go out whole, with a `Content-Length` (a page of this
 * many is about 300 KB).
 *
 * @example
 * ```ts
 * import { STREAM_ABOVE } from "./render.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(STREAM_ABOVE, 1000);
 * ```
 */
export const STREAM_ABOVE = 1000;

/** Items stat'ed and rendered at a time in a streamed listing. */
const SLICE = 100;

/**
 * `entries` of a page plan, stat'ed and rendered a slice at a time, each slice only when the
 * answer's reader asks for it (see `jsonStreamReply`).
 *
 * @example
 * ```ts
 * import { renderedSlices } from "./render.ts";
 * import { DiskStore } from "../disk_store.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const store = await DiskStore.open(root, "iplant");
 * const found = await store.lookup("/iplant/home", "demo");
 * if (found.found !== "item") throw new Error("expected /iplant/home");
 * const plan = await store.pagePlan(found.item, "demo", {
 *   offset: 0, limit: 10, sort: "name", direction: "ASC", entityType: "any", infoTypes: [],
 * });
 * const names = [];
 * for await (const slice of renderedSlices(plan, plan.folders, (items) => items.map((i) => i.name))) {
 *   names.push(...slice);
 * }
 * assert.deepEqual(names, ["shared"]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function* renderedSlices<T>(
  plan: PagePlan,
  entries: readonly FolderEntry[],
  render: (items: Item[]) => T[] | Promise<T[]>,
): AsyncGenerator<T[]> {
  for (let start = 0; start < entries.length; start += SLICE) {
    yield await render(await plan.items(entries.slice(start, start + SLICE)));
  }
}
