/**
 * The folder on disk seen as a data store: resolves data-store paths and ids to items the
 * caller may read, lists folders, reads sidecars and opens files. Every disk access of the
 * server goes through here, behind two guards: the path syntax check of `zone_path.ts` and a
 * real-path containment check (symlinks may not lead out of the zone folder, and a symlink's
 * permission is the weaker of its own place and its target's).
 *
 * @module
 */

import {
  type EntryStat,
  entryStat,
  FolderCache,
  type FolderEntry,
  type FolderSnapshot,
  orUndefined,
  statMany,
} from "./folder_cache.ts";
import { fileValidators, type Validators } from "./conditional.ts";
import { FileHashes } from "./file_hashes.ts";
import { IdIndex } from "./ids.ts";
import { infoTypeFromName } from "./media.ts";
import {
  childrenInherit,
  type Permission,
  permissionFor,
  weakest,
  ZonePaths,
} from "./permissions.ts";
import {
  type AvuSidecar,
  describedEntry,
  fileTypeOverride,
  parseAvuSidecar,
  parseComments,
  sidecarName,
} from "./sidecars.ts";
import { ifPresent, StoreFileError } from "./store_file.ts";
import {
  DiskLayout,
  formatZonePath,
  isServableName,
  parentPath,
  parseZonePath,
} from "./zone_path.ts";

/**
 * A file or folder the caller may read, with fresh stat values.
 *
 * @example
 * ```ts
 * import type { Item } from "./disk_store.ts";
 * const item: Item = {
 *   path: "/iplant/home/shared/a.csv", name: "a.csv", kind: "file",
 *   disk: "/srv/store/iplant/home/shared/a.csv", sidecarDir: "/srv/store/iplant/home/shared",
 *   permission: "read", size: 3, created: 0, modified: 0, nameType: "csv",
 * };
 * ```
 */
export interface Item {
  /** Data-store path (normalized, as the caller named it). */
  path: string;
  /** Base name. */
  name: string;
  /** File or folder. */
  kind: "file" | "folder";
  /** Real path on disk. */
  disk: string;
  /** Real path of the folder holding this file's sidecars (the folder itself for folders). */
  sidecarDir: string;
  /** The caller's permission. */
  permission: Exclude<Permission, "none">;
  /** Bytes (0 for folders). */
  size: number;
  /** Creation time, ms: the earlier of birth and modification time (see `entryStat`). */
  created: number;
  /** Modification time, ms. */
  modified: number;
  /** infoType implied by the name. */
  nameType: string;
  /** Known for listed files: whether an AVU sidecar exists. */
  hasAvus?: boolean;
}

/**
 * The outcome of resolving a path or id for a caller.
 *
 * @example
 * ```ts
 * import type { Lookup } from "./disk_store.ts";
 * const gone: Lookup = { found: "missing", path: "/iplant/home/demo/x" };
 * ```
 */
export type Lookup =
  | { found: "item"; item: Item }
  | { found: "missing"; path: string }
  | { found: "unreadable"; path: string };

/**
 * Sort columns of the paged listing (after Terrain's fix-ups and aliases), in the order its
 * refusal lists them.
 *
 * @example
 * ```ts
 * import { SORT_COLUMNS } from "./disk_store.ts";
 * import assert from "node:assert/strict";
 * assert.ok(SORT_COLUMNS.includes("datemodified"));
 * ```
 */
export const SORT_COLUMNS = ["name", "path", "size", "datecreated", "datemodified"] as const;

/**
 * A sort column of {@link SORT_COLUMNS}.
 *
 * @example
 * ```ts
 * import type { SortColumn } from "./disk_store.ts";
 * const column: SortColumn = "datemodified";
 * ```
 */
export type SortColumn = typeof SORT_COLUMNS[number];

/**
 * What a paged listing asks for.
 *
 * @example
 * ```ts
 * import type { PageQuery } from "./disk_store.ts";
 * const query: PageQuery = {
 *   offset: 0, limit: 1000, sort: "name", direction: "ASC", entityType: "any", infoTypes: [],
 * };
 * ```
 */
export interface PageQuery {
  /** Items to skip. */
  offset: number;
  /** Items to return at most. */
  limit: number;
  /** Sort column. */
  sort: SortColumn;
  /** Sort direction. */
  direction: "ASC" | "DESC";
  /** Which kinds of items to include. */
  entityType: "any" | "file" | "folder";
  /** File types to include (empty = all); folders are not filtered. */
  infoTypes: readonly string[];
}

