/**
 * The datasets of the sample store and a public, read-only description of each, so tests and
 * the demo can find "the dataset with no metadata" or "the Parquet file" without hard-coding
 * paths.
 *
 * @module
 */

import { DEMO_DATASET_PATH, FORMATS_PATH, MANY_FILES_PATH } from "./constants.ts";
import { datasetPath, type DatasetSpec, type MetadataStyle } from "./dataset_spec.ts";
import { barley } from "./datasets/barley.ts";
import { co2, co2Deprecated } from "./datasets/co2.ts";
import { earthquakes } from "./datasets/earthquakes.ts";
import { flights } from "./datasets/flights.ts";
import { gapminder } from "./datasets/gapminder.ts";
import { penguins } from "./datasets/penguins.ts";
import { species } from "./datasets/species.ts";
import { staging } from "./datasets/staging.ts";
import { unemployment } from "./datasets/unemployment.ts";
import { volcano } from "./datasets/volcano.ts";
import { weatherV1, weatherV2 } from "./datasets/weather.ts";
import { wind } from "./datasets/wind.ts";

export type { MetadataStyle } from "./dataset_spec.ts";

/**
 * Every dataset folder the builder writes: twelve published datasets, one deprecated one
 * (also under `curated/`) and one in staging.
 *
 * @example
 * ```ts
 * import { DATASET_SPECS } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new Set(DATASET_SPECS.map((d) => d.name)).size, DATASET_SPECS.length);
 * ```
 */
export const DATASET_SPECS: readonly DatasetSpec[] = [
  penguins,
  barley,
  co2,
  earthquakes,
  gapminder,
  flights,
  volcano,
  weatherV1,
  weatherV2,
  wind,
  species,
  unemployment,
  co2Deprecated,
  staging,
];

/**
 * What a sample dataset holds, as tests and the demo see it.
 *
 * @example
 * ```ts
 * import { SAMPLE_DATASETS, type SampleDataset } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * const noMetadata: SampleDataset | undefined = SAMPLE_DATASETS.find((d) => d.style === "none");
 * assert.equal(noMetadata?.doi, null);
 * ```
 */
export interface SampleDataset {
  /** Folder name, e.g. `Gorman_PalmerPenguins_Morphometrics_2020`. */
  readonly name: string;
  /** Data-store path of the folder. */
  readonly path: string;
  /** Which metadata generation its AVUs follow (`none`: no AVUs at all). */
  readonly style: MetadataStyle;
  /** Title as its README states it (the AVUs may spell the key differently, or lack it). */
  readonly title: string;
  /** Creators in citation order. */
  readonly creators: readonly string[];
  /** Publication year. */
  readonly year: string;
  /** The rights value exactly as stored; `""` when stored empty, null when absent. */
  readonly license: string | null;
  /** Canonical DOI (`10.…`), null when absent or stored empty. */
  readonly doi: string | null;
  /** Canonical ARK (`ark:/NAAN/name`), null when absent. */
  readonly ark: string | null;
  /** Data-store paths of its files, README.txt first. */
  readonly files: readonly string[];
  /** True for the `_deprecated_` folder. */
  readonly deprecated: boolean;
  /** True for the dataset in `commons_repo/staging`. */
  readonly staging: boolean;
}

function describe(spec: DatasetSpec): SampleDataset {
  const path = datasetPath(spec);
  return Object.freeze({
    name: spec.name,
    path,
    style: spec.style,
    title: spec.title,
    creators: Object.freeze([...spec.creators]),
    year: spec.year,
    license: spec.license,
    doi: spec.doi ?? null,
    ark: spec.ark ?? null,
    files: Object.freeze([`${path}/README.txt`, ...spec.files.map((f) => `${path}/${f.path}`)]),
    deprecated: spec.name.startsWith("_deprecated_"),
    staging: spec.style === "partial",
  });
}

/**
 * All sample datasets (published, deprecated and staging), in a fixed order.
 *
 * @example Find the published datasets that have a DOI
 * ```ts
 * import { SAMPLE_DATASETS } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * const withDoi = SAMPLE_DATASETS.filter((d) => d.doi && !d.deprecated && !d.staging);
 * assert.ok(withDoi.length >= 6);
 * ```
 */
export const SAMPLE_DATASETS: readonly SampleDataset[] = Object.freeze(
  DATASET_SPECS.map(describe),
);

