/**
 * The provenance card ("this notebook read N files from M datasets": the datasets, the file
 * versions, the bibliography with a style switcher made of `<details>` only, no script) and the
 * bibliography view.
 *
 * @module
 */

import { citationStyleLabel } from "../registry/citation_styles.ts";
import { bundle, type MediaBundle } from "./bundle.ts";
import { formatBytes, formatCount, formatDateTime, layoutText, oneLine, plural } from "./format.ts";
import { type Html, link, markup } from "./html.ts";
import {
  bounded,
  card,
  collapsible,
  facts,
  LIMITS,
  moreNote,
  preformatted,
  section,
} from "./parts.ts";
import { textTable } from "./text.ts";
import { frameTable } from "./frame.ts";

/**
 * How a dataset is cited: by DOI, else ARK, else its path (flagged).
 *
 * @example
 * ```ts
 * import type { CitedByView } from "./provenance.ts";
 *
 * const by: CitedByView = "doi";
 * ```
 */
export type CitedByView = "doi" | "ark" | "path";

/**
 * A dataset without a DOI, as the views flag it.
 *
 * @example
 * ```ts
 * import type { FlaggedView } from "./provenance.ts";
 *
 * const flagged: FlaggedView = { path: "/c/x", citedBy: "path" };
 * ```
 */
export interface FlaggedView {
  /** The dataset's folder. */
  path: string;
  /** Its title. */
  title?: string;
  /** What its citation points to. */
  citedBy: CitedByView;
}

/**
 * What the bibliography view shows.
 *
 * @example
 * ```ts
 * import type { BibliographyView } from "./provenance.ts";
 *
 * const view: BibliographyView = { style: "bibtex", text: "@misc{x}", count: 1, flagged: [] };
 * ```
 */
export interface BibliographyView {
  /** The style's id. */
  style: string;
  /** The bibliography as one text. */
  text: string;
  /** How many citations it holds. */
  count: number;
  /** Those without a DOI. */
  flagged: readonly FlaggedView[];
}

/**
 * Renders a bibliography: its citations as selectable text and a flag per dataset cited
 * without a DOI.
 *
 * @example
 * ```ts
 * import { renderBibliography } from "./provenance.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderBibliography({ style: "apa", text: "A. (2020). X.", count: 1, flagged: [] });
 * assert.equal(out["text/plain"], "A. (2020). X.");
 * ```
 */
export function renderBibliography(view: BibliographyView): MediaBundle {
  const flags = flaggedText(view.flagged);
  const body = markup`${
    view.count === 0
      ? markup`<div class="t-note">No datasets to cite.</div>`
      : preformatted(view.text, LIMITS.json)
  }${flaggedHtml(view.flagged)}`;
  return bundle(
    card({
      kind: `Bibliography · ${citationStyleLabel(view.style)}`,
      title: plural(view.count, "citation"),
    }, body),
    [layoutText(view.text || "(no datasets to cite)"), ...flags].join("\n"),
  );
}

/**
 * One file version in the provenance card.
 *
 * @example
 * ```ts
 * import type { ProvenanceReadView } from "./provenance.ts";
 *
 * const row: ProvenanceReadView = {
 *   path: "/c/a.csv", size: 10, modified: new Date(0), operations: ["dataframe"], status: "read",
 * };
 * ```
 */
export interface ProvenanceReadView {
  /** Data-store path. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** Date-modified. */
  modified: Date;
  /** Content hash, when known. */
  hash?: string;
  /** How it was read. */
  operations: readonly string[];
  /** `read`, `changed` (differs from the lock; read anyway) or `locked` (the lock's version). */
  status: string;
  /** The dataset's path. */
  dataset?: string;
}

/**
 * A dataset in the provenance card.
 *
 * @example
 * ```ts
 * import type { ProvenanceDatasetView } from "./provenance.ts";
 *
 * const dataset: ProvenanceDatasetView = { path: "/c/x", files: 2, citedBy: "path" };
 * ```
 */
export interface ProvenanceDatasetView {
  /** The dataset's folder. */
  path: string;
  /** Its title. */
  title?: string;
  /** `10.…`, when it has a DOI. */
  doi?: string;
  /** `ark:/…`, when it has an ARK. */
  ark?: string;
  /** The resolver link (DOI, else ARK). */
  url?: string;
  /** Files read from it. */
  files: number;
  /** What its citation points to. */
  citedBy: CitedByView;
}

