/**
 * Gapminder life expectancy, fertility and population. An organisation as sole creator (no
 * affiliation), a DOI stored with a leading TAB, and all subjects in one comma-joined value.
 *
 * @module
 */

import { type DatasetSpec, once } from "../dataset_spec.ts";
import { type JsonRecord, toDelimited } from "../conversions.ts";
import { authored, avu, comment } from "../sidecars.ts";

const TITLE = "Life expectancy, fertility and population by country, 1955-2005";
const DESCRIPTION =
  "Life expectancy at birth (years), total fertility (babies per woman) and population for " +
  "countries of six world regions, every five years from 1955 to 2005, compiled by the " +
  "Gapminder Foundation. Gapminder fills data gaps with estimates and uses current " +
  "geographic boundaries for historical data, so values suit the big picture better than " +
  "detailed numeric analysis. The countries/ folder adds each indicator's value for the " +
  "previous and next period, for animated transitions.";

const gapminderCsv = once(async (vega) =>
  toDelimited(await vega.json<JsonRecord[]>("gapminder.json"))
);

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { gapminder } from "./gapminder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(gapminder.doi, "10.25739/r8tn-3d6w");
 * ```
 */
export const gapminder: DatasetSpec = {
  name: "Gapminder_LifeExpectancyFertility_2019",
  style: "datacite-4",
  title: TITLE,
  creators: ["Gapminder Foundation"],
  year: "2019",
  description: DESCRIPTION,
  license: "Creative Commons Attribution 4.0 International",
  doi: "10.25739/r8tn-3d6w",
  deposited: "2019-11-05T14:20:00Z",
  curated: "2019-11-21T16:45:00Z",
  avus: [
    avu("title", TITLE),
    avu("creator", "Gapminder Foundation"),
    avu("publisher", "CyVerse Data Commons"),
    avu("resourceType", "Tabular data", avu("resourceTypeGeneral", "Dataset")),
    avu("subject", "demography, life expectancy, fertility, population, global health"),
    avu("description", DESCRIPTION, avu("descriptionType", "Abstract")),
    ...authored("curator", "2019-11-21T16:45:00Z", [
      avu("identifier", "\t10.25739/r8tn-3d6w", avu("identifierType", "DOI")),
      avu("publicationYear", "2019"),
    ]),
    avu(
      "rights",
      "Creative Commons Attribution 4.0 International",
      avu("rightsURI", "https://creativecommons.org/licenses/by/4.0/"),
    ),
    avu(
      "relatedIdentifier",
      "https://www.gapminder.org/data/",
      avu("relatedIdentifierType", "URL"),
      avu("relationType", "IsDerivedFrom"),
    ),
    avu("version", "1"),
    avu("language", "en"),
  ],
  comments: [
    comment(
      "gapminder/folder/1",
      "alice",
      "2020-01-14T11:30:00Z",
      "cluster codes: 0 south_asia, 1 europe_central_asia, 2 sub_saharan_africa, 3 america, " +
        "4 east_asia_pacific, 5 middle_east_north_africa.",
    ),
  ],
  files: [
    {
      path: "gapminder.csv",
      note: "One row per country and year: year, country, cluster, pop, life_expect, fertility",
      source: "gapminder.json",
      produce: gapminderCsv,
    },
    {
      path: "countries/countries.json",
      note: "JSON array: life expectancy and fertility with previous/next period values",
      source: "countries.json",
    },
  ],
};
