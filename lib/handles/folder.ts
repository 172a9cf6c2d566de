/**
 * {@linkcode Folder}: a data-store folder — its sub-folders, lazy
 * listings of its entries or of its whole tree, its datasets and their catalog, and handles for
 * what it holds — and {@linkcode Dataset}: a folder that holds a dataset — its normalised
 * metadata, its citation in every style, and its notebook card. One file, as a folder lists
 * datasets and a dataset is a folder: apart, the two files would import each other.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import { type CallOptions, getDirectory } from "../client/endpoints.ts";
import { withFrameDisplay } from "../frames/view.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderDataset } from "../display/dataset.ts";
import { renderListing } from "../display/listing.ts";
import { type Entry, folderEntry } from "../client/entry.ts";
import { Listing } from "./listing.ts";
import { CALL_OPTIONS } from "../client/options.ts";
import {
  LIST_OPTIONS,
  type ListOptions,
  resolveListOptions,
  resolveWalkOptions,
  WALK_OPTIONS,
  type WalkOptions,
} from "../listing/options.ts";
import { catalogFrame, catalogRows } from "../metadata/catalog.ts";
import { checkCitationStyle, type CitationStyle } from "../metadata/citation.ts";
import type { DatasetMetadata } from "../metadata/dataset_metadata.ts";
import { normalizeMetadata } from "../metadata/normalize.ts";
import {
  CATALOG_OPTIONS,
  type CatalogOptions,
  DATASET_LIST_OPTIONS,
  DatasetListing,
  type DatasetListOptions,
  fetchCatalog,
} from "./dataset_listing.ts";
import {
  type Croissant,
  CROISSANT_OPTIONS,
  type CroissantOptions,
  gatherCroissant,
} from "./croissant.ts";
import { datasetView, folderView, viewOrError } from "./display.ts";
import type { StoreContext } from "./store_context.ts";
import { File } from "./file.ts";
import { Handle, type Location, type RawMetadata } from "./handle.ts";
import { normalizeRelative } from "../client/paths.ts";
import { statFolder } from "./stat.ts";

/**
 * A folder in the data store. Made by `store.folder(path | id | entry)` or
 * `folder.folder(name)`; nothing is sent until a method needs it.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const samples = store.folder("/iplant/home/shared/tern_samples");
 * const names: string[] = [];
 * for await (const entry of samples.list()) names.push(`${entry.type} ${entry.name}`);
 * assert.deepEqual(names, ["folder formats", "folder many_files", "file README.txt"]);
 * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
 * const csv = await curated.walk({ glob: "**" + "/*.csv", maxDepth: 2 }).toArray();
 * assert.equal(csv.length, 11);
 * ```
 */
export class Folder extends Handle {
  /** Always `folder`. */
  readonly kind = "folder" as const;

  /**
   * Used by the store and folders; call `store.folder()` or `folder.folder()` instead.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { Folder } from "./folder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const folder = store.folder("/iplant/home/shared");
   * assert.ok(folder instanceof Folder);
   * ```
   */
  constructor(context: StoreContext, location: Location) {
    super(context, location);
  }

