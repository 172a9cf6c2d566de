// deno-lint-ignore-file no-import-prefix -- the one file allowed full npm: specifiers (see below)
/**
 * Every npm package tern uses at run time, pinned, in one place.
 *
 * tern is imported from notebooks and scripts that have no import map of their own (by file
 * path, by `https:` URL, or as a published package), so every specifier here is a full
 * `npm:name@version`: it resolves without tern's `deno.json`. Every package is loaded through
 * the loaders below, on first use, so `import { connect } from "tern"` stays cheap
 * and needs no `--allow-ffi` until a frame is made (zod loads with tern, since `connect()` checks
 * its options and a lock synchronously; the response schemas load with the first answer, while
 * its request is on its way; docs/architecture.md says what else waits for its call). Test-only
 * packages (fast-check, linkedom) live in `deno.json`'s import map, which only tern's own tests
 * read (linkedom is also here, for charts).
 *
 * @example Every loader gives its package
 * ```ts
 * import { loadPolarsModule, loadSpdxCorrectModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = (await loadPolarsModule()).default;
 * assert.deepEqual(pl.DataFrame({ a: [1, 2] }).height, 2);
 * assert.deepEqual(typeof (await loadSpdxCorrectModule()).default, "function");
 * ```
 *
 * @module
 */

/** picomatch's matcher factory (with its `scan`). */
export type Picomatch = typeof import("npm:picomatch@4.0.7").default;

/**
 * Imports picomatch (glob matching; only when a listing with a glob is first read).
 *
 * @example
 * ```ts
 * import { loadPicomatch } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const picomatch = await loadPicomatch();
 * assert.ok(picomatch("*.csv")("a.csv"));
 * ```
 */
export async function loadPicomatch(): Promise<Picomatch> {
  return (await importLater<typeof import("npm:picomatch@4.0.7")>("npm:picomatch@4.0.7")).default;
}
/** zod's namespace, for types (`z.infer`, `z.ZodType`); {@linkcode loadZodModule} gives its values. */
export type { z } from "npm:zod@4.6.7";
import type * as polars from "npm:nodejs-polars@0.25.2";

// The polars types tern's API mentions, declared here (not re-exported) so that documentation of
// tern's entries covers them without linting nodejs-polars' own declarations.

/**
 * A nodejs-polars DataFrame, the type of every frame tern returns.
 *
 * @example
 * ```ts
 * import { type DataFrame, loadPolarsModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const frame: DataFrame = (await loadPolarsModule()).default.DataFrame({ a: [1, 2] });
 * assert.equal(frame.height, 2);
 * ```
 */
export type DataFrame = polars.DataFrame;

/**
 * A nodejs-polars column type (`pl.Float64`, `pl.Utf8`, ...).
 *
 * @example
 * ```ts
 * import { type DataType, loadPolarsModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = (await loadPolarsModule()).default;
 * const type: DataType = pl.DataFrame({ a: [1.5] }).getColumn("a").dtype;
 * assert.equal(String(type), String(pl.Float64));
 * ```
 */
export type DataType = polars.DataType;

/**
 * A nodejs-polars expression (`pl.col(...)`, `pl.lit(...)`).
 *
 * @example
 * ```ts
 * import { type Expr, loadPolarsModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = (await loadPolarsModule()).default;
 * const heavy: Expr = pl.col("mass").gt(4000);
 * assert.equal(pl.DataFrame({ mass: [3700, 5076] }).filter(heavy).height, 1);
 * ```
 */
export type Expr = polars.Expr;

/**
 * A nodejs-polars LazyDataFrame.
 *
 * @example
 * ```ts
 * import { type LazyDataFrame, loadPolarsModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const lazy: LazyDataFrame = (await loadPolarsModule()).default.DataFrame({ a: [1] }).lazy();
 * assert.equal((await lazy.collect()).height, 1);
 * ```
 */
export type LazyDataFrame = polars.LazyDataFrame;

/**
 * A nodejs-polars Series (one column).
 *
 * @example
 * ```ts
 * import { loadPolarsModule, type Series } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const column: Series = (await loadPolarsModule()).default.Series("a", [1, 2]);
 * assert.equal(column.len(), 2);
 * ```
 */
export type Series = polars.Series;

