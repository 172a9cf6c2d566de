/**
 * The view of a folder's entries (a {@linkcode Folder}, a `list()` or `walk()`
 * {@linkcode Listing}, the user's roots): a table of the first entries — name, type, size,
 * modified — that always says how many there are in all, or that there are more, so nothing is
 * ever cut silently.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatBytes, formatCount, formatDateTime, oneLine, plural } from "./format.ts";
import { type Html, markup } from "./html.ts";
import { bounded, card, facts, icon, LIMITS, moreNote } from "./parts.ts";
import { textTable } from "./text.ts";

/**
 * One row of the table: what a listing entry says.
 *
 * @example
 * ```ts
 * import type { EntryRow } from "./listing.ts";
 *
 * const row: EntryRow = {
 *   name: "penguins.csv", type: "file", size: 13_478, infoType: "csv",
 *   modified: new Date(Date.UTC(2020, 6, 1)),
 * };
 * ```
 */
export interface EntryRow {
  /** What to show in the name column: the name, or the path relative to a walk's root. */
  name: string;
  /** `file` or `folder`. */
  type: "file" | "folder";
  /** Bytes (files). */
  size: number;
  /** Last modification. */
  modified: Date;
  /** Terrain's info type (`csv`, `unknown`), `null` for folders. */
  infoType: string | null;
}

/**
 * Everything the listing view shows.
 *
 * @example
 * ```ts
 * import type { ListingView } from "./listing.ts";
 *
 * const view: ListingView = {
 *   kind: "Folder", title: "many_files", path: "/iplant/home/shared/tern_samples/many_files",
 *   entries: [], total: 20_011, more: true, hint: "iterate folder.list() for every entry",
 * };
 * ```
 */
export interface ListingView {
  /** What is listed: `Folder`, `Listing`, `Walk`, `Roots`. */
  kind: string;
  /** The main line (the folder's name). */
  title: string;
  /** The folder's path. */
  path?: string;
  /** How the listing was asked for (`type "file", glob "*.csv"`), when it matters. */
  description?: string;
  /** Facts about the folder itself (modified, permission), shown under the title. */
  facts?: string[];
  /** The entries shown, in listing order. */
  entries: readonly EntryRow[];
  /** Entries in all, when known (a walk has no server-side total). */
  total?: number;
  /** Whether entries exist beyond those shown. */
  more: boolean;
  /** How to get every entry (`iterate folder.list()`), shown when some are not. */
  hint?: string;
}

/**
 * Renders a listing as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderListing } from "./listing.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderListing({
 *   kind: "Folder", title: "formats", path: "/iplant/home/shared/tern_samples/formats",
 *   entries: [{ name: "a.csv", type: "file", size: 1200, infoType: "csv", modified: new Date(0) }],
 *   total: 1, more: false,
 * });
 * assert.equal(
 *   out["text/plain"].split("\n")[0],
 *   "Folder /iplant/home/shared/tern_samples/formats — 1 entry",
 * );
 * ```
 */
export function renderListing(view: ListingView): MediaBundle {
  return bundle(listingHtml(view), listingText(view));
}

/**
 * The HTML of a listing, for views that embed one (a dataset card's files).
 *
 * @example
 * ```ts
 * import { listingTable } from "./listing.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(listingTable([]).toString().includes("<table"));
 * ```
 */
export function listingTable(entries: readonly EntryRow[]): Html {
  const rows = entries.map((entry) => {
    const type = typeLabel(entry);
    const name = entry.type === "folder" ? `${entry.name}/` : entry.name;
    return markup`<tr><td class="t-name">${icon(entry.type)}<bdi>${
      bounded(name, LIMITS.name)
    }</bdi></td><td class="t-muted">${bounded(type, 40)}</td><td class="t-num">${
      entry.type === "folder" ? "—" : formatBytes(entry.size)
    }</td><td class="t-num t-muted">${formatDateTime(entry.modified)}</td></tr>`;
  });
  return markup`<table class="t-table"><thead><tr><th>name</th><th>type</th><th class="t-num">size</th><th class="t-num">modified (UTC)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * What the type column says: `folder`, Terrain's info type when it knows one, else the file's
 * extension (Terrain says `unknown` for most files it does not parse), else `file`.
 *
 * @example
 * ```ts
 * import { typeLabel } from "./listing.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(typeLabel({ name: "README.txt", type: "file", infoType: "unknown" }), "txt");
 * assert.equal(typeLabel({ name: "a.csv", type: "file", infoType: "csv" }), "csv");
 * ```
 */
export function typeLabel(entry: Pick<EntryRow, "name" | "type" | "infoType">): string {
  if (entry.type === "folder") return "folder";
  if (entry.infoType !== null && entry.infoType !== "" && entry.infoType !== "unknown") {
    return entry.infoType;
  }
  const name = entry.name.slice(entry.name.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  return /^[a-z0-9]{1,8}$/.test(extension) ? extension : "file";
}

function listingHtml(view: ListingView): Html {
  const body = markup`${facts([...(view.facts ?? []), view.description, countLine(view)])}${
    view.entries.length === 0
      ? markup`<div class="t-note">No entries.</div>`
      : listingTable(view.entries)
  }${moreLine(view)}`;
  return card({ kind: view.kind, title: view.title, sub: view.path }, body);
}

function countLine(view: ListingView): Html {
  const shown = view.entries.length;
  if (view.total !== undefined) {
    if (!view.more && shown === view.total) {
      return markup`<b>${plural(view.total, "entry", "entries")}</b>`;
    }
    return markup`showing <b>${formatCount(shown)}</b> of <b>${
      formatCount(view.total)
    }</b> entries`;
  }
  return view.more
    ? markup`showing the first <b>${formatCount(shown)}</b> entries`
    : markup`<b>${plural(shown, "entry", "entries")}</b>`;
}

function moreLine(view: ListingView): Html | string {
  if (!view.more) return "";
  const what = view.total !== undefined
    ? plural(Math.max(0, view.total - view.entries.length), "more entry", "more entries")
    : "more entries";
  return moreNote(what, view.hint);
}

function listingText(view: ListingView): string {
  const head = [`${view.kind} ${oneLine(view.path ?? view.title)}`];
  if (view.description !== undefined) head.push(view.description);
  const shown = view.entries.length;
  // The card's count line without its bold: counts and words only, nothing escaped.
  head.push(countLine(view).toString().replace(/<\/?b>/g, ""));
  const lines = [head.join(" — ")];
  if (view.facts !== undefined && view.facts.length > 0) lines.push(`  ${view.facts.join(" · ")}`);
  if (shown > 0) {
    lines.push(textTable(
      [
        { heading: "name", max: 60 },
        { heading: "type", max: 12 },
        { heading: "size", right: true },
        { heading: "modified (UTC)" },
      ],
      view.entries.map((entry) => [
        entry.type === "folder" ? `${entry.name}/` : entry.name,
        typeLabel(entry),
        entry.type === "folder" ? "—" : formatBytes(entry.size),
        formatDateTime(entry.modified),
      ]),
    ));
  }
  if (view.more) {
    const rest = view.total !== undefined
      ? `${formatCount(Math.max(0, view.total - shown))} more`
      : "more entries";
    lines.push(`  … ${rest}${view.hint === undefined ? "" : ` — ${view.hint}`}`);
  }
  return lines.join("\n");
}
