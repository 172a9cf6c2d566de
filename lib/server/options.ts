/**
 * The options of {@link startServer}, checked up front so a mistake is reported as a clear
 * {@link ServerOptionsError} naming the option, never as a failure deep inside a request.
 *
 * @module
 */

import { formatZonePath, parseZonePath } from "./zone_path.ts";

/**
 * How to start the server. Only `root` is required.
 *
 * @example
 * ```ts
 * import type { ServerOptions } from "./options.ts";
 * const options: ServerOptions = { root: "/data/store", port: 0, failRate: 0.05, seed: 7 };
 * ```
 */
export interface ServerOptions {
  /**
   * The folder to serve. A store's folder, holding `<zone>/` (or nothing but `.terrain/`, or
   * nothing at all), is served as the store: `ROOT/<zone>/home/...` as `/<zone>/home/...`. Any
   * other folder is a plain one, served as `mount`.
   */
  root: string;
  /**
   * Serve `root` as a plain folder at this data-store path, the community folder or a folder
   * under it (readable by everyone, anonymous callers included), whatever it holds. A plain
   * folder has no accounts: its files are all data.
   * @default {`/<zone>/home/shared` for a folder that is not laid out as a store}
   */
  mount?: string;
  /**
   * TCP port; 0 picks a free one.
   * @default {0}
   */
  port?: number;
  /**
   * Interface to listen on.
   * @default {"127.0.0.1"}
   */
  hostname?: string;
  /**
   * Zone name, the first segment of every data-store path.
   * @default {"iplant"}
   */
  zone?: string;
  /**
   * Delay before each response, ms.
   * @default {0}
   */
  latencyMs?: number;
  /**
   * Cap on all response bodies together, bytes per second; 0 is unlimited.
   * @default {0}
   */
  bandwidth?: number;
  /**
   * Fraction of requests answered 503/500 without an error code.
   * @default {0}
   */
  failRate?: number;
  /**
   * Fraction of download bodies cut short.
   * @default {0}
   */
  dropRate?: number;
  /**
   * Seed of all random choices.
   * @default {1}
   */
  seed?: number;
  /**
   * Lifetime of minted tokens, overriding users.json.
   * @default {users.json's, else 300}
   */
  tokenLifetimeSeconds?: number;
  /**
   * Most client connections open at once. Past it the longest-idle connection is closed, or
   * the newcomer gets 503.
   * @default {half the process's descriptor limit, at most 1024}
   */
  maxConnections?: number;
  /**
   * Close a connection that sends no request for this long, ms.
   * @default {5000}
   */
  idleTimeoutMs?: number;
  /**
   * Close a connection whose request head takes longer than this to arrive, ms.
   * @default {10000}
   */
  headersTimeoutMs?: number;
  /**
   * Cut a response whose client accepts no bytes for this long, ms.
   * @default {30000}
   */
  sendTimeoutMs?: number;
  /**
   * Most long answers (streamed listings, files larger than one 256 KiB piece) sent at once;
   * others wait in turn, and while they wait, answers whose clients stopped reading are cut.
   * @default {32}
   */
  maxLongAnswers?: number;
  /**
   * Answer `POST .../filesystem/search`; `false` answers it 403 "Data search is not enabled",
   * as a deployment without Elasticsearch does.
   * @default {true}
   */
  search?: boolean;
  /**
   * The server's clock, ms since the epoch, read wherever time decides whether a token is valid
   * (when the token endpoint mints one and when a request's token is checked) and whether a
   * file has stood still long enough for its hash to be remembered. A test steps its own clock
   * to expire tokens, or to settle files, instead of waiting for them to.
   * @default {Date.now}
   */
  clock?: () => number;
  /**
   * No request log on stderr, so notebooks and tests stay clean (the command line logs unless
   * `--quiet`). Warnings about a malformed users.json edit are always shown.
   * @default {true}
   */
  quiet?: boolean;
}

/**
 * A server option with a wrong type or value.
 *
 * @example
 * ```ts
 * import { resolveOptions, ServerOptionsError } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => resolveOptions({ root: "/x", failRate: 2 }), ServerOptionsError);
 * ```
 */
export class ServerOptionsError extends TypeError {
  /** The option at fault. */
  readonly option: string;

  /**
   * Creates the error for `option`, with `problem` completing the sentence.
   *
   * @example
   * ```ts
   * import { ServerOptionsError } from "./options.ts";
   * import assert from "node:assert/strict";
   * const error = new ServerOptionsError("port", "must be an integer from 0 to 65535");
   * assert.equal(error.option, "port");
   * assert.match(error.message, /port.*must be an integer from 0 to 65535/);
   * ```
   */
  constructor(option: string, problem: string) {
    super(`server option "${option}" ${problem}`);
    this.name = "ServerOptionsError";
    this.option = option;
  }
}

function number<Fallback extends number | undefined>(
  options: ServerOptions,
  key: keyof ServerOptions,
  fallback: Fallback,
  test: (value: number) => boolean,
  rule: string,
): number | Fallback {
  const value = options[key];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || !test(value)) {
    throw new ServerOptionsError(key, `must be ${rule} (got ${JSON.stringify(value)})`);
  }
  return value;
}

