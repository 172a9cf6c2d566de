/**
 * tern as a package: a script (and a notebook) in a folder of its own, with no `deno.json` or
 * `package.json` anywhere above it, imports tern's public entry points by file path and by an
 * `http://` URL (the checkout served read-only on loopback, as a git host's raw URL would),
 * starts the embedded server through the public API, and runs the quickstart flow. Every npm
 * dependency, the lazily loaded ones included, must resolve without tern's import map, and the
 * sample store must build from the vega-datasets files even when tern was loaded by URL. Scripts
 * run with exactly the permission flags the README lists (read from the README, so they cannot
 * drift), and a URL import works or fails by the content type the web server sends, as the
 * README says.
 */

import assert from "node:assert/strict";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type CellOutput,
  findJupyter,
  joined,
  readCells,
  runNotebook,
  writeNotebook,
} from "../../notebooks/jupyter.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** Files that would give the caller's folder a configuration (an import map, node_modules). */
const CONFIG_FILES = ["deno.json", "deno.jsonc", "package.json"];

/** A temporary folder with no Deno or npm configuration in it or above it. */
async function outsideFolder(): Promise<{ path: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "tern-package-" });
  assert.ok(!dir.startsWith(ROOT + sep), `${dir} is inside the checkout`);
  for (let at = dir;; at = dirname(at)) {
    for (const name of CONFIG_FILES) {
      const found = await Deno.stat(join(at, name)).then(() => true, () => false);
      assert.ok(!found, `${join(at, name)} is above the temporary folder: the test needs none`);
    }
    if (dirname(at) === at) break;
  }
  return { path: dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** The README's permission flags for a script, and the one it adds for imports by URL. */
function readmeFlags(): { script: string[]; url: string } {
  const readme = Deno.readTextFileSync(join(ROOT, "README.md"));
  const command = readme.match(/^deno run ((?:--allow-[a-z-]+ )+)\S+\.ts$/m);
  assert.ok(command, "the README shows a `deno run --allow-… script.ts` command");
  const script = command[1].trim().split(" ");
  assert.ok(script.includes("--allow-ffi"), "the README's flags cover making a DataFrame");
  assert.ok(readme.includes("also needs `--allow-import`"), "the README's flag for URL imports");
  return { script, url: "--allow-import" };
}

const FLAGS = readmeFlags();

/** How the test's web server sends the checkout's `.ts` files (as TypeScript, unless told). */
const MEDIA_TYPES: Record<string, string> = {
  ".ts": "application/typescript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
};

/** The checkout, read-only over loopback, and the paths asked for. */
function serveCheckout(
  tsType = MEDIA_TYPES[".ts"],
): { url: string; served: Set<string> } & AsyncDisposable {
  const served = new Set<string>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      if (request.method !== "GET" && request.method !== "HEAD") {
        return new Response("read-only", { status: 405 });
      }
      const path = decodeURIComponent(new URL(request.url).pathname);
      const file = resolve(ROOT, `.${path}`);
      const extension = file.slice(file.lastIndexOf("."));
      const type = extension === ".ts" ? tsType : MEDIA_TYPES[extension];
      if (!file.startsWith(ROOT + sep) || type === undefined) {
        return new Response("not served", { status: 404 });
      }
      try {
        const body = await Deno.readFile(file);
        served.add(path);
        return new Response(request.method === "HEAD" ? null : body, {
          headers: { "content-type": type },
        });
      } catch {
        return new Response("not found", { status: 404 });
      }
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/**
 * The quickstart, as a user's script: `base` is where tern is (a `file:` or `http:` URL of the
 * checkout). It prints what it found as JSON. It serves the machine's cached sample store
 * (`deno task test` builds it first), as the README's does. With `vega`, it also opens
 * vega-datasets as a sample-store build finds it (a package resolved lazily, the hardest to find
 * through a URL import), without building a store of 20,000 files to get there.
 */
function quickstartScript(base: string, vega: boolean): string {
  return `${vega ? `import { VegaDatasets } from "${base}/lib/sample/vega.ts";\n` : ""}` +
    `import { Citation, connect } from "${base}/mod.ts";
import { startServer } from "${base}/server.ts";
import pl from "${base}/polars.ts";
import { DEMO_USER, ensureSampleStore, FORMATS_PATH, MANY_FILES_PATH, SAMPLE_CASES } from "${base}/sample.ts";

const here = new URL(".", import.meta.url).pathname;
const root = await ensureSampleStore();
await using server = await startServer({ root, port: 0, quiet: true });
const store = connect({ url: server.url, token: DEMO_USER.token, cacheDir: here + "cache", progress: false });

const pages = [];
for await (const page of store.folder(MANY_FILES_PATH).list({ type: "file", pageSize: 500 }).pages()) {
  pages.push({ offset: page.offset, entries: page.entries.length, total: page.total });
  if (pages.length === 2) break;
}
const frame = await store.file(FORMATS_PATH + "/penguins.csv").dataframe();
const gentooFrame = frame.filter(pl.col("Species").eq(pl.lit("Gentoo")));
const gentoo = gentooFrame.height;
const ternCard = (value: unknown) => String(
  (value as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")]()["text/html"],
).includes("t-frame");
const dataset = store.dataset(SAMPLE_CASES.fullMetadata);
const metadata = await dataset.metadata();
const apa = await Citation.of(dataset, "apa");
${
      vega
        ? `const vega = await VegaDatasets.open();
const penguinBytes = (await vega.bytes("penguins.json")).byteLength;`
        : "const vega = undefined, penguinBytes = undefined;"
    }
console.log(JSON.stringify({
  vega: vega?.version,
  penguinBytes,
  pages,
  rows: frame.height,
  columns: frame.columns,
  gentoo,
  views: { returned: ternCard(frame), derived: ternCard(gentooFrame) },
  title: metadata.title,
  doi: metadata.doi,
  license: metadata.license?.id,
  apa: apa.text,
}));
`;
}

/**
 * Runs `script.ts` in `dir` (its own working folder, no config) with this Deno and exactly the
 * README's flags (plus `--allow-import` for a script importing tern by URL).
 */
async function execScript(
  dir: string,
  script: string,
  byUrl: boolean,
): Promise<{ success: boolean; stdout: string; stderr: string }> {
  await Deno.writeTextFile(join(dir, "script.ts"), script);
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...FLAGS.script, ...(byUrl ? [FLAGS.url] : []), "script.ts"],
    cwd: dir,
    env: { NO_COLOR: "1", ...(byUrl ? { DENO_DIR: await urlDenoDir(dir) } : {}) },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    success: result.success,
    stdout: decoder.decode(result.stdout),
    stderr: decoder.decode(result.stderr),
  };
}

