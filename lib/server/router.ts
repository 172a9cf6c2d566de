/**
 * Request dispatch in Terrain's order of route tiers: unsecured routes (health, token) first;
 * then `/secured/...`, which authenticates before routing and ends in a 404; then the
 * optionally authenticated routes (anonymous allowed); and finally a catch-all that demands
 * authentication before saying 404. Paths are accepted with or without the `/terrain` prefix.
 * The anonymous WebDAV-like `/dav-anon/...` tree is served beside Terrain. Routes answer `GET`
 * (and `HEAD`), except `filesystem/stat`, which answers `POST`; a method a path has no route for
 * falls to the catch-all, as in Terrain.
 *
 * Every answer, including unexpected failures, is a well-formed reply: the last-resort handler
 * answers 500 `ERR_UNCHECKED_EXCEPTION` with a short reason that never includes a stack trace
 * or where the store lives on disk.
 *
 * @module
 */

import { identify } from "./auth.ts";
import { notAuthorized, TerrainError, uncheckedException, unrecognizedPath } from "./errors.ts";
import type { Call, Handler } from "./handlers/call.ts";
import { commentsHandler } from "./handlers/comments.ts";
import { directoryHandler } from "./handlers/directory.ts";
import {
  davAnonHandler,
  displayDownloadHandler,
  fileioDownloadHandler,
} from "./handlers/downloads.ts";
import { manifestHandler } from "./handlers/manifest.ts";
import { metadataHandler } from "./handlers/metadata.ts";
import { pagedDirectoryHandler } from "./handlers/paged_directory.ts";
import { rootHandler } from "./handlers/root.ts";
import { savedSearchesHandler } from "./handlers/saved_searches.ts";
import { searchHandler } from "./handlers/search.ts";
import { statHandler } from "./handlers/stat.ts";
import { tokenHandler } from "./handlers/token.ts";
import { ANONYMOUS } from "./permissions.ts";
import type { Prng } from "./prng.ts";
import { jsonReply, type Reply, textReply } from "./reply.ts";
import { searchDocumentation } from "./search_documentation.ts";
import type { Searcher } from "./search/searcher.ts";
import type { Shaper } from "./shaping.ts";
import { STORE_ID_HEADER } from "./store_id.ts";
import type { DiskStore } from "./disk_store.ts";
import { StoreFileError } from "./store_file.ts";
import type { UserDirectory } from "./users.ts";

/** The body of the health route, as Terrain words it. */
const HEALTH_TEXT = "The infinite is attainable with Terrain!\n";

const searchDocumentationHandler: Handler = (call) =>
  Promise.resolve(jsonReply(searchDocumentation(call.prng)));

interface Route {
  segments: string[];
  handler: Handler;
  /** Who may call it without `/secured` (anyone, or only a known user); unset: no one. */
  unsecured?: "anyone" | "user";
  /** `GET` routes also answer `HEAD`. */
  method: "GET" | "POST";
}

function route(
  pattern: string,
  handler: Handler,
  options: Partial<Pick<Route, "unsecured" | "method">> = {},
): Route {
  return { segments: pattern.split("/").slice(1), handler, method: "GET", ...options };
}

const ANYONE = { unsecured: "anyone" } as const;
const POST_ANYONE = { unsecured: "anyone", method: "POST" } as const;

/** Routes under `/terrain/secured`; authentication happens before these are tried. */
const SECURED_ROUTES: Route[] = [
  route("/saved-searches", savedSearchesHandler, { unsecured: "user" }),
  route("/filesystem/root", rootHandler),
  route("/filesystem/directory", directoryHandler),
  route("/filesystem/paged-directory", pagedDirectoryHandler, ANYONE),
  route("/filesystem/display-download", displayDownloadHandler, ANYONE),
  route("/filesystem/file/manifest", manifestHandler, ANYONE),
  route("/filesystem/search-documentation", searchDocumentationHandler, ANYONE),
  route("/filesystem/search", searchHandler, POST_ANYONE),
  route("/filesystem/entry/:entry-id/comments", commentsHandler),
  route("/filesystem/:data-id/metadata", metadataHandler, ANYONE),
  route("/fileio/download", fileioDownloadHandler, ANYONE),
  route("/filesystem/stat", statHandler, POST_ANYONE),
];

/** The same routes without `/secured`, as far as they are served there. */
const OPTIONAL_ROUTES = SECURED_ROUTES.filter((candidate) => candidate.unsecured !== undefined);

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function match(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; pathParams: Record<string, string> } | undefined {
  const parts = path.split("/").slice(1);
  const wanted = method === "HEAD" ? "GET" : method;
  for (const candidate of routes) {
    if (candidate.method !== wanted || candidate.segments.length !== parts.length) continue;
    const pathParams: Record<string, string> = {};
    const fits = candidate.segments.every((segment, i) => {
      if (segment.startsWith(":")) {
        if (parts[i] === "") return false;
        pathParams[segment.slice(1)] = decodeSegment(parts[i]);
        return true;
      }
      return segment === parts[i];
    });
    if (fits) return { route: candidate, pathParams };
  }
  return undefined;
}

