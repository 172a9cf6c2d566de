/**
 * The Croissant card: what a dataset's Croissant document describes — its files with their
 * URLs, sizes and checksums, and the typed columns of each table — with the document itself as
 * a download link.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatBytes, oneLine, plural } from "./format.ts";
import { frameTable } from "./frame.ts";
import { type Html, markup } from "./html.ts";
import { bounded, card, chips, collapsible, facts, section } from "./parts.ts";

/**
 * Everything the Croissant card shows, as plain values.
 *
 * @example
 * ```ts
 * import type { CroissantView } from "./croissant.ts";
 *
 * const view: CroissantView = {
 *   name: "Penguins", path: "/iplant/home/shared/penguins", files: [], recordSets: [],
 *   missing: [], json: "{}",
 * };
 * ```
 */
export interface CroissantView {
  /** The dataset's name in the document. */
  name: string;
  /** The dataset folder's path. */
  path: string;
  /** The file objects. */
  files: readonly {
    name: string;
    url: string;
    size: number;
    encodingFormat: string;
    /** `md5 <hex>` or `sha256 <hex>`, when the store has a checksum. */
    checksum?: string;
  }[];
  /** The record sets: the table file each reads, and its fields with their data types. */
  recordSets: readonly { name: string; fields: readonly { name: string; dataType: string }[] }[];
  /** Properties Croissant requires of a dataset that the metadata lacks. */
  missing: readonly string[];
  /** The document, as the download link gives it. */
  json: string;
}

/** File objects listed; the rest are counted. */
const MAX_FILES = 50;

/**
 * Renders the Croissant card as a MIME bundle; the document downloads from a `data:` link.
 *
 * @example
 * ```ts
 * import { renderCroissant } from "./croissant.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderCroissant({
 *   name: "Penguins <2020>", path: "/iplant/home/shared/penguins",
 *   files: [{ name: "a.csv", url: "https://example.org/a.csv", size: 10, encodingFormat: "text/csv" }],
 *   recordSets: [{ name: "a.csv", fields: [{ name: "x", dataType: "sc:Integer" }] }],
 *   missing: ["license"], json: '{"name":"Penguins <2020>"}',
 * });
 * assert.ok(out["text/html"].includes("Penguins &lt;2020&gt;"));
 * assert.ok(out["text/html"].includes('href="data:application/ld+json;charset=utf-8,'));
 * assert.match(out["text/plain"], /^Croissant: Penguins <2020>/);
 * ```
 */
export function renderCroissant(view: CroissantView): MediaBundle {
  return bundle(croissantHtml(view), croissantText(view));
}

function dataUrl(json: string): string {
  // encodeURIComponent leaves `'` as it is; encoded, no quote of any kind is left in the link.
  return `data:application/ld+json;charset=utf-8,${
    encodeURIComponent(json).replaceAll("'", "%27")
  }`;
}

function croissantHtml(view: CroissantView): Html {
  const files = frameTable({
    height: view.files.length,
    width: 4,
    columns: [
      { name: "file", type: "", kind: "text" },
      { name: "format", type: "", kind: "text" },
      { name: "size", type: "", kind: "number" },
      { name: "checksum", type: "", kind: "text" },
    ],
    head: view.files.slice(0, MAX_FILES).map((file) => [
      { text: file.name, href: file.url },
      { text: file.encodingFormat },
      { text: formatBytes(file.size), exact: `${file.size} B` },
      file.checksum === undefined ? { text: "none", null: true } : { text: file.checksum },
    ]),
    tail: [],
  });
  const recordSets = view.recordSets.map((set) =>
    collapsible(
      markup`<span class="t-mono">${bounded(set.name, 120)}</span> <span class="t-muted">(${
        plural(set.fields.length, "field")
      })</span>`,
      chips(set.fields.map((field) => `${field.name}: ${field.dataType.replace(/^sc:/, "")}`)),
    )
  );
  const missing = view.missing.length === 0
    ? ""
    : markup`<div class="t-flags"><span class="t-flag t-flag-bad">Croissant requires ${
      view.missing.join(", ")
    }, which the metadata lacks</span></div>`;
  const download = markup`<div class="t-more"><a href="${
    dataUrl(view.json)
  }" download="croissant.json">Download croissant.json</a> (Croissant 1.0 JSON-LD)</div>`;
  return card({ kind: "Croissant", title: view.name, sub: view.path }, [
    facts([plural(view.files.length, "file object"), plural(view.recordSets.length, "record set")]),
    missing,
    section("Files", files),
    view.recordSets.length === 0 ? "" : section("Record sets", recordSets),
    download,
  ]);
}

function croissantText(view: CroissantView): string {
  const lines = [
    `Croissant: ${oneLine(view.name)} (${plural(view.files.length, "file object")}, ${
      plural(view.recordSets.length, "record set")
    })`,
    oneLine(view.path),
  ];
  if (view.missing.length > 0) lines.push(`Missing required: ${view.missing.join(", ")}`);
  for (const file of view.files.slice(0, MAX_FILES)) {
    lines.push(
      `  ${oneLine(file.name)}  ${oneLine(file.encodingFormat)}  ${formatBytes(file.size)}  ${
        file.checksum ?? "no checksum"
      }  ${oneLine(file.url)}`,
    );
  }
  if (view.files.length > MAX_FILES) lines.push(`  … ${view.files.length - MAX_FILES} more`);
  for (const set of view.recordSets) {
    lines.push(
      `  ${oneLine(set.name)}: ${
        set.fields.map((field) => `${oneLine(field.name)} ${field.dataType}`).join(", ")
      }`,
    );
  }
  return lines.join("\n");
}
