/**
 * One item's entry with one request each: a file's from `filesystem/stat` (which alone carries the
 * store's checksum), a folder's from a one-entry page of its own listing, and whether a path is a
 * file or a folder from its manifest.
 *
 * @module
 */

import {
  type CallOptions,
  getManifest,
  getPagedDirectory,
  statItems,
} from "../client/endpoints.ts";
import { closest } from "../client/closest.ts";
import { BadRequestError, NotFoundError, ProtocolError, quoteInput } from "../client/errors.ts";
import type { Transport } from "../client/transport.ts";
import { type Entry, entryFromStat, folderEntry } from "../client/entry.ts";

/**
 * The entry of a folder, from one request: a paged listing of the folder with `limit=1`, whose
 * top level describes the folder itself.
 *
 * @throws {BadRequestError} when the path is a file.
 * @throws {NotFoundError} when it does not exist or is not visible.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "./store_context.ts";
 * import { statFolder } from "./stat.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = store[STORE_CONTEXT].transport;
 * const entry = await statFolder(transport, "/iplant/home/shared/tern_samples");
 * assert.equal(entry.type, "folder");
 * assert.equal(entry.name, "tern_samples");
 * ```
 */
export async function statFolder(
  transport: Transport,
  path: string,
  opts: CallOptions = {},
): Promise<Entry> {
  const page = await getPagedDirectory(transport, { path, limit: 1 }, opts);
  return folderEntry(page);
}

/**
 * The entry of a file, with the store's checksum when it has one, from one `filesystem/stat`
 * request.
 *
 * @throws {BadRequestError} when the path is a folder.
 * @throws {NotFoundError} when nothing is there (or nothing the caller can see); when a file of
 * the same folder (one of at most 1,000 files) is one or two typos away, it asks "did you mean"
 * that one, at the cost of one listing request made only then.
 * @throws {PermissionError} when the caller may not read it.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "./store_context.ts";
 * import { statFile } from "./stat.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = store[STORE_CONTEXT].transport;
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const entry = await statFile(transport, path);
 * assert.equal(entry.size, 13487);
 * assert.equal(entry.infoType, "csv");
 * assert.match(entry.checksum ?? "", /^md5:[0-9a-f]{32}$/);
 * ```
 */
export async function statFile(
  transport: Transport,
  path: string,
  opts: CallOptions = {},
): Promise<Entry> {
  const endpoint = "filesystem/stat";
  const answer = await statItems(transport, { paths: [path] }, opts).catch(async (error) => {
    throw error instanceof NotFoundError ? await didYouMean(transport, error, path, opts) : error;
  });
  const info = answer.paths[path];
  if (info === undefined) {
    throw new ProtocolError(`${endpoint} answered without ${quoteInput(path)}.`, {
      endpoint,
      path,
    });
  }
  if (info.type !== "file") {
    throw new BadRequestError(`${quoteInput(path)} is a folder, not a file (${endpoint}).`, {
      endpoint,
      path,
      code: "ERR_NOT_A_FILE",
    });
  }
  return entryFromStat(info);
}

/**
 * Whether `path` is a file or a folder, from one `file/manifest` request (cheap for both kinds,
 * and open to anonymous users): it answers for a file and says "not a file" for a folder.
 *
 * @throws {NotFoundError} when nothing is at `path`.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "./store_context.ts";
 * import { kindOf } from "./stat.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = store[STORE_CONTEXT].transport;
 * assert.equal(await kindOf(transport, "/iplant/home/shared"), "folder");
 * assert.equal(await kindOf(transport, "/iplant/home/shared/tern_samples/README.txt"), "file");
 * ```
 */
export async function kindOf(
  transport: Transport,
  path: string,
  opts: CallOptions = {},
): Promise<"file" | "folder"> {
  try {
    await getManifest(transport, path, opts);
    return "file";
  } catch (error) {
    if (error instanceof BadRequestError && error.code === "ERR_NOT_A_FILE") return "folder";
    throw error;
  }
}

/**
 * The error, asking whether a file of `path`'s folder one or two typos away was meant, when
 * there is one (the folder unreadable or gone: the error as it was).
 */
async function didYouMean(
  transport: Transport,
  error: NotFoundError,
  path: string,
  opts: CallOptions,
): Promise<NotFoundError> {
  const slash = path.lastIndexOf("/");
  const parent = path.slice(0, slash) || "/";
  const names = await getPagedDirectory(transport, {
    path: parent,
    limit: 1000,
    offset: 0,
    entityType: "file",
    sortCol: "name",
    sortDir: "ASC",
  }, opts).then(
    // Only a whole folder: among the first 1,000 names of a larger one the nearest may be a
    // sibling of the name meant, never the name itself.
    (page) =>
      page.files.length < (page.total ?? Infinity)
        ? []
        : page.files.map((item) => item.path.slice(item.path.lastIndexOf("/") + 1)),
    () => [],
  );
  const near = closest(path.slice(slash + 1), names);
  if (near === undefined) return error;
  const { status, code, endpoint } = error;
  const meant = parent === "/" ? `/${near}` : `${parent}/${near}`;
  const details = { status, code, path: error.path ?? path, endpoint, cause: error };
  return new NotFoundError(`${error.message} Did you mean ${quoteInput(meant)}?`, details);
}
