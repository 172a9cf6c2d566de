/**
 * What a command is ({@linkcode Command}) and what it is given to run
 * ({@linkcode CommandContext}), plus the checks every command applies to its path arguments.
 *
 * @module
 */

import { BadRequestError, type Store, TernError } from "../../mod.ts";
import { type OptionSpecs, type ParsedArgs, UsageError } from "./args.ts";
import type { CliIo } from "./io.ts";
import type { OpenStoreOptions } from "./session.ts";
import { parseDataName } from "../handles/resolve.ts";
import { quoteInput } from "../client/errors.ts";

/**
 * What a command runs with.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import type { CommandContext } from "./command.ts";
 * import { Output, PromptCancelledError } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * async function run(context: CommandContext): Promise<number> {
 *   const store = await context.store();
 *   for await (const entry of store.folder(context.args.positionals[0]).list()) {
 *     context.io.stdout.line(entry.name);
 *   }
 *   await context.io.stdout.flush();
 *   return 0;
 * }
 *
 * await using store = await exampleStore();
 * let written = "";
 * const sink = {
 *   write: (bytes: Uint8Array) => {
 *     written += new TextDecoder().decode(bytes);
 *     return Promise.resolve(bytes.length);
 *   },
 * };
 * const io = {
 *   stdout: new Output(sink, false),
 *   stderr: new Output(sink, false),
 *   interactive: false,
 *   readSecret: () => Promise.reject(new PromptCancelledError()),
 * };
 * const status = await run({
 *   args: { values: {}, positionals: ["/iplant/home/shared/tern_samples/formats"] },
 *   rawArgs: [],
 *   io,
 *   signal: new AbortController().signal,
 *   store: () => Promise.resolve(store),
 *   report: () => Promise.resolve(),
 * });
 * assert.equal(status, 0);
 * assert.equal(written.split("\n")[0], "README.txt");
 * ```
 */
export interface CommandContext {
  /** Options (the command's and the global ones) and positional arguments. */
  readonly args: ParsedArgs;
  /** The arguments after the command name, untouched: for commands that delegate. */
  readonly rawArgs: readonly string[];
  /** Where to write. */
  readonly io: CliIo;
  /** Aborted on Ctrl-C; pass it to anything long-running that is not a store request. */
  readonly signal: AbortSignal;
  /**
   * The store the global options describe, opened on first call (may prompt for a password).
   * `progress` lets the library show its own progress lines on a terminal (off by default);
   * `named` is the store the command's input names (a lock's), used unless the user names one
   * (`--url` or `TERRAIN_URL`),
   * and with the caller's credentials only when it is the store they are for.
   */
  store(options?: OpenStoreOptions): Promise<Store>;
  /**
   * Reports a failure that should not stop the command (one of several paths could not be
   * read) exactly as a fatal one would be, so the command can go on and exit 1 at the end.
   */
  report(error: unknown): Promise<void>;
}

/**
 * A subcommand: its name, help, options, and what it does. `run` resolves to the exit status
 * (0, or 1 when it reported failures and went on); it throws for a failure that stops it.
 *
 * @example
 * ```ts
 * import type { Command } from "./command.ts";
 * import { usageLine } from "./help.ts";
 * import assert from "node:assert/strict";
 *
 * const hello: Command = {
 *   name: "hello",
 *   summary: "say hello",
 *   usage: "[options]",
 *   options: {},
 *   examples: ["tern hello"],
 *   run: async ({ io }) => {
 *     io.stdout.line("hello");
 *     await io.stdout.flush();
 *     return 0;
 *   },
 * };
 * assert.equal(usageLine(hello), "usage: tern hello [options]");
 * ```
 */
