/**
 * The file view: size, type, dates, where it can be fetched publicly, and for tables a preview
 * of the first rows — or the reason there is none.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatBytes, formatCount, formatDateTime, oneLine } from "./format.ts";
import { type Html, link, markup } from "./html.ts";
import { bounded, card, facts, LIMITS, mono, moreNote, pairs, section } from "./parts.ts";
import { frameTable, frameTextTable, type FrameView } from "./frame.ts";
import { textPairs } from "./text.ts";

/**
 * The first rows of a table, formatted as the DataFrame view shows them.
 *
 * @example
 * ```ts
 * import type { TablePreview } from "./file.ts";
 *
 * const preview: TablePreview = {
 *   frame: {
 *     height: 2, width: 2,
 *     columns: [{ name: "species", type: "str", kind: "text" }, { name: "mass", type: "f64", kind: "number" }],
 *     head: [[{ text: "Adelie" }, { text: "3750" }], [{ text: "Gentoo" }, { text: "null", null: true }]],
 *     tail: [],
 *   },
 *   more: true,
 * };
 * ```
 */
export interface TablePreview {
  /** The rows shown, as view data (their `height` is the number of rows shown). */
  frame: FrameView;
  /** Whether the table has more rows than shown. */
  more: boolean;
  /** The format it was read as (`csv`, `parquet`). */
  format?: string;
}

/**
 * Everything the file view shows; parts the handle could not learn are left out.
 *
 * @example
 * ```ts
 * import type { FileView } from "./file.ts";
 *
 * const view: FileView = {
 *   path: "/iplant/home/shared/tern_samples/formats/penguins.csv", name: "penguins.csv",
 *   size: 13_478, infoType: "csv", modified: new Date(Date.UTC(2020, 6, 1)),
 * };
 * ```
 */
export interface FileView {
  /** Data-store path. */
  path: string;
  /** File name. */
  name: string;
  /** Bytes. */
  size?: number;
  /** Terrain's info type. */
  infoType?: string | null;
  /** Media type the server detected. */
  contentType?: string;
  /** Created. */
  created?: Date;
  /** Last modified. */
  modified?: Date;
  /** The caller's permission. */
  permission?: string;
  /** The item id. */
  id?: string;
  /** The anonymous (public) URL, when anyone may read it. */
  publicUrl?: string;
  /** The first rows, for tables. */
  preview?: TablePreview;
  /** Why there is no preview (not a table, too large, could not be parsed). */
  previewNote?: string;
}

/**
 * Renders a file view as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderFile } from "./file.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderFile({ path: "/iplant/home/shared/a.csv", name: "a.csv", size: 1234, infoType: "csv" });
 * assert.equal(out["text/plain"].split("\n")[0], "File /iplant/home/shared/a.csv — 1.23 kB, csv");
 * ```
 */
export function renderFile(view: FileView): MediaBundle {
  return bundle(fileHtml(view), fileText(view));
}

function typeOf(view: FileView): string | undefined {
  if (view.infoType !== undefined && view.infoType !== null && view.infoType !== "unknown") {
    return view.infoType;
  }
  return view.contentType;
}

function fileHtml(view: FileView): Html {
  const summary = facts([
    view.size === undefined ? undefined : markup`<b>${formatBytes(view.size)}</b>`,
    typeOf(view),
    view.contentType !== undefined && view.contentType !== typeOf(view)
      ? view.contentType
      : undefined,
    view.modified === undefined ? undefined : `modified ${formatDateTime(view.modified)} UTC`,
    view.permission,
  ]);
  const details = pairs([
    ["created", view.created === undefined ? undefined : `${formatDateTime(view.created)} UTC`],
    ["id", mono(view.id, 80)],
    [
      "public URL",
      view.publicUrl === undefined
        ? undefined
        : link(view.publicUrl, bounded(view.publicUrl, LIMITS.name), { className: "t-id" }),
    ],
  ]);
  const preview = view.preview === undefined
    ? view.previewNote === undefined
      ? ""
      : markup`<div class="t-note">${bounded(view.previewNote)}</div>`
    : section(
      `First ${formatCount(view.preview.frame.height)} rows${
        view.preview.format === undefined ? "" : ` (${view.preview.format})`
      }`,
      markup`${frameTable(view.preview.frame)}${
        view.preview.more ? moreNote("more rows", "file.dataframe() reads them all") : ""
      }`,
    );
  return card(
    { kind: "File", title: view.name, sub: view.path },
    markup`${summary}${details}${preview}`,
  );
}

function fileText(view: FileView): string {
  const head = [view.size === undefined ? undefined : formatBytes(view.size), typeOf(view)]
    .filter((part) => part !== undefined).join(", ");
  const lines = [`File ${oneLine(view.path)}${head === "" ? "" : ` — ${head}`}`];
  const fields = textPairs([
    ["content type", view.contentType],
    ["modified", view.modified === undefined ? undefined : `${formatDateTime(view.modified)} UTC`],
    ["created", view.created === undefined ? undefined : `${formatDateTime(view.created)} UTC`],
    ["permission", view.permission],
    ["public URL", view.publicUrl],
  ]);
  if (fields !== "") lines.push(fields);
  if (view.preview !== undefined) {
    lines.push(`  first ${formatCount(view.preview.frame.height)} rows:`);
    lines.push(...frameTextTable(view.preview.frame, 98).map((line) => `  ${line}`));
    if (view.preview.more) lines.push("    … more rows");
  } else if (view.previewNote !== undefined) {
    lines.push(`  (${oneLine(view.previewNote)})`);
  }
  return lines.join("\n");
}
