/**
 * One typed function per Terrain endpoint; the only place that knows the data routes.
 *
 * Each function checks its arguments before sending (a bad path, id or limit is a
 * {@linkcode BadRequestError} naming the argument), picks the route variant for the transport's
 * credentials — Terrain's non-`/secured` variant for anonymous transports where the service has
 * one, otherwise a {@linkcode SignInRequiredError} before anything is sent — and validates the
 * answer against its schema. Errors carry the endpoint name and the path or id.
 *
 * @example Browse a public folder anonymously
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { Transport } from "./transport.ts";
 * import { download, getPagedDirectory } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = new Transport({ url: store.options.url }); // no credentials: anonymous
 * const path = "/iplant/home/shared/tern_samples/formats";
 * const page = await getPagedDirectory(transport, { path, limit: 100 });
 * assert.equal(page.files.length, 9);
 * assert.equal(page.files.find((file) => file.label === "penguins.csv")?.["file-size"], 13487);
 * const { body } = await download(transport, page.files[0].path);
 * await body.cancel();
 * ```
 *
 * @module
 */

import { filenameFromDisposition } from "./disposition.ts";
import {
  BadRequestError,
  errorFromResponse,
  ProtocolError,
  ServerError,
  SIGN_IN_HINT,
  SignInRequiredError,
} from "./errors.ts";
import { strongETag } from "./file_version.ts";
import type {
  CommentList,
  DirectoryListing,
  Manifest,
  MetadataResponse,
  PagedListing,
  RootListing,
  SearchAnswer,
  SearchDocumentation,
  StatAnswer,
} from "./schemas.ts";
import type { SearchQuery } from "./search_query.ts";
import type { RequestSpec, Transport } from "./transport.ts";
import type { z } from "../deps.ts";
import { SEARCH_SORT_FIELDS } from "../registry/search_sort_fields.ts";

export { SEARCH_SORT_FIELDS };

/**
 * Per-call options.
 *
 * @example
 * ```ts
 * import type { CallOptions } from "./endpoints.ts";
 *
 * const options: CallOptions = { signal: AbortSignal.timeout(5000) };
 * ```
 */
export interface CallOptions {
  /** Aborts the call (the promise, or the body of a download, rejects with an `AbortError`). */
  signal?: AbortSignal;
}

/** Each endpoint (its route is `/` and its name), and whether Terrain serves it to anonymous callers. */
const ANONYMOUS = {
  "filesystem/root": false,
  "filesystem/directory": false,
  "filesystem/paged-directory": true,
  "filesystem/display-download": true,
  "fileio/download": true,
  "filesystem/file/manifest": true,
  "filesystem/search-documentation": true,
  "filesystem/entry/{id}/comments": false,
  "filesystem/{id}/metadata": true,
  "saved-searches": false,
  "filesystem/stat": true,
  "filesystem/search": true,
} as const;

type Endpoint = keyof typeof ANONYMOUS;

/**
 * Sort columns of {@linkcode getPagedDirectory}.
 *
 * @example
 * ```ts
 * import type { SortColumn } from "./endpoints.ts";
 *
 * const newestFirst: [SortColumn, "DESC"] = ["datemodified", "DESC"];
 * ```
 */
export type SortColumn = "name" | "path" | "size" | "datecreated" | "datemodified";
/**
 * Sort directions of {@linkcode getPagedDirectory}.
 *
 * @example
 * ```ts
 * import type { SortDirection } from "./endpoints.ts";
 *
 * const direction: SortDirection = "ASC";
 * ```
 */
export type SortDirection = "ASC" | "DESC";
/**
 * Which kinds of entries {@linkcode getPagedDirectory} lists.
 *
 * @example
 * ```ts
 * import type { EntityType } from "./endpoints.ts";
 *
 * const onlyFiles: EntityType = "file";
 * ```
 */
export type EntityType = "any" | "file" | "folder";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What {@linkcode getPagedDirectory} lists.
 *
 * @example
 * ```ts
 * import type { PagedDirectoryQuery } from "./endpoints.ts";
 *
 * const biggestCsvFiles: PagedDirectoryQuery = {
 *   path: "/iplant/home/shared",
 *   limit: 10,
 *   sortCol: "size",
 *   sortDir: "DESC",
 *   entityType: "file",
 *   infoType: "csv",
 * };
 * ```
 */
