/**
 * The view of a folder's datasets (`folder.datasets()`): a small catalog of the first datasets —
 * title, year, identifier, licence — with shared titles, deprecated versions and incomplete
 * citations flagged, and the count of all.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { fieldName } from "./dataset.ts";
import { clip, formatCount, oneLine, plural } from "./format.ts";
import { type Html, link, markup } from "./html.ts";
import { card, datasetCell, facts, moreNote } from "./parts.ts";
import { textTable } from "./text.ts";

/**
 * One dataset of the view.
 *
 * @example
 * ```ts
 * import type { DatasetRow } from "./datasets.ts";
 *
 * const row: DatasetRow = {
 *   name: "Immer_BarleyVarietyTrials_Jun2018", title: "Barley yields", year: 1934,
 *   doi: "10.7946/P2C35G", license: "CC-BY-4.0", deprecated: false, duplicateTitle: false, missing: [],
 * };
 * ```
 */
export interface DatasetRow {
  /** Folder name. */
  name: string;
  /** Title. */
  title?: string;
  /** Publication year. */
  year?: number;
  /** DOI. */
  doi?: string;
  /** ARK. */
  ark?: string;
  /** The DOI's resolver link, when the DOI parses. */
  doiUrl?: string;
  /** The ARK's resolver link, when the ARK parses. */
  arkUrl?: string;
  /** SPDX id, or the licence's words. */
  license?: string;
  /** Marked deprecated. */
  deprecated: boolean;
  /** Another dataset shown shares the title. */
  duplicateTitle: boolean;
  /** What a complete citation lacks. */
  missing: readonly string[];
  /** Why the metadata could not be read. */
  error?: string;
}

/**
 * What the view shows.
 *
 * @example
 * ```ts
 * import type { DatasetsView } from "./datasets.ts";
 *
 * const view: DatasetsView = { path: "/iplant/home/shared/commons_repo/curated", rows: [], total: 0, more: false };
 * ```
 */
export interface DatasetsView {
  /** The parent folder, when known (an empty listing does not say). */
  path?: string;
  /** What was listed, when the path is not known. */
  description?: string;
  /** The datasets shown. */
  rows: readonly DatasetRow[];
  /** Datasets in all, when known. */
  total?: number;
  /** Whether there are more than shown. */
  more: boolean;
}

/**
 * Renders a dataset list as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderDatasets } from "./datasets.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderDatasets({ path: "/iplant/home/shared/commons_repo/curated", rows: [], total: 0, more: false });
 * assert.equal(
 *   out["text/plain"].split("\n")[0],
 *   "Datasets in /iplant/home/shared/commons_repo/curated — 0 datasets",
 * );
 * ```
 */
export function renderDatasets(view: DatasetsView): MediaBundle {
  return bundle(datasetsHtml(view), datasetsText(view));
}

function identifier(row: DatasetRow): Html | string {
  if (row.doi !== undefined) return link(row.doiUrl, row.doi, { className: "t-id" });
  if (row.ark !== undefined) return link(row.arkUrl, row.ark, { className: "t-id" });
  return markup`<span class="t-muted">—</span>`;
}

/** A row's flags, the text view's words and the card's chips alike; a bad one may say why. */
function flagsOf(row: DatasetRow): { label: string; bad: boolean; title?: string }[] {
  const missing = row.error === undefined && row.missing.length > 0;
  return [
    row.error === undefined
      ? undefined
      : { label: "unreadable", bad: true, title: oneLine(row.error) },
    row.duplicateTitle ? { label: "same title", bad: false } : undefined,
    row.deprecated ? { label: "deprecated", bad: false } : undefined,
    missing
      ? { label: lacks(row.missing), bad: true, title: `Citation lacks ${row.missing.join(", ")}` }
      : undefined,
  ].filter((flag) => flag !== undefined);
}

/** `lacks DOI`, `lacks publisher, DOI`, `lacks 5 fields`. */
function lacks(missing: readonly string[]): string {
  const names = missing.map(fieldName);
  return names.length <= 2 ? `lacks ${names.join(", ")}` : `lacks ${names.length} fields`;
}

function countText(view: DatasetsView): string {
  if (view.total !== undefined && (view.more || view.total !== view.rows.length)) {
    return `showing ${formatCount(view.rows.length)} of ${formatCount(view.total)} datasets`;
  }
  return view.more
    ? `showing the first ${formatCount(view.rows.length)} datasets`
    : plural(view.rows.length, "dataset");
}

function datasetsHtml(view: DatasetsView): Html {
  const rows = view.rows.map((row) =>
    markup`<tr>${datasetCell(row.title, row.name)}<td class="t-num">${
      row.year === undefined ? "—" : String(row.year)
    }</td><td class="t-nowrap">${identifier(row)}</td><td>${
      row.license === undefined
        ? markup`<span class="t-muted">—</span>`
        : markup`<span title="${clip(oneLine(row.license), 300).text}">${
          clip(row.license, 32).text
        }</span>`
    }</td><td><div class="t-chips">${
      flagsOf(row).map((flag) =>
        markup`<span class="t-flag${flag.bad ? " t-flag-bad" : ""}"${
          flag.title === undefined ? "" : markup` title="${flag.title}"`
        }>${flag.label}</span>`
      )
    }</div></td></tr>`
  );
  const table =
    markup`<table class="t-table"><thead><tr><th>dataset</th><th class="t-num">year</th><th>identifier</th><th>license</th><th>flags</th></tr></thead><tbody>${rows}</tbody></table>`;
  const name = view.path === undefined
    ? "Datasets"
    : view.path.slice(view.path.lastIndexOf("/") + 1) || view.path;
  return card(
    { kind: "Datasets", title: name, sub: view.path ?? view.description },
    markup`${facts([countText(view)])}${
      view.rows.length === 0 ? markup`<div class="t-note">No datasets.</div>` : table
    }${
      view.more
        ? moreNote(
          "more datasets",
          "iterate folder.datasets(), or folder.catalog() for a DataFrame of all",
        )
        : ""
    }`,
  );
}

function datasetsText(view: DatasetsView): string {
  const where = view.path ?? view.description;
  const lines = [
    `Datasets${where === undefined ? "" : ` in ${oneLine(where)}`} — ${countText(view)}`,
  ];
  if (view.rows.length > 0) {
    lines.push(textTable(
      [
        { heading: "dataset", max: 40 },
        { heading: "title", max: 50 },
        { heading: "year", right: true },
        { heading: "identifier", max: 30 },
        { heading: "license", max: 20 },
        { heading: "flags", max: 40 },
      ],
      view.rows.map((row) => [
        row.name,
        row.title ?? "—",
        row.year === undefined ? "—" : String(row.year),
        row.doi ?? row.ark ?? "—",
        row.license ?? "—",
        flagsOf(row).map((flag) => flag.label).join(", "),
      ]),
    ));
  }
  if (view.more) {
    lines.push("  … more datasets — iterate folder.datasets() or use folder.catalog()");
  }
  return lines.join("\n");
}
