/**
 * The RO-Crate card (`store.provenance.crate()`): the crate's entities — the run, the files read,
 * the datasets, the people and licences — with a link that downloads its
 * `ro-crate-metadata.json`; and the crate's `ro-crate-preview.html`, the same card as a page that
 * also carries the JSON-LD.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatCount, plural } from "./format.ts";
import { escapeHtml, type Html, link, markup } from "./html.ts";
import { bounded, card, facts, LIMITS, moreNote } from "./parts.ts";
import { STYLESHEET } from "./style.ts";
import { textTable } from "./text.ts";

/**
 * One entity as the card lists it.
 *
 * @example
 * ```ts
 * import type { CrateEntityView } from "./crate.ts";
 *
 * const entity: CrateEntityView = { id: "https://doi.org/10.7946/P2C35G", type: "Dataset", name: "Barley" };
 * ```
 */
export interface CrateEntityView {
  /** Its `@id`. */
  id: string;
  /** Its `@type`, joined with `, `. */
  type: string;
  /** Its name, when it has one. */
  name?: string;
  /** One fact about it (size and checksum, licence, version), when the card shows one. */
  detail?: string;
}

/**
 * What the crate card shows.
 *
 * @example
 * ```ts
 * import type { CrateView } from "./crate.ts";
 *
 * const view: CrateView = { name: "Data read by tern", entities: [], json: "{}" };
 * ```
 */
export interface CrateView {
  /** The crate's name. */
  name: string;
  /** Every entity but the metadata descriptor, in the crate's order. */
  entities: CrateEntityView[];
  /** The `ro-crate-metadata.json` text. */
  json: string;
  /** The folder it was written to, when it was. */
  dir?: string;
}

/** The most entities a card lists. */
const MAX_ROWS = 200;

/**
 * The crate card: a summary line (entities by type), the entities (type, name, `@id`, a fact),
 * and a link that downloads `ro-crate-metadata.json` (a `data:` URL: no request, no script).
 *
 * @example
 * ```ts
 * import { renderCrate } from "./crate.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderCrate({
 *   name: "Run <1>", json: "{}",
 *   entities: [{ id: "http://x/terrain/fileio/download?path=%2Fa.csv", type: "File", name: "a.csv" }],
 * });
 * assert.equal(out["text/plain"].split("\n")[0], "RO-Crate: Run <1> — 1 File");
 * assert.match(out["text/html"], /Run &lt;1&gt;/);
 * assert.match(out["text/html"], /href="data:application\/ld\+json;base64,e30="/);
 * ```
 */
export function renderCrate(view: CrateView): MediaBundle {
  return bundle(crateCard(view), crateText(view));
}

/**
 * The crate's `ro-crate-preview.html`: a whole page holding the card and, as RO-Crate 1.1 asks,
 * the JSON-LD in a `<script type="application/ld+json">` (every `<` escaped, so no value can
 * close it). Every value is escaped.
 *
 * @example
 * ```ts
 * import { cratePreviewPage } from "./crate.ts";
 * import assert from "node:assert/strict";
 *
 * const page = cratePreviewPage({ name: "</script><b>", entities: [], json: '{"a":"</script>"}' });
 * assert.ok(page.startsWith("<!DOCTYPE html>"));
 * assert.equal(page.match(/<\/script>/g)?.length, 1);
 * ```
 */
export function cratePreviewPage(view: CrateView): string {
  const json = view.json.replace(/</g, "\\u003c");
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(view.name)}</title>`,
    `<script type="application/ld+json">${json}</script>`,
    `<style>${STYLESHEET}</style>`,
    `</head><body><div class="tern">${crateCard(view).toString()}</div></body></html>`,
    "",
  ].join("\n");
}

function crateCard(view: CrateView): Html {
  const shown = view.entities.slice(0, MAX_ROWS);
  const download = `data:application/ld+json;base64,${base64(view.json)}`;
  const rows = shown.map((entity) =>
    markup`<tr><td>${entity.type}</td><td>${bounded(entity.name ?? "", LIMITS.name)}</td><td>${
      link(entity.id, bounded(entity.id, LIMITS.name))
    }</td><td>${entity.detail ?? ""}</td></tr>`
  );
  return card(
    { kind: "RO-Crate", title: view.name, ...(view.dir === undefined ? {} : { sub: view.dir }) },
    markup`${
      facts([
        summary(view),
        markup`<a href="${download}" download="ro-crate-metadata.json">download ro-crate-metadata.json</a>`,
      ])
    }<table class="t-table"><thead><tr><th>type</th><th>name</th><th>@id</th><th></th></tr></thead><tbody>${rows}</tbody></table>${
      view.entities.length > MAX_ROWS
        ? moreNote(`${formatCount(view.entities.length - MAX_ROWS)} more entities`)
        : ""
    }`,
  );
}

function crateText(view: CrateView): string {
  const table = textTable(
    [{ heading: "type" }, { heading: "name", max: 60 }, { heading: "@id", max: 100 }],
    view.entities.slice(0, MAX_ROWS).map((entity) => [entity.type, entity.name ?? "", entity.id]),
  );
  return [
    `RO-Crate: ${view.name} — ${summary(view)}`,
    ...(view.dir === undefined ? [] : [`written to ${view.dir}`]),
    table,
  ].join("\n");
}

function summary(view: CrateView): string {
  const counts = new Map<string, number>();
  for (const entity of view.entities) {
    const type = entity.type.split(", ").at(-1)!;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return [...counts].map(([type, count]) => plural(count, type)).join(", ");
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}
