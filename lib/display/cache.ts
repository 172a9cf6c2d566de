/**
 * The local-cache view: where it is, how full it is against its cap, and the most recently used
 * files.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatBytes, formatCount, formatDateTime, oneLine, plural } from "./format.ts";
import { type Html, markup } from "./html.ts";
import { bounded, card, facts, LIMITS, moreNote } from "./parts.ts";
import { textTable } from "./text.ts";

/**
 * One cached file.
 *
 * @example
 * ```ts
 * import type { CacheRow } from "./cache.ts";
 *
 * const row: CacheRow = { path: "/iplant/home/shared/a.csv", size: 1234, lastUsed: new Date(0), format: "csv" };
 * ```
 */
export interface CacheRow {
  /** Data-store path of the file. */
  path: string;
  /** Bytes. */
  size: number;
  /** Last read from the cache (or written). */
  lastUsed: Date;
  /** Table format, when it was read as a table. */
  format?: string;
}

/**
 * What the cache view shows.
 *
 * @example
 * ```ts
 * import type { CacheView } from "./cache.ts";
 *
 * const view: CacheView = { enabled: false, maxBytes: 0, offline: false, files: 0, bytes: 0, recent: [] };
 * ```
 */
export interface CacheView {
  /** Whether the store has a cache. */
  enabled: boolean;
  /** The cache folder. */
  dir?: string;
  /** Cap on cached bytes. */
  maxBytes: number;
  /** Serving from the cache only. */
  offline: boolean;
  /** Files cached. */
  files: number;
  /** Bytes cached. */
  bytes: number;
  /** The most recently used files, newest first. */
  recent: readonly CacheRow[];
}

/**
 * Renders the cache as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderCache } from "./cache.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderCache({ enabled: true, dir: "/tmp/tern", maxBytes: 5e9, offline: false, files: 0, bytes: 0, recent: [] });
 * assert.equal(out["text/plain"].split("\n")[0], "Cache /tmp/tern — 0 files, 0 B of 5.00 GB");
 * ```
 */
export function renderCache(view: CacheView): MediaBundle {
  return bundle(cacheHtml(view), cacheText(view));
}

function usage(view: CacheView): string {
  return `${plural(view.files, "file")}, ${formatBytes(view.bytes)} of ${
    formatBytes(view.maxBytes)
  }`;
}

function cacheHtml(view: CacheView): Html {
  if (!view.enabled) {
    return card(
      { kind: "Cache", title: "No local cache" },
      markup`<div class="t-note">This store downloads every read; connect with a cacheDir to keep files.</div>`,
    );
  }
  const percent = view.maxBytes > 0 ? Math.min(100, (view.bytes / view.maxBytes) * 100) : 0;
  const bar = markup`<div class="t-progress"><div class="t-bar"><span style="width:${
    percent.toFixed(
      1,
    )
  }%"></span></div><span>${usage(view)}</span></div>`;
  const rows = view.recent.map((row) =>
    markup`<tr><td class="t-name t-mono"><bdi>${
      bounded(row.path, LIMITS.name)
    }</bdi></td><td class="t-muted">${row.format ?? "—"}</td><td class="t-num">${
      formatBytes(row.size)
    }</td><td class="t-num t-muted">${formatDateTime(row.lastUsed)}</td></tr>`
  );
  const table = rows.length === 0
    ? markup`<div class="t-note">Empty.</div>`
    : markup`<table class="t-table"><thead><tr><th>path</th><th>format</th><th class="t-num">size</th><th class="t-num">last used (UTC)</th></tr></thead><tbody>${rows}</tbody></table>`;
  const more = view.files > view.recent.length
    ? moreNote(plural(view.files - view.recent.length, "more file"), "store.cache.info() lists all")
    : "";
  return card(
    { kind: "Cache", title: "Local cache", sub: view.dir },
    markup`${bar}${
      facts([view.offline ? "offline: files are served from here only" : undefined])
    }${table}${more}`,
  );
}

function cacheText(view: CacheView): string {
  if (!view.enabled) return "Cache — disabled (no local cache)";
  const lines = [
    `Cache ${oneLine(view.dir ?? "")} — ${usage(view)}${view.offline ? ", offline" : ""}`,
  ];
  if (view.recent.length > 0) {
    lines.push(textTable(
      [{ heading: "path", max: 70 }, { heading: "size", right: true }, {
        heading: "last used (UTC)",
      }],
      view.recent.map((row) => [row.path, formatBytes(row.size), formatDateTime(row.lastUsed)]),
    ));
  }
  if (view.files > view.recent.length) {
    lines.push(`  … ${formatCount(view.files - view.recent.length)} more`);
  }
  return lines.join("\n");
}
