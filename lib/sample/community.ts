/**
 * The Community Data folders that are not Data Commons datasets: `tern_samples` (one file per
 * format, and a folder of 20,000 small CSVs for paging) and a classic `example_data` folder.
 *
 * @module
 */

import {
  COMMUNITY_PATH,
  MANY_FILES_COLUMNS,
  MANY_FILES_COUNT,
  MANY_FILES_PATH,
  PENGUIN_ROWS,
  SAMPLE_FILES,
  TERN_SAMPLES_PATH,
} from "./constants.ts";
import {
  penguinMassPng,
  penguinRecords,
  penguinsArrow,
  penguinsCsv,
  penguinsParquet,
} from "./datasets/penguins.ts";
import { gzip, type JsonRecord, toDelimited, toNdjson } from "./conversions.ts";
import { seededRandom } from "./ids.ts";
import { avu, avuSidecar, avuWithUnit, jsonBytes, utc } from "./sidecars.ts";
import { storeRelative, type StoreTree } from "./tree.ts";
import type { VegaDatasets } from "./vega.ts";

/**
 * File name of part `n` (1-based) of the many-files folder.
 *
 * @example
 * ```ts
 * import { partName } from "./community.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(partName(1), "part-00001.csv");
 * ```
 */
export function partName(n: number): string {
  return `part-${String(n).padStart(5, "0")}.csv`;
}

const PART_START = Date.UTC(2023, 4, 1);
const HOUR = 3_600_000;
const STATIONS = 12;

/**
 * CSV text of part `n`: 3 to 6 quarter-hourly readings of one soil sensor station during one
 * hour (part 1 is station S01 at 2023-05-01T00:00Z, part 13 is S01 an hour later), from a
 * generator seeded by `n`, so any part can be recomputed on its own, e.g. by a test.
 *
 * @example
 * ```ts
 * import { partCsv } from "./community.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = partCsv(1).trimEnd().split("\n");
 * assert.equal(lines[0], "timestamp,station,soil_temp_c,soil_moisture_pct,battery_v");
 * assert.equal(lines[1].slice(0, 24), "2023-05-01T00:00:00Z,S01");
 * assert.equal(partCsv(1), partCsv(1));
 * ```
 */
export function partCsv(n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`Part number must be >= 0, got ${n}`);
  const random = seededRandom(n * 2654435761);
  const rows = 3 + (n % 4);
  const slot = n - 1; // part 0 is the stray reading from the hour before the campaign
  const station = `S${String((((slot % STATIONS) + STATIONS) % STATIONS) + 1).padStart(2, "0")}`;
  const hourStart = PART_START + Math.floor(slot / STATIONS) * HOUR;
  const lines = [MANY_FILES_COLUMNS.join(",")];
  for (let k = 0; k < rows; k++) {
    const t = hourStart + k * 15 * 60_000;
    const hourOfDay = new Date(t).getUTCHours() + k / 4;
    const temp = 14 + 6 * Math.sin(((hourOfDay - 9) / 24) * 2 * Math.PI) + random() * 1.5;
    const moisture = 22 + 9 * random();
    const battery = 4.15 - 0.5 * (Math.max(0, slot) / MANY_FILES_COUNT) - 0.02 * random();
    lines.push(
      [
        new Date(t).toISOString().replace(".000Z", "Z"),
        station,
        temp.toFixed(2),
        moisture.toFixed(1),
        battery.toFixed(3),
      ].join(","),
    );
  }
  return lines.join("\n") + "\n";
}

/** Upload of the parts started once the campaign ended (about ten weeks of readings). */
const PART_TIME_BASE = Date.UTC(2023, 6, 10);

const PART_SCHEMA = {
  name: "soil-sensor-part",
  description: "Quarter-hourly soil sensor readings; one file per station-hour.",
  fields: [
    { name: "timestamp", type: "datetime", format: "%Y-%m-%dT%H:%M:%SZ" },
    { name: "station", type: "string" },
    { name: "soil_temp_c", type: "number", unit: "degC" },
    { name: "soil_moisture_pct", type: "number", unit: "percent" },
    { name: "battery_v", type: "number", unit: "V" },
  ],
};

function addManyFiles(tree: StoreTree): void {
  const dir = storeRelative(MANY_FILES_PATH);
  for (let n = 1; n <= MANY_FILES_COUNT; n++) {
    // Uploaded in a scrambled order, so sorting by date differs from sorting by name.
    const uploaded = new Date(PART_TIME_BASE + ((n * 7919) % MANY_FILES_COUNT) * 60_000);
    tree.addFile(`${dir}/${partName(n)}`, partCsv(n), uploaded);
  }
  tree.addFile(
    `${dir}/_logs/ingest.log`,
    `2023-07-10T00:00:00Z INFO ingest started: ${MANY_FILES_COUNT} station-hours from ` +
      `${STATIONS} stations\n` +
      `2023-07-23T21:19:00Z INFO wrote ${MANY_FILES_COUNT} parts (${partName(1)} .. ` +
      `${partName(MANY_FILES_COUNT)})\n` +
      "2023-07-23T21:19:02Z WARN 1 part predates the campaign; moved to archive/2023-04\n",
    utc("2023-07-23T21:19:02Z"),
  );
  tree.addFile(`${dir}/archive/2023-04/${partName(0)}`, partCsv(0), utc("2023-07-23T21:19:01Z"));
  tree.addFile(
    `${dir}/schema/part.schema.json`,
    jsonBytes(PART_SCHEMA),
    utc("2023-04-28T12:00:00Z"),
  );
  tree.addFile(
    avuSidecar(dir, "folder"),
    jsonBytes([
      avu("description", "Soil sensor readings split into one small CSV per station-hour"),
      avuWithUnit("parts", String(MANY_FILES_COUNT), "count"),
    ]),
    utc("2023-07-24T09:00:00Z"),
    "sidecar",
  );
}

