/**
 * Typed errors raised by the Terrain client, and the mapping from Terrain's error answers to them.
 *
 * Terrain reports most failures as HTTP 500 with an `error_code` (for example a missing path is
 * `500 ERR_DOES_NOT_EXIST`), so the status alone says little; {@linkcode errorFromResponse}
 * reads the code and the context keys (`path`, `paths`, `uuid`, `reason`, `message`) to pick the
 * right class and to name the data-store path in the message.
 *
 * @module
 */

import { visibleText } from "../registry/visible_text.ts";
import { definedOf } from "./defined.ts";

/**
 * Context attached to every {@linkcode TernError}.
 *
 * @example
 * ```ts
 * import type { TernErrorDetails } from "./errors.ts";
 *
 * const details: TernErrorDetails = { status: 500, code: "ERR_DOES_NOT_EXIST", path: "/iplant/home/demo/x" };
 * ```
 */
export interface TernErrorDetails {
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** Terrain `error_code` (for example `ERR_DOES_NOT_EXIST`), when the body carried one. */
  code?: string;
  /** Data-store path or id the failed request concerned. */
  path?: string;
  /** Terrain endpoint that failed, for example `filesystem/paged-directory`. */
  endpoint?: string;
  /** Every path or id the answer named, when it named a list (a `stat` names each one). */
  items?: readonly string[];
  /** The underlying error; never holds credentials. */
  cause?: unknown;
}

/**
 * Base class of every error the client raises on purpose.
 *
 * @example Catch any client failure
 * ```ts
 * import { TernError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new TernError("Something went wrong.", { status: 500, path: "/iplant/home/demo" });
 * assert.ok(err instanceof Error);
 * assert.equal(err.status, 500);
 * assert.equal(err.path, "/iplant/home/demo");
 * ```
 */
export class TernError extends Error {
  /** HTTP status of the answer, when there was one. */
  readonly status?: number;
  /** Terrain `error_code`, when the body carried one. */
  readonly code?: string;
  /** Data-store path or id the failed request concerned. */
  readonly path?: string;
  /** Terrain endpoint that failed. */
  readonly endpoint?: string;
  /** Every path or id the answer named, when it named a list (a `stat` names each one). */
  readonly items?: readonly string[];

  /**
   * Creates an error; fields left out of `details` stay `undefined`.
   *
   * @param message A sentence saying what failed and where.
   * @param details Status, code, path, endpoint and cause; all optional.
   *
   * @example
   * ```ts
   * import { TernError } from "./errors.ts";
   * import assert from "node:assert/strict";
   *
   * const err = new TernError("Listing failed.", { endpoint: "filesystem/paged-directory" });
   * assert.equal(err.endpoint, "filesystem/paged-directory");
   * ```
   */
  constructor(message: string, details: TernErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    Object.assign(this, definedOf(details, ["status", "code", "path", "endpoint", "items"]));
  }

  /** A plain object for logs and JSON output (no cause, no stack). */
  toJSON(): Record<string, unknown> {
    const { name, message, status, code, path, endpoint, items } = this;
    return { name, message, status, code, path, endpoint, items };
  }
}

/**
 * The path or id does not exist, or the caller cannot see it (Terrain does not distinguish).
 *
 * @example
 * ```ts
 * import { NotFoundError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new NotFoundError("/iplant/home/demo/nope does not exist.", { path: "/iplant/home/demo/nope" });
 * assert.equal(err.name, "NotFoundError");
 * ```
 */
export class NotFoundError extends TernError {}

/**
 * The item exists but the caller may not read it (or the server forbids the operation).
 *
 * @example
 * ```ts
 * import { PermissionError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new PermissionError("You may not read /iplant/home/alice.", { status: 500 });
 * assert.equal(err.status, 500);
 * ```
 */
export class PermissionError extends TernError {}

/**
 * The credentials were refused: wrong username or password, or an expired or untrusted token.
 *
 * @example
 * ```ts
 * import { AuthError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new AuthError("The access token was rejected: it has expired.", { status: 403 });
 * assert.ok(err instanceof Error);
 * ```
 */
export class AuthError extends TernError {}

