/**
 * Executes a Jupyter notebook headless with the Deno kernel and loses no output: the runner
 * behind `tern notebook`, the notebook tests and the screenshots.
 *
 * - **Jupyter** is Python's: nbclient and nbformat (nbconvert for HTML) under a `python3`;
 *   {@linkcode findJupyter} names what is missing and how to install it.
 * - **The kernel** is, unless told otherwise, this very Deno (`Deno.execPath()`) through a
 *   kernelspec in a temporary `JUPYTER_PATH`, so no `deno jupyter --install` is needed and no
 *   other Deno is picked up.
 * - **The runner** is an nbclient subclass, passed to Python with `-c` (nothing to install or
 *   clean up). The Deno kernel (2.9.6 and later) may publish a cell's last outputs after it
 *   reports `status: idle` (docs/notebooks.md has the reproduction); plain
 *   `jupyter nbconvert --execute` stops listening at idle and drops them at random. After each
 *   cell's idle the runner sends a silent marker cell that broadcasts through the kernel's same
 *   IOPub queue, and reads until the marker arrives: by then the cell's every output has
 *   arrived, at the cost of one round trip per cell rather than a waiting period.
 * - **Every end cleans up.** The runner kills the kernel's whole process group and removes the
 *   run's temporary folders however the run ends: done, failed, a cell past its timeout (named
 *   with its number and first line), SIGINT, SIGTERM or SIGHUP, or this process gone. It reads
 *   a pipe from this process that is never written, so even a SIGKILL here, which nothing can
 *   catch, reaches it as end of file.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { TernError } from "../../mod.ts";

/**
 * Jupyter's Python packages are missing (or no Python was found): the message names each
 * missing package and how to install it.
 *
 * @example
 * ```ts
 * import { JupyterMissingError } from "./notebook_runner.ts";
 * import { TernError } from "../../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(new JupyterMissingError("nbclient is missing.") instanceof TernError);
 * ```
 */
export class JupyterMissingError extends TernError {}

/**
 * Running a notebook failed as a whole (not one of its cells): the file is not a notebook, the
 * kernel died or could not start, a cell ran past its timeout.
 *
 * @example
 * ```ts
 * import { NotebookRunError } from "./notebook_runner.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new NotebookRunError("Kernel died.").name, "NotebookRunError");
 * ```
 */
export class NotebookRunError extends TernError {}

/** Python modules the runner needs, and where each comes from. */
const PACKAGES = {
  nbclient: { debian: "python3-nbclient", pip: "nbclient" },
  nbformat: { debian: "python3-nbformat", pip: "nbformat" },
  jupyter_client: { debian: "jupyter-client", pip: "jupyter-client" },
  nbconvert: { debian: "jupyter-nbconvert", pip: "nbconvert" },
} as const;

type Module = keyof typeof PACKAGES;

/**
 * Pythons tried in turn when none is named: the one on PATH (a virtual environment's, where a
 * researcher installed Jupyter), then Debian's, where its jupyter packages live.
 */
const PYTHONS = ["python3", "/usr/bin/python3"];

/**
 * Finds a Python that can run notebooks (and, with `html`, convert them to HTML). Tries
 * `python` when given, else `python3` on PATH, then `/usr/bin/python3`.
 *
 * @throws {JupyterMissingError} naming the missing packages (of the most complete Python
 * found) and the commands that install them, or saying that no Python was found.
 *
 * @example
 * ```ts
 * import { findJupyter, JupyterMissingError } from "./notebook_runner.ts";
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(
 *   findJupyter({ python: "/nonexistent/python3" }),
 *   (error) => error instanceof JupyterMissingError && /no Python at/.test(error.message),
 * );
 * ```
 */
export async function findJupyter(options: { python?: string; html?: boolean } = {}): Promise<
  string