export interface PagedDirectoryQuery {
  /** Folder path, e.g. `/iplant/home/shared`. */
  path: string;
  /** Page size (a positive integer; Terrain sets no maximum, 1000 is a good page). */
  limit: number;
  /** Entries to skip (default 0). Folders come before files across pages. */
  offset?: number;
  /** Sort column (default `name`). */
  sortCol?: SortColumn;
  /** Sort direction (default `ASC`). */
  sortDir?: SortDirection;
  /** Only files, only folders, or both (default). */
  entityType?: EntityType;
  /** Keep only files of these Terrain info types (`csv`, `tsv`, `unknown`, …); folders stay. */
  infoType?: string | readonly string[];
}

/**
 * A file body being downloaded.
 *
 * @example
 * ```ts
 * import type { Download } from "./endpoints.ts";
 *
 * async function save(file: Download, target: string): Promise<void> {
 *   await Deno.writeFile(target, file.body);
 * }
 * ```
 */
export interface Download {
  /**
   * The bytes. Read to the end or cancel it: the store's request slot is held until then. Errors
   * with a `NetworkError` if the transfer stalls or breaks, `AbortError` when aborted.
   */
  body: ReadableStream<Uint8Array>;
  /** Byte count announced by the server, when it did. */
  size?: number;
  /** File name from `Content-Disposition`, when present. */
  filename?: string;
  /** Media type from `Content-Type` (always `application/octet-stream` for {@linkcode download}). */
  contentType: string;
  /** The server's strong `ETag` for these bytes, when it sent one. */
  etag?: string;
}

/**
 * The user's four roots (home, community data, shared with me, trash) and base paths.
 * Needs a signed-in transport.
 *
 * @throws {SignInRequiredError} for an anonymous transport, before sending anything.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { getRoot } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const { roots } = await getRoot(store[STORE_CONTEXT].transport);
 * assert.deepEqual(
 *   roots.map((root) => root.label),
 *   ["demo", "Community Data", "Shared With Me", "Trash"],
 * );
 * ```
 */
export async function getRoot(t: Transport, opts: CallOptions = {}): Promise<RootListing> {
  return await getJson(t, "filesystem/root", (s) => s.RootListing, opts);
}

/**
 * A folder and its sub-folders (no files, no paging). Needs a signed-in transport.
 *
 * @param path Folder path.
 * @throws {BadRequestError} when `path` is a file (or not a valid path).
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { getDirectory } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const shared = store.folder("/iplant/home/shared");
 * const listing = await getDirectory(store[STORE_CONTEXT].transport, "/iplant/home/shared");
 * assert.deepEqual(
 *   listing.folders.map((folder) => folder.label),
 *   ["commons_repo", "iplantcollaborative", "tern_samples"],
 * );
 * ```
 */
export async function getDirectory(
  t: Transport,
  path: string,
  opts: CallOptions = {},
): Promise<DirectoryListing> {
  return await getJson(t, "filesystem/directory", (s) => s.DirectoryListing, opts, {
    path,
  });
}

/**
 * One page of a folder's entries, folders first. Anonymous transports may list paths under
 * `/iplant/home/shared` only (Terrain's rule); elsewhere they get a {@linkcode SignInRequiredError}.
 *
 * @throws {NotFoundError} when the folder does not exist or is not visible.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { getPagedDirectory } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats";
 * const page = await getPagedDirectory(store[STORE_CONTEXT].transport, {
 *   path,
 *   limit: 500,
 *   offset: 0,
 *   sortCol: "size",
 *   sortDir: "DESC",
 *   entityType: "file",
 *   infoType: ["csv", "tsv"],
 * });
 * assert.equal(`${page.files.length} of ${page.total}`, "2 of 2");
 * ```
 */
