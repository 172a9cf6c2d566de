/**
 * The metadata view: each normalised field beside the attribute it was read from, what a
 * citation still lacks and what the normaliser left aside, then the AVUs exactly as served
 * (nested ones indented), so a curator can see both the clean record and its evidence.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { clip, formatCount, formatDate, oneLine, plural } from "./format.ts";
import { type Html, type HtmlValue, joinHtml, link, markup } from "./html.ts";
import type { DatasetFields, PersonView } from "./dataset.ts";
import {
  bounded,
  card,
  chips,
  collapsible,
  LIMITS,
  moreNote,
  personName,
  section,
} from "./parts.ts";
import { textTable } from "./text.ts";

/**
 * What the metadata view shows: a normalised record's fields (a structural subset of
 * `DatasetMetadata`).
 *
 * @example
 * ```ts
 * import type { MetadataView } from "./metadata.ts";
 *
 * const view: MetadataView = {
 *   path: "/iplant/home/shared/x", creators: [], subjects: [], contributors: [],
 *   relatedIdentifiers: [], funding: [], deprecated: false, missing: [], sources: {}, notes: [],
 *   raw: { avus: [], irodsAvus: [] },
 * };
 * ```
 */
export interface MetadataView extends DatasetFields {
  /** The dataset folder's path (`""` for AVUs from elsewhere). */
  readonly path: string;
  /** The folder's id. */
  readonly id?: string;
  /** Contributors. */
  readonly contributors: readonly ContributorView[];
  /** Related identifiers. */
  readonly relatedIdentifiers: readonly RelatedView[];
  /** Funding references. */
  readonly funding: readonly FundingView[];
  /** The attribute each field came from. */
  readonly sources: Readonly<Partial<Record<string, string>>>;
  /** What the normaliser left aside, and why. */
  readonly notes: readonly string[];
  /** The AVUs as served. */
  readonly raw: { readonly avus: readonly AvuView[]; readonly irodsAvus: readonly AvuView[] };
}

/**
 * A contributor as the metadata view shows it.
 *
 * @example
 * ```ts
 * import type { ContributorView } from "./metadata.ts";
 *
 * const contributor: ContributorView = { name: "Data Curator", type: "DataCurator" };
 * ```
 */
export interface ContributorView extends PersonView {
  /** `contributorType`, as stored. */
  readonly type?: string;
}

/**
 * A related identifier as the metadata view shows it.
 *
 * @example
 * ```ts
 * import type { RelatedView } from "./metadata.ts";
 *
 * const related: RelatedView = { identifier: "10.1000/x", identifierType: "DOI", url: "https://doi.org/10.1000/x" };
 * ```
 */
export interface RelatedView {
  /** The identifier. */
  readonly identifier: string;
  /** `DOI`, `ARK`, `URL`, …, when known. */
  readonly identifierType?: string;
  /** DataCite `relationType`. */
  readonly relationType?: string;
  /** A resolvable link. */
  readonly url?: string;
}

/**
 * A funding reference as the metadata view shows it.
 *
 * @example
 * ```ts
 * import type { FundingView } from "./metadata.ts";
 *
 * const funding: FundingView = { funderName: "NSF", awardNumber: "DBI-0735191" };
 * ```
 */
export interface FundingView {
  /** The funder. */
  readonly funderName?: string;
  /** The funder's identifier, as stored. */
  readonly funderIdentifier?: string;
  /** Its scheme. */
  readonly funderIdentifierType?: string;
  /** The award or grant number. */
  readonly awardNumber?: string;
  /** A link to the award. */
  readonly awardUri?: string;
  /** The award's title. */
  readonly awardTitle?: string;
}

/**
 * An attribute-value-unit triple as served, nested ones under `avus`.
 *
 * @example
 * ```ts
 * import type { AvuView } from "./metadata.ts";
 *
 * const avu: AvuView = { attr: "datacite.title", value: "Barley", unit: "" };
 * ```
 */
export interface AvuView {
  /** Attribute name exactly as stored. */
  readonly attr: string;
  /** Value; may be empty. */
  readonly value: string;
  /** Unit, usually empty. */
  readonly unit?: string;
  /** Nested AVUs. */
  readonly avus?: readonly AvuView[];
}

