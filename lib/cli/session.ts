/**
 * Opening the store the global options describe: the URL, the credentials (flags first, then
 * the same environment variables as `connect()`, then a password prompt on a terminal) and the
 * local cache. Mistakes here are usage errors, found before any request.
 *
 * @module
 */

import type { ConnectOptions, Store } from "../../mod.ts";
import { asUsage, type ParsedArgs, stringOption, UsageError } from "./args.ts";
import { type CliIo, envVar, localPath } from "./io.ts";
import { connectIn, DEFAULT_URL } from "../handles/connect.ts";
import { sameStore } from "../client/same_store.ts";
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
  for (const name of ["url", "token", "username", "cache-dir"] as const) {
    const value = stringOption(values, name);
    if (value === undefined) continue;
    if (value.trim() === "") throw new UsageError(`--${name} needs a non-empty value`);
    flags[name === "cache-dir" ? "cacheDir" : name] = value;
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
 * A store that a command's input names rather than the user (a lock's `store`), and what named
 * it, for the note that says why credentials were not sent there.
 *
 * @example
 * ```ts
 * import type { NamedStore } from "./session.ts";
 *
 * const named: NamedStore = { url: "https://de.cyverse.org/terrain", by: 'the lock "tern.lock.json"' };
 * ```
 */
export interface NamedStore {
  /** The store's URL, as the input gives it. */
  url: string;
  /** What named it, as a note says it (`the lock "tern.lock.json"`). */
  by: string;
}

/**
 * Options of {@linkcode openStore}.
 *
 * @example
 * ```ts
 * import type { OpenStoreOptions } from "./session.ts";
 *
 * const options: OpenStoreOptions = { progress: true };
 * ```
 */
export interface OpenStoreOptions {
  /**
   * Let the library draw its own progress lines on a terminal's stderr.
   *
   * @default false
   */
  progress?: boolean;
  /**
   * The store the command's input names, opened when the user names none (no `--url`, no
   * `TERRAIN_URL`): a store the user names stands in for it (a sample store on a new port). It
   * gets the caller's credentials only when it is the store they are for (the default
   * gateway); any other is opened anonymously, with a note on stderr saying so and how to sign
   * in there (`--url`).
   *
   * @default undefined
   */
  named?: NamedStore;
}

/**
 * Whether the user named a store, by `--url` (its value, `url`) or `TERRAIN_URL`: that store
 * then stands in for one a command's input names (a lock's).
 *
 * @example
 * ```ts
 * import { processIo } from "./io.ts";
 * import { namesStore } from "./session.ts";
 * import assert from "node:assert/strict";
 *
 * const io = { ...processIo(), env: {} };
 * assert.equal(namesStore(undefined, io), false);
 * assert.equal(namesStore("http://127.0.0.1:8080/terrain", io), true);
 * assert.equal(namesStore(undefined, { ...io, env: { TERRAIN_URL: "http://127.0.0.1:8080/terrain" } }), true);
 * ```
 */
export function namesStore(url: string | undefined, io: CliIo): boolean {
  return url !== undefined || envVar(io, "TERRAIN_URL") !== undefined;
}

/**
 * Opens the store. Credentials, first found wins: `--anonymous`; `--token`; `--username` with
 * `TERRAIN_PASSWORD` or, on a terminal, a prompt that does not echo; then the environment as
 * `connect()` reads it (`TERRAIN_TOKEN`, else `TERRAIN_USERNAME` with `TERRAIN_PASSWORD` or the
 * prompt); else anonymous. They are for the store the user configured, and go nowhere else: a
 * store named by the command's input (`options.named`) that is another is opened anonymously.
 * The environment is the command's ({@linkcode CliIo.env}, else the process's), and so is the
 * folder a relative `--cache-dir` is taken from. Sends nothing: a password is checked by the
 * first request.
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
 *
 * // A store named by the input (a lock), with no credentials to withhold: opened as asked.
 * const named = { url: "http://127.0.0.1:9/terrain", by: "the lock" };
 * const locked = await openStore(storeFlags({ "no-cache": true }), { ...processIo(), env: {} }, new AbortController().signal, { named });
 * assert.equal(String(locked), "Store(http://127.0.0.1:9/terrain, anonymous)");
 * ```
 */
export async function openStore(
  flags: StoreFlags,
  io: CliIo,
  signal: AbortSignal,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const { named } = options;
  const progress = options.progress === true;
  if (named === undefined || namesStore(flags.url, io)) {
    return await connectWith(flags, io, signal, progress);
  }
  // The credentials are for the default store, and for no other.
  if (sameStore(named.url, DEFAULT_URL)) {
    return await connectWith({ ...flags, url: named.url }, io, signal, progress);
  }
  const signedIn = !flags.anonymous &&
    [flags.token, flags.username, envVar(io, "TERRAIN_TOKEN"), envVar(io, "TERRAIN_USERNAME")]
      .some((value) => value !== undefined);
  if (signedIn) {
    io.stderr.line(
      `note: ${named.by} names the store ${safeText(named.url)}, not the one your ` +
        `credentials are for (${safeText(redactUrl(DEFAULT_URL))}): reading it anonymously ` +
        `(public data only). To sign in there, pass --url ${safeText(named.url)}.`,
    );
    await io.stderr.flush();
  }
  const { token: _token, username: _username, ...rest } = flags;
  return await connectWith({ ...rest, url: named.url, anonymous: true }, io, signal, progress);
}

async function connectWith(
  flags: StoreFlags,
  io: CliIo,
  signal: AbortSignal,
  progress: boolean,
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
  // The rest of the environment (URL, token, the cache folder) is read as connect() reads it,
  // from the command's own environment.
  return asUsage(() => connectIn(env, options));
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
