/**
 * The `tern` command line: finds the command, parses its options, opens the store on demand,
 * runs it, and turns every outcome into an exit status — 0 success, 1 the operation failed
 * (a typed error on stderr), 2 a usage error (with a usage line), 130 interrupted.
 *
 * @module
 */

import type { Store } from "../../mod.ts";
import { VERSION } from "../../mod.ts";
import { returnToCallerFolder } from "../entry/caller_folder.ts";
import { closest } from "../client/closest.ts";
import { parseOptions, splitCommand, UsageError } from "./args.ts";
import type { Command, CommandContext } from "./command.ts";
import { COMMANDS } from "./commands/mod.ts";
import { commandHelp, mainHelp, usageLine } from "./help.ts";
import { type CliIo, OutputClosedError, processIo } from "./io.ts";
import { describeFailure, EXIT } from "./report.ts";
import { openStore, type StoreFlags, storeFlags } from "./session.ts";
import { quoteInput } from "../client/errors.ts";

/**
 * Runs `tern` as a program: the process's arguments and streams, then exits with the status.
 * Under `deno task tern …` (which runs in the project folder), it first returns to the folder
 * the command was typed in, so that local paths (`get -o`, `serve --root`) mean what they
 * say.
 *
 * @example
 * ```ts ignore
 * import { main } from "./main.ts";
 *
 * if (import.meta.main) await main();
 * ```
 */
export async function main(): Promise<never> {
  returnToCallerFolder();
  Deno.exit(await runCli(Deno.args));
}

/**
 * Runs `tern` with `args` (without the program name) and resolves to the exit status. Writes
 * only through `io`; never exits the process itself.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { Output, PromptCancelledError } from "./io.ts";
 * import { runCli } from "./main.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const url = store.options.url;
 * const formats = "/iplant/home/shared/tern_samples/formats";
 * // Without `io`, the output goes to the terminal; here it is kept to be checked.
 * let written = "";
 * const sink = {
 *   write: (bytes: Uint8Array) => {
 *     written += new TextDecoder().decode(bytes);
 *     return Promise.resolve(bytes.length);
 *   },
 * };
 * // The command's own environment and folder: the process's are neither read nor changed.
 * const io = {
 *   stdout: new Output(sink, false),
 *   stderr: new Output(sink, false),
 *   interactive: false,
 *   readSecret: () => Promise.reject(new PromptCancelledError()),
 *   env: { TERRAIN_URL: url },
 *   cwd: "/",
 * };
 * const status = await runCli(["ls", "-l", "--anonymous", "--no-cache", formats], io);
 * assert.equal(status, 0);
 * assert.match(written, /13\.5 kB {2}2024-01-10 09:00 {2}csv +penguins\.csv\n/);
 * ```
 */
