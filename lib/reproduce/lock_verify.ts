/**
 * {@linkcode checkLock}: every file version a lock names, checked against the store by batched
 * stats alone — the store's checksum where both the lock and the store have one, else id, size
 * and date-modified — and, when asked, by downloading and hashing the files the store has no
 * checksum for.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { contentHasher } from "../cache/content_hash.ts";
import { checksumHasher } from "../client/checksum.ts";
import type { CallOptions } from "../client/endpoints.ts";
import { BadRequestError, quoteInput } from "../client/errors.ts";
import { type FileVersion, sameVersion, versionOfEntry } from "../client/file_version.ts";
import { mapConcurrent } from "../client/map_concurrent.ts";
import { definedOf } from "../client/defined.ts";
import {
  abortSignal,
  callback,
  defineOptions,
  flag,
  type OptionsSchema,
} from "../client/options.ts";
import { statPaths } from "../client/stat_many.ts";
import { type Lock, lockedVersion, lockStoreUrl } from "./lock.ts";
import { admitLockStore } from "./lock_store.ts";
import type { Transport } from "../client/transport.ts";

/**
 * How a locked file stands on the store now: `unchanged`; `changed` (another version is there);
 * `missing` (nothing is there, or nothing the caller can see); `unverifiable` (something is there
 * that the caller may not read).
 *
 * @example
 * ```ts
 * import type { LockStatus } from "./lock_verify.ts";
 *
 * const status: LockStatus = "unverifiable";
 * ```
 */
export type LockStatus = "unchanged" | "changed" | "missing" | "unverifiable";

/**
 * How a locked file was compared: by the store's `checksum` (the lock and the store both had one),
 * by its `bytes` (downloaded and hashed, `download: true`), or by `size and date` (and id) alone.
 *
 * @example
 * ```ts
 * import type { LockComparison } from "./lock_verify.ts";
 *
 * const by: LockComparison = "checksum";
 * ```
 */
export type LockComparison = "checksum" | "bytes" | "size and date";

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
  /** How it stands; see {@linkcode LockStatus}. */
  readonly status: LockStatus;
  /** The lock's version. */
  readonly locked: FileVersion;
  /**
   * The store's version, when the caller may read one (with the hash or checksum of its bytes
   * when they were downloaded).
   */
  readonly current?: FileVersion;
  /** How the versions were compared, when there was one to compare. */
  readonly by?: LockComparison;
  /** What differs, or why it could not be checked, in words (empty when unchanged). */
  readonly detail: string;
}

/**
 * Options of `verifyLock()` (and so of {@linkcode checkLock}).
 *
 * @example
 * ```ts
 * import type { VerifyLockOptions } from "./lock_verify.ts";
 *
 * const options: VerifyLockOptions = { download: true };
 * ```
 */
export interface VerifyLockOptions extends CallOptions {
  /**
   * Also download the files the store has no checksum for, when the lock has a checksum or a hash
   * to compare their bytes with (files with a store checksum are never downloaded).
   *
   * @default false
   */
  download?: boolean;
  /**
   * The caller named `store` (`--url`, `TERRAIN_URL`), so it stands in for the lock's URL: a
   * lock that recorded the store's id is refused only when `store` reports another id (or none
   * at another URL); one without an id is checked there with a note. Unnamed, a lock without an
   * id must name `store`.
   *
   * @default false
   */
  named?: boolean;
  /**
   * Where the note for a lock without a store id checked at another URL goes.
   *
   * @default console.warn
   */
  warn?: (line: string) => void;
}

/**
 * The schema of {@linkcode VerifyLockOptions}: `verifyLock()` parses its options with it once.
 *
 * @example
 * ```ts
 * import { VERIFY_LOCK_OPTIONS } from "./lock_verify.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => VERIFY_LOCK_OPTIONS.parse("verifyLock()", { downlaod: true }), /download/);
 * ```
 */
export const VERIFY_LOCK_OPTIONS: OptionsSchema<VerifyLockOptions> = defineOptions(() => ({
  download: flag(),
  named: flag(),
  warn: callback<(line: string) => void>(),
  signal: abortSignal(),
}));

/**
 * The store {@linkcode checkLock} checks a lock against: its URL, how many requests it may have
 * in flight, its transport (for the stats and its id) and a way to read a file's bytes. The
 * handles' `verifyLock(store, …)` makes one of a `Store`.
 *
 * @example
 * ```ts
 * import type { LockTarget } from "./lock_verify.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const target: LockTarget = {
 *   url: store.options.url,
 *   concurrency: store.options.concurrency,
 *   transport: store[STORE_CONTEXT].transport,
 *   stream: (path, signal) => store.file(path).stream({ signal }),
 * };
 * const stream = await target.stream("/iplant/home/shared/tern_samples/README.txt");
 * assert.ok((await new Response(stream).text()).length > 0);
 * ```
 */
