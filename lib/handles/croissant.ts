/**
 * What `dataset.croissant()` gathers from the store for the Croissant builder: each file's
 * checksum (one batched stat), the URL a reader fetches it at (its manifest), and each table's
 * columns from the head of the file, never the whole of a large one.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import { getManifest, publicUrlOf, readUrlOf } from "../client/endpoints.ts";
import type { Entry } from "../client/entry.ts";
import { mapConcurrent } from "../client/map_concurrent.ts";
import { abortSignal, count, defineOptions, flag, type OptionsSchema } from "../client/options.ts";
import { statPaths } from "../client/stat_many.ts";
import { withDisplay } from "../display/attach.ts";
import type { JUPYTER_DISPLAY, MediaBundle } from "../display/bundle.ts";
import { type CroissantView, renderCroissant } from "../display/croissant.ts";
import {
  type CroissantColumn,
  type CroissantDocument,
  type CroissantFile,
  type CroissantNode,
  type CroissantTable,
  datasetCroissant,
} from "../ld/croissant.ts";
import type { DatasetMetadata } from "../metadata/dataset_metadata.ts";
import { tableFormat } from "../registry/file_formats.ts";
import { formatOfName } from "../registry/format_detection.ts";
import { File } from "./file.ts";
import { folderUrl } from "../ld/crate.ts";
import { lockStoreUrl } from "../reproduce/lock.ts";
import type { StoreContext } from "./store_context.ts";

/**
 * Options of `dataset.croissant()`.
 *
 * @example
 * ```ts
 * import type { CroissantOptions } from "./croissant.ts";
 *
 * const filesOnly: CroissantOptions = { recordSets: false };
 * ```
 */
export interface CroissantOptions {
  /**
   * Whether to read each table file's columns into a `cr:RecordSet` (costs a head read per
   * table); `false` lists the files only.
   * @default {true}
   */
  recordSets?: boolean;
  /**
   * The rows of a CSV, TSV or JSON Lines file its column types are inferred from (only these
   * are downloaded).
   * @default {1000}
   */
  headRows?: number;
  /** Cancels the requests. */
  signal?: AbortSignal;
}

/**
 * The schema of {@linkcode CroissantOptions}.
 *
 * @example
 * ```ts
 * import { CROISSANT_OPTIONS } from "./croissant.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => CROISSANT_OPTIONS.parse("dataset.croissant()", { headRows: 0 }), {
 *   message: "dataset.croissant(): headRows must be an integer ≥ 1, got 0.",
 * });
 * ```
 */
export const CROISSANT_OPTIONS: OptionsSchema<CroissantOptions> = defineOptions<CroissantOptions>(
  () => ({ recordSets: flag(), headRows: count(1), signal: abortSignal() }),
);

/**
 * The largest table file whose columns are read by reading it whole, when its format has no
 * head read that stops early (JSON arrays, Arrow, private Parquet): such files above it get no
 * record set, so a large file is never downloaded for its schema.
 */
const WHOLE_READ_LIMIT = 8 * 1024 * 1024;

/**
 * A Croissant document, with its notebook card (not part of its JSON).
 *
 * @example
 * ```ts
 * import type { Croissant } from "./croissant.ts";
 *
 * const text = (document: Croissant) => JSON.stringify(document, null, 2);
 * ```
 */
export type Croissant = CroissantDocument & {
  [JUPYTER_DISPLAY]: () => MediaBundle | Promise<MediaBundle>;
};

/**
 * Builds the Croissant document of the dataset at `metadata.path` from its `files` (every file
 * under it, from a walk): one batched stat for the checksums, one manifest per file (under the
 * store's concurrency) for its URL and media type, and per table file the head of it (see
 * {@linkcode CroissantOptions.headRows}); a public Parquet file gives its schema from its
 * footer alone.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "./store_context.ts";
 * import { gatherCroissant } from "./croissant.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const barley = store.dataset(
 *   "/iplant/home/shared/commons_repo/curated/Immer_BarleyVarietyTrials_Jun2018",
 * );
 * const files = await barley.walk({ type: "file" }).toArray();
 * const document = await gatherCroissant(store[STORE_CONTEXT], await barley.metadata(), files, {});
 * const names = document.distribution.map((file) => file.name);
 * assert.deepEqual(names.toSorted(), ["README.txt", "barley.csv", "original/barley.json"]);
 * ```
 */