/**
 * What the provenance card shows.
 *
 * @example
 * ```ts
 * import type { ProvenanceView } from "./provenance.ts";
 *
 * const view: ProvenanceView = {
 *   store: "https://de.cyverse.org/terrain", files: 0, outside: 0, changed: 0, locked: 0,
 *   datasets: [], reads: [], bibliographies: [],
 * };
 * ```
 */
export interface ProvenanceView {
  /** The store's URL (no credentials). */
  store: string;
  /** File versions read. */
  files: number;
  /** Of those, how many belong to no dataset. */
  outside: number;
  /** Of those, how many differ from the lock (read anyway, `onChange: "warn"`). */
  changed: number;
  /** Of those, how many were read at the lock's version from the cache. */
  locked: number;
  /** The datasets they belong to. */
  datasets: readonly ProvenanceDatasetView[];
  /** The first file versions, to show (all of them are `files`). */
  reads: readonly ProvenanceReadView[];
  /** The bibliography in each style, the default style first. */
  bibliographies: readonly { style: string; text: string }[];
}

/**
 * File versions the card lists; the rest are counted.
 *
 * @example
 * ```ts
 * import { SHOWN_READS } from "./provenance.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SHOWN_READS, 200);
 * ```
 */
export const SHOWN_READS = 200;

/**
 * Renders the provenance card.
 *
 * @example
 * ```ts
 * import { renderProvenance } from "./provenance.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderProvenance({
 *   store: "http://127.0.0.1:8080/terrain", files: 1, outside: 0, changed: 0, locked: 0,
 *   datasets: [{ path: "/c/Barley", title: "Barley", doi: "10.7946/P2C35G", url: "https://doi.org/10.7946/P2C35G", files: 1, citedBy: "doi" }],
 *   reads: [{ path: "/c/Barley/a.csv", size: 10, modified: new Date(0), operations: ["text"], status: "read", dataset: "/c/Barley" }],
 *   bibliographies: [{ style: "datacite", text: "Barley. https://doi.org/10.7946/P2C35G" }],
 * });
 * assert.equal(out["text/plain"].split("\n")[0], "This notebook read 1 file from 1 dataset.");
 * assert.ok(out["text/html"].includes("<details open><summary>DataCite</summary>"));
 * ```
 */
export function renderProvenance(view: ProvenanceView): MediaBundle {
  return bundle(provenanceHtml(view), provenanceText(view));
}

function headline(view: ProvenanceView): string {
  const outside = view.outside === 0 ? "" : ` (${formatCount(view.outside)} outside any dataset)`;
  return `This notebook read ${plural(view.files, "file")} from ${
    plural(view.datasets.length, "dataset")
  }${outside}.`;
}

function statusCounts(view: ProvenanceView): string[] {
  const { changed, locked } = view;
  return [
    changed === 0 ? undefined : `${formatCount(changed)} changed since the lock (read anyway)`,
    locked === 0 ? undefined : `${formatCount(locked)} read at the locked version from the cache`,
  ].filter((text) => text !== undefined);
}

/** The files read, in the table every frame shows (paths cut in the middle, whole on hover). */
function readsTable(shown: ProvenanceView["reads"]): Html {
  return frameTable({
    height: shown.length,
    width: 6,
    columns: [
      { name: "path", type: "str", kind: "text" },
      { name: "size", type: "bytes", kind: "number" },
      { name: "modified (UTC)", type: "datetime", kind: "datetime" },
      { name: "hash", type: "str", kind: "text" },
      { name: "read by", type: "str", kind: "text" },
      { name: "status", type: "str", kind: "text" },
    ],
    head: shown.map((read) => [
      { text: read.path },
      { text: formatBytes(read.size), exact: `${read.size} bytes` },
      { text: formatDateTime(read.modified) },
      read.hash === undefined ? { text: "—" } : { text: read.hash },
      { text: read.operations.join(", ") },
      { text: read.status },
    ]),
    tail: [],
  });
}

