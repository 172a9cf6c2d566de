/**
 * Runs the notebooks headless in real Jupyter with the Deno kernel, for the notebook tests and
 * the screenshots task.
 *
 * - **Jupyter** is Debian's (`jupyter-nbconvert`, `jupyter-client`: Python's nbclient and
 *   nbformat under `/usr/bin/python3`); {@linkcode findJupyter} says what is missing.
 * - **The kernel** is a project-local kernelspec in a temporary `JUPYTER_PATH`, pointing at the
 *   Deno binary that runs this code (`Deno.execPath()`), so a fresh clone needs no
 *   `deno jupyter --install` and never picks up another Deno.
 * - **The runner** (`tests/notebooks/run_notebook.py`) works around the Deno kernel publishing a
 *   cell's last outputs after it reports idle, which plain nbconvert drops at random.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The runner script, beside the notebook tests. */
export const RUNNER: string = fileURLToPath(
  new URL("../tests/notebooks/run_notebook.py", import.meta.url),
);

/** Pythons to try, Debian's first (its jupyter packages install there, not in pyenv's). */
const PYTHONS = ["/usr/bin/python3", "python3"];

/**
 * A Python that can run notebooks, or what is missing.
 *
 * @example
 * ```ts
 * import type { JupyterCheck } from "./jupyter.ts";
 *
 * const describe = (check: JupyterCheck) => "python" in check ? check.python : check.missing;
 * ```
 */
export type JupyterCheck = { python: string; nbconvert: boolean } | { missing: string };

/**
 * Finds a Python with nbclient and nbformat (and says whether nbconvert is there too, for the
 * screenshots), or says what to install.
 *
 * @example
 * ```ts ignore
 * const check = await findJupyter();
 * if ("missing" in check) console.log(check.missing);
 * ```
 */
export async function findJupyter(): Promise<JupyterCheck> {
  for (const python of PYTHONS) {
    const probe = await output(python, [
      "-c",
      "import nbclient, nbformat\ntry:\n import nbconvert; print('nbconvert')\nexcept ImportError:\n print('-')",
    ]);
    if (probe.ok) return { python, nbconvert: probe.stdout.trim() === "nbconvert" };
  }
  return {
    missing:
      "Jupyter is not installed: no python3 can import nbclient and nbformat. On Debian or " +
      "Ubuntu: apt-get install jupyter-nbconvert jupyter-client (CI's .ci/run does this as root).",
  };
}

/**
 * A kernelspec for this Deno in a new temporary folder: pass `jupyterPath` as `JUPYTER_PATH` and
 * `kernel` as the kernel name. Remove `jupyterPath` when done.
 *
 * @example
 * ```ts ignore
 * const { jupyterPath, kernel } = await makeKernelspec();
 * ```
 */
export async function makeKernelspec(): Promise<{ jupyterPath: string; kernel: string }> {
  const jupyterPath = await Deno.makeTempDir({ prefix: "tern-jupyter-" });
  const kernel = "tern-deno";
  await Deno.mkdir(join(jupyterPath, "kernels", kernel), { recursive: true });
  await Deno.writeTextFile(
    join(jupyterPath, "kernels", kernel, "kernel.json"),
    JSON.stringify({
      argv: [Deno.execPath(), "jupyter", "--kernel", "--conn", "{connection_file}"],
      display_name: "Deno (tern)",
      language: "typescript",
      // Interrupts by message: a SIGINT would kill the Deno kernel.
      interrupt_mode: "message",
      env: { NO_COLOR: "1" },
    }),
  );
  return { jupyterPath, kernel };
}

/**
 * How {@linkcode runNotebook} runs.
 *
 * @example
 * ```ts
 * import type { RunOptions } from "./jupyter.ts";
 *
 * const options: RunOptions = { python: "/usr/bin/python3", jupyterPath: "/tmp/k", kernel: "tern-deno" };
 * ```
 */
export interface RunOptions {
  /** The Python with nbclient. */
  python: string;
  /** The folder holding the kernelspec. */
  jupyterPath: string;
  /** The kernel's name. */
  kernel: string;
  /** Seconds a cell may take (default 300). */
  timeoutSeconds?: number;
  /** Seconds to keep listening after a cell went idle (default 0.3). */
  graceSeconds?: number;
}

