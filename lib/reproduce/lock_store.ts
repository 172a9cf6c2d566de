/**
 * Whether a lock's store is the store at hand: {@linkcode admitLock} says at once whether a
 * store may be read against a lock, and returns the comparison of the ids (the one the lock
 * recorded, the one the store reports) still owed before the first read;
 * {@linkcode admitLockStore} does both before anything is read.
 *
 * @module
 */

import { quoteInput } from "../client/errors.ts";
import { sameStore } from "../client/same_store.ts";
import { fetchStoreId } from "../client/store_id.ts";
import type { Transport } from "../client/transport.ts";
import { type Lock, LockError, lockStoreUrl } from "./lock.ts";

/**
 * How the store at `url` is admitted for reading against `lock`. {@linkcode admitLock} takes it.
 *
 * @example
 * ```ts
 * import type { LockAdmission } from "./lock_store.ts";
 *
 * const admission: LockAdmission = { named: true, refusal: "was written for another store" };
 * ```
 */
export interface LockAdmission {
  /** The caller named the store (`--url`, `TERRAIN_URL`, `connect({ url })`). */
  named: boolean;
  /** The message refusing another store's lock when the caller named none. */
  refusal: string;
  /**
   * Asks the store's id (`undefined`: it reports none). Without it (an offline store) a lock
   * that recorded an id is taken at the caller's word, with the note.
   */
  storeId?: () => Promise<string | undefined>;
  /** Where the note goes. @default console.warn */
  warn?: (line: string) => void;
}

/**
 * Admits the store at `url` for reading against `lock`: the lock's own store as it is; another
 * only when the caller `named` it. A lock's URL is never contacted. Then a lock that recorded no
 * id (an older lock, or a store that reports none, as the real Terrain) is taken with a note:
 * nothing can show whether the store is the lock's. For a lock with an id, returns the check
 * still owed: the id the store reports must be the lock's.
 *
 * @throws {LockError} for `$.store`, at once, when the lock is another store's and the caller
 * named none (`refusal` is the message); from the returned check, for `$.storeId`, naming both
 * stores by URL and id.
 *
 * @example
 * ```ts
 * import { admitLock } from "./lock_store.ts";
 * import assert from "node:assert/strict";
 *
 * const lock = {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "http://127.0.0.1:36451/terrain",
 *   storeId: "tern-sample-store", datasets: [], files: [],
 * } as const;
 * const moved = "http://127.0.0.1:18471/terrain";
 * assert.equal(admitLock(lock, "http://127.0.0.1:36451/terrain/", { named: false, refusal: "no" }), undefined);
 * assert.throws(() => admitLock(lock, moved, { named: false, refusal: "no" }), /no/);
 * const same = admitLock(lock, moved, { named: true, refusal: "no", storeId: () => Promise.resolve("tern-sample-store") });
 * await same!();
 * const other = admitLock(lock, moved, { named: true, refusal: "no", storeId: () => Promise.resolve("f00d") });
 * await assert.rejects(other!(), /reports the id "f00d", not "tern-sample-store"/);
 * const notes: string[] = [];
 * admitLock({ ...lock, storeId: undefined }, moved, { named: true, refusal: "no", warn: (line) => notes.push(line) });
 * assert.match(notes[0], /records no store id/);
 * ```
 */
export function admitLock(
  lock: Lock,
  url: string,
  options: LockAdmission,
): (() => Promise<void>) | undefined {
  if (sameStore(lock.store, url)) return undefined;
  if (!options.named) throw new LockError(options.refusal, { field: "$.store" });
  const { storeId } = options;
  if (lock.storeId !== undefined && storeId !== undefined) {
    return async () => confirmLockStore(lock, url, await storeId());
  }
  // Offline, a lock's id cannot be compared either: the note says which of the two it is.
  const unchecked = lock.storeId === undefined
    ? "and records no store id to compare"
    : `(id ${quoteInput(lock.storeId)}), which an offline store cannot be asked to confirm`;
  (options.warn ?? console.warn)(
    `tern: the lock was written for the store ${quoteInput(lock.store)} ${unchecked}; using ` +
      `the store you named, ${quoteInput(lockStoreUrl(url))}, in its place (its files are ` +
      "checked against the lock as usual).",
  );
  return undefined;
}

/** Refuses `lock` when the store at `url`, which reports `storeId`, is shown to be another. */
function confirmLockStore(lock: Lock, url: string, storeId: string | undefined): void {
  if (lock.storeId === undefined || lock.storeId === storeId || sameStore(lock.store, url)) return;
  const here = quoteInput(lockStoreUrl(url));
  throw new LockError(
    `was written for the store ${quoteInput(lock.store)} with the id ${
      quoteInput(lock.storeId)
    }, and the store at ${here} is another one: it reports ${
      storeId === undefined ? "no id" : `the id ${quoteInput(storeId)}`
    }, not ${quoteInput(lock.storeId)}. Nothing was read against the lock; connect to the ` +
      "lock's store (or drop the lock to read this one)",
    { field: "$.storeId" },
  );
}

/**
 * {@linkcode admitLock} before anything is read: the store's id, when owed, is asked at once
 * (one `health` request).
 *
 * @throws {LockError} for `$.store` (another store, unnamed: `refusal` is the message) or
 * `$.storeId` (the id differs).
 *
 * @example
 * ```ts
 * import { admitLockStore } from "./lock_store.ts";
 * import { Transport } from "../client/transport.ts";
 * import assert from "node:assert/strict";
 *
 * const url = "http://127.0.0.1:9/terrain"; // nothing listens: the lock's own store asks nothing
 * const lock = { lock: "tern lock", format: 1, tern: "0.1.0", store: url, datasets: [], files: [] } as const;
 * await admitLockStore(lock, { url, transport: new Transport({ url }) }, { named: false, refusal: "no" });
 * await assert.rejects(
 *   admitLockStore(lock, { url: "http://127.0.0.1:8/terrain", transport: new Transport({ url }) }, {
 *     named: false,
 *     refusal: "was written for another store",
 *   }),
 *   /was written for another store/,
 * );
 * ```
 */
export async function admitLockStore(
  lock: Lock,
  target: { readonly url: string; readonly transport: Transport },
  options: Omit<LockAdmission, "storeId"> & { signal?: AbortSignal },
): Promise<void> {
  const storeId = () => fetchStoreId(target.transport, options);
  await admitLock(lock, target.url, { ...options, storeId })?.();
}