/**
 * One page of a folder before its entries are stat'ed (see {@link DiskStore.pagePlan}): the
 * count of matching items over all pages (`total`), this page's `folders` and `files` in order,
 * and `items(entries)` to stat a slice of them afresh (ones gone meanwhile are left out). An
 * answer can so be built a slice at a time, as the client reads it.
 *
 * @example
 * ```ts
 * import type { PagePlan } from "./disk_store.ts";
 * const empty: PagePlan = { total: 0, folders: [], files: [], items: () => Promise.resolve([]) };
 * ```
 */
export type PagePlan = Awaited<ReturnType<DiskStore["pagePlan"]>>;

/**
 * Parsed metadata of an item: its sidecar content and the sidecar's modification time.
 *
 * @example
 * ```ts
 * import type { ItemMetadata } from "./disk_store.ts";
 * const none: ItemMetadata = { avus: [], irodsAvus: [], mtime: 0 };
 * ```
 */
export interface ItemMetadata extends AvuSidecar {
  /** The sidecar's modification time, ms (the item's when there is none). */
  mtime: number;
}

const STAT_COLUMN: Record<"size" | "datecreated" | "datemodified", keyof EntryStat> = {
  size: "size",
  datecreated: "created",
  datemodified: "modified",
};

/** The iRODS AVU that sets a file's checksum (see {@linkcode DiskStore.checksum}). */
const CHECKSUM_AVU = "ipc-checksum";

/** How recently changed a folder must be for its modification time not to be trusted yet. */
const RACY_MS = 2000;

/** Sidecars larger than this are refused rather than read into memory. */
const MAX_SIDECAR_BYTES = 16 * 1024 * 1024;
/**
 * Default bound of the parsed-sidecar cache, in bytes of the sidecar files it holds (parsed,
 * they take a few times that in memory). A sidecar larger than a quarter of the bound is parsed
 * on each use instead of being cached.
 */
const SIDECAR_CACHE_BYTES = 32 * 1024 * 1024;

/** What locating an item's sidecars needs. */
type SidecarOwner = Pick<Item, "path" | "name" | "kind" | "sidecarDir">;

interface CachedSidecar {
  version: string;
  /** Size of the sidecar file, what it counts against the cache's bound. */
  bytes: number;
  value?: AvuSidecar;
  error?: StoreFileError;
  /** The sidecar's modification time, ms (the item's when there is none). */
  mtime: number;
}

function displayRaw(raw: string): string {
  const trimmed = raw.length > 1 ? raw.replace(/(?<!\/)\/+$/, "") : raw;
  return trimmed === "" ? raw : trimmed;
}

/**
 * How a {@link DiskStore} serves its folder.
 *
 * @example
 * ```ts
 * import type { DiskStoreOptions } from "./disk_store.ts";
 * const small: DiskStoreOptions = { sidecarCacheBytes: 4 * 1024 * 1024 };
 * const plain: DiskStoreOptions = { mount: "/iplant/home/shared" };
 * ```
 */
export interface DiskStoreOptions {
  /** Bound of the parsed-sidecar cache in bytes of sidecar files; default 32 MiB. */
  sidecarCacheBytes?: number;
  /**
   * Serve the folder as a plain one at this data-store path (already checked: in the zone,
   * servable names) instead of as a store's root holding `<zone>/home/...`. The folders above
   * it are the store's, each holding only the next one; nothing is created on disk.
   * @default {undefined: the folder is a store's root}
   */
  mount?: string;
  /**
   * The server's clock, ms since the epoch, by which a file has settled long enough for its
   * hash to be remembered (see `FileHashesOptions.clock`).
   * @default {Date.now}
   */
  clock?: () => number;
}

