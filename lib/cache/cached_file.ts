/**
 * {@linkcode CachedFile}: a verified copy as the cache hands it out. Its own file, as both the
 * cache and the one way in ({@linkcode CopyWriter}) name it and the cache imports the writer.
 *
 * @module
 */

import type { FileVersion } from "../client/file_version.ts";

/**
 * A verified cached copy.
 *
 * @example
 * ```ts
 * import type { CachedFile } from "./cached_file.ts";
 * import assert from "node:assert/strict";
 *
 * const describe = (cached: CachedFile) => `${cached.version.path} → ${cached.file}`;
 * const version = { store: "s", path: "/a/b.csv", id: "1", size: 3, modified: 0 };
 * const now = new Date();
 * const cached: CachedFile = { file: "/c/b.csv", version, cachedAt: now, lastUsed: now };
 * assert.equal(describe(cached), "/a/b.csv → /c/b.csv");
 * ```
 */
export interface CachedFile {
  /**
   * Absolute local path of the copy (read-only). For one kept in the index (`inline`), where
   * `DiskCache.fileOf` writes it when a path is asked for.
   */
  file: string;
  /** Kept in the index (a copy of up to 1 KiB): `file` may not exist. */
  inline?: boolean;
  /** The version it holds, with its content hash (`xxh64:…`). */
  version: FileVersion;
  /** The format it was read as, when known (`csv`, `parquet`, …). */
  format?: string;
  /** When it was downloaded. */
  cachedAt: Date;
  /** When it was last used. */
  lastUsed: Date;
  /** The bytes of a small copy, read through the handle that was verified. */
  bytes?: Uint8Array<ArrayBuffer>;
}
