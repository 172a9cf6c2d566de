/**
 * Every notebook in notebooks/ runs headless in real Jupyter through `tern notebook` (this Deno
 * as the kernel), with no error output and the expected outputs, cell by cell; every tern view
 * in them passes the HTML safety checks; `--html` writes the page (for two of them: an export
 * costs a Python process's CPU); nothing is left in the temporary folder; and their code
 * type-checks: in `deno task test`'s one type-check of the first run (tests/run.ts writes the
 * notebooks' code as modules beside the examples', and this test checks they are current), or,
 * when this file runs alone, by `deno check` while the kernels run.
 *
 * The runs are skipped, saying what is missing, where Jupyter is not installed (CI's .ci/run
 * installs it); the type-check is not.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import {
  type CellOutput,
  findJupyter,
  joined,
  type NotebookCell,
  notebookEnv,
  output,
  readCells,
} from "../../notebooks/jupyter.ts";
import { checkView, parseBody } from "../display/_safety.ts";
import {
  NOTEBOOK_MODULES_ENV,
  notebookModule,
  notebookNames,
  writeNotebookModules,
} from "./_code.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TERN = ["text/html", "text/plain"];

/** What one code cell must output. */
interface Expected {
  /** MIME types of the cell's result (execute_result), exactly. */
  result?: string[];
  /** What the result's text/plain says. */
  plain?: RegExp;
  /** What a display_data (the progress line) says in text/plain. */
  display?: RegExp;
  /**
   * What a progress line says when the cell may show one: progress appears only for work that
   * takes over 0.4 s, which a walk of 20,000 entries does on a busy machine only.
   */
  mayDisplay?: RegExp;
  /** What the cell printed. */
  stream?: RegExp;
  /** A chart: the result's HTML is an inline SVG with at least `min` marks matching `marks`. */
  chart?: { marks: string; min: number };
}

