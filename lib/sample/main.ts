/**
 * Command line: `deno task sample-store DIR [--reuse]` builds the demo store in DIR and prints
 * a short summary. Exit codes: 0 done, 1 build failed, 2 bad arguments.
 *
 * @module
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  buildSampleStore,
  ensureSampleStore,
  SampleStoreError,
  type SampleStoreSummary,
} from "./build.ts";
import { SAMPLE_DATASETS } from "./catalog.ts";
import { DEMO_USER } from "./constants.ts";
import { humanSize } from "./readme.ts";
import { returnToCallerFolder } from "../entry/caller_folder.ts";

const USAGE = `Usage: deno task sample-store DIR [--reuse]

Builds the tern demo data store (CyVerse Data Commons-style datasets made from the
vega-datasets package) in DIR. An existing sample store in DIR is replaced; any other
non-empty directory is refused.

Options:
  --reuse    keep DIR if it already holds an up-to-date sample store
  -h, --help show this help

Serve it afterwards with: deno task serve --root DIR`;

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
      options: { reuse: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
  } catch (e) {
    io.err(`sample-store: ${(e as Error).message}`);
    io.err(USAGE);
    return 2;
  }
  if (parsed.values.help) {
    io.out(USAGE);
    return 0;
  }
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined || dir.trim() === "" || extra.length > 0) {
    io.err(
      dir === undefined || dir.trim() === ""
        ? "sample-store: missing DIR (where to build the store)"
        : `sample-store: expected one DIR, got ${parsed.positionals.length}: ` +
          parsed.positionals.join(" "),
    );
    io.err(USAGE);
    return 2;
  }
  const target = io.cwd === undefined ? dir : resolve(io.cwd, dir);
  try {
    if (parsed.values.reuse) {
      const started = performance.now();
      const path = await ensureSampleStore(target);
      io.out(`Sample store ready at ${path} (${Math.round(performance.now() - started)} ms)`);
      return 0;
    }
    for (const line of summaryLines(await buildSampleStore(target))) io.out(line);
    return 0;
  } catch (e) {
    io.err(
      `sample-store: ${e instanceof SampleStoreError ? e.message : `build failed: ${e}`}`,
    );
    return 1;
  }
}

if (import.meta.main) {
  returnToCallerFolder();
  Deno.exit(await sampleStoreMain(Deno.args));
}
