/**
 * {@linkcode DatasetMetadata}: a dataset's metadata as one clean, typed record — what to cite
 * and how to find it — with the raw AVUs kept beside it, where each field came from, and what a
 * complete citation still lacks.
 *
 * @module
 */

import type { AvuLike } from "./avus.ts";
import { type CitationStyle, formatCitation, linkOf } from "./citation.ts";
import type { License } from "./license.ts";
import type { Contributor, Creator, Funding, RelatedIdentifier } from "./record_parts.ts";

export type { Contributor, Creator, Funding, RelatedIdentifier };

/**
 * A dataset's metadata as served, before normalisation: the template AVUs (where Data Commons
 * keeps its DataCite fields), the raw iRODS AVUs, and the path.
 *
 * @example
 * ```ts
 * import type { RawDatasetMetadata } from "./dataset_metadata.ts";
 *
 * const empty: RawDatasetMetadata = { path: "/iplant/home/shared/x", avus: [], irodsAvus: [] };
 * ```
 */
export interface RawDatasetMetadata {
  /** The data-store path. */
  path: string;
  /** Template AVUs exactly as served (nested sub-properties, attribute spellings kept). */
  avus: AvuLike[];
  /** Raw iRODS AVUs. */
  irodsAvus: AvuLike[];
}

/**
 * The normalised fields of a dataset record.
 *
 * @example
 * ```ts
 * import type { MetadataField } from "./dataset_metadata.ts";
 *
 * const citationFields: MetadataField[] = ["creators", "title", "publicationYear", "publisher", "doi"];
 * ```
 */
export type MetadataField =
  | "title"
  | "creators"
  | "publicationYear"
  | "publisher"
  | "description"
  | "doi"
  | "ark"
  | "subjects"
  | "license"
  | "resourceType"
  | "resourceTypeGeneral"
  | "version"
  | "contributors"
  | "relatedIdentifiers"
  | "funding"
  | "dateModified"
  | "deprecated";

/** Every field, in the order the record lists them. */
const FIELD_ORDER: readonly MetadataField[] = [
  "title",
  "creators",
  "publicationYear",
  "publisher",
  "description",
  "doi",
  "ark",
  "subjects",
  "license",
  "resourceType",
  "resourceTypeGeneral",
  "version",
  "contributors",
  "relatedIdentifiers",
  "funding",
  "dateModified",
  "deprecated",
];

/** What a complete citation needs, in citation order; `missing` lists those a record lacks. */
const CITATION_FIELDS: readonly MetadataField[] = Object.freeze([
  "creators",
  "title",
  "publicationYear",
  "publisher",
  "doi",
]);

/**
 * Everything a {@linkcode DatasetMetadata} holds; `normalizeMetadata` makes it from AVUs.
 *
 * @example
 * ```ts
 * import type { DatasetMetadataInit } from "./dataset_metadata.ts";
 *
 * const minimal: DatasetMetadataInit = {
 *   path: "/iplant/home/shared/x", creators: [], subjects: [], contributors: [],
 *   relatedIdentifiers: [], funding: [], deprecated: false,
 *   raw: { path: "/iplant/home/shared/x", avus: [], irodsAvus: [] }, sources: {}, notes: [],
 * };
 * ```
 */
export type DatasetMetadataInit<R extends RawDatasetMetadata = RawDatasetMetadata> = Pick<
  DatasetMetadata<R>,
  MetadataField | "path" | "id" | "raw" | "sources" | "notes"
>;

/**
 * A dataset's metadata, normalised from whichever template generation and spelling it was
 * stored in. Absent fields are `undefined` (lists are empty); nothing is invented: an
 * identifier that does not parse is not reported, a licence is only identified as far as its
 * text allows (see `license.confidence`). `raw` keeps the AVUs as served, `sources` says which
 * attribute fed each field, `missing` what a complete citation still lacks and `notes` what was
 * left aside.
 *
 * The record also reads like the raw metadata of any handle (`path`, `avus`, `irodsAvus`, typed
 * by `R`), so code written for `handle.metadata()` works on a dataset too.
 *
 * @example
 * ```ts
 * import { normalizeMetadata } from "./normalize.ts";
 * import assert from "node:assert/strict";
 *
 * const metadata = await normalizeMetadata({
 *   path: "/iplant/home/shared/commons_repo/curated/Li_Sorghum_2022",
 *   avus: [
 *     { attr: "datacite.title", value: "Segmented sorghum plants" },
 *     { attr: "datacite.creator", value: "Li, Bosheng" },
 *     { attr: "datacite.publicationyear", value: "2022" },
 *     { attr: "Identifier", value: "doi:10.25739/4fh7-y927" },
 *   ],
 * });
 * assert.equal(metadata.doi, "10.25739/4fh7-y927");
 * assert.deepEqual(metadata.missing, ["publisher"]);
 * assert.equal(
 *   await metadata.citation(),
 *   "Li, B. (2022). Segmented sorghum plants. https://doi.org/10.25739/4fh7-y927",
 * );
 * ```
 */
