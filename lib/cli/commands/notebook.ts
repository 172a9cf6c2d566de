/**
 * `tern notebook`: executes a Jupyter notebook headless with the Deno kernel, losing no output
 * (see notebook_runner.ts for why plain `jupyter nbconvert --execute` does), and writes the
 * executed notebook and, when asked, its HTML.
 *
 * @module
 */

import { basename, dirname, extname, join } from "node:path";
import { intOption, outputOption, stringOption, UsageError } from "../args.ts";
import { type Command, type CommandContext, onlyArg } from "../command.ts";
import { plural, safeText } from "../format.ts";
import { environment, localPath } from "../io.ts";
import { runNotebook } from "../notebook_runner.ts";

/**
 * `tern notebook IN.ipynb [--output OUT.ipynb] [--html OUT.html]`.
 *
 * @example
 * ```sh
 * tern notebook analysis.ipynb --html analysis.html
 * ```
 */
export const notebook: Command = {
  name: "notebook",
  summary: "run a notebook headless with the Deno kernel, keeping every output",
  usage: "IN.ipynb [--output OUT.ipynb] [--html OUT.html]",
  description: [
    "Executes every cell of IN.ipynb with this Deno as the kernel (its working folder is the",
    "notebook's), as Jupyter's Run All does, and writes the executed notebook to OUT.ipynb",
    "(default: IN.executed.ipynb beside IN) and, with --html, the same as an HTML page.",
    "Cells run on after one fails; the command then exits 1 naming the failed cells.",
    "A cell past --timeout ends the run (exit 1, naming the cell). However the run ends",
    "(Ctrl-C, SIGTERM, a timeout, even tern killed), the kernel is stopped and its",
    "temporary folders are removed.",
    "Needs Python 3 with nbclient and nbformat (nbconvert for --html).",
  ].join("\n"),
  options: {
    output: { type: "string", short: "o", value: "OUT", help: "the executed notebook" },
    html: { type: "string", value: "OUT", help: "the executed notebook as HTML" },
    timeout: {
      type: "string",
      value: "SECONDS",
      help: "longest a cell may run (default: no limit)",
    },
    kernel: {
      type: "string",
      value: "NAME",
      help: "an installed kernelspec instead of this Deno",
    },
    python: {
      type: "string",
      value: "PYTHON",
      help: "the Python with Jupyter (default: python3, then /usr/bin/python3)",
    },
  },
  examples: [
    "tern notebook analysis.ipynb",
    "tern notebook analysis.ipynb --output ran.ipynb --html ran.html",
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  const given = onlyArg(positionals, "tern notebook", "IN.ipynb");
  const source = localPath(context.io, given);
  if (extname(source) !== ".ipynb") {
    throw new UsageError(`${JSON.stringify(given)} is not a notebook (.ipynb)`);
  }
  const html = stringOption(values, "html");
  const output = outputOption(values, "name the executed notebook's file") ??
    join(dirname(source), `${basename(source, ".ipynb")}.executed.ipynb`);
  const python = stringOption(values, "python");
  const started = performance.now();
  const result = await runNotebook(source, {
    output: localPath(context.io, output),
    html: html === undefined ? undefined : localPath(context.io, html),
    timeoutSeconds: intOption(values, "timeout", 1),
    kernel: stringOption(values, "kernel"),
    // A bare name is looked up on PATH; a path is the command's, relative to its folder.
    python: python === undefined || !/[\\/]/.test(python) ? python : localPath(context.io, python),
    env: environment(context.io),
    signal: context.signal,
  });
  const stderr = context.io.stderr;
  const written = [output, ...(html === undefined ? [] : [html])].map((path) => safeText(path));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  stderr.line(`ran ${plural(result.cells, "cell")} in ${seconds} s → ${written.join(", ")}`);
  for (const { cell, ename, evalue } of result.errors) {
    const error = `${safeText(ename)}: ${safeText(evalue.split("\n")[0])}`;
    stderr.line(`${stderr.style.error("error:")} cell ${cell}: ${error}`);
  }
  await stderr.flush();
  return result.errors.length === 0 ? 0 : 1;
}