/**
 * The operation needs a signed-in user and the client is anonymous.
 *
 * @example
 * ```ts
 * import { AuthError, SignInRequiredError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new SignInRequiredError("Sign-in needed for filesystem/root.");
 * assert.ok(err instanceof AuthError);
 * ```
 */
export class SignInRequiredError extends AuthError {}

/**
 * The store's search is turned off: the deployment answers `filesystem/search` with 403 "Data
 * search is not enabled in this deployment". Browsing folders still works.
 *
 * @example
 * ```ts
 * import { PermissionError, SearchDisabledError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new SearchDisabledError("Search is not enabled on this store.", { status: 403 });
 * assert.ok(err instanceof PermissionError);
 * ```
 */
export class SearchDisabledError extends PermissionError {}

/**
 * The request was invalid: a bad argument, or the wrong kind of entry (a file where a folder was
 * expected, or the other way round).
 *
 * @example
 * ```ts
 * import { BadRequestError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new BadRequestError("limit must be a positive integer, got 0.", { path: "/iplant/home/demo" });
 * assert.equal(err.message, "limit must be a positive integer, got 0.");
 * ```
 */
export class BadRequestError extends TernError {}

/**
 * The server failed (a 5xx, or 429 that did not clear) and retries did not help.
 *
 * @example
 * ```ts
 * import { ServerError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new ServerError("filesystem/root failed on the server (HTTP 503).", { status: 503 });
 * assert.equal(err.status, 503);
 * ```
 */
export class ServerError extends TernError {}

/**
 * The server could not be reached, did not answer in time, or sent a body that stalled or ended
 * early, and retries did not help.
 *
 * @example
 * ```ts
 * import { NetworkError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new NetworkError("No answer from 127.0.0.1:8080 within 30 s.");
 * assert.equal(err.name, "NetworkError");
 * ```
 */
export class NetworkError extends TernError {}

/**
 * The TLS handshake failed in a way no retry can mend: the server answered in plain HTTP (its
 * URL should start with `http://`), or its certificate was not accepted. Never retried.
 *
 * @example
 * ```ts
 * import { NetworkError, TlsError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new TlsError("127.0.0.1:8080 speaks plain HTTP: use http://127.0.0.1:8080/terrain.");
 * assert.ok(err instanceof NetworkError);
 * ```
 */
export class TlsError extends NetworkError {}

/**
 * The server answered with a body that does not match what the endpoint promises.
 *
 * @example
 * ```ts
 * import { ProtocolError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new ProtocolError('filesystem/root answered an unexpected body: at "roots": expected array, got null.');
 * assert.equal(
 *   err.message,
 *   'filesystem/root answered an unexpected body: at "roots": expected array, got null.',
 * );
 * ```
 */
export class ProtocolError extends TernError {}

/**
 * A JSON answer larger than the transport's `maxJsonBytes`: reading stopped there, so a hostile
 * or broken server streaming without end cannot exhaust memory. Not retried.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProtocolError, ResponseTooLargeError } from "./errors.ts";
 *
 * const error = new ResponseTooLargeError("too large", { endpoint: "filesystem/paged-directory" });
 * assert.ok(error instanceof ProtocolError);
 * assert.equal(error.endpoint, "filesystem/paged-directory");
 * ```
 */
export class ResponseTooLargeError extends ProtocolError {}

/**
 * The server refused a request as too large (HTTP 413, 414 or 431: a path, query or header
 * longer than it accepts; `ERR_TOO_MANY_RESULTS`: a `stat` of more items than it answers at
 * once), or the request was too large to send at all (a URL longer than fetch carries). Not
 * retried: the same request would be refused again.
 *
 * @example
 * ```ts
 * import { BadRequestError, RequestTooLargeError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new RequestTooLargeError("The request was too large.", { status: 431 });
 * assert.ok(err instanceof BadRequestError);
 * assert.equal(err.name, "RequestTooLargeError");
 * ```
 */
export class RequestTooLargeError extends BadRequestError {}

/**
 * The error an aborted operation rejects with: the signal's reason when it is already an
 * `AbortError` DOMException, otherwise a new `AbortError` whose cause is that reason.
 *
 * @example
 * ```ts
 * import { abortError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const controller = new AbortController();
 * controller.abort();
 * assert.equal(abortError(controller.signal).name, "AbortError");
 * ```
 */