export class DatasetMetadata<R extends RawDatasetMetadata = RawDatasetMetadata> {
  /** The dataset folder's data-store path (`""` when the AVUs came from elsewhere). */
  readonly path!: string;
  /** The folder's id, when known. */
  readonly id?: string;
  /** Title. */
  readonly title?: string;
  /** Creators, in citation order. */
  readonly creators: readonly Creator[];
  /** Publication year. */
  readonly publicationYear?: number;
  /** Publisher. */
  readonly publisher?: string;
  /** Description (the abstract when one is marked so). */
  readonly description?: string;
  /** DOI, canonical `10.x/y`. */
  readonly doi?: string;
  /** ARK, canonical `ark:/NAAN/name`. */
  readonly ark?: string;
  /** Subjects, split and de-duplicated. */
  readonly subjects: readonly string[];
  /** Licence. */
  readonly license?: License;
  /** Resource type, free text. */
  readonly resourceType?: string;
  /** DataCite `resourceTypeGeneral`. */
  readonly resourceTypeGeneral?: string;
  /** Version. */
  readonly version?: string;
  /** Contributors. */
  readonly contributors: readonly Contributor[];
  /** Related identifiers. */
  readonly relatedIdentifiers: readonly RelatedIdentifier[];
  /** Funding references. */
  readonly funding: readonly Funding[];
  /** Last modification: a date-modified attribute, else the folder's date from the service. */
  readonly dateModified?: Date;
  /** Marked deprecated (`_deprecated_` folder name or a true `is_deprecated`). */
  readonly deprecated!: boolean;
  /** The metadata as served (for a dataset handle: path, template AVUs and iRODS AVUs). */
  readonly raw!: R;
  /** For each field, the attribute it came from (`a + b` when several fed a list). */
  readonly sources: Readonly<Partial<Record<MetadataField, string>>>;
  /** What a complete citation still lacks, from {@linkcode CITATION_FIELDS}. */
  readonly missing: readonly MetadataField[];
  /** What was left aside, and why (an invalid DOI, an unpaired flat attribute, …). */
  readonly notes: readonly string[];

  /**
   * Freezes a record; `normalizeMetadata` is the usual way to make one.
   *
   * @example
   * ```ts
   * import { DatasetMetadata } from "./dataset_metadata.ts";
   * import assert from "node:assert/strict";
   *
   * const none = new DatasetMetadata({
   *   path: "/iplant/home/shared/x", creators: [], subjects: [], contributors: [],
   *   relatedIdentifiers: [], funding: [], deprecated: false,
   *   raw: { path: "/iplant/home/shared/x", avus: [], irodsAvus: [] }, sources: {}, notes: [],
   * });
   * assert.deepEqual(none.missing, ["creators", "title", "publicationYear", "publisher", "doi"]);
   * ```
   */
  constructor(init: DatasetMetadataInit<R>) {
    const { creators, subjects, license, contributors, relatedIdentifiers, funding, ...plain } =
      init;
    // The class declares every field (undefined until set), so assigning an absent one is a no-op.
    Object.assign(this, plain);
    this.creators = Object.freeze(creators.map((c) => Object.freeze({ ...c })));
    this.subjects = Object.freeze([...subjects]);
    if (license !== undefined) this.license = Object.freeze({ ...license });
    this.contributors = Object.freeze(contributors.map((c) => Object.freeze({ ...c })));
    this.relatedIdentifiers = Object.freeze(relatedIdentifiers.map((r) => Object.freeze({ ...r })));
    this.funding = Object.freeze(funding.map((f) => Object.freeze({ ...f })));
    if (init.dateModified !== undefined) this.dateModified = new Date(init.dateModified);
    // In field order, whatever order the normaliser read them in.
    this.sources = Object.freeze(Object.fromEntries(
      FIELD_ORDER.filter((field) => init.sources[field] !== undefined)
        .map((field) => [field, init.sources[field]]),
    ));
    this.notes = Object.freeze([...init.notes]);
    this.missing = Object.freeze(CITATION_FIELDS.filter((field) => {
      const value = this[field as keyof this];
      return value === undefined || (Array.isArray(value) && value.length === 0);
    }));
    Object.freeze(this);
  }

  /** The template AVUs as served (same as `raw.avus`), as on any handle's raw metadata. */
  get avus(): R["avus"] {
    return this.raw.avus;
  }

  /** The raw iRODS AVUs as served (same as `raw.irodsAvus`). */
  get irodsAvus(): R["irodsAvus"] {
    return this.raw.irodsAvus;
  }

  /** The resolver link: `https://doi.org/…` for a DOI, else `https://n2t.net/ark:/…`. */
  get url(): string | undefined {
    return linkOf(this);
  }

  /**
   * The dataset's citation in a style: `datacite` (default: `Family, G., Family, G. (Year).
   * Title. Version. Publisher. https://doi.org/…`), `apa`, `bibtex`, `ris` or `csl-json`. Without
   * a DOI it links the ARK; without either, it gives the data-store path. Parts the metadata
   * lacks are left out (see `missing`); a missing title is stood in for by the folder name in
   * square brackets.
   *
   * @throws {BadRequestError} for an unknown style.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const metadata = await store.dataset(
   *   "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
   * ).metadata();
   * assert.match(await metadata.citation("apa"), /^Gorman, K\. B\., Williams, T\. D\., & Fraser/);
   * assert.match(await metadata.citation("bibtex"), /^@/);
   * ```
   */
  citation(style: CitationStyle = "datacite"): Promise<string> {
    return formatCitation(this, style);
  }

  /** The record as plain JSON (dates as ISO strings, raw AVUs included). */
  toJSON(): Record<string, unknown> {
    return {
      ...this.#fields(),
      dateModified: this.dateModified?.toISOString(),
      raw: this.raw,
    };
  }

  /** `Deno.inspect` and notebooks' plain output: the normalised fields, raw AVUs counted. */
  [Symbol.for("Deno.customInspect")](
    inspect: (value: unknown, options: unknown) => string,
    options: unknown,
  ): string {
    const raw = `[${this.raw.avus.length} AVUs, ${this.raw.irodsAvus.length} iRODS AVUs]`;
    return `DatasetMetadata ${inspect({ ...this.#fields(), raw }, options)}`;
  }

  #fields(): Record<string, unknown> {
    const { raw: _, ...fields } = this;
    return fields;
  }
}
