/**
 * {@linkcode connect}: the one line that starts every notebook.
 *
 * @module
 */

import { resolve } from "node:path";
import { DEFAULT_CACHE_BYTES } from "../cache/cache.ts";
import { defaultCacheDir, readEnv } from "../cache/dir.ts";
import { BadRequestError } from "../client/errors.ts";
import {
  abortSignal,
  callback,
  count,
  defineOptions,
  flag,
  isFilled,
  isObject,
  oneOf,
  type OptionsSchema,
  rule,
  text,
} from "../client/options.ts";
import { DEFAULT_URL } from "../client/same_store.ts";
import { Transport } from "../client/transport.ts";
import type { ProgressSetting } from "../progress/reporter.ts";
import { type Lock, parseLock, readLock } from "../reproduce/lock.ts";
import { Store } from "./store.ts";
import { ON_CHANGE, type OnChange } from "../reproduce/store_gate.ts";

/**
 * Options of {@linkcode connect}; all optional.
 *
 * Credentials: `token`, or `username` + `password`. When none of the three is given, they are
 * read from the environment (`TERRAIN_TOKEN`, else `TERRAIN_USERNAME` + `TERRAIN_PASSWORD`)
 * unless `anonymous` is set; without any, the store is anonymous and sees public data only.
 * Variables the process may not read (no `--allow-env`) count as unset.
 *
 * @example
 * ```ts
 * import type { ConnectOptions } from "./connect.ts";
 *
 * const options: ConnectOptions = {
 *   url: "https://de.cyverse.org/terrain",
 *   username: "demo",
 *   password: "secret",
 *   concurrency: 2,
 *   userAgent: "my-lab-notebook/2.0",
 * };
 * ```
 */
export interface ConnectOptions {
  /**
   * Base URL of the Terrain gateway, gateway prefix included.
   *
   * @default `TERRAIN_URL`, else `"https://de.cyverse.org/terrain"`
   */
  url?: string;
  /**
   * An access token obtained elsewhere.
   *
   * @default `TERRAIN_TOKEN`
   */
  token?: string;
  /**
   * Username, exchanged with `password` for a token when first needed.
   *
   * @default `TERRAIN_USERNAME`
   */
  username?: string;
  /**
   * Password for `username`.
   *
   * @default `TERRAIN_PASSWORD`
   */
  password?: string;
  /**
   * Ignore credentials in the environment and stay anonymous.
   *
   * @default false
   */
  anonymous?: boolean;
  /**
   * Requests in flight at once, downloads included.
   *
   * @default 4
   */
  concurrency?: number;
  /**
   * Extra attempts after a network error or retryable server answer.
   *
   * @default 4
   */
  retries?: number;
  /**
   * Ceiling of the first wait before a retry, in ms; it doubles per retry, up to 10 s. Lower it
   * on a fast, flaky link; raise it for a server that sheds load.
   *
   * @default 250
   */
  retryBaseMs?: number;
  /**
   * Longest wait for a response's headers, in ms.
   *
   * @default 30_000
   */
  timeoutMs?: number;
  /**
   * Longest wait for the next piece of a body once its headers came, in ms: a server that stops
   * sending mid-body (its connection left open) fails the attempt after this long, and it is
   * retried like a dropped connection.
   *
   * @default 60_000
   */
  idleTimeoutMs?: number;
  /**
   * Largest JSON answer read, in bytes; past it a `ResponseTooLargeError`.
   *
   * @default 67_108_864 (64 MiB)
   */
  maxJsonBytes?: number;
  /** Aborts every request of the store, e.g. when a notebook cell is stopped. */
  signal?: AbortSignal;
  /**
   * The fetch every request of the store goes through, remote scans' range reads included,
   * e.g. to add a proxy or log traffic. It must follow redirects as the global one does: without
   * `Authorization` to another origin.
   *
   * @default the global `fetch`
   */
  fetch?: typeof fetch;
  /**
   * Your product token, sent before tern's own in every request's `User-Agent` (e.g.
   * `myapp/1.0` gives `myapp/1.0 tern/0.1.0 (Deno/…)`), so that the data store's operators can
   * tell your traffic apart.
   *
   * @default none: tern's own `User-Agent` only
   */
  userAgent?: string;
  /**
   * Local cache folder for downloaded files (files go in its `downloads/` sub-folder), or
   * `false` for no cache. An unchanged file is then read from disk instead of downloaded again.
   *
   * @default `$XDG_CACHE_HOME/tern`, else `~/.cache/tern`
   */
  cacheDir?: string | false;
  /**
   * Cap on cached bytes; least recently used files are removed beyond it.
   *
   * @default 5_000_000_000 (5 GB)
   */
  cacheMaxBytes?: number;
  /**
   * Serve files only from the local cache, never downloading (for working without a network);
   * a file not cached is a `CacheMissError`. Listings still need the server. Needs a cache.
   *
   * @default false
   */
  offline?: boolean;
  /**
   * How reads, downloads and walks show progress: one line updated in place in a Jupyter
   * notebook, a bar on stderr when it is a terminal, nothing otherwise. `false` never shows it;
   * a function receives every progress event instead (your own display). Calls can still pass
   * `onProgress`, and `progress: false` to silence one read.
   *
   * @default true
   */
  progress?: ProgressSetting;
  /**
   * A lock written by `store.provenance.save(path)`: its path, or the lock itself (parsed
   * JSON). Every read of a file it names checks, before it returns data, that the store still
   * holds the locked version; `onChange` says what happens when it does not. Files it does not
   * name read normally (and are recorded in `store.provenance`). The lock's own `store` is never
   * used to connect, so a lock from someone else cannot make tern send your credentials to its
   * store: the store is `url`, else `TERRAIN_URL`, else the default. A store you named (`url` or
   * `TERRAIN_URL`) stands in for the lock's URL: when the lock recorded the store's id (tern's
   * embedded server, the sample store on a new port), the first read checks that this store
   * reports the same id and refuses it otherwise, naming both; a lock without an id is used
   * with a note. With the default store, a lock without an id naming another store is refused
   * before any request.
   */
  lock?: string | Lock;
  /**
   * What a read of a locked file that changed on the store does: `"error"` throws a
   * `DataChangedError` naming the path and both versions; `"warn"` prints one line per path
   * and reads the new version (marked `changed` in `store.provenance`); `"locked"` reads the
   * locked version from the local cache while it still holds it (saying so), else throws.
   *
   * @default "error"
   */
  onChange?: OnChange;
}