/**
 * A Deno cache folder inside `dir` for a script importing tern by URL: each test server has a
 * new port, so tern's modules would pile up in the user's cache under a new URL every run. npm
 * packages still come from the user's cache (a link to it), so nothing is downloaded again.
 */
async function urlDenoDir(dir: string): Promise<string> {
  const denoDir = join(dir, ".deno");
  await Deno.mkdir(denoDir, { recursive: true });
  await Deno.symlink(await npmCache(), join(denoDir, "npm")).catch((error) => {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  });
  return denoDir;
}

let npmCacheFolder: Promise<string> | undefined;

/** The npm cache of the Deno running the tests (`deno info --json`'s `npmCache`). */
function npmCache(): Promise<string> {
  npmCacheFolder ??= new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output()
    .then((output) => JSON.parse(new TextDecoder().decode(output.stdout)).npmCache as string);
  return npmCacheFolder;
}

/** {@linkcode execScript}, which must succeed, and the JSON its last line printed. */
async function runScript(
  dir: string,
  script: string,
  byUrl: boolean,
): Promise<Record<string, unknown>> {
  const result = await execScript(dir, script, byUrl);
  assert.ok(result.success, `the script failed:\n${result.stderr.slice(-4000)}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "");
}

/**
 * What the quickstart must find in the sample store, however tern was imported: a frame tern
 * returns and one derived from it both show the tern view (the entry points installed it).
 */
function checkQuickstart(found: Record<string, unknown>): void {
  assert.deepEqual(found.views, { returned: true, derived: true });
  assert.deepEqual(found.pages, [
    { offset: 0, entries: 500, total: 20000 },
    { offset: 500, entries: 500, total: 20000 },
  ]);
  assert.equal(found.rows, 344);
  assert.deepEqual((found.columns as string[]).slice(0, 2), ["Species", "Island"]);
  assert.equal(found.gentoo, 124);
  assert.equal(found.title, "Palmer Archipelago (Antarctica) penguin size measurements, 2007-2009");
  assert.equal(found.doi, "10.25739/9k2v-7q4m");
  assert.equal(found.license, "CC0-1.0");
  assert.equal(
    found.apa,
    "Gorman, K. B., Williams, T. D., & Fraser, W. R. (2020). Palmer Archipelago (Antarctica) " +
      "penguin size measurements, 2007-2009 (Version 1.0) [Dataset]. CyVerse Data Commons. " +
      "https://doi.org/10.25739/9k2v-7q4m",
  );
}

Deno.test("a script outside the checkout imports tern by file path and runs the quickstart", async () => {
  await using dir = await outsideFolder();
  const base = pathToFileURL(ROOT).href;
  checkQuickstart(await runScript(dir.path, quickstartScript(base, false), false));
});

Deno.test("a script imports tern by http URL, lazily loaded packages and vega-datasets included", async () => {
  await using dir = await outsideFolder();
  await using checkout = serveCheckout();
  const found = await runScript(dir.path, quickstartScript(checkout.url, true), true);
  checkQuickstart(found);
  assert.equal(found.vega, "3.2.1");
  assert.ok((found.penguinBytes as number) > 10_000, "vega-datasets' penguins.json was read");
  // tern really came over HTTP: every entry, the dependency list and the lazy loaders' users.
  for (
    const path of [
      "/mod.ts",
      "/server.ts",
      "/polars.ts",
      "/sample.ts",
      "/lib/deps.ts",
      "/lib/metadata/license.ts",
      "/lib/sample/vega.ts",
      "/deno.json",
    ]
  ) {
    assert.ok(checkout.served.has(path), `${path} was not fetched over HTTP`);
  }
  // …into the test's own cache folder: the user's Deno cache gains nothing under this URL.
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  const modules = JSON.parse(new TextDecoder().decode(info.stdout)).modulesCache as string;
  const port = new URL(checkout.url).port;
  const kept = await Deno.stat(join(modules, "http", `127.0.0.1_PORT${port}`)).then(() => true)
    .catch(() => false);
  assert.equal(kept, false, `tern's modules were cached in ${modules}`);
});