/** Most AVU rows shown (nested ones count). */
const MAX_AVU_ROWS = 400;
/** Deepest nesting shown. */
const MAX_DEPTH = 8;

/**
 * Renders a metadata record as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderMetadata } from "./metadata.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderMetadata({
 *   path: "/iplant/home/shared/x", title: "Barley", creators: [], subjects: [], contributors: [],
 *   relatedIdentifiers: [], funding: [], deprecated: false, missing: ["creators"],
 *   sources: { title: "datacite.title" }, notes: [],
 *   raw: { avus: [{ attr: "datacite.title", value: "Barley" }], irodsAvus: [] },
 * });
 * assert.ok(out["text/plain"].includes("datacite.title"));
 * ```
 */
export function renderMetadata(view: MetadataView): MediaBundle {
  return bundle(metadataHtml(view), metadataText(view));
}

interface FieldRow {
  field: string;
  value: HtmlValue;
  text: string;
}

/**
 * What the raw-metadata view shows: any item's AVUs as served (`handle.metadata()`).
 *
 * @example
 * ```ts
 * import type { RawMetadataView } from "./metadata.ts";
 *
 * const view: RawMetadataView = { path: "/iplant/home/shared/a.csv", avus: [], irodsAvus: [] };
 * ```
 */
export interface RawMetadataView {
  /** The item's path. */
  readonly path: string;
  /** Template AVUs, nested. */
  readonly avus: readonly AvuView[];
  /** Raw iRODS AVUs. */
  readonly irodsAvus: readonly AvuView[];
}

/**
 * Renders an item's raw metadata (no normalisation: files and folders that are not datasets).
 *
 * @example
 * ```ts
 * import { renderRawMetadata } from "./metadata.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderRawMetadata({
 *   path: "/iplant/home/shared/a.csv",
 *   avus: [{ attr: "description", value: "A small table", unit: "" }],
 *   irodsAvus: [],
 * });
 * assert.equal(
 *   out["text/plain"].split("\n")[0],
 *   "Metadata of /iplant/home/shared/a.csv — 1 AVU, 0 iRODS AVUs",
 * );
 * ```
 */
export function renderRawMetadata(view: RawMetadataView): MediaBundle {
  const empty = view.avus.length === 0 && view.irodsAvus.length === 0;
  const body = card(
    { kind: "Metadata", title: lastSegment(view.path), sub: view.path },
    markup`${
      empty ? markup`<div class="t-note">No metadata: the item carries no AVUs.</div>` : ""
    }${avuSection("AVUs", view.avus, true)}${avuSection("iRODS AVUs", view.irodsAvus, true)}`,
  );
  const lines = [
    `Metadata of ${oneLine(view.path)} — ${plural(flatten(view.avus).length, "AVU")}, ${
      plural(view.irodsAvus.length, "iRODS AVU")
    }`,
    ...avuLines(view.avus),
    ...(view.irodsAvus.length > 0 ? ["  iRODS:", ...avuLines(view.irodsAvus)] : []),
  ];
  return bundle(body, lines.join("\n"));
}

function avuLines(avus: readonly AvuView[]): string[] {
  const flat = flatten(avus);
  const lines = flat.slice(0, 60).map(({ avu, depth }) =>
    `    ${"  ".repeat(depth)}${clip(oneLine(avu.attr), 40).text} = ${
      clip(oneLine(avu.value), 80).text
    }${avu.unit ? ` [${clip(oneLine(avu.unit), 20).text}]` : ""}`
  );
  if (flat.length > 60) lines.push(`    … ${formatCount(flat.length - 60)} more`);
  return lines;
}