const FORMATS_README = `One table, every format
=======================

Each penguins.* file holds the same ${PENGUIN_ROWS} rows (Palmer penguins; see
/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020).

penguins.csv      comma-separated, header row, empty field = missing
penguins.tsv      tab-separated
penguins.json     JSON array of records
penguins.ndjson   one JSON record per line
penguins.parquet  Parquet (zstd), typed columns
penguins.arrow    Arrow IPC file
penguins.csv.gz   gzip'd CSV
penguin_body_mass.png  bar chart of mean body mass by species and sex
`;

async function addFormats(tree: StoreTree, vega: VegaDatasets): Promise<void> {
  const records: JsonRecord[] = await penguinRecords(vega);
  if (records.length !== PENGUIN_ROWS) {
    throw new Error(`penguins.json has ${records.length} rows, expected ${PENGUIN_ROWS}`);
  }
  const time = (minute: number) => new Date(Date.UTC(2024, 0, 10, 9, minute));
  const files: [string, Uint8Array | string][] = [
    [SAMPLE_FILES.csv, await penguinsCsv(vega)],
    [SAMPLE_FILES.tsv, toDelimited(records, "\t")],
    [SAMPLE_FILES.json, await vega.bytes("penguins.json")],
    [SAMPLE_FILES.ndjson, toNdjson(records)],
    [SAMPLE_FILES.parquet, await penguinsParquet(vega)],
    [SAMPLE_FILES.arrow, await penguinsArrow(vega)],
    [SAMPLE_FILES.csvGz, await gzip(await penguinsCsv(vega))],
    [SAMPLE_FILES.png, await penguinMassPng(vega)],
    [SAMPLE_FILES.text, FORMATS_README],
  ];
  files.forEach(([path, bytes], i) => tree.addFile(storeRelative(path), bytes, time(i)));
}

const TERN_README = `tern sample data
================

Fixtures for the tern notebook module. Not a Data Commons dataset.

formats/     the Palmer penguins table in every format tern reads
many_files/  ${MANY_FILES_COUNT} small CSV parts (soil sensors, one per station-hour) plus
             a few subfolders, for paging
`;

const EXAMPLE_README = `Example data
============

Small classic files for tutorials.

anscombe.csv / anscombe.json  Anscombe's quartet (Anscombe 1973, The American
                              Statistician 27(1):17-21): four x/y series with
                              identical summary statistics.
icons/                        application icons (7-Zip: GNU LGPL; Firefox:
                              Mozilla trademark licence; GIMP: GNU GPL).
`;

async function addExampleData(tree: StoreTree, vega: VegaDatasets): Promise<void> {
  const dir = storeRelative(`${COMMUNITY_PATH}/iplantcollaborative/example_data`);
  const t = utc("2017-09-12T16:00:00Z");
  tree.addFile(`${dir}/README.txt`, EXAMPLE_README, t);
  tree.addFile(`${dir}/anscombe.json`, await vega.bytes("anscombe.json"), t);
  tree.addFile(
    `${dir}/anscombe.csv`,
    toDelimited(await vega.json<JsonRecord[]>("anscombe.json")),
    t,
  );
  for (const icon of ["7zip.png", "ffox.png", "gimp.png"]) {
    tree.addFile(`${dir}/icons/${icon}`, await vega.bytes(icon), t);
  }
}

/**
 * Adds `tern_samples/` (formats and many files) and `iplantcollaborative/example_data/`.
 *
 * @example
 * ```ts
 * import { addCommunityFolders } from "./community.ts";
 * import { StoreTree } from "./tree.ts";
 * import { VegaDatasets } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * const tree = new StoreTree();
 * await addCommunityFolders(tree, await VegaDatasets.open());
 * assert.ok(tree.counts().files > 20_000);
 * ```
 */
export async function addCommunityFolders(tree: StoreTree, vega: VegaDatasets): Promise<void> {
  tree.addFile(
    `${storeRelative(TERN_SAMPLES_PATH)}/README.txt`,
    TERN_README,
    utc("2024-01-10T09:30:00Z"),
  );
  await addFormats(tree, vega);
  addManyFiles(tree);
  await addExampleData(tree, vega);
}
