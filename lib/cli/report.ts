/**
 * How failures reach the user: one `error:` line with the error's type and message, a `hint:`
 * for the common fixes, and the exit status. Stack traces only with `--debug`. Messages come
 * from the library's typed errors, which never hold a credential.
 *
 * @module
 */

import {
  AuthError,
  CacheMissError,
  isAbortError,
  NetworkError,
  NotFoundError,
  PermissionError,
  SignInRequiredError,
  TernError,
  TlsError,
  UnsupportedFormatError,
} from "../../mod.ts";
import { UsageError } from "./args.ts";
import { isItemFailure } from "./command.ts";
import { redactUrl } from "../client/auth.ts";
import { safeText, type Styles } from "./format.ts";
import { PromptCancelledError } from "./io.ts";

/**
 * Exit statuses.
 *
 * @example
 * ```ts
 * import { EXIT } from "./report.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(EXIT.ok, 0);
 * assert.equal(EXIT.failed, 1);
 * assert.equal(EXIT.usage, 2);
 * assert.equal(EXIT.interrupted, 130);
 * ```
 */
export const EXIT: Readonly<{ ok: 0; failed: 1; usage: 2; interrupted: 130 }> = Object.freeze({
  ok: 0,
  failed: 1,
  usage: 2,
  interrupted: 130,
});

/**
 * A failure as printed: its lines (for stderr) and the exit status it leads to.
 *
 * @example
 * ```ts
 * import type { Failure } from "./report.ts";
 *
 * const failure: Failure = { lines: ["error: NotFoundError: …"], status: 1 };
 * ```
 */
export interface Failure {
  /** Lines for stderr, without line breaks. */
  lines: string[];
  /** Exit status: 1, 2 or 130. */
  status: number;
}

/**
 * Describes a failure for stderr.
 *
 * - A {@linkcode UsageError}: `error: <what>` (the caller adds the usage line); status 2.
 * - The library's typed errors: `error: NotFoundError: <message>` and, where a common fix
 *   exists, a `hint:` (how to sign in, wherever an `anonymous` caller was refused, and, outside
 *   the community folder, that the path may not exist at all); status 1.
 * - An interruption (Ctrl-C): `interrupted`; status 130.
 * - Local file errors (a destination that cannot be written): their message; status 1.
 * - Anything else is a bug in tern: `error: internal error: <message>`; status 1.
 *
 * With `debug`, the stack and the chain of causes follow.
 *
 * @example
 * ```ts
 * import { describeFailure } from "./report.ts";
 * import { styles } from "./format.ts";
 * import { NotFoundError, PermissionError, SignInRequiredError } from "../../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const failure = describeFailure(new NotFoundError('"/iplant/home/x" does not exist.'), {
 *   debug: false,
 *   style: styles(false),
 * });
 * assert.equal(failure.status, 1);
 * assert.equal(failure.lines[0], 'error: NotFoundError: "/iplant/home/x" does not exist.');
 *
 * // An anonymous caller refused: the hint says how to sign in.
 * const refused = describeFailure(new PermissionError('You may not read "/iplant/home/alice".'), {
 *   debug: false,
 *   style: styles(false),
 *   anonymous: true,
 * });
 * assert.match(refused.lines[1], /^hint: sign in with --token/);
 *
 * // Outside the community folder, a refusal may as well mean "not there".
 * const outside = describeFailure(
 *   new SignInRequiredError("Sign-in needed.", { path: "/measurements.csv" }),
 *   { debug: false, style: styles(false), anonymous: true },
 * );
 * assert.match(outside.lines[1], /the path may not exist at all/);
 * ```
 */
