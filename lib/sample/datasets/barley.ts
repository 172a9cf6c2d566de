/**
 * Minnesota barley variety trials, deposited in the "datacite." era: the flat DataCite 3.1
 * template with its real-world quirks — a key with a trailing TAB, `datacite.publicationyear`
 * stored twice (`"2018"` and `""`), an EZID-era DOI (`10.7946/P2…`) with its shadow ARK in the
 * `/b7946/…` shape, and all subjects in one comma-joined string.
 *
 * @module
 */

import { CURATED_PATH } from "../constants.ts";
import { type DatasetSpec, once } from "../dataset_spec.ts";
import { type JsonRecord, toDelimited } from "../conversions.ts";
import { avu, repeated } from "../sidecars.ts";

const NAME = "Immer_BarleyVarietyTrials_Jun2018";
const TITLE = "Yields of barley varieties at six Minnesota experiment stations, 1931-1932";
const DESCRIPTION =
  "Yields (bushels per acre) of ten barley varieties grown in 1931 and 1932 at six " +
  "experiment stations of the Minnesota Agricultural Experiment Station. The trials were " +
  'analysed by Immer, Hayes and Powers (1934, "Statistical determination of barley varietal ' +
  'adaptation") and republished in USDA Technical Bulletin 735 (1940); R. A. Fisher used them ' +
  "in The Design of Experiments, and they later became a classic example for trellis " +
  "displays, which revealed that the Morris site's years appear to be swapped.";

const barleyCsv = once(async (vega) => toDelimited(await vega.json<JsonRecord[]>("barley.json")));

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { barley } from "./barley.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(barley.style, "datacite-flat");
 * ```
 */
export const barley: DatasetSpec = {
  name: NAME,
  style: "datacite-flat",
  title: TITLE,
  creators: ["Immer, F. R.", "Hayes, H. K.", "Powers, LeRoy"],
  year: "2018",
  description: DESCRIPTION,
  license: "ODC PDDL",
  doi: "10.7946/P2C35G",
  ark: "ark:/b7946/p2c35g",
  deposited: "2018-06-12T20:15:00Z",
  curated: "2018-06-19T17:30:00Z",
  avus: [
    avu("datacite.title", TITLE),
    ...repeated("datacite.creator", "Immer, F. R.", "Hayes, H. K.", "Powers, LeRoy"),
    avu("creatorAffiliation\t", "University of Minnesota, Agricultural Experiment Station"),
    avu("creatorNameIdentifier", ""),
    avu("datacite.publisher", "iPlant Collaborative Data Commons"),
    avu("datacite.publicationyear", "2018"),
    avu("datacite.publicationyear", ""),
    avu("datacite.resourcetype", "Dataset"),
    avu("Identifier", "10.7946/P2C35G"),
    avu("identifierType", "DOI"),
    avu("AlternateIdentifier", "/b7946/p2c35g"),
    avu("alternateIdentifierType", "ARK"),
    avu("Subject", "barley, Hordeum vulgare, variety trials, crop yield, Minnesota"),
    avu("Description", DESCRIPTION),
    avu("descriptionType", "Abstract"),
    avu("Rights", "ODC PDDL"),
    avu("RelatedIdentifier", "https://books.google.com/books?id=OUfxLocnpKkC&pg=PA19"),
    avu("relatedIdentifierType", "URL"),
    avu("relationType", "IsDerivedFrom"),
    avu("contributorName", "Wiebe, G. A."),
    avu("contributorType", "Researcher"),
    avu("geoLocationPlace", "Minnesota, USA"),
    avu("geoLocationBox", ""),
    avu("Analysis_tool", "lattice (R package)"),
    avu("compressed_data", "FALSE"),
    avu("is_deprecated", "false"),
    avu(
      "external_data_link",
      `http://datacommons.cyverse.org/browse${CURATED_PATH}/${NAME}`,
    ),
  ],
  files: [
    {
      path: "barley.csv",
      note: "One row per variety, site and year: yield, variety, year, site",
      source: "barley.json",
      produce: barleyCsv,
    },
    {
      path: "original/barley.json",
      note: "The records as a JSON array, as originally distributed",
      source: "barley.json",
    },
  ],
};
