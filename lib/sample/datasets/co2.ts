/**
 * The Mauna Loa CO2 record in two folders: the current dataset, whose metadata uses
 * capitalised keys (`Title`, `Creator`, `Subject`, `Rights`, `Publisher`) and a DOI written
 * with a `doi:` prefix, and the `_deprecated_` 2018 version it superseded.
 *
 * @module
 */

import { CURATED_PATH } from "../constants.ts";
import { type DatasetSpec, once } from "../dataset_spec.ts";
import type { VegaDatasets } from "../vega.ts";
import { encodePng, renderBars } from "../png.ts";
import { authored, avu, repeated } from "../sidecars.ts";

const NAME = "Keeling_MaunaLoaCO2_Monthly_2021";
const TITLE = "Monthly atmospheric CO2 concentrations at Mauna Loa Observatory, 1958-2020";
const DESCRIPTION =
  "Monthly mean atmospheric CO2 mole fractions (ppm, 2012 SIO manometric scale) measured " +
  "in situ at Mauna Loa Observatory, Hawaii, from March 1958 to April 2020 by the Scripps " +
  "CO2 Program, with seasonally adjusted values (a 4-harmonic fit with a linear gain factor " +
  "removed). Values are adjusted to 24:00 on the 15th of each month; months without valid " +
  "data are omitted. This is the 'Keeling curve'.";
const HOW_TO_CITE = "C. D. Keeling, S. C. Piper, R. B. Bacastow, M. Wahlen, T. P. Whorf, " +
  "M. Heimann, and H. A. Meijer, Exchanges of atmospheric CO2 and 13CO2 with the terrestrial " +
  "biosphere and oceans from 1978 to 2000. I. Global aspects, SIO Reference Series, " +
  "No. 01-06, Scripps Institution of Oceanography, San Diego, 88 pages, 2001.";

const RAW_HEADER = "Date,CO2,adjusted CO2";
const HEADER = "date,co2_ppm,co2_seasonally_adjusted_ppm";

async function co2Lines(vega: VegaDatasets): Promise<string[]> {
  const lines = (await vega.text("co2-concentration.csv")).trimEnd().split("\n");
  if (lines[0] !== RAW_HEADER) {
    throw new Error(`co2-concentration.csv: unexpected header ${JSON.stringify(lines[0])}`);
  }
  return lines.slice(1);
}

// The depositor renamed the columns to units-bearing snake_case names, as curators advise.
const csvOf = (rows: string[]) => new TextEncoder().encode([HEADER, ...rows].join("\n") + "\n");
const co2Csv = once(async (vega) => csvOf(await co2Lines(vega)));
const co2Csv2017 = once(async (vega) =>
  csvOf((await co2Lines(vega)).filter((l) => l.slice(0, 4) <= "2017"))
);

const annualMeansPng = once(async (vega) => {
  const rows = (await co2Lines(vega)).map((line) => line.split(","));
  const byYear = Map.groupBy(rows, ([date]) => date.slice(0, 4));
  // Complete years only, so partial first and last years do not distort the curve.
  const means = [...byYear.values()].filter((v) => v.length >= 10).map((v) =>
    v.reduce((sum, [, co2]) => sum + Number(co2), 0) / v.length - 300
  );
  return encodePng(renderBars(means, { width: 62 * 6, height: 220 }));
});

/**
 * The current dataset (capitalised keys).
 *
 * @example
 * ```ts
 * import { co2 } from "./co2.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(co2.style, "capitalised");
 * ```
 */
export const co2: DatasetSpec = {
  name: NAME,
  style: "capitalised",
  title: TITLE,
  creators: ["Keeling, Charles D.", "Piper, Stephen C.", "Keeling, Ralph F."],
  year: "2021",
  description: DESCRIPTION,
  license: "CC BY 4.0",
  doi: "10.25739/tx0s-5m8a",
  deposited: "2021-02-03T18:30:00Z",
  curated: "2021-02-16T21:05:00Z",
  avus: [
    avu("Title", TITLE),
    ...repeated("Creator", "Keeling, Charles D.", "Piper, Stephen C.", "Keeling, Ralph F."),
    avu("creatorAffiliation", "Scripps Institution of Oceanography, UC San Diego"),
    avu("Publisher", "CyVerse Data Commons"),
    avu("PublicationYear", "2021"),
    avu("ResourceType", "Dataset"),
    avu("Subject", "carbon dioxide"),
    avu("Subject", "Keeling curve"),
    avu("Subject", "atmospheric chemistry"),
    avu("Subject", "climate change"),
    avu("Description", DESCRIPTION),
    avu("Rights", "CC BY 4.0"),
    ...authored("curator", "2021-02-16T21:05:00Z", [
      avu("Identifier", "doi:10.25739/tx0s-5m8a"),
      avu("IdentifierType", "DOI"),
    ]),
    avu("Version", "3"),
    avu("Contributor", "Scripps CO2 Program"),
    avu("contributorType", "DataManager"),
    avu("howToCite", HOW_TO_CITE),
    avu("RelatedIdentifier", `${CURATED_PATH}/_deprecated_Keeling_MaunaLoaCO2_2018`),
    avu("relatedIdentifierType", ""),
    avu("relationType", ""),
  ],
  files: [
    {
      path: "co2_mlo_monthly.csv",
      note: "Monthly CO2 (ppm) and seasonally adjusted CO2, March 1958 - April 2020",
      source: "co2-concentration.csv",
      produce: co2Csv,
    },
    {
      path: "figures/annual_mean_co2.png",
      note: "Bar chart of annual mean CO2 minus 300 ppm, complete years 1959-2019",
      source: "co2-concentration.csv",
      produce: annualMeansPng,
    },
  ],
  notes: [`Scripps asks that uses of the record cite: ${HOW_TO_CITE}`],
};

/**
 * The superseded 2018 version, kept under a `_deprecated_` name as curators do.
 *
 * @example
 * ```ts
 * import { co2Deprecated } from "./co2.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(co2Deprecated.name.startsWith("_deprecated_") ? true : false, true);
 * ```
 */
export const co2Deprecated: DatasetSpec = {
  name: "_deprecated_Keeling_MaunaLoaCO2_2018",
  style: "datacite-4",
  title: "Monthly atmospheric CO2 concentrations at Mauna Loa Observatory",
  creators: ["Keeling, Charles D."],
  year: "2018",
  description: "Monthly mean atmospheric CO2 at Mauna Loa Observatory, March 1958 - " +
    `December 2017. Superseded by ${NAME}, which extends the record and credits all creators.`,
  license: "CC BY 4.0",
  doi: "10.7946/P2MW2Q",
  deposited: "2018-04-10T18:00:00Z",
  curated: "2021-02-16T21:10:00Z",
  avus: [
    avu("title", "Monthly atmospheric CO2 concentrations at Mauna Loa Observatory"),
    avu("creator", "Keeling, Charles D."),
    avu("publicationYear", "2018"),
    avu("identifier", "10.7946/P2MW2Q", avu("identifierType", "DOI")),
    avu("rights", "CC BY 4.0"),
    avu(
      "description",
      `Deprecated: superseded by ${NAME}.`,
      avu("descriptionType", "Other"),
    ),
    avu("is_deprecated", "true"),
  ],
  files: [
    {
      path: "co2_mlo_monthly.csv",
      note: "Monthly CO2 (ppm) and seasonally adjusted CO2, March 1958 - December 2017",
      source: "co2-concentration.csv",
      produce: co2Csv2017,
    },
  ],
};
