/**
 * Simulated wind vectors over north-western Europe. The creators here are illustrative
 * (Josiah Carberry is the well-known fictitious researcher behind ORCID's test iD). Covers an
 * ORCID name identifier, a three-level nested fundingReference, the `CC-BY-NC-4.0` spelling,
 * the misspelt `contributer` key, a geolocation box, and a TSV copy of the table.
 *
 * @module
 */

import { DEMO_USER } from "../constants.ts";
import { type DatasetSpec, once } from "../dataset_spec.ts";
import { type JsonRecord, toDelimited } from "../conversions.ts";
import { encodePng, renderGrid } from "../png.ts";
import { authored, avu, comment, repeated } from "../sidecars.ts";
import type { VegaDatasets } from "../vega.ts";

async function vectors(vega: VegaDatasets): Promise<JsonRecord[]> {
  // The source file has Windows (CRLF) line ends; the copy in the dataset keeps them.
  const [header, ...lines] = (await vega.text("windvectors.csv")).trimEnd().split(/\r?\n/);
  const names = header.split(",");
  return lines.map((line) => {
    const cells = line.split(",");
    return Object.fromEntries(names.map((n, i) => [n, Number(cells[i])]));
  });
}

const windTsv = once(async (vega) => toDelimited(await vectors(vega), "\t"));

// The source rows are not in grid order, so place each cell by its coordinates (0.25 degree
// spacing); north is up.
const speedPng = once(async (vega) => {
  const rows = await vectors(vega);
  const lons = [...new Set(rows.map((r) => r.longitude as number))].sort((a, b) => a - b);
  const lats = [...new Set(rows.map((r) => r.latitude as number))].sort((a, b) => b - a);
  const values = new Array<number>(lons.length * lats.length).fill(NaN);
  for (const r of rows) {
    values[lats.indexOf(r.latitude as number) * lons.length + lons.indexOf(r.longitude as number)] =
      r.speed as number;
  }
  return encodePng(renderGrid(values, lons.length, lats.length, 5));
});

const TITLE = "Simulated near-surface wind vectors over north-western Europe";
const DESCRIPTION =
  "Simulated wind direction (degrees, and binned to 45-degree categories) and speed on a " +
  "0.25-degree grid from 10 W to 10 E and 45 N to 60 N (80 by 60 cells). Provided for " +
  "teaching vector-field visualisation, not for forecasting or siting.";

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { wind } from "./wind.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(wind.license, "CC-BY-NC-4.0");
 * ```
 */
export const wind: DatasetSpec = {
  name: "Carberry_WindVectorSimulation_2022",
  style: "datacite-4",
  title: TITLE,
  creators: ["Carberry, Josiah", "Lindqvist, Maja"],
  year: "2022",
  description: DESCRIPTION,
  license: "CC-BY-NC-4.0",
  doi: "10.25739/w2m5-8hcz",
  deposited: "2022-04-11T15:25:00Z",
  curated: "2022-04-26T18:00:00Z",
  illustrativeCreators: true,
  avus: [
    avu("title", TITLE),
    avu(
      "creator",
      "Carberry, Josiah",
      avu("affiliation", "Brown University"),
      avu(
        "nameIdentifier",
        "https://orcid.org/0000-0002-1825-0097",
        avu("nameIdentifierScheme", "ORCID"),
        avu("schemeURI", "https://orcid.org"),
      ),
    ),
    avu("creator", "Lindqvist, Maja", avu("affiliation", "Stockholm University")),
    avu("publisher", "CyVerse Data Commons"),
    avu("resourceType", "Model output", avu("resourceTypeGeneral", "Dataset")),
    ...repeated("subject", "wind", "atmospheric modelling", "Europe"),
    avu("description", DESCRIPTION, avu("descriptionType", "Abstract")),
    ...authored("curator", "2022-04-26T18:00:00Z", [
      avu("identifier", "10.25739/w2m5-8hcz", avu("identifierType", "DOI")),
      avu("publicationYear", "2022"),
    ]),
    avu(
      "rights",
      "CC-BY-NC-4.0",
      avu("rightsURI", "https://creativecommons.org/licenses/by-nc/4.0/"),
    ),
    avu(
      "contributer",
      `${DEMO_USER.lastName}, ${DEMO_USER.firstName}`,
      avu("contributorType", "ContactPerson"),
    ),
    avu(
      "fundingReference",
      "",
      avu(
        "funderName",
        "National Science Foundation",
        avu(
          "funderIdentifier",
          "https://ror.org/021nxhr62",
          avu("funderIdentifierType", "ROR"),
        ),
      ),
      avu("awardNumber", "AGS-1923456"),
      avu("awardTitle", "Mesoscale wind climatology for teaching and outreach"),
    ),
    avu("version", "1.1"),
    avu(
      "geoLocation",
      "",
      avu(
        "geoLocationBox",
        "",
        avu("northBoundLatitude", "60.0"),
        avu("southBoundLatitude", "45.0"),
        avu("westBoundLongitude", "-10.0"),
        avu("eastBoundLongitude", "10.0"),
      ),
    ),
  ],
  comments: [
    comment(
      "wind/folder/1",
      DEMO_USER.username,
      "2022-05-03T13:12:00Z",
      "Speed units are not stated anywhere; asked the authors to add them to README.txt.",
    ),
  ],
  files: [
    {
      path: "wind_vectors.csv",
      note: "One row per grid cell: longitude, latitude, dir, dirCat, speed (CRLF line ends)",
      source: "windvectors.csv",
    },
    {
      path: "wind_vectors.tsv",
      note: "The same table, tab-separated",
      source: "windvectors.csv",
      produce: windTsv,
    },
    {
      path: "wind_speed.png",
      note: "Map of wind speed (viridis, north up), 5 pixels per cell",
      source: "windvectors.csv",
      produce: speedPng,
    },
  ],
};
