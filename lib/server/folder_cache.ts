/**
 * Folder contents, cached so that paging through a folder of 100,000 files does not re-read
 * the whole folder per request.
 *
 * Two layers, with different freshness rules:
 *
 * - **Names** ({@link FolderSnapshot}): the sorted folder and file names, keyed by the folder's
 *   version (mtime, ctime, inode, size). Adding, removing or renaming an entry changes the
 *   folder's mtime, so a changed folder is re-read on the next request. A snapshot taken within
 *   {@link RACY_WINDOW_MS} of the folder's mtime is "racy" (a change in the same clock tick would
 *   not show in the mtime) and is never reused.
 * - **Stats** ({@link StatTable}): sizes and dates of every entry, needed only to sort by size
 *   or date. Editing a file changes its own mtime but not its folder's, so stats cannot be
 *   validated cheaply; they are kept for {@link STATS_TTL_MS} and then re-read. Within that
 *   window a sort by size or date may order entries by values up to that old. The values
 *   *shown* are never stale: the page's own entries are stat'ed afresh on every request.
 *
 * @module
 */

import { infoTypeFromName } from "./media.ts";
import { isServableName, isSidecarName } from "./zone_path.ts";

/**
 * How close to the folder's mtime a snapshot may be taken and still be trusted, in ms.
 * File-system timestamps come from a coarse clock (a few ms on Linux).
 *
 * @example
 * ```ts
 * import { RACY_WINDOW_MS } from "./folder_cache.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(RACY_WINDOW_MS > 0);
 * ```
 */
export const RACY_WINDOW_MS = 100;

/**
 * How long the stats used for sorting by size or date are reused, in ms.
 *
 * @example
 * ```ts
 * import { STATS_TTL_MS } from "./folder_cache.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(STATS_TTL_MS >= 1000);
 * ```
 */
export const STATS_TTL_MS = 2000;

/**
 * One servable entry of a folder. Symlinks carry where they lead (`disk`, the real path) and,
 * in `target`, the data-store path of that place, so permissions can be checked on both ends.
 *
 * @example
 * ```ts
 * import type { FolderEntry } from "./folder_cache.ts";
 * const entry: FolderEntry = {
 *   name: "a.csv", kind: "file", disk: "/srv/store/iplant/home/shared/a.csv",
 *   nameType: "csv", hasAvus: false,
 * };
 * ```
 */
export interface FolderEntry {
  /** Entry name within the folder. */
  name: string;
  /** Whether the entry (or what a symlink leads to) is a file or a folder. */
  kind: "file" | "folder";
  /** Real path to stat and read. */
  disk: string;
  /** For symlinks: the data-store path the link resolves to. */
  target?: string;
  /** infoType implied by the name. */
  nameType: string;
  /** True when the folder holds an AVU sidecar for this file. */
  hasAvus: boolean;
}

/**
 * The servable contents of one folder, each kind sorted by name (UTF-16 code-unit order, the
 * same as byte order for names in the Basic Multilingual Plane).
 *
 * @example
 * ```ts
 * import { FolderCache } from "./folder_cache.ts";
 * import assert from "node:assert/strict";
 * const cache = new FolderCache(() => undefined);
 * const dir = await Deno.makeTempDir();
 * const snapshot = await cache.snapshot(dir);
 * assert.equal(snapshot.folders.length, 0);
 * assert.equal(snapshot.files.length, 0);
 * await Deno.remove(dir);
 * ```
 */
export interface FolderSnapshot {
  /** Sub-folders, by name. */
  folders: FolderEntry[];
  /** Files, by name. */
  files: FolderEntry[];
  /** True when some entry is a symlink (so permissions must be checked per entry). */
  hasSymlinks: boolean;
  /** The folder's mtime, ctime, inode and size when it was read. */
  version: string;
  /** True when read too close to the folder's last change to be reused. */
  racy: boolean;
  /** Stats of every entry, once a sort by size or date asked for them. */
  stats?: Promise<StatTable>;
}