/**
 * Everything the router needs from the server.
 *
 * @example
 * ```ts
 * import type { RouterParts } from "./router.ts";
 * const quietLog: RouterParts["log"] = () => {};
 * ```
 */
export interface RouterParts {
  /** The store being served. */
  store: DiskStore;
  /** The store's search; `undefined` answers searches 403 (a deployment without search). */
  search?: Searcher;
  /** The store's accounts. */
  users: UserDirectory;
  /** Traffic shaping and counters. */
  shaper: Shaper;
  /** Seeded generator for per-call variation (search-documentation's field order). */
  prng: Prng;
  /** The server's own origin, known once it listens. */
  origin: () => string;
  /** Receives one line per request and reports of unexpected failures. */
  log: (line: string) => void;
  /** The store's id, sent with the health answer; `undefined` sends none (as Terrain). */
  storeId?: string;
}

/**
 * Builds the request handler the connection layer ({@link serveHttp}) calls.
 *
 * @example
 * ```ts
 * import { createRouter } from "./router.ts";
 * import { DiskStore } from "./disk_store.ts";
 * import { UserDirectory } from "./users.ts";
 * import { Shaper } from "./shaping.ts";
 * import { Prng } from "./prng.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const store = await DiskStore.open(root, "iplant");
 * const shaper = new Shaper({ latencyMs: 0, bandwidth: 0, failRate: 0, dropRate: 0, seed: 1 });
 * const handle = createRouter({
 *   store, users: await UserDirectory.open(store.root, {}), shaper, prng: new Prng(1, 2),
 *   origin: () => "http://127.0.0.1", log: () => {},
 * });
 * const response = await handle(new Request("http://127.0.0.1/terrain/"));
 * assert.equal(await response.text(), "The infinite is attainable with Terrain!\n");
 * await shaper.close();
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function createRouter(
  parts: RouterParts,
): (request: Request) => Promise<Response> {
  const { store, shaper, log } = parts;

  function failure(error: unknown): Reply {
    if (error instanceof TerrainError) return error.toReply();
    // A malformed store file (a sidecar, saved searches) is Terrain's unchecked exception.
    if (error instanceof StoreFileError) return uncheckedException(error.message).toReply();
    if (shaper.signal.aborted) return textReply(503, "Service Unavailable (shutting down)\n");
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const reason = store.redact(text).slice(0, 300);
    log(`unexpected failure: ${reason}`);
    return uncheckedException(reason).toReply();
  }

  async function dispatch(request: Request, url: URL): Promise<Reply> {
    const readOnly = request.method === "GET" || request.method === "HEAD";
    const call = (user: string | undefined, pathParams: Record<string, string> = {}): Call => ({
      store,
      search: parts.search,
      users: parts.users,
      url,
      params: url.searchParams,
      headers: request.headers,
      user: user ?? ANONYMOUS,
      authenticated: user !== undefined,
      origin: parts.origin(),
      prng: parts.prng,
      pathParams,
      body: () => request.text(),
    });

    if (url.pathname === "/dav-anon" || url.pathname.startsWith("/dav-anon/")) {
      const fault = shaper.fault();
      if (fault) return fault;
      if (!readOnly) return textReply(405, "Method Not Allowed\n", { allow: "GET, HEAD" });
      return await davAnonHandler(call(undefined));
    }

    const full = url.pathname.startsWith("/terrain") ? url.pathname : `/terrain${url.pathname}`;
    const path = full.slice("/terrain".length);
    if (readOnly && (path === "/" || path === "")) {
      const reply = textReply(200, HEALTH_TEXT);
      if (parts.storeId !== undefined) reply.headers.set(STORE_ID_HEADER, parts.storeId);
      return reply;
    }
    const fault = shaper.fault();
    if (fault) return fault;
    if (readOnly && (path === "/token" || path === "/token/keycloak")) {
      return await tokenHandler(call(undefined));
    }

    const table = await parts.users.current();
    if (path === "/secured" || path.startsWith("/secured/")) {
      const user = identify(request.headers, table, parts.users.clock());
      if (user === undefined) throw notAuthorized();
      const found = match(SECURED_ROUTES, request.method, path.slice("/secured".length));
      if (!found) throw unrecognizedPath();
      return await found.route.handler(call(user, found.pathParams));
    }

    const user = identify(request.headers, table, parts.users.clock());
    const found = match(OPTIONAL_ROUTES, request.method, path);
    if (found && !(found.route.unsecured === "user" && user === undefined)) {
      return await found.route.handler(call(user, found.pathParams));
    }
    if (user === undefined) throw notAuthorized();
    throw unrecognizedPath();
  }

  return async (request: Request): Promise<Response> => {
    const started = performance.now();
    let url: URL;
    let reply: Reply;
    try {
      url = new URL(request.url);
      await shaper.arrive();
      reply = await dispatch(request, url);
    } catch (error) {
      reply = failure(error);
      url ??= new URL("http://invalid/");
    }
    reply.headers.set("x-content-type-options", "nosniff");
    const elapsed = (performance.now() - started).toFixed(1);
    log(`${request.method} ${url.pathname} ${reply.status} ${elapsed}ms`);
    return shaper.respond(reply, request.method);
  };
}
