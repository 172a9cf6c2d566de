/**
 * Terrain's error answers. Handlers throw a {@link TerrainError}; the router renders it. The
 * factories below build the exact bodies, status codes and quirks of the real service
 * (most data errors are HTTP 500, key names differ per endpoint, some bodies lack a
 * `Content-Type`).
 *
 * @module
 */

import { JSON_TYPE, jsonReply, type Reply } from "./reply.ts";

/**
 * An error answer: status, JSON body, and how it is served.
 *
 * @example
 * ```ts
 * import { TerrainError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new TerrainError(500, { error_code: "ERR_DOES_NOT_EXIST", path: "/iplant/x" });
 * assert.equal(error.toReply().status, 500);
 * ```
 */
export class TerrainError extends Error {
  /** `Content-Type` of the body; `null` sends none. */
  readonly contentType: string | null;
  /** Extra response headers. */
  readonly headers: HeadersInit | undefined;

  /**
   * Creates an error answer; `options.contentType` `null` sends no `Content-Type`.
   *
   * @example
   * ```ts
   * import { TerrainError } from "./errors.ts";
   * import assert from "node:assert/strict";
   * const error = new TerrainError(403, { error_code: "ERR_FORBIDDEN", reason: "no" });
   * assert.equal(error.status, 403);
   * assert.deepEqual(error.body, { error_code: "ERR_FORBIDDEN", reason: "no" });
   * ```
   */
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The JSON body, or `null` for an empty body. */
    readonly body: unknown,
    options: { contentType?: string | null; headers?: HeadersInit } = {},
  ) {
    const code = typeof body === "object" && body !== null && "error_code" in body
      ? String(body.error_code)
      : `HTTP ${status}`;
    super(code);
    this.name = "TerrainError";
    this.contentType = options.contentType === undefined ? JSON_TYPE : options.contentType;
    this.headers = options.headers;
  }

  /**
   * The reply that answers the request.
   *
   * @example
   * ```ts
   * import { forbidden } from "./errors.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(forbidden("Untrusted JWT signature.").toReply().status, 403);
   * ```
   */
  toReply(): Reply {
    if (this.body === null) {
      const headers = new Headers(this.headers);
      headers.set("content-length", "0");
      return { status: this.status, headers, body: null };
    }
    return jsonReply(this.body, this.status, this.contentType, this.headers);
  }
}

/**
 * 401 for a route that needs a user and got no usable credentials (served without a
 * `Content-Type`, with `WWW-Authenticate: Custom`).
 *
 * @example
 * ```ts
 * import { notAuthorized } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(notAuthorized().toReply().headers.get("www-authenticate"), "Custom");
 * ```
 */
export function notAuthorized(): TerrainError {
  return new TerrainError(401, {
    error_code: "ERR_NOT_AUTHORIZED",
    reason: "No user authentication information found in request.",
  }, { contentType: null, headers: { "www-authenticate": "Custom" } });
}

/**
 * 401 for an anonymous paged listing outside the community folder.
 *
 * @example
 * ```ts
 * import { anonymousNotAuthorized } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(anonymousNotAuthorized().body, {
 *   user: null, error_code: "ERR_NOT_AUTHORIZED", reason: null,
 * });
 * ```
 */
export function anonymousNotAuthorized(): TerrainError {
  return new TerrainError(401, { user: null, error_code: "ERR_NOT_AUTHORIZED", reason: null });
}

/**
 * 403 for a token that is not trusted or has expired.
 *
 * @example
 * ```ts
 * import { forbidden } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(forbidden("Token is expired (1700000000)").status, 403);
 * ```
 */
export function forbidden(reason: string): TerrainError {
  return new TerrainError(403, { error_code: "ERR_FORBIDDEN", reason });
}

/**
 * 404 for a path no route serves (a JSON text labelled as HTML, as Terrain does).
 *
 * @example
 * ```ts
 * import { unrecognizedPath } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(unrecognizedPath().contentType, "text/html; charset=utf-8");
 * ```
 */