/**
 * Size (0 for folders) and dates (ms) of an entry, as {@link entryStat} gives them.
 *
 * @example
 * ```ts
 * import type { EntryStat } from "./folder_cache.ts";
 * const stat: EntryStat = { size: 10, created: 0, modified: 0 };
 * ```
 */
export type EntryStat = ReturnType<typeof entryStat>;

/**
 * Stats of every entry of a snapshot, and the orders sorted by them (computed on demand).
 *
 * @example
 * ```ts
 * import type { StatTable } from "./folder_cache.ts";
 * const table: StatTable = { takenAt: Date.now(), byName: new Map(), orders: new Map() };
 * ```
 */
export interface StatTable {
  /** When the stats were taken (ms since the epoch). */
  takenAt: number;
  /** Stats by entry name. */
  byName: Map<string, EntryStat>;
  /** Orders already sorted, by stat column. */
  orders: Map<string, { folders: FolderEntry[]; files: FolderEntry[] }>;
}

/**
 * Size and dates from a `Deno.FileInfo`. `created` is the earlier of the birth time and the
 * modification time: a file copied or unpacked with its original dates (`cp -p`, `tar`,
 * `rsync -t`) is born on this disk after its recorded modification, and a creation date later
 * than the last change would be nonsense. Without a birth time it is the modification time.
 *
 * @example
 * ```ts
 * import { entryStat } from "./folder_cache.ts";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile();
 * await Deno.utime(path, new Date(2020, 0, 1), new Date(2020, 0, 1));
 * const stat = entryStat(await Deno.stat(path));
 * assert.equal(stat.created, new Date(2020, 0, 1).getTime());
 * await Deno.remove(path);
 * ```
 */
export function entryStat(info: Deno.FileInfo) {
  const modified = info.mtime?.getTime() ?? 0;
  const born = info.birthtime?.getTime();
  return {
    size: info.isFile ? info.size : 0,
    created: born === undefined ? modified : Math.min(born, modified),
    modified,
  };
}

/**
 * What `run` returns, or `undefined` when it throws: for file system calls whose failure (the
 * entry gone, unreadable, a dangling link) means only that there is nothing there to use.
 *
 * @example
 * ```ts
 * import { orUndefined } from "./folder_cache.ts";
 * import assert from "node:assert/strict";
 * assert.equal(orUndefined(() => Deno.statSync("/no/such/file")), undefined);
 * assert.ok(orUndefined(() => Deno.statSync(Deno.execPath()))?.isFile);
 * ```
 */
export function orUndefined<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}

const STAT_SLICE = 1000;

/**
 * Stats many paths, `undefined` for any that cannot be stat'ed (gone, unreadable). Runs in
 * slices of synchronous calls with a yield between slices: for local disks this is several
 * times faster than one promise per file, and other requests still get served in between.
 *
 * @example
 * ```ts
 * import { statMany } from "./folder_cache.ts";
 * import assert from "node:assert/strict";
 * const [found, missing] = await statMany([Deno.execPath(), "/no/such/file"]);
 * assert.ok(found?.isFile);
 * assert.equal(missing, undefined);
 * ```
 */
export async function statMany(paths: readonly string[]): Promise<(Deno.FileInfo | undefined)[]> {
  const out: (Deno.FileInfo | undefined)[] = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    if (i > 0 && i % STAT_SLICE === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    out[i] = orUndefined(() => Deno.statSync(paths[i]));
  }
  return out;
}

