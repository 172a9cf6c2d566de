/**
 * Canonical attribute keys: one spelling for every way Data Commons metadata names an attribute
 * (`datacite.publicationyear`, `PublicationYear`, `publication_year`, `publication year`,
 * `creatorAffiliation\t`, `identiferType`, …), and the keys each normalised field reads.
 *
 * @module
 */

/**
 * Misspellings seen in (or one keystroke away from) real attribute names, replaced inside the
 * separator-free, lower-case key. None of them is a substring of a correct spelling, so a
 * correct key never changes.
 */
const MISSPELLINGS: ReadonlyArray<readonly [string, string]> = Object.entries({
  identifier: ["identifer", "idetifier", "indentifier", "identfier", "identifiier"],
  contributor: ["contributer", "contribtor"],
  affiliation: ["affilation", "afiliation", "affiliaton"],
  publication: ["publicaton", "pubication"],
  description: ["discription", "descripton"],
  creator: ["creater"],
  license: ["licence"],
}).flatMap(([right, wrongs]) => wrongs.map((wrong) => [wrong, right] as const));

/**
 * Prefixes that only say which schema an attribute belongs to: DataCite's, Dublin Core's (also
 * as its namespace URI) and schema.org's (`schema:`, `sdo:`, `https://schema.org/`).
 */
const SCHEMA_PREFIX =
  /^(?:(?:datacite|dcterms|dct|dc)[.:_]|(?:schema|sdo):|(?:https?:\/\/)?(?:schema\.org\/|purl\.org\/dc\/(?:terms|elements\/1\.1)\/))/;

/** schema.org's prefixes alone. */
const SCHEMA_ORG = /^(?:(?:schema|sdo):|(?:https?:\/\/)?schema\.org\/)/;

/** Separators people put between words of one attribute name. */
const SEPARATORS = /[\s_.\-:]+/g;

/**
 * The canonical form of an attribute name: trimmed (trailing TABs included), lower case,
 * without a schema prefix (`datacite.`, Dublin Core's `dc.`, `dcterms:`, schema.org's `schema:`) or
 * separators, with known
 * misspellings corrected.
 *
 * @example
 * ```ts
 * import { canonicalKey } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(canonicalKey("datacite.publicationyear"), "publicationyear");
 * assert.equal(canonicalKey("publication_year"), canonicalKey("Publication Year"));
 * assert.equal(canonicalKey("creatorAffiliation\t"), "creatoraffiliation");
 * assert.equal(canonicalKey("identiferType"), "identifiertype");
 * assert.equal(canonicalKey("dcterms:creator"), "creator");
 * assert.equal(canonicalKey("schema:name"), "title");
 * assert.equal(canonicalKey("name"), "name");
 * ```
 */
export function canonicalKey(attr: string): string {
  const written = attr.normalize("NFKC").trim().toLowerCase();
  let key = written.replace(SCHEMA_PREFIX, "").replace(SEPARATORS, "");
  // schema.org's `name` is a dataset's title; a bare `name` may name anything.
  if (key === "name" && SCHEMA_ORG.test(written)) return "title";
  for (const [wrong, right] of MISSPELLINGS) {
    if (key.includes(wrong)) key = key.replaceAll(wrong, right);
  }
  return key;
}

/** The table behind {@linkcode FIELD_KEYS}; {@linkcode FieldName} is derived from its keys. */
const KEYS = {
  // DataCite's JSON names its lists in the plural: titles, creators, subjects, rightsList.
  title: ["title", "titles"],
  titleType: ["titletype"],
  creator: ["creator", "creatorname", "creators", "author", "authors"],
  creatorAffiliation: ["creatoraffiliation"],
  creatorNameIdentifier: ["creatornameidentifier", "creatororcid", "orcid"],
  givenName: ["givenname"],
  familyName: ["familyname"],
  nameType: ["nametype"],
  affiliation: ["affiliation"],
  nameIdentifier: ["nameidentifier", "nameidentifiers", "orcid"],
  nameIdentifierScheme: ["nameidentifierscheme"],
  publisher: ["publisher"],
  // schema.org's datePublished, Dublin Core's issued, DSpace's dc.date.issued and Zenodo's and
  // Dryad's publication_date / publicationDate say it too.
  publicationYear: [
    "publicationyear",
    "pubyear",
    "datepublished",
    "issued",
    "dateissued",
    "publicationdate",
  ],
  resourceType: ["resourcetype"],
  resourceTypeGeneral: ["resourcetypegeneral"],
  subject: ["subject", "subjects", "keyword", "keywords"],
  description: ["description", "abstract"],
  descriptionType: ["descriptiontype"],
  identifier: ["identifier"],
  identifierType: ["identifiertype"],
  doi: ["doi"],
  alternateIdentifier: ["alternateidentifier"],
  alternateIdentifierType: ["alternateidentifiertype"],
  ark: ["ark"],
  rights: ["rights", "rightslist", "license", "rightsstatement"],
  rightsUri: ["rightsuri", "licenseuri", "licenseurl"],
  rightsIdentifier: ["rightsidentifier", "licenseid"],
  rightsIdentifierScheme: ["rightsidentifierscheme"],
  contributor: ["contributor", "contributorname", "contributors"],
  contributorType: ["contributortype"],
  contributorAffiliation: ["contributoraffiliation"],
  relatedIdentifier: ["relatedidentifier"],
  relatedIdentifierType: ["relatedidentifiertype"],
  relationType: ["relationtype"],
  version: ["version"],
  fundingReference: ["fundingreference"],
  funderName: ["fundername"],
  funderIdentifier: ["funderidentifier"],
  funderIdentifierType: ["funderidentifiertype"],
  awardNumber: ["awardnumber"],
  awardUri: ["awarduri"],
  awardTitle: ["awardtitle"],
  date: ["date"],
  dateType: ["datetype"],
  dateModified: ["datemodified", "lastmodified", "dateupdated", "modified"],
  deprecated: ["isdeprecated", "deprecated"],
} satisfies Record<string, readonly string[]>;

/**
 * A name of {@linkcode FIELD_KEYS}.
 *
 * @example
 * ```ts
 * import type { FieldName } from "./keys.ts";
 *
 * const field: FieldName = "publicationYear";
 * ```
 */
export type FieldName = keyof typeof KEYS;

/**
 * The canonical keys each part of a dataset record is read from, most specific first. Keys of
 * sub-properties (`identifierType`, `affiliation`, …) are looked up nested under their parent
 * first and, for the older flat template, among the top-level attributes.
 *
 * @example
 * ```ts
 * import { canonicalKey, FIELD_KEYS } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(FIELD_KEYS.creator.includes(canonicalKey("Author")));
 * assert.ok(FIELD_KEYS.subject.includes(canonicalKey("Keyword")));
 * ```
 */
export const FIELD_KEYS: Readonly<Record<FieldName, readonly string[]>> = Object.freeze(KEYS);
