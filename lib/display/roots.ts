/**
 * The view of a user's navigation roots (`store.root()`): home, community data, "shared with
 * me" and trash, each with its path and dates, plus Terrain's base paths.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatDateTime, oneLine } from "./format.ts";
import { type Html, markup } from "./html.ts";
import { bounded, card, collapsible, icon, LIMITS, mono, pairs } from "./parts.ts";
import { textPairs, textTable } from "./text.ts";

/**
 * One root.
 *
 * @example
 * ```ts
 * import type { RootRow } from "./roots.ts";
 *
 * const home: RootRow = { role: "home", path: "/iplant/home/demo", modified: new Date(0), permission: "own" };
 * ```
 */
export interface RootRow {
  /** Which root (`home`, `community`, `sharedWithMe`, `trash`). */
  role: string;
  /** Its path. */
  path: string;
  /** Last modification. */
  modified: Date;
  /** The caller's permission. */
  permission: string;
}

/**
 * What the roots view shows.
 *
 * @example
 * ```ts
 * import type { RootsView } from "./roots.ts";
 *
 * const view: RootsView = {
 *   roots: [],
 *   basePaths: { userHome: "/iplant/home/demo", userTrash: "/iplant/trash/home/de-irods/demo", baseTrash: "/iplant/trash/home/de-irods" },
 * };
 * ```
 */
export interface RootsView {
  /** The roots, in Terrain's order. */
  roots: readonly RootRow[];
  /** Terrain's base paths. */
  basePaths: { userHome: string; userTrash: string; baseTrash: string };
}

const ROLE_LABELS: Record<string, string> = {
  home: "Home",
  community: "Community data",
  sharedWithMe: "Shared with me",
  trash: "Trash",
};

const BASE_PATHS = [
  ["user home", "userHome"],
  ["user trash", "userTrash"],
  ["base trash", "baseTrash"],
] as const;

/**
 * Renders the roots as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderRoots } from "./roots.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderRoots({
 *   roots: [{ role: "home", path: "/iplant/home/demo", modified: new Date(0), permission: "own" }],
 *   basePaths: { userHome: "/iplant/home/demo", userTrash: "/t/demo", baseTrash: "/t" },
 * });
 * assert.equal(out["text/plain"].split("\n")[0], "Roots — home /iplant/home/demo");
 * ```
 */
export function renderRoots(view: RootsView): MediaBundle {
  return bundle(rootsHtml(view), rootsText(view));
}

function rootsHtml(view: RootsView): Html {
  const rows = view.roots.map((root) =>
    markup`<tr><td class="t-nowrap">${icon("folder")}${
      ROLE_LABELS[root.role] ?? root.role
    }</td><td class="t-mono"><bdi>${
      bounded(root.path, LIMITS.name)
    }</bdi></td><td class="t-muted">${root.permission}</td><td class="t-num t-muted">${
      formatDateTime(root.modified)
    }</td></tr>`
  );
  const table =
    markup`<table class="t-table"><thead><tr><th>root</th><th>path</th><th>permission</th><th class="t-num">modified (UTC)</th></tr></thead><tbody>${rows}</tbody></table>`;
  const base = collapsible(
    "Base paths",
    pairs(BASE_PATHS.map(([label, key]) => [label, mono(view.basePaths[key])])),
  );
  return card({ kind: "Roots", title: "Your data store" }, markup`${table}${base}`);
}

function rootsText(view: RootsView): string {
  const home = view.roots.find((root) => root.role === "home");
  return [
    `Roots${home === undefined ? "" : ` — home ${oneLine(home.path)}`}`,
    textTable(
      [{ heading: "root" }, { heading: "path", max: 70 }, { heading: "permission" }, {
        heading: "modified (UTC)",
      }],
      view.roots.map((root) => [
        ROLE_LABELS[root.role] ?? root.role,
        root.path,
        root.permission,
        formatDateTime(root.modified),
      ]),
    ),
    textPairs(BASE_PATHS.map(([label, key]) => [label, view.basePaths[key]])),
  ].join("\n");
}