/**
 * Executes `source` and writes the executed notebook to `target`. Cells run even after one
 * fails (the caller looks for `error` outputs); `TERRAIN_*` variables are left out so the
 * notebooks serve the sample store themselves.
 *
 * @throws {Error} with the runner's stderr when the run itself fails (kernel died, timeout).
 *
 * @example
 * ```ts ignore
 * await runNotebook("notebooks/quickstart.ipynb", "/tmp/quickstart.ipynb", { python, jupyterPath, kernel });
 * ```
 */
export async function runNotebook(
  source: string,
  target: string,
  options: RunOptions,
): Promise<void> {
  const env = Deno.env.toObject();
  for (const name of Object.keys(env)) if (name.startsWith("TERRAIN_")) delete env[name];
  const result = await output(
    options.python,
    [
      RUNNER,
      source,
      target,
      "--kernel",
      options.kernel,
      "--grace",
      String(options.graceSeconds ?? 0.3),
      "--timeout",
      String(options.timeoutSeconds ?? 300),
    ],
    { ...env, JUPYTER_PATH: options.jupyterPath, NO_COLOR: "1" },
    dirname(source),
  );
  if (!result.ok) {
    throw new Error(`Running ${source} failed:\n${result.stderr.slice(-4000)}`);
  }
}

/**
 * One output of an executed cell, as nbformat stores it.
 *
 * @example
 * ```ts
 * import type { CellOutput } from "./jupyter.ts";
 *
 * const isError = (output: CellOutput) => output.output_type === "error";
 * ```
 */
export interface CellOutput {
  /** `execute_result`, `display_data`, `stream` or `error`. */
  output_type: string;
  /** MIME bundle (results and displays). */
  data?: Record<string, string | string[] | unknown>;
  /** Stream text. */
  text?: string | string[];
  /** Stream name. */
  name?: string;
  /** Error name and value. */
  ename?: string;
  /** Error message. */
  evalue?: string;
}

/**
 * A notebook cell, as nbformat stores it.
 *
 * @example
 * ```ts
 * import type { NotebookCell } from "./jupyter.ts";
 *
 * const isCode = (cell: NotebookCell) => cell.cell_type === "code";
 * ```
 */
export interface NotebookCell {
  /** `code` or `markdown`. */
  cell_type: string;
  /** Source lines. */
  source: string | string[];
  /** Outputs (code cells). */
  outputs?: CellOutput[];
}

/**
 * The cells of a notebook file.
 *
 * @example
 * ```ts ignore
 * const code = (await readCells("notebooks/quickstart.ipynb")).filter((cell) => cell.cell_type === "code");
 * ```
 */
export async function readCells(path: string): Promise<NotebookCell[]> {
  return (JSON.parse(await Deno.readTextFile(path)) as { cells: NotebookCell[] }).cells;
}

/**
 * A multi-line nbformat field as one string.
 *
 * @example
 * ```ts
 * import { joined } from "./jupyter.ts";
 *
 * console.log(joined(["a\n", "b"])); // "a\nb"
 * ```
 */
export function joined(value: string | string[] | unknown): string {
  return Array.isArray(value) ? value.join("") : typeof value === "string" ? value : "";
}

/**
 * Runs a command and collects its output; a missing program is a failed run, not an exception.
 *
 * @example
 * ```ts ignore
 * const { ok, stdout } = await output("jupyter", ["--version"]);
 * ```
 */
export async function output(
  program: string,
  args: string[],
  env?: Record<string, string>,
  cwd?: string,
): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  try {
    const result = await new Deno.Command(program, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      ...(env === undefined ? {} : { env, clearEnv: true }),
      ...(cwd === undefined ? {} : { cwd }),
    }).output();
    const decoder = new TextDecoder();
    return {
      ok: result.success,
      stdout: decoder.decode(result.stdout),
      stderr: decoder.decode(result.stderr),
    };
  } catch (error) {
    return { ok: false, stdout: "", stderr: (error as Error).message };
  }
}
