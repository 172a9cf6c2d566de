/**
 * The shape of a sample dataset: its folder, the files it holds (and how to produce them from
 * vega-datasets), its AVUs exactly as they are stored, and the clean facts its README states.
 *
 * @module
 */

import { CURATED_PATH } from "./constants.ts";
import type { SampleAvu, SampleComment } from "./sidecars.ts";
import type { VegaDatasets } from "./vega.ts";

/**
 * Which generation of Data Commons metadata a dataset carries (terrain-api.md §5.1):
 * - `datacite-4`: the current nested template (lower-case keys, sub-properties nested);
 * - `datacite-flat`: the older flat template (`datacite.title`, `Identifier`, …);
 * - `capitalised`: capitalised keys (`Title`, `Creator`, `Rights`, …);
 * - `partial`: a staging dataset with a few loosely named fields;
 * - `none`: no metadata sidecar at all.
 *
 * @example
 * ```ts
 * import { type MetadataStyle } from "./dataset_spec.ts";
 * import assert from "node:assert/strict";
 *
 * const style: MetadataStyle = "datacite-flat";
 * assert.ok(style.startsWith("datacite"));
 * ```
 */
export type MetadataStyle = "datacite-4" | "datacite-flat" | "capitalised" | "partial" | "none";

/**
 * Makes something (file bytes, a derived table) from the vega-datasets files, repeatably.
 *
 * @example
 * ```ts
 * import { type Producer, textFile } from "./dataset_spec.ts";
 * import assert from "node:assert/strict";
 *
 * const hello: Producer<Uint8Array> = textFile("hello\n");
 * assert.ok(typeof hello === "function");
 * ```
 */
export type Producer<T> = (vega: VegaDatasets) => Promise<T>;

/**
 * One file of a dataset: made by its `produce`, or else a copy of its vega-datasets `source`.
 *
 * @example
 * ```ts
 * import { type SampleFileSpec, textFile } from "./dataset_spec.ts";
 * import assert from "node:assert/strict";
 *
 * const copied: SampleFileSpec = { path: "sp500.csv", note: "S&P 500", source: "sp500.csv" };
 * const made: SampleFileSpec = { path: "hello.txt", note: "A greeting", produce: textFile("hi\n") };
 * assert.equal(copied.path, "sp500.csv");
 * assert.ok("produce" in made);
 * ```
 */
export type SampleFileSpec =
  & SampleFileFields
  & ({ produce: Producer<Uint8Array> } | { source: string });

/**
 * What every {@linkcode SampleFileSpec} says, however its bytes are made.
 *
 * @example
 * ```ts
 * import type { SampleFileFields } from "./dataset_spec.ts";
 * import assert from "node:assert/strict";
 *
 * const fields: SampleFileFields = { path: "sp500.csv", note: "S&P 500", source: "sp500.csv" };
 * assert.equal(fields.note, "S&P 500");
 * ```
 */
export interface SampleFileFields {
  /** Path relative to the dataset folder (`/`-separated; subfolders allowed). */
  path: string;
  /** One-line description for the README. */
  note: string;
  /** The vega-datasets file it is made from, for the README's provenance section. */
  source?: string;
  /** AVUs of the file itself, if any. */
  avus?: SampleAvu[];
  /** Comments on the file, if any. */
  comments?: SampleComment[];
}

/**
 * A dataset folder of the sample store.
 *
 * @example
 * ```ts
 * import { penguins } from "./datasets/penguins.ts";
 * import assert from "node:assert/strict";
 *
 * const spec: DatasetSpec = penguins;
 * assert.equal(spec.style, "datacite-4");
 * ```
 */
export interface DatasetSpec {
  /** Folder name, `Creator_subject_date` (or `_deprecated_…`). */
  name: string;
  /**
   * Parent folder (data-store path): the Data Commons' curated folder, where published datasets
   * live, unless another is given.
   *
   * @default CURATED_PATH
   */
  parent?: string;
  /** Metadata generation its AVUs follow. */
  style: MetadataStyle;
  /** Title as the README states it. */
  title: string;
  /** Creators in citation order, `Family, Given` or organisation names. */
  creators: string[];
  /** Publication year as the README states it. */
  year: string;
  /** Abstract for the README. */
  description: string;
  /** Rights value exactly as stored (null when there is no rights AVU). */
  license: string | null;
  /** Canonical DOI (`10.x/…`, no prefix or whitespace); absent when none is stored or it is empty. */
  doi?: string;
  /** Canonical ARK (`ark:/NAAN/name`), when there is one. */
  ark?: string;
  /** When the files were deposited (ISO UTC); file times count from here. */
  deposited: string;
  /** When the metadata was last edited (ISO UTC); the AVU sidecar's time. */
  curated: string;
  /** Folder AVUs exactly as stored; null means no sidecar at all. */
  avus: SampleAvu[] | null;
  /** Comments on the folder. */
  comments?: SampleComment[];
  /** Files, in the order the README lists them. */
  files: SampleFileSpec[];
  /** Extra README paragraphs (caveats, version notes). */
  notes?: string[];
  /** True when the named creators are invented (the README then says so). */
  illustrativeCreators?: boolean;
}

/**
 * The data-store path of a dataset's folder.
 *
 * @example
 * ```ts
 * import { datasetPath } from "./dataset_spec.ts";
 * import { penguins } from "./datasets/penguins.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   datasetPath(penguins),
 *   "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
 * );
 * ```
 */
export function datasetPath(spec: DatasetSpec): string {
  return `${spec.parent ?? CURATED_PATH}/${spec.name}`;
}

/**
 * Wraps a producer so it runs once per vega-datasets handle, for derived tables that several
 * files share (a CSV converted once, then written as CSV, Parquet and Arrow).
 *
 * @example
 * ```ts
 * import { once } from "./dataset_spec.ts";
 * import { VegaDatasets } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * let calls = 0;
 * const rows = once(async (v) => { calls++; return await v.json<unknown[]>("barley.json"); });
 * const vega = await VegaDatasets.open();
 * await rows(vega);
 * await rows(vega);
 * assert.equal(calls, 1);
 * ```
 */
export function once<T>(produce: Producer<T>): Producer<T> {
  const cache = new WeakMap<VegaDatasets, Promise<T>>();
  return (vega) => cache.getOrInsertComputed(vega, produce);
}

/**
 * A producer for fixed UTF-8 text.
 *
 * @example
 * ```ts
 * import { textFile } from "./dataset_spec.ts";
 * import { VegaDatasets } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = await textFile("hello\n")(await VegaDatasets.open());
 * assert.equal(new TextDecoder().decode(bytes), "hello\n");
 * ```
 */
export function textFile(text: string): Producer<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return () => Promise.resolve(bytes);
}
