/**
 * Users and their homes: `.terrain/users.json`, saved searches, the demo user's home (loose
 * files, awkward file names, an empty folder) and alice's private home.
 *
 * @module
 */

import {
  ALICE_PRIVATE_FILE,
  ALICE_USER,
  CURATED_PATH,
  DEMO_EMPTY_FOLDER,
  DEMO_USER,
  SAMPLE_TOKEN_SECRET,
  SAMPLE_USERS,
} from "./constants.ts";
import { penguinRecords, penguins, penguinSummaryCsv } from "./datasets/penguins.ts";
import { toDelimited } from "./conversions.ts";
import { authored, avu, avuSidecar, jsonBytes, utc } from "./sidecars.ts";
import { storeRelative, type StoreTree } from "./tree.ts";
import type { VegaDatasets } from "./vega.ts";

/** Lifetime the store asks the server to give minted tokens. */
const TOKEN_LIFETIME_SECONDS = 3600;

const CONFIG_TIME = utc("2024-01-15T12:00:00Z");

/** The fields every saved search ends with, as the DE UI writes them. */
const SAVED = { includeTrashItems: false, dirty: false, saved: true, files: [], folders: [] };

/**
 * The old DE UI's saved-search templates (terrain-api.md §4.1, §4.13), as the demo user left
 * them; each runs (`store.runSavedSearch(label)`).
 */
const DEMO_SAVED_SEARCHES = [
  { label: "Penguin tables", fileQuery: "*penguin*", pathPrefix: CURATED_PATH, ...SAVED },
  {
    label: "Large Parquet files",
    fileQuery: "*.parquet",
    fileSizeRange: { min: 10, minUnit: { unit: "MB", label: "MB" } },
    ...SAVED,
  },
  {
    label: "CC0 datasets",
    metadataAttributeQuery: "rights",
    metadataValueQuery: "CC0",
    pathPrefix: CURATED_PATH,
    ...SAVED,
  },
  {
    label: "My files from 2024",
    ownedBy: DEMO_USER.username,
    createdWithin: {
      label: "2024",
      from: String(Date.UTC(2024, 0, 1)),
      to: String(Date.UTC(2024, 11, 31, 23, 59, 59)),
    },
    negatedFileQuery: "*.tmp",
    ...SAVED,
  },
];

/**
 * Adds `.terrain/users.json` and each user's saved searches to `tree`.
 *
 * @example
 * ```ts
 * import { addUsers } from "./homes.ts";
 * import { StoreTree } from "./tree.ts";
 * import assert from "node:assert/strict";
 *
 * const tree = new StoreTree();
 * addUsers(tree);
 * assert.ok(tree.hasFile(".terrain/users.json"));
 * ```
 */
export function addUsers(tree: StoreTree): void {
  tree.addFile(
    ".terrain/users.json",
    jsonBytes({
      secret: SAMPLE_TOKEN_SECRET,
      tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS,
      users: SAMPLE_USERS.map(({ token, home: _home, ...user }) => ({ ...user, tokens: [token] })),
    }),
    CONFIG_TIME,
    "config",
  );
  tree.addFile(
    `.terrain/saved-searches/${DEMO_USER.username}.json`,
    jsonBytes(DEMO_SAVED_SEARCHES),
    utc("2024-03-08T10:00:00Z"),
    "config",
  );
  tree.addFile(
    `.terrain/saved-searches/${ALICE_USER.username}.json`,
    jsonBytes([{
      label: "Drafts",
      fileQuery: "*draft*",
      ownedBy: ALICE_USER.username,
      ...SAVED,
      includeTrashItems: true,
    }]),
    utc("2024-02-02T08:00:00Z"),
    "config",
  );
}

const DEMO_NOTES = `Notes - tern demo account
=========================

- The published datasets live under ${CURATED_PATH}.
- penguins_summary.csv is my summary of ${penguins.name}/penguins.csv
  (sexed birds only; 11 birds have no usable sex).
- Moreno_MarketIndices_2024/ is my own dataset, not submitted yet.
- scratch/ is for temporary output; it is empty on purpose.
`;

