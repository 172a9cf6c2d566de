/**
 * The dataset card: what a researcher asks first about a dataset — what it is, who made it,
 * how to cite it, under which licence, what is in it — with honest states for what is missing
 * (no metadata, an incomplete citation, a title another dataset shares, a deprecated version).
 *
 * @module
 */

import { CITATION_STYLES } from "../registry/citation_styles.ts";
import { bundle, type MediaBundle } from "./bundle.ts";
import {
  clip,
  formatBytes,
  formatCount,
  formatDate,
  oneLine,
  plainText,
  plural,
} from "./format.ts";
import { type Html, type HtmlValue, joinHtml, link, markup } from "./html.ts";
import { type EntryRow, listingTable, typeLabel } from "./listing.ts";
import {
  bounded,
  card,
  chips,
  collapsible,
  facts,
  LIMITS,
  moreNote,
  personName,
  preformatted,
  section,
} from "./parts.ts";
import { textPairs } from "./text.ts";

/** The styles `dataset.citation()` offers besides DataCite's, as they are written in code. */
const OTHER_STYLES = CITATION_STYLES.filter((style) => style !== "datacite")
  .map((style) => JSON.stringify(style)).join(" | ");

/**
 * The normalised fields the card shows: a structural subset of `DatasetMetadata`, so the card
 * can be rendered from any record of that shape.
 *
 * @example
 * ```ts
 * import type { DatasetFields } from "./dataset.ts";
 *
 * const fields: DatasetFields = { creators: [], subjects: [], deprecated: false, missing: ["title"] };
 * ```
 */
export interface DatasetFields {
  /** Title. */
  readonly title?: string;
  /** Creators, in citation order. */
  readonly creators: readonly PersonView[];
  /** Publication year. */
  readonly publicationYear?: number;
  /** Publisher. */
  readonly publisher?: string;
  /** Version. */
  readonly version?: string;
  /** DOI, canonical. */
  readonly doi?: string;
  /** ARK, canonical. */
  readonly ark?: string;
  /** The DOI's resolver link, when the DOI parses (else the DOI is shown unlinked). */
  readonly doiUrl?: string;
  /** The ARK's resolver link, when the ARK parses. */
  readonly arkUrl?: string;
  /** Licence. */
  readonly license?: LicenseView;
  /** Subjects. */
  readonly subjects: readonly string[];
  /** Description. */
  readonly description?: string;
  /** DataCite `resourceTypeGeneral`. */
  readonly resourceTypeGeneral?: string;
  /** Free-text resource type. */
  readonly resourceType?: string;
  /** Marked deprecated. */
  readonly deprecated: boolean;
  /** What a complete citation still lacks. */
  readonly missing: readonly string[];
  /** Last modification. */
  readonly dateModified?: Date;
}

/**
 * Everything the dataset card shows.
 *
 * @example
 * ```ts
 * import type { DatasetCardView } from "./dataset.ts";
 *
 * const view: DatasetCardView = {
 *   path: "/iplant/home/shared/commons_repo/curated/X", name: "X",
 *   metadata: { creators: [], subjects: [], deprecated: false, missing: [] },
 *   hasMetadata: false, citation: "[X]. /iplant/home/shared/commons_repo/curated/X",
 *   duplicates: [],
 * };
 * ```
 */
export interface DatasetCardView {
  /** The dataset folder's path. */
  path: string;
  /** The folder's name. */
  name: string;
  /** The normalised metadata. */
  metadata: DatasetFields;
  /** Whether the folder has any metadata at all (AVUs of either kind). */
  hasMetadata: boolean;
  /** The citation, DataCite style. */
  citation: string;
  /** The folder's first entries and their total, for the file summary. */
  contents?: { entries: readonly EntryRow[]; total: number };
  /** Other datasets (siblings) that carry the same title. */
  duplicates: readonly { path: string; name: string }[];
}

/** Most creators named on the card before "and N more". */
const MAX_CREATORS = 12;