  /**
   * A handle for the sub-folder at `relative` (`"raw"` or `"raw/2019"`); sends nothing.
   *
   * @throws {BadRequestError} for an empty or absolute path, or `.`/`..` segments.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.folder("/iplant/home/shared").folder("tern_samples/formats");
   * assert.equal(formats.path, "/iplant/home/shared/tern_samples/formats");
   * ```
   */
  folder(relative: string): Folder {
    return new Folder(this.context, this.#child(relative, "folder.folder()"));
  }

  /**
   * A handle for the file at `relative` (`"data.csv"` or `"raw/a.csv"`); sends nothing.
   *
   * @throws {BadRequestError} for an empty or absolute path, or `.`/`..` segments.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const readme = store.folder("/iplant/home/shared/tern_samples/formats").file("README.txt");
   * assert.equal((await readme.text()).split("\n")[0], "One table, every format");
   * ```
   */
  file(relative: string): File {
    return new File(this.context, this.#child(relative, "folder.file()"));
  }

  /**
   * The folder's sub-folders (no files), in one request to `filesystem/directory`, which needs a
   * signed-in store; an anonymous store reads them from the paged listing instead (same
   * entries, one request per 1,000).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const folders = await store.folder("/iplant/home/shared").folders();
   * assert.deepEqual(
   *   folders.map((entry) => entry.name),
   *   ["commons_repo", "iplantcollaborative", "tern_samples"],
   * );
   * ```
   */
  async folders(options: CallOptions = {}): Promise<Entry[]> {
    options = CALL_OPTIONS.parse("folder.folders()", options);
    if (this.context.transport.anonymous) {
      return await this.#list({ type: "folder", signal: options.signal }).toArray();
    }
    const path = await this.locate(options.signal);
    const listing = await getDirectory(this.context.transport, path, options);
    return listing.folders.map(folderEntry);
  }

  /**
   * The folder's entries, lazily: see {@linkcode Listing}. Options filter (`type`, `infoType`
   * on the server, `glob` on the client), sort (`sort`, `order`; folders always come first) and
   * size the pages (`pageSize`, default 1000).
   *
   * @throws {BadRequestError} at once for a bad option; later errors (not found, not a folder,
   * sign-in needed) come from the iteration.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
   * const biggest = await formats.list({ type: "file", sort: "size", order: "desc" }).take(3);
   * assert.deepEqual(
   *   biggest.map((entry) => entry.name),
   *   ["penguins.json", "penguins.ndjson", "penguins.arrow"],
   * );
   * ```
   */
  list(options: ListOptions = {}): Listing {
    return this.#list(LIST_OPTIONS.parse("folder.list()", options));
  }

  #list(options: ListOptions): Listing {
    return new Listing({
      context: this.context,
      folder: (signal) => this.locate(signal),
      label: this.label,
      mode: "list",
      options: resolveListOptions(options),
    });
  }

  /**
   * The entries of the folder and all its sub-folders, breadth first, lazily: see
   * {@linkcode Listing}. `maxDepth` limits the levels (1 = this folder only), `glob` matches
   * paths relative to this folder (`raw/*.csv`; with `**` for any depth) and also keeps the walk
   * out of folders that cannot hold a match, `concurrency` bounds the folders fetched at once
   * (default: the store's).
   *
   * @throws {BadRequestError} at once for a bad option.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const tables = await curated.walk({ type: "file", infoType: ["csv", "tsv"] }).toDataFrame();
   * assert.equal(tables.height, 16);
   * ```
   */
  walk(options: WalkOptions = {}): Listing {
    return new Listing({
      context: this.context,
      folder: (signal) => this.locate(signal),
      label: this.label,
      mode: "walk",
      options: resolveWalkOptions(
        WALK_OPTIONS.parse("folder.walk()", options),
        this.context.transport.policy.concurrency,
      ),
    });
  }

  /**
   * The folder's sub-folders as {@linkcode Dataset} handles, lazily (one listing request per
   * page, folders only). Nothing is skipped: `_deprecated_` folders are there too, flagged by
   * their metadata. Options sort, filter by glob and size the pages as for `list()`.
   *
   * @throws {BadRequestError} at once for a bad option.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const years: string[] = [];
   * for await (const dataset of curated.datasets({ glob: "NOAA_*" })) {
   *   const citation = await dataset.citation();
   *   assert.match(citation, /^NOAA National Centers for Environmental Information/);
   *   years.push(citation.match(/\((\d{4})\)/)![1]);
   * }
   * assert.deepEqual(years, ["2016", "2019"]);
   * ```
   */
  datasets(options: DatasetListOptions = {}): DatasetListing<Dataset> {
    return this.#datasets(DATASET_LIST_OPTIONS.parse("folder.datasets()", options));
  }

  #datasets(options: DatasetListOptions): DatasetListing<Dataset> {
    return new DatasetListing(
      this.#list({ ...options, type: "folder" }),
      (entry) => new Dataset(this.context, { entry }),
      this.context.transport.policy.concurrency,
    );
  }

