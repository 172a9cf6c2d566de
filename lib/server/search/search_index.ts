/**
 * What the embedded search searches: every file and folder of the zone with its name, size,
 * dates, owner and the AVUs of its sidecar, built on the first search and kept current.
 *
 * Freshness follows the folder cache's rule: before each search every indexed folder is
 * stat'ed, and one whose version (mtime, ctime, inode, size) changed, or that was read too close
 * to its last change to be trusted ({@link RACY_WINDOW_MS}), is read again. Adding, removing or
 * renaming an entry (a sidecar written by rename included) so shows at once. A file or sidecar
 * rewritten in place leaves its folder unchanged; every folder is therefore read again once its
 * reading is {@link INDEX_TTL_MS} old, so such an edit shows within that time.
 *
 * Memory: about a few hundred bytes per entry plus its AVUs (see docs/server.md), at most
 * {@link MAX_INDEXED} entries; a larger store answers searches with a 500 that says so.
 * Symlinks are not followed (nor indexed), so the walk has no cycles.
 *
 * @module
 */

import { uncheckedException } from "../errors.ts";
import type { DiskStore } from "../disk_store.ts";
import { entryStat, folderVersion, RACY_WINDOW_MS, statMany } from "../folder_cache.ts";
import { infoTypeFromName } from "../media.ts";
import { ANONYMOUS } from "../permissions.ts";
import {
  type AvuInput,
  fileTypeOverride,
  type IrodsAvu,
  parseAvuSidecar,
  sidecarName,
  visibleIrodsAvus,
} from "../sidecars.ts";
import { baseName, isServableName } from "../zone_path.ts";
import type { SearchAvu, SearchDoc } from "./query.ts";

/**
 * How old a folder's reading may get before it is read again, ms: the longest a file or
 * sidecar rewritten in place (its folder unchanged) stays unseen by searches.
 */
const INDEX_TTL_MS = 10_000;

/** Most entries indexed; a store with more answers searches with a 500 naming this bound. */
const MAX_INDEXED = 2_000_000;

/** Sidecars larger than this are not indexed (the store refuses to serve them too). */
const MAX_SIDECAR_BYTES = 16 * 1024 * 1024;

/**
 * An indexed entry: what queries test plus what an answer shows.
 *
 * @example
 * ```ts
 * import type { IndexedDoc } from "./search_index.ts";
 * const doc: IndexedDoc = {
 *   path: "/iplant/home/shared/a.csv", label: "a.csv", kind: "file", size: 3, created: 0,
 *   modified: 0, owner: "curator", avus: [], permissions: [], fileType: "csv",
 *   cyverse: [], irods: [], metadataTime: 0,
 * };
 * ```
 */
export interface IndexedDoc extends SearchDoc {
  /** The infoType (an `ipc-filetype` AVU's, else the name's); `""` for folders. */
  fileType: string;
  /** Metadata-service AVUs as the sidecar writes them. */
  cyverse: readonly AvuInput[];
  /** Visible iRODS AVUs. */
  irods: readonly IrodsAvu[];
  /** The sidecar's modification time (the AVUs' default dates), ms. */
  metadataTime: number;
}

interface FolderRecord {
  path: string;
  version: string;
  racy: boolean;
  readAt: number;
  docs: IndexedDoc[];
  subfolders: string[];
}

/** An AVU sidecar as the index keeps it; `undefined` for a symlinked or malformed one. */
function indexedSidecar(disk: string) {
  try {
    const info = Deno.lstatSync(disk);
    // Symlinked sidecars are not indexed: whose entry they describe is the store's question.
    if (!info.isFile || info.size > MAX_SIDECAR_BYTES) return undefined;
    const parsed = parseAvuSidecar(Deno.readFileSync(disk), disk);
    return {
      cyverse: parsed.avus,
      irods: visibleIrodsAvus(parsed.irodsAvus),
      mtime: info.mtime?.getTime() ?? 0,
      type: fileTypeOverride(parsed.irodsAvus),
    };
  } catch {
    // A malformed sidecar leaves its entry without metadata; the metadata endpoint reports it.
    return undefined;
  }
}

type IndexedSidecar = ReturnType<typeof indexedSidecar>;

