/**
 * {@linkcode Provenance}: what a store read — every file version once, how it was read, and
 * the dataset it belongs to — with the datasets' bibliography, a lock file and a notebook card.
 *
 * @module
 */

import type { CallOptions } from "../client/endpoints.ts";
import { AuthError, NotFoundError, PermissionError } from "../client/errors.ts";
import { CALL_OPTIONS } from "../client/options.ts";
import {
  type FileVersion,
  READ_OPERATIONS,
  type ReadOperation,
  sameVersion,
  versionOfEntry,
} from "../client/file_version.ts";
import { VERSION } from "../client/version.ts";
import { statPaths } from "../client/stat_many.ts";
import type { Transport } from "../client/transport.ts";
import { quoteInput } from "../client/errors.ts";
import { definedOf } from "../client/defined.ts";
import { loadPolars } from "../data/polars.ts";
import type { DataFrame } from "../deps.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { withDisplay } from "../display/attach.ts";
import {
  renderLock,
  renderProvenance,
  renderProvenanceDatasets,
  renderProvenanceReads,
} from "../display/provenance.ts";
import { CITATION_STYLES, type CitationStyle, namesDataset } from "../metadata/citation.ts";
import type { DatasetMetadata } from "../metadata/dataset_metadata.ts";
import { type Bibliography, type CitedBy, citedByOf, makeBibliography } from "./bibliography.ts";
import { lockView, provenanceDatasetView, provenanceReadView, provenanceView } from "./display.ts";
import {
  type Lock,
  LOCK_FORMAT,
  LOCK_KIND,
  type LockedDataset,
  lockedDataset,
  lockStoreUrl,
  writeLock,
} from "./lock.ts";
import { parentPath } from "../client/paths.ts";
import {
  buildCrate,
  CRATE_OPTIONS,
  type CrateCallOptions,
  type CrateInputs,
  type ProvenanceCrate,
} from "./crate.ts";

/**
 * How a read stands against the store's lock: `read` (not locked, or the locked version),
 * `changed` (differs from the lock and was read anyway: `onChange: "warn"`) or `locked` (the
 * store had changed; the lock's version was read from the cache: `onChange: "locked"`).
 *
 * @example
 * ```ts
 * import type { ReadStatus } from "./provenance.ts";
 *
 * const status: ReadStatus = "changed";
 * ```
 */
export type ReadStatus = "read" | "changed" | "locked";

/** Statuses by their stored number. */
const STATUSES: readonly ReadStatus[] = ["read", "changed", "locked"];

/**
 * One file version a store read.
 *
 * @example
 * ```ts
 * import type { ProvenanceRead } from "./provenance.ts";
 *
 * const read: ProvenanceRead = {
 *   path: "/iplant/home/shared/a.csv", id: "6a1b2c3d", size: 2048, modified: new Date(0),
 *   operations: ["dataframe"], firstRead: new Date(), status: "read",
 * };
 * ```
 */
export interface ProvenanceRead {
  /** Data-store path (the first one it was read at). */
  readonly path: string;
  /** Item id: a file read by id and by path is one entry. */
  readonly id: string;
  /** Size in bytes. */
  readonly size: number;
  /** Date-modified. */
  readonly modified: Date;
  /** The store's own checksum (`md5:<hex>` or `sha2:<base64>`), where the store gave one. */
  readonly checksum?: string;
  /** Content hash `<algorithm>:<hex>`, where tern had one. */
  readonly hash?: string;
  /** How it was read (`dataframe`, `text`, `scan`, …), in {@linkcode READ_OPERATIONS} order. */
  readonly operations: readonly ReadOperation[];
  /** When it was first read. */
  readonly firstRead: Date;
  /** How it stands against the lock. */
  readonly status: ReadStatus;
  /**
   * The dataset it belongs to (its folder's path), once looked up: `datasets()`,
   * `bibliography()`, `save()`, `toDataFrame()` and the card look datasets up.
   */
  readonly dataset?: string;
}

