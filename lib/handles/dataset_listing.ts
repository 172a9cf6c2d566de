/**
 * {@linkcode DatasetListing}: what `folder.datasets()` returns — the sub-folders of a folder as
 * {@linkcode Dataset} handles, lazily — and the bounded-concurrency metadata fetch behind
 * `folder.catalog()`.
 *
 * @module
 */

import type { CallOptions } from "../client/endpoints.ts";
import { BadRequestError, NotFoundError, PermissionError, TernError } from "../client/errors.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderDatasets } from "../display/datasets.ts";
import type { Entry } from "../client/entry.ts";
import type { Listing } from "./listing.ts";
import type { ListOptions } from "../listing/options.ts";
import type { CatalogFailure } from "../metadata/catalog.ts";
import type { DatasetMetadata } from "../metadata/dataset_metadata.ts";
import { datasetRow, sharedTitles } from "./display.ts";
import type { RawMetadata } from "./handle.ts";
import { parentPath } from "./paths.ts";
import type { Dataset } from "./folder.ts";

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
  /** Metadata requests in flight at once (default: the store's `concurrency`). */
  concurrency?: number;
}

/**
 * The sub-folders of a folder as {@linkcode Dataset} handles, fetched lazily page by page (a
 * {@linkcode Listing} of folders underneath). Every sub-folder is a dataset — `_deprecated_`
 * ones included; their metadata says `deprecated: true`. Re-iterable, like a listing.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 *
 * await using store = await exampleStore();
 * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
 * for await (const dataset of curated.datasets()) {
 *   const metadata = await dataset.metadata();
 *   console.log(metadata.title ?? dataset.name, metadata.doi ?? metadata.ark ?? "no identifier");
 * }
 * ```
 */
export class DatasetListing implements AsyncIterable<Dataset> {
  readonly #folders: Listing;
  readonly #make: (entry: Entry) => Dataset;

  /**
   * Wraps a listing of folders; `folder.datasets()` does this.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { DatasetListing } from "./dataset_listing.ts";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const folders = curated.list({ type: "folder" });
   * const datasets = new DatasetListing(folders, (entry) => store.dataset(entry));
   * console.log(await datasets.count()); // 13
   * ```
   */
  constructor(folders: Listing, make: (entry: Entry) => Dataset) {
    this.#folders = folders;
    this.#make = make;
  }

  /**
   * Iterates the datasets, one listing page per request.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * for await (const dataset of curated.datasets({ glob: "NOAA_*" })) console.log(dataset.name);
   * // NOAA_SeattleWeather_Daily_2016
   * // NOAA_SeattleWeather_Daily_Jun2019
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncIterator<Dataset> {
    for await (const entry of this.#folders) yield this.#make(entry);
  }

  /**
   * Every dataset, in listing order.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const datasets = await curated.datasets().toArray();
   * console.log(datasets.length, datasets[0].name); // 13 BTS_FlightDelays_OnTime_2021
   * ```
   */
  async toArray(): Promise<Dataset[]> {
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
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const [newest] = await curated.datasets({ sort: "modified", order: "desc" }).take(1);
   * console.log(newest.name); // USGS_GAP_SpeciesHabitat_2023
   * ```
   */
  async take(n: number): Promise<Dataset[]> {
    return (await this.#folders.take(n)).map(this.#make);
  }

  /**
   * How many datasets iterating would yield (one request without a glob).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * console.log(await curated.datasets().count()); // 13
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
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * // In a notebook, a cell whose last line is `curated.datasets()` shows this table.
   * const bundle = await curated.datasets()[JUPYTER_DISPLAY](); // what the notebook asks for
   * console.log(bundle["text/plain"].split("\n")[0]);
   * // Datasets in /iplant/home/shared/commons_repo/curated — 13 datasets
   * ```
   */
  async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    try {
      const [first, total] = await Promise.all([this.take(DATASET_ROWS + 1), this.count()]);
      const shown = first.slice(0, DATASET_ROWS);
      const records = await fetchCatalog(fromArray(shown), { concurrency: 4 });
      const shared = sharedTitles(records);
      const path = shown[0]?.path === undefined ? undefined : parentPath(shown[0].path);
      return renderDatasets({
        ...(path === undefined ? { description: String(this.#folders) } : { path }),
        rows: records.map((record) => datasetRow(record, shared)),
        total,
        more: first.length > DATASET_ROWS || total > shown.length,
      });
    } catch (error) {
      if (error instanceof TernError) return error[JUPYTER_DISPLAY]();
      throw error;
    }
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
 *
 * await using store = await exampleStore();
 * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
 * const records = await fetchCatalog(curated.datasets(), { concurrency: 4 });
 * console.log(records.length, records.filter((record) => "error" in record).length); // 13 0
 * ```
 */
export async function fetchCatalog(
  datasets: AsyncIterable<Dataset>,
  options: { concurrency: number; signal?: AbortSignal },
): Promise<(DatasetMetadata<RawMetadata> | CatalogFailure)[]> {
  const { concurrency } = options;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new BadRequestError(`concurrency must be an integer ≥ 1, got ${String(concurrency)}.`);
  }
  const stop = new AbortController();
  const signal = options.signal === undefined
    ? stop.signal
    : AbortSignal.any([options.signal, stop.signal]);
  const call: CallOptions = { signal };
  const results: (DatasetMetadata<RawMetadata> | CatalogFailure)[] = [];
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;

  const read = async (dataset: Dataset, index: number) => {
    try {
      results[index] = await dataset.metadata(call);
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof PermissionError) {
        results[index] = {
          path: dataset.path ?? "",
          ...(dataset.id === undefined ? {} : { id: dataset.id }),
          error: error.message,
        };
      } else if (failure === undefined) {
        failure = { error };
        stop.abort();
      }
    }
  };

  let index = 0;
  try {
    for await (const dataset of datasets) {
      if (failure !== undefined) break;
      const task: Promise<void> = read(dataset, index++).finally(() => running.delete(task));
      running.add(task);
      if (running.size >= concurrency) await Promise.race(running);
    }
  } catch (error) {
    failure ??= { error };
    stop.abort();
  }
  await Promise.all(running);
  if (failure !== undefined) throw failure.error;
  return results;
}

async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