export function abortError(signal: AbortSignal): DOMException {
  const reason = signal.reason;
  if (reason instanceof DOMException && reason.name === "AbortError") return reason;
  const error = new DOMException("The operation was aborted.", "AbortError");
  if (reason !== undefined) Object.defineProperty(error, "cause", { value: reason });
  return error;
}

/**
 * Whether `error` is the `AbortError` of an aborted operation.
 *
 * @example
 * ```ts
 * import { isAbortError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isAbortError(new DOMException("stop", "AbortError")));
 * ```
 */
export function isAbortError(error: unknown): error is DOMException {
  return error instanceof DOMException && error.name === "AbortError";
}

/**
 * What {@linkcode errorFromResponse} needs to know about a failed answer.
 *
 * @example
 * ```ts
 * import type { FailedResponse } from "./errors.ts";
 *
 * const failed: FailedResponse = {
 *   status: 401,
 *   body: { error_code: "ERR_NOT_AUTHORIZED", reason: null },
 *   endpoint: "filesystem/root",
 *   authenticated: false,
 * };
 * ```
 */
export interface FailedResponse {
  /** HTTP status. */
  status: number;
  /** The body parsed as JSON when possible, else its text (possibly empty). */
  body: unknown;
  /** Endpoint name, for example `filesystem/directory`. */
  endpoint: string;
  /** Path or id the request concerned. */
  subject?: string;
  /** Whether the request carried credentials (decides between sign-in needed and refused). */
  authenticated: boolean;
  /** How many attempts were made, mentioned when more than one. */
  attempts?: number;
  /** The base URL asked (without credentials), named when no Terrain API seems to be there. */
  baseUrl?: string;
}

/** What Terrain's catch-all route says, before anything else, to a request it cannot route. */
const UNROUTED_401 = "No user authentication information found in request";

const NOT_FOUND_CODES: ReadonlySet<string> = new Set([
  "ERR_DOES_NOT_EXIST",
  "ERR_NOT_FOUND",
  "ERR_NOT_A_USER",
]);
const BAD_REQUEST_CODES: ReadonlySet<string> = new Set([
  "ERR_ILLEGAL_ARGUMENT",
  "ERR_BAD_OR_MISSING_FIELD",
  "ERR_MISSING_QUERY_PARAMETER",
]);

/**
 * The Terrain `error_code` of a failed answer's body, if it has one.
 *
 * @example
 * ```ts
 * import { errorCodeOf } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   errorCodeOf({ error_code: "ERR_DOES_NOT_EXIST", path: "/x" }),
 *   "ERR_DOES_NOT_EXIST",
 * );
 * assert.equal(errorCodeOf("gateway timeout"), undefined);
 * ```
 */
export function errorCodeOf(body: unknown): string | undefined {
  const code = isRecord(body) ? body.error_code : undefined;
  return typeof code === "string" && code !== "" ? code : undefined;
}

/**
 * Whether an answer says no Terrain API is at the base URL: Terrain's catch-all for paths it
 * cannot route asks anonymous callers to sign in, even for routes it serves anonymously (the
 * only routes tern calls without credentials); and a server that is not Terrain answers 404
 * without Terrain's JSON. (A Terrain that lacks one feature answers 404 with its JSON reason
 * "unrecognized service path": that endpoint is missing, not the API.)
 */
function unrouted(failed: FailedResponse, reason: string | undefined): boolean {
  if (failed.status === 401) return !failed.authenticated && reason === UNROUTED_401;
  return failed.status === 404 && !isRecord(failed.body);
}

/**
 * Whether a failed answer says the token itself was the problem (expired, badly signed, missing
 * claims, or not accepted at all), so that a fresh token may help.
 *
 * @example
 * ```ts
 * import { isTokenProblem } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   isTokenProblem(403, { error_code: "ERR_FORBIDDEN", reason: "Token is expired (1700000000)" }),
 *   true,
 * );
 * assert.equal(
 *   isTokenProblem(403, { error_code: "ERR_FORBIDDEN", reason: "Data search is not enabled" }),
 *   false,
 * );
 * ```
 */