> {
  const needed: Module[] = ["nbclient", "nbformat", "jupyter_client"];
  if (options.html === true) needed.push("nbconvert");
  const candidates = options.python === undefined ? PYTHONS : [options.python];
  let best: { python: string; missing: Module[] } | undefined;
  for (const python of candidates) {
    const missing = await missingModules(python, needed);
    if (missing === undefined) continue;
    if (missing.length === 0) return python;
    if (best === undefined || missing.length < best.missing.length) best = { python, missing };
  }
  if (best === undefined) {
    throw new JupyterMissingError(
      options.python === undefined
        ? "Running a notebook needs Python 3 with Jupyter, and no python3 was found on PATH " +
          "or at /usr/bin/python3."
        : `Running a notebook needs Python 3 with Jupyter, and there is no Python at ` +
          `${JSON.stringify(options.python)}.`,
    );
  }
  const names = best.missing.join(", ");
  throw new JupyterMissingError(
    `Running a notebook needs the Python package${best.missing.length > 1 ? "s" : ""} ` +
      `${names}, missing from ${best.python}. Install with: ` +
      `apt-get install ${best.missing.map((name) => PACKAGES[name].debian).join(" ")} ` +
      `(Debian, Ubuntu), or ${best.python} -m pip install ` +
      `${best.missing.map((name) => PACKAGES[name].pip).join(" ")}.`,
  );
}

/** The modules `python` cannot import, or `undefined` when it does not run at all. */
async function missingModules(python: string, modules: Module[]): Promise<Module[] | undefined> {
  const probe = `import importlib.util, json\nprint(json.dumps([m for m in ${
    JSON.stringify(modules)
  } if importlib.util.find_spec(m) is None]))`;
  try {
    const result = await new Deno.Command(python, {
      args: ["-c", probe],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!result.success) return undefined;
    return JSON.parse(new TextDecoder().decode(result.stdout)) as Module[];
  } catch {
    return undefined;
  }
}

/**
 * A kernelspec for this Deno in a new temporary folder, removed on dispose: pass `jupyterPath`
 * as `JUPYTER_PATH` and `kernel` as the kernel's name.
 *
 * @example
 * ```ts
 * import { denoKernelspec } from "./notebook_runner.ts";
 * import { join } from "node:path";
 * import assert from "node:assert/strict";
 *
 * let folder: string;
 * {
 *   await using spec = await denoKernelspec();
 *   folder = spec.jupyterPath;
 *   const json = JSON.parse(
 *     await Deno.readTextFile(join(folder, "kernels", spec.kernel, "kernel.json")),
 *   );
 *   assert.equal(json.argv[0], Deno.execPath());
 * }
 * assert.equal(await Deno.stat(folder).then(() => true, () => false), false); // removed
 * ```
 */
export async function denoKernelspec(): Promise<
  { jupyterPath: string; kernel: string } & AsyncDisposable
> {
  const jupyterPath = await Deno.makeTempDir({ prefix: "tern-jupyter-" });
  const kernel = "tern-deno";
  await Deno.mkdir(join(jupyterPath, "kernels", kernel), { recursive: true });
  await Deno.writeTextFile(
    join(jupyterPath, "kernels", kernel, "kernel.json"),
    JSON.stringify({
      argv: [Deno.execPath(), "jupyter", "--kernel", "--conn", "{connection_file}"],
      display_name: "Deno",
      language: "typescript",
      // Interrupts by message: a SIGINT would kill the Deno kernel.
      interrupt_mode: "message",
      env: { NO_COLOR: "1" },
    }),
  );
  return {
    jupyterPath,
    kernel,
    // The notebook runner removes it as well when it ends, so it may be gone already.
    [Symbol.asyncDispose]: () =>
      Deno.remove(jupyterPath, { recursive: true }).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }),
  };
}

/**
 * How {@linkcode runNotebook} runs a notebook.
 *
 * @example
 * ```ts
 * import type { NotebookOptions } from "./notebook_runner.ts";
 *
 * const options: NotebookOptions = { output: "out.ipynb", html: "out.html", timeoutSeconds: 120 };
 * ```
 */
export interface NotebookOptions {
  /** Where to write the executed notebook (written whole or not at all). */
  output?: string;
  /** Where to write the executed notebook as HTML (nbconvert's `lab` template). */
  html?: string;
  /** The Python with Jupyter (see {@linkcode findJupyter}; default: found). */
  python?: string;
  /**
   * An installed kernelspec to run instead of this Deno (e.g. `deno` after
   * `deno jupyter --install`). Default: this Deno through a temporary kernelspec.
   */
  kernel?: string;
  /** Seconds a cell may run. @default no limit */
  timeoutSeconds?: number;
  /** The environment of Python and the kernel. @default this process's */
  env?: Record<string, string>;
  /** Stops the run: the kernel is shut down and nothing is written. */
  signal?: AbortSignal;
}

