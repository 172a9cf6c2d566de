/**
 * A dataset still in the Data Commons staging area: partial, loosely named metadata (`Author`,
 * `Keyword`), a combined data/code licence, no identifier, and a script next to the data.
 *
 * @module
 */

import { STAGING_PATH } from "../constants.ts";
import { type DatasetSpec, textFile } from "../dataset_spec.ts";
import { avu, repeated } from "../sidecars.ts";

const SCRIPT = `"""Ridgeline densities of restaurant latitude by cuisine, University District."""

import json
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def latitudes_by_cuisine(path=HERE.parent / "udistrict.json"):
    groups = defaultdict(list)
    for place in json.loads(path.read_text()):
        groups[place["key"]].append(place["lat"])
    return dict(sorted(groups.items()))


if __name__ == "__main__":
    for cuisine, lats in latitudes_by_cuisine().items():
        print(f"{cuisine:12s} {len(lats):3d} places, median latitude {sorted(lats)[len(lats) // 2]:.4f}")
`;

/**
 * The staging dataset spec.
 *
 * @example
 * ```ts
 * import { staging } from "./staging.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(staging.style, "partial");
 * ```
 */
export const staging: DatasetSpec = {
  name: "Nakamura_UDistrictCuisine_2024",
  parent: STAGING_PATH,
  style: "partial",
  title: "Restaurants and cafes of Seattle's University District by cuisine",
  creators: ["Nakamura, Aiko"],
  year: "2024",
  description: "Latitude of 182 restaurants and cafes in Seattle's University District, " +
    "labelled with one of 19 cuisine categories, as used for a ridgeline plot of how food " +
    "options change along the neighbourhood's north-south axis. Awaiting curator review.",
  license: "data: ODC PDDL, code: GPLv3",
  deposited: "2024-03-02T23:10:00Z",
  curated: "2024-03-04T16:30:00Z",
  illustrativeCreators: true,
  avus: [
    avu("title", "Restaurants and cafes of Seattle's University District by cuisine"),
    avu("Author", "Nakamura, Aiko"),
    ...repeated("Keyword", "restaurants", "urban food environment"),
    avu("rights", "data: ODC PDDL, code: GPLv3"),
    avu("New Attribute", ""),
  ],
  files: [
    {
      path: "udistrict.json",
      note: "JSON array: key (cuisine), lat (latitude, degrees)",
      source: "udistrict.json",
    },
    {
      path: "scripts/ridgeline.py",
      note: "Python 3 script summarising latitudes by cuisine",
      produce: textFile(SCRIPT),
    },
  ],
};
