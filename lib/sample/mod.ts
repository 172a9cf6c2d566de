/**
 * The tern sample store: a realistic, deterministic CyVerse-style data store built from the
 * public files of the `vega-datasets` npm package, served by tern's embedded Terrain server
 * for the demo, the notebooks and the tests.
 *
 * It holds twelve published Data Commons datasets covering every metadata variant seen in the
 * real curated collection (nested DataCite 4.x, flat `datacite.*`, capitalised keys, typos,
 * trailing tabs, empty values, DOIs and ARKs in several shapes, many licence spellings, no
 * metadata at all), a deprecated and a staging dataset, two users' homes, saved searches,
 * comments, one small file per data format and a folder of 20,000 files for paging.
 *
 * @example Build (once per machine) a store, serve it and list a dataset
 * ```ts
 * import { DEMO_USER, ensureSampleStore, SAMPLE_CASES } from "./mod.ts";
 * import { startServer } from "../../server.ts";
 * import assert from "node:assert/strict";
 *
 * // Built in the user's cache folder on first use, reused after; pass a folder to choose one.
 * const root = await ensureSampleStore();
 * await using server = await startServer({ root, port: 0, quiet: true });
 * const url = `${server.url}/secured/filesystem/paged-directory?limit=10&path=` +
 *   encodeURIComponent(SAMPLE_CASES.fullMetadata);
 * const res = await fetch(url, { headers: { Authorization: `Bearer ${DEMO_USER.token}` } });
 * assert.equal((await res.json()).total, 4);
 * ```
 *
 * @module
 */

export {
  buildSampleStore,
  defaultSampleStoreDir,
  ensureSampleStore,
  isSampleStoreCurrent,
  resetSampleStore,
  SAMPLE_STORE_ENV,
  SampleStoreError,
  type SampleStoreOptions,
  type SampleStoreSummary,
} from "./build.ts";
export {
  type MetadataStyle,
  SAMPLE_CASES,
  SAMPLE_DATASETS,
  type SampleCases,
  type SampleDataset,
} from "./catalog.ts";
export { partCsv, partName } from "./community.ts";
// Every constant of the sample store is public.
export * from "./constants.ts";
export type { SampleAvu, SampleComment } from "./sidecars.ts";