/**
 * What a `User-Agent` may hold: visible ASCII words (`product/version`, `(comments)`) separated by
 * single spaces; fetch refuses control characters, and servers may misread anything else.
 */
const PRODUCT = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

export { DEFAULT_URL };

/**
 * The options of {@linkcode connect}. What a URL or a credential holds is checked where the
 * environment's values are checked too (the transport, the credentials), so only their type is
 * checked here; an error about them never shows their value.
 */
const CONNECT_OPTIONS: OptionsSchema<ConnectOptions> = defineOptions(() => ({
  url: text("the gateway's base URL as a string, e.g. https://de.cyverse.org/terrain"),
  token: text("a string (an access token)"),
  username: text("a string"),
  password: text("a string"),
  anonymous: flag(),
  concurrency: count(1),
  retries: count(0),
  retryBaseMs: count(0),
  timeoutMs: count(1),
  idleTimeoutMs: count(1),
  maxJsonBytes: count(1),
  signal: abortSignal(),
  fetch: callback<typeof fetch>("a function like the global fetch"),
  userAgent: rule(
    'a product token such as "myapp/1.0" (printable ASCII words, not empty)',
    (value): value is string => typeof value === "string" && PRODUCT.test(value),
  ),
  cacheDir: rule(
    "a folder path, or false for no cache",
    (value): value is string | false => value === false || isFilled(value),
  ),
  cacheMaxBytes: count(0),
  offline: flag(),
  progress: rule(
    "true, false, or a function taking progress events",
    (value): value is ProgressSetting => typeof value === "boolean" || typeof value === "function",
  ),
  lock: rule(
    "a lock file's path, or a lock (its parsed JSON)",
    (value): value is string | Lock => isFilled(value) || isObject(value),
  ),
  onChange: oneOf(ON_CHANGE),
}));

/**
 * Opens a store: checks the options and reads the environment, but sends nothing until a
 * handle needs the server.
 *
 * @throws {BadRequestError} for a bad URL or option, or incomplete credentials.
 * @throws {LockError} for a lock that cannot be read, is malformed, or is another store's.
 *
 * @example Anonymous, signed in with a token, or with a username and password
 * ```ts
 * import { connect } from "./connect.ts";
 * import assert from "node:assert/strict";
 *
 * const publicData = connect({ url: "http://127.0.0.1:8080/terrain", anonymous: true });
 * const mine = connect({ url: "http://127.0.0.1:8080/terrain", token: "eyJh.eyJw.c2ln" });
 * const login = connect({ url: "http://127.0.0.1:8080/terrain", username: "demo", password: "pw" });
 * assert.equal(publicData.options.auth, "anonymous");
 * assert.equal(mine.options.auth, "token");
 * assert.equal(login.options.auth, "password");
 * ```
 */