export async function getPagedDirectory(
  t: Transport,
  query: PagedDirectoryQuery,
  opts: CallOptions = {},
): Promise<PagedListing> {
  const endpoint = "filesystem/paged-directory";
  // The listing options were checked where the caller passed them (`folder.list()`).
  try {
    return await getJson(t, endpoint, (s) => s.PagedListing, opts, {
      path: query.path,
      query: {
        limit: query.limit,
        offset: query.offset,
        "sort-col": query.sortCol,
        "sort-dir": query.sortDir,
        "entity-type": query.entityType,
        "info-type": query.infoType,
      },
    });
  } catch (error) {
    // Terrain has data-info list the path, and data-info answers a file's path with the file's
    // bytes, which Terrain then fails to read as a listing: a 500, or an answer that is no
    // listing when the bytes happen to be JSON. A stat tells that from a real failure, so the
    // caller gets what the embedded server says at once: ERR_NOT_A_FOLDER.
    if (!(error instanceof ServerError || error instanceof ProtocolError)) throw error;
    const info = await statItems(t, { paths: [query.path] }, opts).then(
      (answer) => answer.paths[query.path],
      () => undefined,
    );
    if (info?.type !== "file") throw error;
    throw errorFromResponse({
      status: 500,
      body: { error_code: "ERR_NOT_A_FOLDER", path: query.path },
      endpoint,
      authenticated: !t.anonymous,
    });
  }
}

/**
 * Downloads a file's bytes (`fileio/download`): always `application/octet-stream`, meant for
 * saving or parsing. See {@linkcode displayDownload} for the detected media type.
 *
 * With `ifMatch` (an `ETag` an earlier answer gave), a server that keeps validators answers only
 * while the file still has those bytes: otherwise a `412` (a {@linkcode TernError} with that
 * status), never other bytes.
 *
 * @throws {NotFoundError} when the file does not exist or is not readable.
 * @throws {BadRequestError} when the path is a folder.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { download } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const file = await download(store[STORE_CONTEXT].transport, path);
 * const text = await new Response(file.body).text();
 * assert.equal(file.filename, "penguins.csv");
 * assert.equal(file.size, 13487);
 * assert.equal(text.length, 13487);
 * ```
 */
export async function download(
  t: Transport,
  path: string,
  opts: CallOptions & { ifMatch?: string } = {},
): Promise<Download> {
  const endpoint = "fileio/download";
  checkPath(path, endpoint);
  const answer = await t.stream({
    path: route(t, endpoint, path),
    query: { path },
    endpoint,
    subject: path,
    headers: { accept: "*/*", ...(opts.ifMatch === undefined ? {} : { "if-match": opts.ifMatch }) },
    signal: opts.signal,
  });
  return toDownload(answer);
}

/**
 * Downloads a file for inline display in a browser or notebook
 * (`filesystem/display-download`): same bytes as {@linkcode download}, but `contentType` is the
 * server's detected media type (`text/csv`, `image/png`, …), and with `inline: true` the
 * server marks the answer for display rather than saving.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { displayDownload } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguin_body_mass.png";
 * const image = await displayDownload(store[STORE_CONTEXT].transport, path, { inline: true });
 * assert.equal(image.contentType, "image/png");
 * await image.body.cancel();
 * ```
 */
export async function displayDownload(
  t: Transport,
  path: string,
  display: { inline?: boolean } = {},
  opts: CallOptions = {},
): Promise<Download> {
  const endpoint = "filesystem/display-download";
  checkPath(path, endpoint);
  const answer = await t.stream({
    path: route(t, endpoint, path),
    // Terrain treats exactly "1" as attachment and any other value as inline.
    query: { path, attachment: display.inline ? "0" : "1" },
    endpoint,
    subject: path,
    headers: { accept: "*/*" },
    signal: opts.signal,
  });
  return toDownload(answer);
}

/**
 * Most items (paths and ids together) one {@linkcode statItems} asks for: Terrain's limit.
 *
 * @example
 * ```ts
 * import { STAT_BATCH } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(STAT_BATCH, 1000);
 * ```
 */
export const STAT_BATCH = 1000;

/**
 * What {@linkcode statItems} asks for: paths, ids, or both.
 *
 * @example
 * ```ts
 * import type { StatQuery } from "./endpoints.ts";
 *
 * const query: StatQuery = { paths: ["/iplant/home/shared/a.csv"] };
 * ```
 */