export function unrecognizedPath(): TerrainError {
  return new TerrainError(404, { reason: "unrecognized service path" }, {
    contentType: "text/html; charset=utf-8",
  });
}

/**
 * 400 for request parameters that fail validation; `reason` maps each bad parameter to a
 * message (or is a single message for a malformed path segment).
 *
 * @example
 * ```ts
 * import { illegalArgument } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = illegalArgument({ limit: "missing-required-key" });
 * assert.deepEqual(error.body, {
 *   error_code: "ERR_ILLEGAL_ARGUMENT", reason: { limit: "missing-required-key" },
 * });
 * ```
 */
export function illegalArgument(reason: string | Record<string, unknown>): TerrainError {
  return new TerrainError(400, { error_code: "ERR_ILLEGAL_ARGUMENT", reason });
}

/**
 * 400 for display-download's own field check.
 *
 * @example
 * ```ts
 * import { badOrMissingField } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(badOrMissingField("path").body, {
 *   fields: ["path"], error_code: "ERR_BAD_OR_MISSING_FIELD", reason: null,
 * });
 * ```
 */
export function badOrMissingField(field: string): TerrainError {
  return new TerrainError(400, {
    fields: [field],
    error_code: "ERR_BAD_OR_MISSING_FIELD",
    reason: null,
  });
}

/**
 * Which key names the item in a data error: `path` (paged listing, metadata), `paths`
 * (directory, manifest, stat), `uuid` (metadata and comments by id) or `ids` (stat by id).
 *
 * @example
 * ```ts
 * import type { ItemKey } from "./errors.ts";
 * const key: ItemKey = "paths";
 * ```
 */
export type ItemKey = "path" | "paths" | "uuid" | "ids";

/** The item field of an error body: a list under the plural keys, one value under the others. */
function itemField(key: ItemKey, value: string | readonly string[]): Record<string, unknown> {
  const values = typeof value === "string" ? [value] : value;
  return { [key]: key === "paths" || key === "ids" ? values : values[0] };
}

/**
 * 500 `ERR_DOES_NOT_EXIST` naming the item under `key`.
 *
 * @example
 * ```ts
 * import { doesNotExist } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(doesNotExist("paths", "/iplant/x").body, {
 *   error_code: "ERR_DOES_NOT_EXIST", paths: ["/iplant/x"],
 * });
 * ```
 */
export function doesNotExist(key: ItemKey, value: string | readonly string[]): TerrainError {
  return new TerrainError(500, { error_code: "ERR_DOES_NOT_EXIST", ...itemField(key, value) });
}

/**
 * 500 `ERR_NOT_READABLE` naming the item and the caller.
 *
 * @example
 * ```ts
 * import { notReadable } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(notReadable("path", "/iplant/home/alice", "demo").body, {
 *   error_code: "ERR_NOT_READABLE", path: "/iplant/home/alice", user: "demo",
 * });
 * ```
 */
export function notReadable(
  key: ItemKey,
  value: string | readonly string[],
  user: string,
): TerrainError {
  return new TerrainError(500, {
    error_code: "ERR_NOT_READABLE",
    ...itemField(key, value),
    user,
  });
}

/**
 * 403 `ERR_NOT_READABLE` for an item looked up by id that the caller may not read. Terrain
 * answers 500 with the item's path here, which tells whoever holds an id where a private item
 * lives; this server names only the id the caller already has.
 *
 * @example
 * ```ts
 * import { notReadableById } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const id = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";
 * const error = notReadableById(id, "demo");
 * assert.equal(error.status, 403);
 * assert.deepEqual(error.body, { error_code: "ERR_NOT_READABLE", uuid: id, user: "demo" });
 * ```
 */
