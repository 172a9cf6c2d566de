/**
 * `deno task screenshots`: executes the notebooks in real Jupyter with the Deno kernel, renders
 * them to HTML with nbconvert (JupyterLab's light and dark themes), and photographs chosen cells
 * — code and output — with headless Chromium into `docs/screenshots/`; then runs the demo and
 * photographs sections of its report (`demo-output/report.html`) in light and dark.
 *
 * Needs Debian's `jupyter-nbconvert` and `jupyter-client`, and `chromium` (apt-get install
 * chromium). Chromium is driven over the DevTools protocol on a loopback port so that each
 * picture is cropped to its cell, whatever the cell's height.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { returnToCallerFolder } from "../lib/entry/caller_folder.ts";
import { findJupyter, output, runNotebook } from "./jupyter.ts";

/**
 * One picture: a notebook cell found by a piece of its source, in a theme.
 *
 * @example
 * ```ts
 * import type { Shot } from "./screenshots.ts";
 *
 * const card: Shot = { notebook: "quickstart", source: "const penguins", file: "dataset-card.png", theme: "light" };
 * ```
 */
export interface Shot {
  /** Notebook name, without `.ipynb`. */
  notebook: string;
  /** Text the cell's source contains (the first matching cell is taken). */
  source: string;
  /** PNG file name in the output folder. */
  file: string;
  /** JupyterLab theme. */
  theme: "light" | "dark";
}

/**
 * The pictures the README shows.
 *
 * @example
 * ```ts
 * import { SHOTS } from "./screenshots.ts";
 *
 * console.log(SHOTS.map((shot) => shot.file));
 * ```
 */
export const SHOTS: readonly Shot[] = [
  { notebook: "quickstart", source: "const penguins", file: "dataset-card.png", theme: "light" },
  {
    notebook: "quickstart",
    source: "const penguins",
    file: "dataset-card-dark.png",
    theme: "dark",
  },
  { notebook: "quickstart", source: "curated.datasets()", file: "datasets.png", theme: "light" },
  { notebook: "quickstart", source: "Citation.of", file: "citation.png", theme: "light" },
  { notebook: "quickstart", source: "const csv", file: "file.png", theme: "light" },
  { notebook: "quickstart", source: "const frame", file: "dataframe.png", theme: "light" },
  { notebook: "quickstart", source: "const frame", file: "dataframe-dark.png", theme: "dark" },
  { notebook: "quickstart", source: "No_Such_Dataset", file: "error.png", theme: "light" },
  { notebook: "many-files", source: "const many", file: "listing.png", theme: "light" },
  { notebook: "many-files", source: "const readings", file: "progress.png", theme: "light" },
  { notebook: "metadata", source: "records[1]", file: "metadata.png", theme: "light" },
];

/**
 * One picture of the demo report (`deno task demo`): a section found by its heading, in a colour
 * scheme.
 *
 * @example
 * ```ts
 * import type { ReportShot } from "./screenshots.ts";
 *
 * const shot: ReportShot = { heading: "Files into Polars DataFrames", file: "report.png", theme: "light" };
 * ```
 */
export interface ReportShot {
  /** The text of the section's `<h2>`. */
  heading: string;
  /** PNG file name in the output folder. */
  file: string;
  /** Colour scheme the page is shown in. */
  theme: "light" | "dark";
}

/**
 * The pictures of the demo report.
 *
 * @example
 * ```ts
 * import { REPORT_SHOTS } from "./screenshots.ts";
 *
 * console.log(REPORT_SHOTS.map((shot) => shot.file));
 * ```
 */
export const REPORT_SHOTS: readonly ReportShot[] = [
  { heading: "Lazy paging through 20,000 files", file: "report-paging.png", theme: "light" },
  { heading: "Files into Polars DataFrames", file: "report-dataframes.png", theme: "light" },
  { heading: "Files into Polars DataFrames", file: "report-dataframes-dark.png", theme: "dark" },
  {
    heading: "Signed in as the demo user: roots, comments, saved searches",
    file: "report-signed-in-dark.png",
    theme: "dark",
  },
];

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHROMIUMS = ["chromium", "chromium-browser", "google-chrome"];