const FIELD_NOTES = `Field notes, Palmer Station visit (2024)

Jan 12  Torgersen: 41 Adelie nests checked, 3 abandoned.
Jan 14  Biscoe: Gentoo creche forming; weather calm, 2 C.
Jan 17  Dream: Chinstrap counts postponed (wind 18 m/s).
`;

async function seattleFirstQuarter(vega: VegaDatasets): Promise<string> {
  const lines = (await vega.text("seattle-weather.csv")).split("\n");
  return lines.slice(0, 92).join("\n") + "\n";
}

async function aliceDraft(vega: VegaDatasets): Promise<Uint8Array> {
  const rows = (await penguinRecords(vega))
    .filter((r) => r.Island === "Dream")
    .map((r, i) => ({
      transect: `D-${String(Math.floor(i / 8) + 1).padStart(2, "0")}`,
      species: r.Species,
      sex: r.Sex,
      body_mass_g: r["Body Mass (g)"],
    }));
  return toDelimited(rows);
}

/**
 * Adds the demo user's and alice's homes (loose files; the demo user's dataset is added with
 * the other datasets).
 *
 * @example
 * ```ts
 * import { addHomes } from "./homes.ts";
 * import { StoreTree } from "./tree.ts";
 * import { VegaDatasets } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * const tree = new StoreTree();
 * await addHomes(tree, await VegaDatasets.open());
 * assert.ok(tree.hasFile("iplant/home/demo/penguins_summary.csv"));
 * ```
 */
export async function addHomes(tree: StoreTree, vega: VegaDatasets): Promise<void> {
  const demo = storeRelative(DEMO_USER.home);
  tree.addFile(`${demo}/notes.txt`, DEMO_NOTES, utc("2024-03-01T17:20:00Z"));
  tree.addFile(
    `${demo}/penguins_summary.csv`,
    await penguinSummaryCsv(vega),
    utc("2024-02-28T14:05:00Z"),
  );
  tree.addFile(
    avuSidecar(`${demo}/penguins_summary.csv`, "file"),
    jsonBytes(authored(DEMO_USER.username, "2024-02-28T14:06:00Z", [
      avu("derived_from", `${CURATED_PATH}/${penguins.name}/penguins.csv`),
      avu("description", "Birds and mean body mass (g) per species and sex"),
    ])),
    utc("2024-02-28T14:06:00Z"),
    "sidecar",
  );
  tree.addFile(`${demo}/field notes (2024).txt`, FIELD_NOTES, utc("2024-01-20T21:45:00Z"));
  tree.addFile(
    `${demo}/données_météo_seattle.csv`,
    await seattleFirstQuarter(vega),
    utc("2024-02-02T11:00:00Z"),
  );
  tree.addDir(storeRelative(DEMO_EMPTY_FOLDER), utc("2024-03-05T08:30:00Z"));

  const alicePrivate = storeRelative(ALICE_PRIVATE_FILE);
  const aliceFolder = alicePrivate.slice(0, alicePrivate.lastIndexOf("/"));
  tree.addFile(alicePrivate, await aliceDraft(vega), utc("2024-02-01T19:30:00Z"));
  tree.addFile(
    avuSidecar(aliceFolder, "folder"),
    jsonBytes(authored(ALICE_USER.username, "2024-02-01T19:35:00Z", [
      avu("title", "Dream Island transect counts (draft, do not share)"),
      avu("creator", `${ALICE_USER.lastName}, ${ALICE_USER.firstName}`),
    ])),
    utc("2024-02-01T19:35:00Z"),
    "sidecar",
  );
  tree.addFile(
    `${storeRelative(ALICE_USER.home)}/notes.txt`,
    "Private notes: re-check transect D-03 before sharing anything.\n",
    utc("2024-02-01T19:40:00Z"),
  );
}