/**
 * Paths of notable cases in the sample store (see {@linkcode SAMPLE_CASES}).
 *
 * @example
 * ```ts
 * import { SAMPLE_CASES, type SampleCases } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * const cases: SampleCases = SAMPLE_CASES;
 * assert.ok(cases.noMetadata.includes("/curated/"));
 * ```
 */
export interface SampleCases {
  /** Complete nested DataCite 4.x metadata, DOI + ARK, comments on folder and file. */
  readonly fullMetadata: string;
  /** Flat `datacite.*` template: trailing-TAB key, publicationyear twice, /b7946/ ARK. */
  readonly flatTemplate: string;
  /** Capitalised keys and a `doi:`-prefixed DOI. */
  readonly capitalisedKeys: string;
  /** `https://doi.org/` DOI, misspelt `identiferType`, long custom licence, NDJSON. */
  readonly doiUrlAndTypo: string;
  /** DOI stored with a leading TAB, organisation creator, comma-joined subjects. */
  readonly leadingTabDoi: string;
  /** ARK (`87946/…` shape) without a DOI; large Parquet and Arrow files. */
  readonly arkOnly: string;
  /** Empty identifier, rights, version and language values; PNG images. */
  readonly emptyValues: string;
  /** Two datasets with exactly the same title (versions 1 and 2). */
  readonly sameTitle: readonly [string, string];
  /** ORCID, nested fundingReference, `contributer`, `CC-BY-NC-4.0`, TSV. */
  readonly fundingAndOrcid: string;
  /** No DOI and no ARK; gzip'd CSV. */
  readonly noIdentifier: string;
  /** No metadata sidecar at all. */
  readonly noMetadata: string;
  /** The `_deprecated_` folder (`is_deprecated` = true). */
  readonly deprecated: string;
  /** A dataset in staging with partial metadata. */
  readonly staging: string;
  /** The demo user's own, unpublished dataset. */
  readonly userDataset: string;
  /** 13.5 MB Parquet file (3,000,000 rows). */
  readonly parquetLarge: string;
  /** 1.6 MB Arrow IPC file (200,000 rows). */
  readonly arrowLarge: string;
  /** A gzip'd CSV inside a dataset. */
  readonly csvGz: string;
  /** NDJSON inside a dataset. */
  readonly ndjson: string;
  /** TSV inside a dataset without metadata. */
  readonly tsv: string;
  /** A file with AVUs and a comment. */
  readonly fileWithMetadata: string;
  /** The many-files folder. */
  readonly manyFiles: string;
  /** The folder with one file per format. */
  readonly formats: string;
}

/**
 * Where each notable case lives, by what a test needs rather than by name.
 *
 * @example
 * ```ts
 * import { SAMPLE_CASES } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(SAMPLE_CASES.parquetLarge.endsWith(".parquet"));
 * assert.equal(SAMPLE_CASES.sameTitle.length, 2);
 * ```
 */
export const SAMPLE_CASES: SampleCases = Object.freeze({
  fullMetadata: datasetPath(penguins),
  flatTemplate: datasetPath(barley),
  capitalisedKeys: datasetPath(co2),
  doiUrlAndTypo: datasetPath(earthquakes),
  leadingTabDoi: datasetPath(gapminder),
  arkOnly: datasetPath(flights),
  emptyValues: datasetPath(volcano),
  sameTitle: Object.freeze([datasetPath(weatherV1), datasetPath(weatherV2)] as const),
  fundingAndOrcid: datasetPath(wind),
  noIdentifier: datasetPath(species),
  noMetadata: datasetPath(unemployment),
  deprecated: datasetPath(co2Deprecated),
  staging: datasetPath(staging),
  userDataset: DEMO_DATASET_PATH,
  parquetLarge: `${datasetPath(flights)}/flights_3m.parquet`,
  arrowLarge: `${datasetPath(flights)}/flights_200k.arrow`,
  csvGz: `${datasetPath(species)}/species_habitat_by_county.csv.gz`,
  ndjson: `${datasetPath(earthquakes)}/events.ndjson`,
  tsv: `${datasetPath(unemployment)}/unemployment_2009.tsv`,
  fileWithMetadata: `${datasetPath(penguins)}/penguins.csv`,
  manyFiles: MANY_FILES_PATH,
  formats: FORMATS_PATH,
});
