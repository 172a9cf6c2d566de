/**
 * {@linkcode Entry}: one file or folder as a listing reports it, with plain names and real
 * `Date`s instead of Terrain's hyphenated keys and epoch milliseconds.
 *
 * @module
 */

import { storeChecksum } from "./checksum.ts";
import type { ListingItem, StatInfo } from "./schemas.ts";

/**
 * Whether an entry is a file or a folder.
 *
 * @example
 * ```ts
 * import type { EntryType } from "./entry.ts";
 *
 * const kind: EntryType = "file";
 * ```
 */
export type EntryType = "file" | "folder";

/**
 * What the caller may do with an entry, as Terrain reports it.
 *
 * @example
 * ```ts
 * import type { Permission } from "./entry.ts";
 *
 * const canWrite = (permission: Permission) => permission !== "read";
 * ```
 */
export type Permission = "read" | "write" | "own";

/**
 * One file or folder of the data store, as a listing (or a stat) saw it.
 *
 * @example
 * ```ts
 * import type { Entry } from "./entry.ts";
 *
 * const describe = (entry: Entry) =>
 *   `${entry.type} ${entry.path} ${entry.size} B, modified ${entry.modified.toISOString()}`;
 * ```
 */
export interface Entry {
  /** The item's UUID; stable across renames. */
  readonly id: string;
  /** Absolute data-store path, e.g. `/iplant/home/shared/a.csv`. */
  readonly path: string;
  /** Last path segment (Terrain's special labels such as "Community Data" are not used). */
  readonly name: string;
  /** `file` or `folder`. */
  readonly type: EntryType;
  /** Bytes; always 0 for folders. */
  readonly size: number;
  /** Creation time. */
  readonly created: Date;
  /** Last modification time. */
  readonly modified: Date;
  /** Terrain's detected file type (`csv`, `tsv`, `unknown`, …); `null` for folders. */
  readonly infoType: string | null;
  /** The caller's permission on the item. */
  readonly permission: Permission;
  /**
   * The store's checksum of a file's bytes (`md5:<hex>` or `sha2:<base64>`, see `checksum.ts`),
   * when a stat gave one. Listings carry none, and a file the store has not checksummed yet has
   * none: then it is unknown, and absent.
   */
  readonly checksum?: string;
}

/**
 * Converts a listing item to an {@linkcode Entry}. The kind comes from the array the item was in
 * (`folders` or `files`), which is how Terrain says it.
 *
 * @example
 * ```ts
 * import { entryFromItem } from "./entry.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = entryFromItem({
 *   id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364", path: "/iplant/home/shared/a.csv", label: "a.csv",
 *   infoType: "csv", isFavorite: false, badName: false, permission: "read",
 *   "date-created": 0, "date-modified": 1469698402000, "file-size": 2048,
 * }, "file");
 * assert.equal(entry.name, "a.csv");
 * assert.equal(entry.size, 2048);
 * assert.equal(entry.modified.getUTCFullYear(), 2016);
 * ```
 */
export function entryFromItem(item: ListingItem, type: EntryType): Entry {
  return {
    id: item.id,
    path: item.path,
    name: baseName(item.path),
    type,
    size: type === "folder" ? 0 : item["file-size"],
    created: new Date(item["date-created"]),
    modified: new Date(item["date-modified"]),
    infoType: type === "folder" ? null : item.infoType,
    permission: item.permission,
  };
}

/**
 * The folder {@linkcode Entry} for a Terrain folder object (a root, a `directory` sub-folder, or
 * the folder at the top of a paged listing), which carry no size or type.
 *
 * @example
 * ```ts
 * import { folderEntry } from "./entry.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = folderEntry({
 *   id: "7fa53922-e104-11e3-80a7-6abdce5a08d5", path: "/iplant/home/shared",
 *   permission: "read", "date-created": 0, "date-modified": 0,
 * });
 * assert.equal(entry.name, "shared");
 * assert.equal(entry.type, "folder");
 * ```
 */
export function folderEntry(folder: {
  id: string;
  path: string;
  permission: Permission;
  "date-created": number;
  "date-modified": number;
}): Entry {
  return {
    id: folder.id,
    path: folder.path,
    name: baseName(folder.path),
    type: "folder",
    size: 0,
    created: new Date(folder["date-created"]),
    modified: new Date(folder["date-modified"]),
    infoType: null,
    permission: folder.permission,
  };
}

/**
 * Converts an item of a `filesystem/stat` answer to an {@linkcode Entry}, with the store's
 * checksum of a file when it has one.
 *
 * @example
 * ```ts
 * import { entryFromStat } from "./entry.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = entryFromStat({
 *   id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364", path: "/iplant/home/shared/a.csv", type: "file",
 *   "date-created": 0, "date-modified": 1469698402000, permission: "read", "file-size": 2048,
 *   infoType: "csv", md5: "0CC175B9C0F1B6A831C399E269772661",
 * });
 * assert.equal(entry.checksum, "md5:0cc175b9c0f1b6a831c399e269772661");
 * assert.equal(entry.size, 2048);
 * assert.equal(entryFromStat({ ...entry, type: "file", "date-created": 0, "date-modified": 0,
 *   "file-size": 1, infoType: null, md5: "" }).checksum, undefined);
 * ```
 */
export function entryFromStat(info: StatInfo): Entry {
  const base = {
    id: info.id,
    path: info.path,
    name: baseName(info.path),
    created: new Date(info["date-created"]),
    modified: new Date(info["date-modified"]),
    permission: info.permission,
  };
  if (info.type === "dir") return { ...base, type: "folder", size: 0, infoType: null };
  const checksum = storeChecksum(info.md5);
  return {
    ...base,
    type: "file",
    size: info["file-size"],
    infoType: info.infoType,
    ...(checksum === undefined ? {} : { checksum }),
  };
}

/** Last segment of a data-store path (`/` for the root). */
function baseName(path: string): string {
  const trimmed = path.replace(/(?<!\/)\/+$/, "");
  return trimmed === "" ? "/" : trimmed.slice(trimmed.lastIndexOf("/") + 1);
}
