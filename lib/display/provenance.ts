/**
 * The provenance card ("this notebook read N files from M datasets": the datasets, the file
 * versions, the bibliography with a style switcher made of `<details>` only, no script), the
 * bibliography view, and the views of its parts: the file versions read
 * (`store.provenance.reads`), the datasets (`store.provenance.datasets()`) and a lock
 * (`store.provenance.save()`) — each a one-line summary above the same tables as the card.
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
  datasetCell,
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
  /**
   * `read`, `changed` (differs from the lock; read anyway) or `locked` (the lock's version);
   * none for a lock's own entries.
   */
  status?: string;
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

/** File versions the card lists; the rest are counted. */
const SHOWN_READS = 200;

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

/**
 * Renders the file versions a store read (`store.provenance.reads`): how many, how they stand
 * against the lock, and the table of the card.
 *
 * @example
 * ```ts
 * import { renderProvenanceReads } from "./provenance.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderProvenanceReads([
 *   { path: "/c/a.csv", size: 10, modified: new Date(0), operations: ["text"], status: "read" },
 *   { path: "/c/b.csv", size: 20, modified: new Date(0), operations: ["dataframe"], status: "changed" },
 * ]);
 * assert.equal(
 *   out["text/plain"].split("\n")[0],
 *   "2 file versions read; 1 changed since the lock (read anyway)",
 * );
 * ```
 */
export function renderProvenanceReads(reads: readonly ProvenanceReadView[]): MediaBundle {
  const count = (status: string) => reads.filter((read) => read.status === status).length;
  const summary = [
    `${plural(reads.length, "file version")} read`,
    ...statusCounts({ changed: count("changed"), locked: count("locked") }),
  ].join("; ");
  return bundle(
    card(
      { kind: "Provenance · reads", title: summary },
      filesHtml(reads, reads.length, "store.provenance.toDataFrame() has them all"),
    ),
    [summary, ...(reads.length === 0 ? [] : filesText(reads, reads.length))].join("\n"),
  );
}

/**
 * Renders the datasets a store read files from (`store.provenance.datasets()`): how many, and
 * how each is cited — by DOI, else by ARK, else (flagged) by its path.
 *
 * @example
 * ```ts
 * import { renderProvenanceDatasets } from "./provenance.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderProvenanceDatasets([
 *   { path: "/c/Barley", title: "Barley", doi: "10.7946/P2C35G", url: "https://doi.org/10.7946/P2C35G", files: 2, citedBy: "doi" },
 *   { path: "/c/Notes", files: 1, citedBy: "path" },
 * ]);
 * assert.equal(
 *   out["text/plain"].split("\n")[0],
 *   "2 datasets: 1 with a DOI, 1 with neither DOI nor ARK",
 * );
 * ```
 */
export function renderProvenanceDatasets(datasets: readonly ProvenanceDatasetView[]): MediaBundle {
  const summary = datasetsSummary(datasets);
  return bundle(
    card(
      { kind: "Provenance · datasets", title: summary },
      datasets.length === 0
        ? markup`<div class="t-note">None of the files read belongs to a dataset.</div>`
        : datasetsHtml(datasets),
    ),
    [summary, ...(datasets.length === 0 ? [] : [datasetsText(datasets)])].join("\n"),
  );
}

/** How the datasets are cited, by the identifier their citation points to. */
const CITED_BY: readonly [CitedByView, string][] = [
  ["doi", "with a DOI"],
  ["ark", "with only an ARK"],
  ["path", "with neither DOI nor ARK"],
];

function datasetsSummary(datasets: readonly ProvenanceDatasetView[]): string {
  const ways = CITED_BY.map(([citedBy, how]) => {
    const count = datasets.filter((dataset) => dataset.citedBy === citedBy).length;
    return count === 0 ? undefined : `${formatCount(count)} ${how}`;
  }).filter((way) => way !== undefined);
  return `${plural(datasets.length, "dataset")}${ways.length === 0 ? "" : `: ${ways.join(", ")}`}`;
}

