/**
 * The Palmer penguins: the showcase dataset, carrying the complete nested DataCite 4.x
 * template (creators with affiliations, DOI, ARK, related paper, contributors, geolocation).
 * Its tables also feed the `tern_samples/formats` folder.
 *
 * @module
 */

import { DEMO_USER } from "../constants.ts";
import { type DatasetSpec, once, type Producer } from "../dataset_spec.ts";
import type { VegaDatasets } from "../vega.ts";
import { csvToArrow, csvToParquet, type JsonRecord, toDelimited } from "../conversions.ts";
import { encodePng, renderBars } from "../png.ts";
import { authored, avu, avuWithUnit, comment, repeated } from "../sidecars.ts";

/**
 * The 344 penguin records as vega-datasets ships them.
 *
 * @example
 * ```ts
 * import { penguinRecords } from "./penguins.ts";
 * import { VegaDatasets } from "../vega.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal((await penguinRecords(await VegaDatasets.open())).length, 344);
 * ```
 */
export const penguinRecords: Producer<JsonRecord[]> = once((vega) =>
  vega.json<JsonRecord[]>("penguins.json")
);

/**
 * The penguins as CSV (header row, empty fields for missing values).
 *
 * @example
 * ```ts
 * import { penguinsCsv } from "./penguins.ts";
 * import { VegaDatasets } from "../vega.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextDecoder().decode(await penguinsCsv(await VegaDatasets.open()));
 * assert.ok(text.startsWith("Species,Island,"));
 * ```
 */
export const penguinsCsv: Producer<Uint8Array> = once(
  async (vega) => toDelimited(await penguinRecords(vega)),
);

/**
 * The penguins as Parquet (types inferred by Polars: strings, floats, integers).
 *
 * @example
 * ```ts
 * import { penguinsParquet } from "./penguins.ts";
 * import { VegaDatasets } from "../vega.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = await penguinsParquet(await VegaDatasets.open());
 * assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), "PAR1");
 * ```
 */
export const penguinsParquet: Producer<Uint8Array> = once(async (vega) =>
  csvToParquet(await penguinsCsv(vega))
);

/**
 * The penguins as an Arrow IPC file.
 *
 * @example
 * ```ts
 * import { penguinsArrow } from "./penguins.ts";
 * import { VegaDatasets } from "../vega.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = await penguinsArrow(await VegaDatasets.open());
 * assert.equal(new TextDecoder().decode(bytes.subarray(0, 6)), "ARROW1");
 * ```
 */
export const penguinsArrow: Producer<Uint8Array> = once(async (vega) =>
  csvToArrow(await penguinsCsv(vega))
);

/** Mean body mass (g) per species and sex, sexed birds only, in a fixed order. */
async function massBySpeciesAndSex(
  vega: VegaDatasets,
): Promise<{ species: string; sex: string; n: number; mean: number }[]> {
  const rows = await penguinRecords(vega);
  return ["Adelie", "Chinstrap", "Gentoo"].flatMap((species) =>
    ["FEMALE", "MALE"].map((sex) => {
      const masses = rows
        .filter((r) => r.Species === species && r.Sex === sex)
        .map((r) => r["Body Mass (g)"])
        .filter((m): m is number => typeof m === "number");
      const mean = masses.reduce((a, b) => a + b, 0) / masses.length;
      return { species, sex, n: masses.length, mean: Math.round(mean * 10) / 10 };
    })
  );
}

/**
 * Summary table: birds and mean body mass per species and sex (used in the demo home).
 *
 * @example
 * ```ts
 * import { penguinSummaryCsv } from "./penguins.ts";
 * import { VegaDatasets } from "../vega.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextDecoder().decode(await penguinSummaryCsv(await VegaDatasets.open()));
 * assert.equal(text.split("\n")[0], "species,sex,n,mean_body_mass_g");
 * ```
 */
export const penguinSummaryCsv: Producer<Uint8Array> = once(async (vega) =>
  toDelimited(
    (await massBySpeciesAndSex(vega)).map((r) => ({
      species: r.species,
      sex: r.sex.toLowerCase(),
      n: r.n,
      mean_body_mass_g: r.mean,
    })),
  )
);

/**
 * A bar chart (PNG) of mean body mass per species and sex.
 *
 * @example
 * ```ts
 * import { penguinMassPng } from "./penguins.ts";
 * import { VegaDatasets } from "../vega.ts";
 * import assert from "node:assert/strict";
 *
 * const png = await penguinMassPng(await VegaDatasets.open());
 * assert.equal(png[1], 0x50);
 * ```
 */
export const penguinMassPng: Producer<Uint8Array> = once(async (vega) =>
  encodePng(
    renderBars((await massBySpeciesAndSex(vega)).map((r) => r.mean), {
      width: 360,
      height: 200,
    }),
  )
);

