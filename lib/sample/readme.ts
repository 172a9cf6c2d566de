/**
 * README.txt for a sample dataset: what a depositor writes (title, creators, abstract, file
 * list, how to cite) plus an honest provenance section naming the vega-datasets source.
 *
 * @module
 */

import { datasetPath, type DatasetSpec, type SampleFileFields } from "./dataset_spec.ts";
import type { VegaDatasets } from "./vega.ts";

/**
 * A file as the README lists it.
 *
 * @example
 * ```ts
 * import { type ReadmeFile } from "./readme.ts";
 * import assert from "node:assert/strict";
 *
 * const file: ReadmeFile = { path: "penguins.csv", size: 13_512, note: "One row per bird" };
 * assert.equal(file.size, 13_512);
 * ```
 */
export type ReadmeFile = Pick<SampleFileFields, "path" | "note" | "source"> & {
  /** Size in bytes. */
  size: number;
};

const WIDTH = 78;

/**
 * Wraps `text` at word boundaries to lines of at most `width` characters (longer words are
 * kept whole), prefixing each line with `indent`.
 *
 * @example
 * ```ts
 * import { wrap } from "./readme.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(wrap("a b c", 3), "a b\nc");
 * ```
 */
export function wrap(text: string, width = WIDTH, indent = ""): string {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && indent.length + line.length + 1 + word.length > width) {
        lines.push(indent + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(indent + line);
  }
  return lines.join("\n");
}

/**
 * A byte count for people: `812 B`, `13.2 kB`, `12.9 MB` (decimal units).
 *
 * @example
 * ```ts
 * import { humanSize } from "./readme.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(humanSize(13_493_022), "13.5 MB");
 * ```
 */
export function humanSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * The citation a README recommends, in the CyVerse house style: creators, year, title,
 * publisher, then the DOI (or ARK, or the data-store path when neither exists).
 *
 * @example
 * ```ts
 * import { houseCitation } from "./readme.ts";
 * import assert from "node:assert/strict";
 *
 * const text = houseCitation(["Ihaka, Ross"], "2019", "Elevation", null, null, "/iplant/x");
 * assert.equal(text, "Ihaka, Ross (2019). Elevation. CyVerse Data Commons. /iplant/x");
 * ```
 */
export function houseCitation(
  creators: string[],
  year: string,
  title: string,
  doi: string | null | undefined,
  ark: string | null | undefined,
  path: string,
): string {
  const where = doi ? `https://doi.org/${doi}` : ark ? `https://n2t.net/${ark}` : path;
  return `${creators.join("; ")} (${year}). ${title}. CyVerse Data Commons. ${where}`;
}

function heading(text: string): string {
  return `${text}\n${"-".repeat(text.length)}`;
}

/**
 * Renders the README of `spec` (located at data-store path `path`) given its files' sizes.
 *
 * @example
 * ```ts
 * import { renderReadme } from "./readme.ts";
 * import { VegaDatasets } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * const vega = await VegaDatasets.open();
 * const text = renderReadme({
 *   name: "X_y_2020", parent: "/iplant/home/shared", style: "none", title: "Barley",
 *   creators: ["Immer, F. R."], year: "2018", description: "Yields.", license: null,
 *   deposited: "2018-01-01T00:00:00Z", curated: "2018-01-01T00:00:00Z",
 *   avus: null, files: [],
 * }, [{ path: "barley.csv", size: 10, note: "Yields", source: "barley.json" }], vega);
 * assert.match(text, /barley\.json/);
 * ```
 */
export function renderReadme(spec: DatasetSpec, files: ReadmeFile[], vega: VegaDatasets): string {
  const path = datasetPath(spec);
  const out: string[] = [];
  out.push(spec.title, "=".repeat(Math.min(WIDTH, spec.title.length)), "");
  out.push(`Data-store path:  ${path}`);
  out.push(`Creators:         ${spec.creators.join("; ")}`);
  out.push(`Year:             ${spec.year}`);
  if (spec.doi) out.push(`DOI:              ${spec.doi}`);
  if (spec.ark) out.push(`ARK:              ${spec.ark}`);
  out.push(`Licence:          ${spec.license?.trim() ? spec.license : "not specified"}`, "");
  out.push(heading("Description"), wrap(spec.description), "");
  for (const note of spec.notes ?? []) out.push(wrap(note), "");
  out.push(heading("Files"));
  const width = Math.max(...files.map((f) => f.path.length), 9);
  out.push(`${"README.txt".padEnd(width)}  ${"".padStart(8)}  This file`);
  for (const f of files) {
    out.push(`${f.path.padEnd(width)}  ${humanSize(f.size).padStart(8)}  ${f.note}`);
  }
  out.push("", heading("How to cite"));
  out.push(
    wrap(
      spec.parent === undefined
        ? houseCitation(spec.creators, spec.year, spec.title, spec.doi, spec.ark, path)
        : "Not published yet: cite the identifier the Data Commons assigns on publication.",
    ),
  );
  out.push("", heading("Provenance"));
  const sources = [...new Set(files.flatMap((f) => f.source ? [f.source] : []))];
  for (const source of sources) {
    const r = vega.resource(source);
    out.push(wrap(`Made from data/${source} of the vega-datasets npm package ${vega.version}.`));
    for (const s of r?.sources ?? []) {
      out.push(wrap(`Original source: ${[s.title, s.path].filter(Boolean).join(" - ")}`));
    }
    const licences = (r?.licenses ?? []).map((l) =>
      [l.name ?? l.title, l.path].filter(Boolean).join(" - ")
    );
    out.push(
      wrap(`Licence recorded by vega-datasets: ${licences.join("; ") || "not recorded"}`),
    );
    out.push("");
  }
  out.push(wrap(
    spec.illustrativeCreators
      ? "This folder belongs to the tern demo store. The data are real (see above); the " +
        "creators named here, identifiers (DOIs, ARKs), comments and dates are illustrative " +
        "and not registered for this data."
      : "This folder belongs to the tern demo store. The data and their original creators " +
        "are real; identifiers (DOIs, ARKs), curators, comments and dates are illustrative " +
        "and not registered for this data.",
  ));
  return out.join("\n") + "\n";
}
