/**
 * Seattle daily weather, deposited twice: version 1 (2016, flat "datacite." template, EZID
 * DOI) and version 2 (2019, nested template, adds hourly normals, a Parquet copy, and New York
 * rows for comparison; its subjects stay about Seattle, as the title is).
 * Both carry exactly the same title, so anything keyed by title must cope with duplicates;
 * they point at each other through relatedIdentifier (IsPreviousVersionOf / IsNewVersionOf).
 *
 * @module
 */

import { type DatasetSpec, once } from "../dataset_spec.ts";
import { csvToParquet } from "../conversions.ts";
import { avu, comment, repeated } from "../sidecars.ts";

/**
 * The title both versions share.
 *
 * @example
 * ```ts
 * import { WEATHER_TITLE, weatherV1 } from "./weather.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(weatherV1.title, WEATHER_TITLE);
 * ```
 */
export const WEATHER_TITLE = "Daily weather observations, Seattle-Tacoma International Airport";

const V1_DOI = "10.7946/P2H59V";
const V2_DOI = "10.25739/e3bw-qk71";
const CREATOR = "NOAA National Centers for Environmental Information";

const V1_DESCRIPTION =
  "Daily precipitation (mm), maximum and minimum temperature (degrees C) and mean wind " +
  "speed at Seattle-Tacoma International Airport, 1 January 2012 to 31 December 2015, " +
  "from NOAA daily summaries, with a categorical weather label (drizzle, rain, sun, snow, " +
  "fog) synthesised from several fields. Intended for teaching.";

const V2_DESCRIPTION =
  "Version 2 of the Seattle daily weather teaching dataset: adds the same daily variables " +
  "for New York (2012-2015) for comparison, a typed Parquet copy of the table, and the " +
  "1981-2010 hourly climate normals for Seattle (temperature, wind, pressure).";

const weatherParquet = once(async (vega) =>
  csvToParquet(await vega.bytes("weather.csv"), { parseDates: true })
);

/**
 * Version 1 (flat template).
 *
 * @example
 * ```ts
 * import { weatherV1 } from "./weather.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(weatherV1.style, "datacite-flat");
 * ```
 */
export const weatherV1: DatasetSpec = {
  name: "NOAA_SeattleWeather_Daily_2016",
  style: "datacite-flat",
  title: WEATHER_TITLE,
  creators: [CREATOR],
  year: "2016",
  description: V1_DESCRIPTION,
  license: "ODC PDDL",
  doi: V1_DOI,
  deposited: "2016-10-04T22:10:00Z",
  curated: "2019-06-20T17:00:00Z",
  avus: [
    avu("datacite.title", WEATHER_TITLE),
    avu("datacite.creator", CREATOR),
    avu("creatorAffiliation", "National Oceanic and Atmospheric Administration"),
    avu("datacite.publisher", "CyVerse Data Commons"),
    avu("datacite.publicationyear", "2016"),
    avu("datacite.resourcetype", "Dataset"),
    avu("Identifier", V1_DOI),
    avu("identifierType", "DOI"),
    ...repeated("Subject", "weather", "precipitation", "temperature", "Seattle"),
    avu("Description", V1_DESCRIPTION),
    avu("Rights", "ODC PDDL"),
    avu("AlternateIdentifier", "GHCND:USW00024233"),
    avu("alternateIdentifierType", ""),
    avu("RelatedIdentifier", V2_DOI),
    avu("relatedIdentifierType", "DOI"),
    avu("relationType", "IsPreviousVersionOf"),
    avu("geoLocationPlace", "Seattle-Tacoma International Airport, Washington, USA"),
    avu("geoLocationPoint", "47.4444 -122.3139"),
    avu("Version", "1"),
    avu("is_deprecated", "false"),
  ],
  files: [
    {
      path: "seattle-weather.csv",
      note: "One row per day: date, precipitation, temp_max, temp_min, wind, weather",
      source: "seattle-weather.csv",
    },
  ],
};

/**
 * Version 2 (nested template), same title.
 *
 * @example
 * ```ts
 * import { weatherV2 } from "./weather.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(weatherV2.style, "datacite-4");
 * ```
 */
export const weatherV2: DatasetSpec = {
  name: "NOAA_SeattleWeather_Daily_Jun2019",
  style: "datacite-4",
  title: WEATHER_TITLE,
  creators: [CREATOR],
  year: "2019",
  description: V2_DESCRIPTION,
  license: "This data is made available under the Public Domain Dedication and License v1.0 " +
    "whose full text can be found at: http://www.opendatacommons.org/licenses/pddl/1.0/",
  doi: V2_DOI,
  deposited: "2019-06-18T19:45:00Z",
  curated: "2019-06-20T17:00:00Z",
  avus: [
    avu("title", WEATHER_TITLE),
    avu("creator", CREATOR),
    avu("publisher", "CyVerse Data Commons"),
    avu("publicationYear", "2019"),
    avu("resourceType", "Tabular data", avu("resourceTypeGeneral", "Dataset")),
    ...repeated("subject", "weather", "climate normals", "Seattle", "Washington State"),
    avu("description", V2_DESCRIPTION, avu("descriptionType", "Abstract")),
    avu("identifier", V2_DOI, avu("identifierType", "DOI")),
    avu(
      "relatedIdentifier",
      V1_DOI,
      avu("relatedIdentifierType", "DOI"),
      avu("relationType", "IsNewVersionOf"),
    ),
    avu(
      "rights",
      "This data is made available under the Public Domain Dedication and License v1.0 " +
        "whose full text can be found at: http://www.opendatacommons.org/licenses/pddl/1.0/",
    ),
    avu("version", "2"),
    ...repeated("format", "csv", "parquet"),
  ],
  comments: [
    comment(
      "weather-v2/folder/1",
      "curator",
      "2019-06-20T17:05:00Z",
      "Version 2 of NOAA_SeattleWeather_Daily_2016; both keep the same title on purpose.",
    ),
  ],
  files: [
    {
      path: "weather.csv",
      note: "One row per city and day: location, date, precipitation, temperatures, wind",
      source: "weather.csv",
    },
    {
      path: "weather.parquet",
      note: "The same table as Parquet (zstd), dates typed as Date",
      source: "weather.csv",
      produce: weatherParquet,
    },
    {
      path: "normals/seattle_hourly_normals_1981-2010.csv",
      note: "Hourly climate normals for Seattle: date, pressure, temperature, wind",
      source: "seattle-weather-hourly-normals.csv",
    },
  ],
};
