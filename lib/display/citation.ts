/**
 * The citation view: the citation as plain, selectable text in a box (no script, so no copy
 * button: select and copy), the other styles a click away, and the resolver link.
 *
 * @module
 */

import { CITATION_STYLE_LIST, citationStyleLabel } from "../registry/citation_styles.ts";
import { bundle, type MediaBundle } from "./bundle.ts";
import { layoutText, oneLine, plainText } from "./format.ts";
import { type Html, link, markup } from "./html.ts";
import { bounded, card, collapsible, LIMITS, preformatted, section } from "./parts.ts";

/**
 * What the citation view shows.
 *
 * @example
 * ```ts
 * import type { CitationView } from "./citation.ts";
 *
 * const view: CitationView = {
 *   style: "datacite", text: "Immer, F. R. (1934). Barley yields. https://doi.org/10.7946/P2C35G",
 *   title: "Barley yields", url: "https://doi.org/10.7946/P2C35G", others: [],
 * };
 * ```
 */
export interface CitationView {
  /** The style of `text`. */
  style: string;
  /** The citation. */
  text: string;
  /** The cited dataset's title, when it has one. */
  title?: string;
  /** The resolver link (DOI or ARK). */
  url?: string;
  /** The citation in other styles, as `[style, text]`. */
  others: readonly (readonly [string, string])[];
}

/**
 * Renders a citation as a MIME bundle; `text/plain` is the citation, its invisible and control
 * characters escaped (line breaks and tabs kept).
 *
 * @example
 * ```ts
 * import { renderCitation } from "./citation.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderCitation({ style: "datacite", text: "Barley yields. /iplant/home/shared/b", others: [] });
 * assert.equal(out["text/plain"], "Barley yields. /iplant/home/shared/b");
 * ```
 */
export function renderCitation(view: CitationView): MediaBundle {
  return bundle(citationHtml(view), layoutText(view.text));
}

function citationHtml(view: CitationView): Html {
  const styleName = citationStyleLabel(view.style);
  const title = view.title === undefined ? `Citation (${styleName})` : view.title;
  const resolver = view.url === undefined
    ? ""
    : markup`<div class="t-more">Resolves at ${
      link(view.url, bounded(view.url, LIMITS.name), { className: "t-id" })
    }</div>`;
  // One click shows every other style, each labelled, rather than a column of toggles.
  const names = view.others.map(([style]) => citationStyleLabel(style));
  const others = view.others.length === 0 ? "" : collapsible(
    `Other styles: ${names.join(" · ")}`,
    view.others.map(([style, text], index) => {
      const json = CITATION_STYLE_LIST.some((each) => each.id === style && each.json);
      return section(names[index], preformatted(text, LIMITS.json, json));
    }),
  );
  return card(
    { kind: `Cite · ${styleName}`, title: oneLine(title) },
    markup`${preformatted(plainText(view.text), LIMITS.json)}${resolver}${others}`,
  );
}