export function connect(options: ConnectOptions = {}): Store {
  return connectIn(readEnv, options);
}

/**
 * {@linkcode connect}, with the environment (`TERRAIN_URL`, `TERRAIN_TOKEN`, `TERRAIN_USERNAME`,
 * `TERRAIN_PASSWORD`, and `XDG_CACHE_HOME`/`HOME` for the default cache folder) read through
 * `read` instead of from the process: for a caller that runs with an environment of its own,
 * such as the command line run from code.
 *
 * @throws {BadRequestError} for a bad URL or option, or incomplete credentials.
 *
 * @example
 * ```ts
 * import { connectIn } from "./connect.ts";
 * import assert from "node:assert/strict";
 *
 * const env: Record<string, string> = { TERRAIN_URL: "http://127.0.0.1:8080/terrain", TERRAIN_TOKEN: "eyJh.eyJw.c2ln" };
 * const store = connectIn((name) => env[name], { cacheDir: false });
 * assert.equal(store.options.url, "http://127.0.0.1:8080/terrain");
 * assert.equal(store.options.auth, "token");
 * ```
 */
export function connectIn(
  read: (name: string) => string | undefined,
  given: ConnectOptions = {},
): Store {
  const options = CONNECT_OPTIONS.parse("connect()", given);
  const { token, username, password } = credentialsOf(options, read);
  const url = options.url ?? read("TERRAIN_URL") ?? DEFAULT_URL;
  const cacheDir = options.cacheDir === false
    ? false
    : options.cacheDir === undefined
    ? defaultCacheDir(read) ?? false
    : resolve(options.cacheDir);
  if (options.offline === true && cacheDir === false) {
    throw new BadRequestError(
      "connect(): offline: true needs a cache folder; cacheDir is false or unknown.",
    );
  }
  const lock = options.lock === undefined
    ? undefined
    : typeof options.lock === "string"
    ? readLock(resolve(options.lock))
    : parseLock(options.lock);
  // The transport reads its own options (the policy, fetch, signal, userAgent) and no others.
  const transport = new Transport({ ...options, url, token, username, password });
  const fromOptions = options.token !== undefined || options.username !== undefined ||
    options.password !== undefined;
  return new Store(transport, {
    url: transport.url,
    auth: transport.authMode,
    ...(transport.username === undefined ? {} : { username: transport.username }),
    credentialsFrom: transport.anonymous ? "none" : fromOptions ? "options" : "environment",
    concurrency: transport.policy.concurrency,
    retries: transport.policy.retries,
    timeoutMs: transport.policy.timeoutMs,
    cacheDir,
    cacheMaxBytes: options.cacheMaxBytes ?? DEFAULT_CACHE_BYTES,
    offline: options.offline ?? false,
    ...(options.progress === undefined ? {} : { progress: options.progress }),
  }, {
    ...(lock === undefined ? {} : { lock }),
    named: options.url !== undefined || read("TERRAIN_URL") !== undefined,
    ...(options.onChange === undefined ? {} : { onChange: options.onChange }),
  });
}

function credentialsOf(
  options: ConnectOptions,
  read: (name: string) => string | undefined,
): { token?: string; username?: string; password?: string } {
  const { token, username, password } = options;
  if (token !== undefined || username !== undefined || password !== undefined) {
    if (options.anonymous === true) {
      throw new BadRequestError("anonymous: true cannot be combined with a token or password.");
    }
    return { token, username, password };
  }
  if (options.anonymous === true) return {};
  const envToken = read("TERRAIN_TOKEN");
  if (envToken !== undefined) return { token: envToken };
  const envUser = read("TERRAIN_USERNAME");
  const envPassword = read("TERRAIN_PASSWORD");
  if (envUser !== undefined && envPassword === undefined) {
    throw new BadRequestError("TERRAIN_USERNAME is set but TERRAIN_PASSWORD is not.");
  }
  if (envPassword !== undefined && envUser === undefined) {
    throw new BadRequestError("TERRAIN_PASSWORD is set but TERRAIN_USERNAME is not.");
  }
  return envUser === undefined ? {} : { username: envUser, password: envPassword };
}
