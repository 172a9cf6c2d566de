/**
 * The parts a dataset's metadata record is made of (creators, contributors, related
 * identifiers, funding), apart from the record itself so that citation code can name them
 * without importing the record.
 *
 * @module
 */

import type { ParsedName } from "./names.ts";

/**
 * A creator of a dataset: a person (`family`, usually `given`) or an organisation (`name`
 * only).
 *
 * @example
 * ```ts
 * import type { Creator } from "./record_parts.ts";
 *
 * const creator: Creator = {
 *   name: "Carberry, Josiah", family: "Carberry", given: "Josiah",
 *   affiliation: "Brown University", orcid: "0000-0002-1825-0097",
 * };
 * ```
 */
export interface Creator extends ParsedName {
  /** Affiliation(s), `; `-separated when several. */
  affiliation?: string;
  /** ORCID iD, `0000-0002-1825-0097` (check digit verified). */
  orcid?: string;
}

/**
 * A contributor: a {@linkcode Creator} with DataCite's `contributorType` (`ContactPerson`,
 * `DataManager`, …) when stored.
 *
 * @example
 * ```ts
 * import type { Contributor } from "./record_parts.ts";
 *
 * const contact: Contributor = { name: "Okafor, Chidi", family: "Okafor", given: "Chidi", type: "DataManager" };
 * ```
 */
export interface Contributor extends Creator {
  /** `contributorType`, as stored. */
  type?: string;
}

/**
 * An identifier of a related work (a paper, an earlier version, a source).
 *
 * @example
 * ```ts
 * import type { RelatedIdentifier } from "./record_parts.ts";
 *
 * const paper: RelatedIdentifier = {
 *   identifier: "10.1371/journal.pone.0090081", identifierType: "DOI",
 *   relationType: "IsDocumentedBy", url: "https://doi.org/10.1371/journal.pone.0090081",
 * };
 * ```
 */
export interface RelatedIdentifier {
  /** The identifier; DOIs and ARKs in canonical form, anything else as stored. */
  identifier: string;
  /** `DOI`, `ARK`, `URL`, … — only when the value really is one (stated or recognised). */
  identifierType?: string;
  /** DataCite `relationType` (`IsDocumentedBy`, `IsNewVersionOf`, …). */
  relationType?: string;
  /** A resolvable link, for DOIs, ARKs and URLs. */
  url?: string;
}

/**
 * A funding reference.
 *
 * @example
 * ```ts
 * import type { Funding } from "./record_parts.ts";
 *
 * const nsf: Funding = {
 *   funderName: "National Science Foundation", funderIdentifier: "https://ror.org/021nxhr62",
 *   funderIdentifierType: "ROR", awardNumber: "AGS-1923456",
 * };
 * ```
 */
export interface Funding {
  /** The funder. */
  funderName?: string;
  /** The funder's identifier (ROR, Crossref Funder ID, …), as stored. */
  funderIdentifier?: string;
  /** Its scheme. */
  funderIdentifierType?: string;
  /** The award or grant number. */
  awardNumber?: string;
  /** A link to the award. */
  awardUri?: string;
  /** The award's title. */
  awardTitle?: string;
}