/**
 * Renders the dataset card as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderDataset } from "./dataset.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderDataset({
 *   path: "/iplant/home/shared/commons_repo/curated/Barley", name: "Barley",
 *   metadata: {
 *     title: "Barley yields", creators: [{ name: "Immer, F. R." }], publicationYear: 1934,
 *     doi: "10.7946/P2C35G", subjects: ["agronomy"], deprecated: false, missing: ["publisher"],
 *   },
 *   hasMetadata: true, citation: "Immer, F. R. (1934). Barley yields. https://doi.org/10.7946/P2C35G",
 *   duplicates: [],
 * });
 * assert.equal(out["text/plain"].split("\n")[0], "Dataset: Barley yields");
 * ```
 */
export function renderDataset(view: DatasetCardView): MediaBundle {
  return bundle(datasetHtml(view), datasetText(view));
}

function datasetHtml(view: DatasetCardView): Html {
  const m = view.metadata;
  const title: HtmlValue = m.title ?? markup`<span class="t-muted">${view.name}</span>`;
  const body: HtmlValue[] = [];
  if (m.creators.length > 0) {
    body.push(markup`<div class="t-section">${creatorsHtml(m.creators)}</div>`);
  }
  body.push(facts([
    m.publicationYear === undefined ? undefined : markup`<b>${String(m.publicationYear)}</b>`,
    m.publisher,
    m.version === undefined ? undefined : `Version ${m.version}`,
    m.resourceTypeGeneral ?? m.resourceType,
    m.dateModified === undefined ? undefined : `modified ${formatDate(m.dateModified)}`,
  ]));
  const identifiers = identifiersHtml(m);
  if (identifiers !== undefined) body.push(identifiers);
  body.push(flagsHtml(view));
  if (m.subjects.length > 0) body.push(section("Subjects", chips(m.subjects)));
  if (m.description !== undefined) {
    body.push(collapsible(
      markup`Description <span class="t-muted">(${
        formatCount(Array.from(m.description).length)
      } characters)</span>`,
      markup`<div class="t-desc">${bounded(m.description, LIMITS.long)}</div>`,
    ));
  }
  if (view.contents !== undefined) body.push(contentsHtml(view.contents));
  body.push(section("Cite", preformatted(view.citation)));
  body.push(
    markup`<div class="t-more">DataCite style; <span class="t-mono">dataset.citation(${OTHER_STYLES})</span> for others</div>`,
  );
  return card({ kind: "Dataset", title, sub: view.path, aside: licenseBadge(m.license) }, body);
}

function creatorsHtml(creators: readonly PersonView[]): Html {
  const shown = creators.slice(0, MAX_CREATORS).map((creator) => {
    const affiliation = creator.affiliation === undefined
      ? ""
      : markup` <span class="t-muted">(${bounded(creator.affiliation, 120)})</span>`;
    return markup`<span>${personName(creator.name, creator.orcid)}${affiliation}</span>`;
  });
  const rest = creators.length > MAX_CREATORS
    ? markup`<span class="t-muted"> and ${formatCount(creators.length - MAX_CREATORS)} more</span>`
    : "";
  return markup`${joinHtml(shown, "; ")}${rest}`;
}

function identifiersHtml(m: DatasetFields): Html | undefined {
  const ids = [["DOI", m.doi, m.doiUrl], ["ARK", m.ark, m.arkUrl]] as const;
  const parts = ids.filter(([, id]) => id !== undefined)
    .map(([label, id, url]) =>
      markup`<span>${label} ${link(url, id, { className: "t-id" })}</span>`
    );
  return parts.length === 0 ? undefined : markup`<div class="t-facts">${parts}</div>`;
}

/**
 * A person or organisation as the views show them: the name, and an ORCID iD and affiliation
 * when known (a structural subset of the metadata's `Creator`).
 *
 * @example
 * ```ts
 * import type { PersonView } from "./dataset.ts";
 *
 * const person: PersonView = { name: "Immer, F. R.", orcid: "0000-0002-1825-0097" };
 * ```
 */
export interface PersonView {
  /** The name as written. */
  readonly name: string;
  /** Affiliation(s), `; `-separated when several. */
  readonly affiliation?: string;
  /** ORCID iD, `0000-0002-1825-0097`. */
  readonly orcid?: string;
}