  /**
   * A catalog of the folder's datasets as a nodejs-polars DataFrame, one row per sub-folder:
   * `path`, `id`, `title`, `creators`, `year`, `doi`, `ark`, `license` (SPDX id),
   * `licenseConfidence`, `subjects`, `dateModified`, `duplicateTitle`, `deprecated`, `missing`
   * and `error`. Metadata is fetched with at most `concurrency` datasets at once (default: the
   * store's). Rows are identified by id and path; datasets sharing a title are flagged with
   * `duplicateTitle`, never merged. A dataset that vanished or cannot be read since it was
   * listed keeps its row, with the reason in `error`; other failures reject.
   *
   * @throws {BadRequestError} at once for a bad option.
   *
   * @example
   * ```ts
   * import pl from "../../polars.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const catalog = await store.folder("/iplant/home/shared/commons_repo/curated").catalog();
   * assert.equal(catalog.height, 13);
   * const noDoi = catalog.filter(pl.col("doi").isNull());
   * assert.equal(noDoi.height, 4);
   * assert.deepEqual(noDoi.getColumn("missing").toArray()[0], ["doi"]);
   * ```
   */
  async catalog(options: CatalogOptions = {}): Promise<DataFrame> {
    options = CATALOG_OPTIONS.parse("folder.catalog()", options);
    const { concurrency, ...listOptions } = options;
    const records = await fetchCatalog(this.#datasets(listOptions), {
      concurrency: concurrency ?? this.context.transport.policy.concurrency,
      signal: options.signal,
    });
    return withFrameDisplay(await catalogFrame(catalogRows(records)), {
      title: `Datasets in ${this.name ?? this.path ?? "the folder"}`,
    });
  }

  /**
   * The notebook view: the folder's first 25 entries by name (folders first) with type, size
   * and date, how many there are in all, and the folder's own date — one request. A folder that
   * cannot be read shows its typed error instead.
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * // In a notebook, a cell whose last line is this folder shows its table.
   * const folder = store.folder("/iplant/home/shared/tern_samples/formats");
   * const bundle = await folder[JUPYTER_DISPLAY](); // what the notebook asks for
   * assert.equal(
   *   bundle["text/plain"].split("\n")[0],
   *   "Folder /iplant/home/shared/tern_samples/formats — 9 entries",
   * );
   * ```
   */
  async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    return await viewOrError(async () =>
      renderListing(await folderView(this.context.transport, await this.locate()))
    );
  }

  /**
   * Reads the folder's own entry with one request; see {@linkcode statFolder}.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const before = store.stats.requests;
   * await store.folder("/iplant/home/shared/tern_samples").stat(); // calls fetchEntry once
   * assert.equal(store.stats.requests - before, 1);
   * ```
   */
  protected fetchEntry(path: string, options: CallOptions): Promise<Entry> {
    return statFolder(this.context.transport, path, options);
  }

  #child(relative: string, what: string): Location {
    return {
      parent: { folder: this, relative: normalizeRelative(relative, `The path given to ${what}`) },
    };
  }
}

/**
 * A folder that holds a dataset (a Data Commons curated folder, for instance): a
 * {@linkcode Folder} whose `metadata()` is the normalised record — title, creators, year, DOI,
 * ARK, licence, … — with the AVUs as served kept in `raw`, and which can cite itself.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const penguins = store.dataset(
 *   "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
 * );
 * const metadata = await penguins.metadata();
 * assert.equal(metadata.doi, "10.25739/9k2v-7q4m");
 * assert.equal(metadata.license?.id, "CC0-1.0");
 * assert.deepEqual(metadata.missing, []);
 * assert.match(await penguins.citation("apa"), /^Gorman, K\. B\., Williams, T\. D\., & Fraser/);
 * ```
 */
export class Dataset extends Folder {
  /**
   * The dataset's metadata, normalised (see {@linkcode DatasetMetadata}): one request for the
   * AVUs, plus one to stat the folder when the handle does not know its entry yet (its
   * date-modified is the record's `dateModified` unless an attribute gives one). The AVUs as
   * served are in `raw`; the record also has the raw metadata's `path`, `avus` and `irodsAvus`,
   * so code written for `handle.metadata()` keeps working. A dataset without AVUs gives an empty
   * record, not an error.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const barley = store.dataset(
   *   "/iplant/home/shared/commons_repo/curated/Immer_BarleyVarietyTrials_Jun2018",
   * );
   * const metadata = await barley.metadata();
   * assert.deepEqual(
   *   metadata.creators.map((creator) => creator.name),
   *   ["Immer, F. R.", "Hayes, H. K.", "Powers, LeRoy"],
   * );
   * assert.equal(metadata.sources.title, "datacite.title");
   * assert.equal(metadata.raw.avus.length, 29);
   * assert.equal(metadata.notes.length, 1);
   * assert.match(metadata.notes[0], /cannot be paired by position; not assigned$/);
   * ```
   */
  override async metadata(options: CallOptions = {}): Promise<DatasetMetadata<RawMetadata>> {
    return await this.#metadata(CALL_OPTIONS.parse(this.call("metadata"), options));
  }