/**
 * A dataset the store read files from: what citing it needs, how many files were read, and
 * what its citation points to.
 *
 * @example
 * ```ts
 * import type { ProvenanceDataset } from "./provenance.ts";
 *
 * const dataset: ProvenanceDataset = {
 *   path: "/iplant/home/shared/commons_repo/curated/Barley", title: "Barley", creators: [],
 *   doi: "10.7946/P2C35G", files: 2, citedBy: "doi",
 * };
 * ```
 */
export type ProvenanceDataset = LockedDataset & {
  /** File versions read from it. */
  readonly files: number;
  /** `doi`, else `ark`, else `path` (flagged: a dataset should be cited by its DOI). */
  readonly citedBy: CitedBy;
};

/** One file version, compactly: folders interned, operations as bits, times as numbers. */
interface Record {
  readonly id: string;
  /** Index into the folder table. */
  readonly folder: number;
  readonly name: string;
  readonly size: number;
  readonly modified: number;
  checksum: string | undefined;
  hash: string | undefined;
  operations: number;
  readonly at: number;
  status: number;
  /** The previous version of the same id, or -1. */
  readonly previous: number;
}

/**
 * The folder-to-dataset lookup a {@linkcode Provenance} uses: the dataset whose metadata a
 * folder holds, or `undefined` when it holds none.
 *
 * @example
 * ```ts
 * import type { DatasetLookup } from "./provenance.ts";
 *
 * const none: DatasetLookup = () => Promise.resolve(undefined);
 * ```
 */
export type DatasetLookup = (
  folder: string,
  options: CallOptions,
) => Promise<DatasetMetadata | undefined>;

/**
 * What a {@linkcode Provenance} asks its store for, beyond the dataset lookup: all optional, so a
 * provenance made alone (as in tests) records reads and asks nothing.
 *
 * @example
 * ```ts
 * import type { ProvenanceSources } from "./provenance.ts";
 *
 * const sources: ProvenanceSources = { storeId: () => Promise.resolve("tern-sample-store") };
 * ```
 */
export interface ProvenanceSources {
  /**
   * Asks the store's id, which a lock records.
   *
   * @default none: the lock names the store by URL alone
   */
  readonly storeId?: () => Promise<string | undefined>;
  /**
   * Where a crate's input copies come from.
   *
   * @default none: a crate copies no inputs
   */
  readonly inputs?: CrateInputs;
  /**
   * The store's transport (its credentials, limiter and retries): when a lock is made, the files
   * recorded without the store's checksum (pinned by a listing's entry) get it from batched
   * `filesystem/stat` requests through it, when the store still holds the version read.
   *
   * @default none (an offline store): those files keep no checksum
   */
  readonly transport?: Transport;
  /**
   * Where the note goes that names files whose checksum a lock cannot record, because the store
   * holds another version now (or none).
   *
   * @default console.warn
   */
  readonly warn?: (line: string) => void;
}

/**
 * The key under which a provenance hands its compact records to tern's tests (to bound their
 * size). Not exported by `mod.ts`.
 *
 * @example
 * ```ts
 * import { PROVENANCE_RECORDS } from "./provenance.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(typeof PROVENANCE_RECORDS, "symbol");
 * ```
 */
export const PROVENANCE_RECORDS: unique symbol = Symbol("tern.provenanceRecords");

/**
 * What a store read: every file version once — path, id, size, date-modified, the store's
 * checksum where it gave one, content hash where tern has one, how it was read, when, and how it
 * stands against the store's lock — and
 * the datasets those files belong to (the nearest folder with dataset metadata, looked up once
 * per folder, when first asked for). Each store keeps its own, as `store.provenance`.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const folder = "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020";
 * await store.file(`${folder}/penguins.csv`).text();
 * const [read] = store.provenance.reads;
 * assert.equal(read.path, `${folder}/penguins.csv`);
 * assert.deepEqual(read.operations, ["text"]);
 * const [dataset] = await store.provenance.datasets();
 * assert.equal(dataset.doi, "10.25739/9k2v-7q4m");
 * assert.match(String(await store.provenance.bibliography("apa")), /^Gorman, K\. B\./);
 * ```
 */
