/**
 * `POST /secured/filesystem/stat` (and its anonymous variant): the current state of many items
 * at once, named by path (`{"paths": [...]}`) or id (`{"ids": [...]}`), with each file's
 * checksum (`md5`), the only place Terrain gives one.
 *
 * @module
 */

import type { Item } from "../disk_store.ts";
import {
  anonymousNotAuthorized,
  doesNotExist,
  illegalArgument,
  notReadable,
  tooManyResults,
} from "../errors.ts";
import { isUuid } from "../ids.ts";
import { folderLabel } from "../permissions.ts";
import { jsonReply, type Reply } from "../reply.ts";
import { type Call, readJsonBody } from "./call.ts";
import { fileMediaType } from "./downloads.ts";

/** Most items (paths and ids together) one `stat` answers; more is `ERR_TOO_MANY_RESULTS`. */
const STAT_LIMIT = 1000;

/** Items whose files are read at once. */
const PARALLEL = 8;

/** Longest value a schema message shows, characters. */
const MAX_SHOWN = 120;

/** A JSON value as a schema message shows it: as JSON, in one line, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "nil";
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

/**
 * Checks the body as Terrain's schema does (a JSON object with `paths` and/or `ids`, nothing
 * else), with its 400 answers: every bad key at once in `reason`, each with the message for its
 * first bad element.
 */
function readRequest(body: unknown) {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw illegalArgument(`(not (map? ${shown(body)}))`);
  }
  const problems: Record<string, string> = {};
  // `fault` names the predicate an element fails, if any.
  const list = (key: "paths" | "ids", fault: (value: unknown) => string | undefined): string[] => {
    const value = (body as Record<string, unknown>)[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      problems[key] = `(not (sequential? ${shown(value)}))`;
      return [];
    }
    const bad = value.find((item) => fault(item) !== undefined);
    if (bad !== undefined) problems[key] = `(not (${fault(bad)} ${shown(bad)}))`;
    return value;
  };
  // No data-store name holds a NUL: refused as every other endpoint refuses it in a parameter.
  const paths = list(
    "paths",
    (item) =>
      typeof item !== "string" || item.trim() === ""
        ? "non-blank-string?"
        : item.includes("\u0000")
        ? "nul-free-string?"
        : undefined,
  );
  const ids = list(
    "ids",
    (item) => typeof item === "string" && isUuid(item) ? undefined : "instance? java.util.UUID",
  );
  for (const key of Object.keys(body)) {
    if (key !== "paths" && key !== "ids") problems[key] = "disallowed-key";
  }
  if (Object.keys(problems).length > 0) throw illegalArgument(problems);
  return { paths, ids };
}

/** One item's stat, as data-info's `FileStatInfo` / `DirStatInfo` give it. */
async function statOf(call: Call, item: Item): Promise<Record<string, unknown>> {
  const { store, user } = call;
  const common = {
    id: store.idOf(item.path),
    path: item.path,
    type: item.kind === "file" ? "file" : "dir",
    label: item.kind === "file" ? item.name : folderLabel(store.paths, user, item.path),
    "date-created": item.created,
    "date-modified": item.modified,
    permission: item.permission,
    // Only an item's owner sees its share count; nothing is shared on this server.
    ...(item.permission === "own" ? { "share-count": 0 } : {}),
  };
  if (item.kind === "folder") {
    const counts = await store.childCounts(item, user);
    return { ...common, "file-count": counts.files, "dir-count": counts.folders };
  }
  const file = store.withSidecarKnown(item);
  return {
    ...common,
    "file-size": file.size,
    "content-type": await fileMediaType(store, file),
    infoType: await store.infoType(file, user),
    md5: await store.checksum(file, user),
  };
}

/**
 * Answers the stat: `{"paths": {<path as asked>: stat}, "ids": {<id>: stat}}`, both keys always.
 * Errors come in data-info's order: an anonymous caller asking by id, or for a path outside the
 * community folder (a plain prefix test), gets 401; more than {@linkcode STAT_LIMIT} items 500
 * `ERR_TOO_MANY_RESULTS`; unknown ids, then missing paths, 500 `ERR_DOES_NOT_EXIST` naming every
 * one (`ids`, `paths`, as asked); items the caller may not read 500 `ERR_NOT_READABLE` naming
 * them. An id the caller may not read is named by its id, never its path (which Terrain would
 * tell whoever holds an id).
 *
 * @example
 * ```ts
 * import { statHandler } from "./stat.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = statHandler;
 * ```
 */
export async function statHandler(call: Call): Promise<Reply> {
  const { store, user } = call;
  const request = readRequest(await readJsonBody(call));
  const community = store.paths.community;
  if (
    !call.authenticated &&
    (request.ids.length > 0 || request.paths.some((path) => !path.startsWith(community)))
  ) throw anonymousNotAuthorized();
  const count = request.paths.length + request.ids.length;
  if (count > STAT_LIMIT) throw tooManyResults(count, STAT_LIMIT);

  const byId = await Promise.all(request.ids.map((id) => store.lookupId(id, user)));
  const unknownIds = request.ids.filter((_, i) => byId[i].found === "missing");
  if (unknownIds.length > 0) throw doesNotExist("ids", unknownIds);
  const byPath = await Promise.all(request.paths.map((path) => store.lookup(path, user)));
  const missing = request.paths.filter((_, i) => byPath[i].found === "missing");
  if (missing.length > 0) throw doesNotExist("paths", missing);
  const unreadable = request.paths.filter((_, i) => byPath[i].found === "unreadable");
  if (unreadable.length > 0) throw notReadable("paths", unreadable, user);
  const unreadableIds = request.ids.filter((_, i) => byId[i].found === "unreadable");
  if (unreadableIds.length > 0) throw notReadable("ids", unreadableIds, user);

  const answer = { paths: {} as Record<string, unknown>, ids: {} as Record<string, unknown> };
  const items = [
    ...request.paths.map((path, i) => ({ key: path, into: answer.paths, found: byPath[i] })),
    ...request.ids.map((id, i) => ({ key: id, into: answer.ids, found: byId[i] })),
  ];
  // A few items at a time, so their file reads overlap (a checksum asked for the first time
  // reads the whole file), in order.
  for (let start = 0; start < items.length; start += PARALLEL) {
    const slice = items.slice(start, start + PARALLEL);
    const stats = await Promise.all(
      slice.map(({ found }) => found.found === "item" ? statOf(call, found.item) : undefined),
    );
    slice.forEach(({ key, into }, i) => {
      if (!(key in into)) into[key] = stats[i];
    });
  }
  return jsonReply(answer);
}
