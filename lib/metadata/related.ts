/**
 * Related identifiers (papers, earlier versions, sources): DOIs and ARKs canonical, types stated
 * only when the value really is of that type, relation types in DataCite's spelling.
 *
 * @module
 */

import { arkUrl, normalizeArk } from "./ark.ts";
import type { RelatedIdentifier } from "./dataset_metadata.ts";
import { doiUrl, normalizeDoi } from "./doi.ts";
import { FIELD_KEYS } from "./keys.ts";
import type { Reader } from "./reader.ts";

/** DataCite `relationType` vocabulary (4.5), for canonical spelling. */
const RELATION_TYPES = [
  "IsCitedBy",
  "Cites",
  "IsSupplementTo",
  "IsSupplementedBy",
  "IsContinuedBy",
  "Continues",
  "IsDescribedBy",
  "Describes",
  "HasMetadata",
  "IsMetadataFor",
  "HasVersion",
  "IsVersionOf",
  "IsNewVersionOf",
  "IsPreviousVersionOf",
  "IsPartOf",
  "HasPart",
  "IsPublishedIn",
  "IsReferencedBy",
  "References",
  "IsDocumentedBy",
  "Documents",
  "IsCompiledBy",
  "Compiles",
  "IsVariantFormOf",
  "IsOriginalFormOf",
  "IsIdenticalTo",
  "IsReviewedBy",
  "Reviews",
  "IsDerivedFrom",
  "IsSourceOf",
  "IsRequiredBy",
  "Requires",
  "IsObsoletedBy",
  "Obsoletes",
  "IsCollectedBy",
  "Collects",
  "IsTranslationOf",
  "HasTranslation",
];

/** DataCite `relatedIdentifierType` vocabulary (4.5), for canonical spelling. */
const IDENTIFIER_TYPES = [
  "ARK",
  "arXiv",
  "bibcode",
  "CSTR",
  "DOI",
  "EAN13",
  "EISSN",
  "Handle",
  "IGSN",
  "ISBN",
  "ISSN",
  "ISTC",
  "LISSN",
  "LSID",
  "PMID",
  "PURL",
  "RRID",
  "UPC",
  "URL",
  "URN",
  "w3id",
];

/**
 * The related identifiers a reader's attributes hold: the value with its type and relation (nested or paired
 * flat attributes). A value stated to be a DOI or ARK that does not parse as one loses the type
 * (and a note says so); an untyped DOI, ARK or URL is recognised by shape.
 *
 * @example
 * ```ts
 * import { attributeGroup } from "./avus.ts";
 * import { Reader } from "./reader.ts";
 * import { relatedIdentifiers } from "./related.ts";
 * import assert from "node:assert/strict";
 *
 * const read = new Reader(attributeGroup([
 *   { attr: "RelatedIdentifier", value: "doi:10.7946/P2H59V" },
 *   { attr: "relatedIdentifierType", value: "doi" },
 *   { attr: "relationType", value: "isnewversionof" },
 * ]));
 * assert.deepEqual(relatedIdentifiers(read), [{
 *   identifier: "10.7946/P2H59V", identifierType: "DOI", relationType: "IsNewVersionOf",
 *   url: "https://doi.org/10.7946/P2H59V",
 * }]);
 *
 * const wrong = new Reader(attributeGroup([
 *   { attr: "RelatedIdentifier", value: "10.1234/not a doi" },
 *   { attr: "relatedIdentifierType", value: "DOI" },
 * ]));
 * assert.deepEqual(relatedIdentifiers(wrong), [{ identifier: "10.1234/not a doi" }]);
 * assert.match(wrong.notes[0], /is not a valid DOI; kept untyped/);
 * ```
 */
export function relatedIdentifiers(read: Reader): RelatedIdentifier[] {
  const slots = read.group.slots(FIELD_KEYS.relatedIdentifier);
  const types = read.paired(slots, "relatedIdentifiers", FIELD_KEYS.relatedIdentifierType);
  const relations = read.paired(slots, "relatedIdentifiers", FIELD_KEYS.relationType);
  const related: RelatedIdentifier[] = [];
  const attrs: string[] = [];
  slots.forEach((slot, index) => {
    if (slot.value === "") return;
    const entry = identify(slot.value, types.values[index][0] ?? "", read);
    const relation = relations.values[index][0];
    if (relation !== undefined) {
      entry.relationType = RELATION_TYPES.find((t) => t.toLowerCase() === relation.toLowerCase()) ??
        relation;
    }
    related.push(entry);
    attrs.push(slot.attr);
  });
  read.source("relatedIdentifiers", [...attrs, ...types.attrs, ...relations.attrs]);
  return related;
}

function identify(value: string, stated: string, read: Reader): RelatedIdentifier {
  const type = IDENTIFIER_TYPES.find((t) => t.toLowerCase() === stated.toLowerCase()) ??
    (stated === "" ? undefined : stated);
  const forms: [string, string | undefined, (id: string) => string, string][] = [
    ["DOI", normalizeDoi(value), doiUrl, "a valid DOI"],
    ["ARK", normalizeArk(value, { bare: type === "ARK" }), arkUrl, "a valid ARK"],
    ["URL", /^https?:\/\/\S+$/i.test(value) ? value : undefined, (url) => url, "a URL"],
  ];
  // A stated type must hold; without one, the first form the value has is its type.
  for (const [name, found, link, what] of forms) {
    if (type !== name && (type !== undefined || found === undefined)) continue;
    if (found !== undefined) return { identifier: found, identifierType: name, url: link(found) };
    read.note(`relatedIdentifiers: ${JSON.stringify(value)} is not ${what}; kept untyped`);
    return { identifier: value };
  }
  return type === undefined ? { identifier: value } : { identifier: value, identifierType: type };
}