export interface Command {
  /** The name typed after `tern`. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Arguments as the usage line shows them, e.g. `[options] PATH...`. */
  readonly usage: string;
  /** More help, shown by `tern CMD --help` between the usage line and the options. */
  readonly description?: string;
  /** The command's own options (the global ones are added). */
  readonly options: OptionSpecs;
  /** Command lines shown in help. */
  readonly examples: readonly string[];
  /** Parses its own arguments (`rawArgs`): global options do not apply after its name. */
  readonly delegates?: boolean;
  /**
   * The whole help of a command that prints its own (`delegates`), so that `tern help CMD` and
   * `tern --help CMD` print what `tern CMD --help` does.
   */
  readonly help?: string;
  /** Runs the command. */
  run(context: CommandContext): Promise<number>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The names a PATH argument may be besides an absolute data-store path, as help and usage
 * errors say it: every form {@linkcode checkRef} accepts.
 *
 * @example
 * ```ts
 * import { OTHER_PATH_FORMS } from "./command.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(OTHER_PATH_FORMS, /a DOI or an ARK$/);
 * ```
 */
export const OTHER_PATH_FORMS =
  "an item id (UUID), a dav or dav-anon URL, a Discovery Environment data link, a DOI or an ARK";

/**
 * Checks a path argument: an absolute data-store path without `.` or `..` segments or NUL
 * bytes, an item id (UUID), or any other name `store.resolve()` reads — a `dav`/`dav-anon`
 * URL, a Discovery Environment data link, a DOI or an ARK (see {@linkcode resolveArg}).
 * Checked here so the message speaks of the command line.
 *
 * @throws {UsageError} for anything else.
 *
 * @example
 * ```ts
 * import { checkRef } from "./command.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(checkRef("/iplant/home/shared/"), "/iplant/home/shared/");
 * assert.equal(checkRef("doi:10.25739/9k2v-7q4m"), "doi:10.25739/9k2v-7q4m");
 * assert.throws(() => checkRef("shared/data.csv"), /not a data-store path/);
 * ```
 */
export function checkRef(value: string): string {
  if (UUID.test(value)) return value;
  if (!value.startsWith("/") && isOtherName(value)) return value;
  const problem = value.trim() === ""
    ? "an empty PATH was given"
    : !value.startsWith("/")
    ? `${quoteInput(value)} is not a data-store path: paths are absolute, e.g. ` +
      `/iplant/home/shared/data.csv; also accepted: ${OTHER_PATH_FORMS}`
    : value.includes("\0")
    ? `${quoteInput(value)} contains a NUL byte`
    : value.split("/").some((segment) => segment === "." || segment === "..")
    ? `${quoteInput(value)} has a "." or ".." segment: give the path without them`
    : undefined;
  if (problem !== undefined) throw new UsageError(problem);
  return value;
}

/**
 * The data-store path or id a PATH argument names: paths and ids as given (no request), any
 * other form (`dav`/`dav-anon` URL, Discovery Environment data link, DOI, ARK) through
 * `store.resolve()`.
 *
 * @throws {NotFoundError} when nothing is there, or no dataset has the DOI or ARK.
 * @throws {AmbiguousNameError} when several datasets have it.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { type CommandContext, resolveArg } from "./command.ts";
 * import { processIo } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const context: CommandContext = {
 *   args: { values: {}, positionals: [] },
 *   rawArgs: [],
 *   io: processIo(),
 *   signal: new AbortController().signal,
 *   store: () => Promise.resolve(store),
 *   report: () => Promise.resolve(),
 * };
 * const path = await resolveArg(context, "https://doi.org/10.25739/9k2v-7q4m");
 * assert.ok(path.endsWith("/Gorman_PalmerPenguins_Morphometrics_2020"));
 * ```
 */
export async function resolveArg(context: CommandContext, value: string): Promise<string> {
  if (value.startsWith("/") || UUID.test(value)) return value;
  const store = await context.store();
  const item = await store.resolve(value, { signal: context.signal });
  return item.path ?? (await item.stat({ signal: context.signal })).path;
}

function isOtherName(value: string): boolean {
  try {
    parseDataName(value);
    return true;
  } catch (error) {
    if (error instanceof BadRequestError) return false;
    throw error;
  }
}

/**
 * The one positional argument of a command that takes exactly one.
 *
 * @throws {UsageError} `missing WHAT` when none is given, `COMMAND takes one WHAT` for more.
 *
 * @example
 * ```ts
 * import { onlyArg } from "./command.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(onlyArg(["/iplant/home"], "tree", "PATH"), "/iplant/home");
 * assert.throws(() => onlyArg([], "tree", "PATH"), /^UsageError: missing PATH$/);
 * assert.throws(() => onlyArg(["/a", "/b"], "tree", "PATH"), /tree takes one PATH/);
 * ```
 */
export function onlyArg(positionals: readonly string[], command: string, what: string): string {
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? `missing ${what}` : `${command} takes one ${what}`,
    );
  }
  return positionals[0];
}

