/**
 * `GET /secured/filesystem/directory`: a folder and its readable sub-folders (no files, no
 * paging), or the caller's three navigation roots when no `path` is given.
 *
 * @module
 */

import { doesNotExist, notAFolder, notReadable } from "../errors.ts";
import { ParamCheck } from "../params.ts";
import { jsonReply, jsonStreamReply, type Reply } from "../reply.ts";
import type { Item, PageQuery } from "../disk_store.ts";
import type { Call } from "./call.ts";
import { folderObject, renderedSlices, STREAM_ABOVE } from "./render.ts";
import { rootFolders } from "./root.ts";

/** Every sub-folder the caller can read, by name. */
const ALL_FOLDERS: PageQuery = {
  offset: 0,
  limit: Number.MAX_SAFE_INTEGER,
  sort: "name",
  direction: "ASC",
  entityType: "folder",
  infoTypes: [],
};

async function withSubfolders(call: Call, folder: Item) {
  const { store, user } = call;
  const plan = await store.pagePlan(folder, user, ALL_FOLDERS);
  const children = await plan.items(plan.folders);
  return {
    ...folderObject(store, user, folder),
    folders: children.map((child) => folderObject(store, user, child)),
  };
}

/**
 * Answers the folder-only listing; a folder with more than {@link STREAM_ABOVE} sub-folders is
 * streamed, built as the client reads it.
 *
 * @example
 * ```ts
 * import { directoryHandler } from "./directory.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = directoryHandler;
 * ```
 */
export async function directoryHandler(call: Call): Promise<Reply> {
  const check = new ParamCheck(call.params);
  const path = check.string("path", { nonBlank: true });
  check.done();
  if (path === undefined) {
    // The home, the community folder and "Shared With Me"; not the trash.
    const roots = (await rootFolders(call.store, call.user)).slice(0, 3);
    return jsonReply({ roots: await Promise.all(roots.map((root) => withSubfolders(call, root))) });
  }
  const found = await call.store.lookup(path, call.user);
  if (found.found === "missing") throw doesNotExist("paths", found.path);
  if (found.found === "unreadable") throw notReadable("paths", found.path, call.user);
  if (found.item.kind !== "folder") throw notAFolder("paths", found.item.path);
  const { store, user } = call;
  const plan = await store.pagePlan(found.item, user, ALL_FOLDERS);
  const head = folderObject(store, user, found.item);
  const render = (items: Item[]) => items.map((child) => folderObject(store, user, child));
  if (plan.folders.length > STREAM_ABOVE) {
    return jsonStreamReply(head, [["folders", renderedSlices(plan, plan.folders, render)]]);
  }
  return jsonReply({ ...head, folders: render(await plan.items(plan.folders)) });
}