/**
 * A licence as the views show it (a structural subset of the metadata's `License`).
 *
 * @example
 * ```ts
 * import type { LicenseView } from "./dataset.ts";
 *
 * const license: LicenseView = { id: "CC0-1.0", name: "CC0 1.0", confidence: "exact" };
 * ```
 */
export interface LicenseView {
  /** SPDX identifier or expression, when known. */
  readonly id?: string;
  /** The licence's full name, else the text as stored. */
  readonly name: string;
  /** Where the licence text is. */
  readonly url?: string;
  /** How the id was reached (`exact`, `guess`, …). */
  readonly confidence: string;
}

/**
 * The licence as a two-part badge linking its text: the SPDX id when known (with `?` when it
 * was a guess), else the start of the licence's words, in grey.
 *
 * @example
 * ```ts
 * import { licenseBadge } from "./dataset.ts";
 * import assert from "node:assert/strict";
 *
 * const badge = licenseBadge({
 *   id: "CC0-1.0", name: "Creative Commons Zero v1.0 Universal",
 *   url: "https://creativecommons.org/publicdomain/zero/1.0/", confidence: "exact",
 * });
 * assert.ok(badge.toString().includes("<span>CC0-1.0</span>"));
 * ```
 */
export function licenseBadge(license: LicenseView | undefined): Html {
  if (license === undefined) {
    return markup`<span class="t-badge t-unknown" title="The metadata states no license"><span>license</span><span>none stated</span></span>`;
  }
  const known = license.id !== undefined;
  const label = known
    ? `${license.id}${license.confidence === "guess" ? "?" : ""}`
    : clip(oneLine(license.name), 32).text;
  const title = clip(
    oneLine(
      known
        ? `${license.name} (identified: ${license.confidence})`
        : `${license.name} (no SPDX identifier)`,
    ),
    300,
  ).text;
  return link(license.url, markup`<span>license</span><span>${clip(label, 60).text}</span>`, {
    className: !known
      ? "t-badge t-unknown"
      : license.confidence === "guess"
      ? "t-badge t-guess"
      : "t-badge",
    title,
  });
}

function flagsHtml(view: DatasetCardView): Html {
  const m = view.metadata;
  const flags: Html[] = [];
  if (!view.hasMetadata) {
    flags.push(markup`<span class="t-flag t-flag-bad">No metadata</span>`);
  }
  if (m.deprecated) flags.push(markup`<span class="t-flag">Deprecated</span>`);
  for (const duplicate of view.duplicates.slice(0, 5)) {
    flags.push(
      markup`<span class="t-flag" title="${duplicate.path}">Same title as <bdi>${
        bounded(duplicate.name, 80)
      }</bdi></span>`,
    );
  }
  if (view.duplicates.length > 5) {
    flags.push(
      markup`<span class="t-flag">and ${
        formatCount(view.duplicates.length - 5)
      } more with this title</span>`,
    );
  }
  if (view.hasMetadata) {
    const lacks = m.missing.map(fieldName).join(", ");
    flags.push(
      m.missing.length === 0
        ? markup`<span class="t-flag t-flag-ok">Citation complete</span>`
        : markup`<span class="t-flag t-flag-bad">Citation lacks ${lacks}</span>`,
    );
  }
  const note = view.hasMetadata
    ? ""
    : markup`<div class="t-note">This folder carries no metadata (no AVUs), so there is no title, creator or identifier to show; the citation falls back to its path.</div>`;
  return markup`<div class="t-flags">${flags}</div>${note}`;
}

