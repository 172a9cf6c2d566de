/**
 * Runs the notebooks headless in real Jupyter with the Deno kernel, for the notebook tests and
 * the screenshots task, through the runner `tern notebook` ships (lib/cli/notebook_runner.ts):
 * this Deno as the kernel, and no output lost to the kernel publishing a cell's last outputs
 * after it reports idle.
 *
 * @module
 */

import {
  findJupyter as findPython,
  JupyterMissingError,
  runNotebook as run,
} from "../lib/cli/notebook_runner.ts";

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
  try {
    return { python: await findPython({ html: true }), nbconvert: true };
  } catch (error) {
    if (!(error instanceof JupyterMissingError)) throw error;
  }
  try {
    return { python: await findPython(), nbconvert: false };
  } catch (error) {
    if (!(error instanceof JupyterMissingError)) throw error;
    return { missing: `${error.message} (CI's .ci/run installs them as root.)` };
  }
}

/**
 * How {@linkcode runNotebook} runs.
 *
 * @example
 * ```ts
 * import type { RunOptions } from "./jupyter.ts";
 *
 * const options: RunOptions = { python: "/usr/bin/python3", timeoutSeconds: 120 };
 * ```
 */
export interface RunOptions {
  /** The Python with nbclient. */
  python: string;
  /** Seconds a cell may take (default 300). */
  timeoutSeconds?: number;
}

/**
 * Executes `source` and writes the executed notebook to `target`. Cells run even after one
 * fails (the caller looks for `error` outputs); `TERRAIN_*` variables are left out so the
 * notebooks serve the sample store themselves.
 *
 * @throws {NotebookRunError} when the run itself fails (kernel died, timeout).
 *
 * @example
 * ```ts ignore
 * await runNotebook("notebooks/quickstart.ipynb", "/tmp/quickstart.ipynb", { python });
 * ```
 */
export async function runNotebook(
  source: string,
  target: string,
  options: RunOptions,
): Promise<void> {
  await run(source, {
    output: target,
    python: options.python,
    timeoutSeconds: options.timeoutSeconds ?? 300,
    env: notebookEnv(),
  });
}

/**
 * This process's environment without `TERRAIN_*` (so notebooks serve the sample store), and
 * without colours.
 *
 * @example
 * ```ts
 * import { notebookEnv } from "./jupyter.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(notebookEnv().NO_COLOR, "1");
 * ```
 */
export function notebookEnv(): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of Object.keys(env)) if (name.startsWith("TERRAIN_")) delete env[name];
  return { ...env, NO_COLOR: "1" };
}

/**
 * Writes a notebook of code cells (for the Deno kernel) to `path`.
 *
 * @example
 * ```ts ignore
 * await writeNotebook("/tmp/mine.ipynb", ["const answer = 6 * 7;", "answer;"]);
 * ```
 */
export async function writeNotebook(path: string, cells: readonly string[]): Promise<void> {
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      cells: cells.map((source, index) => ({
        cell_type: "code",
        execution_count: null,
        id: `cell-${index}`,
        metadata: {},
        outputs: [],
        source,
      })),
      metadata: { kernelspec: { display_name: "Deno", language: "typescript", name: "deno" } },
      nbformat: 4,
      nbformat_minor: 5,
    }),
  );
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