/**
 * What the view of a lock shows.
 *
 * @example
 * ```ts
 * import type { LockView } from "./provenance.ts";
 *
 * const view: LockView = {
 *   file: "tern.lock.json", store: "https://de.cyverse.org/terrain", tern: "0.1.0",
 *   datasets: [], files: [],
 * };
 * ```
 */
export interface LockView {
  /** The file it was written to, when it was. */
  file?: string;
  /** The store's URL (no credentials). */
  store: string;
  /** The tern version that wrote it. */
  tern: string;
  /** Its datasets, with the files of each. */
  datasets: readonly ProvenanceDatasetView[];
  /** Its file versions (no status: a lock's entries are the versions). */
  files: readonly ProvenanceReadView[];
}

/**
 * Renders a lock (the value of `store.provenance.save(path)`): how many file versions from how
 * many datasets, where it was written, the store and tern version, then the datasets and files.
 *
 * @example
 * ```ts
 * import { renderLock } from "./provenance.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderLock({
 *   file: "tern.lock.json", store: "http://127.0.0.1:8080/terrain", tern: "0.1.0",
 *   datasets: [{ path: "/c/Barley", title: "Barley", files: 1, citedBy: "path" }],
 *   files: [
 *     { path: "/c/Barley/a.csv", size: 10, modified: new Date(0), operations: ["text"], dataset: "/c/Barley" },
 *     { path: "/c/b.csv", size: 20, modified: new Date(0), operations: ["bytes"] },
 *   ],
 * });
 * assert.equal(
 *   out["text/plain"].split("\n")[0],
 *   "Lock of 2 files from 1 dataset (1 outside any dataset), written to tern.lock.json",
 * );
 * ```
 */
export function renderLock(view: LockView): MediaBundle {
  const outside = view.files.filter((file) => file.dataset === undefined).length;
  const summary = `Lock of ${plural(view.files.length, "file")} from ${
    plural(view.datasets.length, "dataset")
  }${outside === 0 ? "" : ` (${formatCount(outside)} outside any dataset)`}${
    view.file === undefined ? "" : `, written to ${oneLine(view.file)}`
  }`;
  const about = [`store ${view.store}`, `written by tern ${view.tern}`];
  const html = card(
    { kind: "Lock", title: summary, sub: view.store },
    markup`${facts([`written by tern ${view.tern}`])}${
      view.datasets.length === 0 ? "" : section("Datasets", datasetsHtml(view.datasets))
    }${
      section(
        "Files",
        filesHtml(view.files, view.files.length, "the lock file lists them all"),
      )
    }`,
  );
  const text = [
    summary,
    ...about.map((line) => `  ${oneLine(line)}`),
    ...(view.datasets.length === 0 ? [] : ["Datasets:", datasetsText(view.datasets)]),
    ...(view.files.length === 0 ? [] : ["Files:", ...filesText(view.files, view.files.length)]),
  ];
  return bundle(html, text.join("\n"));
}

function headline(view: ProvenanceView): string {
  const outside = view.outside === 0 ? "" : ` (${formatCount(view.outside)} outside any dataset)`;
  return `This notebook read ${plural(view.files, "file")} from ${
    plural(view.datasets.length, "dataset")
  }${outside}.`;
}

function statusCounts({ changed, locked }: Pick<ProvenanceView, "changed" | "locked">): string[] {
  return [
    changed === 0 ? undefined : `${formatCount(changed)} changed since the lock (read anyway)`,
    locked === 0 ? undefined : `${formatCount(locked)} read at the locked version from the cache`,
  ].filter((text) => text !== undefined);
}

/**
 * The files read, in the table every frame shows (paths cut in the middle, whole on hover); the
 * status column only when the reads have one.
 */
