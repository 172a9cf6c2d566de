/**
 * One week of the USGS "all earthquakes" feed: GeoJSON, NDJSON (one feature per line) and a
 * flat CSV. Its nested metadata has the misspelt `identiferType`, a DOI written as a
 * `https://doi.org/` URL, a non-ARK alternate identifier (a URL) and a long custom licence.
 *
 * @module
 */

import { type DatasetSpec, once } from "../dataset_spec.ts";
import { toDelimited, toNdjson } from "../conversions.ts";
import { avu, repeated } from "../sidecars.ts";
import type { VegaDatasets } from "../vega.ts";

interface Feature {
  id?: string;
  properties: Record<string, unknown>;
  geometry: { coordinates: [number, number, number] };
}

async function features(vega: VegaDatasets): Promise<Feature[]> {
  const collection = await vega.json<{ features?: Feature[] }>("earthquakes.json");
  if (!Array.isArray(collection.features)) {
    throw new Error("earthquakes.json: expected a GeoJSON FeatureCollection");
  }
  return collection.features;
}

const eventsNdjson = once(async (vega) => toNdjson(await features(vega)));

const eventsCsv = once(async (vega) =>
  toDelimited((await features(vega)).map((f) => ({
    id: f.id ?? "",
    time_utc: new Date(f.properties.time as number).toISOString(),
    magnitude: f.properties.mag,
    magnitude_type: f.properties.magType,
    place: f.properties.place,
    longitude: f.geometry.coordinates[0],
    latitude: f.geometry.coordinates[1],
    depth_km: f.geometry.coordinates[2],
    event_type: f.properties.type,
    status: f.properties.status,
  })))
);

const TITLE = "USGS real-time earthquake feed: all events, 31 January - 7 February 2018";
const DESCRIPTION =
  "About one week of continuous monitoring from the U.S. Geological Survey's 'all " +
  "earthquakes' real-time feed: every seismic event of any magnitude recorded by the USGS " +
  "Earthquake Hazards Program and contributing networks between 31 January and 7 February " +
  "2018 (UTC), with magnitude, location, depth, time and review status.";
const RIGHTS = "USGS-authored or produced data and information are considered to be in the " +
  "U.S. public domain. While the content of this dataset is in the public domain, we ask " +
  "that you credit the U.S. Geological Survey Earthquake Hazards Program as the source and " +
  "note that real-time feed values (locations, magnitudes) are preliminary and may be " +
  "revised after review. No warranty, expressed or implied, is made regarding accuracy.";

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { earthquakes } from "./earthquakes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(earthquakes.doi, "10.25739/6gq1-wz4f");
 * ```
 */
export const earthquakes: DatasetSpec = {
  name: "USGS_EarthquakeFeed_Feb2018",
  style: "datacite-4",
  title: TITLE,
  creators: ["U.S. Geological Survey, Earthquake Hazards Program"],
  year: "2019",
  description: DESCRIPTION,
  license: RIGHTS,
  doi: "10.25739/6gq1-wz4f",
  deposited: "2019-03-20T16:05:00Z",
  curated: "2019-04-02T19:40:00Z",
  avus: [
    avu("title", TITLE),
    avu("creator", "U.S. Geological Survey, Earthquake Hazards Program"),
    avu("publisher", "CyVerse Data Commons"),
    avu("publicationYear", "2019"),
    avu("resourceType", "GeoJSON feature collection", avu("resourceTypeGeneral", "Dataset")),
    ...repeated("subject", "earthquakes", "seismology", "natural hazards"),
    avu("description", DESCRIPTION, avu("descriptionType", "Abstract")),
    avu("identifier", "https://doi.org/10.25739/6gq1-wz4f", avu("identiferType", "DOI")),
    avu(
      "alternateIdentifier",
      "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_week.geojson",
      avu("alternateIdentifierType", "URL"),
    ),
    avu("rights", RIGHTS),
    avu(
      "geoLocation",
      "",
      avu("geoLocationPlace", "Global"),
      avu(
        "geoLocationBox",
        "",
        avu("northBoundLatitude", "90"),
        avu("southBoundLatitude", "-90"),
        avu("westBoundLongitude", "-180"),
        avu("eastBoundLongitude", "180"),
      ),
    ),
    ...repeated("format", "geojson", "ndjson", "csv"),
    avu("language", "en-us"),
  ],
  files: [
    {
      path: "earthquakes.geojson",
      note: "The feed as one GeoJSON FeatureCollection",
      source: "earthquakes.json",
    },
    {
      path: "events.ndjson",
      note: "The same events as newline-delimited JSON, one GeoJSON feature per line",
      source: "earthquakes.json",
      produce: eventsNdjson,
    },
    {
      path: "events_summary.csv",
      note: "One row per event: id, UTC time, magnitude, place, longitude, latitude, depth",
      source: "earthquakes.json",
      produce: eventsCsv,
    },
  ],
};
