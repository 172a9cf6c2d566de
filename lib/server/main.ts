/**
 * Command line: serve a store folder until interrupted.
 *
 * ```sh
 * deno task serve --root DIR [--mount PATH] [--port N] [--zone iplant] [--hostname H] [--latency-ms N]
 *   [--bandwidth BYTES_PER_S] [--fail-rate F] [--drop-rate F] [--seed N]
 *   [--token-lifetime-seconds N] [--max-connections N] [--idle-timeout-ms N]
 *   [--headers-timeout-ms N] [--send-timeout-ms N] [--max-long-answers N] [--no-search] [--quiet]
 * ```
 *
 * Prints the base URL on stdout, and on stderr how a plain folder is served and the requests
 * (unless `--quiet`); stops cleanly on SIGINT or SIGTERM. Bad arguments exit with status 2 and
 * a message saying what was wrong.
 *
 * @module
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { startServer } from "./mod.ts";
import { type ServerOptions, ServerOptionsError } from "./options.ts";
import { returnToCallerFolder } from "../entry/caller_folder.ts";

const USAGE = "usage: deno task serve --root DIR [options]";

/**
 * What `deno task serve --help` prints, in the layout of every `tern` command's help (`tern
 * serve --help` prints it with tern's name).
 *
 * @example
 * ```ts
 * import { SERVE_HELP } from "./main.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SERVE_HELP.split("\n")[2], "usage: deno task serve --root DIR [options]");
 * ```
 */
export const SERVE_HELP = `deno task serve: serve a local folder as a Terrain-compatible data store

${USAGE}

Serves DIR as a Terrain-compatible data store (DIR/iplant/home/... is /iplant/home/...).
A plain folder (no iplant/ in it) is served as /iplant/home/shared, readable by everyone.

options:
      --root DIR                    store folder, or a plain folder (required)
      --mount PATH                  serve DIR as a plain folder at PATH, /iplant/home/shared
                                    or a folder under it (default for a plain folder:
                                    /iplant/home/shared)
      --port N                      TCP port, 0 picks a free one (default 0)
      --hostname H                  interface to listen on (default 127.0.0.1)
      --zone NAME                   zone name (default iplant)
      --latency-ms N                delay before each response (default 0)
      --bandwidth BYTES_PER_S       cap on all response bodies together, 0 = unlimited
                                    (default 0)
      --fail-rate F                 fraction of requests answered 503/500 (default 0)
      --drop-rate F                 fraction of downloads cut short (default 0)
      --seed N                      seed of all random choices (default 1)
      --token-lifetime-seconds N    lifetime of minted tokens (default from users.json,
                                    else 300)
      --max-connections N           most open connections (default: half the descriptor
                                    limit, at most 1024)
      --idle-timeout-ms N           close a connection idle this long (default 5000)
      --headers-timeout-ms N        close a connection whose request head is slower
                                    (default 10000)
      --send-timeout-ms N           cut a response the client stops reading (default 30000)
      --max-long-answers N          most streamed listings and multi-piece files sent at
                                    once; others wait in turn (default 32)
      --no-search                   answer searches 403, as a deployment without search
      --quiet                       no request log on stderr
  -h, --help                        show this help

examples:
  deno task serve --root ./store --port 8080`;

/**
 * Where the command writes, and how a caller other than a signal can stop it.
 *
 * @example
 * ```ts
 * import type { ServeIo } from "./main.ts";
 * const io: ServeIo = { stdout: console.log, stderr: console.error };
 * ```
 */
export interface ServeIo {
  /** Receives the base URL and help text (default: console.log). */
  stdout?: (line: string) => void;
  /** Receives error messages (default: console.error). */
  stderr?: (line: string) => void;
  /** Stops the server like SIGINT does. */
  signal?: AbortSignal;
  /**
   * The folder a relative `--root` is taken from.
   * @default {Deno.cwd()}
   */
  cwd?: string;
  /**
   * Whether the process's SIGINT and SIGTERM stop the server too (an embedding that stops it
   * through `signal` leaves the process's signals alone).
   * @default {true}
   */
  processSignals?: boolean;
}