export class Provenance {
  readonly #store: string;
  readonly #lookup: DatasetLookup;
  readonly #sources: ProvenanceSources;
  readonly #records: Record[] = [];
  /** The latest record of each id. */
  readonly #latest = new Map<string, number>();
  readonly #folders: string[] = [];
  readonly #folderIndex = new Map<string, number>();
  /** Each folder's dataset (itself or an ancestor), looked up once. */
  readonly #datasetOf = new Map<string, Promise<LockedDataset | undefined>>();
  /** Folders whose dataset is known: the dataset's folder index, or -1 for none. */
  readonly #known = new Map<number, number>();
  readonly #datasets = new Map<string, LockedDataset>();
  /** Records whose version the store no longer held when a lock was made. */
  readonly #unpinned = new Set<number>();

  /**
   * An empty provenance; a store makes its own.
   *
   * @param store The store's URL (credentials, if any, are dropped).
   * @param lookup Reads a folder's dataset metadata.
   * @param sources What else it asks the store for (see {@linkcode ProvenanceSources}).
   *
   * @example
   * ```ts
   * import { Provenance } from "./provenance.ts";
   * import assert from "node:assert/strict";
   *
   * const provenance = new Provenance("http://127.0.0.1:8080/terrain", () => Promise.resolve(undefined));
   * provenance.record({ store: "http://127.0.0.1:8080/terrain", path: "/a/b/c.csv", id: "i", size: 3, modified: 0 }, "text");
   * provenance.record({ store: "http://127.0.0.1:8080/terrain", path: "/a/b/c.csv", id: "i", size: 3, modified: 0 }, "bytes");
   * assert.equal(provenance.reads.length, 1);
   * assert.deepEqual(provenance.reads[0].operations, ["text", "bytes"]);
   * ```
   */
  constructor(
    store: string,
    lookup: DatasetLookup,
    sources: ProvenanceSources = {},
  ) {
    this.#store = lockStoreUrl(store);
    this.#lookup = lookup;
    this.#sources = sources;
  }

  /**
   * Records a read of `version` by `operation`: a version already recorded (by id, whatever
   * the path) gains the operation, and its store checksum and hash when it had none; another
   * version of the same file is a new entry.
   *
   * @param status How the read stands against the lock.
   *
   * @example
   * ```ts
   * import { Provenance } from "./provenance.ts";
   * import assert from "node:assert/strict";
   *
   * const provenance = new Provenance("http://x/terrain", () => Promise.resolve(undefined));
   * const version = { store: "http://x/terrain", path: "/a/c.csv", id: "i", size: 3, modified: 0 };
   * provenance.record(version, "text");
   * provenance.record({ ...version, path: "/a/renamed.csv", hash: "xxh64:00ff" }, "dataframe");
   * provenance.record({ ...version, size: 4, modified: 1 }, "text");
   * assert.deepEqual(provenance.reads.map((read) => [read.path, read.size, read.hash]), [
   *   ["/a/c.csv", 3, "xxh64:00ff"],
   *   ["/a/c.csv", 4, undefined],
   * ]);
   * ```
   */
  record(version: FileVersion, operation: ReadOperation, status: ReadStatus = "read"): void {
    const bit = 1 << READ_OPERATIONS.indexOf(operation);
    const statusCode = Math.max(0, STATUSES.indexOf(status));
    const latest = this.#latest.get(version.id);
    for (let index = latest ?? -1; index >= 0; index = this.#records[index].previous) {
      const record = this.#records[index];
      if (!sameVersion(this.#versionOf(record, version.store), version)) continue;
      record.operations |= bit;
      record.checksum ??= version.checksum;
      record.hash ??= version.hash;
      record.status = Math.max(record.status, statusCode);
      return;
    }
    const folder = parentPath(version.path);
    this.#latest.set(version.id, this.#records.length);
    this.#records.push({
      id: version.id,
      folder: this.#folderOf(folder),
      name: version.path.slice(folder === "/" ? 1 : folder.length + 1),
      size: version.size,
      modified: version.modified,
      checksum: version.checksum,
      hash: version.hash,
      operations: bit,
      at: Date.now(),
      status: statusCode,
      previous: latest ?? -1,
    });
  }

