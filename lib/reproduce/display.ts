/**
 * The provenance's and the lock's view data: what `store.provenance` and a lock hand to the pure
 * renderers of `lib/display/provenance.ts`, as plain data (a dataset's resolver link made here).
 *
 * @module
 */

import type {
  LockView,
  ProvenanceDatasetView,
  ProvenanceReadView,
  ProvenanceView,
} from "../display/provenance.ts";
import { resolverLinks } from "../metadata/citation.ts";
import { citedByOf } from "./bibliography.ts";
import type { Lock } from "./lock.ts";
import { definedOf } from "../client/defined.ts";

/**
 * The provenance card's view data from what a store's provenance holds: the datasets with
 * their resolver links (a DOI's, else an ARK's), the first file versions, and the
 * bibliography in each style.
 *
 * @example
 * ```ts
 * import { provenanceView } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const view = provenanceView({
 *   store: "http://127.0.0.1:8080/terrain", files: 0, changed: 0, locked: 0, reads: [],
 *   datasets: [{ path: "/c/x", ark: "ark:/87946/p3x9k1", files: 0, citedBy: "ark" }],
 *   bibliographies: [],
 * });
 * assert.equal(view.datasets[0].url, "https://n2t.net/ark:/87946/p3x9k1");
 * ```
 */
export function provenanceView(data: {
  store: string;
  files: number;
  changed: number;
  locked: number;
  reads: readonly ProvenanceReadView[];
  datasets: readonly Omit<ProvenanceDatasetView, "url">[];
  bibliographies: readonly { style: string; text: string }[];
}): ProvenanceView {
  const inDatasets = data.datasets.reduce((total, dataset) => total + dataset.files, 0);
  return {
    ...data,
    outside: data.files - inDatasets,
    datasets: data.datasets.map(provenanceDatasetView),
    reads: data.reads.map(provenanceReadView),
  };
}

/**
 * A provenance's dataset as the views show it: its fields and its resolver link (the DOI's,
 * else the ARK's).
 *
 * @example
 * ```ts
 * import { provenanceDatasetView } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const view = provenanceDatasetView({ path: "/c/x", doi: "10.7946/P2C35G", files: 2, citedBy: "doi" });
 * assert.equal(view.url, "https://doi.org/10.7946/P2C35G");
 * ```
 */
export function provenanceDatasetView(
  dataset: Omit<ProvenanceDatasetView, "url">,
): ProvenanceDatasetView {
  const { doiUrl, arkUrl } = resolverLinks(dataset);
  return {
    ...definedOf(dataset, ["path", "title", "doi", "ark"]),
    ...definedOf({ url: doiUrl ?? arkUrl }, ["url"]),
    files: dataset.files,
    citedBy: dataset.citedBy,
  };
}

/**
 * A file version read, as the views show it: the fields they show, and nothing else.
 *
 * @example
 * ```ts
 * import { provenanceReadView } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const read = { path: "/c/a.csv", id: "i", size: 3, modified: new Date(0), operations: ["text"] as const, status: "read" };
 * assert.deepEqual(Object.keys(provenanceReadView(read)), ["path", "size", "modified", "operations", "status"]);
 * ```
 */
export function provenanceReadView(read: ProvenanceReadView): ProvenanceReadView {
  return {
    ...definedOf(read, ["path", "size", "modified", "hash"]),
    operations: [...read.operations],
    ...definedOf(read, ["status", "dataset"]),
  };
}

/**
 * A lock as its view shows it: its datasets with the files of each and how each is cited, its
 * file versions, the store, the tern version, and the file it was written to.
 *
 * @example
 * ```ts
 * import { lockView } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const view = lockView({
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "http://127.0.0.1:8080/terrain",
 *   datasets: [{ path: "/c/Barley", creators: [], ark: "ark:/87946/p3f2r7" }],
 *   files: [{ path: "/c/Barley/a.csv", id: "i", size: 3, modified: "2020-01-01T00:00:00.000Z", dataset: "/c/Barley", operations: ["text"] }],
 * }, "tern.lock.json");
 * assert.deepEqual(view.datasets.map((d) => [d.files, d.citedBy]), [[1, "ark"]]);
 * assert.equal(view.files[0].modified.getUTCFullYear(), 2020);
 * ```
 */
export function lockView(lock: Lock, file?: string): LockView {
  const files = lock.files.map((entry) =>
    provenanceReadView({ ...entry, modified: new Date(entry.modified) })
  );
  return {
    ...(file === undefined ? {} : { file }),
    store: lock.store,
    tern: lock.tern,
    datasets: lock.datasets.map((dataset) =>
      provenanceDatasetView({
        ...dataset,
        files: files.filter((entry) => entry.dataset === dataset.path).length,
        citedBy: citedByOf(dataset),
      })
    ),
    files,
  };
}
