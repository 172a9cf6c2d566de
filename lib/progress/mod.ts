/**
 * Progress that people see: one line updated in place in a Jupyter notebook, a bar on a
 * terminal's stderr, nothing in pipes, logs and CI or when switched off. The events themselves
 * come from the readers (`onProgress`, `ProgressChannel`); this module only shows them.
 *
 * @example
 * ```ts
 * import { progressReporter } from "./mod.ts";
 *
 * const report = progressReporter({ label: "many_files", setting: true });
 * // undefined unless running in the Deno kernel or with stderr on a terminal
 * ```
 *
 * @module
 */

export { progressReporter, terminalSink } from "./reporter.ts";
