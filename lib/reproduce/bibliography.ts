/**
 * {@linkcode Bibliography}: one citation per dataset a notebook read, in one style, deduplicated
 * and in a stable order — what `store.provenance.bibliography(style)` and `tern cite --lock`
 * give.
 *
 * @module
 */

import { definedOf } from "../client/defined.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderBibliography } from "../display/provenance.ts";
import {
  checkCitationStyle,
  type CitationStyle,
  dataciteCitation,
  formatCitation,
  joinCitations,
} from "../metadata/citation.ts";
import type { LockedDataset } from "./lock.ts";

/**
 * How a bibliography entry points to its dataset: a DOI (as it should), else an ARK, else only
 * the data-store path.
 *
 * @example
 * ```ts
 * import type { CitedBy } from "./bibliography.ts";
 *
 * const citedBy: CitedBy = "ark";
 * ```
 */
export type CitedBy = "doi" | "ark" | "path";

/**
 * One dataset's citation in a {@linkcode Bibliography}.
 *
 * @example
 * ```ts
 * import type { BibliographyEntry } from "./bibliography.ts";
 *
 * const entry: BibliographyEntry = { path: "/iplant/home/shared/x", citedBy: "path", text: "[x]. /iplant/home/shared/x" };
 * ```
 */
export interface BibliographyEntry {
  /** The dataset's folder. */
  readonly path: string;
  /** Its title, when it has one. */
  readonly title?: string;
  /** What the citation points to; anything but `doi` is flagged. */
  readonly citedBy: CitedBy;
  /** The citation in the bibliography's style. */
  readonly text: string;
}

/**
 * Citations of several datasets in one style: `text` is the whole file (a BibTeX file, a
 * CSL-JSON array, …); `entries` the citations one by one; `flagged` those without a DOI (cited
 * by their ARK or, without one, their data-store path).
 *
 * @example
 * ```ts
 * import { makeBibliography } from "./bibliography.ts";
 * import assert from "node:assert/strict";
 *
 * const bibliography = await makeBibliography([
 *   { path: "/c/Zeta", title: "Zeta", creators: [{ name: "Zhu, Li", family: "Zhu", given: "Li" }], doi: "10.1234/z" },
 *   { path: "/c/Alpha", title: "Alpha", creators: [{ name: "Adams, Jo", family: "Adams", given: "Jo" }], ark: "ark:/87946/p3a" },
 * ], "datacite");
 * assert.deepEqual(bibliography.entries.map((entry) => entry.path), ["/c/Alpha", "/c/Zeta"]);
 * assert.deepEqual(bibliography.flagged.map((entry) => entry.citedBy), ["ark"]);
 * assert.equal(String(bibliography).split("\n").length, 2);
 * ```
 */
export class Bibliography {
  /** The style of every citation. */
  readonly style: CitationStyle;
  /** The citations, in order. */
  readonly entries: readonly BibliographyEntry[];
  /** The citations as one file in the style's own way. */
  readonly text: string;

  /**
   * Holds citations already made; {@linkcode makeBibliography} makes them.
   *
   * @example
   * ```ts
   * import { Bibliography } from "./bibliography.ts";
   * import assert from "node:assert/strict";
   *
   * const empty = new Bibliography("bibtex", []);
   * assert.equal(empty.text, "");
   * ```
   */
  constructor(style: CitationStyle, entries: readonly BibliographyEntry[]) {
    checkCitationStyle(style);
    this.style = style;
    this.entries = Object.freeze([...entries]);
    this.text = entries.length === 0 ? "" : joinCitations(entries.map((e) => e.text), style);
    Object.freeze(this);
  }

  /** The entries not cited by a DOI. */
  get flagged(): readonly BibliographyEntry[] {
    return this.entries.filter((entry) => entry.citedBy !== "doi");
  }

  /** The whole bibliography's text. */
  toString(): string {
    return this.text;
  }

  /** The text, for `Deno.inspect` and `console.log`. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.text;
  }

  /**
   * The notebook view: the citations as selectable text, and which datasets lack a DOI.
   *
   * @example
   * ```ts
   * import { Bibliography } from "./bibliography.ts";
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import assert from "node:assert/strict";
   *
   * const bibliography = new Bibliography("datacite", [{ path: "/c/x", citedBy: "path", text: "[x]. /c/x" }]);
   * assert.match(bibliography[JUPYTER_DISPLAY]()["text/plain"], /no DOI/);
   * ```
   */
  [JUPYTER_DISPLAY](): MediaBundle {
    return renderBibliography({
      style: this.style,
      text: this.text,
      count: this.entries.length,
      flagged: this.flagged.map((entry) => definedOf(entry, ["path", "title", "citedBy"])),
    });
  }
}

/**
 * The bibliography of `datasets` in `style`: one citation per dataset — datasets sharing a DOI
 * (or, without one, an ARK) are one — ordered by their DataCite citation (so by first creator,
 * as reference lists are), then path.
 *
 * @throws {BadRequestError} for an unknown style.
 *
 * @example
 * ```ts
 * import { makeBibliography } from "./bibliography.ts";
 * import assert from "node:assert/strict";
 *
 * const barley = { path: "/c/Barley", title: "Barley", creators: [], doi: "10.7946/P2C35G" };
 * const copy = { ...barley, path: "/c/Barley_copy", doi: "10.7946/p2c35g" };
 * const bibliography = await makeBibliography([barley, copy], "bibtex");
 * assert.equal(bibliography.entries.length, 1);
 * assert.ok(bibliography.text.startsWith("@misc{"));
 * ```
 */
export async function makeBibliography(
  datasets: readonly LockedDataset[],
  style: CitationStyle = "datacite",
): Promise<Bibliography> {
  checkCitationStyle(style);
  const ordered = datasets.map((dataset) => ({
    dataset,
    sortKey: dataciteCitation({ ...dataset, subjects: [] }).toLocaleLowerCase("en-US"),
  })).sort((a, b) =>
    a.sortKey.localeCompare(b.sortKey, "en-US") || (a.dataset.path < b.dataset.path ? -1 : 1)
  );
  // Each dataset once: by its DOI, else its ARK, else its path.
  const unique = Map.groupBy(
    ordered,
    ({ dataset: { doi, ark, path } }) =>
      doi !== undefined ? `doi:${doi.toLowerCase()}` : ark?.toLowerCase() ?? `path:${path}`,
  );
  const entries = await Promise.all([...unique.values()].map(async ([{ dataset }]) => ({
    ...definedOf(dataset, ["path", "title"]),
    citedBy: citedByOf(dataset),
    text: await formatCitation({ ...dataset, subjects: [] }, style),
  })));
  return new Bibliography(style, entries);
}

/**
 * What a dataset's citation points to: its DOI, else its ARK, else its path.
 *
 * @example
 * ```ts
 * import { citedByOf } from "./bibliography.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(citedByOf({ ark: "ark:/87946/p3f2r7" }), "ark");
 * assert.equal(citedByOf({}), "path");
 * ```
 */
export function citedByOf(dataset: Pick<LockedDataset, "doi" | "ark">): CitedBy {
  return dataset.doi !== undefined ? "doi" : dataset.ark !== undefined ? "ark" : "path";
}
