/**
 * The view of a tern error: its type, the sentence saying what failed and where, the path,
 * Terrain's error code, the HTTP status and endpoint, and what usually fixes it. Never a stack
 * trace, never the cause's internals (which could hold request details).
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { oneLine, plainText } from "./format.ts";
import { type Html, markup } from "./html.ts";
import { bounded, card, LIMITS, mono, pairs } from "./parts.ts";
import { textPairs } from "./text.ts";

/**
 * What an error view shows: the public fields of a `TernError`.
 *
 * @example
 * ```ts
 * import type { ErrorView } from "./error.ts";
 *
 * const view: ErrorView = {
 *   name: "NotFoundError", message: '"/iplant/home/demo/x" does not exist or is not visible to you.',
 *   path: "/iplant/home/demo/x", code: "ERR_DOES_NOT_EXIST", status: 500,
 *   endpoint: "filesystem/paged-directory",
 * };
 * ```
 */
export interface ErrorView {
  /** The error class (`NotFoundError`). */
  name: string;
  /** What failed, and where. */
  message: string;
  /** Data-store path or id concerned. */
  path?: string;
  /** Terrain `error_code`. */
  code?: string;
  /** HTTP status. */
  status?: number;
  /** Terrain endpoint. */
  endpoint?: string;
}

/** What usually fixes each kind of error, by class name (subclasses fall back to their base). */
const HINTS: Record<string, string> = {
  NotFoundError: "Check the path (data-store paths are case-sensitive) and that you may see it.",
  PermissionError: "Ask the owner to share the item, or sign in as a user who can read it.",
  SignInRequiredError:
    "Sign in: connect({ token }) or connect({ username, password }), or set TERRAIN_TOKEN.",
  AuthError: "The credentials were refused: get a fresh token or check the password.",
  BadRequestError: "Check the argument named in the message.",
  ServerError: "The server failed and retries did not help; try again later.",
  NetworkError: "The server could not be reached or stalled; check the URL and the connection.",
  ProtocolError: "The server answered something unexpected; is this a Terrain gateway?",
  ListingChangedError: "The folder changed while it was being listed; list it again.",
  CacheMissError:
    "The store is offline and the file is not cached; connect online once to cache it.",
  IntegrityError:
    "The bytes never matched the listed size; the file may be changing — retry later.",
  FileChangedError: "The file changed on the server during the read; read it again.",
  UnsupportedFormatError: "Pass format: … or filter the listing to table files (glob, infoType).",
  ParseError: "Pass dtypes, sep or other reader options to match the file.",
  ContentError: "Use bytes() for binary files.",
};

/**
 * Renders an error as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderError } from "./error.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderError({ name: "NotFoundError", message: "Nothing at /x.", path: "/x" });
 * assert.equal(out["text/plain"].split("\n")[0], "NotFoundError: Nothing at /x.");
 * ```
 */
export function renderError(view: ErrorView): MediaBundle {
  return bundle(errorHtml(view), errorText(view));
}

/** The error card's markup, for views that embed an error (a folder that could not be read). */
function errorHtml(view: ErrorView): Html {
  const hint = HINTS[view.name];
  return card(
    { kind: "Error", title: view.name },
    markup`<div class="t-desc">${bounded(view.message, LIMITS.long)}</div>${
      pairs([
        [
          "path",
          view.path === undefined
            ? undefined
            : markup`<span class="t-mono"><bdi>${bounded(view.path, LIMITS.name)}</bdi></span>`,
        ],
        ["code", mono(view.code, 80)],
        ["status", view.status === undefined ? undefined : `HTTP ${view.status}`],
        ["endpoint", mono(view.endpoint, 120)],
      ])
    }${hint === undefined ? "" : markup`<div class="t-more">${hint}</div>`}`,
    "t-error",
  );
}

/** The error in plain text: `Name: message` and its fields, one per line. */
function errorText(view: ErrorView): string {
  const fields = textPairs([
    ["path", view.path],
    ["code", view.code],
    ["status", view.status === undefined ? undefined : `HTTP ${view.status}`],
    ["endpoint", view.endpoint],
  ]);
  const head = `${oneLine(view.name)}: ${plainText(view.message)}`;
  return fields === "" ? head : `${head}\n${fields}`;
}
