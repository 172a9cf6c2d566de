/**
 * The engine section of a manifest's view: how to write the manifest, then ready-to-run code for
 * each engine (the first one open), each saying whether a test runs it. Added below whatever
 * shows the manifest's table.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { type Html, joinHtml, markup } from "./html.ts";
import { collapsible, preformatted, section } from "./parts.ts";

/**
 * What the engine section shows.
 *
 * @example
 * ```ts
 * import type { EnginesView } from "./engines.ts";
 *
 * const view: EnginesView = {
 *   manifest: "manifest.csv",
 *   tokenVariable: "TERRAIN_TOKEN",
 *   token: false,
 *   snippets: [{ engine: "Dask", language: "python", code: "import dask\n", tested: true }],
 * };
 * ```
 */
export interface EnginesView {
  /** The manifest file name the code reads. */
  manifest: string;
  /** The environment variable the code takes the token from. */
  tokenVariable: string;
  /** Whether some files need the token. */
  token: boolean;
  /** Each engine's code. */
  snippets: readonly { engine: string; language: string; code: string; tested: boolean }[];
}

/**
 * The engine section alone, as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderEngines } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderEngines({
 *   manifest: "manifest.csv", tokenVariable: "TERRAIN_TOKEN", token: true,
 *   snippets: [{ engine: "Dask", language: "python", code: "import <dask>\n", tested: true }],
 * });
 * assert.ok(out["text/html"].includes("import &lt;dask&gt;"));
 * assert.ok(out["text/plain"].includes("TERRAIN_TOKEN"));
 * ```
 */
export function renderEngines(view: EnginesView): MediaBundle {
  const blocks = view.snippets.map((snippet) => `# ${label(snippet)}\n${snippet.code}`);
  const text = [`Read with another engine — ${intro(view)}`, ...blocks].join("\n").trimEnd();
  return bundle(enginesHtml(view), text);
}

/**
 * `table` (the manifest's own view) with the engine section below it.
 *
 * @example
 * ```ts
 * import { withEngines } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const table = { "text/plain": "DataFrame 1 row", "text/html": "<table></table>" };
 * const out = withEngines(table, {
 *   manifest: "manifest.csv", tokenVariable: "TERRAIN_TOKEN", token: false, snippets: [],
 * });
 * assert.ok(out["text/html"].startsWith("<table></table>"));
 * assert.ok(out["text/plain"].startsWith("DataFrame 1 row\n\n"));
 * ```
 */
export function withEngines(table: MediaBundle, view: EnginesView): MediaBundle {
  const engines = renderEngines(view);
  return {
    "text/plain": `${table["text/plain"]}\n\n${engines["text/plain"]}`,
    "text/html": `${table["text/html"]}${engines["text/html"]}`,
  };
}

function intro(view: EnginesView): string {
  const write = `Write the manifest with writeManifest(manifest, ${
    JSON.stringify(view.manifest)
  }) (or tern manifest FOLDER -o ${view.manifest}), then run one of these.`;
  return view.token
    ? `${write} Private files are read with your token from ${view.tokenVariable} in the ` +
      "engine's environment; no token is written into the manifest or the code."
    : write;
}

function label(snippet: EnginesView["snippets"][number]): string {
  const language = snippet.language === "python" ? "Python" : snippet.language;
  return `${snippet.engine} (${language})${snippet.tested ? "" : " — untested"}`;
}

function enginesHtml(view: EnginesView): Html {
  const blocks = view.snippets.map((snippet, index) =>
    collapsible(markup`${label(snippet)}`, preformatted(snippet.code), index === 0)
  );
  return section(
    "Read with another engine",
    markup`<div class="t-note">${intro(view)}</div>${joinHtml(blocks)}`,
  );
}
