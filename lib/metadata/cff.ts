/**
 * A dataset's metadata as a `CITATION.cff` file (Citation File Format 1.2.0): what GitHub,
 * Zenodo and Zotero read to cite a repository that holds or uses the data.
 *
 * @module
 */

import { loadYamlModule } from "../deps.ts";
import { type Citable, linkOf, titleOf } from "./citable.ts";

/** The CFF version written. */
const CFF_VERSION = "1.2.0";

/** A DOI as CFF's schema accepts it (its `doi` pattern); others go in `identifiers`. */
const CFF_DOI = /^10\.\d{4,9}(\.\d+)?\/[A-Za-z0-9:/_;\-.()[\]\\]+$/;

/** A CFF person or entity. */
type CffAuthor = Record<string, string>;

/**
 * CFF's `license` is a single SPDX id here: a list in CFF means a choice of licences, so an
 * expression (`PDDL-1.0 AND GPL-3.0-only`) is left to `license-url` instead.
 */
const SPDX_ID = /^[A-Za-z0-9.+-]+$/;

/**
 * The record as a CFF 1.2.0 object: `cff-version`, `message`, `type: dataset`, `title`,
 * `authors` (people with `family-names`, `given-names`, `name-suffix`, `affiliation`, `orcid`;
 * organisations as `name`), and when known `doi`, `identifiers` (the ARK; without a DOI or ARK,
 * the data-store path), `url`, `version`,
 * `abstract`, `keywords`, `license` (an SPDX id) and `license-url`. Only keys CFF 1.2.0
 * allows at the top level are written (its schema forbids others). A record without creators
 * gets the publisher (or "anonymous") as its one author, since CFF requires at least one.
 *
 * @example
 * ```ts
 * import { toCff } from "./cff.ts";
 * import assert from "node:assert/strict";
 *
 * const cff = toCff({
 *   path: "/x/Palmer", title: "Palmer penguins", publicationYear: 2020, subjects: [],
 *   creators: [{ name: "Gorman, Kristen B.", family: "Gorman", given: "Kristen B." }],
 *   doi: "10.25739/9k2v-7q4m",
 * });
 * assert.equal(cff["cff-version"], "1.2.0");
 * assert.deepEqual(cff.authors, [{ "family-names": "Gorman", "given-names": "Kristen B." }]);
 * ```
 */
export function toCff(metadata: Citable): Record<string, unknown> {
  const cff: Record<string, unknown> = {
    "cff-version": CFF_VERSION,
    message: "If you use this dataset, please cite it using the metadata from this file.",
    type: "dataset",
    title: titleOf(metadata) ?? "",
    authors: metadata.creators.length > 0
      ? metadata.creators.map(author)
      : [{ name: metadata.publisher ?? "anonymous" }],
  };
  if (metadata.doi !== undefined && CFF_DOI.test(metadata.doi)) cff.doi = metadata.doi;
  const identifiers = [
    ...(metadata.doi !== undefined && !CFF_DOI.test(metadata.doi)
      ? [{ type: "other", value: `doi:${metadata.doi}` }]
      : []),
    ...(metadata.ark === undefined
      ? []
      : [{ type: "other", value: metadata.ark, description: "ARK" }]),
    // Without a DOI or ARK the data-store path is all that finds it, as in every other style.
    ...(metadata.doi !== undefined || metadata.ark !== undefined || metadata.path === ""
      ? []
      : [{ type: "other", value: metadata.path, description: "data-store path" }]),
  ];
  if (identifiers.length > 0) cff.identifiers = identifiers;
  const link = linkOf(metadata);
  if (link !== undefined) cff.url = link;
  if (metadata.version !== undefined) cff.version = metadata.version;
  if (metadata.description !== undefined) cff.abstract = metadata.description;
  if (metadata.subjects.length > 0) cff.keywords = [...metadata.subjects];
  const license = metadata.license?.id;
  if (license !== undefined && SPDX_ID.test(license)) cff.license = license;
  if (metadata.license?.url !== undefined) cff["license-url"] = metadata.license.url;
  return cff;
}

/**
 * The record as `CITATION.cff` text (YAML).
 *
 * @example
 * ```ts
 * import { cffText } from "./cff.ts";
 * import assert from "node:assert/strict";
 *
 * const text = await cffText({ path: "/x/a", title: "A: b", creators: [{ name: "NOAA" }], subjects: [] });
 * assert.ok(text.startsWith('cff-version: "1.2.0"\n'));
 * assert.ok(text.includes("title: \"A: b\""));
 * ```
 */
export async function cffText(metadata: Citable): Promise<string> {
  const yaml = await loadYamlModule();
  // Double-quoted strings: a title such as "yes" or "1.0" must stay a string, and a
  // description keeps its line breaks as escapes rather than depending on block styles.
  return yaml.stringify(toCff(metadata), {
    defaultStringType: "QUOTE_DOUBLE",
    defaultKeyType: "PLAIN",
    lineWidth: 0,
  }).trimEnd();
}

function author(creator: Citable["creators"][number]): CffAuthor {
  if (creator.family === undefined) return { name: creator.name };
  const person: CffAuthor = { "family-names": creator.family };
  if (creator.given !== undefined) person["given-names"] = creator.given;
  if (creator.suffix !== undefined) person["name-suffix"] = creator.suffix;
  if (creator.affiliation !== undefined) person.affiliation = creator.affiliation;
  if (creator.orcid !== undefined) person.orcid = `https://orcid.org/${creator.orcid}`;
  return person;
}
