/**
 * Opening the store the global options describe: the URL, the credentials (flags first, then
 * the same environment variables as `connect()`, then a password prompt on a terminal) and the
 * local cache. Mistakes here are usage errors, found before any request.
 *
 * @module
 */

import { BadRequestError, type ConnectOptions, type Store } from "../../mod.ts";
import { type ParsedArgs, stringOption, UsageError } from "./args.ts";
import { type CliIo, envVar, localPath } from "./io.ts";
import { connectIn } from "../handles/connect.ts";
import { redactUrl } from "../client/auth.ts";
import { safeText } from "./format.ts";
import { quoteInput } from "../client/errors.ts";

/**
 * The store options given on the command line.
 *
 * @example
 * ```ts
 * import type { StoreFlags } from "./session.ts";
 *
 * const flags: StoreFlags = { url: "http://127.0.0.1:8080/terrain", anonymous: true, noCache: false };
 * ```
 */
export interface StoreFlags {
  /** `--url`. */
  url?: string;
  /** `--token`. */
  token?: string;
  /** `--username`. */
  username?: string;
  /** `--anonymous`. */
  anonymous: boolean;
  /** `--cache-dir`. */
  cacheDir?: string;
  /** `--no-cache`. */
  noCache: boolean;
}

/**
 * Reads the store options from parsed arguments and checks that they fit together.
 *
 * @throws {UsageError} for combinations that contradict each other, or empty values.
 *
 * @example
 * ```ts
 * import { storeFlags } from "./session.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(storeFlags({ anonymous: true }).anonymous);
 * ```
 */
export function storeFlags(values: ParsedArgs["values"]): StoreFlags {
  const flags: StoreFlags = {
    anonymous: values.anonymous === true,
    noCache: values["no-cache"] === true,
  };
  for (
    const [name, key] of [["url", "url"], ["token", "token"], ["username", "username"], [
      "cache-dir",
      "cacheDir",
    ]] as const
  ) {
    const value = stringOption(values, name);
    if (value === undefined) continue;
    if (value.trim() === "") throw new UsageError(`--${name} needs a non-empty value`);
    flags[key] = value;
  }
  if (flags.anonymous && (flags.token !== undefined || flags.username !== undefined)) {
    throw new UsageError("--anonymous cannot be combined with --token or --username");
  }
  if (flags.token !== undefined && flags.username !== undefined) {
    throw new UsageError("use either --token or --username, not both");
  }
  if (flags.noCache && flags.cacheDir !== undefined) {
    throw new UsageError("--cache-dir and --no-cache cannot be combined");
  }
  return flags;
}

/**
 * Opens the store. Credentials, first found wins: `--anonymous`; `--token`; `--username` with
 * `TERRAIN_PASSWORD` or, on a terminal, a prompt that does not echo; then the environment as
 * `connect()` reads it (`TERRAIN_TOKEN`, else `TERRAIN_USERNAME` with `TERRAIN_PASSWORD` or the
 * prompt); else anonymous. The environment is the command's ({@linkcode CliIo.env}, else the
 * process's), and so is the folder a relative `--cache-dir` is taken from. Sends nothing: a
 * password is checked by the first request.
 * `progress` lets the library draw its own progress lines on a terminal's stderr.
 *
 * @throws {UsageError} for a bad URL, or a username without a password where nobody can be
 * asked for one.
 *
 * @example
 * ```ts
 * import { processIo } from "./io.ts";
 * import { openStore, storeFlags } from "./session.ts";
 * import assert from "node:assert/strict";
 *
 * const url = "http://127.0.0.1:8080/terrain";
 * const flags = storeFlags({ url, anonymous: true, "no-cache": true });
 * const store = await openStore(flags, processIo(), new AbortController().signal);
 * assert.equal(String(store), "Store(http://127.0.0.1:8080/terrain, anonymous)");
 * ```
 */
export async function openStore(
  flags: StoreFlags,
  io: CliIo,
  signal: AbortSignal,
  progress = false,
): Promise<Store> {
  const env = (name: string) => envVar(io, name);
  // The library's own progress lines are off unless a command wants them: `get` draws one bar
  // for all its files, and most commands finish before a bar would be worth drawing. They go to
  // the process's stderr, so only when that is the command's terminal.
  const options: ConnectOptions = { signal, progress: progress && io.stderr.isTerminal };
  if (flags.url !== undefined) options.url = flags.url;
  if (flags.noCache) options.cacheDir = false;
  else if (flags.cacheDir !== undefined) options.cacheDir = localPath(io, flags.cacheDir);
  if (flags.anonymous) {
    options.anonymous = true;
  } else if (flags.token !== undefined) {
    options.token = flags.token;
  } else {
    const username = flags.username ??
      (env("TERRAIN_TOKEN") === undefined ? env("TERRAIN_USERNAME") : undefined);
    if (username !== undefined) {
      options.username = username;
      options.password = env("TERRAIN_PASSWORD") ??
        await askPassword(username, flags.url ?? env("TERRAIN_URL"), io);
    }
  }
  try {
    // The rest of the environment (URL, token, the cache folder) is read as connect() reads
    // it, from the command's own environment.
    return connectIn(env, options);
  } catch (error) {
    if (error instanceof BadRequestError) throw new UsageError(error.message.replace(/\.$/, ""));
    throw error;
  }
}

async function askPassword(username: string, url: string | undefined, io: CliIo): Promise<string> {
  if (!io.interactive) {
    throw new UsageError(
      `signing in as ${quoteInput(username)} needs a password: set TERRAIN_PASSWORD, or run ` +
        "tern in a terminal to be asked for it",
    );
  }
  const where = url === undefined ? "" : ` at ${safeText(redactUrl(url))}`;
  const password = await io.readSecret(`Password for ${username}${where}: `);
  if (password === "") throw new UsageError("no password was entered");
  return password;
}