export interface StatQuery {
  /** Absolute data-store paths. */
  paths?: readonly string[];
  /** Item ids (UUIDs). */
  ids?: readonly string[];
}

/**
 * The current state of up to {@linkcode STAT_BATCH} items at once (`filesystem/stat`, one POST):
 * each file's id, size, dates, info type and **the store's checksum** (`md5`; `""` before the
 * store computed it), each folder's counts, under the path or id it was asked by. Anonymous
 * transports may ask by path under `/iplant/home/shared` only (Terrain's rule). For more items,
 * `statPaths` (`stat_many.ts`) splits them into batches.
 *
 * @throws {BadRequestError} for a bad path or id, or more than {@linkcode STAT_BATCH} items,
 * before anything is sent.
 * @throws {NotFoundError} when items do not exist (its `items` names every one).
 * @throws {PermissionError} when the caller may not read items (`items` names them).
 * @throws {SignInRequiredError} for an anonymous transport asking by id, or outside the
 * community folder.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { statItems } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const answer = await statItems(store[STORE_CONTEXT].transport, { paths: [path] });
 * const info = answer.paths[path];
 * assert.equal(info.type === "file" && info["file-size"], 13487);
 * assert.match(info.type === "file" ? info.md5 : "", /^[0-9a-f]{32}$/);
 * ```
 */
export async function statItems(
  t: Transport,
  query: StatQuery,
  opts: CallOptions = {},
): Promise<StatAnswer> {
  const endpoint = "filesystem/stat";
  const paths = query?.paths ?? [];
  const ids = query?.ids ?? [];
  if (!Array.isArray(paths) || !Array.isArray(ids)) {
    throw new BadRequestError(`${endpoint} needs lists of paths or ids.`, { endpoint });
  }
  for (const path of paths) checkPath(path, endpoint);
  for (const id of ids) checkId(id, endpoint);
  const count = paths.length + ids.length;
  if (count > STAT_BATCH) {
    throw new BadRequestError(
      `${endpoint} answers at most ${STAT_BATCH} items at once, got ${count}; ` +
        "statPaths splits more into batches.",
      { endpoint },
    );
  }
  const only = count === 1 ? [...paths, ...ids][0] : undefined;
  return await getJson(
    t,
    endpoint,
    (s) => s.StatAnswer,
    opts,
    {
      subject: only,
      json: {
        ...(paths.length > 0 ? { paths } : {}),
        ...(ids.length > 0 ? { ids } : {}),
      },
    },
  );
}

/**
 * A file's detected content type, Terrain info type, and public URLs (`anonymous` when anyone
 * may read it).
 *
 * @throws {BadRequestError} when the path is a folder.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { getManifest } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const manifest = await getManifest(store[STORE_CONTEXT].transport, path);
 * assert.equal(manifest["content-type"], "text/csv");
 * const dav = store.options.url.replace(/\/terrain$/, "/dav-anon");
 * assert.equal(manifest.urls[0]?.url, dav + path);
 * ```
 */
export async function getManifest(
  t: Transport,
  path: string,
  opts: CallOptions = {},
): Promise<Manifest> {
  return await getJson(t, "filesystem/file/manifest", (s) => s.Manifest, opts, {
    path,
  });
}

/**
 * The manifest's anonymous URL (the one labelled `anonymous`, listed only when anyone may read
 * the file), or `undefined` for a private file.
 *
 * @example
 * ```ts
 * import { publicUrlOf } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * const url = "https://data.cyverse.org/dav-anon/iplant/home/shared/a.csv";
 * assert.equal(publicUrlOf({ urls: [{ label: "anonymous", url }] }), url);
 * assert.equal(publicUrlOf({ urls: [] }), undefined);
 * ```
 */
export function publicUrlOf(manifest: Pick<Manifest, "urls">): string | undefined {
  return manifest.urls.find((candidate) => candidate.label === "anonymous")?.url;
}