/**
 * The nodejs-polars module, as {@linkcode loadPolarsModule} gives it.
 *
 * @example
 * ```ts
 * import { loadPolarsModule, type PolarsModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const mod: PolarsModule = await loadPolarsModule();
 * assert.deepEqual(mod.default.readCSV("a,b\n1,2\n").width, 2);
 * ```
 */
export type PolarsModule = typeof import("npm:nodejs-polars@0.25.2");

/**
 * Imports an npm package given by a specifier held in a variable. Deno prepares every `npm:`
 * specifier written out in a module's `import(...)` as soon as that module loads, whether or not
 * the import ever runs (a few milliseconds each); passed through here, a package costs nothing
 * until it is used. Its types still come from the `typeof import(...)` annotations, which also
 * keep every package in the lock file and in `deno install`.
 */
function importLater<T>(specifier: string): Promise<T> {
  return import(specifier);
}

/**
 * Imports nodejs-polars (a native addon, so only when a frame is first made). tern loads it
 * through `loadPolars` of `lib/polars/adapter.ts`, which also puts the frame hook in place.
 *
 * @example
 * ```ts
 * import { loadPolarsModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const { default: pl } = await loadPolarsModule();
 * assert.deepEqual(pl.DataFrame({ x: ["a"] }).columns, ["x"]);
 * ```
 */
export function loadPolarsModule(): Promise<PolarsModule> {
  return importLater("npm:nodejs-polars@0.25.2");
}

/**
 * The URL of the installed nodejs-polars package's entry module (a `file:` URL, with a local
 * `node_modules` and with Deno's global npm cache alike, also when tern itself was imported by
 * URL). `lib/polars/adapter.ts` reaches the package's files from it.
 *
 * @example
 * ```ts
 * import { polarsEntryUrl } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(polarsEntryUrl(), /^file:.*nodejs-polars/);
 * ```
 */
export function polarsEntryUrl(): string {
  return import.meta.resolve("npm:nodejs-polars@0.25.2");
}

/**
 * Imports zod (its `z` namespace). Modules that build schemas await it at their top level, and
 * are themselves imported only when first needed.
 *
 * @example
 * ```ts
 * import { loadZodModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const { z } = await loadZodModule();
 * assert.equal(z.number().parse(3), 3);
 * ```
 */
export function loadZodModule(): Promise<typeof import("npm:zod@4.6.7")> {
  return importLater("npm:zod@4.6.7");
}

/**
 * Observable Plot's module, as {@linkcode loadPlotModule} gives it.
 *
 * @example
 * ```ts
 * import { loadPlotModule, type PlotModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const Plot: PlotModule = await loadPlotModule();
 * assert.equal(typeof Plot.lineY, "function");
 * ```
 */
export type PlotModule = typeof import("npm:@observablehq/plot@0.6.17");

/**
 * Imports Observable Plot (charts as SVG; only when a chart is drawn).
 *
 * @example
 * ```ts
 * import { loadPlotModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(typeof (await loadPlotModule()).plot, "function");
 * ```
 */
export function loadPlotModule(): Promise<PlotModule> {
  return importLater("npm:@observablehq/plot@0.6.17");
}

/**
 * Imports linkedom, a DOM without a browser, in which Plot draws its SVG (only when a chart is
 * drawn; tern's tests also parse views with it).
 *
 * @example
 * ```ts
 * import { loadLinkedomModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const window = (await loadLinkedomModule()).parseHTML("<p>a</p>") as unknown as {
 *   document: { querySelector(selector: string): { textContent: string } | null };
 * };
 * assert.equal(window.document.querySelector("p")?.textContent, "a");
 * ```
 */
export function loadLinkedomModule(): Promise<typeof import("npm:linkedom@0.18.13")> {
  return importLater("npm:linkedom@0.18.13");
}

/**
 * Imports yaml (for `CITATION.cff`, only when one is written).
 *
 * @example
 * ```ts
 * import { loadYamlModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const yaml = await loadYamlModule();
 * assert.deepEqual(yaml.parse(yaml.stringify({ title: "a: b" })), { title: "a: b" });
 * ```
 */
export function loadYamlModule(): Promise<typeof import("npm:yaml@2.9.1")> {
  return importLater("npm:yaml@2.9.1");
}

