/**
 * Terrain has no read-only stat endpoint for clients, so entries are read from listings with as
 * few requests as possible: a folder from a one-entry page of its own listing, a file from its
 * parent's name-sorted file listing, searched by halving.
 *
 * @module
 */

import { type CallOptions, getManifest, getPagedDirectory } from "../client/endpoints.ts";
import { closest } from "../client/closest.ts";
import { BadRequestError, NotFoundError, ProtocolError, quoteInput } from "../client/errors.ts";
import type { ListingItem } from "../client/schemas.ts";
import type { Transport } from "../client/transport.ts";
import { type Entry, entryFromItem, folderEntry } from "../client/entry.ts";
import { baseName, parentPath } from "./paths.ts";

/** Entries in the first request for a file: most folders fit, so one request is enough. */
const FIRST_PAGE = 1000;
/** Entries per probe while halving a larger folder. */
const PROBE = 100;
/** Entries per request when falling back to reading the whole parent listing. */
const SCAN_PAGE = 1000;

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
 * The entry of a file, found in its parent's listing of files sorted by name.
 *
 * Requests: one when the parent holds at most 1,000 files (the usual case); for larger folders,
 * about log2(files / 100) more small probes that halve the name range. If the file is not where
 * the name order says (the server may collate names differently from code-unit order, or the
 * folder changed), one `file/manifest` request says whether it exists at all; if it does, the
 * parent is read page by page until it turns up. Errors are always the precise ones: a folder
 * at that path is a {@linkcode BadRequestError}, a missing file a {@linkcode NotFoundError} —
 * which, when a file listed on the way has a name one or two typos away, asks "did you mean" it.
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
 * ```
 */
export async function statFile(
  transport: Transport,
  path: string,
  opts: CallOptions = {},
): Promise<Entry> {
  const parent = parentPath(path);
  const name = baseName(path);
  /** Names listed on the way: what a "did you mean" picks from. */
  const listed: string[] = [];
  const files = async (offset: number, limit: number) => {
    const page = await getPagedDirectory(transport, {
      path: parent,
      limit,
      offset,
      entityType: "file",
      sortCol: "name",
      sortDir: "ASC",
    }, opts);
    for (const item of page.files) listed.push(baseName(item.path));
    return { total: page.total ?? 0, items: page.files };
  };

  const first = await files(0, FIRST_PAGE);
  let found = findByName(first.items, name);
  if (found !== undefined) return entryFromItem(found, "file");

  let low = first.items.length;
  let high = first.total;
  const last = first.items.at(-1);
  // Within (or before) the first page's name range but not in it: not in name order at all.
  if (last !== undefined && name < baseName(last.path)) high = low;
  while (low < high) {
    const start = Math.max(low, Math.min(high - PROBE, low + Math.floor((high - low - PROBE) / 2)));
    const probe = await files(start, Math.min(PROBE, high - start));
    if (probe.items.length === 0) break;
    found = findByName(probe.items, name);
    if (found !== undefined) return entryFromItem(found, "file");
    if (name < baseName(probe.items[0].path)) high = start;
    else if (name > baseName(probe.items[probe.items.length - 1].path)) {
      low = start + probe.items.length;
    } else break;
  }

  // Not where the name order puts it: ask whether it exists before reading the whole folder.
  // This also turns "it is a folder" and "it does not exist" into their precise errors.
  await getManifest(transport, path, opts).catch((error) => {
    throw error instanceof NotFoundError ? didYouMean(error, parent, closest(name, listed)) : error;
  });
  for (let offset = 0;; offset += SCAN_PAGE) {
    const page = await files(offset, SCAN_PAGE);
    found = findByName(page.items, name);
    if (found !== undefined) return entryFromItem(found, "file");
    if (page.items.length === 0 || offset + page.items.length >= page.total) break;
  }
  throw new ProtocolError(
    `${quoteInput(path)} exists (filesystem/file/manifest) but its folder's listing does not ` +
      "show it.",
    { path, endpoint: "filesystem/paged-directory" },
  );
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

function findByName(items: readonly ListingItem[], name: string): ListingItem | undefined {
  return items.find((item) => baseName(item.path) === name);
}

/** The error, asking whether `near` (a name in `parent`) was meant, when there is one. */
function didYouMean(error: NotFoundError, parent: string, near: string | undefined): NotFoundError {
  if (near === undefined) return error;
  const { status, code, path, endpoint } = error;
  const meant = parent === "/" ? `/${near}` : `${parent}/${near}`;
  return new NotFoundError(`${error.message} Did you mean ${quoteInput(meant)}?`, {
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code }),
    ...(path === undefined ? {} : { path }),
    ...(endpoint === undefined ? {} : { endpoint }),
    cause: error,
  });
}