function readsTable(shown: readonly ProvenanceReadView[]): Html {
  const status = shown.some((read) => read.status !== undefined);
  return frameTable({
    height: shown.length,
    width: status ? 6 : 5,
    columns: [
      { name: "path", type: "str", kind: "text" },
      { name: "size", type: "bytes", kind: "number" },
      { name: "modified (UTC)", type: "datetime", kind: "datetime" },
      { name: "hash", type: "str", kind: "text" },
      { name: "read by", type: "str", kind: "text" },
      ...(status ? [{ name: "status", type: "str", kind: "text" as const }] : []),
    ],
    head: shown.map((read) => [
      { text: read.path },
      { text: formatBytes(read.size), exact: `${read.size} bytes` },
      { text: formatDateTime(read.modified) },
      read.hash === undefined ? { text: "—" } : { text: read.hash },
      { text: read.operations.join(", ") },
      ...(status ? [{ text: read.status ?? "—" }] : []),
    ]),
    tail: [],
  });
}

/** The first file versions in the table, the rest counted. */
function filesHtml(reads: readonly ProvenanceReadView[], total: number, hint: string): Html {
  const shown = reads.slice(0, SHOWN_READS);
  if (shown.length === 0) return markup`<div class="t-note">Nothing read yet.</div>`;
  return markup`${readsTable(shown)}${
    total > shown.length ? moreNote(`${formatCount(total - shown.length)} more files`, hint) : ""
  }`;
}

/** The datasets' table: title and folder, identifier (a resolver link), files read. */
function datasetsHtml(datasets: readonly ProvenanceDatasetView[]): Html {
  const rows = datasets.map((dataset) =>
    markup`<tr>${datasetCell(dataset.title, dataset.path)}<td class="t-nowrap">${
      dataset.url === undefined
        ? markup`<span class="t-flag t-flag-bad">no DOI or ARK</span>`
        : link(dataset.url, bounded(dataset.doi ?? dataset.ark ?? dataset.url, LIMITS.name), {
          className: "t-id",
        })
    }${
      dataset.citedBy === "ark" ? markup` <span class="t-flag">no DOI</span>` : ""
    }</td><td class="t-num">${formatCount(dataset.files)}</td></tr>`
  );
  return markup`<table class="t-table"><thead><tr><th>dataset</th><th>identifier</th><th class="t-num">files</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function datasetsText(datasets: readonly ProvenanceDatasetView[]): string {
  return textTable(
    [
      { heading: "dataset", max: 60 },
      { heading: "identifier", max: 40 },
      { heading: "files", right: true },
    ],
    datasets.map((dataset) => [
      dataset.title ?? dataset.path,
      dataset.doi ?? dataset.ark ?? "no DOI or ARK",
      formatCount(dataset.files),
    ]),
  );
}

function filesText(reads: readonly ProvenanceReadView[], total: number): string[] {
  const shown = reads.slice(0, SHOWN_READS);
  const status = shown.some((read) => read.status !== undefined);
  const lines = [textTable(
    [
      { heading: "path", max: 80 },
      { heading: "size", right: true },
      { heading: "modified (UTC)" },
      { heading: "read by", max: 40 },
      ...(status ? [{ heading: "status" }] : []),
    ],
    shown.map((read) => [
      read.path,
      formatBytes(read.size),
      formatDateTime(read.modified),
      read.operations.join(", "),
      ...(status ? [read.status ?? "—"] : []),
    ]),
  )];
  if (total > shown.length) lines.push(`  … ${formatCount(total - shown.length)} more files`);
  return lines;
}

function provenanceHtml(view: ProvenanceView): Html {
  const datasets = view.datasets.length === 0
    ? ""
    : section("Datasets", datasetsHtml(view.datasets));
  const files = filesHtml(view.reads, view.files, "store.provenance.toDataFrame() has them all");
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
  if (view.datasets.length > 0) lines.push("Datasets:", datasetsText(view.datasets));
  if (view.reads.length > 0) lines.push("Files read:", ...filesText(view.reads, view.files));
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