/**
 * Imports spdx-correct (it reads the whole SPDX list, so only when a licence is normalised).
 *
 * @example
 * ```ts
 * import { loadSpdxCorrectModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const correct = (await loadSpdxCorrectModule()).default as (value: string) => string | null;
 * assert.deepEqual(correct("Apache 2"), "Apache-2.0");
 * ```
 */
export function loadSpdxCorrectModule(): Promise<{ default: unknown }> {
  return importLater<typeof import("npm:spdx-correct@3.2.0")>("npm:spdx-correct@3.2.0");
}

/**
 * Imports citation-js's core with the CSL, BibTeX and RIS plugins registered, and gives the
 * core module.
 *
 * @example
 * ```ts
 * import { loadCitationJsModules } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const core = await loadCitationJsModules() as { Cite: unknown };
 * assert.deepEqual(typeof core.Cite, "function");
 * ```
 */
export async function loadCitationJsModules(): Promise<unknown> {
  const core = await importLater<typeof import("npm:@citation-js/core@0.8.2")>(
    "npm:@citation-js/core@0.8.2",
  );
  await Promise.all([
    importLater<typeof import("npm:@citation-js/plugin-csl@0.8.2")>(
      "npm:@citation-js/plugin-csl@0.8.2",
    ),
    importLater<typeof import("npm:@citation-js/plugin-bibtex@0.8.2")>(
      "npm:@citation-js/plugin-bibtex@0.8.2",
    ),
    importLater<typeof import("npm:@citation-js/plugin-ris@0.8.2")>(
      "npm:@citation-js/plugin-ris@0.8.2",
    ),
  ]);
  return core;
}

/**
 * Imports xxhash-wasm (XXH64 in WebAssembly, no dependencies), which hashes cached copies; only
 * loaded when a cache copy is written or checked.
 *
 * @example
 * ```ts
 * import { loadXxhashModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const xxhash = await (await loadXxhashModule()).default();
 * assert.equal(xxhash.h64ToString("a"), "d24ec4f1a98c6e5b");
 * ```
 */
export function loadXxhashModule(): Promise<typeof import("npm:xxhash-wasm@1.1.0")> {
  return importLater("npm:xxhash-wasm@1.1.0");
}

/**
 * The `file:` URL of the installed vega-datasets package's entry module (the sample store's raw
 * material). Works with a local `node_modules` and with Deno's global npm cache alike.
 *
 * @example
 * ```ts
 * import { vegaDatasetsEntryUrl } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok((await vegaDatasetsEntryUrl()).startsWith("file:"));
 * ```
 */
export async function vegaDatasetsEntryUrl(): Promise<string> {
  // Importing first makes Deno install the package when it is not cached yet.
  await importLater<typeof import("npm:vega-datasets@3.2.1")>("npm:vega-datasets@3.2.1");
  return import.meta.resolve("npm:vega-datasets@3.2.1");
}

/**
 * Imports fflate (zip and deflate in plain JavaScript, no dependencies), which opens Excel
 * workbooks (an `.xlsx` is a zip of XML files); only loaded when a workbook is read.
 *
 * @example
 * ```ts
 * import { loadFflateModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const { unzipSync, zipSync, strToU8, strFromU8 } = await loadFflateModule();
 * assert.equal(strFromU8(unzipSync(zipSync({ "a.txt": strToU8("hi") }))["a.txt"]), "hi");
 * ```
 */
export function loadFflateModule(): Promise<typeof import("npm:fflate@0.8.3")> {
  return importLater("npm:fflate@0.8.3");
}

/**
 * Imports saxes (a streaming XML parser: it reports tags and text, and builds no objects from
 * the document's names), which reads the XML inside Excel workbooks; only loaded when a
 * workbook is read.
 *
 * @example
 * ```ts
 * import { loadSaxesModule } from "./deps.ts";
 * import assert from "node:assert/strict";
 *
 * const parser = new (await loadSaxesModule()).SaxesParser();
 * const names: string[] = [];
 * parser.on("opentag", (tag) => void names.push(tag.name));
 * parser.write("<a><b/></a>").close();
 * assert.deepEqual(names, ["a", "b"]);
 * ```
 */
export function loadSaxesModule(): Promise<typeof import("npm:saxes@6.0.0")> {
  return importLater("npm:saxes@6.0.0");
}
