/**
 * The demo user's own dataset, in their home: prepared like a Data Commons submission (README,
 * nested metadata without an identifier) but not published.
 *
 * @module
 */

import { DEMO_DATASET_PATH, DEMO_USER } from "../constants.ts";
import type { DatasetSpec } from "../dataset_spec.ts";
import { authored, avu, comment, repeated } from "../sidecars.ts";

const TITLE = "Monthly closing prices of five technology stocks and the S&P 500, 2000-2010";
const AUTHOR = `${DEMO_USER.lastName}, ${DEMO_USER.firstName}`;

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { marketIndices } from "./market.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(marketIndices.doi, undefined);
 * ```
 */
export const marketIndices: DatasetSpec = {
  name: DEMO_DATASET_PATH.slice(DEMO_DATASET_PATH.lastIndexOf("/") + 1),
  parent: DEMO_USER.home,
  style: "datacite-4",
  title: TITLE,
  creators: [AUTHOR],
  year: "2024",
  description: "Monthly closing prices of Microsoft, Amazon, IBM, Google and Apple (USD, " +
    "first trading day of each month, January 2000 to March 2010, Google from its 2004 " +
    "listing) and of the S&P 500 index over the same period, covering the dot-com crash " +
    "and the 2008 financial crisis. Prepared for a teaching notebook; not yet submitted.",
  license: "CC BY-NC 4.0",
  deposited: "2024-02-20T16:00:00Z",
  curated: "2024-02-21T09:30:00Z",
  illustrativeCreators: true,
  avus: authored(DEMO_USER.username, "2024-02-21T09:30:00Z", [
    avu("title", TITLE),
    avu("creator", AUTHOR, avu("affiliation", "CyVerse, University of Arizona")),
    avu("publisher", "CyVerse Data Commons"),
    avu("publicationYear", "2024"),
    avu("resourceType", "Tabular data", avu("resourceTypeGeneral", "Dataset")),
    ...repeated("subject", "finance", "time series"),
    avu("rights", "CC BY-NC 4.0"),
  ]),
  comments: [
    comment(
      "market/folder/1",
      DEMO_USER.username,
      "2024-02-21T09:40:00Z",
      "Check whether the AAPL prices are split-adjusted before submitting.",
    ),
  ],
  files: [
    {
      path: "stocks.csv",
      note: "Long format: symbol, date (e.g. 'Jan 1 2000'), price",
      source: "stocks.csv",
    },
    {
      path: "sp500.csv",
      note: "S&P 500 index: date, price",
      source: "sp500.csv",
    },
  ],
};
