/**
 * The one table of citation styles: id, label, media type, file extension, and how several
 * citations make one file. {@linkcode CitationStyle}, the style lists of the API, the CLI's
 * `--style` choices and the views' labels all derive from it; the formatters in
 * `metadata/citation.ts` are keyed by {@linkcode CitationStyle}, so the compiler asks for one
 * for each new entry.
 *
 * A leaf module: it imports nothing, so the views may read labels from it too.
 *
 * @module
 */

/**
 * How several citations in one style are written to one file: one JSON array (CSL-JSON); one
 * JSON value alone and several as an array (JSON-LD, whose top level may be either); YAML
 * documents separated by `---` (CITATION.cff); separated by a blank line (BibTeX, RIS); or one
 * line after the other.
 *
 * @example
 * ```ts
 * import type { Joining } from "./citation_styles.ts";
 * import assert from "node:assert/strict";
 *
 * const joining: Joining = "json-array";
 * assert.equal(joining, "json-array");
 * ```
 */
export type Joining = CitationStyleInfo["joining"];

/**
 * Every citation style, in the order menus show them.
 *
 * @example
 * ```ts
 * import { CITATION_STYLE_LIST } from "./citation_styles.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(CITATION_STYLE_LIST[0].id, "datacite");
 * ```
 */
export const CITATION_STYLE_LIST = [
  {
    id: "datacite",
    label: "DataCite",
    mediaType: "text/plain",
    extension: "txt",
    json: false,
    joining: "lines",
  },
  {
    id: "apa",
    label: "APA",
    mediaType: "text/plain",
    extension: "txt",
    json: false,
    joining: "lines",
  },
  {
    id: "bibtex",
    label: "BibTeX",
    mediaType: "application/x-bibtex",
    extension: "bib",
    json: false,
    joining: "blank-line",
  },
  {
    id: "ris",
    label: "RIS",
    mediaType: "application/x-research-info-systems",
    extension: "ris",
    json: false,
    joining: "blank-line",
  },
  {
    id: "csl-json",
    label: "CSL-JSON",
    mediaType: "application/vnd.citationstyles.csl+json",
    extension: "json",
    json: true,
    joining: "json-array",
  },
  {
    id: "jsonld",
    label: "schema.org JSON-LD",
    mediaType: "application/ld+json",
    extension: "jsonld",
    json: true,
    joining: "json-value",
  },
  {
    id: "cff",
    label: "CITATION.cff",
    mediaType: "application/yaml",
    extension: "cff",
    json: false,
    joining: "yaml-documents",
  },
] as const;

/**
 * A citation style: `datacite` (DataCite's recommended form), `apa` (APA 7th edition),
 * `bibtex`, `ris`, `csl-json`, `jsonld` (a schema.org `Dataset`, for dataset search engines) or
 * `cff` (a `CITATION.cff` file, Citation File Format 1.2.0).
 *
 * @example
 * ```ts
 * import type { CitationStyle } from "./citation_styles.ts";
 * import assert from "node:assert/strict";
 *
 * const style: CitationStyle = "bibtex";
 * assert.equal(style, "bibtex");
 * ```
 */
export type CitationStyle = (typeof CITATION_STYLE_LIST)[number]["id"];

/**
 * What the registry says of one style: its id (the `style` argument's value), its name in views
 * and help, the media type and file extension of its citations, whether the text is JSON
 * (shown as code), and how several citations make one file.
 *
 * @example
 * ```ts
 * import type { CitationStyleInfo } from "./citation_styles.ts";
 * import assert from "node:assert/strict";
 *
 * const info: CitationStyleInfo = { id: "ris", label: "RIS", mediaType: "application/x-research-info-systems", extension: "ris", json: false, joining: "blank-line" };
 * assert.equal(info.extension, "ris");
 * ```
 */
export type CitationStyleInfo = (typeof CITATION_STYLE_LIST)[number];

/**
 * Every {@linkcode CitationStyle}.
 *
 * @example
 * ```ts
 * import { CITATION_STYLES } from "./citation_styles.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(CITATION_STYLES.join(", "), "datacite, apa, bibtex, ris, csl-json, jsonld, cff");
 * ```
 */
export const CITATION_STYLES: readonly CitationStyle[] = Object.freeze(
  CITATION_STYLE_LIST.map((style) => style.id),
);

/**
 * The registry entry of a style.
 *
 * @example
 * ```ts
 * import { citationStyle } from "./citation_styles.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(citationStyle("bibtex").extension, "bib");
 * ```
 */
export function citationStyle(id: CitationStyle): CitationStyleInfo {
  return CITATION_STYLE_LIST.find((style) => style.id === id)!;
}

/**
 * The label of a style, or the id itself when it is not one tern knows.
 *
 * @example
 * ```ts
 * import { citationStyleLabel } from "./citation_styles.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(citationStyleLabel("csl-json"), "CSL-JSON");
 * assert.equal(citationStyleLabel("mla"), "mla");
 * ```
 */
export function citationStyleLabel(id: string): string {
  return CITATION_STYLE_LIST.find((style) => style.id === id)?.label ?? id;
}