export function notReadableById(uuid: string, user: string): TerrainError {
  return new TerrainError(403, { error_code: "ERR_NOT_READABLE", uuid, user });
}

/**
 * 500 `ERR_NOT_A_FOLDER` (a folder operation on a file).
 *
 * @example
 * ```ts
 * import { notAFolder } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(notAFolder("paths", "/iplant/home/shared/a.csv").body, {
 *   error_code: "ERR_NOT_A_FOLDER", paths: ["/iplant/home/shared/a.csv"],
 * });
 * ```
 */
export function notAFolder(key: ItemKey, path: string): TerrainError {
  return new TerrainError(500, { error_code: "ERR_NOT_A_FOLDER", ...itemField(key, path) });
}

/**
 * 500 `ERR_NOT_A_FILE` (a file operation on a folder).
 *
 * @example
 * ```ts
 * import { notAFile } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(notAFile("paths", "/iplant/home/shared").body, {
 *   error_code: "ERR_NOT_A_FILE", paths: ["/iplant/home/shared"],
 * });
 * ```
 */
export function notAFile(key: ItemKey, path: string): TerrainError {
  return new TerrainError(500, { error_code: "ERR_NOT_A_FILE", ...itemField(key, path) });
}

/**
 * 500 `ERR_NOT_FOUND` with the id (comments on an item the caller cannot see).
 *
 * @example
 * ```ts
 * import { notFoundById } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const id = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";
 * assert.deepEqual(notFoundById(id).body, { error_code: "ERR_NOT_FOUND", uuid: id });
 * ```
 */
export function notFoundById(uuid: string): TerrainError {
  return new TerrainError(500, { error_code: "ERR_NOT_FOUND", uuid });
}

/**
 * 500 `ERR_TOO_MANY_RESULTS`: a `stat` of more items than the service answers at once.
 *
 * @example
 * ```ts
 * import { tooManyResults } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(tooManyResults(1001, 1000).body, {
 *   error_code: "ERR_TOO_MANY_RESULTS", count: 1001, limit: 1000,
 * });
 * ```
 */
export function tooManyResults(count: number, limit: number): TerrainError {
  return new TerrainError(500, { error_code: "ERR_TOO_MANY_RESULTS", count, limit });
}

/**
 * 400 for a JSON request body that does not parse, worded as compojure-api words it.
 *
 * @example
 * ```ts
 * import { malformedJson } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(malformedJson().body, {
 *   type: "compojure.api.exception/request-parsing",
 *   message: "Malformed application/json request.",
 * });
 * ```
 */
export function malformedJson(): TerrainError {
  return new TerrainError(400, {
    type: "compojure.api.exception/request-parsing",
    message: "Malformed application/json request.",
  });
}

/**
 * 500 `ERR_REQUEST_FAILED` with a `message`, as downloads report data-info failures.
 *
 * @example
 * ```ts
 * import { requestFailed } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(requestFailed("GET http://data-info/x had a service error").status, 500);
 * ```
 */
export function requestFailed(message: string): TerrainError {
  return new TerrainError(500, { error_code: "ERR_REQUEST_FAILED", message });
}

/**
 * 500 `ERR_UNCHECKED_EXCEPTION`, the last-resort answer, with a short reason.
 *
 * @example
 * ```ts
 * import { uncheckedException } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(uncheckedException("boom").body, {
 *   error_code: "ERR_UNCHECKED_EXCEPTION", reason: "boom",
 * });
 * ```
 */
export function uncheckedException(reason: string): TerrainError {
  return new TerrainError(500, { error_code: "ERR_UNCHECKED_EXCEPTION", reason });
}

/**
 * The search service's refusal: `400` with its `{"error": message}` body.
 *
 * @example
 * ```ts
 * import { searchRefused } from "./errors.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(searchRefused("EOF").body, { error: "EOF" });
 * ```
 */
export function searchRefused(message: string): TerrainError {
  return new TerrainError(400, { error: message });
}