  /** How many file versions were read. */
  get size(): number {
    return this.#records.length;
  }

  /**
   * Every file version read, in the order first read. In a notebook it shows as a table under
   * a one-line summary.
   */
  get reads(): ProvenanceRead[] {
    const reads = this.#records.map((record) => this.#readOf(record));
    return withDisplay(reads, () => renderProvenanceReads(reads.map(provenanceReadView)));
  }

  /**
   * The distinct datasets the files read belong to, with what citing them needs, in path
   * order. Looks up each folder read from (and its parents, up to the first with dataset
   * metadata) once per store: two requests per folder.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").bytes();
   * assert.deepEqual(await store.provenance.datasets(), []);
   * ```
   */
  async datasets(options: CallOptions = {}): Promise<ProvenanceDataset[]> {
    return await this.#readDatasets(CALL_OPTIONS.parse("provenance.datasets()", options));
  }

  async #readDatasets(options: CallOptions): Promise<ProvenanceDataset[]> {
    await this.#resolve(options);
    const counts = Map.groupBy(this.#datasetsRead(), (dataset) => dataset);
    const datasets = [...counts].map(([folder, { length: files }]) => {
      const dataset = this.#datasets.get(this.#folders[folder])!;
      return { ...dataset, files, citedBy: citedByOf(dataset) } satisfies ProvenanceDataset;
    }).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return withDisplay(
      datasets,
      () => renderProvenanceDatasets(datasets.map(provenanceDatasetView)),
    );
  }