export async function gatherCroissant(
  context: StoreContext,
  metadata: DatasetMetadata,
  files: readonly Entry[],
  options: CroissantOptions,
): Promise<Croissant> {
  const { transport } = context;
  const root = `${metadata.path}/`;
  const [stat, described] = await Promise.all([
    statPaths(transport, files.map((entry) => entry.path), options),
    mapConcurrent(files, transport.policy.concurrency, async (entry, _, signal) => {
      const manifest = await getManifest(transport, entry.path, { signal });
      const isPublic = publicUrlOf(manifest) !== undefined;
      const file: CroissantFile = {
        name: entry.path.startsWith(root) ? entry.path.slice(root.length) : entry.name,
        url: readUrlOf(transport, entry.path, manifest).url,
        size: entry.size,
        encodingFormat: manifest["content-type"],
        modified: entry.modified,
      };
      const table = options.recordSets === false ? undefined : await tableOf(context, entry, {
        name: file.name,
        isPublic,
        headRows: options.headRows ?? 1000,
        signal,
      });
      return { file, table, path: entry.path };
    }, options),
  ]);
  const document = datasetCroissant({
    metadata,
    citeAs: await metadata.citation("bibtex"),
    files: described.map(({ file, path }) => {
      const checksum = stat.entries.get(path)?.checksum;
      return checksum === undefined ? file : { ...file, checksum };
    }),
    tables: described.flatMap(({ table }) => table === undefined ? [] : [table]),
    // The manifest gives files their public URLs, never a folder: the folder's is the store's
    // (as in a crate), which Terrain answers with its listing.
    url: folderUrl(lockStoreUrl(transport.url), metadata.path),
  });
  return withDisplay(document, () => renderCroissant(croissantView(document, metadata.path)));
}

/** What Croissant 1.0 requires of a dataset besides what tern always writes. */
const REQUIRED = ["description", "license", "url", "creator", "datePublished"] as const;

/** The card's plain view data. */
function croissantView(document: CroissantDocument, path: string): CroissantView {
  const text = (value: unknown) => String(value);
  return {
    name: document.name,
    path,
    files: document.distribution.map((file) => ({
      name: text(file.name),
      url: text(file.contentUrl),
      size: Number.parseInt(text(file.contentSize), 10),
      encodingFormat: text(file.encodingFormat),
      ...(file.md5 !== undefined
        ? { checksum: `md5 ${text(file.md5)}` }
        : file.sha256 !== undefined
        ? { checksum: `sha256 ${text(file.sha256)}` }
        : {}),
    })),
    recordSets: document.recordSet.map((set) => ({
      name: text(set.name),
      fields: (set.field as CroissantNode[]).map((field) => ({
        name: text(field.name),
        dataType: `${text(field.dataType)}${field.repeated === true ? "[]" : ""}`,
      })),
    })),
    missing: REQUIRED.filter((key) => document[key] === undefined),
    json: JSON.stringify(document, null, 2),
  };
}

/** A table file's columns, from as little of it as its format allows; none for other files. */
async function tableOf(
  context: StoreContext,
  entry: Entry,
  { name, isPublic, headRows, signal }: {
    /** The file's name in the document. */
    name: string;
    /** Whether it is public, so Polars can scan it over byte ranges. */
    isPublic: boolean;
    headRows: number;
    signal: AbortSignal;
  },
): Promise<CroissantTable | undefined> {
  const reader = formatOfName(entry.name);
  if (reader === undefined) return undefined;
  const reading = tableFormat(reader).table;
  const file = new File(context, { entry });
  let frame: DataFrame;
  let rows: number | undefined = headRows;
  if (reading.streamed) frame = await file.head(headRows, { signal });
  else if (reading.remoteScan && isPublic) {
    // Byte ranges: the footer holds the schema, so no row group is fetched.
    frame = await (await file.scan({ signal })).head(0).collect();
    rows = undefined;
  } else if (entry.size <= WHOLE_READ_LIMIT) {
    frame = await file.head(headRows, { signal });
    if (reader === "parquet" || reader === "arrow") rows = undefined;
  } else return undefined;
  return { file: name, ...(rows === undefined ? {} : { rows }), columns: columnsOf(frame) };
}

function columnsOf(frame: DataFrame): CroissantColumn[] {
  return Object.entries(frame.schema).map(([name, dtype]) => ({
    name,
    dtype: dtypeName(dtype as { variant: string }),
  }));
}

/** Polars' name of a data type, a list as `List(inner)`. */
function dtypeName(dtype: { variant: string; inner?: unknown }): string {
  if (dtype.variant !== "List" && dtype.variant !== "Array") return dtype.variant;
  const inner = Array.isArray(dtype.inner) ? dtype.inner[0] : dtype.inner;
  return `List(${dtypeName(inner as { variant: string })})`;
}
