/**
 * `tern notebook` leaves nothing behind however it ends: the real program (`deno run -A cli.ts
 * notebook …` in a child process) is stopped by SIGTERM, SIGINT or SIGKILL while a cell sleeps,
 * or by `--timeout`; then no process it started (the Python runner, `deno jupyter --kernel`) is
 * left in the process table (/proc) and no `tern-jupyter-*` or `tern-notebook-tmp-*` folder is
 * left in its temporary folder (a fresh `TMPDIR` for each run, so the check is exact).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { findJupyter, writeNotebook } from "../../../notebooks/jupyter.ts";
import { type Cli, startCli } from "../_cli.ts";

const jupyter = await findJupyter();
const skipped = Deno.build.os !== "linux"
  ? "the process table is read from /proc"
  : "missing" in jupyter
  ? jupyter.missing
  : undefined;
if (skipped !== undefined) console.warn(`tern notebook end runs skipped: ${skipped}`);

/** Deadline for what only hangs would exceed: a kernel starting, a watcher acting. */
const WATCHDOG_MS = 60_000;

/** One process of the table. */
interface Proc {
  pid: number;
  ppid: number;
  /** Its process group. */
  group: number;
  args: string;
}

/**
 * The processes running in `folder` (their working folder; zombies, which run nothing, left
 * out). A run's notebook has a folder of its own, and its runner and kernel run in it, as does
 * anything its cells start: so this finds them all without having to catch them beforehand.
 */