function contentsHtml(contents: { entries: readonly EntryRow[]; total: number }): Html {
  const files = contents.entries.filter((entry) => entry.type === "file");
  const folders = contents.entries.filter((entry) => entry.type === "folder");
  const bytes = files.reduce((sum, entry) => sum + entry.size, 0);
  const types = new Map<string, number>();
  for (const file of files) {
    const type = typeLabel(file);
    types.set(type, (types.get(type) ?? 0) + 1);
  }
  const partial = contents.entries.length < contents.total;
  const folderNames = folders.length > 0 && folders.length <= 6
    ? markup`: <span class="t-mono">${folders.map((folder) => `${folder.name}/`).join(" ")}</span>`
    : "";
  const first = firstPage(contents);
  const summary = markup`${plural(files.length, "file")} (${formatBytes(bytes)}) · ${
    plural(folders.length, "folder")
  }${folderNames}${first === "" ? "" : markup` <span class="t-muted">${first}</span>`}`;
  const typeChips = chips(
    [...types].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([type, count]) => `${type} × ${formatCount(count)}`),
    12,
    true,
  );
  const table = collapsible(
    markup`Entries`,
    markup`${listingTable(contents.entries)}${
      partial
        ? moreNote(
          `${formatCount(contents.total - contents.entries.length)} more entries`,
          "iterate dataset.list() for all",
        )
        : ""
    }`,
  );
  return section("Contents", markup`<div>${summary}</div>${typeChips}${table}`);
}

/**
 * The name a citation field goes by in a flag: `year` for `publicationYear`, `DOI` for `doi`.
 *
 * @example
 * ```ts
 * import { fieldName } from "./dataset.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(["publisher", "publicationYear", "doi"].map(fieldName).join(", "), "publisher, year, DOI");
 * ```
 */
export function fieldName(field: string): string {
  return field === "publicationYear" ? "year" : field === "doi" ? "DOI" : field;
}

function datasetText(view: DatasetCardView): string {
  const m = view.metadata;
  const lines = [`Dataset: ${oneLine(m.title ?? `[${view.name}]`)}`, `  ${oneLine(view.path)}`];
  const creators = m.creators.slice(0, MAX_CREATORS).map((creator) => oneLine(creator.name));
  if (m.creators.length > MAX_CREATORS) {
    creators.push(`and ${formatCount(m.creators.length - MAX_CREATORS)} more`);
  }
  lines.push(textPairs([
    ["creators", creators.length > 0 ? creators.join("; ") : undefined],
    ["year", m.publicationYear === undefined ? undefined : String(m.publicationYear)],
    ["publisher", m.publisher],
    ["version", m.version],
    ["DOI", m.doi === undefined ? undefined : m.doiUrl ?? m.doi],
    ["ARK", m.ark === undefined ? undefined : m.arkUrl ?? m.ark],
    [
      "license",
      m.license === undefined
        ? "none stated"
        : m.license.id === undefined
        ? `${clip(oneLine(m.license.name), 80).text} (no SPDX identifier)`
        : `${m.license.id} (${m.license.confidence})`,
    ],
    ["subjects", m.subjects.length > 0 ? m.subjects.join(", ") : undefined],
    [
      "contents",
      view.contents === undefined ? undefined : contentsText(view.contents),
    ],
  ]));
  const flags: string[] = [];
  if (!view.hasMetadata) flags.push("no metadata");
  if (m.deprecated) flags.push("deprecated");
  for (const duplicate of view.duplicates) flags.push(`same title as ${oneLine(duplicate.name)}`);
  if (view.hasMetadata && m.missing.length > 0) {
    flags.push(`citation lacks ${m.missing.map(fieldName).join(", ")}`);
  }
  if (flags.length > 0) lines.push(`  ! ${flags.join("; ")}`);
  lines.push(
    "  cite:",
    ...plainText(clip(view.citation, LIMITS.long).text).split("\n").map((line) => `    ${line}`),
  );
  return lines.join("\n");
}

function contentsText(contents: { entries: readonly EntryRow[]; total: number }): string {
  const files = contents.entries.filter((entry) => entry.type === "file");
  const folders = contents.entries.length - files.length;
  const bytes = files.reduce((sum, entry) => sum + entry.size, 0);
  const first = firstPage(contents);
  return `${plural(files.length, "file")} (${formatBytes(bytes)}), ${plural(folders, "folder")}${
    first === "" ? "" : ` ${first}`
  }`;
}

/** `in the first N of M entries` when the contents are a first page of the folder, else "". */
function firstPage(contents: { entries: readonly EntryRow[]; total: number }): string {
  const { entries, total } = contents;
  return entries.length < total
    ? `in the first ${formatCount(entries.length)} of ${formatCount(total)} entries`
    : "";
}
