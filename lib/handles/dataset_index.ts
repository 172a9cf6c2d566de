/**
 * {@linkcode DatasetIndex}: which Data Commons datasets carry a DOI or an ARK, for one store.
 *
 * @module
 */

import type { CallOptions } from "../client/endpoints.ts";
import { fetchCatalog } from "./dataset_listing.ts";
import type { Folder } from "./folder.ts";

/** What a datasets folder's datasets are known by, and the folder's date when it was read. */
interface Identifiers {
  modified: number;
  byIdentifier: Map<string, string[]>;
}

/**
 * A store's index of its datasets' DOIs and ARKs: the datasets' metadata is read once per
 * datasets folder (all of it, `concurrency` at a time) and kept for the life of the store that
 * owns the index, keyed by the folder's modification date, so that one request (the folder's
 * entry) checks it on later calls. A failed read is not kept: the next call tries again.
 *
 * @example
 * ```ts
 * import { DatasetIndex } from "./dataset_index.ts";
 * import { DATA_COMMONS_DATASETS } from "./resolve.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const index = new DatasetIndex({ concurrency: 4 });
 * const folder = store.folder(DATA_COMMONS_DATASETS);
 * const penguins = (await store.dataset(`${DATA_COMMONS_DATASETS}/Gorman_PalmerPenguins_Morphometrics_2020`).metadata()).doi!;
 * assert.equal((await index.datasetsWith(folder, `doi:${penguins}`)).length, 1);
 * const before = store.stats.requests;
 * await index.datasetsWith(folder, `doi:${penguins}`);
 * assert.equal(store.stats.requests - before, 1); // only the folder's entry, to check the date
 * ```
 */
export class DatasetIndex {
  readonly #concurrency: number;
  /** Per datasets folder, the last index built (or being built). */
  readonly #byFolder = new Map<string, Promise<Identifiers>>();

  /**
   * An empty index; nothing is read until {@linkcode DatasetIndex.datasetsWith} is called.
   *
   * @param options.concurrency Metadata requests in flight at once while the index is built.
   */
  constructor(options: { concurrency: number }) {
    this.#concurrency = options.concurrency;
  }

  /**
   * The paths of the datasets under `folder` whose DOI or ARK is `identifier` (`doi:…` or
   * `ark:/…`; case does not matter).
   */
  async datasetsWith(
    folder: Folder,
    identifier: string,
    options: CallOptions = {},
  ): Promise<string[]> {
    const entry = await folder.stat({ refresh: true, ...options });
    const modified = entry.modified.getTime();
    let pending = this.#byFolder.get(entry.path);
    if (pending === undefined || (await pending.catch(() => undefined))?.modified !== modified) {
      const built = this.#build(folder, modified, options);
      pending = built;
      this.#byFolder.set(entry.path, built);
      built.catch(() => {
        if (this.#byFolder.get(entry.path) === built) this.#byFolder.delete(entry.path);
      });
    }
    return (await pending).byIdentifier.get(identifier.toLowerCase()) ?? [];
  }

  async #build(folder: Folder, modified: number, options: CallOptions): Promise<Identifiers> {
    const records = await fetchCatalog(folder.datasets(), {
      concurrency: this.#concurrency,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const byIdentifier = new Map<string, string[]>();
    const add = (key: string, path: string) => {
      const paths = byIdentifier.get(key.toLowerCase()) ?? [];
      if (!paths.includes(path)) paths.push(path);
      byIdentifier.set(key.toLowerCase(), paths);
    };
    for (const record of records) {
      if ("error" in record) continue;
      if (record.doi !== undefined) add(`doi:${record.doi}`, record.path);
      if (record.ark !== undefined) add(record.ark, record.path);
    }
    return { modified, byIdentifier };
  }
}
