/**
 * `GET /secured/filesystem/directory`: a folder and its readable sub-folders (no files, no
 * paging), or the caller's three navigation roots when no `path` is given.
 *
 * @module
 */

import { doesNotExist, notAFolder, notReadable } from "../errors.ts";
import { ParamCheck } from "../params.ts";
import { jsonReply, type Reply } from "../reply.ts";
import type { Item } from "../disk_store.ts";
import type { Call } from "./call.ts";
import { folderObject } from "./render.ts";
import { rootFolders } from "./root.ts";

async function withSubfolders(call: Call, folder: Item) {
  const { store, user } = call;
  const children = await store.subfolders(folder, user);
  return {
    ...folderObject(store, user, folder),
    folders: children.map((child) => folderObject(store, user, child)),
  };
}

/**
 * Answers the folder-only listing.
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
    const [home, community, sharedWithMe] = await rootFolders(call.store, call.user);
    return jsonReply({
      roots: [
        await withSubfolders(call, home),
        await withSubfolders(call, community),
        await withSubfolders(call, sharedWithMe),
      ],
    });
  }
  const found = await call.store.lookup(path, call.user);
  if (found.found === "missing") throw doesNotExist("paths", found.path);
  if (found.found === "unreadable") throw notReadable("paths", found.path, call.user);
  if (found.item.kind !== "folder") throw notAFolder("paths", found.item.path);
  return jsonReply(await withSubfolders(call, found.item));
}
