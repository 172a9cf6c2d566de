/**
 * A dataset's metadata as schema.org `Dataset` JSON-LD: what dataset search engines (Google
 * Dataset Search, DataCite's and re3data's harvesters) read from a landing page's
 * `<script type="application/ld+json">`.
 *
 * @module
 */

import { arkUrl } from "./ark.ts";
import { type Citable, linkOf, titleOf, uncasedName } from "./citable.ts";
import { doiUrl } from "./doi.ts";

/**
 * A schema.org node as plain JSON.
 *
 * @example
 * ```ts
 * import type { JsonLdNode } from "./jsonld.ts";
 *
 * const publisher: JsonLdNode = { "@type": "Organization", name: "CyVerse Data Commons" };
 * ```
 */
export type JsonLdNode = { [key: string]: string | string[] | JsonLdNode | JsonLdNode[] };

/**
 * The record as a schema.org `Dataset` node: `@context`, `@type`, `name` (the title, or the
 * folder name in brackets), `description`, `creator` (`Person` with given and family names,
 * affiliation and ORCID, or `Organization`), `datePublished`, `publisher`, `identifier` (the DOI
 * and ARK links; without either, the data-store path), `url`, `keywords`, `license` (a link when one is known), `version`. Fields the
 * record lacks are left out, never empty.
 *
 * @example
 * ```ts
 * import { toJsonLd } from "./jsonld.ts";
 * import assert from "node:assert/strict";
 *
 * const node = toJsonLd({
 *   path: "/iplant/home/shared/commons_repo/curated/Gapminder_2019",
 *   title: "Gapminder", description: "Life expectancy and fertility.",
 *   creators: [{ name: "Gapminder Foundation" }], publicationYear: 2019,
 *   doi: "10.25739/r8tn-3d6w", subjects: ["demography"],
 * });
 * assert.equal(node["@type"], "Dataset");
 * assert.deepEqual(node.creator, [{ "@type": "Organization", name: "Gapminder Foundation" }]);
 * assert.equal(node.url, "https://doi.org/10.25739/r8tn-3d6w");
 * ```
 */
export function toJsonLd(metadata: Citable): JsonLdNode {
  const node: JsonLdNode = {
    "@context": "https://schema.org/",
    "@type": "Dataset",
    name: titleOf(metadata) ?? "",
  };
  if (metadata.description !== undefined) node.description = metadata.description;
  if (metadata.creators.length > 0) node.creator = metadata.creators.map(agent);
  if (metadata.publicationYear !== undefined) {
    node.datePublished = String(metadata.publicationYear);
  }
  if (metadata.publisher !== undefined) {
    node.publisher = { "@type": "Organization", name: metadata.publisher };
  }
  const identifiers = [
    ...(metadata.doi === undefined ? [] : [doiUrl(metadata.doi)]),
    ...(metadata.ark === undefined ? [] : [arkUrl(metadata.ark)]),
  ];
  if (identifiers.length > 0) node.identifier = identifiers;
  // Without a DOI or ARK the data-store path is all that finds it, as in every other style.
  else if (metadata.path !== "") node.identifier = [metadata.path];
  const link = linkOf(metadata);
  if (link !== undefined) node.url = link;
  if (metadata.subjects.length > 0) node.keywords = [...metadata.subjects];
  const license = metadata.license;
  if (license !== undefined) {
    // An SPDX expression (`A AND B`) has no page of its own: it is given as text.
    node.license = license.url ??
      (license.id !== undefined && !license.id.includes(" ")
        ? `https://spdx.org/licenses/${license.id}.html`
        : license.id ?? license.name);
  }
  if (metadata.version !== undefined) node.version = metadata.version;
  return node;
}

/** A creator as a `Person` (family name known) or an `Organization`. */
function agent(creator: Citable["creators"][number]): JsonLdNode {
  if (creator.family === undefined) return { "@type": "Organization", name: creator.name };
  const person: JsonLdNode = {
    "@type": "Person",
    name: creator.given === undefined
      ? creator.family
      : uncasedName(creator)
      ? `${creator.family}${creator.given}`
      : `${creator.given} ${creator.family}`,
    familyName: creator.family,
  };
  if (creator.given !== undefined) person.givenName = creator.given;
  if (creator.orcid !== undefined) person.sameAs = `https://orcid.org/${creator.orcid}`;
  if (creator.affiliation !== undefined) {
    person.affiliation = creator.affiliation.split("; ").map((name) => ({
      "@type": "Organization",
      name,
    }));
  }
  return person;
}
