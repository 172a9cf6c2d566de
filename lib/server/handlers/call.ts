/**
 * What every endpoint handler receives: the store, the accounts and the request as the router
 * has already understood it (who is calling, which query).
 *
 * @module
 */

import { illegalArgument, malformedJson } from "../errors.ts";
import type { Prng } from "../prng.ts";
import type { Searcher } from "../search/searcher.ts";
import type { Reply } from "../reply.ts";
import type { DiskStore } from "../disk_store.ts";
import type { UserDirectory } from "../users.ts";

/**
 * One request, after routing and authentication.
 *
 * @example
 * ```ts
 * import type { Call } from "./call.ts";
 * const describe = (call: Call) => `${call.user} asked for ${call.url.pathname}`;
 * ```
 */
export interface Call {
  /** The store being served. */
  store: DiskStore;
  /** The store's search; `undefined` when the server runs without search. */
  search: Searcher | undefined;
  /** The store's accounts. */
  users: UserDirectory;
  /** The request URL. */
  url: URL;
  /** The decoded query parameters. */
  params: URLSearchParams;
  /** The request headers. */
  headers: Headers;
  /** The caller's username, `anonymous` without credentials. */
  user: string;
  /** Whether the caller sent valid credentials. */
  authenticated: boolean;
  /** Origin (`http://host:port`) that links back to this server start with. */
  origin: string;
  /** Random source for responses that vary per call (seeded). */
  prng: Prng;
  /** Values captured from the route path (`data-id`, `entry-id`). */
  pathParams: Record<string, string>;
  /** The request body as text (empty when there is none; read once). */
  body: () => Promise<string>;
}

/**
 * An endpoint: turns a call into a reply, or throws a `TerrainError`.
 *
 * @example
 * ```ts
 * import type { Handler } from "./call.ts";
 * import { jsonReply } from "../reply.ts";
 * const hello: Handler = (call) => Promise.resolve(jsonReply({ user: call.user }));
 * ```
 */
export type Handler = (call: Call) => Promise<Reply>;

/**
 * The request's body as Terrain's JSON endpoints read it (`filesystem/stat`, `filesystem/search`):
 * without a JSON content type, or empty, it is no map at all; text that does not parse is
 * compojure-api's 400.
 *
 * @throws {TerrainError} 400 `ERR_ILLEGAL_ARGUMENT` `(not (map? nil))`, or the malformed-JSON 400.
 *
 * @example
 * ```ts
 * import { readJsonBody } from "./call.ts";
 * import type { Call } from "./call.ts";
 * import assert from "node:assert/strict";
 *
 * const call = {
 *   headers: new Headers({ "content-type": "application/json" }),
 *   body: () => Promise.resolve('{"paths": []}'),
 * } as unknown as Call;
 * assert.deepEqual(await readJsonBody(call), { paths: [] });
 * ```
 */
export async function readJsonBody(call: Call): Promise<unknown> {
  const text = await call.body();
  const type = call.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type.trim()) || text.trim() === "") {
    throw illegalArgument("(not (map? nil))");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw malformedJson();
  }
}
