/**
 * `deno task test`: the whole suite as two `deno test` runs, ending with one summary line in
 * Deno's own format (`ok | N passed (N steps) | N failed (…)`), which CI's `.ci/run` reads.
 *
 * 1. Everything that may share the machine runs with `--parallel`: the unit and integration
 *    tests and every documentation example. The examples run as generated test modules, one per
 *    source folder (tests/doc_examples.ts, written to `.doc_examples/` and deleted afterwards,
 *    also when the run is interrupted), not through `--doc`, which gives every example a module
 *    and a worker of its own, each loading tern's modules again: that was most of the suite's
 *    time. For the same reason the test files run from generated modules that import up to
 *    eight files of a folder each (the longest files alone; JUnit still names each test's
 *    file). One `deno check` of all of it (the serial files and the notebooks' code included)
 *    runs beside these tests rather than before them.
 * 2. Then, alone, what cannot share the machine (see {@linkcode SERIAL}): the siege. A test
 *    that may run beside others asserts what the code did (counts, bytes, order, the waits it
 *    asked a clock for), never an upper bound on elapsed time or the process's memory (shared
 *    by every test in it); its deadlines only catch hangs, far above what it takes beside the
 *    heaviest suites. So the suites of faults, load, credentials, the transport and traffic
 *    shaping, which once ran here, run in the first run, as do the notebooks (a busy machine
 *    only makes their progress lines likelier, which they accept, and their cells' time limit
 *    is minutes).
 *
 * Both runs get a temporary folder of their own (`TMPDIR`), in memory (/dev/shm) where the
 * machine has one with room: the suites make and delete hundreds of thousands of files (test
 * stores, a 100,000-entry folder, sample-store builds), which on disk cost the file system's
 * journal far more than the tests' own work. Whatever the tests leave in it fails the run,
 * named, and the folder is removed.
 *
 * The documentation examples' `exampleStore()` connect to one sample-store server started here
 * (its URL in {@linkcode EXAMPLE_SERVER_ENV}) instead of each starting its own; each still gets
 * its own connection and cache folder.
 *
 * With arguments, runs just `deno test -A --doc <arguments>` (e.g.
 * `deno task test tests/cache/`), still with the shared server (`--doc` there: a few files'
 * examples cost little on their own). With `TERN_TEST_JUNIT` set to a
 * folder, each test run also writes a JUnit report there (per-test times: `1.xml`, `2.xml`).
 *
 * @module
 */