  async #metadata(options: CallOptions): Promise<DatasetMetadata<RawMetadata>> {
    const entry = await this.statEntry(options);
    const raw = await this.rawMetadata(options);
    return await normalizeMetadata(raw, { id: entry.id, folderModified: entry.modified });
  }

  /**
   * The dataset's citation (see `DatasetMetadata.citation`): `datacite` by default, or `apa`,
   * `bibtex`, `ris`, `csl-json`.
   *
   * @throws {BadRequestError} for an unknown style.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const penguins = store.dataset(
   *   "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
   * );
   * assert.equal(
   *   await penguins.citation(),
   *   "Gorman, K. B., Williams, T. D., Fraser, W. R. (2020). Palmer Archipelago (Antarctica) " +
   *     "penguin size measurements, 2007-2009. Version 1.0. CyVerse Data Commons. " +
   *     "https://doi.org/10.25739/9k2v-7q4m",
   * );
   * const bibtex = await penguins.citation("bibtex");
   * assert.equal(bibtex.split("\n")[0], "@misc{Gorman2020Palmer,");
   * ```
   */
  async citation(style: CitationStyle = "datacite", options: CallOptions = {}): Promise<string> {
    checkCitationStyle(style);
    const parsed = CALL_OPTIONS.parse(this.call("citation"), options);
    return await (await this.#metadata(parsed)).citation(style);
  }

  /**
   * The dataset as Croissant 1.0 JSON-LD (MLCommons' format that ML tooling reads): its
   * metadata, one `cr:FileObject` per file under the folder (the URL a reader fetches it at —
   * the public WebDAV URL, or the download URL of a private file, never a token — its size,
   * media type and the store's checksum), and one `cr:RecordSet` per table file, its
   * `cr:Field`s typed from the head of the file (a public Parquet file: its footer), never the
   * whole of a large one. `JSON.stringify` gives the document; a notebook shows it as a card
   * with a download link. See docs/reproducibility.md.
   *
   * @throws {BadRequestError} for a bad option.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const penguins = store.dataset(
   *   "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
   * );
   * const croissant = await penguins.croissant();
   * assert.equal(croissant.conformsTo, "http://mlcommons.org/croissant/1.0");
   * assert.deepEqual(croissant.sameAs, ["https://doi.org/10.25739/9k2v-7q4m", "https://n2t.net/ark:/87946/p3x9k1"]);
   * const csv = croissant.recordSet.find((set) => set.name === "penguins.csv");
   * assert.ok(csv !== undefined);
   * ```
   */
  async croissant(options: CroissantOptions = {}): Promise<Croissant> {
    const parsed = CROISSANT_OPTIONS.parse(this.call("croissant"), options);
    const [metadata, files] = await Promise.all([
      this.#metadata({ signal: parsed.signal }),
      this.walk({ type: "file" }).toArray(),
    ]);
    return await gatherCroissant(this.context, metadata, files, parsed);
  }

  /**
   * The notebook view, a dataset card: title, creators, year, DOI and ARK as resolver links,
   * the licence as a badge linking its text, subjects, the description (collapsed), a summary
   * of the files, the citation as selectable text, and flags for what is wrong — no metadata, a
   * citation that lacks fields, a deprecated version, a sibling dataset with the same title.
   * Costs the metadata requests, one listing request, and a few more to compare sibling titles.
   * A dataset that cannot be read shows its typed error instead.
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * // In a notebook, a cell whose last line is this dataset shows its card.
   * const penguins = store.dataset(
   *   "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
   * );
   * const card = await penguins[JUPYTER_DISPLAY](); // what the notebook asks for
   * assert.ok(card["text/plain"].includes("https://doi.org/10.25739/9k2v-7q4m"));
   * ```
   */
  override async [JUPYTER_DISPLAY](): Promise<MediaBundle> {
    return await viewOrError(async () =>
      renderDataset(await datasetView(this.context.transport, await this.metadata()))
    );
  }
}