function provenanceHtml(view: ProvenanceView): Html {
  const datasetRows = view.datasets.map((dataset) =>
    markup`<tr><td class="t-name"><div><bdi>${
      dataset.title === undefined
        ? markup`<span class="t-muted">(no title)</span>`
        : bounded(dataset.title, LIMITS.name)
    }</bdi></div><div class="t-path"><bdi>${
      bounded(dataset.path, LIMITS.name)
    }</bdi></div></td><td class="t-nowrap">${
      dataset.url === undefined
        ? markup`<span class="t-flag t-flag-bad">no DOI or ARK</span>`
        : link(dataset.url, bounded(dataset.doi ?? dataset.ark ?? dataset.url, LIMITS.name), {
          className: "t-id",
        })
    }${
      dataset.citedBy === "ark" ? markup` <span class="t-flag">no DOI</span>` : ""
    }</td><td class="t-num">${formatCount(dataset.files)}</td></tr>`
  );
  const datasets = view.datasets.length === 0 ? "" : section(
    "Datasets",
    markup`<table class="t-table"><thead><tr><th>dataset</th><th>identifier</th><th class="t-num">files</th></tr></thead><tbody>${datasetRows}</tbody></table>`,
  );
  const shown = view.reads.slice(0, SHOWN_READS);
  const files = shown.length === 0
    ? markup`<div class="t-note">Nothing read yet.</div>`
    : markup`${readsTable(shown)}${
      view.files > shown.length
        ? moreNote(
          `${formatCount(view.files - shown.length)} more files`,
          "store.provenance.toDataFrame() has them all",
        )
        : ""
    }`;
  // The style switcher: one <details> per style, the default one open; no script.
  const styles = view.bibliographies.map(({ style, text }, index) =>
    collapsible(citationStyleLabel(style), preformatted(text, LIMITS.json), index === 0)
  );
  const bibliography = view.bibliographies.length === 0 || view.datasets.length === 0
    ? ""
    : section("Bibliography", markup`${styles}`);
  return card(
    { kind: "Provenance", title: headline(view), sub: view.store },
    markup`${facts(statusCounts(view))}${datasets}${section("Files read", files)}${bibliography}`,
  );
}

function provenanceText(view: ProvenanceView): string {
  const lines = [
    headline(view),
    `  store: ${oneLine(view.store)}`,
    ...statusCounts(view).map(
      (line) => `  ${line}`,
    ),
  ];
  if (view.datasets.length > 0) {
    lines.push("Datasets:");
    lines.push(textTable(
      [
        { heading: "dataset", max: 60 },
        { heading: "identifier", max: 40 },
        { heading: "files", right: true },
      ],
      view.datasets.map((dataset) => [
        dataset.title ?? dataset.path,
        dataset.doi ?? dataset.ark ?? "no DOI or ARK",
        formatCount(dataset.files),
      ]),
    ));
  }
  if (view.reads.length > 0) {
    const shown = view.reads.slice(0, SHOWN_READS);
    lines.push("Files read:");
    lines.push(textTable(
      [
        { heading: "path", max: 80 },
        { heading: "size", right: true },
        { heading: "modified (UTC)" },
        { heading: "read by", max: 40 },
        { heading: "status" },
      ],
      shown.map((read) => [
        read.path,
        formatBytes(read.size),
        formatDateTime(read.modified),
        read.operations.join(", "),
        read.status,
      ]),
    ));
    if (view.files > shown.length) {
      lines.push(`  … ${formatCount(view.files - shown.length)} more files`);
    }
  }
  const first = view.bibliographies[0];
  if (first !== undefined && view.datasets.length > 0) {
    lines.push(`Bibliography (${citationStyleLabel(first.style)}):`);
    lines.push(layoutText(first.text));
  }
  return lines.join("\n");
}

function flaggedText(flagged: readonly FlaggedView[]): string[] {
  return flagged.map((entry) =>
    `! no DOI: ${oneLine(entry.title ?? entry.path)} is cited by its ${
      entry.citedBy === "ark" ? "ARK" : "data-store path"
    }`
  );
}

function flaggedHtml(flagged: readonly FlaggedView[]): Html {
  if (flagged.length === 0) return markup``;
  return markup`<div class="t-flags">${
    flagged.map((entry) =>
      markup`<span class="t-flag t-flag-bad" title="${entry.path}">no DOI: <bdi>${
        bounded(entry.title ?? entry.path, LIMITS.name)
      }</bdi> is cited by its ${entry.citedBy === "ark" ? "ARK" : "data-store path"}</span>`
    )
  }</div>`;
}
