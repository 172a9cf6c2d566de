/**
 * {@linkcode DatasetListing}: what `folder.datasets()` returns — the sub-folders of a folder as
 * {@linkcode Dataset} handles, lazily — and the bounded-concurrency metadata fetch behind
 * `folder.catalog()`.
 *
 * @module
 */

import { mapConcurrent } from "../client/map_concurrent.ts";
import { NotFoundError, PermissionError } from "../client/errors.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderDatasets } from "../display/datasets.ts";
import type { Entry } from "../client/entry.ts";
import type { Listing } from "./listing.ts";
import { type ListOptions, listRules } from "../listing/options.ts";
import { count, defineOptions, type OptionsSchema } from "../client/options.ts";
import type { CatalogFailure } from "../metadata/catalog.ts";
import type { DatasetMetadata } from "../metadata/dataset_metadata.ts";
import { datasetRow, sharedTitles, viewOrError } from "./display.ts";
import type { RawMetadata } from "./handle.ts";
import { parentPath } from "../client/paths.ts";
import type { CallOptions } from "../client/endpoints.ts";

/**
 * What a dataset listing needs of each dataset it lists; a `Dataset` is one. The listing names
 * this rather than `Dataset`, as `folder.ts`, which holds `Dataset`, imports the listing.
 *
 * @example
 * ```ts
 * import type { ListedDataset } from "./dataset_listing.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const penguins: ListedDataset = store.dataset(
 *   "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
 * );
 * assert.equal((await penguins.metadata()).doi, "10.25739/9k2v-7q4m");
 * ```
 */
export interface ListedDataset {
  /** The dataset folder's path, when known. */
  readonly path: string | undefined;
  /** The dataset folder's id, when known. */
  readonly id: string | undefined;
  /** The dataset's normalised metadata. */
  metadata(options?: CallOptions): Promise<DatasetMetadata<RawMetadata>>;
}

/** Datasets a dataset list's notebook view shows (one metadata request each). */
const DATASET_ROWS = 20;

/**
 * Options of `folder.datasets()`: those of `folder.list()` that make sense for sub-folders.
 *
 * @example
 * ```ts
 * import type { DatasetListOptions } from "./dataset_listing.ts";
 *
 * const newestFirst: DatasetListOptions = { sort: "modified", order: "desc" };
 * ```
 */
export type DatasetListOptions = Omit<ListOptions, "type" | "infoType">;

/**
 * Options of `folder.catalog()`.
 *
 * @example
 * ```ts
 * import type { CatalogOptions } from "./dataset_listing.ts";
 *
 * const options: CatalogOptions = { glob: "Gorman_*", concurrency: 4 };
 * ```
 */
export interface CatalogOptions extends DatasetListOptions {
  /**
   * Metadata requests in flight at once.
   *
   * @default the store's `concurrency`
   */
  concurrency?: number;
}

/**
 * The options of `folder.datasets()`.
 *
 * @example
 * ```ts
 * import { DATASET_LIST_OPTIONS } from "./dataset_listing.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => DATASET_LIST_OPTIONS.parse("folder.datasets()", { type: "file" }), {
 *   message: /^folder\.datasets\(\): unknown option "type"; the options are sort, order, /,
 * });
 * ```
 */
export const DATASET_LIST_OPTIONS: OptionsSchema<DatasetListOptions> = defineOptions(() => {
  const { type: _type, infoType: _infoType, ...rules } = listRules();
  return rules;
});

/**
 * The options of `folder.catalog()`.
 *
 * @example
 * ```ts
 * import { CATALOG_OPTIONS } from "./dataset_listing.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => CATALOG_OPTIONS.parse("folder.catalog()", { concurency: 2 }), {
 *   message: 'folder.catalog(): unknown option "concurency": did you mean "concurrency"?',
 * });
 * ```
 */
export const CATALOG_OPTIONS: OptionsSchema<CatalogOptions> = defineOptions(() => {
  const { type: _type, infoType: _infoType, ...rules } = listRules();
  return { ...rules, concurrency: count(1) };
});

/**
 * The sub-folders of a folder as {@linkcode Dataset} handles, fetched lazily page by page (a
 * {@linkcode Listing} of folders underneath). Every sub-folder is a dataset — `_deprecated_`
 * ones included; their metadata says `deprecated: true`. Re-iterable, like a listing.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
 * const titles = [];
 * for await (const dataset of curated.datasets()) {
 *   const metadata = await dataset.metadata();
 *   titles.push(metadata.title ?? dataset.name);
 * }
 * assert.equal(titles.length, 13);
 * assert.ok(titles.includes("Monthly atmospheric CO2 concentrations at Mauna Loa Observatory"));
 * ```
 */
export class DatasetListing<D extends ListedDataset = ListedDataset> implements AsyncIterable<D> {
  readonly #folders: Listing;
  readonly #make: (entry: Entry) => D;
  /** Metadata requests in flight at once when the listing shows itself. */
  readonly #concurrency: number;