export function isTokenProblem(status: number, body: unknown): boolean {
  if (status === 401) return true;
  if (status !== 403) return false;
  return /token|jwt/i.test(reasonOf(body) ?? "");
}

/**
 * What a {@linkcode SignInRequiredError} tells an anonymous caller to do, naming the variables
 * `connect()` and the `tern` command read: a token taken from an unset variable leaves a store
 * anonymous.
 *
 * @example
 * ```ts
 * import { SIGN_IN_HINT } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(SIGN_IN_HINT, /TERRAIN_TOKEN/);
 * ```
 */
export const SIGN_IN_HINT: string =
  "Pass a token or a username and password (when none is given, tern reads TERRAIN_TOKEN, or " +
  "TERRAIN_USERNAME and TERRAIN_PASSWORD).";

/**
 * Turns a failed Terrain answer into the matching typed error.
 *
 * Mapping: `ERR_DOES_NOT_EXIST`/`ERR_NOT_FOUND`/404 → {@linkcode NotFoundError};
 * `ERR_NOT_READABLE` and non-token 403 → {@linkcode PermissionError}; 401 and token 403 →
 * {@linkcode AuthError} (or {@linkcode SignInRequiredError} when no credentials were sent);
 * 400, `ERR_ILLEGAL_ARGUMENT`, `ERR_BAD_OR_MISSING_FIELD`, `ERR_NOT_A_FOLDER`, `ERR_NOT_A_FILE` →
 * {@linkcode BadRequestError}; 413, 414 and 431 → {@linkcode RequestTooLargeError}; the
 * downloads' `ERR_REQUEST_FAILED` → not found (or wrong kind when the downstream said "bad
 * request"); other 5xx and 429 → {@linkcode ServerError}.
 *
 * @example
 * ```ts
 * import { errorFromResponse } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const err = errorFromResponse({
 *   status: 500,
 *   body: { error_code: "ERR_DOES_NOT_EXIST", path: "/iplant/home/demo/nope" },
 *   endpoint: "filesystem/paged-directory",
 *   authenticated: true,
 * });
 * assert.equal(err.name, "NotFoundError");
 * assert.equal(err.path, "/iplant/home/demo/nope");
 * ```
 */
