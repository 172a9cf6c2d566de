/**
 * The file-manifest view: the media type the server detected, Terrain's info type, and the
 * URLs it lists (the public one, when anyone may read the file).
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { oneLine } from "./format.ts";
import { frameTable } from "./frame.ts";
import { type Html, markup } from "./html.ts";
import { bounded, card, facts } from "./parts.ts";
import { textPairs } from "./text.ts";

/**
 * What the manifest view shows.
 *
 * @example
 * ```ts
 * import type { ManifestView } from "./manifest.ts";
 *
 * const view: ManifestView = { path: "/iplant/home/shared/a.csv", contentType: "text/csv", infoType: "csv", urls: [] };
 * ```
 */
export interface ManifestView {
  /** The file's path, when known. */
  path?: string;
  /** Detected media type. */
  contentType: string;
  /** Terrain's info type. */
  infoType: string;
  /** The URLs, each with its label. */
  urls: readonly { label: string; url: string }[];
}

/**
 * Renders a manifest as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderManifest } from "./manifest.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderManifest({ contentType: "text/csv", infoType: "csv", urls: [] });
 * assert.equal(out["text/plain"].split("\n")[0], "Manifest — text/csv, csv, not public");
 * ```
 */
export function renderManifest(view: ManifestView): MediaBundle {
  return bundle(manifestHtml(view), manifestText(view));
}

/** URLs shown; the rest are counted. */
const MAX_URLS = 20;

function isPublic(view: ManifestView): boolean {
  return view.urls.some((url) => url.label === "anonymous");
}

function manifestHtml(view: ManifestView): Html {
  const urls = view.urls.length === 0
    ? markup`<div class="t-note">No public URL: only signed-in users with access can read this file.</div>`
    : frameTable({
      height: view.urls.length,
      width: 2,
      columns: [
        { name: "label", type: "", kind: "text" },
        { name: "url", type: "", kind: "text" },
      ],
      head: view.urls.slice(0, MAX_URLS).map((url) => [
        { text: url.label },
        { text: url.url, href: url.url },
      ]),
      tail: [],
    });
  const name = view.path === undefined ? "File" : view.path.slice(view.path.lastIndexOf("/") + 1);
  return card(
    { kind: "Manifest", title: name, sub: view.path },
    markup`${
      facts([
        markup`<b>${bounded(view.contentType, 100)}</b>`,
        `info type ${view.infoType}`,
        isPublic(view)
          ? markup`<span class="t-flag t-flag-ok">public</span>`
          : markup`<span class="t-flag">not public</span>`,
      ])
    }${urls}`,
  );
}

function manifestText(view: ManifestView): string {
  const head = `Manifest${view.path === undefined ? "" : ` ${oneLine(view.path)}`} — ${
    oneLine(view.contentType)
  }, ${oneLine(view.infoType)}, ${isPublic(view) ? "public" : "not public"}`;
  const urls = textPairs(view.urls.slice(0, MAX_URLS).map((url) => [url.label, url.url] as const));
  return urls === "" ? head : `${head}\n${urls}`;
}
