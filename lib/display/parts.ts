/**
 * HTML pieces shared by the views: the card with its header, fact lines, key/value grids,
 * chips, "N more" notes, and bounded text. Every piece goes through {@linkcode markup}, so values
 * are escaped wherever they end up.
 *
 * @module
 */

import { clip, formatCount } from "./format.ts";
import { type Html, type HtmlValue, link, markup } from "./html.ts";

/**
 * Longest texts shown, in characters; the rest is cut with a visible count, so one huge value
 * cannot make a notebook heavy.
 *
 * @example
 * ```ts
 * import { LIMITS } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(LIMITS.name, 200);
 * ```
 */
export const LIMITS = Object.freeze({
  /** A name or path in a table or header. */
  name: 200,
  /** A single value (an AVU value, a comment line). */
  value: 600,
  /** A long text (a description, a comment, a citation). */
  long: 5000,
  /** Pretty-printed JSON. */
  json: 20_000,
});

/**
 * Text cut to `max` characters, with a muted note saying how many more there were.
 *
 * @example
 * ```ts
 * import { bounded } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   bounded("x".repeat(10), 5).toString(),
 *   'xxxx…<span class="t-muted"> (6 more characters)</span>',
 * );
 * ```
 */
export function bounded(text: string, max: number = LIMITS.value): Html {
  const { text: shown, cut } = clip(text, max);
  if (cut === 0) return markup`${shown}`;
  return markup`${shown}<span class="t-muted"> (${formatCount(cut)} more characters)</span>`;
}

/**
 * What a card shows at its top.
 *
 * @example
 * ```ts
 * import type { CardHead } from "./parts.ts";
 *
 * const head: CardHead = { kind: "Folder", title: "many_files", sub: "/iplant/home/shared/tern_samples/many_files" };
 * ```
 */
export interface CardHead {
  /** What the object is (`Folder`, `Dataset`, …), shown as a small label. */
  kind: string;
  /** The main line. */
  title: HtmlValue;
  /** A line under it, in monospace (usually the path). */
  sub?: string;
  /** Extra markup after the title (badges). */
  aside?: HtmlValue;
}

/**
 * A bordered card: header, then the body.
 *
 * @example
 * ```ts
 * import { card } from "./parts.ts";
 * import { markup } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * const view = card({ kind: "File", title: "a.csv", sub: "/iplant/home/shared/a.csv" }, markup`<p>…</p>`);
 * assert.ok(view.toString().startsWith('<div class="t-card">'));
 * ```
 */
export function card(head: CardHead, body: HtmlValue, className?: string): Html {
  const classes = className === undefined ? "t-card" : `t-card ${className}`;
  const title = typeof head.title === "string" ? bounded(head.title, LIMITS.name) : head.title;
  const sub = head.sub === undefined
    ? ""
    : markup`<div class="t-path"><bdi>${bounded(head.sub, LIMITS.name)}</bdi></div>`;
  return markup`<div class="${classes}"><div class="t-head"><span class="t-kind">${head.kind}</span><span class="t-title"><bdi>${title}</bdi></span>${
    head.aside ??
      ""
  }</div>${sub}${body}</div>`;
}

/**
 * A line of facts separated by middle dots; empty facts are left out.
 *
 * @example
 * ```ts
 * import { facts } from "./parts.ts";
 * import { markup } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   facts([markup`<b>3</b> files`, undefined, "read"]).toString(),
 *   '<div class="t-facts"><span><b>3</b> files</span><span>read</span></div>',
 * );
 * ```
 */
export function facts(items: readonly HtmlValue[]): Html {
  const shown = items.filter((item) => item !== undefined && item !== null && item !== false);
  if (shown.length === 0) return markup``;
  return markup`<div class="t-facts">${shown.map((item) => markup`<span>${item}</span>`)}</div>`;
}

/**
 * A key/value grid; rows whose value is `undefined` are left out.
 *
 * @example
 * ```ts
 * import { pairs } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   pairs([["status", "404"], ["code", undefined]]).toString(),
 *   '<dl class="t-dl"><dt>status</dt><dd>404</dd></dl>',
 * );
 * ```
 */
export function pairs(rows: readonly (readonly [string, HtmlValue])[]): Html {
  const shown = rows.filter(([, value]) => value !== undefined && value !== null && value !== "");
  if (shown.length === 0) return markup``;
  return markup`<dl class="t-dl">${
    shown.map(([key, value]) => markup`<dt>${key}</dt><dd>${value}</dd>`)
  }</dl>`;
}

/**
 * Text in the monospace face (an id, a path, an endpoint), bounded; nothing when there is no
 * text, so that {@linkcode pairs} leaves the row out.
 *
 * @example
 * ```ts
 * import { mono } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(String(mono("a<b", 80)), '<span class="t-mono">a&lt;b</span>');
 * assert.equal(mono(undefined), undefined);
 * ```
 */
