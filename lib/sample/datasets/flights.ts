/**
 * U.S. flight on-time performance: the large binary files of the store (a 3-million-row
 * Parquet file and an Arrow IPC file), plus reference CSVs in a subfolder. It has an ARK but
 * no DOI, so citations must fall back to the ARK.
 *
 * @module
 */

import type { DatasetSpec } from "../dataset_spec.ts";
import { avu, avuWithUnit, comment, repeated } from "../sidecars.ts";

const TITLE = "On-time performance of U.S. domestic flights: delays and distances";
const DESCRIPTION =
  "Departure delays (minutes), distances (miles), origins and destinations of U.S. " +
  "domestic flights reported to the Bureau of Transportation Statistics under 14 CFR Part " +
  "234, which requires qualifying airlines to report on-time performance. The Parquet file " +
  "holds three million flights with dates and airports; the Arrow file a 200,000-flight " +
  "sample with delay, distance and time of day, for quick interactive work.";

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { flights } from "./flights.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(flights.doi, undefined);
 * ```
 */
export const flights: DatasetSpec = {
  name: "BTS_FlightDelays_OnTime_2021",
  style: "datacite-4",
  title: TITLE,
  creators: ["U.S. Department of Transportation, Bureau of Transportation Statistics"],
  year: "2021",
  description: DESCRIPTION,
  license: "No restrictions for the use of these data following publication.",
  ark: "ark:/87946/p3f2r7",
  deposited: "2021-09-14T21:00:00Z",
  curated: "2021-09-30T15:35:00Z",
  avus: [
    avu("title", TITLE),
    avu("creator", "U.S. Department of Transportation, Bureau of Transportation Statistics"),
    avu("publisher", "CyVerse Data Commons"),
    avu("publicationYear", "2021"),
    avu("resourceType", "Tabular data", avu("resourceTypeGeneral", "Dataset")),
    ...repeated("subject", "aviation", "flight delays", "transportation"),
    avu("description", DESCRIPTION, avu("descriptionType", "Abstract")),
    avu("alternateIdentifier", "87946/p3f2r7", avu("alternateIdentifierType", "ARK")),
    avu("rights", "No restrictions for the use of these data following publication."),
    avu(
      "contributor",
      "Okafor, Chidi",
      avu("contributorType", "DataManager"),
      avu("affiliation", "University of Arizona"),
    ),
    avu("version", "2021.1"),
    ...repeated("format", "parquet", "arrow", "csv"),
    avu("size", "15.4MB"),
  ],
  files: [
    {
      path: "flights_3m.parquet",
      note: "3,000,000 flights: date, delay, distance, origin, destination",
      source: "flights-3m.parquet",
      avus: [
        avuWithUnit("rows", "3000000", "count"),
        avu("columns", "date, delay, distance, origin, destination"),
      ],
      comments: [
        comment(
          "flights/parquet/1",
          "curator",
          "2021-10-01T08:15:00Z",
          "About 13 MB: read only the columns you need rather than downloading the whole " +
            "file when you can.",
        ),
      ],
    },
    {
      path: "flights_200k.arrow",
      note: "200,000-flight sample (Arrow IPC): delay, distance, time of day",
      source: "flights-200k.arrow",
      avus: [avuWithUnit("rows", "200000", "count")],
    },
    {
      path: "reference/airports.csv",
      note: "Airports: IATA code, name, city, state, country, latitude, longitude",
      source: "airports.csv",
    },
    {
      path: "reference/routes.csv",
      note: "Flights per origin-destination pair: origin, destination, count",
      source: "flights-airport.csv",
    },
  ],
};
