/**
 * County unemployment and national employment by sector: a published folder with a README
 * but no metadata at all (no AVU sidecar), as one real curated dataset has.
 *
 * @module
 */

import type { DatasetSpec } from "../dataset_spec.ts";

/**
 * The dataset folder spec.
 *
 * @example
 * ```ts
 * import { unemployment } from "./unemployment.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(unemployment.avus, null);
 * ```
 */
export const unemployment: DatasetSpec = {
  name: "Whitfield_CountyUnemployment_2017",
  style: "none",
  title: "US county unemployment rates (2009) and monthly employment by sector, 2006-2015",
  creators: ["Whitfield, Ruth"],
  year: "2017",
  description: "County unemployment rates from the Bureau of Labor Statistics Local Area " +
    "Unemployment Statistics program, roughly as reported for 2009, keyed by combined " +
    "state and county FIPS code; and seasonally adjusted monthly employment (thousands) for " +
    "the BLS supersectors, January 2006 to December 2015, with the month-to-month change in " +
    "total nonfarm employment.",
  license: null,
  deposited: "2017-08-22T13:00:00Z",
  curated: "2017-08-22T13:00:00Z",
  illustrativeCreators: true,
  avus: null,
  files: [
    {
      path: "unemployment_2009.tsv",
      note: "Tab-separated: id (state+county FIPS), rate (fraction of the labour force)",
      source: "unemployment.tsv",
    },
    {
      path: "us_employment_monthly.csv",
      note: "One row per month: employment (thousands) by supersector, nonfarm_change",
      source: "us-employment.csv",
    },
  ],
};