const TITLE = "Palmer Archipelago (Antarctica) penguin size measurements, 2007-2009";
const DESCRIPTION =
  "Body size measurements (bill length and depth, flipper length, body mass) and sex of " +
  "344 adult foraging Adelie, Chinstrap and Gentoo penguins nesting on Biscoe, Dream and " +
  "Torgersen islands near Palmer Station, Antarctica. Collected by Dr. Kristen Gorman with " +
  "the Palmer Station Antarctica Long Term Ecological Research program, and used to study " +
  "sexual size dimorphism and foraging ecology of Pygoscelis penguins.";

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { penguins } from "./penguins.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(penguins.style, "datacite-4");
 * ```
 */
export const penguins: DatasetSpec = {
  name: "Gorman_PalmerPenguins_Morphometrics_2020",
  style: "datacite-4",
  title: TITLE,
  creators: ["Gorman, Kristen B.", "Williams, Tony D.", "Fraser, William R."],
  year: "2020",
  description: DESCRIPTION,
  license: "CC0",
  doi: "10.25739/9k2v-7q4m",
  ark: "ark:/87946/p3x9k1",
  deposited: "2020-07-16T17:42:00Z",
  curated: "2020-07-29T15:10:00Z",
  avus: [
    avu("title", TITLE, avu("xml:lang", "en")),
    avu("creator", "Gorman, Kristen B.", avu("affiliation", "Palmer Station Antarctica LTER")),
    avu("creator", "Williams, Tony D.", avu("affiliation", "Simon Fraser University")),
    avu("creator", "Fraser, William R.", avu("affiliation", "Polar Oceans Research Group")),
    avu("publisher", "CyVerse Data Commons"),
    avu("resourceType", "Tabular data", avu("resourceTypeGeneral", "Dataset")),
    avu("subject", "penguins"),
    avu("subject", "Pygoscelis", avu("subjectScheme", "Genus")),
    ...repeated("subject", "sexual dimorphism", "morphometrics", "Antarctica"),
    avu("description", DESCRIPTION, avu("descriptionType", "Abstract"), avu("xml:lang", "en")),
    ...authored("curator", "2020-07-29T15:10:00Z", [
      avu("identifier", "10.25739/9k2v-7q4m", avu("identifierType", "DOI")),
      avu("publicationYear", "2020"),
    ]),
    avu("alternateIdentifier", "ark:/87946/p3x9k1", avu("alternateIdentifierType", "ARK")),
    avu(
      "relatedIdentifier",
      "10.1371/journal.pone.0090081",
      avu("relatedIdentifierType", "DOI"),
      avu("relationType", "IsDocumentedBy"),
    ),
    avu(
      "rights",
      "CC0",
      avu("rightsURI", "https://creativecommons.org/publicdomain/zero/1.0/"),
      avu("rightsIdentifier", "CC0-1.0"),
      avu("rightsIdentifierScheme", "SPDX"),
    ),
    avu(
      "contributor",
      "Horst, Allison M.",
      avu("contributorType", "DataCurator"),
      avu("affiliation", "University of California, Santa Barbara"),
    ),
    avu(
      "contributor",
      `${DEMO_USER.lastName}, ${DEMO_USER.firstName}`,
      avu("contributorType", "ContactPerson"),
      avu("affiliation", "CyVerse, University of Arizona"),
    ),
    avu("version", "1.0"),
    avu("language", "en"),
    ...repeated("format", "json", "csv", "parquet"),
    avu(
      "geoLocation",
      "",
      avu("geoLocationPlace", "Palmer Archipelago, Antarctica"),
      avu("geoLocationPoint", "", avu("pointLatitude", "-64.77"), avu("pointLongitude", "-64.05")),
    ),
    avu("compressed_data", "false"),
  ],
  comments: [
    comment(
      "penguins/folder/1",
      "alice",
      "2020-08-03T16:20:00Z",
      "Used this in a morphometrics workshop; the CSV loads cleanly. Note that 10 birds have " +
        "no recorded sex and one is coded '.'.",
    ),
    comment(
      "penguins/folder/2",
      "curator",
      "2020-08-04T09:02:00Z",
      "DOI registered. The recommended citation is in README.txt.",
    ),
    comment(
      "penguins/folder/3",
      DEMO_USER.username,
      "2021-02-11T18:45:00Z",
      "Is there a version with the stable isotope values? Oops, wrong dataset, please ignore.",
      true,
    ),
  ],
  files: [
    {
      path: "penguins.csv",
      note: "One row per penguin: species, island, bill and flipper size, body mass, sex",
      source: "penguins.json",
      produce: penguinsCsv,
      avus: [
        avu("description", "One row per penguin, 344 rows, comma-separated, UTF-8"),
        avuWithUnit("rows", "344", "count"),
        avuWithUnit("missing_sex", "11", "count"),
      ],
      comments: [
        comment(
          "penguins/csv/1",
          "alice",
          "2020-08-03T16:25:00Z",
          "Columns 'Beak Length (mm)' and 'Beak Depth (mm)' are the culmen (bill) measures.",
        ),
      ],
    },
    {
      path: "penguins.json",
      note: "The same records as a JSON array, as originally distributed",
      source: "penguins.json",
    },
    {
      path: "derived/penguins.parquet",
      note: "The same table as Parquet (zstd), with typed columns",
      source: "penguins.json",
      produce: penguinsParquet,
    },
    {
      path: "derived/body_mass_by_species_sex.png",
      note: "Bar chart: mean body mass for Adelie, Chinstrap, Gentoo (female, male)",
      source: "penguins.json",
      produce: penguinMassPng,
    },
  ],
};