/**
 * The default connection cap: half the soft descriptor limit (the rest is left for the files
 * being sent and the store's own reads), at most 1024, at least 16; 512 where the limit cannot
 * be read.
 *
 * @example
 * ```ts
 * import { defaultMaxConnections } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(defaultMaxConnections("Max open files            256      4096     files\n"), 128);
 * assert.equal(defaultMaxConnections(""), 512);
 * ```
 */
export function defaultMaxConnections(procLimits = readProcLimits()): number {
  const soft = Number(procLimits?.match(/^Max open files\s+(\d+)/m)?.[1]);
  if (!Number.isFinite(soft) || soft <= 0) return 512;
  return Math.max(16, Math.min(1024, Math.floor(soft / 2)));
}

function readProcLimits(): string | undefined {
  try {
    return Deno.readTextFileSync("/proc/self/limits");
  } catch {
    return undefined;
  }
}

const POSITIVE = "a positive integer";
const POSITIVE_MS = "a positive whole number of ms";
const isPositiveInteger = (value: number) => Number.isInteger(value) && value > 0;
const isPort = (value: number) => Number.isInteger(value) && value >= 0 && value <= 65535;
const isFraction = (value: number) => value >= 0 && value <= 1;
const isNonNegative = (value: number) => value >= 0;

/**
 * Checks options and fills in defaults (the shaping settings as `ShapingOptions` has them, the
 * connection limits as `ConnectionLimits`).
 *
 * @throws {ServerOptionsError} naming the first bad option.
 *
 * @example
 * ```ts
 * import { resolveOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const options = resolveOptions({ root: "/data/store" });
 * assert.equal(options.hostname, "127.0.0.1");
 * assert.equal(options.zone, "iplant");
 * ```
 */
export function resolveOptions(options: ServerOptions) {
  if (typeof options !== "object" || options === null) {
    throw new ServerOptionsError("root", "is required (pass { root: '/path/to/store' })");
  }
  if (typeof options.root !== "string" || options.root.trim() === "") {
    throw new ServerOptionsError("root", "must name the store folder");
  }
  const hostname = options.hostname ?? "127.0.0.1";
  if (typeof hostname !== "string" || hostname.trim() === "") {
    throw new ServerOptionsError("hostname", "must be a non-empty host name or address");
  }
  const zone = options.zone ?? "iplant";
  if (typeof zone !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(zone)) {
    throw new ServerOptionsError(
      "zone",
      "must be 1-64 letters, digits, '_' or '-', starting with a letter or digit",
    );
  }
  let mount: string | undefined;
  if (options.mount !== undefined) {
    const community = `/${zone}/home/shared`;
    const segments = typeof options.mount === "string"
      ? parseZonePath(options.mount, zone)
      : undefined;
    mount = segments && formatZonePath(segments);
    if (mount === undefined || !(mount === community || mount.startsWith(`${community}/`))) {
      throw new ServerOptionsError(
        "mount",
        `must be ${community} or a folder under it, where everyone may read (got ` +
          `${JSON.stringify(options.mount)})`,
      );
    }
  }
  const lifetime = number(options, "tokenLifetimeSeconds", undefined, isPositiveInteger, POSITIVE);
  if (options.quiet !== undefined && typeof options.quiet !== "boolean") {
    throw new ServerOptionsError("quiet", "must be true or false");
  }
  if (options.search !== undefined && typeof options.search !== "boolean") {
    throw new ServerOptionsError("search", "must be true or false");
  }
  if (options.clock !== undefined && typeof options.clock !== "function") {
    throw new ServerOptionsError("clock", "must be a function returning ms since the epoch");
  }
  return {
    root: options.root,
    mount,
    port: number(options, "port", 0, isPort, "an integer from 0 to 65535"),
    hostname,
    zone,
    latencyMs: number(options, "latencyMs", 0, isNonNegative, "a number of ms >= 0"),
    bandwidth: number(options, "bandwidth", 0, isNonNegative, "bytes per second >= 0"),
    failRate: number(options, "failRate", 0, isFraction, "a fraction from 0 to 1"),
    dropRate: number(options, "dropRate", 0, isFraction, "a fraction from 0 to 1"),
    seed: number(options, "seed", 1, Number.isInteger, "an integer"),
    tokenLifetimeSeconds: lifetime,
    clock: options.clock ?? Date.now,
    search: options.search ?? true,
    quiet: options.quiet ?? true,
    limits: {
      maxConnections: number(options, "maxConnections", undefined, isPositiveInteger, POSITIVE) ??
        defaultMaxConnections(),
      idleTimeoutMs: number(options, "idleTimeoutMs", 5000, isPositiveInteger, POSITIVE_MS),
      headersTimeoutMs: number(options, "headersTimeoutMs", 10_000, isPositiveInteger, POSITIVE_MS),
      sendTimeoutMs: number(options, "sendTimeoutMs", 30_000, isPositiveInteger, POSITIVE_MS),
      maxLongAnswers: number(options, "maxLongAnswers", 32, isPositiveInteger, POSITIVE),
    },
  };
}