  /**
   * Wraps a listing of folders; `folder.datasets()` does this.
   *
   * @param concurrency Metadata requests in flight at once when the listing shows itself
   * (a folder passes its store's `concurrency`).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { DatasetListing } from "./dataset_listing.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const folders = curated.list({ type: "folder" });
   * const datasets = new DatasetListing(folders, (entry) => store.dataset(entry));
   * assert.equal(await datasets.count(), 13);
   * ```
   */
  constructor(folders: Listing, make: (entry: Entry) => D, concurrency = 4) {
    this.#folders = folders;
    this.#make = make;
    this.#concurrency = concurrency;
  }

  /**
   * Iterates the datasets, one listing page per request.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const names = [];
   * for await (const dataset of curated.datasets({ glob: "NOAA_*" })) names.push(dataset.name);
   * assert.deepEqual(names, [
   *   "NOAA_SeattleWeather_Daily_2016",
   *   "NOAA_SeattleWeather_Daily_Jun2019",
   * ]);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncIterator<D> {
    for await (const entry of this.#folders) yield this.#make(entry);
  }

  /**
   * Every dataset, in listing order.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const datasets = await curated.datasets().toArray();
   * assert.equal(datasets.length, 13);
   * assert.equal(datasets[0].name, "BTS_FlightDelays_OnTime_2021");
   * ```
   */
  async toArray(): Promise<D[]> {
    return (await this.#folders.toArray()).map(this.#make);
  }

  /**
   * The first `n` datasets.
   *
   * @throws {BadRequestError} when `n` is not a non-negative integer.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const [newest] = await curated.datasets({ sort: "modified", order: "desc" }).take(1);
   * assert.equal(newest.name, "USGS_GAP_SpeciesHabitat_2023");
   * ```
   */
  async take(n: number): Promise<D[]> {
    return (await this.#folders.take(n)).map(this.#make);
  }

  /**
   * How many datasets iterating would yield (one request without a glob).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * assert.equal(await curated.datasets().count(), 13);
   * ```
   */
  async count(): Promise<number> {
    return await this.#folders.count();
  }

  /**
   * The notebook view: a small catalog of the first 20 datasets — title, year, DOI or ARK,
   * licence — with shared titles (among those shown), deprecated versions and incomplete
   * citations flagged, and how many datasets there are in all. `folder.catalog()` gives every
   * dataset as a DataFrame.
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * // In a notebook, a cell whose last line is `curated.datasets()` shows this table.
   * const bundle = await curated.datasets()[JUPYTER_DISPLAY](); // what the notebook asks for
   * assert.equal(
   *   bundle["text/plain"].split("\n")[0],
   *   "Datasets in /iplant/home/shared/commons_repo/curated — 13 datasets",
   * );
   * ```
   */
  async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    return await viewOrError(async () => {
      const [first, total] = await Promise.all([this.take(DATASET_ROWS + 1), this.count()]);
      const shown = first.slice(0, DATASET_ROWS);
      const records = await fetchCatalog(shown, { concurrency: this.#concurrency });
      const shared = sharedTitles(records);
      const path = shown[0]?.path === undefined ? undefined : parentPath(shown[0].path);
      return renderDatasets({
        ...(path === undefined ? { description: String(this.#folders) } : { path }),
        rows: records.map((record) => datasetRow(record, shared)),
        total,
        more: first.length > DATASET_ROWS || total > shown.length,
      });
    });
  }

  /** `DatasetListing(list /iplant/home/shared/commons_repo/curated, type "folder")`. */
  toString(): string {
    return `Dataset${String(this.#folders)}`;
  }

  /** Same as `toString()`, for `Deno.inspect` and notebooks' plain output. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.toString();
  }
}

/**
 * The metadata of every dataset, in iteration order, with at most `concurrency` datasets being
 * read at once. A dataset that vanished or cannot be read since it was listed becomes a
 * {@linkcode CatalogFailure} (a row that says why); any other error stops the whole fetch,
 * cancels what is in flight and is thrown.
 *
 * @throws {BadRequestError} when `concurrency` is not an integer ≥ 1.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { fetchCatalog } from "./dataset_listing.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
 * const records = await fetchCatalog(curated.datasets(), { concurrency: 4 });
 * assert.equal(records.length, 13);
 * assert.equal(records.filter((record) => "error" in record).length, 0);
 * ```
 */
export async function fetchCatalog(
  datasets: Iterable<ListedDataset> | AsyncIterable<ListedDataset>,
  options: { concurrency: number; signal?: AbortSignal },
): Promise<(DatasetMetadata<RawMetadata> | CatalogFailure)[]> {
  return await mapConcurrent(datasets, options.concurrency, async (dataset, _, signal) => {
    try {
      return await dataset.metadata({ signal });
    } catch (error) {
      // A dataset gone or closed since the listing is a row of the catalog, not its failure.
      if (error instanceof NotFoundError || error instanceof PermissionError) {
        return {
          path: dataset.path ?? "",
          ...(dataset.id === undefined ? {} : { id: dataset.id }),
          error: error.message,
        };
      }
      throw error;
    }
  }, options.signal === undefined ? {} : { signal: options.signal });
}
