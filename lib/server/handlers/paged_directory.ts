/**
 * `GET /secured/filesystem/paged-directory` (and its anonymous variant): one page of a folder's
 * files and folders, with Terrain's parameter fix-ups (lower-cased sort column and entity
 * type, upper-cased direction, `id`/`lastmodified` aliases, `sort-field` winning over
 * `sort-col`).
 *
 * @module
 */

import { anonymousNotAuthorized, doesNotExist, notAFolder, notReadable } from "../errors.ts";
import { INFO_TYPES } from "../../registry/file_formats.ts";
import { ParamCheck } from "../params.ts";
import { folderLabel } from "../permissions.ts";
import { jsonReply, jsonStreamReply, type Reply } from "../reply.ts";
import { type PageQuery, SORT_COLUMNS } from "../disk_store.ts";
import type { Call } from "./call.ts";
import { listingItems, renderedSlices, STREAM_ABOVE } from "./render.ts";

const SORT_ALIASES: Record<string, string> = { id: "path", lastmodified: "datemodified" };

function readQuery(call: Call): { path: string; query: PageQuery } {
  const check = new ParamCheck(call.params);
  const path = check.string("path", { required: true, nonBlank: true });
  const limit = check.integer("limit", { required: true, min: 1 });
  const offset = check.integer("offset", { min: 0 }) ?? 0;
  const sortCol = check.choice("sort-col", SORT_COLUMNS, (value) => {
    const lower = value.toLowerCase();
    return SORT_ALIASES[lower] ?? lower;
  });
  const sortField = check.choice("sort-field", SORT_COLUMNS);
  const direction = check.choice("sort-dir", ["ASC", "DESC"] as const, (v) => v.toUpperCase());
  const entityType = check.choice(
    "entity-type",
    ["any", "file", "folder"] as const,
    (value) => value.toLowerCase(),
  );
  const infoTypes = check.choices("info-type", INFO_TYPES);
  check.done();
  return {
    path: path!,
    query: {
      limit: limit!,
      offset,
      sort: sortField ?? sortCol ?? "name",
      direction: direction ?? "ASC",
      entityType: entityType ?? "any",
      infoTypes,
    },
  };
}

/**
 * Answers the paged listing. Anonymous callers may only list paths that start with the
 * community folder's path (a plain string-prefix test, as in Terrain). A large page is
 * streamed, so the memory it costs follows what the client has read.
 *
 * @example
 * ```ts
 * import { pagedDirectoryHandler } from "./paged_directory.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = pagedDirectoryHandler;
 * ```
 */
export async function pagedDirectoryHandler(call: Call): Promise<Reply> {
  const { store, user } = call;
  const { path, query } = readQuery(call);
  if (!call.authenticated && !path.startsWith(store.paths.community)) {
    throw anonymousNotAuthorized();
  }
  const found = await store.lookup(path, user);
  if (found.found === "missing") throw doesNotExist("path", found.path);
  if (found.found === "unreadable") throw notReadable("path", found.path, user);
  const folder = found.item;
  if (folder.kind !== "folder") throw notAFolder("path", folder.path);
  const plan = await store.pagePlan(folder, user, query);
  const count = plan.folders.length + plan.files.length;
  // The folder itself is shown as its items are, but with its label as a root's, if it is one.
  const [own] = await listingItems(store, user, [folder]);
  const head = {
    ...own,
    label: folderLabel(store.paths, user, folder.path),
    hasSubDirs: true,
    total: count === 0 ? null : plan.total,
    totalBad: 0,
  };
  if (count > STREAM_ABOVE) {
    return jsonStreamReply(head, [
      ["folders", renderedSlices(plan, plan.folders, (items) => listingItems(store, user, items))],
      ["files", renderedSlices(plan, plan.files, (items) => listingItems(store, user, items))],
    ]);
  }
  return jsonReply({
    ...head,
    folders: await listingItems(store, user, await plan.items(plan.folders)),
    files: await listingItems(store, user, await plan.items(plan.files)),
  });
}