export function errorFromResponse(failed: FailedResponse): TernError {
  const { status, body, endpoint } = failed;
  const code = errorCodeOf(body);
  const items = itemsOf(body);
  const path = items?.[0] ?? pathOf(body) ?? failed.subject;
  const details: TernErrorDetails = { status, code, path, endpoint, ...(items && { items }) };
  const more = items !== undefined && items.length > 1 ? ` (and ${items.length - 1} more)` : "";
  const where = path === undefined ? "" : ` ${quoteInput(path)}${more}`;
  const via = ` (${endpoint}${status ? `, HTTP ${status}` : ""}${code ? ` ${code}` : ""})`;
  const reason = reasonOf(body);
  const user = isRecord(body) && typeof body.user === "string" ? body.user : undefined;

  if (unrouted(failed, reason)) {
    const base = failed.baseUrl === undefined ? "this base URL" : quoteInput(failed.baseUrl);
    return new ProtocolError(
      `No Terrain API answers at ${base}: the server does not know the ${endpoint} route` +
        `${via}. Check the base URL; Terrain's ends in /terrain (for CyVerse, ` +
        "https://de.cyverse.org/terrain).",
      details,
    );
  }
  if (code === "ERR_NOT_A_FOLDER" || code === "ERR_NOT_A_FILE") {
    const [is, not] = code === "ERR_NOT_A_FILE" ? ["folder", "file"] : ["file", "folder"];
    return new BadRequestError(`${label(path)} is a ${is}, not a ${not}${via}.`, details);
  }
  if (code === "ERR_NOT_READABLE" || (code === "ERR_NOT_AUTHORIZED" && status !== 401)) {
    const who = user === undefined ? "You are" : `User ${quoteInput(user)} is`;
    return new PermissionError(
      `${who} not allowed to read${where || " this item"}${via}.`,
      details,
    );
  }
  if (code !== undefined && NOT_FOUND_CODES.has(code)) {
    // iRODS paths begin with the zone; one copied from a home folder's view often lacks it.
    const zoneless = /^\/(home|shared|trash)(\/|$)/.test(path ?? "")
      ? ' Data-store paths start with the zone: "/iplant/home/…" on CyVerse.'
      : "";
    return new NotFoundError(
      `${label(path)}${more} ${more ? "do" : "does"} not exist or ${
        more ? "are" : "is"
      } not visible to you${via}.${zoneless}`,
      details,
    );
  }
  if (code === "ERR_TOO_MANY_RESULTS") {
    const record = isRecord(body) ? body : {};
    return new RequestTooLargeError(
      `The server answers at most ${String(record.limit)} items at once and was asked for ` +
        `${String(record.count)}${via}: ask in smaller batches.`,
      details,
    );
  }
  if (code === "ERR_REQUEST_FAILED") {
    // Downloads report data-info's failures this way; "bad request" there means the path is a
    // folder (data-info wanted listing parameters), anything else a missing or unreadable file.
    if (/bad request/i.test(reason ?? "")) {
      return new BadRequestError(`${label(path)} is not a file (is it a folder?)${via}.`, details);
    }
    return new NotFoundError(
      `${label(path)} does not exist or you may not read it${via}.`,
      details,
    );
  }
  if (status === 413 || status === 414 || status === 431) {
    const what = status === 414
      ? "URL"
      : status === 431
      ? "request head (URL and headers)"
      : "request";
    return new RequestTooLargeError(
      `The request${where} was too large for the server: its ${what} is longer than the ` +
        `server accepts${via}. Use a shorter path or name.`,
      details,
    );
  }
  if (status === 400 || (code !== undefined && BAD_REQUEST_CODES.has(code))) {
    return new BadRequestError(
      `The server refused the request${where}${via}: ${reason ?? "invalid arguments"}.`,
      details,
    );
  }
  if (status === 401) {
    if (!failed.authenticated) {
      return new SignInRequiredError(
        `Sign-in needed for ${endpoint}${where}: anonymous access is not allowed there. ` +
          SIGN_IN_HINT,
        details,
      );
    }
    return new AuthError(
      `The server did not accept the credentials${via}${reason ? `: ${reason}` : ""}.`,
      details,
    );
  }
  if (status === 403) {
    if (isTokenProblem(status, body)) {
      return new AuthError(`The access token was rejected${via}: ${reason}.`, details);
    }
    if (/search is not enabled/i.test(reason ?? "")) {
      return new SearchDisabledError(
        `Search is not enabled on this store${via}: ${reason}. Browse folders instead.`,
        details,
      );
    }
    return new PermissionError(
      `The server forbids this request${where}${via}${reason ? `: ${reason}` : ""}.`,
      details,
    );
  }
  if (status === 404 || status === 410) {
    if (/unrecognized service path/i.test(reason ?? "")) {
      return new NotFoundError(
        `This server does not offer ${endpoint} (HTTP ${status}: unrecognized service path).`,
        details,
      );
    }
    return new NotFoundError(`${label(path)} was not found${via}.`, details);
  }
  const tries = failed.attempts !== undefined && failed.attempts > 1
    ? ` after ${failed.attempts} attempts`
    : "";
  if (status === 429) {
    return new ServerError(
      `The server kept refusing requests as too many (${endpoint}, HTTP 429)${tries}.`,
      details,
    );
  }
  if (status >= 500) {
    return new ServerError(
      `${endpoint} failed on the server${where}${via}${tries}${reason ? `: ${reason}` : ""}.`,
      details,
    );
  }
  if (status >= 400) {
    return new BadRequestError(
      `The server refused the request${where}${via}${reason ? `: ${reason}` : ""}.`,
      details,
    );
  }
  return new ProtocolError(`Unexpected HTTP status ${status} from ${endpoint}${where}.`, details);
}

/**
 * Cuts `text` to at most `max` characters, marking the cut with an ellipsis.
 *
 * @example
 * ```ts
 * import { truncate } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(truncate("abcdefghij", 5), "abcd…");
 * ```
 */