export interface LockTarget {
  /** The store's URL, as the lock names it. */
  readonly url: string;
  /** Stats and downloads in flight at once. */
  readonly concurrency: number;
  /** The store's transport, for the batched stats and the store's id. */
  readonly transport: Transport;
  /** The bytes of the file at `path`. */
  stream(path: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}

/**
 * Checks each file of `lock` against `store` with batched stats (at most 1,000 files a request,
 * the store's concurrency at a time; no content is downloaded): a file is unchanged when its id,
 * size and date-modified match and, where the lock and the store both have the store's checksum,
 * that matches too — the rule `connect({ lock })` applies, so a rewrite that kept the size and
 * the date is a change. With `download: true`, files the store has no checksum for are downloaded
 * and hashed with the lock's checksum (or hash) algorithm. Results are in the lock's order.
 *
 * @throws {LockError} when the lock names another URL than `store`'s (by `sameStore`:
 * origin and base path), before any stat: always unless `named`, and then when the lock recorded
 * its store's id and `store` reports another or none.
 *
 * `options` are parsed already (`verifyLock()`, tern's public face of this, parses them with
 * {@linkcode VERIFY_LOCK_OPTIONS}).
 *
 * @example
 * ```ts
 * import { checkLock, type LockTarget } from "./lock_verify.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const target: LockTarget = {
 *   url: store.options.url,
 *   concurrency: 2,
 *   transport: store[STORE_CONTEXT].transport,
 *   stream: (path, signal) => store.file(path).stream({ signal }),
 * };
 * const path = "/iplant/home/shared/tern_samples/formats/README.txt";
 * const entry = await store.file(path).stat();
 * const modified = entry.modified.toISOString();
 * const checks = await checkLock(target, {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: store.options.url, datasets: [],
 *   files: [
 *     { path, id: entry.id, size: entry.size, modified, checksum: entry.checksum, operations: ["text"] },
 *     { path: `${path}.gone`, id: "x", size: 1, modified, operations: ["text"] },
 *   ],
 * }, {});
 * assert.deepEqual(checks.map((check) => check.status), ["unchanged", "missing"]);
 * assert.equal(checks[0].by, "checksum");
 * ```
 */
export async function checkLock(
  store: LockTarget,
  lock: Lock,
  options: VerifyLockOptions,
): Promise<LockCheck[]> {
  const url = store.url;
  const { transport } = store;
  await admitLockStore(lock, store, {
    named: options.named === true,
    refusal: `was written for the store ${quoteInput(lock.store)}, not ${
      quoteInput(lockStoreUrl(url))
    }; nothing was checked`,
    ...definedOf(options, ["signal", "warn"]),
  });
  const found = await statPaths(transport, lock.files.map((file) => file.path), options);
  const missing = new Set(found.missing);
  const unreadable = new Set(found.unreadable);
  const checks: LockCheck[] = lock.files.map((file) => {
    const locked = lockedVersion(url, file);
    const { path } = file;
    if (missing.has(path)) return { path, status: "missing", locked, detail: "not on the store" };
    if (unreadable.has(path)) {
      return { path, status: "unverifiable", locked, detail: "you may not read it on the store" };
    }
    const entry = found.entries.get(path)!;
    if (entry.type === "folder") {
      return { path, status: "changed", locked, detail: "a folder is at this path now" };
    }
    const current = versionOfEntry(url, entry);
    const by = locked.checksum !== undefined && current.checksum !== undefined
      ? "checksum"
      : "size and date";
    return compared(locked, current, by);
  });
  if (options.download !== true) return checks;
  // Only files the store has no checksum for, whose size still matches and whose lock has
  // something to compare their bytes with.
  const toDownload = checks.flatMap((check, index) =>
    check.by === "size and date" && check.current!.size === check.locked.size &&
      (check.locked.checksum ?? check.locked.hash) !== undefined
      ? [index]
      : []
  );
  await mapConcurrent(toDownload, store.concurrency, async (index, _, stop) => {
    const { locked, current } = checks[index];
    const bytes = await store.stream(locked.path, stop);
    const hashed = locked.checksum !== undefined
      ? { ...current!, checksum: await digest(bytes, checksumHasher(locked.checksum)) }
      : { ...current!, hash: await hashOf(bytes, locked.hash!) };
    checks[index] = compared(locked, hashed, "bytes");
  }, options);
  return checks;
}

/** The check of a file the store holds a version of. */
function compared(locked: FileVersion, current: FileVersion, by: LockComparison): LockCheck {
  return {
    path: locked.path,
    status: sameVersion(locked, current) ? "unchanged" : "changed",
    locked,
    current,
    by,
    detail: differences(locked, current),
  };
}

/** Feeds every chunk of `stream` to `hasher` and returns its digest. */
async function digest(
  stream: ReadableStream<Uint8Array>,
  hasher: { update(bytes: Uint8Array): void; digest(): string },
): Promise<string> {
  for await (const chunk of stream) hasher.update(chunk);
  return hasher.digest();
}

/** The hash of a stream's bytes with the algorithm `like` names (`xxh64:…`). */
async function hashOf(stream: ReadableStream<Uint8Array>, like: string): Promise<string> {
  const algorithm = like.slice(0, like.indexOf(":"));
  if (algorithm === "xxh64") {
    const hasher = await contentHasher();
    return `xxh64:${await digest(stream, hasher)}`;
  }
  if (algorithm === "sha256" || algorithm === "md5") {
    const hash = createHash(algorithm);
    for await (const chunk of stream) hash.update(chunk);
    return `${algorithm}:${hash.digest("hex")}`;
  }
  await stream.cancel();
  throw new BadRequestError(
    `The lock's hash ${JSON.stringify(like)} uses ${algorithm}; tern checks xxh64, sha256 and md5.`,
  );
}

function differences(locked: FileVersion, current: FileVersion): string {
  const parts: string[] = [];
  const iso = (ms: number) => new Date(ms).toISOString();
  if (locked.id !== current.id) parts.push("another item (id) is at this path");
  if (locked.size !== current.size) parts.push(`size ${locked.size} → ${current.size}`);
  if (locked.modified !== current.modified) {
    parts.push(`modified ${iso(locked.modified)} → ${iso(current.modified)}`);
  }
  for (const what of ["checksum", "hash"] as const) {
    const [before, now] = [locked[what], current[what]];
    if (before !== undefined && now !== undefined && before !== now) {
      parts.push(`${what} ${before} → ${now}`);
    }
  }
  return parts.join("; ");
}