function fieldRows(view: MetadataView): FieldRow[] {
  const rows: FieldRow[] = [];
  const add = (field: string, value: HtmlValue, text: string | undefined) => {
    if (text !== undefined && text !== "") rows.push({ field, value, text });
  };
  if (view.title !== undefined) add("title", bounded(view.title), view.title);
  if (view.creators.length > 0) {
    add(
      "creators",
      joinHtml(view.creators.slice(0, 50).map((p) => personName(p.name, p.orcid)), "; "),
      view.creators.map((creator) => creator.name).join("; "),
    );
  }
  const year = view.publicationYear?.toString();
  add("publicationYear", year, year);
  if (view.publisher !== undefined) add("publisher", bounded(view.publisher), view.publisher);
  if (view.description !== undefined) {
    add(
      "description",
      view.description.length > 240
        ? collapsible(
          clip(oneLine(view.description), 160).text,
          markup`<div class="t-desc">${bounded(view.description, LIMITS.long)}</div>`,
        )
        : markup`<span class="t-desc">${view.description}</span>`,
      view.description,
    );
  }
  // add() skips a field without text; a link to nothing is built and dropped.
  add("doi", link(view.doiUrl, view.doi, { className: "t-id" }), view.doi);
  add("ark", link(view.arkUrl, view.ark, { className: "t-id" }), view.ark);
  if (view.subjects.length > 0) add("subjects", chips(view.subjects), view.subjects.join(", "));
  if (view.license !== undefined) {
    const license = view.license;
    const name = license.id === undefined
      ? bounded(license.name)
      : markup`<b>${license.id}</b> <span class="t-muted">${bounded(license.name, 200)}</span>`;
    add(
      "license",
      markup`${
        link(license.url, name)
      } <span class="t-chip t-chip-plain">${license.confidence}</span>`,
      `${license.id ?? license.name} (${license.confidence})`,
    );
  }
  if (view.resourceType !== undefined) {
    add("resourceType", bounded(view.resourceType), view.resourceType);
  }
  if (view.resourceTypeGeneral !== undefined) {
    add("resourceTypeGeneral", view.resourceTypeGeneral, view.resourceTypeGeneral);
  }
  if (view.version !== undefined) add("version", bounded(view.version), view.version);
  if (view.contributors.length > 0) {
    add(
      "contributors",
      joinHtml(
        view.contributors.slice(0, 50).map((person) =>
          markup`${personName(person.name, person.orcid)}${
            person.type === undefined ? "" : markup` <span class="t-muted">(${person.type})</span>`
          }`
        ),
        "; ",
      ),
      view.contributors.map((person) => person.name).join("; "),
    );
  }
  if (view.relatedIdentifiers.length > 0) {
    add(
      "relatedIdentifiers",
      joinHtml(
        view.relatedIdentifiers.slice(0, 50).map((related) =>
          markup`<div>${
            related.relationType === undefined
              ? ""
              : markup`<span class="t-muted">${related.relationType}</span> `
          }${link(related.url, bounded(related.identifier, 200), { className: "t-id" })}</div>`
        ),
      ),
      view.relatedIdentifiers.map((related) => related.identifier).join(", "),
    );
  }
  if (view.funding.length > 0) {
    add(
      "funding",
      joinHtml(
        view.funding.slice(0, 50).map((funding) => markup`<div>${fundingText(funding)}</div>`),
      ),
      view.funding.map(fundingText).join("; "),
    );
  }
  if (view.dateModified !== undefined) {
    add("dateModified", formatDate(view.dateModified), formatDate(view.dateModified));
  }
  add("deprecated", view.deprecated ? "yes" : "no", view.deprecated ? "yes" : "no");
  return rows;
}

function fundingText(funding: FundingView): string {
  return [funding.funderName, funding.awardNumber, funding.awardTitle]
    .filter((part) => part !== undefined && part !== "").join(", ");
}

