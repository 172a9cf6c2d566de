/**
 * `GET /secured/filesystem/root`: the caller's four navigation roots and base paths.
 *
 * @module
 */

import { uncheckedException } from "../errors.ts";
import { jsonReply, type Reply } from "../reply.ts";
import type { DiskStore, Item } from "../disk_store.ts";
import type { Call } from "./call.ts";

/**
 * Looks up the caller's home, the community folder, "Shared With Me" and the caller's trash,
 * in that order, creating the home and trash folders when they do not exist yet.
 *
 * @example
 * ```ts
 * import { DiskStore } from "../disk_store.ts";
 * import { rootFolders } from "./root.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const store = await DiskStore.open(root, "iplant");
 * const folders = await rootFolders(store, "demo");
 * assert.deepEqual(folders.map((folder) => folder.path), [
 *   "/iplant/home/demo",
 *   "/iplant/home/shared",
 *   "/iplant/home",
 *   "/iplant/trash/home/de-irods/demo",
 * ]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function rootFolders(store: DiskStore, user: string): Promise<Item[]> {
  const { paths } = store;
  await store.ensureFolder(paths.home(user));
  await store.ensureFolder(paths.trash(user));
  const roots = [paths.home(user), paths.community, paths.homeRoot, paths.trash(user)];
  return await Promise.all(roots.map(async (path) => {
    const found = await store.lookup(path, user);
    if (found.found !== "item" || found.item.kind !== "folder") {
      throw uncheckedException(`the root folder ${path} is missing from the store`);
    }
    return found.item;
  }));
}

/**
 * Answers the root listing.
 *
 * @example
 * ```ts
 * import { rootHandler } from "./root.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = rootHandler;
 * ```
 */
export async function rootHandler(call: Call): Promise<Reply> {
  const { store, user } = call;
  const labels = [user, "Community Data", "Shared With Me", "Trash"];
  const folders = await rootFolders(store, user);
  return jsonReply({
    roots: folders.map((item, i) => ({
      id: store.idOf(item.path),
      path: item.path,
      label: labels[i],
      "date-created": item.created,
      "date-modified": item.modified,
      permission: item.permission,
      hasSubDirs: true,
    })),
    "base-paths": {
      user_home_path: store.paths.home(user),
      user_trash_path: store.paths.trash(user),
      base_trash_path: store.paths.trashBase,
    },
  });
}
