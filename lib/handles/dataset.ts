/**
 * {@linkcode Dataset}: a folder that holds a dataset — its normalised metadata, its citation in
 * every style, and its notebook card.
 *
 * @module
 */

import type { CallOptions } from "../client/endpoints.ts";
import { TernError } from "../client/errors.ts";
import { CALL_OPTIONS } from "../client/options.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderDataset } from "../display/dataset.ts";
import { checkCitationStyle, type CitationStyle } from "../metadata/citation.ts";
import type { DatasetMetadata } from "../metadata/dataset_metadata.ts";
import { normalizeMetadata } from "../metadata/normalize.ts";
import {
  type Croissant,
  CROISSANT_OPTIONS,
  type CroissantOptions,
  gatherCroissant,
} from "./croissant.ts";
import { datasetView } from "./display.ts";
import { Folder } from "./folder.ts";
import type { RawMetadata } from "./handle.ts";

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
    const call = parsed.signal === undefined ? {} : { signal: parsed.signal };
    const [metadata, files] = await Promise.all([
      this.#metadata(call),
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
    try {
      return renderDataset(await datasetView(this.context.transport, await this.metadata()));
    } catch (error) {
      if (error instanceof TernError) return error[JUPYTER_DISPLAY]();
      throw error;
    }
  }
}
