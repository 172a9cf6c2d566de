/**
 * Runs `tern` against the embedded server over the sample store, and checks what every run
 * must respect: no stack trace without `--debug`, no credential in any output.
 *
 * `Cli.run` (and {@linkcode runTern}) run the command line in this process, through
 * `runCli(args, io)` with streams that keep what was written, an environment of the test's
 * own and the test's working folder (CliIo's `env` and `cwd`): what a process gives back (exit
 * status, stdout's bytes, stderr's text) without starting Deno and compiling tern again for
 * every run. Nothing process-wide is read or changed, so test files may run side by side.
 * `Cli.spawn`, `Cli.spawnOnTerminal` and {@linkcode runTernProcess} run the real program —
 * `deno run -A cli.ts …` in a child process — for what only a process shows: signals, Ctrl-C
 * on a terminal, exit statuses of the entry point.
 *
 * The sample store takes seconds to build (20,000 files), so the CLI test files share the
 * default one (`ensureSampleStore()`, in the user's cache folder, which `deno task test` builds
 * before any test runs and rebuilds only when the builder changes; it locks, so files running at
 * once wait for it). No test changes it; each file has its own server, cache and working folder.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, type TerrainServer } from "../../server.ts";
import { type CliIo, Output, runCli } from "../../cli.ts";
import { PromptCancelledError } from "../../lib/cli/io.ts";
import { ALICE_USER, DEMO_USER, ensureSampleStore } from "../../lib/sample/mod.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
/** The CLI entry point. */
export const CLI = join(REPO, "cli.ts");
/** The project configuration (import map of the npm dependencies). */
export const CONFIG = join(REPO, "deno.json");

/** Secrets of the sample store that must never appear in any output. */
export const SECRETS: readonly string[] = [
  DEMO_USER.token,
  DEMO_USER.password,
  ALICE_USER.token,
  ALICE_USER.password,
];

/** What one run of the CLI gave. */
export interface Run {
  /** Exit status. */
  code: number;
  /** Standard output, decoded. */
  stdout: string;
  /** Standard error, decoded. */
  stderr: string;
  /** Standard output, raw. */
  bytes: Uint8Array;
}

/** Options of {@linkcode Cli.run}. */
export interface RunOptions {
  /** Extra environment variables (TERRAIN_URL is set to the test server unless given). */
  env?: Record<string, string>;
  /** Working folder (default: this file's temporary folder). */
  cwd?: string;
  /** Leave out `--cache-dir` (to test the default cache or `--no-cache`). */
  noCacheFlag?: boolean;
  /** Secrets besides the sample store's that must not appear in the output. */
  secrets?: readonly string[];
  /** Interrupts an in-process run as Ctrl-C would (CliIo's `interrupt`). */
  interrupt?: AbortSignal;
}

/** A sample store, its server and a scratch folder, shared by the tests of one file. */
export interface Cli extends AsyncDisposable {
  /** The server's base URL. */
  readonly url: string;
  /** The store folder (read only unless the test made it). */
  readonly root: string;
  /** A scratch folder, removed at the end. */
  readonly dir: string;
  /** The server, for its stats. */
  readonly server: TerrainServer;
  /** Runs `tern ARGS` in this process and checks that no stack trace or secret leaked. */
  run(args: readonly string[], options?: RunOptions): Promise<Run>;
  /** The same as {@linkcode Cli.run}, by the real program in a child process. */
  runProcess(args: readonly string[], options?: RunOptions): Promise<Run>;
  /** Starts `tern ARGS` with piped streams, for tests that read or signal it while it runs. */
  spawn(args: readonly string[], options?: RunOptions): Deno.ChildProcess;
  /**
   * Starts `tern ARGS` on a pseudo-terminal (util-linux's `script`), as a person's shell runs
   * it: stderr is a terminal, and a 0x03 byte written to stdin is Ctrl-C. stdout carries what
   * reached the terminal (stdout and stderr together).
   */
  spawnOnTerminal(args: readonly string[], options?: RunOptions): Deno.ChildProcess;
}

