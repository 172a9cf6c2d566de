/**
 * Runs the benchmark suites named on the command line (default: all) in one process run, prints
 * one table and writes `bench/out/results.json` and `bench/out/results.md`.
 *
 * Every figure is a ratio against a baseline measured in the same run on the same machine. A
 * missed target is reported, never a failure; the exit code is 1 only when a suite could not run,
 * and 2 for bad arguments.
 *
 * ```sh
 * deno task bench                 # every suite, full sizes
 * deno task bench server --quick  # one suite, small sizes (a smoke run of a few seconds)
 * ```
 *
 * To add a suite, write `bench/<name>.ts` exporting a {@link Suite} and list it in `SUITES`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { type BenchRecord, formatMarkdown, formatTable, type Suite } from "./_lib.ts";
import { Cleanup, output } from "./_proc.ts";
import { dataSuite } from "./data.ts";
import { shapesSuite, shapesWideSuite } from "./shapes.ts";
import { firstReadSuite } from "./first_read.ts";
import { listingSuite } from "./listing.ts";
import { lockSuite } from "./lock.ts";
import { scanSuite } from "./scan.ts";
import { searchSuite } from "./search.ts";
import { serverSuite } from "./server.ts";

/** Every suite, in the order a full run executes them. */
const SUITES: Suite[] = [
  serverSuite,
  listingSuite,
  dataSuite,
  shapesSuite,
  firstReadSuite,
  scanSuite,
  lockSuite,
  searchSuite,
];

/** Parts of a suite, run only when named (a full run measures them within their suite). */
const PARTS: Suite[] = [shapesWideSuite];

const USAGE = `usage: deno task bench [SUITE...] [--quick] [--reps N]

  SUITE      one or more of: ${SUITES.map((s) => s.name).join(", ")} (default: all),
             or a part alone: ${PARTS.map((s) => s.name).join(", ")}
  --quick    small sizes and few repetitions (smoke run)
  --reps N   recorded repetitions per measurement (warm-up runs are kept)
`;

/** A command-line mistake: reported in one line with the usage, exit code 2. */
class UsageError extends Error {}

interface Options {
  suites: Suite[];
  quick: boolean;
  reps?: number;
}

function parseOptions(args: string[]): Options | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        quick: { type: "boolean", default: false },
        reps: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return "help";
  const suites = parsed.positionals.length === 0 ? SUITES : parsed.positionals.map((name) => {
    const suite = [...SUITES, ...PARTS].find((s) => s.name === name);
    if (!suite) throw new UsageError(`unknown suite "${name}"`);
    return suite;
  });
  let reps: number | undefined;
  if (parsed.values.reps !== undefined) {
    reps = Number(parsed.values.reps);
    if (!Number.isInteger(reps) || reps < 1) {
      throw new UsageError(`--reps must be a whole number >= 1, got "${parsed.values.reps}"`);
    }
  }
  return { suites: [...new Set(suites)], quick: parsed.values.quick, reps };
}

/** Facts about the machine and tools, stored with the results so a run can be reproduced. */
async function environment(quick: boolean, reps?: number): Promise<Record<string, unknown>> {
  const firstLine = async (command: string, args: string[]) => {
    try {
      return (await output(command, args)).split("\n")[0].trim();
    } catch {
      return "unavailable";
    }
  };
  const cpu = await Deno.readTextFile("/proc/cpuinfo").then(
    (text) => /^model name\s*:\s*(.+)$/m.exec(text)?.[1] ?? "unknown",
    () => "unknown",
  );
  return {
    date: new Date().toISOString(),
    mode: quick ? "quick" : "full",
    repsOverride: reps ?? null,
    cpu,
    cores: navigator.hardwareConcurrency,
    kernel: Deno.osRelease(),
    deno: Deno.version.deno,
    python: await firstLine("/usr/bin/python3", ["--version"]),
    curl: await firstLine("curl", ["--version"]),
    commit: await firstLine("git", ["describe", "--always", "--dirty"]),
  };
}

/** One readable line per error, unwrapping the AggregateError that clean-up throws. */
function describe(error: unknown): string {
  if (error instanceof AggregateError) {
    return `${error.message}: ${error.errors.map(describe).join("; ")}`;
  }
  return error instanceof Error ? error.message : String(error);
}

async function run(options: Options): Promise<number> {
  const benchDir = fileURLToPath(new URL(".", import.meta.url));
  const outDir = join(benchDir, "out");
  const cacheDir = join(outDir, "cache");
  await Deno.mkdir(cacheDir, { recursive: true });

  const cleanup = new Cleanup();
  const abort = new AbortController();
  const onSignal = (signal: Deno.Signal, code: number) => () => {
    console.error(`\nbench: ${signal}, stopping child processes and removing temp dirs`);
    abort.abort(new Error(`interrupted by ${signal}`));
    cleanup.run().catch((error) => console.error(`bench: ${describe(error)}`))
      .finally(() => Deno.exit(code));
  };
  const onInt = onSignal("SIGINT", 130);
  const onTerm = onSignal("SIGTERM", 143);
  Deno.addSignalListener("SIGINT", onInt);
  Deno.addSignalListener("SIGTERM", onTerm);

  const env = await environment(options.quick, options.reps);
  const records: BenchRecord[] = [];
  const failures: { suite: string; error: string }[] = [];
  try {
    for (const suite of options.suites) {
      console.error(`bench: ${suite.name}: ${suite.description}`);
      const started = performance.now();
      try {
        records.push(
          ...await suite.run({
            quick: options.quick,
            reps: options.reps,
            repoRoot: join(benchDir, ".."),
            cacheDir,
            cleanup,
            signal: abort.signal,
            log: (message) => console.error(`bench: ${message}`),
          }),
        );
      } catch (error) {
        const message = describe(error);
        failures.push({ suite: suite.name, error: message });
        console.error(`bench: suite ${suite.name} failed: ${message}`);
      }
      console.error(
        `bench: ${suite.name} took ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await cleanup.run().catch((error) => {
      failures.push({ suite: "clean-up", error: describe(error) });
    });
    Deno.removeSignalListener("SIGINT", onInt);
    Deno.removeSignalListener("SIGTERM", onTerm);
  }

  const machine = `${env.cpu}, ${env.cores} cores, Linux ${env.kernel}, Deno ${env.deno}, ` +
    `${env.python}, ${String(env.curl).split(" ").slice(0, 2).join(" ")}`;
  console.log(`\n${machine}; ${env.mode} run\n`);
  if (records.length > 0) console.log(formatTable(records));
  for (const f of failures) console.log(`\nsuite ${f.suite} FAILED: ${f.error}`);

  await Deno.writeTextFile(
    join(outDir, "results.json"),
    JSON.stringify({ environment: env, records, failures }, null, 2) + "\n",
  );
  const failed = failures.map((f) => `\n**Suite ${f.suite} failed:** ${f.error}\n`).join("");
  await Deno.writeTextFile(
    join(outDir, "results.md"),
    `# Benchmark results\n\n${machine}; ${env.mode} run, ${env.date}, commit ${env.commit}.\n\n` +
      `${records.length > 0 ? formatMarkdown(records) : "No results."}\n${failed}`,
  );
  console.log(`\nwrote ${join(outDir, "results.json")} and results.md`);
  return failures.length > 0 ? 1 : 0;
}

if (import.meta.main) {
  let options: Options | "help";
  try {
    options = parseOptions(Deno.args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`bench: ${error.message}\n\n${USAGE}`);
    Deno.exit(2);
  }
  if (options === "help") {
    console.log(USAGE);
  } else {
    Deno.exit(await run(options));
  }
}