export function describeFailure(
  error: unknown,
  options: { debug: boolean; style: Styles; url?: string; anonymous?: boolean },
): Failure {
  const { style } = options;
  const label = style.error("error:");
  let failure: Failure;
  if (error instanceof UsageError) {
    failure = { lines: [`${label} ${safeText(error.message)}`], status: EXIT.usage };
  } else if (isAbortError(error) || error instanceof PromptCancelledError) {
    failure = { lines: ["interrupted"], status: EXIT.interrupted };
  } else if (error instanceof TernError) {
    const hint = hintFor(error, options.url, options.anonymous === true);
    failure = {
      lines: [
        `${label} ${error.name}: ${safeText(error.message)}`,
        ...(hint === undefined ? [] : [`${style.dim("hint:")} ${hint}`]),
      ],
      status: EXIT.failed,
    };
  } else if (isItemFailure(error) || error instanceof Deno.errors.NotCapable) {
    // Tern's errors went above: these are a local file's, and their message names the file.
    failure = { lines: [`${label} ${safeText((error as Error).message)}`], status: EXIT.failed };
  } else {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    failure = {
      lines: [
        `${label} internal error: ${safeText(message)}`,
        ...(options.debug ? [] : [
          `${style.dim("hint:")} this is a bug in tern; run again with --debug for details and ` +
          "report it",
        ]),
      ],
      status: EXIT.failed,
    };
  }
  if (options.debug && error instanceof Error && !(error instanceof UsageError)) {
    failure.lines.push(...debugLines(error));
  }
  return failure;
}

/** The community folder, the only place anonymous callers may list. */
const COMMUNITY_DATA = "/iplant/home/shared";

function hintFor(
  error: TernError,
  url: string | undefined,
  anonymous: boolean,
): string | undefined {
  // Terrain refuses an anonymous caller with 401, 403 or ERR_NOT_READABLE depending on the
  // endpoint; whichever it was, signing in is the fix, unless the path is not there at all:
  // outside the community folder Terrain refuses anonymous callers whether it exists or not.
  if (error instanceof SignInRequiredError || (anonymous && error instanceof PermissionError)) {
    const signIn = "sign in with --token TOKEN (or TERRAIN_TOKEN), or --username NAME " +
      "(password from TERRAIN_PASSWORD or a prompt)";
    const path = error.path;
    if (path === undefined || !path.startsWith("/") || path.startsWith(`${COMMUNITY_DATA}/`)) {
      return signIn;
    }
    return `${signIn}; or the path may not exist at all: outside ${COMMUNITY_DATA}, Terrain ` +
      `refuses anonymous callers whether a path exists or not ("tern ls ${COMMUNITY_DATA}" ` +
      "shows the public data)";
  }
  if (error instanceof AuthError) {
    // No endpoint: refused before any request (an empty token, or one that is no JWT).
    if (error.endpoint === undefined) {
      return "pass the access token itself (--token or TERRAIN_TOKEN), or sign in with " +
        "--username NAME";
    }
    return error.endpoint.startsWith("token")
      ? "check the username and password (TERRAIN_USERNAME, TERRAIN_PASSWORD)"
      : "the token may have expired: get a new one, or sign in with --username NAME";
  }
  if (error instanceof TlsError) return "correct the URL in --url or TERRAIN_URL";
  if (error instanceof NetworkError) {
    const where = url === undefined ? "" : ` at ${safeText(redactUrl(url))}`;
    return `check that the server is reachable${where} (--url or TERRAIN_URL)`;
  }
  if (error instanceof NotFoundError && error.path !== undefined && error.path.startsWith("/")) {
    const parent = error.path.slice(0, error.path.lastIndexOf("/")) || "/";
    return `paths are case-sensitive; "tern ls ${safeText(parent)}" shows what is there`;
  }
  if (error instanceof UnsupportedFormatError) {
    return '"tern cat" prints any file\'s bytes';
  }
  if (error instanceof CacheMissError) {
    return "the file is not in the local cache; run without offline mode to download it";
  }
  return undefined;
}

function debugLines(error: Error): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const stack = current.stack ?? `${current.name}: ${current.message}`;
    lines.push(...(depth === 0 ? stack : `caused by: ${stack}`).split("\n").map(safeText));
    current = current.cause;
  }
  if (current !== undefined && !(current instanceof Error)) {
    lines.push(`caused by: ${safeText(String(current))}`);
  }
  return lines;
}
