/**
 * {@linkcode FileVersion}: which version of which file a read pinned. One value, used by every
 * read (it is resolved first and the data returned must belong to it), by the local cache (its
 * key), by the provenance a store records and by lock files. Keep every notion of "a file
 * version" here; derive, do not copy.
 *
 * @module
 */

import type { Entry } from "./entry.ts";

/**
 * One version of one file of one store.
 *
 * @example
 * ```ts
 * import type { FileVersion } from "./file_version.ts";
 * import assert from "node:assert/strict";
 *
 * const version: FileVersion = {
 *   store: "https://de.cyverse.org/terrain",
 *   path: "/iplant/home/shared/a.csv",
 *   id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364",
 *   size: 2048,
 *   modified: 1469698402000,
 * };
 * assert.equal(version.hash, undefined);
 * ```
 */
export interface FileVersion {
  /** Base URL of the store, never with credentials in it. */
  readonly store: string;
  /** Data-store path. */
  readonly path: string;
  /** Item id (stable across renames). */
  readonly id: string;
  /** Size in bytes. */
  readonly size: number;
  /** Date-modified, epoch milliseconds. */
  readonly modified: number;
  /**
   * Content hash tern computed from the bytes it read, when known, as
   * `<algorithm>:<lowercase hex>` (`xxh64:…`, `md5:…`, `sha256:…`).
   */
  readonly hash?: string;
  /**
   * The store's own checksum of the bytes — the one iRODS computed when the file was written, from
   * a `filesystem/stat` — as `md5:<32 lowercase hex>` or `sha2:<base64>` (`checksum.ts`).
   * Absent when unknown: the version came from a listing (listings carry none), or the store has
   * not checksummed the file yet. Where two versions both know it, it decides with the rest
   * ({@linkcode sameVersion}), so a rewrite that kept the size and the date is another version;
   * a read can check its bytes against it as they stream.
   */
  readonly checksum?: string;
  /** The server's strong validator for the bytes (`ETag`), when it sent one. */
  readonly etag?: string;
  /** The server's `Last-Modified`, when it sent one. */
  readonly lastModified?: string;
}

/**
 * The version a listing or stat entry describes, with the store's checksum when the entry has one
 * (no hash or validator yet: those come from the bytes or the download's headers).
 *
 * @param store The store's base URL (without credentials).
 * @param entry A file entry from a listing or a stat.
 *
 * @example
 * ```ts
 * import { versionOfEntry } from "./file_version.ts";
 * import assert from "node:assert/strict";
 *
 * const version = versionOfEntry("http://127.0.0.1:8080/terrain", {
 *   id: "a1", path: "/iplant/home/shared/a.csv", name: "a.csv", type: "file", size: 10,
 *   created: new Date(0), modified: new Date(1000), infoType: "csv", permission: "read",
 * });
 * assert.deepEqual(version, {
 *   store: "http://127.0.0.1:8080/terrain", path: "/iplant/home/shared/a.csv", id: "a1",
 *   size: 10, modified: 1000,
 * });
 * ```
 */
export function versionOfEntry(store: string, entry: Entry): FileVersion {
  const { path, id, size, checksum } = entry;
  const version = { store, path, id, size, modified: entry.modified.getTime() };
  return checksum === undefined ? version : { ...version, checksum };
}

/**
 * Whether two values name the same bytes: same store, id, size and date-modified, and, where
 * both know them, the same store checksum, hash and ETag. The path is not compared (a renamed
 * file keeps its bytes and its id).
 *
 * @example
 * ```ts
 * import { sameVersion } from "./file_version.ts";
 * import assert from "node:assert/strict";
 *
 * const a = { store: "s", path: "/p", id: "i", size: 1, modified: 5 };
 * assert.ok(sameVersion(a, { ...a, hash: "xxh64:00" }));
 * assert.ok(!sameVersion(a, { ...a, modified: 6 }));
 * assert.ok(!sameVersion({ ...a, hash: "xxh64:01" }, { ...a, hash: "xxh64:02" }));
 * const md5 = (digit: string) => `md5:${digit.repeat(32)}`;
 * assert.ok(sameVersion({ ...a, checksum: md5("0") }, a)); // unknown on one side
 * assert.ok(!sameVersion({ ...a, checksum: md5("0") }, { ...a, checksum: md5("1") }));
 * ```
 */
export function sameVersion(a: FileVersion, b: FileVersion): boolean {
  if (a.store !== b.store || a.id !== b.id || a.size !== b.size || a.modified !== b.modified) {
    return false;
  }
  const differ = (x: string | undefined, y: string | undefined) =>
    x !== undefined && y !== undefined && x !== y;
  return !differ(a.checksum, b.checksum) && !differ(a.hash, b.hash) && !differ(a.etag, b.etag);
}

/**
 * The strong `ETag` of an answer, if it has one: a weak tag (`W/…`) cannot pin bytes, since
 * `If-Match` compares strongly.
 *
 * @example
 * ```ts
 * import { strongETag } from "./file_version.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(strongETag(new Headers({ etag: '"xxh64-1-2"' })), '"xxh64-1-2"');
 * assert.equal(strongETag(new Headers({ etag: 'W/"1"' })), undefined);
 * assert.equal(strongETag(new Headers()), undefined);
 * ```
 */
export function strongETag(headers: Headers): string | undefined {
  const tag = headers.get("etag");
  return tag === null || tag.startsWith("W/") ? undefined : tag;
}

/**
 * A short human description for errors and logs: size, date-modified and, when known, the hash,
 * the ETag and the store's checksum.
 *
 * @example
 * ```ts
 * import { describeVersion } from "./file_version.ts";
 * import assert from "node:assert/strict";
 *
 * const text = describeVersion({ store: "s", path: "/p", id: "i", size: 2048, modified: 0 });
 * assert.equal(text, "2,048 bytes, modified 1970-01-01T00:00:00.000Z");
 * ```
 */
export function describeVersion(version: FileVersion): string {
  const parts = [
    `${version.size.toLocaleString("en-US")} bytes`,
    `modified ${new Date(version.modified).toISOString()}`,
  ];
  if (version.hash !== undefined) parts.push(version.hash);
  if (version.etag !== undefined) parts.push(`ETag ${version.etag}`);
  if (version.checksum !== undefined) parts.push(`store checksum ${version.checksum}`);
  return parts.join(", ");
}

/**
 * The reads a store makes, as provenance and locks name them.
 *
 * @example
 * ```ts
 * import { READ_OPERATIONS } from "./file_version.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(READ_OPERATIONS.includes("dataframe"));
 * ```
 */
export const READ_OPERATIONS = [
  "dataframe",
  "batches",
  "head",
  "text",
  "bytes",
  "stream",
  "downloadTo",
  "scan",
  "cachedPath",
] as const;

/**
 * One of {@linkcode READ_OPERATIONS}.
 *
 * @example
 * ```ts
 * import type { ReadOperation } from "./file_version.ts";
 *
 * const operation: ReadOperation = "scan";
 * ```
 */
export type ReadOperation = typeof READ_OPERATIONS[number];
