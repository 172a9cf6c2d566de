/**
 * The code of every notebook in notebooks/ as one TypeScript module each (its code cells in
 * order, the checkout imported by absolute URL), for type-checking: by tests/run.ts inside the
 * first test run's one type-check, or by the notebooks test itself when it runs alone.
 *
 * @module
 */

import { join } from "node:path";
import { joined, readCells } from "../../notebooks/jupyter.ts";

const ROOT = new URL("../../", import.meta.url);

/** Set by tests/run.ts when the first run type-checks the modules it wrote (the folder). */
export const NOTEBOOK_MODULES_ENV = "TERN_NOTEBOOK_MODULES";

/** The notebooks' names (without `.ipynb`), sorted. */
export function notebookNames(): string[] {
  return [...Deno.readDirSync(new URL("notebooks/", ROOT))]
    .filter((entry) => entry.name.endsWith(".ipynb"))
    .map((entry) => entry.name.replace(/\.ipynb$/, ""))
    .sort();
}

/** One notebook's code as a module's source. */
export async function notebookModule(name: string): Promise<string> {
  const cells = await readCells(join(new URL("notebooks/", ROOT).pathname, `${name}.ipynb`));
  const source = cells.filter((cell) => cell.cell_type === "code")
    .map((cell) => joined(cell.source))
    .join("\n")
    // The notebooks import the checkout by relative path from notebooks/.
    .replaceAll('from "../', `from "${ROOT.href}`);
  return `${source}\n`;
}

/** Writes every notebook's module into `folder` as `<name>.ts`; returns their paths. */
export async function writeNotebookModules(folder: string): Promise<string[]> {
  await Deno.mkdir(folder, { recursive: true });
  const files: string[] = [];
  for (const name of notebookNames()) {
    const file = join(folder, `${name}.ts`);
    await Deno.writeTextFile(file, await notebookModule(name));
    files.push(file);
  }
  return files;
}