/**
 * The URL of a file's bytes through Terrain's `fileio/download` for this transport's caller: the
 * `/secured` route when it is signed in (the caller then sends its own token as an
 * `Authorization: Bearer` header), the anonymous route otherwise. What another engine reads when
 * a file has no anonymous URL. The URL never holds a credential (the base URL cannot, see
 * `Transport`). Terrain answers it with the whole file: no byte ranges.
 *
 * @throws {BadRequestError} when the path is not absolute.
 *
 * @example
 * ```ts
 * import { Transport } from "./transport.ts";
 * import { downloadUrl } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * const signedIn = new Transport({ url: "https://de.cyverse.org/terrain", token: "a.b.c" });
 * assert.equal(
 *   downloadUrl(signedIn, "/iplant/home/demo/my data.csv"),
 *   "https://de.cyverse.org/terrain/secured/fileio/download?path=%2Fiplant%2Fhome%2Fdemo%2Fmy+data.csv",
 * );
 * ```
 */
export function downloadUrl(t: Transport, path: string): string {
  const endpoint = "fileio/download";
  checkPath(path, endpoint);
  const url = new URL(t.url + route(t, endpoint, path));
  url.searchParams.set("path", path);
  return url.href;
}

/**
 * How another engine reads a file: `public` — anonymously, with no credentials; `token` — with
 * the caller's access token as an `Authorization: Bearer` header.
 *
 * @example
 * ```ts
 * import type { Access } from "./endpoints.ts";
 *
 * const headersFor = (access: Access, token: string) =>
 *   access === "token" ? { authorization: `Bearer ${token}` } : {};
 * ```
 */
export type Access = "public" | "token";

/**
 * The URL another engine reads a file at, and how: the manifest's anonymous `dav-anon` URL
 * (`public`) when anyone may read the file, else Terrain's download URL for this caller
 * ({@linkcode downloadUrl}; `token` for a signed-in caller). Never null for a file the caller
 * could get a manifest of, and never holding a credential.
 *
 * @example
 * ```ts
 * import { Transport } from "./transport.ts";
 * import { readUrlOf } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * const t = new Transport({ url: "https://de.cyverse.org/terrain", token: "a.b.c" });
 * const dav = "https://data.cyverse.org/dav-anon/iplant/home/shared/a.csv";
 * assert.deepEqual(readUrlOf(t, "/iplant/home/shared/a.csv", { urls: [{ label: "anonymous", url: dav }] }), {
 *   url: dav,
 *   access: "public",
 * });
 * assert.equal(readUrlOf(t, "/iplant/home/demo/b.csv", { urls: [] }).access, "token");
 * ```
 */
export function readUrlOf(
  t: Transport,
  path: string,
  manifest: Pick<Manifest, "urls">,
): { url: string; access: Access } {
  const url = publicUrlOf(manifest);
  if (url !== undefined) return { url, access: "public" };
  // An anonymous caller reads what user `anonymous` may, which the manifest always gives a
  // public URL; the anonymous download route is the same bytes should a server not list it.
  return { url: downloadUrl(t, path), access: t.anonymous ? "public" : "token" };
}

/**
 * The comments on a file or folder, retracted ones included. Needs a signed-in transport.
 *
 * @param id The item's UUID (the `id` of a listing entry).
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { getComments } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const curated = "/iplant/home/shared/commons_repo/curated";
 * const file = store.file(`${curated}/Gorman_PalmerPenguins_Morphometrics_2020/penguins.csv`);
 * const { comments } = await getComments(store[STORE_CONTEXT].transport, (await file.stat()).id);
 * assert.equal(comments.filter((comment) => !comment.retracted).length, 1);
 * ```
 */
export async function getComments(
  t: Transport,
  id: string,
  opts: CallOptions = {},
): Promise<CommentList> {
  return await getJson(
    t,
    "filesystem/entry/{id}/comments",
    (s) => s.CommentList,
    opts,
    { id },
  );
}

