/**
 * Maunga Whau (Mt Eden) elevation grid, with PNG renderings made from the grid. Its metadata
 * is the "half-filled template" case: empty identifier, empty rights, empty name identifier,
 * empty version and language, and empty geolocation containers.
 *
 * @module
 */

import { type DatasetSpec, once } from "../dataset_spec.ts";
import { toDelimited } from "../conversions.ts";
import { encodePng, renderGrid } from "../png.ts";
import { avu, repeated } from "../sidecars.ts";
import type { VegaDatasets } from "../vega.ts";

interface Grid {
  width: number;
  height: number;
  values: number[];
}

async function grid(vega: VegaDatasets): Promise<Grid> {
  const g = await vega.json<Grid>("volcano.json");
  if (g.values?.length !== g.width * g.height) {
    throw new Error("volcano.json: values do not fill width x height");
  }
  return g;
}

const gridCsv = once(async (vega) => {
  const g = await grid(vega);
  const rows = g.values.map((elevation, i) => ({
    row: Math.floor(i / g.width) + 1,
    col: (i % g.width) + 1,
    elevation_m: elevation,
  }));
  return toDelimited(rows);
});

const elevationPng = (scale: number) =>
  once(async (vega) => {
    const g = await grid(vega);
    return encodePng(renderGrid(g.values, g.width, g.height, scale));
  });

const TITLE = "Topographic elevation grid of Maunga Whau (Mt Eden), Auckland";
const DESCRIPTION =
  "Elevation (metres) of Maunga Whau (Mt Eden), a scoria cone of the Auckland volcanic " +
  "field, on a 10 m by 10 m grid covering 870 m by 610 m (87 by 61 points). Digitised from " +
  "a topographic map by Ross Ihaka; known from R's datasets package. It should not be " +
  "regarded as accurate.";

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { volcano } from "./volcano.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(volcano.license, "");
 * ```
 */
export const volcano: DatasetSpec = {
  name: "Ihaka_MaungaWhauElevation_2019",
  style: "datacite-4",
  title: TITLE,
  creators: ["Ihaka, Ross"],
  year: "2019",
  description: DESCRIPTION,
  license: "",
  deposited: "2019-05-28T03:40:00Z",
  curated: "2019-05-28T04:10:00Z",
  avus: [
    avu("title", TITLE),
    avu(
      "creator",
      "Ihaka, Ross",
      avu("affiliation", "University of Auckland"),
      avu("nameIdentifier", "", avu("nameIdentifierScheme", "ORCID")),
    ),
    avu("publisher", "CyVerse Data Commons"),
    avu("publicationYear", "2019"),
    avu("resourceType", "Image data", avu("resourceTypeGeneral", "Image")),
    ...repeated("subject", "volcano", "digital elevation model", "Auckland volcanic field"),
    avu("description", DESCRIPTION, avu("descriptionType", "Abstract")),
    avu("identifier", "", avu("identifierType", "DOI")),
    avu("rights", ""),
    avu(
      "geoLocation",
      "",
      avu("geoLocationPlace", "Maunga Whau (Mt Eden), Auckland, New Zealand"),
      avu(
        "geoLocationPoint",
        "",
        avu("pointLatitude", "-36.8767"),
        avu("pointLongitude", "174.7636"),
      ),
      avu("geoLocationBox", ""),
    ),
    avu("language", ""),
    avu("version", ""),
  ],
  files: [
    {
      path: "elevation_grid.csv",
      note: "Long format: row (1-61) and col (1-87) of the source grid, elevation_m",
      source: "volcano.json",
      produce: gridCsv,
    },
    {
      path: "images/elevation.png",
      note: "Elevation map, viridis colours, 6 pixels per grid cell",
      source: "volcano.json",
      produce: elevationPng(6),
    },
    {
      path: "images/elevation_thumb.png",
      note: "Thumbnail, one pixel per grid cell",
      source: "volcano.json",
      produce: elevationPng(1),
    },
    {
      path: "raw/volcano.json",
      note: "The grid as distributed: width, height and row-major values",
      source: "volcano.json",
    },
  ],
};