export function mono(text: string | undefined, max: number = LIMITS.name): Html | undefined {
  return text === undefined ? undefined : markup`<span class="t-mono">${bounded(text, max)}</span>`;
}

/**
 * Chips (subjects, sort fields), at most `max`, then a "+N more" chip.
 *
 * @example
 * ```ts
 * import { chips } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   chips(["penguins", "Antarctica"]).toString(),
 *   '<div class="t-chips"><span class="t-chip">penguins</span>' +
 *     '<span class="t-chip">Antarctica</span></div>',
 * );
 * ```
 */
export function chips(items: readonly string[], max = 30, plain = false): Html {
  if (items.length === 0) return markup``;
  const className = plain ? "t-chip t-chip-plain" : "t-chip";
  const shown = items.slice(0, max).map((item) =>
    markup`<span class="${className}">${bounded(item, 80)}</span>`
  );
  const rest = items.length > max
    ? markup`<span class="t-chip t-chip-plain">+${formatCount(items.length - max)} more</span>`
    : "";
  return markup`<div class="t-chips">${shown}${rest}</div>`;
}

/**
 * The note under a cut list: `… 19,986 more entries — iterate folder.list() for all`.
 *
 * @example
 * ```ts
 * import { moreNote } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   moreNote("1,234 more entries", "iterate the listing").toString(),
 *   '<div class="t-more">… 1,234 more entries — iterate the listing</div>',
 * );
 * ```
 */
export function moreNote(what: string, hint?: string): Html {
  return markup`<div class="t-more">… ${what}${hint === undefined ? "" : ` — ${hint}`}</div>`;
}

/**
 * A small uppercase section label followed by its content.
 *
 * @example
 * ```ts
 * import { section } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   section("Subjects", "none").toString(),
 *   '<div class="t-section"><div class="t-label">Subjects</div>none</div>',
 * );
 * ```
 */
export function section(label: string, content: HtmlValue): Html {
  return markup`<div class="t-section"><div class="t-label">${label}</div>${content}</div>`;
}

/**
 * A collapsed section that opens on click (no script: the browser's own `<details>`).
 *
 * @example
 * ```ts
 * import { collapsible } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   collapsible("Raw AVUs (3)", "…").toString(),
 *   "<details><summary>Raw AVUs (3)</summary>…</details>",
 * );
 * ```
 */
export function collapsible(summary: HtmlValue, content: HtmlValue, open = false): Html {
  return open
    ? markup`<details open><summary>${summary}</summary>${content}</details>`
    : markup`<details><summary>${summary}</summary>${content}</details>`;
}

/**
 * Selectable preformatted text (a citation, JSON), bounded.
 *
 * @example
 * ```ts
 * import { preformatted } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(preformatted("a <b>").toString(), '<pre class="t-pre">a &lt;b&gt;</pre>');
 * ```
 */
export function preformatted(text: string, max: number = LIMITS.long, json = false): Html {
  const className = json ? "t-pre t-json" : "t-pre";
  return markup`<pre class="${className}">${bounded(text, max)}</pre>`;
}

/**
 * An icon for a file or a folder, drawn in CSS.
 *
 * @example
 * ```ts
 * import { icon } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(icon("folder").toString(), '<span class="t-ico t-ico-dir"></span>');
 * ```
 */
export function icon(type: "file" | "folder"): Html {
  return type === "folder"
    ? markup`<span class="t-ico t-ico-dir"></span>`
    : markup`<span class="t-ico t-ico-file"></span>`;
}

/**
 * A person's name, with a link to their ORCID record when there is one.
 *
 * @example
 * ```ts
 * import { personName } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(personName("Gorman, Kristen").toString(), "<bdi>Gorman, Kristen</bdi>");
 * assert.match(
 *   personName("Gorman, Kristen", "0000-0002-0258-9264").toString(),
 *   /^<bdi>Gorman, Kristen<\/bdi> <a [^>]*href="https:\/\/orcid.org\/0000-0002-0258-9264"/,
 * );
 * ```
 */
export function personName(name: string, orcid?: string): Html {
  const id = orcid === undefined
    ? ""
    : markup` ${
      link(`https://orcid.org/${orcid}`, "ORCID", { className: "t-id", title: `ORCID ${orcid}` })
    }`;
  return markup`<bdi>${bounded(name, 120)}</bdi>${id}`;
}

/**
 * A table cell naming a dataset: its title (or "(no title)") above its folder.
 *
 * @example
 * ```ts
 * import { datasetCell } from "./parts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(datasetCell(undefined, "Gorman_2020").toString(), /\(no title\).*Gorman_2020/);
 * ```
 */
export function datasetCell(title: string | undefined, folder: string): Html {
  return markup`<td class="t-name"><div><bdi>${
    title === undefined
      ? markup`<span class="t-muted">(no title)</span>`
      : bounded(title, LIMITS.name)
  }</bdi></div><div class="t-path"><bdi>${bounded(folder, LIMITS.name)}</bdi></div></td>`;
}
