/**
 * Where progress can be shown: in a Jupyter notebook (a line updated in place through the Deno
 * kernel's display API), on a terminal (a bar redrawn on stderr), or nowhere (a pipe, a log
 * file, CI).
 *
 * **How the kernel is recognised.** Library code must not read `Deno.jupyter` blindly: outside
 * `deno jupyter` even reading it throws, while `"jupyter" in Deno` is true everywhere (the
 * property is a getter that exists in every Deno process). The signal used instead is the
 * kernel's main module: the Deno kernel runs cells as the module `$deno$jupyter_repl.mts`
 * (checked with Deno 2.9.6 driven by nbclient, and under a plain `deno run`/`deno
 * test`, where it is the script's own URL). `Deno.mainModule` needs no permission and cannot
 * throw, so checking it costs nothing and never prompts. Only when it says "kernel" is
 * `Deno.jupyter` read, and then inside a guard, so that a future kernel that renamed its module
 * falls back to no progress rather than to an exception. Other signals were rejected: the
 * kernel's stdout and stderr are not terminals (true of pipes too); `JPY_PARENT_PID` is set by
 * jupyter_client but reading the environment needs `--allow-env` and is set for any child of a
 * Jupyter server, including terminals opened in JupyterLab.
 *
 * @module
 */

/**
 * Where progress goes: `jupyter`, `terminal` or `none`.
 *
 * @example
 * ```ts
 * import type { ProgressTarget } from "./detect.ts";
 *
 * const quiet: ProgressTarget = "none";
 * ```
 */
export type ProgressTarget = "jupyter" | "terminal" | "none";

/** The module name the Deno kernel gives the cells it runs. */
const KERNEL_MODULE = /\$deno\$jupyter_repl\.[cm]?[jt]s$/;

/**
 * Whether this process is the Deno Jupyter kernel. Never throws and needs no permission.
 *
 * @example
 * ```ts
 * import { isJupyterKernel } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isJupyterKernel(), false); // under `deno run` and `deno test`
 * ```
 */
export function isJupyterKernel(): boolean {
  try {
    const main = (globalThis as { Deno?: { mainModule?: string } }).Deno?.mainModule;
    return typeof main === "string" && KERNEL_MODULE.test(main);
  } catch {
    return false;
  }
}

/**
 * Whether stderr is an interactive terminal. Never throws.
 *
 * @example
 * ```ts
 * import { isTerminal } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(typeof isTerminal(), "boolean");
 * ```
 */
export function isTerminal(): boolean {
  try {
    return Deno.stderr.isTerminal();
  } catch {
    return false;
  }
}

/**
 * Where progress should go in this process: the notebook when running in the Deno kernel, else
 * stderr when it is a terminal, else nowhere.
 *
 * @example
 * ```ts
 * import { progressTarget } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * // Outside the kernel: "terminal" when stderr is a terminal, "none" when it is a pipe.
 * assert.equal(progressTarget(), Deno.stderr.isTerminal() ? "terminal" : "none");
 * ```
 */
export function progressTarget(): ProgressTarget {
  if (isJupyterKernel()) return "jupyter";
  return isTerminal() ? "terminal" : "none";
}

/**
 * The kernel's display function when running in the kernel; read only after
 * {@linkcode isJupyterKernel} said so, and inside a guard. It publishes with
 * `Deno.jupyter.broadcast`, which queues the message at once, rather than
 * `Deno.jupyter.display`, which first awaits a formatting step: a progress line drawn just before
 * a read returns is then queued before the cell's result, never after the cell went idle (the
 * Deno 2.9 kernel drops nothing it queued in time, but nbconvert stops reading at idle).
 *
 * @example
 * ```ts
 * import { kernelDisplay } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(kernelDisplay(), undefined); // outside the kernel
 * ```
 */
export function kernelDisplay(): DisplayFunction | undefined {
  if (!isJupyterKernel()) return undefined;
  try {
    const jupyter = (Deno as unknown as { jupyter?: { display?: unknown; broadcast?: unknown } })
      .jupyter;
    const broadcast = jupyter?.broadcast;
    if (typeof broadcast === "function") {
      return (bundle, options) =>
        broadcast.call(
          jupyter,
          options.update === true ? "update_display_data" : "display_data",
          { data: bundle, metadata: {}, transient: { display_id: options.display_id } },
        ) as Promise<void> | void;
    }
    const display = jupyter?.display;
    return typeof display === "function" ? (display.bind(jupyter) as DisplayFunction) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shape of `Deno.jupyter.display` that progress needs: a raw MIME bundle, shown under a
 * display id and later replaced in place.
 *
 * @example
 * ```ts
 * import type { DisplayFunction } from "./detect.ts";
 *
 * const shown: unknown[] = [];
 * const display: DisplayFunction = async (bundle) => { shown.push(bundle); };
 * ```
 */
export type DisplayFunction = (
  bundle: Record<string, string>,
  options: { raw: true; update?: boolean; display_id: string },
) => Promise<void> | void;