/**
 * The server's data store: the zone's folder tree on disk (not the client's `Store`).
 *
 * @example
 * ```ts
 * import { DiskStore } from "./disk_store.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const store = await DiskStore.open(root, "iplant");
 * const shared = await store.lookup("/iplant/home/shared", "anonymous");
 * assert.equal(shared.found, "item");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export class DiskStore {
  /** Well-known paths of the zone. */
  readonly paths: ZonePaths;
  /** Id ↔ path index. */
  readonly ids = new IdIndex((visit) => this.#walk(visit));
  /** The real path of the folder served as {@link DiskStore.#base}. */
  readonly #baseDir: string;
  /** The data-store path of the served folder: `/<zone>`, or where a plain folder is mounted. */
  readonly #base: string;
  /** The folders above `#base` (none for a store's root), each with the one child it holds. */
  readonly #above: ReadonlyMap<string, string>;
  readonly #layout: DiskLayout;
  readonly #folders = new FolderCache((link) => this.#resolveSymlink(link));
  /** The hashes of the files this store's downloads send (their `ETag`s). */
  readonly #hashes: FileHashes;
  /** Parsed AVU sidecars by real path, least recently used first. */
  readonly #sidecars = new Map<string, CachedSidecar>();
  readonly #sidecarBudget: number;
  #sidecarBytes = 0;
  /** Every real folder the id walk has read, with its modification time then. */
  readonly #walkedFolders = new Map<string, { path: string; mtime: number | undefined }>();
  #foldersWalked = 0;

  private constructor(
    /**
     * The real path of the store root.
     *
     * @example
     * ```ts
     * import { DiskStore } from "./disk_store.ts";
     * import assert from "node:assert/strict";
     * const root = await Deno.makeTempDir();
     * assert.equal((await DiskStore.open(root, "iplant")).root, await Deno.realPath(root));
     * await Deno.remove(root, { recursive: true });
     * ```
     */
    readonly root: string,
    baseDir: string,
    base: string,
    /** The zone name. */
    readonly zone: string,
    sidecarBudget: number,
    hashes: FileHashes,
  ) {
    this.#sidecarBudget = sidecarBudget;
    this.#hashes = hashes;
    this.paths = new ZonePaths(zone);
    this.#baseDir = baseDir;
    this.#base = base;
    const segments = base.split("/").slice(1);
    this.#above = new Map(
      segments.slice(1).map((child, i) => [formatZonePath(segments.slice(0, i + 1)), child]),
    );
    this.#layout = new DiskLayout(baseDir, base);
  }

  /**
   * Opens the store at `root` (an existing folder), creating `ROOT/<zone>/home/shared` when
   * missing so that an empty folder can be served at once; or, with `mount`, serves `root` as
   * a plain folder at that path, creating nothing.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * assert.equal(store.root, await Deno.realPath(root));
   * await Deno.remove(root, { recursive: true });
   * ```
   *
   * @example A plain folder, served as the community folder
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   * const root = await Deno.makeTempDir();
   * await Deno.writeTextFile(`${root}/a.csv`, "x\n1\n");
   * const store = await DiskStore.open(root, "iplant", { mount: "/iplant/home/shared" });
   * assert.equal((await store.lookup("/iplant/home/shared/a.csv", "anonymous")).found, "item");
   * assert.equal((await store.lookup("/iplant/home", "anonymous")).found, "item");
   * assert.equal((await store.lookup("/iplant/home/demo", "demo")).found, "missing");
   * assert.deepEqual([...Deno.readDirSync(root)].map((entry) => entry.name), ["a.csv"]);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  static async open(
    root: string,
    zone: string,
    options: DiskStoreOptions = {},
  ): Promise<DiskStore> {
    const realRoot = await Deno.realPath(root);
    const budget = options.sidecarCacheBytes ?? SIDECAR_CACHE_BYTES;
    const hashes = new FileHashes({ clock: options.clock });
    if (options.mount !== undefined) {
      return new DiskStore(realRoot, realRoot, options.mount, zone, budget, hashes);
    }
    await Deno.mkdir(`${realRoot}/${zone}/home/shared`, { recursive: true });
    const zoneDir = await Deno.realPath(`${realRoot}/${zone}`);
    return new DiskStore(realRoot, zoneDir, `/${zone}`, zone, budget, hashes);
  }

  /**
   * The validators (`ETag`, `Last-Modified`) of a file of this store, opened for its body: the
   * bytes' hash, remembered by this store once the file has settled (see `conditional.ts`).
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * await Deno.writeTextFile(`${root}/iplant/home/shared/a.txt`, "a");
   * const found = await store.lookup("/iplant/home/shared/a.txt", "anonymous");
   * assert.ok(found.found === "item");
   * const file = await store.open(found.item);
   * assert.equal((await store.validators(file)).etag, '"xxh64-d24ec4f1a98c6e5b-1"');
   * file.close();
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  validators(file: Deno.FsFile): Promise<Validators> {
    return fileValidators(file, this.#hashes);
  }

  /**
   * Where the served tree starts: the real folder, its data-store path (`/<zone>`, or a plain
   * folder's mount point) and the folders above that path, which hold only the next one down.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const plain = await DiskStore.open(root, "iplant", { mount: "/iplant/home/shared" });
   * assert.deepEqual(plain.top, {
   *   disk: await Deno.realPath(root),
   *   path: "/iplant/home/shared",
   *   above: ["/iplant", "/iplant/home"],
   * });
   * assert.deepEqual((await DiskStore.open(root, "iplant")).top.above, []);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  get top(): { disk: string; path: string; above: string[] } {
    return { disk: this.#baseDir, path: this.#base, above: [...this.#above.keys()] };
  }

  /**
   * Bytes of sidecar files whose parsed content is cached now (at most the bound given to
   * {@link DiskStore.open}).
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant", { sidecarCacheBytes: 1_000_000 });
   * assert.equal(store.cachedSidecarBytes, 0);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  get cachedSidecarBytes(): number {
    return this.#sidecarBytes;
  }

  /**
   * Resolves a data-store path for `user`. Anything that cannot name a servable item of the
   * zone (bad syntax, escapes, special files, sidecars) is `missing`.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * assert.equal((await store.lookup("/iplant/home/../../etc", "demo")).found, "missing");
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  // deno-lint-ignore require-await -- async so that a failure is a rejection
  async lookup(raw: string, user: string): Promise<Lookup> {
    const segments = parseZonePath(raw, this.zone);
    if (!segments) return { found: "missing", path: displayRaw(raw) };
    const path = formatZonePath(segments);
    const missing: Lookup = { found: "missing", path };
    // A folder above a plain folder's mount point holds only the next folder down, and has
    // the mounted folder's dates and no metadata.
    const above = this.#above.has(path);
    const disk = above ? this.#baseDir : this.#layout.toDisk(segments);
    if (disk === undefined) return missing;
    // Synchronous on purpose, like all per-request metadata calls of the store: on a local
    // disk the call itself costs less than a round trip through the runtime's blocking pool.
    const real = orUndefined(() => Deno.realPathSync(disk));
    const info = real === undefined ? undefined : orUndefined(() => Deno.statSync(real));
    if (real === undefined || info === undefined) return missing;
    const target = above ? path : this.#layout.toZonePath(real);
    if (target === undefined || !(info.isFile || info.isDirectory)) return missing;
    const permission = weakest(
      permissionFor(this.paths, user, path),
      permissionFor(this.paths, user, target),
    );
    if (permission === "none") return { found: "unreadable", path };
    const name = segments[segments.length - 1];
    const sidecarDir = info.isFile
      ? orUndefined(() => Deno.realPathSync(this.#layout.toDisk(segments.slice(0, -1))!))
      : real;
    if (sidecarDir === undefined) return missing;
    return {
      found: "item",
      item: {
        path,
        name,
        kind: info.isDirectory ? "folder" : "file",
        disk: real,
        sidecarDir,
        permission,
        ...entryStat(info),
        nameType: infoTypeFromName(name),
      },
    };
  }

  /**
   * Resolves an item id for `user`; unknown ids trigger a walk of the store.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * const id = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";
   * assert.equal((await store.lookupId(id, "demo")).found, "missing");
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async lookupId(id: string, user: string): Promise<Lookup> {
    const path = await this.ids.pathOf(id);
    if (path === undefined) return { found: "missing", path: id };
    return await this.lookup(path, user);
  }

  /**
   * The id of an item, remembered for later lookups by id.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * assert.equal(store.idOf("/iplant/home/shared"), "0c119a9f-735e-5b1f-93b8-fa7662e3144f");
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  idOf(path: string): string {
    return this.ids.idFor(path);
  }

  /**
   * One page of `folder` for `user`, its entries not stat'ed yet (see {@link PagePlan}): folders
   * before files, each in the requested order; `total` counts every matching item the caller
   * can read.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * const found = await store.lookup("/iplant/home", "demo");
   * if (found.found !== "item") throw new Error("expected /iplant/home");
   * const plan = await store.pagePlan(found.item, "demo", {
   *   offset: 0, limit: 10, sort: "name", direction: "ASC", entityType: "any", infoTypes: [],
   * });
   * assert.deepEqual(plan.folders.map((entry) => entry.name), ["shared"]);
   * assert.equal((await plan.items(plan.folders))[0].path, "/iplant/home/shared");
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async pagePlan(folder: Item, user: string, query: PageQuery) {
    const snapshot = await this.#snapshot(folder);
    const order = query.sort === "name" || query.sort === "path"
      ? snapshot
      : await this.#folders.orderBy(snapshot, STAT_COLUMN[query.sort]);
    let folders = query.entityType === "file" ? [] : order.folders;
    let files = query.entityType === "folder" ? [] : order.files;
    if (query.direction === "DESC") {
      folders = folders.toReversed();
      files = files.toReversed();
    }
    const permissionOf = this.#childPermissions(folder, user, snapshot.hasSymlinks);
    if (permissionOf) {
      folders = folders.filter((entry) => permissionOf(entry) !== "none");
      files = files.filter((entry) => permissionOf(entry) !== "none");
    }
    if (query.infoTypes.length > 0) {
      const wanted = new Set(query.infoTypes);
      const overridden = new Map<string, string>();
      for (const entry of files) {
        if (!entry.hasAvus) continue;
        const owner = {
          path: `${folder.path}/${entry.name}`,
          name: entry.name,
          kind: "file" as const,
          sidecarDir: folder.disk,
        };
        overridden.set(entry.name, await this.#typeFromSidecar(owner, entry.nameType, user));
      }
      files = files.filter((entry) => wanted.has(overridden.get(entry.name) ?? entry.nameType));
    }
    const total = folders.length + files.length;
    const end = Math.min(total, query.offset + query.limit);
    // A page that holds a whole list shares it (often the cached snapshot's own) rather than
    // copying it: an answer waiting its turn to be sent then holds no copy of a large folder.
    const part = (entries: readonly FolderEntry[], from: number, to: number) =>
      from === 0 && to >= entries.length ? entries : entries.slice(from, to);
    const pageFolders = part(folders, Math.min(query.offset, folders.length), end);
    const pageFiles = part(
      files,
      Math.max(0, query.offset - folders.length),
      Math.max(0, end - folders.length),
    );
    return {
      total,
      folders: pageFolders,
      files: pageFiles,
      items: (entries: readonly FolderEntry[]) => this.#fresh(folder, entries, permissionOf),
    };
  }

  /**
   * How many files and folders in `folder` `user` can read (what `stat` reports as
   * `file-count` and `dir-count`).
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * await Deno.writeTextFile(`${root}/iplant/home/shared/a.txt`, "a");
   * await Deno.mkdir(`${root}/iplant/home/shared/b`);
   * const shared = await store.lookup("/iplant/home/shared", "demo");
   * if (shared.found !== "item") throw new Error("expected /iplant/home/shared");
   * assert.deepEqual(await store.childCounts(shared.item, "demo"), { files: 1, folders: 1 });
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async childCounts(folder: Item, user: string): Promise<{ files: number; folders: number }> {
    const snapshot = await this.#folders.snapshot(folder.disk);
    const permissionOf = this.#childPermissions(folder, user, snapshot.hasSymlinks);
    const readable = (entries: readonly FolderEntry[]) =>
      permissionOf
        ? entries.filter((entry) => permissionOf(entry) !== "none").length
        : entries.length;
    return { files: readable(snapshot.files), folders: readable(snapshot.folders) };
  }

  /**
   * The checksum the store holds for a file, as `stat` reports it in `md5`: the MD5 of its bytes
   * in lowercase hex, computed when first asked for and remembered per file version (a server
   * over a large folder hashes nothing at start), unless the file's AVU sidecar has an
   * `ipc-checksum` iRODS AVU, whose value stands instead: `""` marks a file not checksummed yet
   * (as iRODS leaves a fresh upload until its delayed rule runs), anything else is returned as
   * written (a zone's `sha2:<base64>`, or a stale checksum). A malformed sidecar is ignored here.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * await Deno.writeTextFile(`${root}/iplant/home/shared/a.txt`, "a");
   * const found = await store.lookup("/iplant/home/shared/a.txt", "demo");
   * assert.ok(found.found === "item");
   * assert.equal(await store.checksum(found.item, "demo"), "0cc175b9c0f1b6a831c399e269772661");
   * assert.equal(store.filesHashed, 1);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async checksum(item: Item, user: string): Promise<string> {
    if (item.hasAvus !== false) {
      const sidecar = await this.#avuSidecar(item, user).catch(() => undefined);
      const mark = sidecar?.irodsAvus.find((avu) => avu.attr === CHECKSUM_AVU);
      if (mark !== undefined) return mark.value;
    }
    // Gone since it was resolved: opening it says so.
    const info = orUndefined(() => Deno.statSync(item.disk));
    const known = info && this.#hashes.recallFile(info, "md5");
    if (known !== undefined) return known;
    using file = await this.open(item);
    return await this.#hashes.of(file, "md5");
  }

  /**
   * `item` with `hasAvus` set (as listings know it): whether an AVU sidecar lies beside it, so
   * that asking for its type and its checksum looks for the sidecar once, not each time.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * await Deno.writeTextFile(`${root}/iplant/home/shared/a.txt`, "a");
   * const found = await store.lookup("/iplant/home/shared/a.txt", "demo");
   * assert.ok(found.found === "item");
   * assert.equal(store.withSidecarKnown(found.item).hasAvus, false);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  withSidecarKnown(item: Item): Item {
    if (item.hasAvus !== undefined) return item;
    const sidecar = `${item.sidecarDir}/${sidecarName(item.name, item.kind, "avus")}`;
    return { ...item, hasAvus: orUndefined(() => Deno.lstatSync(sidecar)) !== undefined };
  }

  /**
   * How many times this store read a file's bytes to hash them (an `ETag` or a checksum); a
   * version hashed before and remembered reads none.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * assert.equal((await DiskStore.open(root, "iplant")).filesHashed, 0);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  get filesHashed(): number {
    return this.#hashes.computed;
  }

  /**
   * The infoType of a file: an `ipc-filetype` iRODS AVU if its sidecar has one (a malformed
   * sidecar is ignored here), else the type implied by its name. Folders have none.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * const found = await store.lookup("/iplant/home/shared", "demo");
   * assert.ok(found.found === "item");
   * assert.equal(await store.infoType(found.item, "demo"), null); // a folder
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async infoType(item: Item, user: string): Promise<string | null> {
    if (item.kind === "folder") return null;
    if (item.hasAvus === false) return item.nameType;
    return await this.#typeFromSidecar(item, item.nameType, user);
  }

  /**
   * The AVU sidecar of an item as `user` may see it: empty when it has none, or when the
   * sidecar is a symlink to one describing an entry `user` may not read.
   *
   * @throws {StoreFileError} when the sidecar is malformed.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * const found = await store.lookup("/iplant/home/shared", "demo");
   * assert.ok(found.found === "item");
   * assert.deepEqual((await store.metadata(found.item, "demo")).avus, []);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async metadata(item: Item, user: string): Promise<ItemMetadata> {
    const cached = await this.#avuSidecar(item, user);
    return cached ?? { avus: [], irodsAvus: [], mtime: item.modified };
  }

  /**
   * The comments on an item, oldest first, as `user` may see them (empty when it has none, or
   * when the sidecar is a symlink to one describing an entry `user` may not read).
   *
   * @throws {StoreFileError} when the sidecar is malformed.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * const found = await store.lookup("/iplant/home/shared", "demo");
   * assert.ok(found.found === "item");
   * assert.deepEqual(await store.comments(found.item, "demo"), []);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async comments(item: Item, user: string) {
    const sidecar = this.#sidecar(item, "comments", user);
    const bytes = sidecar && await ifPresent(Deno.readFile(sidecar.real));
    return bytes ? parseComments(bytes, sidecar.display) : [];
  }

  /**
   * Who metadata defaults to as author for an item: the home's user, `curator` in the
   * community folder, the trash's user, else `rods`.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * assert.equal(store.ownerOf("/iplant/home/demo/a.csv"), "demo");
   * assert.equal(store.ownerOf("/iplant/home/shared/a.csv"), "curator");
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  ownerOf(path: string): string {
    const segments = path.split("/");
    if (segments[2] === "home" && segments.length > 3) {
      return segments[3] === "shared" ? "curator" : segments[3];
    }
    if (path.startsWith(`${this.paths.trashBase}/`)) return segments[5];
    return "rods";
  }

  /**
   * Creates a folder of the zone (and its parents) unless it exists, refusing to create
   * anything through a symlink that leads out of the zone folder.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * await store.ensureFolder("/iplant/trash/home/de-irods/demo");
   * assert.ok((await Deno.stat(`${root}/iplant/trash/home/de-irods/demo`)).isDirectory);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async ensureFolder(path: string): Promise<void> {
    const segments = parseZonePath(path, this.zone);
    if (!segments) throw new RangeError(`not a folder of zone ${this.zone}: ${path}`);
    for (let depth = segments.length; depth >= 1; depth--) {
      const disk = this.#layout.toDisk(segments.slice(0, depth));
      // Outside a plain folder's mount: nothing there is on disk, nor may be created.
      if (disk === undefined) return;
      const real = await ifPresent(Deno.realPath(disk));
      if (real === undefined) continue;
      if (this.#layout.toZonePath(real) === undefined) {
        throw new Error(`${formatZonePath(segments.slice(0, depth))} leads out of the store`);
      }
      if (depth < segments.length) {
        await Deno.mkdir(this.#layout.toDisk(segments)!, { recursive: true });
      }
      return;
    }
  }

  /**
   * Opens a file item for reading, checking it is still a regular file.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   * const root = await Deno.makeTempDir();
   * await Deno.writeTextFile(`${root}/placeholder`, "");
   * const store = await DiskStore.open(root, "iplant");
   * await Deno.writeTextFile(`${root}/iplant/home/shared/a.txt`, "hi");
   * const found = await store.lookup("/iplant/home/shared/a.txt", "anonymous");
   * if (found.found === "item") {
   *   using file = await store.open(found.item);
   *   assert.equal((await file.stat()).size, 2);
   * }
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  async open(item: Item): Promise<Deno.FsFile> {
    const file = await Deno.open(item.disk, { read: true });
    try {
      if (!(await file.stat()).isFile) throw new Error(`${item.path} is not a regular file`);
      return file;
    } catch (error) {
      file.close();
      throw error;
    }
  }

  /**
   * Removes the store root's absolute location from a message, so errors never reveal where
   * the store lives on disk.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * assert.ok(!store.redact(`stat '${store.root}/iplant/x'`).includes(store.root));
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  redact(message: string): string {
    return message.replaceAll(this.#baseDir, this.#base).replaceAll(this.root, "");
  }

  /**
   * A function giving each child's permission, or `undefined` when every child simply has
   * the folder's own permission (the common case: inside a home or the community folder).
   */
  #childPermissions(
    folder: Item,
    user: string,
    hasSymlinks: boolean,
  ): ((entry: FolderEntry) => Permission) | undefined {
    // A folder reached through a symlink lies elsewhere: its children are judged both where
    // they are shown and where they really are (as a lookup of each one would judge them).
    const real = this.#above.has(folder.path)
      ? folder.path
      : this.#layout.toZonePath(folder.disk) ?? folder.path;
    const inherit = childrenInherit(this.paths, folder.path) &&
      (real === folder.path || childrenInherit(this.paths, real));
    if (inherit && !hasSymlinks) return undefined;
    return (entry) => {
      const own = inherit ? folder.permission : weakest(
        permissionFor(this.paths, user, `${folder.path}/${entry.name}`),
        permissionFor(this.paths, user, `${real}/${entry.name}`),
      );
      return entry.target === undefined
        ? own
        : weakest(own, permissionFor(this.paths, user, entry.target));
    };
  }

  /** A folder's listing; above a plain folder's mount point, the next folder down. */
  #snapshot(folder: Item): Promise<FolderSnapshot> {
    const name = this.#above.get(folder.path);
    if (name === undefined) return this.#folders.snapshot(folder.disk);
    return Promise.resolve({
      folders: [
        {
          name,
          kind: "folder",
          disk: this.#baseDir,
          nameType: infoTypeFromName(name),
          hasAvus: false,
        },
      ],
      files: [],
      hasSymlinks: false,
      version: "",
      racy: true,
    });
  }

  async #fresh(
    folder: Item,
    entries: readonly FolderEntry[],
    permissionOf: ((entry: FolderEntry) => Permission) | undefined,
  ): Promise<Item[]> {
    const infos = await statMany(entries.map((entry) => entry.disk));
    return entries.flatMap((entry, i): Item[] => {
      const info = infos[i];
      const permission = permissionOf ? permissionOf(entry) : folder.permission;
      if (!info || permission === "none") return [];
      return [{
        path: `${folder.path}/${entry.name}`,
        name: entry.name,
        kind: entry.kind,
        disk: entry.disk,
        sidecarDir: entry.kind === "folder" ? entry.disk : folder.disk,
        permission,
        ...entryStat(info),
        nameType: entry.nameType,
        hasAvus: entry.kind === "file" ? entry.hasAvus : undefined,
      }];
    });
  }

  async #typeFromSidecar(owner: SidecarOwner, nameType: string, user: string): Promise<string> {
    try {
      const sidecar = await this.#avuSidecar(owner, user);
      return (sidecar && fileTypeOverride(sidecar.irodsAvus)) ?? nameType;
    } catch {
      // A malformed sidecar must not break listings; the metadata endpoint reports it.
      return nameType;
    }
  }

  /**
   * The `sort` sidecar of `item` when it exists and `user` may read the entry it describes where
   * it really lies (a symlinked sidecar is judged by its target, by the same rule as data files):
   * its real path, the path errors name it by, and its stat; `undefined` otherwise.
   *
   * @throws {StoreFileError} when it is a symlink that leads out of the zone, no regular file, or
   * too large to read.
   */
  #sidecar(item: SidecarOwner, sort: "avus" | "comments", user: string) {
    if (this.#above.has(item.path)) return undefined;
    const name = sidecarName(item.name, item.kind, sort);
    const display = `${item.kind === "folder" ? item.path : parentPath(item.path)}/${name}`;
    const real = orUndefined(() => Deno.realPathSync(`${item.sidecarDir}/${name}`));
    const info = real === undefined ? undefined : orUndefined(() => Deno.statSync(real));
    if (real === undefined || info === undefined) return undefined;
    // The sidecar's own name is no servable name: map its folder, then append it.
    const cut = Math.max(real.lastIndexOf("/"), real.lastIndexOf("\\"));
    const folder = this.#layout.toZonePath(real.slice(0, cut));
    if (folder === undefined) {
      throw new StoreFileError(display, "is a symlink that leads out of the store");
    }
    const target = `${folder}/${real.slice(cut + 1)}`;
    if (permissionFor(this.paths, user, describedEntry(target)) === "none") return undefined;
    if (!info.isFile) throw new StoreFileError(display, "is not a regular file");
    if (info.size > MAX_SIDECAR_BYTES) {
      throw new StoreFileError(display, `is larger than ${MAX_SIDECAR_BYTES} bytes`);
    }
    return { real, display, info };
  }

  async #avuSidecar(item: SidecarOwner, user: string): Promise<ItemMetadata | undefined> {
    const sidecar = this.#sidecar(item, "avus", user);
    if (!sidecar) return undefined;
    const { real, display, info } = sidecar;
    const version = `${info.mtime?.getTime()}:${info.size}:${info.ino}`;
    let cached = this.#sidecars.get(real);
    if (cached) this.#forget(real, cached);
    if (!cached || cached.version !== version) {
      const bytes = await ifPresent(Deno.readFile(real));
      if (!bytes) return undefined;
      cached = { version, bytes: bytes.byteLength, mtime: info.mtime?.getTime() ?? 0 };
      try {
        cached.value = parseAvuSidecar(bytes, display);
      } catch (error) {
        if (!(error instanceof StoreFileError)) throw error;
        cached.error = error;
      }
    }
    this.#remember(real, cached);
    if (cached.error) throw cached.error;
    return { ...cached.value!, mtime: cached.mtime };
  }

  /** Caches a parsed sidecar as the most recently used, evicting the least recent past the bound. */
  #remember(real: string, cached: CachedSidecar): void {
    if (cached.bytes > this.#sidecarBudget / 4) return;
    this.#sidecars.set(real, cached);
    this.#sidecarBytes += cached.bytes;
    for (const [oldest, entry] of this.#sidecars) {
      if (this.#sidecarBytes <= this.#sidecarBudget) break;
      this.#forget(oldest, entry);
    }
  }

  #forget(real: string, cached: CachedSidecar): void {
    if (this.#sidecars.delete(real)) this.#sidecarBytes -= cached.bytes;
  }

  #resolveSymlink(
    link: string,
  ): { disk: string; target: string; kind: "file" | "folder" } | undefined {
    return orUndefined(() => {
      const disk = Deno.realPathSync(link);
      const target = this.#layout.toZonePath(disk);
      const info = Deno.statSync(disk);
      if (target === undefined || !(info.isFile || info.isDirectory)) return undefined;
      return { disk, target, kind: info.isDirectory ? "folder" : "file" };
    });
  }

  /**
   * Folders read so far by the id walk (see {@link DiskStore.#walk}); grows by one per folder whose
   * listing had to be read again.
   *
   * @example
   * ```ts
   * import { DiskStore } from "./disk_store.ts";
   * import assert from "node:assert/strict";
   *
   * const root = await Deno.makeTempDir();
   * const store = await DiskStore.open(root, "iplant");
   * assert.equal(store.foldersWalked, 0);
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  get foldersWalked(): number {
    return this.#foldersWalked;
  }

  /**
   * Visits every item of the zone, without following symlinked folders (no cycles). Only the
   * first walk reads every folder; later ones (one per batch of unknown ids) stat the folders
   * seen and read again only those whose modification time changed, which adding, removing
   * or renaming an entry always does. So an unknown id costs a stat per folder, not a read of
   * every entry, and a file added anywhere is still found.
   */
  async #walk(visit: (path: string) => void): Promise<void> {
    const folders = this.#walkedFolders;
    const pending: { disk: string; path: string }[] = [];
    if (folders.size === 0) {
      for (const above of this.#above.keys()) visit(above);
      visit(this.#base);
      pending.push({ disk: this.#baseDir, path: this.#base });
    } else {
      let checked = 0;
      for (const [disk, seen] of folders) {
        const info = orUndefined(() => Deno.statSync(disk));
        const mtime = info?.mtime?.getTime();
        if (info === undefined) folders.delete(disk);
        else if (mtime === undefined || mtime !== seen.mtime) {
          pending.push({ disk, path: seen.path });
        }
        if (++checked % 5000 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    let seen = 0;
    while (pending.length > 0) {
      const { disk, path } = pending.pop()!;
      try {
        // Noted before reading, so a change made during the read is seen by the next walk. A
        // folder changed in the last seconds may change again within the same timestamp tick
        // (milliseconds here, up to seconds on some file systems): it is read again next time.
        let mtime = Deno.statSync(disk).mtime?.getTime();
        if (mtime !== undefined && Date.now() - mtime < RACY_MS) mtime = undefined;
        this.#foldersWalked++;
        const known = folders.has(disk);
        folders.set(disk, { path, mtime });
        for await (const entry of Deno.readDir(disk)) {
          if (!isServableName(entry.name)) continue;
          const child = `${path}/${entry.name}`;
          visit(child);
          const childDisk = `${disk}/${entry.name}`;
          if (entry.isDirectory && !(known && folders.has(childDisk))) {
            pending.push({ disk: childDisk, path: child });
          }
          if (++seen % 5000 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
        }
      } catch {
        // A folder that vanished or cannot be read simply contributes no ids.
        folders.delete(disk);
      }
    }
  }
}