/** Per notebook, per code cell, in order. */
const EXPECTED: Record<string, Expected[]> = {
  charts: [
    { result: TERN, plain: /^Store / },
    {
      result: TERN,
      plain:
        /^DataFrame 1,461 rows × 6 columns — seattle-weather\.csv\n {2}dates parsed from text: date /,
      mayDisplay: /seattle-weather\.csv/,
    },
    {
      result: TERN,
      plain: /^Chart 640 × 400 \(Observable Plot\): line, rule$/,
      chart: { marks: 'g[aria-label="line"] path', min: 2 },
    },
    {
      result: TERN,
      plain: /^Chart 640 × 400 \(Observable Plot\): rect, rule$/,
      chart: { marks: 'g[aria-label="rect"] rect', min: 20 },
    },
    {
      result: TERN,
      plain: /^Chart 640 × 400 \(Observable Plot\): bar$/,
      stream: /^Chart 640 × 400 \(Observable Plot\): bar — [\d,]+ characters of SVG/,
      chart: { marks: 'g[aria-label="bar"] rect', min: 12 },
    },
  ],
  quickstart: [
    { result: TERN, plain: /^Store http:\/\/127\.0\.0\.1:\d+\/terrain — signed in with a token/ },
    { result: TERN, plain: /^Folder \/iplant\/home\/shared\/commons_repo\/curated — \d+ entries/ },
    {
      result: TERN,
      plain: /^Datasets in \/iplant\/home\/shared\/commons_repo\/curated — \d+ datasets/,
    },
    {
      result: TERN,
      plain: /^Dataset: Palmer Archipelago \(Antarctica\) penguin size measurements/,
    },
    { result: TERN, plain: /^Gorman, K\. B\., Williams, T\. D\., & Fraser, W\. R\. \(2020\)/ },
    { result: TERN, plain: /^File \/.*\/penguins\.csv — [\d.]+ kB, csv[\s\S]*first 5 rows/ },
    { result: TERN, plain: /^DataFrame 344 rows × 7 columns — penguins\.csv/ },
    { result: TERN, plain: /^DataFrame / },
    { result: TERN, plain: /^NotFoundError: .*No_Such_Dataset/ },
  ],
  "many-files": [
    { result: TERN, plain: /^Store / },
    { result: TERN, plain: /showing 25 of 20,003 entries/ },
    { stream: /20000 files[\s\S]*page at offset 2000: 1000 entries, 3000 of 20000/ },
    { result: TERN, plain: /^Listing \/.*many_files — type "file" — showing 25 of 20,000 entries/ },
    { result: TERN, plain: /^Walk \/.*many_files — glob "archive\/\*\*\/\*\.csv" — \d+ entr/ },
    {
      result: TERN,
      plain: /^DataFrame [\d,]+ rows × 9 columns/,
      mayDisplay: /^✓ walk many_files · 2 entries/,
    },
    {
      result: ["text/plain"],
      plain: /height: \d+, width: 6/,
      display: /^✓ many_files · [\d,]+ files · [\d.]+ kB in/,
    },
    { result: TERN, plain: /^DataFrame / },
    { result: ["text/plain"], plain: /^\d+$/, stream: /1000\/1000 files[\s\S]*done in/ },
    { result: TERN, plain: /^Cache \/.* — [\d,]+ files/ },
  ],
  "lazy-scan": [
    { result: TERN, plain: /^Store / },
    { result: TERN, plain: /^Dataset: On-time performance of U\.S\. domestic flights/ },
    { result: TERN, plain: /^DataFrame /, stream: /^[\d,]+ of 13,493,022 bytes sent/ },
    { result: TERN, plain: /^DataFrame /, stream: /^[\d,]+ of 13,493,022 bytes sent/ },
    { stream: /scan \+ head: [\d.]+ s\ndataframe\(\): [\d.]+ s \(\d+× longer\)/ },
    // The walk of the curated folder and the scans' collect show a progress line only past
    // 0.4 s: on a busy machine.
    {
      result: TERN,
      plain: /^DataFrame 3 rows × 2 columns/,
      mayDisplay: /^✓ (walk curated|3 files) · /,
    },
    { result: TERN, plain: /^DataFrame /, mayDisplay: /^✓ (walk curated|\d+ files) · / },
    { stream: /^cff-version: "1\.2\.0"\n[\s\S]*ark:\/87946\/p3f2r7/ },
  ],
  reproducible: [
    { result: TERN, plain: /^Store / },
    {
      result: ["text/plain"],
      plain: /^\[ 344, 120, "One table, every format" \]$/,
      mayDisplay: /^✓ /,
    },
    {
      result: TERN,
      plain:
        /^This notebook read 3 files from 2 datasets \(1 outside any dataset\)\.[\s\S]*10\.25739\/9k2v-7q4m[\s\S]*Bibliography \(DataCite\):\nGorman, K\. B\./,
    },
    { stream: /^\{\n {2}"lock": "tern lock",\n {2}"format": 1,[\s\S]*… 3 files, 2 datasets\n$/ },
    {
      result: TERN,
      plain: /^This notebook read 3 files from 2 datasets/,
      stream:
        /^unchanged {2}\/.*\/penguins\.csv\nunchanged {2}\/.*\/barley\.csv\nunchanged {2}\/.*\/README\.txt\n$/,
      mayDisplay: /^✓ /,
    },
    { stream: /^@misc\{Gorman2020Palmer,[\s\S]*\n\n@misc\{Immer2018Yields,/ },
  ],
  search: [
    { result: TERN, plain: /^Store http:\/\/127\.0\.0\.1:\d+\/terrain — signed in with a token/ },
    {
      result: TERN,
      plain: /^Search search — \{"all":\[\{"type":"label".* — 10 entries\n {2}name +type +size/,
    },
    { result: ["text/plain"], plain: /^10$/ },
    { result: TERN, plain: /^DataFrame 10 rows × \d+ columns\n {2}path +name +type +size/ },
    { result: TERN, plain: /^Saved searches — 4 searches\n {2}label +fileQuery/ },
    {
      result: TERN,
      plain:
        /^Search CC0 datasets — .*"rights".* — 2 entries\n[\s\S]*Penguins_Morphometrics_2020\//,
    },
    {
      result: TERN,
      plain: /^Dataset: Palmer Archipelago \(Antarctica\) penguin size measurements/,
    },
  ],
  metadata: [
    { result: TERN, plain: /^Store / },
    { result: TERN, plain: /^DataFrame / },
    { result: TERN, plain: /^Metadata: Yields of barley varieties/ },
    { result: TERN, plain: /^DataFrame / },
    { result: TERN, plain: /same title as NOAA_SeattleWeather_Daily_2016/ },
    { result: TERN, plain: /^DataFrame / },
    { result: TERN, plain: /^DataFrame / },
  ],
};

/**
 * The notebooks also exported with `--html`: the charts, whose marks must survive the export,
 * and one of tables and tern views.
 */
const HTML = ["charts", "quickstart"];

const jupyter = await findJupyter();
/** The folder of the notebooks' modules the run type-checked (tests/run.ts), if it did. */
const checkedByRun = Deno.env.get(NOTEBOOK_MODULES_ENV);
if ("missing" in jupyter) console.warn(`notebook tests skipped: ${jupyter.missing}`);

Deno.test("every notebook runs in Jupyter with the Deno kernel, with the expected outputs, and its code type-checks", async (t) => {
  // The type-check (tern's whole graph) runs while the kernels run, not after them.
  const typeCheck = typeCheckNotebooks();
  try {
    await t.step({
      name: "every notebook runs in Jupyter with the Deno kernel, with the expected outputs",
      ignore: "missing" in jupyter,
      fn: (t) => runNotebooks(t),
    });
  } finally {
    await typeCheck.catch(() => {});
  }
  await t.step(
    checkedByRun === undefined
      ? "the notebooks' code type-checks"
      : "the notebooks' code type-checks (in the run's type-check: its modules are current)",
    async () => {
      if (checkedByRun !== undefined) {
        for (const name of notebookNames()) {
          const written = await Deno.readTextFile(join(checkedByRun, `${name}.ts`));
          assert.equal(written, await notebookModule(name), `${name}: the checked code is stale`);
        }
      }
      const checked = await typeCheck;
      assert.ok(checked.ok, checked.stderr);
    },
  );
});

/** Runs every notebook through `tern notebook` and checks what they wrote. */
async function runNotebooks(t: Deno.TestContext): Promise<void> {
  if (!("python" in jupyter)) return;
  const names = notebookNames();
  assert.deepEqual(names, Object.keys(EXPECTED).sort(), "every notebook has expectations");
  const work = await Deno.makeTempDir({ prefix: "tern-notebooks-" });
  const before = temporaryFolders();
  try {
    // Kernels spend most of their time waiting on each other's loopback traffic: run together.
    const executed = await Promise.all(names.map(async (name) => {
      const target = join(work, `${name}.ipynb`);
      const html = jupyter.nbconvert && HTML.includes(name) ? join(work, `${name}.html`) : "";
      const run = await output(Deno.execPath(), [
        "run",
        "-A",
        join(ROOT, "cli.ts"),
        "notebook",
        join(ROOT, "notebooks", `${name}.ipynb`),
        "--output",
        target,
        ...(html ? ["--html", html] : []),
        "--timeout",
        "120",
        "--python",
        jupyter.python,
      ], notebookEnv());
      assert.ok(run.ok, `tern notebook ${name}: ${run.stderr}`);
      assert.match(run.stderr, /^ran \d+ cells in [\d.]+ s → /m);
      if (html) {
        assert.match(await Deno.readTextFile(html), /^<!DOCTYPE html>[\s\S]*<div class="tern">/);
      }
      return [name, await readCells(target)] as const;
    }));
    for (const [name, cells] of executed) {
      await t.step(name, () => checkNotebook(name, cells));
    }
    // nbconvert 6.5 strips the shapes of image/svg+xml outputs; charts travel as HTML.
    await t.step({
      name: "charts keep their marks in nbconvert's HTML export",
      ignore: !jupyter.nbconvert,
      async fn() {
        const page = parseBody(await Deno.readTextFile(join(work, "charts.html")));
        const count = (selector: string) => page.querySelectorAll(selector).length;
        assert.ok(count('svg g[aria-label="line"] path') >= 2, "the time series' lines");
        assert.ok(count('svg g[aria-label="rect"] rect') >= 20, "the histogram's bars");
        assert.ok(count('svg g[aria-label="bar"] rect') >= 12, "the monthly bars");
      },
    });
    // The notebooks make their caches with Deno.makeTempDir: the kernel's own temporary
    // folder, removed with it.
    assert.deepEqual([...temporaryFolders()].filter((name) => !before.has(name)), []);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

/** The notebooks' cache folders in the temporary folder (only the notebooks make these). */
function temporaryFolders(): Set<string> {
  return new Set(
    [...Deno.readDirSync(tmpdir())].map((entry) => entry.name)
      .filter((name) => name.startsWith("tern-notebook-cache-")),
  );
}

function checkNotebook(name: string, cells: NotebookCell[]): void {
  const code = cells.filter((cell) => cell.cell_type === "code");
  const expected = EXPECTED[name];
  assert.equal(code.length, expected.length, `${name}: code cells`);
  code.forEach((cell, index) => {
    const where = `${name} cell ${index + 1}: ${joined(cell.source).split("\n")[0]}`;
    const outputs: CellOutput[] = cell.outputs ?? [];
    const errors = outputs.filter((item) => item.output_type === "error");
    assert.deepEqual(errors.map((item) => `${item.ename}: ${item.evalue}`), [], where);
    const want = expected[index];
    const result = outputs.find((item) => item.output_type === "execute_result");
    if (want.result === undefined) {
      assert.equal(result, undefined, `${where}: no result`);
    } else {
      assert.ok(result?.data !== undefined, `${where}: a result`);
      assert.deepEqual(Object.keys(result.data).sort(), [...want.result].sort(), where);
      if (want.plain !== undefined) {
        assert.match(joined(result.data["text/plain"]), want.plain, where);
      }
    }
    const displays = outputs.filter((item) => item.output_type === "display_data");
    if (want.display !== undefined) {
      assert.equal(displays.length, 1, `${where}: one display updated in place`);
    } else if (want.mayDisplay === undefined) {
      assert.equal(displays.length, 0, `${where}: no display`);
    }
    // A cell whose operations may each pass the progress threshold on a busy machine may show
    // one line per operation; every line shown is a tern progress line.
    for (const shown of displays) {
      assert.deepEqual(Object.keys(shown.data ?? {}).sort(), TERN, where);
      assert.match(joined(shown.data?.["text/plain"]), (want.display ?? want.mayDisplay)!, where);
    }
    const streams = outputs.filter((item) => item.output_type === "stream")
      .map((item) => joined(item.text)).join("");
    if (want.stream !== undefined) assert.match(streams, want.stream, where);
    if (want.chart !== undefined) {
      checkChart(joined(result?.data?.["text/html"]), want.chart, where);
    }
    // Whatever tern showed is self-contained, scoped and inert.
    for (const item of [...displays, ...(result ? [result] : [])]) {
      const html = joined(item.data?.["text/html"]);
      if (html.startsWith('<div class="tern">')) {
        checkView({ "text/html": html, "text/plain": joined(item.data?.["text/plain"]) });
      }
    }
  });
}

/** A chart's HTML: one inline SVG (or a figure holding it) with its marks, and nothing that runs. */
function checkChart(html: string, chart: { marks: string; min: number }, where: string): void {
  const body = parseBody(html);
  assert.equal(body.children.length, 1, `${where}: one element`);
  assert.ok(["SVG", "FIGURE"].includes(body.children[0].tagName.toUpperCase()), where);
  const marks = body.querySelectorAll(chart.marks).length;
  assert.ok(marks >= chart.min, `${where}: ${marks} marks (${chart.marks}), want ≥ ${chart.min}`);
  for (const element of body.querySelectorAll("*")) {
    assert.ok(!/^(script|foreignobject|iframe)$/i.test(element.tagName), where);
    for (const attribute of element.attributes) assert.ok(!/^on/i.test(attribute.name), where);
  }
}

/** `deno check` of the notebooks' code, unless the run type-checked it already. */
async function typeCheckNotebooks(): Promise<{ ok: boolean; stderr: string }> {
  if (checkedByRun !== undefined) return { ok: true, stderr: "" };
  const work = await Deno.makeTempDir({ prefix: "tern-notebooks-check-" });
  try {
    const files = await writeNotebookModules(work);
    return await output(Deno.execPath(), [
      "check",
      "--quiet",
      "--config",
      join(ROOT, "deno.json"),
      ...files,
    ]);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}