class UsageError extends Error {}

// Each numeric option's flag is its name in kebab case (`latencyMs` is `--latency-ms`); true marks
// the ones that take whole numbers.
const NUMBER_OPTIONS = {
  port: true,
  latencyMs: false,
  bandwidth: false,
  failRate: false,
  dropRate: false,
  seed: true,
  tokenLifetimeSeconds: true,
  maxConnections: true,
  idleTimeoutMs: true,
  headersTimeoutMs: true,
  sendTimeoutMs: true,
  maxLongAnswers: true,
} as const;

const flagOf = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function numberFlag(flag: string, raw: string, integer: boolean): number {
  const text = raw.trim();
  const value = Number(text);
  if (text === "" || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${flag} must be ${integer ? "an integer" : "a number"} (got "${raw}")`);
  }
  return value;
}

function readArgs(args: string[]): ServerOptions | "help" {
  const strings = ["root", "mount", "hostname", "zone", ...Object.keys(NUMBER_OPTIONS)];
  let values;
  try {
    values = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(strings.map((key) => [flagOf(key), { type: "string" as const }])),
        "no-search": { type: "boolean" },
        quiet: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return "help";
  if (values.root === undefined) throw new UsageError("--root DIR is required");
  const options: Record<string, unknown> = {
    root: values.root,
    mount: values.mount,
    hostname: values.hostname,
    zone: values.zone,
    search: !values["no-search"],
    quiet: values.quiet ?? false,
  };
  for (const [key, integer] of Object.entries(NUMBER_OPTIONS)) {
    const raw = values[flagOf(key)];
    if (typeof raw === "string") options[key] = numberFlag(flagOf(key), raw, integer);
  }
  return options as unknown as ServerOptions;
}

function onStopSignals(stop: () => void): () => void {
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  return () => {
    for (const signal of signals) Deno.removeSignalListener(signal, stop);
  };
}

/**
 * Runs the serve command with `args` (without the program name) and resolves to the exit
 * status: 0 after a clean stop, 2 for bad arguments, 1 when the server cannot start.
 *
 * @example
 * ```ts
 * import { serveMain } from "./main.ts";
 * import assert from "node:assert/strict";
 *
 * const lines: string[] = [];
 * const status = await serveMain(["--port", "http"], { stderr: (line) => lines.push(line) });
 * assert.equal(status, 2);
 * ```
 */
export async function serveMain(args: string[], io: ServeIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((line: string) => console.log(line));
  const stderr = io.stderr ?? ((line: string) => console.error(line));
  let options: ServerOptions | "help";
  try {
    options = readArgs(args);
  } catch (error) {
    stderr(`error: ${(error as Error).message}\n${USAGE}\nRun "deno task serve --help" for more.`);
    return 2;
  }
  if (options === "help") {
    stdout(SERVE_HELP);
    return 0;
  }
  let server;
  try {
    server = await startServer(
      io.cwd === undefined ? options : { ...options, root: resolve(io.cwd, options.root) },
    );
  } catch (error) {
    stderr(`error: ${(error as Error).message}`);
    return error instanceof ServerOptionsError ? 2 : 1;
  }
  const stopped = Promise.withResolvers<void>();
  const stop = () => stopped.resolve();
  const removeSignals = io.processSignals === false ? () => {} : onStopSignals(stop);
  io.signal?.addEventListener("abort", stop, { once: true });
  if (io.signal?.aborted) stop();
  if (server.mount !== undefined) {
    const how = options.mount === undefined
      ? `, not laid out as a store (DIR/${options.zone ?? "iplant"}/home/...); anyone may read ` +
        "it (--mount PATH serves it deeper)"
      : "; anyone may read it";
    stderr(`serving ${options.root} as ${server.mount}: a plain folder${how}`);
  }
  stdout(server.url);
  await stopped.promise;
  removeSignals();
  io.signal?.removeEventListener("abort", stop);
  await server.close();
  return 0;
}

if (import.meta.main) {
  returnToCallerFolder();
  Deno.exit(await serveMain(Deno.args));
}