/**
 * What a notebook run gave: how many code cells ran, and each cell that ended in an error.
 *
 * @example
 * ```ts
 * import type { NotebookResult } from "./notebook_runner.ts";
 *
 * const result: NotebookResult = { cells: 9, errors: [{ cell: 4, ename: "TypeError", evalue: "boom" }] };
 * ```
 */
export interface NotebookResult {
  /** Code cells executed. */
  cells: number;
  /** Cells whose output holds an error: their number (1-based, code cells only) and error. */
  errors: { cell: number; ename: string; evalue: string }[];
}

/**
 * Executes the notebook at `source` with the kernel's working folder beside it, and writes the
 * executed notebook to `output` and/or HTML to `html`. Every cell runs even when one fails
 * (the result lists the failures). The kernel gets a temporary folder of its own (`TMPDIR`),
 * removed after the run.
 *
 * @throws {JupyterMissingError} when Jupyter's packages are missing.
 * @throws {NotebookRunError} when the run itself fails (not a notebook, the kernel died, a
 * timeout), with the end of Jupyter's own message.
 *
 * @example
 * ```ts ignore
 * const result = await runNotebook("notebooks/quickstart.ipynb", { output: "/tmp/quickstart.ipynb" });
 * console.log(result.cells, result.errors);
 * ```
 */
