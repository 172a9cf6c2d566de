/**
 * USGS GAP species habitat by county: the gzip'd CSV of the store (made with
 * CompressionStream) and a TopoJSON in a subfolder. Published with neither a DOI nor an ARK.
 *
 * @module
 */

import { type DatasetSpec, once } from "../dataset_spec.ts";
import { gzip } from "../conversions.ts";
import { avu, avuWithUnit, repeated } from "../sidecars.ts";

const TITLE = "Year-round habitat of four common species by US county (USGS GAP)";
const DESCRIPTION =
  "Percentage of each contiguous-US county that is year-round habitat for the American " +
  "robin, white-tailed deer, American bullfrog and common gartersnake, from the USGS Gap " +
  "Analysis Project species habitat maps (30 m rasters, Albers equal-area, EPSG:5070) " +
  "overlaid on Census Bureau county boundaries with exactextract zonal statistics.";

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { species } from "./species.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(species.ark, undefined);
 * ```
 */
export const species: DatasetSpec = {
  name: "USGS_GAP_SpeciesHabitat_2023",
  style: "datacite-4",
  title: TITLE,
  creators: ["U.S. Geological Survey, Gap Analysis Project"],
  year: "2023",
  description: DESCRIPTION,
  license: "CC0",
  deposited: "2023-01-17T17:00:00Z",
  curated: "2023-01-18T10:20:00Z",
  avus: [
    avu("title", TITLE),
    avu("creator", "U.S. Geological Survey, Gap Analysis Project"),
    avu("publisher", "CyVerse Data Commons"),
    avu("publicationYear", "2023"),
    avu("resourceType", "Tabular data", avu("resourceTypeGeneral", "Dataset")),
    ...repeated("subject", "habitat", "biodiversity", "species distribution"),
    avu("description", DESCRIPTION, avu("descriptionType", "Abstract")),
    avu("rights", "CC0", avu("rightsIdentifier", "CC0-1.0")),
    avu(
      "relatedIdentifier",
      "https://www.usgs.gov/programs/gap-analysis-project",
      avu("relatedIdentifierType", "URL"),
      avu("relationType", "IsDerivedFrom"),
    ),
    avu("compressed_data", "true"),
    ...repeated("format", "csv.gz", "topojson"),
  ],
  files: [
    {
      path: "species_habitat_by_county.csv.gz",
      note: "Gzip'd CSV: item_id, common_name, scientific_name, county_id, habitat %",
      source: "species.csv",
      produce: once(async (vega) => gzip(await vega.bytes("species.csv"))),
      avus: [avu("compression", "gzip"), avuWithUnit("uncompressed_size", "1034744", "bytes")],
    },
    {
      path: "boundaries/us_counties_10m.topojson",
      note: "US county and state boundaries, 1:10,000,000, TopoJSON",
      source: "us-10m.json",
    },
  ],
};