/** Picture width in CSS pixels, and the pixel ratio (crisp text, PNGs of a few hundred kB). */
const WIDTH = 1000;
const SCALE = 1.5;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: { out: { type: "string", default: join(ROOT, "docs", "screenshots") } },
  });
  const outDir = resolve(values.out!);
  const jupyter = await findJupyter();
  if ("missing" in jupyter) fail(jupyter.missing);
  if (!jupyter.nbconvert) fail("nbconvert is not installed: apt-get install jupyter-nbconvert.");
  const chromium = await findChromium();
  if (chromium === undefined) fail("Chromium is not installed: apt-get install chromium.");

  const work = await Deno.makeTempDir({ prefix: "tern-screenshots-" });
  try {
    const pages = new Map<string, string>();
    for (const notebook of new Set(SHOTS.map((shot) => shot.notebook))) {
      const executed = join(work, `${notebook}.ipynb`);
      console.log(`executing notebooks/${notebook}.ipynb`);
      await runNotebook(join(ROOT, "notebooks", `${notebook}.ipynb`), executed, {
        python: jupyter.python,
      });
      for (
        const theme of new Set(SHOTS.filter((s) => s.notebook === notebook).map((s) => s.theme))
      ) {
        const name = `${notebook}-${theme}`;
        const converted = await output(jupyter.python, [
          "-m",
          "nbconvert",
          "--to",
          "html",
          `--HTMLExporter.theme=${theme}`,
          executed,
          "--output-dir",
          work,
          "--output",
          name,
        ]);
        if (!converted.ok) fail(`nbconvert failed on ${notebook}:\n${converted.stderr}`);
        pages.set(`${notebook}/${theme}`, join(work, `${name}.html`));
      }
    }
    await Deno.mkdir(outDir, { recursive: true });
    await using browser = await Browser.launch(chromium, work);
    for (const shot of SHOTS) {
      const png = await browser.shoot(pages.get(`${shot.notebook}/${shot.theme}`)!, shot.source);
      await Deno.writeFile(join(outDir, shot.file), png);
      console.log(`${join(outDir, shot.file)} (${Math.round(png.length / 1024)} kB)`);
    }
    console.log("running the demo (deno task demo)");
    const demo = await output(
      Deno.execPath(),
      ["run", "-A", join(ROOT, "demo.ts")],
      undefined,
      ROOT,
    );
    if (!demo.ok) fail(`the demo failed:\n${demo.stderr}`);
    const report = join(ROOT, "demo-output", "report.html");
    for (const shot of REPORT_SHOTS) {
      const png = await browser.shootSection(report, shot.heading, shot.theme);
      await Deno.writeFile(join(outDir, shot.file), png);
      console.log(`${join(outDir, shot.file)} (${Math.round(png.length / 1024)} kB)`);
    }
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

function fail(message: string): never {
  console.error(message);
  Deno.exit(1);
}

async function findChromium(): Promise<string | undefined> {
  for (const name of CHROMIUMS) {
    if ((await output(name, ["--version"])).ok) return name;
  }
  return undefined;
}

/** Headless Chromium over the DevTools protocol: one page, screenshots clipped to a cell. */
class Browser {
  #child: Deno.ChildProcess;
  #socket: WebSocket;
  #session = "";
  #next = 0;
  #pending = new Map<number, { resolve: (value: unknown) => void; reject: (e: Error) => void }>();
  #events = new Map<string, () => void>();

  private constructor(child: Deno.ChildProcess, socket: WebSocket) {
    this.#child = child;
    this.#socket = socket;
    socket.onmessage = (message) => {
      const data = JSON.parse(String(message.data));
      if (data.id !== undefined) {
        const pending = this.#pending.get(data.id);
        this.#pending.delete(data.id);
        if (data.error) pending?.reject(new Error(JSON.stringify(data.error)));
        else pending?.resolve(data.result);
      } else if (data.method !== undefined) {
        this.#events.get(data.method)?.();
      }
    };
  }

  static async launch(program: string, work: string): Promise<Browser> {
    const profile = await Deno.makeTempDir({ dir: work, prefix: "chromium-" });
    const child = new Deno.Command(program, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        `--user-data-dir=${profile}`,
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    // Chromium writes the port it chose, and the browser endpoint's path, to this file.
    const portFile = join(profile, "DevToolsActivePort");
    let lines: string[] = [];
    for (let tries = 0; tries < 200 && lines.length < 2; tries++) {
      await new Promise((done) => setTimeout(done, 50));
      lines = await Deno.readTextFile(portFile).then((text) => text.trim().split("\n"), () => []);
    }
    if (lines.length < 2) {
      child.kill();
      throw new Error("Chromium did not open its DevTools port.");
    }
    const socket = new WebSocket(`ws://127.0.0.1:${lines[0]}${lines[1]}`);
    await new Promise((opened, failed) => {
      socket.onopen = opened;
      socket.onerror = () => failed(new Error("Cannot reach Chromium's DevTools port."));
    });
    const browser = new Browser(child, socket);
    const { targetId } = await browser.#send("Target.createTarget", { url: "about:blank" }) as {
      targetId: string;
    };
    const { sessionId } = await browser.#send("Target.attachToTarget", {
      targetId,
      flatten: true,
    }) as { sessionId: string };
    browser.#session = sessionId;
    await browser.#send("Page.enable", {});
    await browser.#send("Emulation.setDeviceMetricsOverride", {
      width: WIDTH,
      height: 900,
      deviceScaleFactor: SCALE,
      mobile: false,
    });
    return browser;
  }

  #send(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = ++this.#next;
    const message = { id, method, params, ...(this.#session ? { sessionId: this.#session } : {}) };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#socket.send(JSON.stringify(message));
    });
  }

  /** A PNG of the first cell whose source contains `source`, input and output. */
  async shoot(page: string, source: string): Promise<Uint8Array> {
    const loaded = new Promise<void>((done) => this.#events.set("Page.loadEventFired", done));
    await this.#send("Page.navigate", { url: `file://${page}` });
    await loaded;
    const { result } = await this.#send("Runtime.evaluate", {
      returnByValue: true,
      expression: `(() => {
        const wanted = ${JSON.stringify(source)};
        const cell = [...document.querySelectorAll(".jp-Cell")]
          .find((cell) => (cell.querySelector(".jp-InputArea")?.textContent ?? "").includes(wanted));
        if (!cell) return null;
        const box = cell.getBoundingClientRect();
        return { x: box.left + scrollX, y: box.top + scrollY, width: box.width, height: box.height };
      })()`,
    }) as { result: { value: { x: number; y: number; width: number; height: number } | null } };
    if (result.value === null) {
      throw new Error(`No cell in ${page} contains ${JSON.stringify(source)}.`);
    }
    const box = result.value;
    const pad = 6;
    const { data } = await this.#send("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: true,
      clip: {
        x: Math.max(0, box.x - pad),
        y: Math.max(0, box.y - pad),
        width: Math.min(WIDTH, box.width + 2 * pad),
        height: box.height + pad,
        scale: 1,
      },
    }) as { data: string };
    return Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
  }

  /** A PNG of a page's section: from the `<h2>` saying `heading` to the next one. */
  async shootSection(page: string, heading: string, theme: "light" | "dark"): Promise<Uint8Array> {
    await this.#send("Emulation.setEmulatedMedia", {
      features: [{ name: "prefers-color-scheme", value: theme }],
    });
    const loaded = new Promise<void>((done) => this.#events.set("Page.loadEventFired", done));
    await this.#send("Page.navigate", { url: `file://${page}` });
    await loaded;
    const { result } = await this.#send("Runtime.evaluate", {
      returnByValue: true,
      expression: `(() => {
        const headings = [...document.querySelectorAll("h2")];
        const index = headings.findIndex((h) => h.textContent === ${JSON.stringify(heading)});
        if (index < 0) return null;
        const top = headings[index].getBoundingClientRect().top + scrollY;
        const next = headings[index + 1];
        const bottom = next === undefined
          ? document.documentElement.scrollHeight
          : next.getBoundingClientRect().top + scrollY;
        return { x: 0, y: top, width: innerWidth, height: bottom - top };
      })()`,
    }) as { result: { value: { x: number; y: number; width: number; height: number } | null } };
    if (result.value === null) throw new Error(`No section ${JSON.stringify(heading)} in ${page}.`);
    const box = result.value;
    const { data } = await this.#send("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: true,
      clip: { x: box.x, y: Math.max(0, box.y - 8), width: box.width, height: box.height, scale: 1 },
    }) as { data: string };
    await this.#send("Emulation.setEmulatedMedia", { features: [] });
    return Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.#socket.close();
    } catch {
      // Already closed.
    }
    try {
      this.#child.kill();
    } catch {
      // Already gone.
    }
    await this.#child.status;
  }
}

if (import.meta.main) {
  returnToCallerFolder();
  await main();
}