function byName(a: FolderEntry, b: FolderEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * A folder's version: its mtime, ctime, inode and size, which adding, removing or renaming an
 * entry changes.
 *
 * @example
 * ```ts
 * import { folderVersion } from "./folder_cache.ts";
 * import assert from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const before = folderVersion(await Deno.stat(dir));
 * assert.equal(folderVersion(await Deno.stat(dir)), before);
 * await Deno.remove(dir);
 * ```
 */
export function folderVersion(info: Deno.FileInfo): string {
  return `${info.mtime?.getTime()}:${info.ctime?.getTime()}:${info.ino}:${info.size}`;
}

/**
 * Resolves a symlink found in a folder: its real path and data-store path when it stays in
 * the store and leads to a file or folder, else `undefined` (the entry is then not listed).
 *
 * @example
 * ```ts
 * import type { SymlinkResolver } from "./folder_cache.ts";
 * const none: SymlinkResolver = () => undefined;
 * ```
 */
export type SymlinkResolver = (
  linkPath: string,
) => { disk: string; target: string; kind: "file" | "folder" } | undefined;

/** Folders kept at most, and entries kept at most across them (bounds memory). */
const MAX_FOLDERS = 256;
const MAX_ENTRIES = 2_000_000;

/**
 * Snapshots of folder contents, bounded in size (least recently used folders are dropped),
 * with concurrent requests for the same folder sharing one read.
 *
 * @example
 * ```ts
 * import { FolderCache } from "./folder_cache.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/b.csv`, "x");
 * await Deno.mkdir(`${dir}/a`);
 * const snapshot = await new FolderCache(() => undefined).snapshot(dir);
 * assert.deepEqual(snapshot.folders.map((e) => e.name), ["a"]);
 * assert.deepEqual(snapshot.files.map((e) => e.name), ["b.csv"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class FolderCache {
  readonly #resolveSymlink: SymlinkResolver;
  readonly #snapshots = new Map<string, FolderSnapshot>();
  readonly #reading = new Map<string, Promise<FolderSnapshot>>();
  #entries = 0;

  /**
   * Creates an empty cache; `resolveSymlink` decides what symlinks in folders lead to.
   *
   * @example
   * ```ts
   * import { FolderCache } from "./folder_cache.ts";
   * const cache = new FolderCache(() => undefined);
   * ```
   */
  constructor(resolveSymlink: SymlinkResolver) {
    this.#resolveSymlink = resolveSymlink;
  }

  /**
   * The current contents of the folder at real path `dir`, re-read only when it changed.
   *
   * @example
   * ```ts
   * import { FolderCache } from "./folder_cache.ts";
   * import assert from "node:assert/strict";
   * const dir = await Deno.makeTempDir();
   * const snapshot = await new FolderCache(() => undefined).snapshot(dir);
   * assert.deepEqual([snapshot.folders, snapshot.files], [[], []]);
   * await Deno.remove(dir);
   * ```
   */
  // deno-lint-ignore require-await -- async so that a failed stat is a rejection
  async snapshot(dir: string): Promise<FolderSnapshot> {
    // A synchronous stat: microseconds on a local disk, and this runs on every page request.
    const version = folderVersion(Deno.statSync(dir));
    const cached = this.#snapshots.get(dir);
    if (cached && cached.version === version && !cached.racy) {
      this.#snapshots.delete(dir);
      this.#snapshots.set(dir, cached);
      return cached;
    }
    const inFlight = this.#reading.get(dir);
    if (inFlight) return inFlight;
    const reading = this.#read(dir).finally(() => this.#reading.delete(dir));
    this.#reading.set(dir, reading);
    return reading;
  }

  /**
   * Stats of every entry of `snapshot`, reused for {@link STATS_TTL_MS}.
   *
   * @example
   * ```ts
   * import { FolderCache } from "./folder_cache.ts";
   * const cache = new FolderCache(() => undefined);
   * const dir = await Deno.makeTempDir();
   * const table = await cache.stats(await cache.snapshot(dir));
   * await Deno.remove(dir);
   * ```
   */
  async stats(snapshot: FolderSnapshot): Promise<StatTable> {
    const pending = snapshot.stats;
    if (pending) {
      const table = await pending;
      if (Date.now() - table.takenAt <= STATS_TTL_MS) return table;
      // Only the first caller past the deadline starts the refresh; the rest share it.
      if (snapshot.stats !== pending) return snapshot.stats ?? this.stats(snapshot);
    }
    const refreshed = this.#statAll(snapshot);
    snapshot.stats = refreshed;
    return refreshed;
  }

  /**
   * Entries of `snapshot` ordered by size or a date (ties broken by name), folders and files
   * separately, ascending.
   *
   * @example
   * ```ts
   * import { FolderCache } from "./folder_cache.ts";
   * import assert from "node:assert/strict";
   * const cache = new FolderCache(() => undefined);
   * const dir = await Deno.makeTempDir();
   * const order = await cache.orderBy(await cache.snapshot(dir), "size");
   * assert.deepEqual(order, { folders: [], files: [] });
   * await Deno.remove(dir);
   * ```
   */
  async orderBy(
    snapshot: FolderSnapshot,
    column: keyof EntryStat,
  ): Promise<{ folders: FolderEntry[]; files: FolderEntry[] }> {
    const table = await this.stats(snapshot);
    const known = table.orders.get(column);
    if (known) return known;
    const key = (entry: FolderEntry) => table.byName.get(entry.name)?.[column] ?? 0;
    const sort = (entries: FolderEntry[]) =>
      entries.map((entry) => ({ entry, key: key(entry) }))
        .sort((a, b) => a.key - b.key || byName(a.entry, b.entry))
        .map(({ entry }) => entry);
    const order = { folders: sort(snapshot.folders), files: sort(snapshot.files) };
    table.orders.set(column, order);
    return order;
  }

  async #statAll(snapshot: FolderSnapshot): Promise<StatTable> {
    const entries = [...snapshot.folders, ...snapshot.files];
    const takenAt = Date.now();
    const infos = await statMany(entries.map((entry) => entry.disk));
    const byName = new Map<string, EntryStat>();
    entries.forEach((entry, i) => {
      const info = infos[i];
      if (info) byName.set(entry.name, entryStat(info));
    });
    return { takenAt, byName, orders: new Map() };
  }

  async #read(dir: string): Promise<FolderSnapshot> {
    const startedAt = Date.now();
    const info = await Deno.stat(dir);
    const folders: FolderEntry[] = [];
    const files: FolderEntry[] = [];
    const avuSidecars = new Set<string>();
    let hasSymlinks = false;
    for await (const found of Deno.readDir(dir)) {
      const name = found.name;
      if (isSidecarName(name)) {
        const match = /^\.(.+)\.avus\.json$/s.exec(name);
        if (match) avuSidecars.add(match[1]);
        continue;
      }
      if (!isServableName(name)) continue;
      const disk = `${dir}/${name}`;
      let entry: FolderEntry | undefined;
      if (found.isDirectory || found.isFile) {
        const kind = found.isDirectory ? "folder" : "file";
        entry = { name, kind, disk, nameType: infoTypeFromName(name), hasAvus: false };
      } else if (found.isSymlink) {
        const resolved = this.#resolveSymlink(disk);
        if (resolved) {
          hasSymlinks = true;
          entry = { name, ...resolved, nameType: infoTypeFromName(name), hasAvus: false };
        }
      }
      if (entry) (entry.kind === "folder" ? folders : files).push(entry);
    }
    for (const file of files) file.hasAvus = avuSidecars.has(file.name);
    folders.sort(byName);
    files.sort(byName);
    const modified = info.mtime?.getTime() ?? startedAt;
    const snapshot: FolderSnapshot = {
      folders,
      files,
      hasSymlinks,
      version: folderVersion(info),
      racy: modified >= startedAt - RACY_WINDOW_MS,
    };
    this.#remember(dir, snapshot);
    return snapshot;
  }

  #remember(dir: string, snapshot: FolderSnapshot): void {
    const previous = this.#snapshots.get(dir);
    if (previous) {
      this.#entries -= previous.folders.length + previous.files.length;
      this.#snapshots.delete(dir);
    }
    this.#snapshots.set(dir, snapshot);
    this.#entries += snapshot.folders.length + snapshot.files.length;
    for (const [oldest, old] of this.#snapshots) {
      if (this.#snapshots.size <= MAX_FOLDERS && this.#entries <= MAX_ENTRIES) break;
      if (oldest === dir) continue;
      this.#snapshots.delete(oldest);
      this.#entries -= old.folders.length + old.files.length;
    }
  }
}