import { basename, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { EXAMPLE_SERVER_ENV, serveSampleStore } from "../lib/sample/example.ts";
import { writeExampleModules } from "./doc_examples.ts";
import { NOTEBOOK_MODULES_ENV, writeNotebookModules } from "./notebooks/_code.ts";

/**
 * Run alone after the rest, one file at a time (paths from the repository root): what cannot
 * share the machine with the other suites.
 */
const SERIAL = [
  // The siege counts how many ordinary requests its server answers among 2,200 hostile
  // sockets, a server in its own process (for its memory and a descriptor limit the test
  // process lacks) that no test clock reaches; beside other suites it answered fewer (see
  // docs/reliability.md). What loses them is the server's own lateness against a timer: a
  // connection whose request has arrived but is not read within the idle timeout (the server
  // busy rendering listings for the lanes meanwhile) is closed like one that never sent any,
  // and a starved server is late more often. No ordinary request takes a lane, and the cap is
  // not reached while that timer sheds. The timer cannot count bytes or the server's turns
  // instead: a slowloris head is progress in bytes, and only time tells it from an honest one.
  // Nor can the test step it: a stepped clock would have the test decide when a loris is timed
  // out, and with the stall clock held, as a deterministic run would need, the lanes never turn
  // and the siege tests nothing but the cap's order. Its sockets and child process would also
  // weigh on every suite beside it.
  "tests/reliability/siege_test.ts",
];
/**
 * The longest-running parallel files (tens of seconds each, mostly waiting on child processes,
 * Jupyter kernels and many small files), started first so that they do not end the run alone
 * (`deno test --parallel` takes files in the order given), slowest first as whole runs' JUnit
 * reports timed them (each file's share of its run, averaged over two runs). Each runs as a
 * module of its own, not from a generated one (see {@linkcode groupModules}), which also keeps
 * a generated module from holding several of them. Only the order changes.
 */
const LONGEST = [
  "tests/listing/dask_test.ts",
  "tests/reliability/notebook_test.ts",
  "tests/reliability/faults_test.ts",
  "tests/reliability/load_test.ts",
  "tests/ld/notebook_crates_test.ts",
  "tests/package/import_test.ts",
  "tests/handles/listing_large_test.ts",
  "tests/handles/file_test.ts",
  "tests/sample/mod_test.ts",
  "tests/notebooks/notebooks_test.ts",
  "tests/cli/commands/search_test.ts",
  "tests/reproduce/lock_travel_test.ts",
  "tests/cli/commands/notebook_test.ts",
  "tests/data/wild_test.ts",
  "tests/handles/search_test.ts",
  "tests/cli/commands/notebook_ends_test.ts",
  "tests/cli/commands/cite_test.ts",
  "tests/data/scan_test.ts",
];
/**
 * Test files of one folder per module of the first run (see {@linkcode groupModules}): few enough
 * that the modules still share the cores evenly, enough that loading tern once serves many files.
 */
const FILES_PER_MODULE = 8;
/** The files whose JSDoc examples run: the tests' and every module's. */
const ALL = ["tests/", "lib/", "mod.ts", "server.ts", "polars.ts", "sample.ts", "cli.ts"];
/** Where the examples' test modules are written (git-ignored), from the repository root. */
const EXAMPLES = ".doc_examples";

const ROOT = new URL("../", import.meta.url);
/** Where the notebooks' code is written as modules for the type-check (see `typesOnly`). */
const NOTEBOOK_MODULES = fileURLToPath(new URL(`${EXAMPLES}/notebooks/`, ROOT));

/** The counts of one summary line, by label ("passed", "failed", "ignored", …). */
export interface Counts {
  [label: string]: { tests: number; steps: number };
}

/** How one `deno test` run ended: its summary's counts, if it printed one. */
export interface Run {
  counts?: Counts;
  ok: boolean;
}

let runCount = 0;
/** The children running now (`deno test`, `deno check`), to pass a signal on to. */
const running = new Set<Deno.ChildProcess>();

async function main(args: string[]): Promise<number> {
  const started = performance.now();
  const stopCleanups = cleanUpWhenInterrupted();
  await using server = await serveSampleStore();
  await using temporary = await temporaryFolder();
  const env = { [EXAMPLE_SERVER_ENV]: server.url, TMPDIR: temporary.path };
  const runs: Run[] = [];
  if (args.length > 0) {
    runs.push(await denoTest(["--doc", ...args], env));
  } else {
    await using _examples = await exampleModules();
    // Most tests wait on sockets, child processes and timers, so twice as many test files as
    // cores keep the cores busier.
    const jobs = Deno.env.get("DENO_JOBS") ?? String(2 * navigator.hardwareConcurrency);
    // Every file named, not `tests/` with `--ignore`: Deno 2.9 drops `--ignore` once a file is
    // named too. The examples' folder last: many short files even out the end.
    const tests = testFiles("tests").filter((path) => !SERIAL.includes(path));
    const longest = LONGEST.filter((path) => tests.includes(path));
    const grouped = await groupModules(tests.filter((path) => !longest.includes(path)));
    const files = [...longest, ...grouped, `${EXAMPLES}/`];
    // The type-check (one pass, on one core) runs beside the tests instead of before them: the
    // tests keep both cores busy from the start. Its files include the serial run's and the
    // notebooks' code (see `typesOnly`), so the serial run needs no check of its own.
    const checked = denoCheck(files);
    runs.push(
      await denoTest(["--no-check", "--parallel", ...files], {
        ...env,
        DENO_JOBS: jobs,
        [NOTEBOOK_MODULES_ENV]: NOTEBOOK_MODULES,
      }),
    );
    runs.push(await checked);
    runs.push(await denoTest(["--no-check", ...SERIAL], env));
  }
  runs.push(temporary.report());
  stopCleanups();
  const crashed = runs.filter((run) => run.counts === undefined).length;
  if (crashed > 0) console.log(`${crashed} of ${runs.length} test runs ended without a summary`);
  console.log(`\n${combinedSummary(runs, performance.now() - started)}\n`);
  return runs.every((run) => run.ok) ? 0 : 1;
}

/**
 * Writes the examples' test modules (tests/doc_examples.ts) and deletes them when disposed, or
 * when the run is interrupted (see {@linkcode cleanUpWhenInterrupted}).
 */
async function exampleModules(): Promise<AsyncDisposable> {
  const folder = new URL(`${EXAMPLES}/`, ROOT);
  const remove = () => {
    try {
      Deno.removeSync(folder, { recursive: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  };
  // A run killed outright (SIGKILL) leaves the folder; the next run starts clean.
  remove();
  cleanups.add(remove);
  try {
    await writeExampleModules(ROOT, EXAMPLES, ALL);
    const notebooks = await writeNotebookModules(NOTEBOOK_MODULES);
    await Deno.writeTextFile(
      new URL(`${EXAMPLES}/types_only_test.ts`, ROOT),
      typesOnly(notebooks.map((file) => `./notebooks/${basename(file)}`)),
    );
    return {
      [Symbol.asyncDispose]: () => {
        cleanups.delete(remove);
        remove();
        return Promise.resolve();
      },
    };
  } catch (error) {
    cleanups.delete(remove);
    remove();
    throw error;
  }
}

/** What to remove if the run is interrupted: the examples' modules, the temporary folder. */
const cleanups = new Set<() => void>();

/**
 * On SIGINT or SIGTERM, passes the signal on to the children (the `deno test` child gets it from
 * the terminal too; this is for a signal sent to this process alone), removes what
 * {@linkcode cleanups} holds and exits. Returns the function that stops listening.
 */
function cleanUpWhenInterrupted(): () => void {
  const stops = (["SIGINT", "SIGTERM"] as const).map((signal) => {
    const listener = () => {
      for (const child of running) {
        try {
          child.kill(signal);
        } catch {
          // It has ended already.
        }
      }
      for (const cleanup of cleanups) cleanup();
      Deno.exit(signal === "SIGINT" ? 130 : 143);
    };
    Deno.addSignalListener(signal, listener);
    return () => Deno.removeSignalListener(signal, listener);
  });
  return () => {
    for (const stop of stops) stop();
  };
}

/** Where the run's temporary folder goes when the machine has memory-backed room for it. */
const MEMORY_FOLDER = "/dev/shm";
/** Room it needs there: the largest suites hold a few hundred megabytes at once. */
const MEMORY_NEEDED = 2e9;

/** The run's temporary folder, removed when disposed (or when the run is interrupted). */
interface TemporaryFolder extends AsyncDisposable {
  path: string;
  /** What the tests left in it, as a failed run (named on the console), or a passed one. */
  report(): Run;
}

/**
 * Makes the run's temporary folder: in {@linkcode MEMORY_FOLDER} when `df` says it has
 * {@linkcode MEMORY_NEEDED} free (a container's default /dev/shm is far smaller), else in the
 * system's temporary folder.
 */
async function temporaryFolder(): Promise<TemporaryFolder> {
  const path = await Deno.makeTempDir({
    prefix: "tern-test-run-",
    ...(await memoryHasRoom() ? { dir: MEMORY_FOLDER } : {}),
  });
  const remove = () => Deno.removeSync(path, { recursive: true });
  cleanups.add(remove);
  return {
    path,
    report(): Run {
      const left = [...Deno.readDirSync(path)].map((entry) => entry.name).sort();
      if (left.length === 0) return { ok: true, counts: {} };
      const entries = `${left.length} ${left.length === 1 ? "entry" : "entries"}`;
      console.log(`the tests left ${entries} in the temporary folder: ${left.join(", ")}`);
      return { ok: false, counts: { failed: { tests: 1, steps: 0 } } };
    },
    [Symbol.asyncDispose]() {
      cleanups.delete(remove);
      remove();
      return Promise.resolve();
    },
  };
}

/** Whether {@linkcode MEMORY_FOLDER} exists with room for the run (`df -Pk`, POSIX output). */
async function memoryHasRoom(): Promise<boolean> {
  try {
    const { success, stdout } = await new Deno.Command("df", {
      args: ["-Pk", MEMORY_FOLDER],
      stdout: "piped",
      stderr: "null",
    }).output();
    const fields = new TextDecoder().decode(stdout).trim().split("\n").at(-1)?.split(/\s+/);
    return success && Number(fields?.[3]) * 1024 >= MEMORY_NEEDED;
  } catch {
    // No df, or no /dev/shm: the system's temporary folder.
    return false;
  }
}

/**
 * Writes modules that import the first run's test files (`files`, paths from the root), up to
 * {@linkcode FILES_PER_MODULE} files of one folder each, as `<folder>/tests[_N]_test.ts` under
 * the examples' folder (removed with it), and returns their paths. `deno test` gives every module
 * a worker of its own that loads tern's modules and Polars again, which cost about as much CPU
 * as many files' tests; a file's tests run the same in the worker of the module importing it,
 * each still with its own sanitizers, one at a time.
 */
async function groupModules(files: string[]): Promise<string[]> {
  const byFolder = new Map<string, string[]>();
  for (const file of files) {
    const folder = file.slice(0, file.lastIndexOf("/"));
    byFolder.set(folder, [...byFolder.get(folder) ?? [], file]);
  }
  const written: string[] = [];
  for (const [folder, inFolder] of byFolder) {
    for (let start = 0; start < inFolder.length; start += FILES_PER_MODULE) {
      const index = start / FILES_PER_MODULE;
      const path = `${EXAMPLES}/${folder}/tests${index === 0 ? "" : `_${index + 1}`}_test.ts`;
      const target = new URL(path, ROOT);
      const imports = inFolder.slice(start, start + FILES_PER_MODULE)
        .map((file) =>
          `import "${
            relative(dirname(fileURLToPath(target)), fileURLToPath(new URL(file, ROOT)))
          }";\n`
        );
      await Deno.mkdir(new URL(".", target), { recursive: true });
      await Deno.writeTextFile(
        target,
        `// Written by tests/run.ts: runs these test files in one worker.\n${imports.join("")}`,
      );
      written.push(path);
    }
  }
  return written;
}

/**
 * A module of the first run that imports, for their types only, the serial files and the
 * notebooks' code (tests/notebooks/_code.ts): `deno test` type-checks them with everything
 * else in its one check, and runs none of them. Checked on their own, each would cost a second
 * pass over most of tern's modules.
 */
function typesOnly(notebooks: string[]): string {
  const imports = [...SERIAL.map((path) => `../${path}`), ...notebooks]
    .map((path) => `import type {} from "${path}";\n`);
  return `// Written by tests/run.ts: type-checks the serial run's files and the notebooks' code.\n${
    imports.join("")
  }`;
}

/**
 * One summary line for several runs, in Deno's format: counts summed, "FAILED" if any run
 * failed, and a run that ended without a summary (a type error, a crash) counted as a failure.
 */
export function combinedSummary(runs: Run[], ms: number): string {
  const total: Counts = { passed: { tests: 0, steps: 0 }, failed: { tests: 0, steps: 0 } };
  for (const run of runs) {
    if (run.counts === undefined) total.failed.tests += 1;
    for (const [label, { tests, steps }] of Object.entries(run.counts ?? {})) {
      total[label] ??= { tests: 0, steps: 0 };
      total[label].tests += tests;
      total[label].steps += steps;
    }
  }
  return summaryLine(total, runs.every((run) => run.ok), ms);
}

/** Runs `deno test -A …` from the repository root, passing its output through. */
async function denoTest(args: string[], env: Record<string, string>): Promise<Run> {
  const junit = Deno.env.get("TERN_TEST_JUNIT");
  runCount += 1;
  const report = junit ? [`--junit-path=${junit}/${runCount}.xml`] : [];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", ...report, ...args],
    cwd: ROOT,
    // --parallel runs as many files at once as there are cores (or DENO_JOBS).
    env,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  running.add(child);
  // Keep only the end: the summary is the last line.
  let tail = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    await writeAll(chunk);
    tail = (tail + decoder.decode(chunk, { stream: true })).slice(-4096);
  }
  const status = await child.status;
  running.delete(child);
  return { ok: status.success, counts: parseSummary(tail) };
}

/**
 * Type-checks `files` with `deno check` (its errors go to stderr): a run with no tests, or,
 * when the check failed, one that ended without a summary (counted as a failure).
 */
async function denoCheck(files: string[]): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", ...files],
    cwd: ROOT,
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  running.add(child);
  const status = await child.status;
  running.delete(child);
  if (!status.success) console.log("the type-check of the test files failed (see above)");
  return { ok: status.success, ...(status.success ? { counts: {} } : {}) };
}

async function writeAll(bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}

/** Reads Deno's last summary line, `ok | 12 passed (3 steps) | 0 failed | 1 ignored (5s)`. */
export function parseSummary(text: string): Counts | undefined {
  // deno-lint-ignore no-control-regex
  const plain = text.replace(/\x1b\[[0-9;]*m/g, "");
  const line = plain.split("\n").reverse().find((each) => /^(ok|FAILED) \| \d+ passed/.test(each));
  if (line === undefined) return undefined;
  const counts: Counts = {};
  for (const part of line.split(" | ").slice(1)) {
    const match = part.match(/^(\d+) ([a-z ]+?)(?: \((\d+) steps?\))?(?: \([^)]*\))?$/);
    if (match === null) continue;
    counts[match[2]] = { tests: Number(match[1]), steps: Number(match[3] ?? 0) };
  }
  return counts;
}

/** Deno's summary line for the combined counts. */
function summaryLine(total: Counts, ok: boolean, ms: number): string {
  const part = (label: string, always: boolean): string[] => {
    const { tests, steps } = total[label] ?? { tests: 0, steps: 0 };
    if (!always && tests === 0 && steps === 0) return [];
    const stepText = steps === 0 ? "" : ` (${steps} step${steps === 1 ? "" : "s"})`;
    return [`${tests} ${label}${stepText}`];
  };
  const parts = [
    ...part("passed", true),
    ...part("failed", true),
    ...part("ignored", false),
    ...part("measured", false),
    ...part("filtered out", false),
  ];
  return `${ok ? "ok" : "FAILED"} | ${parts.join(" | ")} (${elapsed(ms)})`;
}

function elapsed(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}

/** The test files `deno test` would find under `folder` (from the root), sorted. */
function testFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(new URL(`${folder}/`, ROOT))) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) found.push(...testFiles(path));
    else if (/(^|[._])test\.(ts|tsx|mts|js|jsx|mjs)$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}

if (import.meta.main) Deno.exit(await main(Deno.args));
