/**
 * Dataset metadata: raw AVUs of any Data Commons template generation → one clean, typed
 * {@linkcode DatasetMetadata}; DOIs, ARKs, ORCID iDs and licences normalised honestly;
 * citations in DataCite, APA, BibTeX, RIS and CSL-JSON; catalog rows and frames. Pure functions:
 * no requests, so they work on AVUs from anywhere.
 *
 * @example
 * ```ts
 * import { normalizeMetadata } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const metadata = await normalizeMetadata([
 *   { attr: "datacite.title", value: "Barley yields" },
 *   { attr: "Identifier", value: "10.7946/P2C35G" },
 * ]);
 * assert.equal(await metadata.citation(), "Barley yields. https://doi.org/10.7946/P2C35G");
 * ```
 *
 * @module
 */

export { type ArkOptions, arkUrl, normalizeArk } from "./ark.ts";
export {
  type Attribute,
  AttributeGroup,
  attributeGroup,
  type AvuLike,
  avusFromRecord,
} from "./avus.ts";
export {
  CATALOG_COLUMNS,
  type CatalogFailure,
  catalogFrame,
  type CatalogRow,
  catalogRows,
  titleKey,
} from "./catalog.ts";
export {
  type Citable,
  CITATION_STYLES,
  citationKey,
  type CitationStyle,
  dataciteCitation,
  formatCitation,
  joinCitations,
  namesDataset,
  toCsl,
} from "./citation.ts";
export { CFF_VERSION, cffText, toCff } from "./cff.ts";
export { type CslItem } from "./citejs.ts";
export { type JsonLdNode, toJsonLd } from "./jsonld.ts";
export {
  CITATION_FIELDS,
  type Contributor,
  type Creator,
  DatasetMetadata,
  type DatasetMetadataInit,
  type Funding,
  type MetadataField,
  type RawDatasetMetadata,
  type RelatedIdentifier,
} from "./dataset_metadata.ts";
export { doiUrl, isDoi, normalizeDoi, sameDoi } from "./doi.ts";
export { canonicalKey, FIELD_KEYS, type FieldName, isFieldKey } from "./keys.ts";
export {
  type License,
  type LicenseConfidence,
  type LicenseHints,
  licenseUrl,
  loadSpdxCorrect,
  normalizeLicense,
  type SpdxCorrect,
} from "./license.ts";
export {
  initials,
  type NamedParty,
  type NameHints,
  normalizeOrcid,
  orcidCheckDigit,
  type ParsedName,
  parseName,
  samePerson,
  uniquePeople,
} from "./names.ts";
export {
  type MetadataInput,
  normalizeMetadata,
  type NormalizeOptions,
  normalizeWith,
} from "./normalize.ts";
