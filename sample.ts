/**
 * tern's sample store, for trying tern with no CyVerse account and no network: a realistic,
 * deterministic CyVerse-style data store (twelve Data Commons datasets covering every metadata
 * variant of the real curated collection, two users' homes, one file per data format, a folder
 * of 20,000 files), built from the public files of the `vega-datasets` npm package and served
 * by tern's embedded Terrain server.
 *
 * - {@linkcode serveSampleStore} builds it once (in the user's cache folder) and serves it;
 *   sign in as {@linkcode DEMO_USER}.
 * - {@linkcode exampleStore} does that and connects, giving a store that cleans up after itself
 *   (what tern's own documentation examples run against).
 * - {@linkcode SAMPLE_CASES} and the path constants name the interesting places in it.
 *
 * @example A notebook's first cell: the real service when `TERRAIN_URL` is set, else the sample
 * ```ts
 * import { connect } from "./mod.ts";
 * import { DEMO_USER, serveSampleStore } from "./sample.ts";
 * import assert from "node:assert/strict";
 *
 * await using server = await serveSampleStore();
 * const store = Deno.env.get("TERRAIN_URL") !== undefined
 *   ? connect()
 *   : connect({ url: server.url, token: DEMO_USER.token, progress: false });
 * assert.equal((await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").head(3)).height, 3);
 * ```
 *
 * @example The self-cleaning store of the documentation examples
 * ```ts
 * import { exampleStore, SAMPLE_CASES } from "./sample.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const metadata = await store.dataset(SAMPLE_CASES.fullMetadata).metadata();
 * assert.equal(metadata.license?.id, "CC0-1.0");
 * ```
 *
 * @module
 */

export * from "./lib/sample/mod.ts";
export {
  exampleStore,
  type ExampleStoreOptions,
  serveSampleStore,
  type ServeSampleStoreOptions,
} from "./lib/sample/example.ts";
