/**
 * Command line: `deno task sample-store DIR [--reuse]` builds the demo store in DIR and prints
 * a short summary; `--reset` rebuilds the sample store where it lives (undoing edits), and
 * `--reuse` alone makes sure it is built there. Exit codes: 0 done, 1 build failed, 2 bad
 * arguments.
 *
 * @module
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  buildSampleStore,
  defaultSampleStoreDir,
  ensureSampleStore,
  resetSampleStore,
  SAMPLE_STORE_ENV,
  SampleStoreError,
  type SampleStoreSummary,
} from "./build.ts";
import { SAMPLE_DATASETS } from "./catalog.ts";
import { DEMO_USER } from "./constants.ts";
import { humanSize } from "./readme.ts";
import { returnToCallerFolder } from "../entry/caller_folder.ts";

const USAGE = "usage: deno task sample-store DIR [--reuse] | --reset [DIR] | --reuse";

/**
 * What `deno task sample-store --help` prints, in the layout of every `tern` command's help
 * (`tern sample-store --help` prints it with tern's name).
 *
 * @example
 * ```ts
 * import { SAMPLE_STORE_HELP } from "./main.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(SAMPLE_STORE_HELP, /^usage: deno task sample-store DIR \[--reuse\]/m);
 * ```
 */
export const SAMPLE_STORE_HELP =
  `deno task sample-store: build the demo data store (datasets, 20,000 files, two users)

${USAGE}

Builds the tern demo data store (CyVerse Data Commons-style datasets made from the
vega-datasets package) in DIR. An existing sample store in DIR is replaced; any other
non-empty directory is refused.

With --reset or --reuse, DIR defaults to where the sample store lives, the folder
serveSampleStore() serves: $${SAMPLE_STORE_ENV}, else $XDG_CACHE_HOME/tern/sample-store,
else ~/.cache/tern/sample-store. Every process of the user shares it.

options:
      --reuse           keep DIR if it already holds an up-to-date sample store
      --reset           build it afresh, undoing every edit (after a build another process
                        runs)
  -h, --help            show this help

examples:
  deno task sample-store ./store
  deno task serve --root ./store
  deno task sample-store --reset`;

/**
 * Output streams, injectable so tests can capture what the command prints.
 *
 * @example
 * ```ts
 * import { type CliIo, sampleStoreMain } from "./main.ts";
 * import assert from "node:assert/strict";
 *
 * const lines: string[] = [];
 * const io: CliIo = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
 * assert.equal(await sampleStoreMain(["--help"], io), 0);
 * ```
 */
export interface CliIo {
  /** Receives normal output, one line per call. */
  out(line: string): void;
  /** Receives error messages, one line per call. */
  err(line: string): void;
  /**
   * The folder a relative DIR is taken from.
   * @default {Deno.cwd()}
   */
  cwd?: string;
  /**
   * The environment the default DIR is read from (`TERN_SAMPLE_STORE`, `XDG_CACHE_HOME`,
   * `HOME`); given, the process's own is not read.
   * @default {the process's environment}
   */
  env?: Readonly<Record<string, string>>;
}

const consoleIo: CliIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

function summaryLines(s: SampleStoreSummary): string[] {
  const deprecated = SAMPLE_DATASETS.filter((d) => d.deprecated).length;
  const staging = SAMPLE_DATASETS.filter((d) => d.staging).length;
  return [
    `Sample store written to ${s.dir}`,
    `  datasets: ${s.datasets} published (+ ${deprecated} deprecated, ${staging} in staging, ` +
    "1 in the demo home)",
    `  files:    ${s.files.toLocaleString("en-US")} (${humanSize(s.bytes)}), ` +
    `${s.sidecars} metadata/comment sidecars, ${s.folders.toLocaleString("en-US")} folders`,
    `  time:     ${(s.ms / 1000).toFixed(1)} s`,
    `Serve it:   deno task serve --root ${s.dir}`,
    // The demo user's password is public (docs/server.md): saying it here is the point.
    `Sign in:    export TERRAIN_USERNAME=${DEMO_USER.username} ` +
    `TERRAIN_PASSWORD=${DEMO_USER.password}  (the demo user; public data needs none)`,
  ];
}

/**
 * Runs the command with `args` (without the program name) and returns the exit code.
 *
 * @example
 * ```ts
 * import { sampleStoreMain } from "./main.ts";
 * import assert from "node:assert/strict";
 *
 * const lines: string[] = [];
 * const code = await sampleStoreMain([], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
 * assert.equal(code, 2);
 * ```
 */
export async function sampleStoreMain(args: string[], io: CliIo = consoleIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        reuse: { type: "boolean" },
        reset: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    return usageError(io, (e as Error).message);
  }
  if (parsed.values.help) {
    io.out(SAMPLE_STORE_HELP);
    return 0;
  }
  const { reuse, reset } = parsed.values;
  const [dir, ...extra] = parsed.positionals;
  let problem: string | undefined;
  if (reuse && reset) problem = "--reuse and --reset exclude each other";
  else if (extra.length > 0) {
    problem = `expected one DIR, got ${parsed.positionals.length}: ${parsed.positionals.join(" ")}`;
  } else if (dir === undefined ? !reuse && !reset : dir.trim() === "") {
    problem = "missing DIR (where to build the store; --reset rebuilds the sample store where " +
      "it lives)";
  }
  if (problem !== undefined) return usageError(io, problem);
  try {
    const named = dir ??
      defaultSampleStoreDir(io.env === undefined ? undefined : (name) => io.env?.[name]);
    const target = resolve(io.cwd ?? Deno.cwd(), named);
    if (reuse) {
      const started = performance.now();
      const path = await ensureSampleStore(target);
      io.out(`Sample store ready at ${path} (${Math.round(performance.now() - started)} ms)`);
      return 0;
    }
    const summary = reset ? await resetSampleStore(target) : await buildSampleStore(target);
    for (const line of summaryLines(summary)) io.out(line);
    return 0;
  } catch (e) {
    io.err(
      `sample-store: ${e instanceof SampleStoreError ? e.message : `build failed: ${e}`}`,
    );
    return 1;
  }
}

function usageError(io: CliIo, problem: string): number {
  io.err(`error: ${problem}`);
  io.err(USAGE);
  io.err('Run "deno task sample-store --help" for more.');
  return 2;
}

if (import.meta.main) {
  returnToCallerFolder();
  Deno.exit(await sampleStoreMain(Deno.args));
}