export async function runNotebook(
  source: string,
  options: NotebookOptions = {},
): Promise<NotebookResult> {
  options.signal?.throwIfAborted();
  const python = await findJupyter({ python: options.python, html: options.html !== undefined });
  await using spec = options.kernel === undefined ? await denoKernelspec() : undefined;
  // The kernel's temporary folder, removed after the run: what a notebook leaves there (a
  // cache made with Deno.makeTempDir, say) dies with its kernel instead of piling up.
  const scratch = await Deno.makeTempDir({ prefix: "tern-notebook-tmp-" });
  // Written beside their targets and renamed into place, so a failed run leaves nothing half
  // written and a target is never replaced by less than a whole file.
  const staged = [options.output, options.html].map((target) =>
    target === undefined
      ? undefined
      : join(dirname(target), `.${basename(target)}.${crypto.randomUUID()}.tern-partial`)
  );
  const env: Record<string, string> = { ...(options.env ?? Deno.env.toObject()), TMPDIR: scratch };
  if (spec !== undefined) {
    env.JUPYTER_PATH = [spec.jupyterPath, env.JUPYTER_PATH].filter(Boolean).join(":");
  }
  try {
    const child = new Deno.Command(python, {
      args: [
        "-c",
        RUNNER,
        source,
        "--kernel",
        options.kernel ?? spec?.kernel ?? "deno",
        ...(options.timeoutSeconds === undefined
          ? []
          : ["--timeout", String(options.timeoutSeconds)]),
        ...(staged[0] === undefined ? [] : ["--output", staged[0]]),
        ...(staged[1] === undefined ? [] : ["--html", staged[1]]),
        // Removed by the runner too: it outlives this process when this one is killed.
        ...[scratch, spec?.jupyterPath].flatMap((path) =>
          path === undefined ? [] : ["--remove", path]
        ),
      ],
      cwd: dirname(source),
      env,
      clearEnv: true,
      // Never written: the runner stops the run when this pipe closes, which it does when this
      // process stops the run or dies (even by SIGKILL).
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stop = () => child.stdin.close().catch(() => {});
    options.signal?.addEventListener("abort", stop, { once: true });
    const [status, stdout, stderr] = await Promise.all([
      child.status,
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
    ]).finally(() => {
      options.signal?.removeEventListener("abort", stop);
      return stop();
    });
    options.signal?.throwIfAborted();
    if (!status.success) {
      throw new NotebookRunError(
        `Running ${JSON.stringify(source)} failed: ${lastError(stderr)}`,
        { path: source },
      );
    }
    for (const [index, target] of [options.output, options.html].entries()) {
      if (target !== undefined) await Deno.rename(staged[index]!, target);
    }
    return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as NotebookResult;
  } finally {
    for (const path of staged) if (path !== undefined) await Deno.remove(path).catch(() => {});
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

/** The line of Python's stderr that says what went wrong (its last non-empty one), cut short. */
function lastError(stderr: string): string {
  const lines = stderr.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  const line = lines.at(-1) ?? "Python exited without saying why";
  return line.length > 500 ? `${line.slice(0, 499)}…` : line;
}

/**
 * The runner's Python source. Arguments: SOURCE [--kernel NAME] [--grace S] [--timeout S]
 * [--output PATH] [--html PATH] [--remove PATH]…; prints the result as one JSON line on stdout.
 * `--grace` is how long it waits for the marker after the marker cell went idle: only a kernel
 * that cannot broadcast, not Deno's, ever waits that long.
 * It ends its run (kills the kernel, removes the `--remove` folders and any partial output) at
 * SIGINT, SIGTERM or SIGHUP, and once its stdin reaches end of file: tern holds the other end of
 * that pipe and writes nothing, so it closes when tern stops the run or dies, even by SIGKILL.
 */
const RUNNER = String.raw`
import argparse, os, shutil, signal, sys, threading

# Set up before the slow imports below, so that an end at any moment cleans up.
parser = argparse.ArgumentParser(prog="tern notebook")
parser.add_argument("source")
parser.add_argument("--kernel", default="deno")
parser.add_argument("--grace", type=float, default=0.3)
parser.add_argument("--timeout", type=int, default=None)
parser.add_argument("--output")
parser.add_argument("--html")
parser.add_argument("--remove", action="append", default=[])
args = parser.parse_args()
client = None


def end(kept):
    """Kills the kernel and removes the folders (and the outputs, unless kept).

    Safe to run twice at once (a signal during a stop by the watcher, say): each step is.
    """
    km = getattr(client, "km", None)
    # Set from the moment the kernel starts until nbclient has shut it down and waited for it.
    process = getattr(getattr(km, "provisioner", None), "process", None)
    # Not Popen's poll() or wait(): a signal may have interrupted this very thread inside one,
    # holding the lock they take. A return code not yet set means the kernel was not reaped,
    # so its pid and process group id are still its own.
    if process is not None and process.returncode is None:
        try:
            # The kernel leads a session, so a process group, of its own: what its cells
            # started dies with it.
            os.killpg(process.pid, signal.SIGKILL)
            os.waitpid(process.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    for path in args.remove:
        shutil.rmtree(path, ignore_errors=True)
    for path in [] if kept else [args.output, args.html]:
        try:
            if path:
                os.remove(path)
        except FileNotFoundError:
            pass


def finish(code, message=None, kept=False):
    """Every end of the runner: os._exit, so that no interpreter teardown (nbclient's pending
    tasks, zmq's sockets) can hang the exit or print after the message."""
    try:
        end(kept)
        if message is not None:
            print(message.replace("\n", " "), file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        # Also when writing failed: tern, which reads stdout and stderr, may be gone.
        os._exit(code)


for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(stop, lambda sig, _: finish(128 + sig, f"stopped by {signal.Signals(sig).name}"))


def watch_parent():
    # tern holds the other end and writes nothing: end of file means it closed the pipe to
    # stop the run, or died, even by SIGKILL, which nothing can catch.
    sys.stdin.buffer.read()
    finish(1, "stopped: tern closed the runner's input")


threading.Thread(target=watch_parent, daemon=True).start()

import asyncio, json, queue, time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionComplete, CellTimeoutError


class Failure(Exception):
    """A run that failed as a whole, in words fit for the user."""


class LateOutputClient(NotebookClient):
    """Reads each cell's IOPub messages until the kernel has published all of them.

    The Deno kernel reports idle before it has published what the cell sent through its IOPub
    queue, and it stamps a queued message with the parent header current when it dequeues it.
    So after idle, a silent marker cell broadcasts a "tern_flush" message through that same
    queue: once the marker arrives, everything the cell queued before it has arrived too
    (under the cell's header, or under the marker's, which can only be the cell's as well).
    """

    async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
        try:
            return await super().async_execute_cell(cell, cell_index, *args, **kwargs)
        except CellTimeoutError:
            # nbclient's message quotes the whole cell, and is not the last line Python prints.
            number = sum(1 for c in self.nb.cells[: cell_index + 1] if c.cell_type == "code")
            lines = [line.strip() for line in cell.source.split("\n") if line.strip()]
            first = lines[0] if lines else "(empty)"
            if len(first) > 100:
                first = first[:99] + "…"
            raise Failure(f"cell {number} ran past the {self.timeout} s timeout: {first}") from None

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        marker = None
        marker_idle = None
        while True:
            wait = None
            if marker_idle is not None:
                # A kernel that cannot broadcast (not Deno) never sends the marker.
                wait = args.grace - (time.monotonic() - marker_idle)
                if wait <= 0:
                    return
            try:
                msg = await self.kc.iopub_channel.get_msg(timeout=wait)
            except (queue.Empty, asyncio.TimeoutError):
                return
            parent = msg["parent_header"].get("msg_id")
            kind = msg["msg_type"]
            if parent == parent_msg_id:
                try:
                    self.process_message(msg, cell, cell_index)
                except CellExecutionComplete:
                    marker = self.kc.execute(FLUSH, silent=True, store_history=False,
                                             allow_stdin=False, stop_on_error=False)
                    if asyncio.iscoroutine(marker):
                        marker = await marker
            elif marker is not None and parent == marker:
                if kind == "tern_flush" or kind == "error":
                    return
                if kind == "status":
                    if msg["content"].get("execution_state") == "idle":
                        marker_idle = time.monotonic()
                    continue
                if kind == "execute_input":
                    continue
                # Queued by the cell, dequeued after the marker started: the cell's.
                self.process_message(msg, cell, cell_index)


class OwnSignalsLoop(asyncio.SelectorEventLoop):
    """Leaves SIGINT and SIGTERM to the runner's handlers above.

    nbclient's own handlers start a graceful kernel shutdown and let the run go on. It expects
    RuntimeError here (as on Windows, or off the main thread) and carries on without them.
    """

    def add_signal_handler(self, sig, callback, *args):
        raise RuntimeError("the runner handles signals")

    def remove_signal_handler(self, sig):
        raise RuntimeError("the runner handles signals")


FLUSH = 'await Deno.jupyter.broadcast("tern_flush", {});'

# jupyter_client picks the kernel's ports by binding and releasing them, so another process can
# take one before the kernel binds it, and the kernel dies at start. A new start picks new ports;
# no cell has run yet, and nbclient has already shut the dead start down.
STARTS = 3

try:
    nb = nbformat.read(args.source, as_version=4)
    for start in range(1, STARTS + 1):
        client = LateOutputClient(
            nb,
            kernel_name=args.kernel,
            timeout=args.timeout,
            allow_errors=True,
            # How long the outputs may trail the reply; the marker normally ends that in a moment.
            iopub_timeout=30,
            resources={"metadata": {"path": os.path.dirname(os.path.abspath(args.source))}},
        )
        try:
            OwnSignalsLoop().run_until_complete(client.async_execute())
            break
        except RuntimeError as error:
            if "before replying to kernel_info" not in str(error) or start == STARTS:
                raise
    if args.output:
        nbformat.write(nb, args.output)
    if args.html:
        from nbconvert import HTMLExporter
        body, _ = HTMLExporter().from_notebook_node(nb)
        with open(args.html, "w", encoding="utf-8") as out:
            out.write(body)
except Failure as failure:
    finish(1, str(failure))
except Exception as error:
    finish(1, f"{type(error).__name__}: {error}")

errors, number = [], 0
for cell in nb.cells:
    if cell.cell_type != "code":
        continue
    number += 1
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            errors.append({"cell": number, "ename": output.get("ename", ""),
                           "evalue": output.get("evalue", "")})
print(json.dumps({"cells": client.code_cells_executed, "errors": errors}))
finish(0, kept=True)
`;