/**
 * A file's or folder's metadata: template AVUs (where DataCite fields live), raw iRODS AVUs, and
 * its path.
 *
 * @param id The item's UUID.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { getMetadata } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const curated = "/iplant/home/shared/commons_repo/curated";
 * const folder = store.folder(`${curated}/Immer_BarleyVarietyTrials_Jun2018`);
 * const metadata = await getMetadata(store[STORE_CONTEXT].transport, (await folder.stat()).id);
 * assert.deepEqual(
 *   metadata.avus.slice(1, 3).map((avu) => `${avu.attr}=${avu.value}`),
 *   ["datacite.creator=Immer, F. R.", "datacite.creator=Hayes, H. K."],
 * );
 * ```
 */
export async function getMetadata(
  t: Transport,
  id: string,
  opts: CallOptions = {},
): Promise<MetadataResponse> {
  return await getJson(
    t,
    "filesystem/{id}/metadata",
    (s) => s.MetadataResponse,
    opts,
    { id },
  );
}

/**
 * The user's saved searches, returned as stored: opaque JSON (`{}` when none). Needs a
 * signed-in transport.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { getSavedSearches } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const saved = await getSavedSearches(store[STORE_CONTEXT].transport);
 * assert.equal(Array.isArray(saved) ? saved.length : 0, 4);
 * ```
 */
export async function getSavedSearches(t: Transport, opts: CallOptions = {}): Promise<unknown> {
  const endpoint = "saved-searches";
  return await t.json({ path: route(t, endpoint), endpoint, signal: opts.signal });
}

/**
 * The search service's documentation: clauses with their arguments, and sortable fields.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { getSearchDocumentation } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const docs = await getSearchDocumentation(store[STORE_CONTEXT].transport);
 * assert.deepEqual(
 *   Object.keys(docs.clauses).sort(),
 *   ["created", "label", "metadata", "modified", "owner", "path", "permissions", "size", "tag"],
 * );
 * ```
 */
export async function getSearchDocumentation(
  t: Transport,
  opts: CallOptions = {},
): Promise<SearchDocumentation> {
  return await getJson(
    t,
    "filesystem/search-documentation",
    (s) => s.SearchDocumentation,
    opts,
  );
}

/**
 * A sort key of {@linkcode searchData}.
 *
 * @example
 * ```ts
 * import type { SearchSort } from "./endpoints.ts";
 *
 * const newestFirst: SearchSort = { field: "dateModified", order: "descending" };
 * ```
 */
export interface SearchSort {
  /** A field the search service sorts by. */
  field: typeof SEARCH_SORT_FIELDS[number];
  /** Direction. @default "ascending" */
  order?: "ascending" | "descending";
}

/**
 * The body of {@linkcode searchData}: a query with its page (`from`, `size`), sort and scroll,
 * or (`scrollId`) the next page of a scroll.
 *
 * @example
 * ```ts
 * import type { SearchRequest } from "./endpoints.ts";
 *
 * const request: SearchRequest = { query: { all: [] }, size: 100, scroll: "1m" };
 * ```
 */
export type SearchRequest =
  | {
    /** The query, checked by `checkSearchQuery` first. */
    query: SearchQuery;
    /** Hits per page. */
    size: number;
    /** First hit (`from + size` ≤ 10,000). */
    from?: number;
    /** Sort keys. */
    sort?: readonly SearchSort[];
    /** Opens a scroll kept this long (`"1m"`). */
    scroll?: string;
  }
  | {
    /** The scroll's id, from the previous page. */
    scrollId: string;
    /** How long to keep the scroll. */
    scroll: string;
  };

/**
 * One page of a data search (`filesystem/search`, one POST). The query is sent as given: check
 * it with `checkSearchQuery` first.
 *
 * @throws {BadRequestError} naming the search service's message (a refused query, `from + size`
 * past 10,000, a scroll past its end: `"EOF"`).
 * @throws {SearchDisabledError} when the store has no search.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { searchData } from "./endpoints.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const answer = await searchData(store[STORE_CONTEXT].transport, {
 *   query: { all: [{ type: "label", args: { label: "penguins.csv", exact: true } }] },
 *   size: 10,
 * });
 * assert.ok(answer.total.value >= 1);
 * assert.ok(answer.hits?.every((hit) => hit._source.label === "penguins.csv"));
 * ```
 */