Deno.test("a URL import works when the web server sends .ts as TypeScript or plain text, as the README says", async () => {
  await using dir = await outsideFolder();
  const script = (base: string) =>
    `import { connect } from "${base}/mod.ts";\nconsole.log(JSON.stringify(typeof connect));\n`;
  // What static servers send: npx http-server (video/mp2t), a git host's raw URL (text/plain).
  for (const type of ["video/mp2t", "text/plain; charset=utf-8", "text/typescript"]) {
    await using checkout = serveCheckout(type);
    assert.equal(await runScript(dir.path, script(checkout.url), true), "function", type);
  }
  // python3 -m http.server's type for .ts (Qt Linguist files): Deno refuses the module.
  await using checkout = serveCheckout("text/vnd.trolltech.linguist");
  const failed = await execScript(dir.path, script(checkout.url), true);
  assert.equal(failed.success, false);
  assert.match(failed.stderr, /identified a Unknown module/);
});

const jupyter = await findJupyter();
if ("missing" in jupyter) console.warn(`package notebook test skipped: ${jupyter.missing}`);

Deno.test({
  name: "a notebook outside the checkout imports tern by path and runs in Jupyter",
  ignore: "missing" in jupyter,
  async fn() {
    if (!("python" in jupyter)) return;
    await using dir = await outsideFolder();
    const base = pathToFileURL(ROOT).href;
    const cells = [
      `import { Citation, connect } from "${base}/mod.ts";
import pl from "${base}/polars.ts";
import { DEMO_USER, FORMATS_PATH, SAMPLE_CASES, serveSampleStore } from "${base}/sample.ts";

const server = await serveSampleStore();
const store = connect({ url: server.url, token: DEMO_USER.token, cacheDir: ${
        JSON.stringify(join(dir.path, "cache"))
      } });
store;`,
      `await Citation.of(store.dataset(SAMPLE_CASES.fullMetadata), "apa");`,
      `const frame = await store.file(FORMATS_PATH + "/penguins.csv").dataframe({ progress: false });
frame.filter(pl.col("Species").eq(pl.lit("Gentoo"))).height;`,
      `await server.close();`,
    ];
    const notebook = join(dir.path, "mine.ipynb");
    await writeNotebook(notebook, cells);
    {
      const executed = join(dir.path, "mine.out.ipynb");
      await runNotebook(notebook, executed, { python: jupyter.python, timeoutSeconds: 120 });
      const outputs = (await readCells(executed)).map((cell) => cell.outputs ?? []);
      const errors = outputs.flat().filter((item) => item.output_type === "error");
      assert.deepEqual(errors.map((item) => `${item.ename}: ${item.evalue}`), []);
      const plain = (cell: CellOutput[]) =>
        joined(cell.find((item) => item.output_type === "execute_result")?.data?.["text/plain"]);
      assert.match(plain(outputs[0]), /^Store http:\/\/127\.0\.0\.1:\d+\/terrain — signed in/);
      assert.match(plain(outputs[1]), /^Gorman, K\. B\., Williams, T\. D\., & Fraser, W\. R\./);
      assert.equal(plain(outputs[2]), "124");
    }
  },
});