/**
 * Checks the PATH arguments of a command that takes one or more: at least one, each passing
 * {@linkcode checkRef}.
 *
 * @throws {UsageError} when there is none, or for the first one that is not a path or id.
 *
 * @example
 * ```ts
 * import { checkRefs } from "./command.ts";
 * import assert from "node:assert/strict";
 *
 * checkRefs(["/iplant/home/shared/a.csv", "5fd7deff-dc59-52aa-86bf-4ccace6f7a31"]);
 * assert.throws(() => checkRefs([]), { name: "UsageError", message: "missing PATH" });
 * ```
 */
export function checkRefs(values: readonly string[]): void {
  if (values.length === 0) throw new UsageError("missing PATH");
  values.forEach(checkRef);
}

/**
 * Runs `task` for each path, reporting a failure and going on to the next, like `ls a b` does.
 * Resolves to 0 when all succeeded, else 1. Usage errors, interruptions and a closed output
 * still stop everything.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { type CommandContext, eachPath } from "./command.ts";
 * import { Output, PromptCancelledError } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * let written = "";
 * const sink = {
 *   write: (bytes: Uint8Array) => {
 *     written += new TextDecoder().decode(bytes);
 *     return Promise.resolve(bytes.length);
 *   },
 * };
 * const io = {
 *   stdout: new Output(sink, false),
 *   stderr: new Output(sink, false),
 *   interactive: false,
 *   readSecret: () => Promise.reject(new PromptCancelledError()),
 * };
 * const failures: unknown[] = [];
 * const context: CommandContext = {
 *   args: { values: {}, positionals: [] },
 *   rawArgs: [],
 *   io,
 *   signal: new AbortController().signal,
 *   store: () => Promise.resolve(store),
 *   report: (error) => Promise.resolve(void failures.push(error)),
 * };
 * const paths = ["/iplant/home/shared/tern_samples/formats", "/iplant/home/shared/missing"];
 * const status = await eachPath(context, paths, async (path) => {
 *   context.io.stdout.line((await store.entry(path)).path);
 * });
 * await io.stdout.flush();
 * assert.equal(status, 1); // one path failed, the other was still done
 * assert.equal(failures.length, 1);
 * assert.equal(written, "/iplant/home/shared/tern_samples/formats\n");
 * ```
 */
export async function eachPath(
  context: CommandContext,
  paths: readonly string[],
  task: (path: string, index: number) => Promise<void>,
): Promise<number> {
  let status = 0;
  for (const [index, path] of paths.entries()) {
    try {
      await task(await resolveArg(context, path), index);
    } catch (error) {
      if (!isItemFailure(error)) throw error;
      await context.io.stdout.flush();
      await context.report(error);
      status = 1;
    }
  }
  return status;
}

/**
 * Whether a failure concerns one item only, so the next may still succeed: the library's typed
 * errors, and local file-system errors (a destination that cannot be written).
 *
 * @example
 * ```ts
 * import { isItemFailure } from "./command.ts";
 * import { NotFoundError } from "../../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isItemFailure(new NotFoundError("gone")));
 * assert.equal(isItemFailure(new TypeError("bug")), false);
 * ```
 */
export function isItemFailure(error: unknown): boolean {
  return error instanceof TernError || error instanceof Deno.errors.NotFound ||
    error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.AlreadyExists ||
    error instanceof Deno.errors.IsADirectory || error instanceof Deno.errors.NotADirectory;
}
