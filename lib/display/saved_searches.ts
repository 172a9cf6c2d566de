/**
 * The saved-searches view. Terrain stores saved searches as opaque JSON (whatever the user's
 * client last wrote), so the view reads it defensively: an array of query templates becomes a
 * table of the fields people recognise, anything else is shown as JSON, and `{}` means none.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatCount, plural } from "./format.ts";
import { type Html, markup } from "./html.ts";
import { bounded, card, collapsible, LIMITS, moreNote, preformatted } from "./parts.ts";
import { textTable } from "./text.ts";
import { cellText, jsonText } from "./value.ts";

/** Fields of the Discovery Environment's query templates, in the order shown. */
const KNOWN_FIELDS = [
  "label",
  "fileQuery",
  "pathPrefix",
  "ownedBy",
  "sharedWith",
  "metadataAttributeQuery",
  "metadataValueQuery",
  "tagQuery",
  "createdWithin",
  "modifiedWithin",
  "fileSizeRange",
  "includeTrashItems",
] as const;

/** Most searches shown. */
const MAX_SEARCHES = 50;

/**
 * Renders saved searches (any JSON) as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderSavedSearches } from "./saved_searches.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderSavedSearches([{ label: "csv", fileQuery: "*.csv", files: [], folders: [] }]);
 * assert.equal(out["text/plain"].split("\n")[0], "Saved searches — 1 search");
 * ```
 */
export function renderSavedSearches(value: unknown): MediaBundle {
  const searches = asSearchList(value);
  if (searches !== undefined) return bundle(tableHtml(searches, value), tableText(searches));
  const empty = isEmpty(value);
  const title = empty ? "None saved" : "Stored value (not a list of searches)";
  const body = empty
    ? markup`<div class="t-note">No saved searches: the service answered <span class="t-mono">${
      jsonText(
        value,
        0,
        40,
      )
    }</span>.</div>`
    : preformatted(jsonText(value), LIMITS.json, true);
  const text = empty
    ? "Saved searches — none"
    : `Saved searches — stored value:\n${jsonText(value).slice(0, 4000)}`;
  return bundle(card({ kind: "Saved searches", title }, body), text);
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/** The value as a list of search objects, when it is a non-empty array of objects. */
function asSearchList(value: unknown): Record<string, unknown>[] | undefined {
  const records = Array.isArray(value) && value.length > 0 &&
    value.every((item) => typeof item === "object" && item !== null && !Array.isArray(item));
  return records ? value as Record<string, unknown>[] : undefined;
}

/** The known fields present in any search, in the known order. */
function columnsOf(searches: readonly Record<string, unknown>[]): string[] {
  return KNOWN_FIELDS.filter((field) => searches.some((search) => search[field] !== undefined));
}

function tableHtml(searches: readonly Record<string, unknown>[], value: unknown): Html {
  const columns = columnsOf(searches);
  const rows = searches.slice(0, MAX_SEARCHES).map((search) =>
    markup`<tr>${
      columns.map((column) =>
        search[column] === undefined
          ? markup`<td class="t-muted">—</td>`
          : markup`<td class="t-wrap"><bdi>${bounded(cellText(search[column]), 200)}</bdi></td>`
      )
    }</tr>`
  );
  const table = columns.length === 0
    ? markup`<div class="t-note">These searches have none of the usual fields; see the JSON.</div>`
    : markup`<div class="t-scroll"><table class="t-table"><thead><tr>${
      columns.map((column) => markup`<th>${column}</th>`)
    }</tr></thead><tbody>${rows}</tbody></table></div>`;
  const more = searches.length > MAX_SEARCHES
    ? moreNote(plural(searches.length - MAX_SEARCHES, "more search", "more searches"))
    : "";
  return card(
    { kind: "Saved searches", title: plural(searches.length, "search", "searches") },
    markup`${table}${more}${
      collapsible("Stored JSON", preformatted(jsonText(value), LIMITS.json, true))
    }`,
  );
}

function tableText(searches: readonly Record<string, unknown>[]): string {
  const columns = columnsOf(searches);
  const lines = [`Saved searches — ${plural(searches.length, "search", "searches")}`];
  if (columns.length > 0) {
    lines.push(textTable(
      columns.map((column) => ({ heading: column, max: 30 })),
      searches.slice(0, MAX_SEARCHES).map((search) =>
        columns.map((column) => search[column] === undefined ? "—" : cellText(search[column]))
      ),
    ));
  }
  if (searches.length > MAX_SEARCHES) {
    lines.push(`  … ${formatCount(searches.length - MAX_SEARCHES)} more`);
  }
  return lines.join("\n");
}
