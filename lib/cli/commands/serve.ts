/**
 * `tern serve` and `tern sample-store`: the embedded Terrain-compatible server and the demo
 * store builder, run exactly as `deno task serve` and `deno task sample-store` run them. Their
 * arguments are handed over untouched (relative folders taken from the command's own folder);
 * only the program name in their help changes.
 *
 * @module
 */

import { SAMPLE_STORE_HELP, sampleStoreMain } from "../../sample/main.ts";
import { SERVE_HELP, serveMain } from "../../server/main.ts";
import type { Command, CommandContext } from "../command.ts";
import { localPath } from "../io.ts";

/**
 * `tern serve --root DIR [options]`: serves a folder as a data store until Ctrl-C.
 *
 * @example
 * ```sh
 * tern serve --root ./store --port 8080
 * ```
 */
export const serve: Command = {
  name: "serve",
  summary: "serve a local folder as a Terrain-compatible data store",
  usage: "--root DIR [options]",
  options: {},
  examples: ["tern serve --root ./store --port 8080"],
  delegates: true,
  help: asTern(SERVE_HELP),
  run: async (context) =>
    await serveMain([...context.rawArgs], {
      stdout: lineWriter(context, "stdout"),
      stderr: lineWriter(context, "stderr"),
      signal: context.signal,
      cwd: localPath(context.io),
      // An embedding's interrupt (CliIo.interrupt) stops it; the process's signals are its own.
      processSignals: context.io.interrupt === undefined,
    }),
};

/**
 * `tern sample-store DIR [--reuse]`: builds the demo data store; `--reset` rebuilds the one
 * `serveSampleStore()` serves (in `TERN_SAMPLE_STORE`, else the user's cache folder).
 *
 * @example
 * ```sh
 * tern sample-store ./store && tern serve --root ./store
 * tern sample-store --reset
 * ```
 */
export const sampleStore: Command = {
  name: "sample-store",
  summary: "build the demo data store (datasets, 20,000 files, two users)",
  usage: "DIR [--reuse] | --reset [DIR] | --reuse",
  options: {},
  examples: ["tern sample-store ./store", "tern serve --root ./store", "tern sample-store --reset"],
  delegates: true,
  help: asTern(SAMPLE_STORE_HELP),
  run: async (context) =>
    await sampleStoreMain([...context.rawArgs], {
      out: lineWriter(context, "stdout"),
      err: lineWriter(context, "stderr"),
      cwd: localPath(context.io),
      env: context.io.env,
    }),
};

/**
 * A line callback for the delegated commands, writing through the CLI's streams. Each line is
 * sent at once: the server prints its URL and then runs until stopped, so the line must not
 * wait in a buffer.
 */
function lineWriter(context: CommandContext, stream: "stdout" | "stderr"): (line: string) => void {
  const output = context.io[stream];
  return (line) => {
    output.line(asTern(line));
    void output.flush().catch(() => {});
  };
}

/** The delegates' text, which names them as `deno task serve`, with tern's name instead. */
function asTern(text: string): string {
  return text.replaceAll(/deno task (serve|sample-store)/g, "tern $1");
}
