/**
 * The view of the search service's documentation: each query clause with its arguments and
 * their types, and the fields results can be sorted by (sorted here: Terrain sends them in
 * random order).
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatCount, oneLine, plural } from "./format.ts";
import { type Html, markup } from "./html.ts";
import { bounded, card, chips, moreNote, section } from "./parts.ts";

/**
 * What the view shows: the shape of `store.searchDocumentation()`.
 *
 * @example
 * ```ts
 * import type { SearchDocsView } from "./search_docs.ts";
 *
 * const view: SearchDocsView = {
 *   clauses: { label: { summary: "Searches by label", args: { label: { type: "string", summary: "The label" } } } },
 *   sortFields: ["label", "path"],
 * };
 * ```
 */
export interface SearchDocsView {
  /** Clauses by name. */
  clauses: Readonly<
    Record<
      string,
      { summary: string; args: Readonly<Record<string, { type: string; summary: string }>> }
    >
  >;
  /** Sortable fields. */
  sortFields: readonly string[];
}

/** Most clauses shown. */
const MAX_CLAUSES = 60;

/**
 * Renders search documentation as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderSearchDocs } from "./search_docs.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderSearchDocs({ clauses: {}, sortFields: ["path", "label"] });
 * assert.equal(
 *   out["text/plain"].split("\n")[0],
 *   "Search documentation — 0 clauses; sort by label, path",
 * );
 * ```
 */
export function renderSearchDocs(view: SearchDocsView): MediaBundle {
  return bundle(docsHtml(view), docsText(view));
}

function sortedClauses(view: SearchDocsView) {
  return Object.entries(view.clauses).sort(([a], [b]) => a.localeCompare(b));
}

function docsHtml(view: SearchDocsView): Html {
  const clauses = sortedClauses(view);
  const rows = clauses.slice(0, MAX_CLAUSES).map(([name, clause]) => {
    const args = Object.entries(clause.args ?? {}).map(([arg, spec]) =>
      markup`<div><span class="t-mono">${
        bounded(arg, 60)
      }</span> <span class="t-chip t-chip-plain">${
        bounded(spec.type, 30)
      }</span> <span class="t-muted">${bounded(spec.summary ?? "", 300)}</span></div>`
    );
    return markup`<tr><td class="t-mono t-nowrap"><b>${
      bounded(name, 60)
    }</b></td><td class="t-wrap">${bounded(clause.summary ?? "", 400)}${args}</td></tr>`;
  });
  const table =
    markup`<table class="t-table"><thead><tr><th>clause</th><th>summary and arguments</th></tr></thead><tbody>${rows}</tbody></table>`;
  const more = clauses.length > MAX_CLAUSES
    ? moreNote(plural(clauses.length - MAX_CLAUSES, "more clause"))
    : "";
  return card(
    { kind: "Search", title: `${plural(clauses.length, "query clause")}` },
    markup`${table}${more}${section("Sort by", chips([...view.sortFields].sort(), 40, true))}`,
  );
}

function docsText(view: SearchDocsView): string {
  const clauses = sortedClauses(view);
  const lines = [
    `Search documentation — ${plural(clauses.length, "clause")}; sort by ${
      [...view.sortFields].sort().map(oneLine).join(", ")
    }`,
  ];
  for (const [name, clause] of clauses.slice(0, MAX_CLAUSES)) {
    const args = Object.entries(clause.args ?? {}).map(([arg, spec]) =>
      `${oneLine(arg)}: ${oneLine(spec.type)}`
    );
    lines.push(`  ${oneLine(name)}(${args.join(", ")}) — ${oneLine(clause.summary ?? "")}`);
  }
  if (clauses.length > MAX_CLAUSES) {
    lines.push(`  … ${formatCount(clauses.length - MAX_CLAUSES)} more`);
  }
  return lines.join("\n");
}
