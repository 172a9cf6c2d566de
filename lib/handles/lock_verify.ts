/**
 * {@linkcode verifyLock}: every file version a lock names, checked against the store — by its
 * size, date-modified and id (one stat each), and, when asked, by the hash of its bytes.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { contentHasher } from "../cache/content_hash.ts";
import type { CallOptions } from "../client/endpoints.ts";
import { BadRequestError, NotFoundError, quoteInput } from "../client/errors.ts";
import { type FileVersion, sameVersion, versionOfEntry } from "../client/file_version.ts";
import { mapConcurrent } from "../client/map_concurrent.ts";
import { sameStore } from "../client/same_store.ts";
import { abortSignal, defineOptions, flag, type OptionsSchema } from "../client/options.ts";
import { type Lock, lockedVersion, LockError, lockStoreUrl } from "./lock.ts";
import type { Store } from "./store.ts";

/**
 * How a locked file stands on the store now.
 *
 * @example
 * ```ts
 * import type { LockCheck } from "./lock_verify.ts";
 *
 * const check: LockCheck = {
 *   path: "/a.csv", status: "missing", locked: { store: "s", path: "/a.csv", id: "i", size: 1, modified: 0 },
 *   detail: "not on the store",
 * };
 * ```
 */
export interface LockCheck {
  /** The locked path. */
  readonly path: string;
  /** `unchanged`, `changed` (another version is there) or `missing` (nothing is there). */
  readonly status: "unchanged" | "changed" | "missing";
  /** The lock's version. */
  readonly locked: FileVersion;
  /** The store's version, when there is one (with the hash of its bytes under `hash: true`). */
  readonly current?: FileVersion;
  /** What differs, in words (empty when unchanged). */
  readonly detail: string;
}

/**
 * Options of {@linkcode verifyLock}.
 *
 * @example
 * ```ts
 * import type { VerifyLockOptions } from "./lock_verify.ts";
 *
 * const options: VerifyLockOptions = { hash: true };
 * ```
 */
export interface VerifyLockOptions extends CallOptions {
  /**
   * Also download every file whose lock entry has a hash and compare the hash of its bytes.
   *
   * @default false
   */
  hash?: boolean;
}

const VERIFY_LOCK_OPTIONS: OptionsSchema<VerifyLockOptions> = defineOptions(() => ({
  hash: flag(),
  signal: abortSignal(),
}));

/**
 * Checks each file of `lock` against `store`: one stat per file (the store's concurrency at a
 * time); with `hash: true`, files the lock has a hash for are also downloaded and hashed with
 * the lock's algorithm (`xxh64`, `sha256` or `md5`). Results are in the lock's order.
 *
 * @throws {LockError} when the lock is another store's (by {@linkcode sameStore}: origin and
 * base path), before any request.
 *
 * @example
 * ```ts
 * import { verifyLock } from "./lock_verify.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/README.txt";
 * const entry = await store.file(path).stat();
 * const checks = await verifyLock(store, {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: store.options.url, datasets: [],
 *   files: [
 *     { path, id: entry.id, size: entry.size, modified: entry.modified.toISOString(), operations: ["text"] },
 *     { path: `${path}.gone`, id: "x", size: 1, modified: entry.modified.toISOString(), operations: ["text"] },
 *   ],
 * });
 * assert.deepEqual(checks.map((check) => check.status), ["unchanged", "missing"]);
 * ```
 */
export async function verifyLock(
  store: Store,
  lock: Lock,
  options: VerifyLockOptions = {},
): Promise<LockCheck[]> {
  options = VERIFY_LOCK_OPTIONS.parse("verifyLock()", options);
  const url = store.options.url;
  if (!sameStore(lock.store, url)) {
    throw new LockError(
      `was written for the store ${quoteInput(lock.store)}, not ${
        quoteInput(lockStoreUrl(url))
      }; nothing was checked`,
      { field: "$.store" },
    );
  }
  return await mapConcurrent(lock.files, store.options.concurrency, async (file) => {
    const locked = lockedVersion(url, file);
    const handle = store.file(file.path);
    let current: FileVersion;
    try {
      current = versionOfEntry(url, await handle.stat({ refresh: true, signal: options.signal }));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      return { path: file.path, status: "missing", locked, detail: "not on the store" } as const;
    }
    if (options.hash === true && locked.hash !== undefined && locked.size === current.size) {
      const stream = await handle.stream({ signal: options.signal });
      current = { ...current, hash: await hashOf(stream, locked.hash) };
    }
    const detail = differences(locked, current);
    return {
      path: file.path,
      status: sameVersion(locked, current) ? "unchanged" : "changed",
      locked,
      current,
      detail,
    } as const;
  }, options.signal === undefined ? {} : { signal: options.signal });
}

/** The hash of a stream's bytes with the algorithm `like` names (`xxh64:…`). */
async function hashOf(stream: ReadableStream<Uint8Array>, like: string): Promise<string> {
  const algorithm = like.slice(0, like.indexOf(":"));
  let update: (bytes: Uint8Array) => void;
  let digest: () => string;
  if (algorithm === "xxh64") {
    const hasher = await contentHasher();
    update = (bytes) => hasher.update(bytes);
    digest = () => hasher.digest();
  } else if (algorithm === "sha256" || algorithm === "md5") {
    const hasher = createHash(algorithm);
    update = (bytes) => void hasher.update(bytes);
    digest = () => hasher.digest("hex");
  } else {
    await stream.cancel();
    throw new BadRequestError(
      `The lock's hash ${
        JSON.stringify(like)
      } uses ${algorithm}; tern checks xxh64, sha256 and md5.`,
    );
  }
  for await (const chunk of stream) update(chunk);
  return `${algorithm}:${digest()}`;
}

function differences(locked: FileVersion, current: FileVersion): string {
  const parts: string[] = [];
  if (locked.id !== current.id) parts.push("another item (id) is at this path");
  if (locked.size !== current.size) {
    parts.push(`size ${locked.size} → ${current.size}`);
  }
  if (locked.modified !== current.modified) {
    parts.push(
      `modified ${new Date(locked.modified).toISOString()} → ${
        new Date(current.modified).toISOString()
      }`,
    );
  }
  if (locked.hash !== undefined && current.hash !== undefined && locked.hash !== current.hash) {
    parts.push(`hash ${locked.hash} → ${current.hash}`);
  }
  return parts.join("; ");
}
