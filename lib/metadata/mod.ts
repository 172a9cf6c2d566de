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
export type { AvuLike } from "./avus.ts";
export {
  type Citable,
  CITATION_STYLES,
  type CitationStyle,
  joinCitations,
  namesDataset,
} from "./citation.ts";
export {
  type Contributor,
  type Creator,
  DatasetMetadata,
  type Funding,
  type MetadataField,
  type RawDatasetMetadata,
  type RelatedIdentifier,
} from "./dataset_metadata.ts";
export { doiUrl, normalizeDoi } from "./doi.ts";
export { type License, type LicenseConfidence } from "./license.ts";
export { type NameHints, normalizeOrcid, type ParsedName, parseName } from "./names.ts";
export { type MetadataInput, normalizeMetadata, type NormalizeOptions } from "./normalize.ts";