function metadataHtml(view: MetadataView): Html {
  const rows = fieldRows(view);
  const table =
    markup`<table class="t-table"><thead><tr><th>field</th><th>value</th><th>from attribute</th></tr></thead><tbody>${
      rows.map((row) =>
        markup`<tr><td class="t-nowrap">${row.field}</td><td class="t-wrap">${row.value}</td><td class="t-mono t-muted">${
          bounded(view.sources[row.field] ?? "—", 120)
        }</td></tr>`
      )
    }</tbody></table>`;
  const flags = view.missing.length > 0
    ? markup`<div class="t-flags"><span class="t-flag t-flag-bad">Citation lacks ${
      view.missing.join(", ")
    }</span></div>`
    : markup`<div class="t-flags"><span class="t-flag t-flag-ok">Citation complete</span></div>`;
  const notes = view.notes.length > 0
    ? section(
      "Notes",
      markup`${
        view.notes.slice(0, 50).map((note) => markup`<div class="t-muted">${bounded(note)}</div>`)
      }${view.notes.length > 50 ? moreNote(plural(view.notes.length - 50, "more note")) : ""}`,
    )
    : "";
  const empty = view.raw.avus.length === 0 && view.raw.irodsAvus.length === 0
    ? markup`<div class="t-note">No metadata: the folder carries no AVUs.</div>`
    : "";
  const title = view.title ?? (view.path === "" ? "(no title)" : lastSegment(view.path));
  return card(
    { kind: "Metadata", title, sub: view.path === "" ? undefined : view.path },
    markup`${empty}${flags}${rows.length > 0 ? table : ""}${notes}${
      avuSection("AVUs as served", view.raw.avus, true)
    }${avuSection("iRODS AVUs", view.raw.irodsAvus, false)}`,
  );
}

function avuSection(label: string, avus: readonly AvuView[], open: boolean): Html | string {
  if (avus.length === 0) return "";
  const flat = flatten(avus);
  const rows = flat.slice(0, MAX_AVU_ROWS).map(({ avu, depth }) =>
    markup`<tr><td class="t-mono t-nowrap t-d${String(depth)}">${
      depth > 0 ? markup`<span class="t-muted">↳ </span>` : ""
    }<bdi>${bounded(avu.attr, 120)}</bdi></td><td class="t-wrap"><bdi>${
      bounded(avu.value)
    }</bdi></td><td class="t-muted">${bounded(avu.unit ?? "", 40)}</td></tr>`
  );
  const more = flat.length > MAX_AVU_ROWS
    ? moreNote(`${formatCount(flat.length - MAX_AVU_ROWS)} more AVUs`, "see metadata.raw")
    : "";
  const table =
    markup`<table class="t-table"><thead><tr><th>attribute</th><th>value</th><th>unit</th></tr></thead><tbody>${rows}</tbody></table>${more}`;
  return collapsible(
    markup`${label} <span class="t-muted">(${formatCount(flat.length)})</span>`,
    table,
    open && flat.length <= 40,
  );
}

function flatten(avus: readonly AvuView[], depth = 0): { avu: AvuView; depth: number }[] {
  const rows: { avu: AvuView; depth: number }[] = [];
  for (const avu of avus) {
    rows.push({ avu, depth });
    if (avu.avus !== undefined && avu.avus.length > 0 && depth < MAX_DEPTH) {
      rows.push(...flatten(avu.avus, depth + 1));
    }
  }
  return rows;
}

function lastSegment(path: string): string {
  const trimmed = path.replace(/(?<!\/)\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) || path;
}

function metadataText(view: MetadataView): string {
  const rows = fieldRows(view);
  const lines = [
    `Metadata: ${
      oneLine(view.title ?? (view.path === "" ? "(no title)" : lastSegment(view.path)))
    }`,
  ];
  if (view.path !== "") lines.push(`  ${oneLine(view.path)}`);
  if (rows.length > 0) {
    lines.push(textTable(
      [{ heading: "field" }, { heading: "value", max: 70 }, { heading: "from attribute", max: 40 }],
      rows.map((row) => [row.field, row.text, view.sources[row.field] ?? "—"]),
    ));
  }
  lines.push(
    view.missing.length > 0
      ? `  ! citation lacks ${view.missing.join(", ")}`
      : "  citation complete",
  );
  for (const note of view.notes.slice(0, 20)) {
    lines.push(`  note: ${clip(oneLine(note), 160).text}`);
  }
  lines.push(`  AVUs as served (${formatCount(flatten(view.raw.avus).length)}):`);
  lines.push(...avuLines(view.raw.avus));
  if (view.raw.irodsAvus.length > 0) {
    lines.push(`  iRODS AVUs: ${formatCount(view.raw.irodsAvus.length)}`);
  }
  return lines.join("\n");
}
