/**
 * {@linkcode Folder} (and {@linkcode Dataset}): a data-store folder — its sub-folders, lazy
 * listings of its entries or of its whole tree, and handles for what it holds.
 *
 * @module
 */

import { type CallOptions, getDirectory } from "../client/endpoints.ts";
import type { Transport } from "../client/transport.ts";
import { type Entry, folderEntry } from "../listing/entry.ts";
import { Listing } from "../listing/listing.ts";
import {
  type ListOptions,
  resolveListOptions,
  resolveWalkOptions,
  type WalkOptions,
} from "../listing/options.ts";
import { File } from "./file.ts";
import { Handle, type Location, transportOf } from "./handle.ts";
import { normalizeRelative } from "./paths.ts";
import { statFolder } from "./stat.ts";

/**
 * A folder in the data store. Made by `store.folder(path | id | entry)` or
 * `folder.folder(name)`; nothing is sent until a method needs it.
 *
 * @example
 * ```ts ignore
 * import { connect } from "../../mod.ts";
 *
 * const shared = connect().folder("/iplant/home/shared");
 * for await (const entry of shared.list()) console.log(entry.type, entry.name);
 * const csv = await shared.walk({ glob: "**" + "/*.csv", maxDepth: 3 }).toArray();
 * ```
 */
export class Folder extends Handle {
  /** Always `folder`. */
  readonly kind = "folder" as const;

  /**
   * Used by the store and folders; call `store.folder()` or `folder.folder()` instead.
   *
   * @example
   * ```ts ignore
   * const folder = store.folder("/iplant/home/shared");
   * ```
   */
  constructor(transport: Transport, location: Location) {
    super(transport, location);
  }

  /**
   * A handle for the sub-folder at `relative` (`"raw"` or `"raw/2019"`); sends nothing.
   *
   * @throws {BadRequestError} for an empty or absolute path, or `.`/`..` segments.
   *
   * @example
   * ```ts ignore
   * const raw = store.folder("/iplant/home/shared/data").folder("raw/2019");
   * ```
   */
  folder(relative: string): Folder {
    return new Folder(transportOf(this), this.#child(relative, "folder.folder()"));
  }

  /**
   * A handle for the file at `relative` (`"data.csv"` or `"raw/a.csv"`); sends nothing.
   *
   * @throws {BadRequestError} for an empty or absolute path, or `.`/`..` segments.
   *
   * @example
   * ```ts ignore
   * const readme = store.folder("/iplant/home/shared/data").file("README.txt");
   * ```
   */
  file(relative: string): File {
    return new File(transportOf(this), this.#child(relative, "folder.file()"));
  }

  /**
   * The folder's sub-folders (no files), in one request to `filesystem/directory`, which needs a
   * signed-in store; an anonymous store reads them from the paged listing instead (same
   * entries, one request per 1,000).
   *
   * @example
   * ```ts ignore
   * const names = (await store.folder("/iplant/home/shared").folders()).map((entry) => entry.name);
   * ```
   */
  async folders(options: CallOptions = {}): Promise<Entry[]> {
    if (transportOf(this).anonymous) {
      return await this.list({ type: "folder", signal: options.signal }).toArray();
    }
    const listing = await getDirectory(
      transportOf(this),
      await this.locate(options.signal),
      options,
    );
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
   * ```ts ignore
   * const biggest = await folder.list({ type: "file", sort: "size", order: "desc" }).take(10);
   * ```
   */
  list(options: ListOptions = {}): Listing {
    return new Listing({
      transport: transportOf(this),
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
   * ```ts ignore
   * const tables = await folder.walk({ type: "file", infoType: ["csv", "tsv"] }).toDataFrame();
   * ```
   */
  walk(options: WalkOptions = {}): Listing {
    return new Listing({
      transport: transportOf(this),
      folder: (signal) => this.locate(signal),
      label: this.label,
      mode: "walk",
      options: resolveWalkOptions(options, transportOf(this).policy.concurrency),
    });
  }

  /**
   * Reads the folder's own entry with one request; see {@linkcode statFolder}.
   *
   * @example
   * ```ts ignore
   * const entry = await store.folder(path).stat(); // calls fetchEntry once
   * ```
   */
  protected fetchEntry(path: string, options: CallOptions): Promise<Entry> {
    return statFolder(transportOf(this), path, options);
  }

  #child(relative: string, what: string): Location {
    return {
      parent: { folder: this, relative: normalizeRelative(relative, `The path given to ${what}`) },
    };
  }
}

/**
 * A folder that holds a dataset (a Data Commons curated folder, for instance). For now it is
 * exactly a {@linkcode Folder}; reading its metadata as a normalised dataset record is the
 * next step of the module.
 *
 * @example
 * ```ts ignore
 * const penguins = store.dataset("/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020");
 * const { avus } = await penguins.metadata();
 * ```
 */
export class Dataset extends Folder {}
