/**
 * {@linkcode Citation}: a dataset's citation as an object — its text in one style, the same
 * citation in every other style, and the resolver link — that prints as plain text and shows in
 * a notebook as a box of selectable text.
 *
 * @module
 */

import { type Citable, CITATION_STYLES, type CitationStyle, formatCitation } from "./citation.ts";
import { checkCitationStyle, resolverLinks } from "./citation.ts";

/**
 * Anything a citation can be made from: a normalised record, or a dataset handle (whose
 * metadata is fetched).
 *
 * @example
 * ```ts
 * import type { CitationSource } from "./cite.ts";
 *
 * const record: CitationSource = { path: "/iplant/home/shared/x", creators: [], subjects: [], title: "X" };
 * ```
 */
export type CitationSource = Citable | { metadata(): Promise<Citable> };

/**
 * A dataset's citation in every style, with one chosen for display. `String(citation)` and
 * `text` are the chosen style's text.
 *
 * @example
 * ```ts
 * import { Citation } from "./cite.ts";
 * import assert from "node:assert/strict";
 *
 * const citation = await Citation.of({
 *   path: "/iplant/home/shared/commons_repo/curated/Barley",
 *   title: "Barley yields", creators: [{ name: "Immer, F. R.", family: "Immer", given: "F. R." }],
 *   publicationYear: 1934, doi: "10.7946/P2C35G", subjects: [],
 * });
 * assert.equal(String(citation), "Immer, F. R. (1934). Barley yields. https://doi.org/10.7946/P2C35G");
 * assert.ok(citation.formats.bibtex?.startsWith("@"));
 * ```
 */
export class Citation {
  /** The style shown. */
  readonly style: CitationStyle;
  /** The citation in that style. */
  readonly text: string;
  /** The dataset's title, when it has one. */
  readonly title?: string;
  /** The resolver link: the DOI's, else the ARK's. */
  readonly url?: string;
  /** The citation in every style. */
  readonly formats: Readonly<Record<CitationStyle, string>>;

  /**
   * Holds citations already formatted; {@linkcode Citation.of} makes them.
   *
   * @example
   * ```ts
   * import { Citation } from "./cite.ts";
   * import assert from "node:assert/strict";
   *
   * const formats = {
   *   datacite: "X.", apa: "X.", bibtex: "@misc{x}", ris: "TY  - DATA", "csl-json": "[]",
   *   jsonld: "{}", cff: "cff-version: 1.2.0",
   * };
   * assert.equal(new Citation("datacite", formats).text, "X.");
   * ```
   */
  constructor(
    style: CitationStyle,
    formats: Record<CitationStyle, string>,
    about: { title?: string; url?: string } = {},
  ) {
    checkCitationStyle(style);
    this.style = style;
    this.formats = Object.freeze({ ...formats });
    this.text = formats[style];
    if (about.title !== undefined) this.title = about.title;
    if (about.url !== undefined) this.url = about.url;
    Object.freeze(this);
  }

  /**
   * Cites a record or a dataset handle in every style, showing `style` (default `datacite`).
   *
   * @throws {BadRequestError} for an unknown style.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { Citation } from "./cite.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const penguins = store.dataset(
   *   "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
   * );
   * const citation = await Citation.of(penguins, "apa");
   * assert.equal(citation.url, "https://doi.org/10.25739/9k2v-7q4m");
   * // In a notebook, `citation` shows the APA citation in a box, the other styles below it.
   * ```
   */
  static async of(source: CitationSource, style: CitationStyle = "datacite"): Promise<Citation> {
    checkCitationStyle(style);
    const record = isCitable(source) ? source : await source.metadata();
    const texts = await Promise.all(CITATION_STYLES.map((each) => formatCitation(record, each)));
    const formats = Object.fromEntries(
      CITATION_STYLES.map((each, index) => [each, texts[index]]),
    ) as Record<CitationStyle, string>;
    const links = resolverLinks(record);
    return new Citation(style, formats, { title: record.title, url: links.doiUrl ?? links.arkUrl });
  }

  /** The citation text. */
  toString(): string {
    return this.text;
  }

  /** The citation text, for `Deno.inspect` and `console.log`. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.text;
  }
}

function isCitable(source: CitationSource): source is Citable {
  return typeof (source as { metadata?: unknown }).metadata !== "function";
}