  /**
   * One citation per dataset read, in `style` (default `datacite`; any of `CITATION_STYLES`),
   * deduplicated and in a stable order; datasets without a DOI are flagged (`flagged`).
   *
   * @throws {BadRequestError} for an unknown style.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = "/iplant/home/shared/commons_repo/curated";
   * await store.file(`${curated}/Gorman_PalmerPenguins_Morphometrics_2020/penguins.csv`).bytes();
   * const bibtex = await store.provenance.bibliography("bibtex");
   * assert.equal(bibtex.text.split("\n")[0], "@misc{Gorman2020Palmer,");
   * assert.deepEqual(bibtex.flagged, []);
   * ```
   */
  async bibliography(
    style: CitationStyle = "datacite",
    options: CallOptions = {},
  ): Promise<Bibliography> {
    const parsed = CALL_OPTIONS.parse("provenance.bibliography()", options);
    return await makeBibliography(await this.#readDatasets(parsed), style);
  }

  /**
   * The lock of what was read: the tern version, the store's URL (never with credentials),
   * the datasets with what citing them needs, and one entry per file version. In a notebook it
   * shows as a summary line over its datasets and files, not as the raw object.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/README.txt").text();
   * const lock = await store.provenance.lock();
   * assert.equal(lock.store, store.options.url);
   * assert.equal(lock.files[0].path, "/iplant/home/shared/tern_samples/formats/README.txt");
   * ```
   */
  async lock(options: CallOptions = {}): Promise<Lock> {
    const lock = await this.#lock(CALL_OPTIONS.parse("provenance.lock()", options));
    return withDisplay(lock, () => renderLock(lockView(lock)));
  }

  async #lock(options: CallOptions): Promise<Lock> {
    const [datasets, storeId] = await Promise.all([
      this.#readDatasets(options),
      this.#sources.storeId?.(),
      this.#fillChecksums(options),
    ]);
    return {
      lock: LOCK_KIND,
      format: LOCK_FORMAT,
      tern: VERSION,
      store: this.#store,
      ...(storeId === undefined ? {} : { storeId }),
      datasets: datasets.map(({ files: _files, citedBy: _citedBy, ...dataset }) => dataset),
      files: this.#records.map((record) => {
        const read = this.#readOf(record);
        return {
          ...definedOf(read, ["path", "id", "size"]),
          modified: read.modified.toISOString(),
          ...definedOf(read, ["checksum", "hash", "dataset", "operations"]),
        };
      }),
    };
  }

  /**
   * Writes the lock (see {@linkcode Provenance.lock}) to `path` as JSON — keys in a fixed
   * order, entries sorted, so the same reads give the same file — atomically (a reader never
   * sees half of it). Returns the lock written, which a notebook shows as a summary line (with
   * the file it went to) over its datasets and files. Pass it (or the file) to `connect({ lock })`
   * to check a rerun reads the same data; `tern lock verify` checks it against the store.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/README.txt").text();
   * const folder = await Deno.makeTempDir();
   * await store.provenance.save(`${folder}/tern.lock.json`);
   * const saved = JSON.parse(await Deno.readTextFile(`${folder}/tern.lock.json`));
   * assert.equal(saved.files.length, 1);
   * await Deno.remove(folder, { recursive: true });
   * ```
   */
  async save(path: string, options: CallOptions = {}): Promise<Lock> {
    const lock = await this.#lock(CALL_OPTIONS.parse("provenance.save()", options));
    await writeLock(path, lock);
    return withDisplay(lock, () => renderLock(lockView(lock, path)));
  }

  /**
   * What was read as an RO-Crate 1.1 (Process Run Crate): the lock's pins as the
   * `ro-crate-metadata.json` object, with `instrument` (the notebook), `outputs` and, with
   * `dir`, a crate folder holding the inputs (see {@linkcode CrateCallOptions}). In a notebook it
   * shows as a card of its entities with a download link. `connect({ lock: dir })` and
   * `tern lock from-crate` read the crate back as a lock.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/README.txt").text();
   * const crate = await store.provenance.crate();
   * const run = crate["@graph"].find((entity) => entity["@type"] === "CreateAction")!;
   * assert.equal((run.object as unknown[]).length, 1);
   * ```
   */
  async crate(options: CrateCallOptions = {}): Promise<ProvenanceCrate> {
    const parsed = CRATE_OPTIONS.parse("provenance.crate()", options);
    const lock = await this.#lock(parsed.signal === undefined ? {} : { signal: parsed.signal });
    const first = Math.min(...this.#records.map((record) => record.at));
    const times = this.#records.length === 0
      ? {}
      : { startTime: new Date(first).toISOString(), endTime: new Date().toISOString() };
    return await buildCrate(lock, times, parsed, this.#sources.inputs);
  }

  /**
   * Every file version read as a DataFrame: `path`, `id`, `size`, `modified`, `checksum` (the
   * store's), `hash`,
   * `operations` (comma-separated), `status`, `firstRead`, `dataset` (its folder), `title`,
   * `doi`, `ark`.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/README.txt").text();
   * const frame = await store.provenance.toDataFrame();
   * assert.equal(frame.height, 1);
   * assert.equal(frame.getColumn("operations").get(0), "text");
   * ```
   */
  async toDataFrame(options: CallOptions = {}): Promise<DataFrame> {
    await this.#resolve(CALL_OPTIONS.parse("provenance.toDataFrame()", options));
    const pl = await loadPolars();
    const reads = this.reads;
    const datasetOf = (read: ProvenanceRead) =>
      read.dataset === undefined ? undefined : this.#datasets.get(read.dataset);
    const text = (name: string, values: (string | undefined)[]) =>
      pl.Series(name, values.map((value) => value ?? null), pl.Utf8);
    return pl.DataFrame([
      text("path", reads.map((read) => read.path)),
      text("id", reads.map((read) => read.id)),
      pl.Series("size", reads.map((read) => read.size), pl.Int64),
      pl.Series("modified", reads.map((read) => read.modified), pl.Datetime("ms", "UTC")),
      text("checksum", reads.map((read) => read.checksum)),
      text("hash", reads.map((read) => read.hash)),
      text("operations", reads.map((read) => read.operations.join(","))),
      text("status", reads.map((read) => read.status)),
      pl.Series("firstRead", reads.map((read) => read.firstRead), pl.Datetime("ms", "UTC")),
      text("dataset", reads.map((read) => read.dataset)),
      text("title", reads.map((read) => datasetOf(read)?.title)),
      text("doi", reads.map((read) => datasetOf(read)?.doi)),
      text("ark", reads.map((read) => datasetOf(read)?.ark)),
    ]);
  }

  /** `Provenance: 3 files from 1 dataset` (datasets once looked up). */
  toString(): string {
    const datasets = new Set(this.#datasetsRead());
    return `Provenance: ${this.#records.length} file${this.#records.length === 1 ? "" : "s"}${
      datasets.size === 0 ? "" : ` from ${datasets.size} dataset${datasets.size === 1 ? "" : "s"}`
    } read`;
  }

  /** Same as `toString()`, for `Deno.inspect` and `console.log`. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.toString();
  }

  /**
   * The notebook card: "this notebook read N files from M datasets", the datasets, the file
   * versions, and the bibliography in every style (one `<details>` per style, no script).
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = "/iplant/home/shared/commons_repo/curated";
   * await store.file(`${curated}/Gorman_PalmerPenguins_Morphometrics_2020/penguins.csv`).bytes();
   * const card = await store.provenance[JUPYTER_DISPLAY]();
   * assert.equal(card["text/plain"].split("\n")[0], "This notebook read 1 file from 1 dataset.");
   * ```
   */
  async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    const datasets = await this.#readDatasets({});
    const bibliographies = await Promise.all(
      CITATION_STYLES.map(async (style) => ({
        style,
        text: (await makeBibliography(datasets, style)).text,
      })),
    );
    return renderProvenance(provenanceView({
      store: this.#store,
      reads: this.#records.length <= 200
        ? this.reads
        : this.#records.slice(0, 200).map((record) => this.#readOf(record)),
      files: this.#records.length,
      changed: this.#records.filter((record) => STATUSES[record.status] === "changed").length,
      locked: this.#records.filter((record) => STATUSES[record.status] === "locked").length,
      datasets,
      bibliographies,
    }));
  }

  /**
   * The compact records and folder table, for tern's tests.
   *
   * @ignore not exported by `mod.ts`.
   */
  get [PROVENANCE_RECORDS](): { records: readonly object[]; folders: readonly string[] } {
    return { records: this.#records, folders: this.#folders };
  }

  /** The index of a folder in `#folders`, added on first use. */
  #folderOf(folder: string): number {
    return this.#folderIndex.getOrInsertComputed(folder, () => this.#folders.push(folder) - 1);
  }

  /** The dataset (its index in `#folders`) of each file read that has a known one. */
  #datasetsRead(): number[] {
    const datasets = this.#records.map((record) => this.#known.get(record.folder) ?? -1);
    return datasets.filter((dataset) => dataset >= 0);
  }

  #pathOf(record: Record): string {
    const folder = this.#folders[record.folder];
    return folder === "/" ? `/${record.name}` : `${folder}/${record.name}`;
  }

  #versionOf(record: Record, store: string): FileVersion {
    return {
      store,
      path: this.#pathOf(record),
      ...definedOf(record, ["id", "size", "modified", "checksum", "hash"]),
    };
  }

  #readOf(record: Record): ProvenanceRead {
    const dataset = this.#known.get(record.folder) ?? -1;
    return {
      path: this.#pathOf(record),
      id: record.id,
      size: record.size,
      modified: new Date(record.modified),
      ...definedOf(record, ["checksum", "hash"]),
      operations: READ_OPERATIONS.filter((_, bit) => (record.operations & (1 << bit)) !== 0),
      firstRead: new Date(record.at),
      status: STATUSES[record.status],
      ...(dataset < 0 ? {} : { dataset: this.#folders[dataset] }),
    };
  }

  /**
   * Gives the records read without the store's checksum (pinned by a listing's entry, which
   * carries none) the checksum a batched stat reports, where the store still holds the version
   * read: one request per 1,000 files when the lock is made, rather than a stat per read. A file
   * the store now holds another version of (or none) keeps none, named in one note: the new
   * version's checksum would pin bytes that were never read.
   */
  async #fillChecksums(options: CallOptions): Promise<void> {
    const { transport } = this.#sources;
    if (transport !== undefined) await this.#statOpen(transport, options);
    // Every lock names them, as every lock lacks their checksum (unless a later read gave it).
    const gone = [...this.#unpinned].map((index) => this.#records[index])
      .filter((record) => record.checksum === undefined).map((record) => this.#pathOf(record));
    if (gone.length === 0) return;
    const shown = gone.slice(0, 5).map((path) => quoteInput(path)).join(", ");
    const more = gone.length > 5 ? ` and ${gone.length - 5} more` : "";
    (this.#sources.warn ?? console.warn)(
      `tern: the store no longer holds the version read of ${gone.length} file${
        gone.length === 1 ? "" : "s"
      } (${shown}${more}): changed, moved, removed or made unreadable since the read, so the ` +
        "lock records no store checksum for it, only its id, size and date-modified.",
    );
  }

  /**
   * Stats the records with no checksum not yet found gone: each gets its checksum, or joins
   * {@linkcode Provenance.#unpinned}. A record is one version, which a later stat cannot bring
   * back, so a file found gone is not asked again at the next lock.
   */
  async #statOpen(transport: Transport, options: CallOptions): Promise<void> {
    const open = [...this.#records.keys()].filter((index) =>
      this.#records[index].checksum === undefined && !this.#unpinned.has(index)
    );
    if (open.length === 0) return;
    const paths = open.map((index) => this.#pathOf(this.#records[index]));
    // Terrain stats only the community folder for anonymous callers.
    const asked = transport.anonymous ? paths.filter((path) => COMMUNITY.test(path)) : paths;
    const found = await statPaths(transport, asked, options);
    open.forEach((recordIndex, index) => {
      const record = this.#records[recordIndex];
      const entry = found.entries.get(paths[index]);
      if (entry === undefined) {
        if (asked === paths || COMMUNITY.test(paths[index])) this.#unpinned.add(recordIndex);
        return;
      }
      const now = versionOfEntry(this.#store, entry);
      if (entry.type !== "file" || !sameVersion(this.#versionOf(record, this.#store), now)) {
        this.#unpinned.add(recordIndex);
      } else record.checksum = now.checksum;
    });
  }

  /** Looks up the dataset of every folder read from that is not known yet. */
  async #resolve(options: CallOptions): Promise<void> {
    const folders = this.#records.map((record) => record.folder);
    const pending = new Set(folders.filter((folder) => !this.#known.has(folder)));
    for (const folder of pending) {
      const dataset = await this.#datasetOfFolder(this.#folders[folder], options);
      if (dataset !== undefined) this.#datasets.set(dataset.path, dataset);
      this.#known.set(folder, dataset === undefined ? -1 : this.#folderOf(dataset.path));
    }
  }

  /** The folder's dataset: its own metadata, else its parent's (never above `/zone/home`). */
  #datasetOfFolder(folder: string, options: CallOptions): Promise<LockedDataset | undefined> {
    return this.#datasetOf.getOrInsertComputed(folder, () => {
      const found = (async () => {
        const depth = folder.split("/").filter((part) => part !== "").length;
        if (depth <= 2) return undefined;
        const own = await this.#lookup(folder, options).catch((error) => {
          // A folder the user may not read cannot name the dataset; its parents still may.
          if (
            error instanceof NotFoundError || error instanceof PermissionError ||
            error instanceof AuthError
          ) return undefined;
          throw error;
        });
        const dataset = own === undefined ? undefined : lockedDatasetOf(own, folder);
        if (dataset !== undefined) return dataset;
        return await this.#datasetOfFolder(parentPath(folder), options);
      })();
      // A failed lookup (the network) is tried again next time.
      found.catch(() => this.#datasetOf.delete(folder));
      return found;
    });
  }
}

/** Paths in a zone's community folder, the only ones Terrain stats for anonymous callers. */
const COMMUNITY = /^\/[^/]+\/home\/shared\//;

/**
 * What a lock keeps of a dataset's metadata: what citing it needs. A folder whose metadata has
 * no title, DOI or ARK holds no dataset.
 */
function lockedDatasetOf(
  metadata: DatasetMetadata,
  path: string,
): LockedDataset | undefined {
  if (!namesDataset(metadata)) return undefined;
  return lockedDataset({ ...metadata, path: metadata.path === "" ? path : metadata.path });
}
