/**
 * Charts from frames in notebooks: Observable Plot drawing static SVG in linkedom's DOM, shown as
 * `text/html` — so a chart renders offline and without scripts in JupyterLab, VS Code and
 * nbconvert's HTML export (which strips the shapes of an `image/svg+xml` output, and which a
 * Vega-Lite bundle would need a script and a network to draw). Plot and linkedom load only when
 * {@linkcode loadPlot} is called, so importing tern costs nothing for charts.
 *
 * @module
 */

import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { loadLinkedomModule, loadPlotModule, type PlotModule } from "../deps.ts";

/**
 * A drawn chart: a notebook shows the SVG; `svg` is its markup (to save as a `.svg` file); its
 * string form says what it shows.
 *
 * @example
 * ```ts
 * import type { Chart } from "./chart.ts";
 *
 * const save = (chart: Chart) => Deno.writeTextFile("chart.svg", chart.svg);
 * ```
 */
export interface Chart {
  /** The chart's markup: an `<svg>`, or a `<figure>` holding it with its title and legends. */
  readonly svg: string;
  /** The MIME bundle a notebook shows: the SVG inline in `text/html`, and a summary. */
  [JUPYTER_DISPLAY](): MediaBundle;
  /** "Chart 640 × 400 (Observable Plot): line". */
  toString(): string;
}

/**
 * Observable Plot as {@linkcode loadPlot} gives it: every mark and transform of Plot, and a
 * `plot(options)` that draws into a DOM of its own and returns a {@linkcode Chart}.
 *
 * @example
 * ```ts
 * import type { NotebookPlot } from "./chart.ts";
 *
 * const draw = (Plot: NotebookPlot) => Plot.plot({ marks: [Plot.ruleY([0])] });
 * ```
 */
export type NotebookPlot = Omit<PlotModule, "plot"> & {
  /** Draws a chart (Plot's options; `document` is provided). */
  plot(options?: Parameters<PlotModule["plot"]>[0]): Chart;
};

/**
 * Loads Observable Plot (pinned in `lib/deps.ts`) for notebooks: `Plot.plot(…)` draws static
 * SVG, which the cell shows. Marks take rows, so pass a frame as `frame.toRecords()` (Date and
 * Datetime columns arrive as JavaScript dates, which Plot puts on a time axis).
 *
 * @example A time series and a histogram
 * ```ts
 * import pl from "../../polars.ts";
 * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
 * import { loadPlot } from "./chart.ts";
 * import assert from "node:assert/strict";
 *
 * const Plot = await loadPlot();
 * const frame = pl.DataFrame({
 *   date: [new Date("2012-01-01"), new Date("2012-01-02"), new Date("2012-01-03")],
 *   temp_max: [12.8, 10.6, 11.7],
 * });
 * const rows = frame.toRecords();
 * const line = Plot.plot({ marks: [Plot.lineY(rows, { x: "date", y: "temp_max" })] });
 * assert.match(line.svg, /^<svg[^>]*><style>/);
 * assert.match(line.svg, /<path[^>]* d="M/);
 * assert.equal(String(line), "Chart 640 × 400 (Observable Plot): line");
 * assert.equal(Deno.inspect(line), String(line)); // console.log in a script: the summary, not the SVG
 * const bars = Plot.plot({ marks: [Plot.rectY(rows, Plot.binX({ y: "count" }, { x: "temp_max" }))] });
 * assert.ok(bars[JUPYTER_DISPLAY]()["text/html"].includes("<rect"));
 * ```
 */
export async function loadPlot(): Promise<NotebookPlot> {
  const [Plot, { parseHTML }] = await Promise.all([loadPlotModule(), loadLinkedomModule()]);
  const page = "<!doctype html><html><head></head><body></body></html>";
  const { document } = parseHTML(page) as unknown as { document: unknown };
  return {
    ...Plot,
    plot: (options = {}) =>
      chartOf(Plot.plot({ ...options, document: document as never }) as unknown as Element),
  };
}

/** The part of linkedom's DOM used here (Deno has no DOM types). */
interface Element {
  readonly tagName: string;
  readonly outerHTML: string;
  readonly attributes: ArrayLike<{ name: string; value: string }>;
  getAttribute(name: string): string | null;
  removeAttribute(name: string): void;
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): ArrayLike<Element>;
  remove(): void;
}

/** Elements that run code or embed documents: never shown. */
const UNSAFE = "script,foreignObject,iframe,object,embed";

function chartOf(root: Element): Chart {
  clean(root);
  const svg = root.outerHTML;
  const drawing = root.tagName.toLowerCase() === "svg" ? root : root.querySelector("svg");
  const size = `${drawing?.getAttribute("width") ?? "?"} × ${
    drawing?.getAttribute("height") ?? "?"
  }`;
  const marks = new Set<string>();
  for (const group of Array.from(root.querySelectorAll("[aria-label]"))) {
    const label = group.getAttribute("aria-label") ?? "";
    if (!/^(f?[xy]-(axis|grid)|fx|fy)\b/.test(label)) marks.add(label);
  }
  const summary = `Chart ${size} (Observable Plot)${
    marks.size === 0 ? "" : `: ${[...marks].join(", ")}`
  }`;
  return {
    svg,
    [JUPYTER_DISPLAY]: () => ({ "text/html": svg, "text/plain": summary }),
    toString: () => summary,
    [Symbol.for("Deno.customInspect")]: () => summary,
  };
}

/**
 * Removes what could run or navigate: scripts and embedded documents, event handlers, and links
 * that are not http(s) or in-page (Plot's `href` channel takes URLs from the data).
 */
function clean(root: Element): void {
  for (const element of Array.from(root.querySelectorAll(UNSAFE))) element.remove();
  for (const element of [root, ...Array.from(root.querySelectorAll("*"))]) {
    for (const { name, value } of Array.from(element.attributes)) {
      const key = name.toLowerCase();
      const link = key === "href" || key.endsWith(":href") || key === "src";
      if (key.startsWith("on") || (link && !/^(https?:\/\/|#)/i.test(value.trim()))) {
        element.removeAttribute(name);
      }
    }
  }
}