function runningIn(folder: string): Proc[] {
  const found: Proc[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      if (Deno.readLinkSync(`/proc/${entry.name}/cwd`) !== folder) continue;
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      // After the command name in parentheses (which may hold anything): state, ppid, …
      const [state, ppid, group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z") continue;
      const args = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
      found.push({
        pid: Number(entry.name),
        ppid: Number(ppid),
        group: Number(group),
        args: args.trim(),
      });
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}

/** Waits until `ready()`, failing if tern exits first (`ended`) or the watchdog fires. */
async function until(
  ready: () => Promise<boolean> | boolean,
  what: string,
  ended?: Promise<Deno.CommandOutput>,
): Promise<void> {
  let exited: Deno.CommandOutput | undefined;
  ended?.then((output) => exited = output, () => {});
  const deadline = Date.now() + WATCHDOG_MS;
  while (!await ready()) {
    if (exited !== undefined) {
      assert.fail(`tern exited (${exited.code}) before ${what}: ${decode(exited.stderr)}`);
    }
    assert.ok(Date.now() < deadline, `watchdog: still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** This process's process group. */
function ownGroup(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

/** The `tern-jupyter-*` and `tern-notebook-tmp-*` folders in `tmp`. */
function ternFolders(tmp: string): string[] {
  return [...Deno.readDirSync(tmp)].map((entry) => entry.name)
    .filter((name) => /^tern-(jupyter|notebook-tmp)-/.test(name)).sort();
}

/** How one run ended. */
interface Ended {
  output: Deno.CommandOutput;
  /** What tern wrote to stderr (on a terminal: to the terminal). */
  stderr: string;
  /** The notebook's folder, where the runner and kernel ran (its real path). */
  work: string;
  /** This run's TMPDIR. */
  tmp: string;
}

/**
 * Runs `tern notebook` (`terminal`: on a terminal of its own, in a session and process group of
 * its own) on a notebook whose second cell writes the kernel's pid and sleeps. With `stop`,
 * waits until the cell sleeps, checks that the runner and kernel are there to be found, then
 * calls `stop(child, runner)`; without, lets the run end by itself (`--timeout`). Disposing it
 * kills whatever still runs in the notebook's folder, so a failed check leaves nothing either.
 */
async function runNotebook(
  cli: Cli,
  python: string,
  options: {
    stop?: (child: Deno.ChildProcess, runner: Proc) => Promise<void> | void;
    args?: readonly string[];
    terminal?: boolean;
  },
): Promise<Ended & AsyncDisposable> {
  const work = await Deno.realPath(await Deno.makeTempDir({ dir: cli.dir }));
  const tmp = join(work, "tmp");
  await Deno.mkdir(tmp);
  const source = join(work, "sleeps.ipynb");
  const marker = join(work, "kernel.pid");
  await writeNotebook(source, [
    "const ready = 1;",
    // The kernel's working folder is the notebook's.
    'await Deno.writeTextFile("kernel.pid", String(Deno.pid));\n' +
    "await new Promise((resolve) => setTimeout(resolve, 600_000));",
  ]);
  const args = ["notebook", source, "--python", python, ...options.args ?? []];
  const runOptions = { cwd: work, env: { TMPDIR: tmp } };
  const child = options.terminal
    ? cli.spawnOnTerminal(args, runOptions)
    : cli.spawn(args, runOptions);
  const output = child.output();
  const killLeftovers = async () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
    await output.catch(() => {});
    if (options.terminal) await child.stdin.close().catch(() => {});
    for (const proc of runningIn(work)) {
      // A kernel leads a process group of its own.
      for (const target of [-proc.pid, proc.pid]) {
        try {
          Deno.kill(target, "SIGKILL");
        } catch {
          // Not a group leader, or ended meanwhile.
        }
      }
    }
  };
  try {
    if (options.stop !== undefined) {
      await until(() => Deno.stat(marker).then(() => true, () => false), "the cell ran", output);
      // The runner and the kernel are there, so finding none later means they ended.
      const procs = runningIn(work);
      const kernel = procs.find((proc) => proc.pid === Number(Deno.readTextFileSync(marker)));
      assert.match(kernel?.args ?? "", /\bjupyter --kernel\b/, "the kernel runs in its folder");
      const runner = procs.find((proc) => proc.pid === kernel?.ppid);
      assert.match(runner?.args ?? "", /python/, "the kernel's parent is the Python runner");
      await options.stop(child, runner!);
    }
    const ended = await output;
    return {
      output: ended,
      stderr: decode(options.terminal ? ended.stdout : ended.stderr),
      work,
      tmp,
      [Symbol.asyncDispose]: killLeftovers,
    };
  } catch (error) {
    await killLeftovers();
    throw error;
  }
}

/**
 * Nothing runs in the notebook's folder any more, and no folder of the run is left in TMPDIR.
 * With `wait`, gives tern's runner time to notice that tern is gone and act (a watchdog only).
 */
async function assertClean(ended: Ended, wait: boolean): Promise<void> {
  if (wait) {
    // On the watchdog, the assertion below names what is left.
    await until(() => runningIn(ended.work).length === 0, "the runner and kernel to end")
      .catch(() => {});
  }
  assert.deepEqual(
    runningIn(ended.work).map((proc) => proc.args.slice(0, 120)),
    [],
    "processes tern started are still running",
  );
  assert.deepEqual(ternFolders(ended.tmp), [], "tern's temporary folders are still there");
}

Deno.test({
  name: "tern notebook: SIGTERM, SIGKILL, SIGINT and --timeout leave no process and no folder",
  ignore: skipped !== undefined,
  async fn(t) {
    if (!("python" in jupyter)) return;
    const python = jupyter.python;
    await using cli = await startCli();

    await t.step(
      "SIGTERM to tern alone (kill PID): tern dies, its runner cleans up",
      async () => {
        await using ended = await runNotebook(cli, python, {
          stop: (child) => child.kill("SIGTERM"),
        });
        assert.equal(ended.output.signal, "SIGTERM", ended.stderr);
        await assertClean(ended, true);
      },
    );

    await t.step("SIGKILL: nothing can catch it, and the runner still cleans up", async () => {
      await using ended = await runNotebook(cli, python, {
        stop: (child) => child.kill("SIGKILL"),
      });
      assert.equal(ended.output.signal, "SIGKILL", ended.stderr);
      await assertClean(ended, true);
    });

    await t.step(
      "SIGTERM to the process group (timeout(1), CI): reaches tern and the runner",
      async () => {
        await using ended = await runNotebook(cli, python, {
          terminal: true,
          stop: (_, runner) => {
            // The terminal's group, never the test's own.
            assert.notEqual(runner.group, ownGroup());
            Deno.kill(-runner.group, "SIGTERM");
          },
        });
        assert.equal(ended.output.code, 143, ended.stderr);
        await assertClean(ended, true);
      },
    );

    await t.step("Ctrl-C on a terminal: SIGINT to tern and its runner at once", async () => {
      await using ended = await runNotebook(cli, python, {
        terminal: true,
        stop: async (child) => {
          const writer = child.stdin.getWriter();
          await writer.write(new Uint8Array([3]));
          writer.releaseLock();
        },
      });
      assert.equal(ended.output.code, 130, ended.stderr);
      // The terminal echoes the Ctrl-C as "^C".
      assert.match(ended.stderr, /^(\^C)?interrupted\r?$/m);
      await assertClean(ended, false);
    });

    await t.step("SIGINT: tern exits 130 once everything is cleaned up", async () => {
      await using ended = await runNotebook(cli, python, { stop: (child) => child.kill("SIGINT") });
      assert.equal(ended.output.code, 130, ended.stderr);
      assert.match(ended.stderr, /^interrupted$/m);
      await assertClean(ended, false);
    });

    await t.step(
      "--timeout: exit 1 naming the cell and its first line, all cleaned up",
      async () => {
        await using ended = await runNotebook(cli, python, { args: ["--timeout", "1"] });
        assert.equal(ended.output.code, 1, ended.stderr);
        assert.match(
          ended.stderr,
          /^error: NotebookRunError: Running ".*sleeps\.ipynb" failed: cell 2 ran past the 1 s timeout: await Deno\.writeTextFile\("kernel\.pid", String\(Deno\.pid\)\);$/m,
        );
        await assertClean(ended, false);
      },
    );
  },
});