/**
 * The search index of one store (see the module notes for freshness and memory).
 *
 * @example
 * ```ts
 * import { DiskStore } from "../disk_store.ts";
 * import { SearchIndex } from "./search_index.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const store = await DiskStore.open(root, "iplant");
 * await Deno.writeTextFile(`${root}/iplant/home/shared/a.csv`, "x,y\n");
 * const index = new SearchIndex(store);
 * const paths = (await index.docs()).map((doc) => doc.path);
 * assert.ok(paths.includes("/iplant/home/shared/a.csv"));
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export class SearchIndex {
  readonly #store: DiskStore;
  readonly #folders = new Map<string, FolderRecord>();
  #all: IndexedDoc[] | undefined;
  #refreshing: Promise<IndexedDoc[]> | undefined;

  /**
   * An index of `store`, empty until the first {@link SearchIndex.docs}.
   *
   * @example
   * ```ts
   * import { DiskStore } from "../disk_store.ts";
   * import { SearchIndex } from "./search_index.ts";
   * const root = await Deno.makeTempDir();
   * const index = new SearchIndex(await DiskStore.open(root, "iplant"));
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  constructor(store: DiskStore) {
    this.#store = store;
  }

  /**
   * Every indexed entry, by path, current as the module notes describe. Concurrent callers
   * share one refresh.
   *
   * @throws {TerrainError} 500 when the store holds more than {@link MAX_INDEXED} entries.
   *
   * @example
   * ```ts
   * import { DiskStore } from "../disk_store.ts";
   * import { SearchIndex } from "./search_index.ts";
   * import assert from "node:assert/strict";
   * const root = await Deno.makeTempDir();
   * const index = new SearchIndex(await DiskStore.open(root, "iplant"));
   * const docs = await index.docs();
   * assert.deepEqual(docs.map((doc) => doc.path), ["/iplant/home", "/iplant/home/shared"]);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  docs(): Promise<IndexedDoc[]> {
    this.#refreshing ??= this.#refresh().finally(() => this.#refreshing = undefined);
    return this.#refreshing;
  }

  async #refresh(): Promise<IndexedDoc[]> {
    const { disk: top, path: topPath } = this.#store.top;
    const seen = new Set<string>();
    const pending = [{ disk: top, path: topPath }];
    let changed = false;
    let count = 0;
    let checked = 0;
    while (pending.length > 0) {
      const { disk, path } = pending.pop()!;
      let record = this.#folders.get(disk);
      let version: string;
      try {
        version = folderVersion(Deno.statSync(disk));
      } catch {
        continue;
      }
      if (
        !record || record.path !== path || record.racy || record.version !== version ||
        Date.now() - record.readAt > INDEX_TTL_MS
      ) {
        record = await this.#read(disk, path);
        if (!record) continue;
        this.#folders.set(disk, record);
        changed = true;
      }
      seen.add(disk);
      count += record.docs.length;
      if (count > MAX_INDEXED) {
        throw uncheckedException(
          `the store holds more than ${MAX_INDEXED} entries, more than the embedded search indexes`,
        );
      }
      for (const sub of record.subfolders) {
        pending.push({ disk: sub, path: `${path}/${baseName(sub)}` });
      }
      if (++checked % 1000 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    for (const disk of this.#folders.keys()) {
      if (!seen.has(disk)) {
        this.#folders.delete(disk);
        changed = true;
      }
    }
    if (changed || !this.#all) {
      const all: IndexedDoc[] = [];
      for (const record of this.#folders.values()) for (const doc of record.docs) all.push(doc);
      this.#all = all.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    }
    return this.#all;
  }

  async #read(disk: string, path: string): Promise<FolderRecord | undefined> {
    const startedAt = Date.now();
    let info: Deno.FileInfo;
    const files: string[] = [];
    const subfolders: string[] = [];
    const sidecars = new Set<string>();
    try {
      info = Deno.statSync(disk);
      for await (const entry of Deno.readDir(disk)) {
        if (entry.name.endsWith(".avus.json") && entry.isFile) sidecars.add(entry.name);
        if (!isServableName(entry.name)) continue;
        if (entry.isFile) files.push(entry.name);
        else if (entry.isDirectory) subfolders.push(`${disk}/${entry.name}`);
      }
    } catch {
      // A folder that vanished or cannot be read contributes nothing.
      return undefined;
    }
    const docs: IndexedDoc[] = [];
    const sidecarOf = (name: string) =>
      sidecars.has(name) ? indexedSidecar(`${disk}/${name}`) : undefined;
    const zone = `/${this.#store.zone}`;
    if (path !== zone) {
      const own = sidecarOf(sidecarName("", "folder", "avus"));
      docs.push(this.#doc(path, "folder", entryStat(info), own));
    }
    // The folders above a plain folder's mount point exist only in the store's answers, with
    // the mounted folder's dates and no metadata (as `DiskStore.lookup` gives them).
    const { path: topPath, above } = this.#store.top;
    if (path === topPath) {
      for (const folder of above.filter((folder) => folder !== zone)) {
        docs.push(this.#doc(folder, "folder", entryStat(info), undefined));
      }
    }
    const infos = await statMany(files.map((name) => `${disk}/${name}`));
    files.forEach((name, i) => {
      const fileInfo = infos[i];
      if (!fileInfo) return;
      const avus = sidecarOf(sidecarName(name, "file", "avus"));
      docs.push(this.#doc(`${path}/${name}`, "file", entryStat(fileInfo), avus));
    });
    const modified = info.mtime?.getTime() ?? startedAt;
    return {
      path,
      version: folderVersion(info),
      racy: modified >= startedAt - RACY_WINDOW_MS,
      readAt: startedAt,
      docs,
      subfolders,
    };
  }

  #doc(
    path: string,
    kind: "file" | "folder",
    stat: { size: number; created: number; modified: number },
    sidecar: IndexedSidecar,
  ): IndexedDoc {
    const owner = this.#store.ownerOf(path);
    const cyverse = sidecar?.cyverse ?? [];
    const irods = sidecar?.irods ?? [];
    const avus: SearchAvu[] = [
      ...cyverse.map((avu) => ({
        type: "cyverse" as const,
        attr: avu.attr,
        value: avu.value,
        unit: avu.unit ?? "",
      })),
      ...irods.map((avu) => ({ type: "irods" as const, ...avu })),
    ];
    const permissions: { user: string; permission: "own" | "read" }[] = [
      { user: owner, permission: "own" },
    ];
    const community = this.#store.paths.community;
    if (path === community || path.startsWith(`${community}/`)) {
      permissions.push({ user: ANONYMOUS, permission: "read" });
    }
    const label = baseName(path);
    return {
      path,
      label,
      kind,
      ...stat,
      owner,
      avus,
      permissions,
      fileType: kind === "folder" ? "" : sidecar?.type ?? infoTypeFromName(label),
      cyverse,
      irods,
      metadataTime: sidecar?.mtime ?? stat.modified,
    };
  }
}