/**
 * Serves the shared sample store (or `root`) and makes a scratch folder; dispose it at the end
 * of the file.
 *
 * @example
 * ```ts ignore
 * await using cli = await startCli();
 * const { code, stdout } = await cli.run(["ls", "/iplant/home/shared"]);
 * ```
 */
export async function startCli(
  serverOptions: { bandwidth?: number; root?: string } = {},
): Promise<Cli> {
  const root = serverOptions.root ?? await ensureSampleStore();
  const dir = await Deno.makeTempDir({ prefix: "tern-cli-" });
  const server = await startServer({ port: 0, quiet: true, ...serverOptions, root });
  const cache = join(dir, "cache");
  /** A run's arguments and options: this file's cache, folder and server unless given. */
  const prepared = (
    args: readonly string[],
    options: RunOptions,
  ): [string[], RunOptions & { cwd: string }] => [
    [...(options.noCacheFlag ? [] : ["--cache-dir", cache]), ...args],
    { ...options, cwd: options.cwd ?? dir, env: { TERRAIN_URL: server.url, ...options.env } },
  ];
  return {
    url: server.url,
    root,
    dir,
    server,
    run: (args, options = {}) => runTern(...prepared(args, options)),
    runProcess: (args, options = {}) => runTernProcess(...prepared(args, options)),
    spawn: (args, options = {}) => ternCommand(...prepared(args, options)).spawn(),
    spawnOnTerminal: (args, options = {}) => {
      const [words, withDefaults] = prepared(args, options);
      const line = [Deno.execPath(), ...ternArgs(words)]
        .map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
      return new Deno.Command("script", {
        args: ["-qfec", line, "/dev/null"],
        cwd: withDefaults.cwd,
        clearEnv: true,
        env: { ...environmentOf(withDefaults), TERM: "xterm", ...options.env },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    },
    async [Symbol.asyncDispose]() {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * Runs the CLI in this process (see the module's documentation) with a clean environment: only
 * what Deno needs, plus `env`, so TERRAIN_* variables of the machine running the tests never
 * leak in. `XDG_CACHE_HOME` points into the scratch folder, so tern's default cache is a
 * temporary one. Nobody can answer a prompt, as with a child whose stdin is not a terminal.
 *
 * @example
 * ```ts ignore
 * const run = await runTern(["--version"], { cwd: Deno.cwd(), env: {} });
 * ```
 */
export async function runTern(
  args: readonly string[],
  options: RunOptions & { cwd: string },
): Promise<Run> {
  const stdout: Uint8Array<ArrayBuffer>[] = [];
  const stderr: Uint8Array<ArrayBuffer>[] = [];
  const keep = (chunks: Uint8Array<ArrayBuffer>[]) => ({
    write(bytes: Uint8Array) {
      chunks.push(bytes.slice());
      return Promise.resolve(bytes.length);
    },
  });
  const io: CliIo = {
    stdout: new Output(keep(stdout), false, false),
    stderr: new Output(keep(stderr), false, false),
    interactive: false,
    readSecret: () => Promise.reject(new PromptCancelledError()),
    env: environmentOf(options),
    cwd: options.cwd,
    ...(options.interrupt === undefined ? {} : { interrupt: options.interrupt }),
  };
  const code = await runCli(args, io);
  const bytes = await whole(stdout);
  const run = {
    code,
    stdout: new TextDecoder().decode(bytes),
    stderr: new TextDecoder().decode(await whole(stderr)),
    bytes,
  };
  assertClean(run, args.includes("--debug"), options.secrets ?? []);
  return run;
}

/**
 * Runs the real program, `deno run -A cli.ts ARGS`, in a child process with the same clean
 * environment as {@linkcode runTern}, and checks its output the same way.
 *
 * @example
 * ```ts ignore
 * const run = await runTernProcess(["--version"], { cwd: Deno.cwd(), env: {} });
 * ```
 */
export async function runTernProcess(
  args: readonly string[],
  options: RunOptions & { cwd: string },
): Promise<Run> {
  const output = await ternCommand(args, options).output();
  const run = {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
    bytes: output.stdout,
  };
  assertClean(run, args.includes("--debug"), options.secrets ?? []);
  return run;
}

/**
 * Fails when a run printed a stack trace (without `--debug`) or a secret.
 *
 * @example
 * ```ts ignore
 * assertClean(run, false, ["my-token"]);
 * ```
 */
export function assertClean(run: Run, debug: boolean, secrets: readonly string[]): void {
  for (const secret of [...SECRETS, ...secrets]) {
    assert.ok(!run.stdout.includes(secret), "a secret appeared on stdout");
    assert.ok(!run.stderr.includes(secret), "a secret appeared on stderr");
  }
  if (!debug) {
    assert.doesNotMatch(
      run.stderr,
      /^\s+at .+:\d+:\d+\)?$/m,
      `stack trace on stderr:\n${run.stderr}`,
    );
  }
}

/**
 * The command that runs `tern ARGS` in a clean environment (see {@linkcode runTern}).
 *
 * @example
 * ```ts ignore
 * const child = ternCommand(["ls"], { cwd: Deno.cwd(), env: {} }).spawn();
 * ```
 */
export function ternCommand(
  args: readonly string[],
  options: RunOptions & { cwd: string },
): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ternArgs(args),
    cwd: options.cwd,
    clearEnv: true,
    env: environmentOf(options),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** The chunks a stream was given, as one array. */
async function whole(chunks: Uint8Array<ArrayBuffer>[]): Promise<Uint8Array> {
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}

/** A run's whole environment: {@linkcode baseEnv}, no colour, then the test's `env`. */
function environmentOf(options: RunOptions & { cwd: string }): Record<string, string> {
  return { ...baseEnv(options.cwd), NO_COLOR: "1", ...options.env };
}

/** Deno's arguments that run `tern ARGS`. */
function ternArgs(args: readonly string[]): string[] {
  return ["run", "-A", "--config", CONFIG, CLI, ...args];
}

/** What Deno needs to run without downloading anything again. */
function baseEnv(scratch: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "DENO_DIR", "TMPDIR", "LANG"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  // Deno keeps its own cache under XDG_CACHE_HOME unless DENO_DIR says otherwise.
  env.DENO_DIR ??= join(
    Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache"),
    "deno",
  );
  env.XDG_CACHE_HOME = join(scratch, "xdg");
  return env;
}

/**
 * The lines of a run's stdout, without the final empty one.
 *
 * @example
 * ```ts ignore
 * assert.deepEqual(lines(run), ["formats/", "many_files/", "README.txt"]);
 * ```
 */
export function lines(run: Run): string[] {
  return run.stdout.split("\n").filter((line, index, all) => line !== "" || index < all.length - 1);
}

/**
 * Checks a usage error: status 2, the message on stderr, a usage line, nothing on stdout.
 *
 * @example
 * ```ts ignore
 * assertUsage(await cli.run(["ls", "--sortt", "x"]), /unknown option --sortt/);
 * ```
 */
export function assertUsage(run: Run, message: RegExp): void {
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, message);
  assert.match(run.stderr, /^usage: tern /m);
  assert.equal(run.stdout, "");
}

/**
 * Checks a failed operation: status 1 and a typed error line on stderr.
 *
 * @example
 * ```ts ignore
 * assertFailed(await cli.run(["ls", "/iplant/home/shared/nope"]), "NotFoundError");
 * ```
 */
export function assertFailed(run: Run, errorName: string, message?: RegExp): void {
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, new RegExp(`^error: ${errorName}: `, "m"));
  if (message !== undefined) assert.match(run.stderr, message);
}