export async function runCli(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { command: name, before, after } = splitCommand(args);
  let command: Command | undefined;
  let debug = args.includes("--debug");
  let store: Store | undefined;
  let url: string | undefined;
  const interrupt = new AbortController();
  let removeSignals = () => {};
  const report = async (error: unknown) => {
    await io.stdout.flush().catch(() => {});
    const failure = describeFailure(error, {
      debug,
      style: io.stderr.style,
      anonymous: store?.options.auth === "anonymous",
      url: store?.options.url ?? url,
    });
    for (const line of failure.lines) io.stderr.line(line);
    await io.stderr.flush().catch(() => {});
    return failure.status;
  };
  try {
    if (name === undefined || name === "help") {
      return await helpOnly(name === "help" ? after : before, name === "help", io);
    }
    command = COMMANDS.find((candidate) => candidate.name === name);
    if (command === undefined) {
      // `tern --password x ls`: the unknown option, not its value taken for a command, is wrong.
      if (before.length > 0) parseOptions(before, {});
      const close = closest(name, COMMANDS.map((candidate) => candidate.name));
      const suggestion = close === undefined ? "" : ` (did you mean "${close}"?)`;
      throw new UsageError(`unknown command ${quoteInput(name)}${suggestion}`);
    }
    if (command.delegates) {
      const globals = parseOptions(before, {});
      debug = globals.values.debug === true;
      if (globals.values.help === true) return await print(io, commandHelp(command));
      const given = Object.keys(globals.values).filter((key) => key !== "debug");
      if (given.length > 0) {
        throw new UsageError(`tern ${command.name} does not take --${given[0]}`);
      }
      // A delegated command listens to the process's signals itself; an embedding's interrupt
      // reaches it through the context's signal.
      if (io.interrupt !== undefined) removeSignals = onInterrupt(interrupt, io.interrupt);
      return await command.run(contextFor({ values: {}, positionals: [] }, after, storeFlags({})));
    }
    const parsed = parseOptions([...before, ...after], command.options);
    debug = parsed.values.debug === true;
    if (parsed.values.help === true) return await print(io, commandHelp(command));
    const flags = storeFlags(parsed.values);
    url = flags.url;
    removeSignals = onInterrupt(interrupt, io.interrupt);
    const context = contextFor(parsed, after, flags);
    const status = await command.run(context);
    await io.stdout.flush();
    return status;
  } catch (error) {
    if (error instanceof OutputClosedError) return EXIT.ok;
    const status = await report(error);
    if (error instanceof UsageError) {
      io.stderr.line(usageLine(command));
      io.stderr.line(
        `Run "tern ${command === undefined ? "" : `${command.name} `}--help" for more.`,
      );
      await io.stderr.flush().catch(() => {});
    }
    return status;
  } finally {
    removeSignals();
    // Delegated commands and progress displays may still have lines on their way out.
    await io.stdout.flush().catch(() => {});
    await io.stderr.flush().catch(() => {});
    if (debug && store !== undefined) {
      io.stderr.line(io.stderr.style.dim(requestSummary(store)));
      await io.stderr.flush().catch(() => {});
    }
  }

  function contextFor(
    parsed: CommandContext["args"],
    rawArgs: readonly string[],
    flags: StoreFlags,
  ): CommandContext {
    let opening: Promise<Store> | undefined;
    return {
      args: parsed,
      rawArgs,
      io,
      signal: interrupt.signal,
      store: (options = {}) =>
        opening ??= openStore(flags, io, interrupt.signal, options).then((opened) =>
          store = opened
        ),
      report: async (error) => void await report(error),
    };
  }
}

/** `tern`, `tern --help`, `tern --version`, `tern help [COMMAND]`. */
async function helpOnly(args: readonly string[], asked: boolean, io: CliIo): Promise<number> {
  if (asked) {
    const [topic, ...rest] = args;
    if (topic === undefined) return await print(io, mainHelp(COMMANDS));
    const command = COMMANDS.find((candidate) => candidate.name === topic);
    if (command === undefined || rest.length > 0) {
      throw new UsageError(
        command === undefined
          ? `no help for ${quoteInput(topic)}: not a command`
          : "help takes one COMMAND",
      );
    }
    return await print(io, commandHelp(command));
  }
  const parsed = parseOptions(args, {
    version: { type: "boolean", short: "V", help: "print the version" },
  });
  if (parsed.values.version === true) return await print(io, `tern ${VERSION}`);
  if (parsed.values.help === true) return await print(io, mainHelp(COMMANDS));
  io.stderr.line(mainHelp(COMMANDS));
  await io.stderr.flush();
  return EXIT.usage;
}

/** What `--debug` adds at the end: the store's request counters (never a credential). */
function requestSummary(store: Store): string {
  const stats = store.stats;
  return `debug: ${stats.requests} requests, ${stats.retries} retries, ` +
    `${stats.tokenExchanges} token exchanges, at most ${stats.peakInFlight} at once`;
}

async function print(io: CliIo, text: string): Promise<number> {
  io.stdout.line(text);
  await io.stdout.flush();
  return EXIT.ok;
}

/**
 * Ctrl-C aborts the command (downloads clean up, the exit status is 130); a second Ctrl-C exits
 * at once. With `given` ({@linkcode CliIo.interrupt}), that signal does it instead and the
 * process's SIGINT is left alone. Returns the function that removes the listener.
 */
function onInterrupt(controller: AbortController, given?: AbortSignal): () => void {
  const stop = () => controller.abort(new DOMException("Interrupted by the user.", "AbortError"));
  if (given !== undefined) {
    if (given.aborted) stop();
    given.addEventListener("abort", stop, { once: true });
    return () => given.removeEventListener("abort", stop);
  }
  if (Deno.build.os === "windows") return () => {};
  const listener = () => {
    if (controller.signal.aborted) Deno.exit(EXIT.interrupted);
    stop();
  };
  try {
    Deno.addSignalListener("SIGINT", listener);
  } catch {
    return () => {};
  }
  return () => Deno.removeSignalListener("SIGINT", listener);
}