export function truncate(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Most characters of an input an error message shows. */
const QUOTED_CHARS = 200;

/**
 * Made with the first message that quotes an input (a lazily built immutable singleton): building
 * a segmenter loads ICU's break rules, which every process would otherwise pay for when it
 * imports tern.
 */
let graphemes: Intl.Segmenter | undefined;

/**
 * An input (a path, a name, a URL) quoted for an error message: in double quotes with JSON's
 * escapes, at most 200 visible characters of it (a longer one is cut with `…` and its length
 * said), and bidirectional controls, zero-width and other invisible characters shown as escapes
 * (`\u{202e}`, by the one rule of `visibleText`), so the message shows what the input really
 * holds and cannot be reordered or padded by it. Every message that echoes an input quotes it with this. A value that is not
 * a string is shown as JSON writes it, unquoted.
 *
 * @example
 * ```ts
 * import { quoteInput } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(quoteInput("/iplant/home/shared/a.csv"), '"/iplant/home/shared/a.csv"');
 * assert.equal(quoteInput("evil\u202Egnp.exe"), '"evil\\u{202e}gnp.exe"');
 * assert.equal(quoteInput("x".repeat(500_000)), `"${"x".repeat(200)}…" (500000 characters)`);
 * assert.equal(quoteInput(undefined), "undefined");
 * ```
 */
export function quoteInput(value: unknown, max = QUOTED_CHARS): string {
  // Not a string (a wrong argument): shown as JSON would write it, without the quotes a string
  // gets, under the same limits.
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  let kept = "";
  let count = 0;
  let cut = false;
  // Only the part shown is segmented: inputs may be megabytes long.
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  for (const { segment } of graphemes.segment(text.slice(0, max * 16))) {
    if (count === max) {
      cut = true;
      break;
    }
    kept += segment;
    count++;
  }
  if (!cut && kept.length < text.length) cut = true;
  const quoted = visibleText(typeof value === "string" ? JSON.stringify(kept) : kept);
  if (!cut) return quoted;
  const open = typeof value === "string" ? `${quoted.slice(0, -1)}…"` : `${quoted}…`;
  return `${open} (${text.length} characters)`;
}

function label(path: string | undefined): string {
  return path === undefined ? "The item" : quoteInput(path);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The paths or ids a Terrain error body lists (`paths`, or a stat's `ids`), if it lists any. */
function itemsOf(body: unknown): string[] | undefined {
  if (!isRecord(body)) return undefined;
  const list = Array.isArray(body.paths) ? body.paths : Array.isArray(body.ids) ? body.ids : [];
  const items = list.filter((item): item is string => typeof item === "string" && item !== "");
  return items.length === 0 ? undefined : items;
}

/** The data-store path or id named by a Terrain error body (`path`, `paths[0]` or `uuid`). */
function pathOf(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (typeof body.path === "string" && body.path !== "") return body.path;
  if (Array.isArray(body.paths) && typeof body.paths[0] === "string") return body.paths[0];
  if (typeof body.uuid === "string" && body.uuid !== "") return body.uuid;
  return undefined;
}

/** A one-line human reason from `reason`, `message`, Keycloak's `error_description` or text. */
function reasonOf(body: unknown): string | undefined {
  if (typeof body === "string") {
    const text = body.trim();
    return text === "" ? undefined : truncate(text.replace(/\s+/g, " "));
  }
  if (!isRecord(body)) return undefined;
  const candidate = body.reason ?? body.message ?? body.error_description ?? body.error;
  if (typeof candidate === "string") {
    // Reasons are embedded in our own sentences, so drop their final full stop.
    const text = candidate.trim().replace(/\.$/, "");
    return text === "" ? undefined : truncate(text);
  }
  if (isRecord(candidate)) {
    // Schema validation failures name each parameter: {"limit": "missing-required-key"}.
    const parts = Object.entries(candidate).map(([key, value]) =>
      `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`
    );
    return parts.length === 0 ? undefined : truncate(parts.join("; "), 300);
  }
  if (Array.isArray(body.fields)) return `missing or bad field(s): ${body.fields.join(", ")}`;
  return undefined;
}