export async function searchData(
  t: Transport,
  request: SearchRequest,
  opts: CallOptions = {},
): Promise<SearchAnswer> {
  const endpoint = "filesystem/search";
  const json = "scrollId" in request ? { scroll_id: request.scrollId, scroll: request.scroll } : {
    query: request.query,
    size: request.size,
    ...(request.from ? { from: request.from } : {}),
    ...(request.sort?.length ? { sort: request.sort } : {}),
    ...(request.scroll === undefined ? {} : { scroll: request.scroll }),
  };
  return await getJson(t, endpoint, (s) => s.SearchAnswer, opts, {
    json,
    // A scroll's next page is asked once: a repeat would skip the page whose answer was lost.
    once: "scrollId" in request,
  });
}

/**
 * Asks an endpoint on the route variant for the transport's credentials (a POST when the request
 * has a `json` body) and checks its JSON answer against the endpoint's schema (picked from the
 * response schemas module, which is imported while the first request is on its way). A data-store
 * `path` is checked and sent first in the query, an item `id` checked and put in the route's `{id}`
 * segment; either is the request's subject unless another is given.
 */
async function getJson<T>(
  t: Transport,
  endpoint: Endpoint,
  schema: (schemas: typeof import("./schemas.ts")) => z.ZodType<T, unknown>,
  opts: CallOptions,
  request: Pick<RequestSpec, "subject" | "query" | "json" | "once"> & {
    path?: string;
    id?: string;
  } = {},
): Promise<T> {
  const { path, id, subject = path ?? id, ...sent } = request;
  if (path !== undefined) checkPath(path, endpoint);
  if (id !== undefined) checkId(id, endpoint);
  const query = path === undefined ? sent.query : { path, ...sent.query };
  const variant = route(t, endpoint, subject);
  const routed = id === undefined ? variant : variant.replace("{id}", encodeURIComponent(id));
  const [body, schemas] = await Promise.all([
    t.json({ ...sent, query, path: routed, endpoint, subject, signal: opts.signal }),
    import("./schemas.ts"),
  ]);
  return schemas.parseBody(schema(schemas), body, { endpoint, subject });
}

/** The route variant for this transport, or a sign-in error for anonymous-only-if-allowed. */
function route(t: Transport, endpoint: Endpoint, subject?: string): string {
  if (!t.anonymous) return `/secured/${endpoint}`;
  if (ANONYMOUS[endpoint]) return `/${endpoint}`;
  throw new SignInRequiredError(
    `Sign-in needed for ${endpoint}${
      subject === undefined ? "" : ` (${JSON.stringify(subject)})`
    }: Terrain does not offer it to anonymous users. ${SIGN_IN_HINT}`,
    { endpoint, path: subject },
  );
}

function toDownload(answer: Awaited<ReturnType<Transport["stream"]>>): Download {
  const filename = filenameFromDisposition(answer.headers.get("content-disposition"));
  const etag = strongETag(answer.headers);
  return {
    ...(etag === undefined ? {} : { etag }),
    body: answer.body,
    ...(answer.size === undefined ? {} : { size: answer.size }),
    ...(filename === undefined ? {} : { filename }),
    contentType: answer.headers.get("content-type") ?? "application/octet-stream",
  };
}

function checkPath(path: unknown, endpoint: string): asserts path is string {
  const problem = typeof path !== "string"
    ? `must be a string, got ${path === null ? "null" : typeof path}`
    : path.trim() === ""
    ? "must not be blank"
    : !path.startsWith("/")
    ? `must be an absolute data-store path such as /iplant/home/shared, got ${JSON.stringify(path)}`
    : path.includes("\0")
    ? "must not contain NUL characters"
    : undefined;
  if (problem !== undefined) {
    throw new BadRequestError(`The path given to ${endpoint} ${problem}.`, {
      endpoint,
      path: typeof path === "string" ? path : undefined,
    });
  }
}

function checkId(id: unknown, endpoint: string): asserts id is string {
  if (typeof id !== "string" || !UUID.test(id)) {
    throw new BadRequestError(
      `${endpoint} needs an item id (a UUID such as 0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804), got ${
        typeof id === "string" ? JSON.stringify(id) : String(id)
      }.`,
      { endpoint, path: typeof id === "string" ? id : undefined },
    );
  }
}
