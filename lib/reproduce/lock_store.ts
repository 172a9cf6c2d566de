/**
 * Whether a lock's store is the store at hand: {@linkcode lockStoreCheck} says what reading a lock
 * against a store needs, {@linkcode confirmLockStore} compares the id the
 * lock recorded with the one the store reports; {@linkcode lockUrlNote} is the note for a lock
 * that recorded none, read from a store the caller named at another URL;
 * {@linkcode admitLockStore} applies all three before anything is read against a lock.
 *
 * @module
 */

import { quoteInput } from "../client/errors.ts";
import { sameStore } from "../client/same_store.ts";
import { fetchStoreId } from "../client/store_id.ts";
import type { Transport } from "../client/transport.ts";
import { type Lock, LockError, lockStoreUrl } from "./lock.ts";

/**
 * What reading `lock` against the store at `url` needs: nothing (`"same"`: the lock's own URL), a
 * note ({@linkcode lockUrlNote}: a store the caller named stands in for a lock that recorded no
 * id), or the store's id compared with the lock's (`"confirm"`: {@linkcode confirmLockStore}).
 * A lock's URL is never contacted: a store the caller did not name (`named: false`, the default
 * gateway) is refused for another store's lock, with `refusal` as the message.
 *
 * @throws {LockError} for `$.store`, when the lock is another store's and the caller named none.
 *
 * @example
 * ```ts
 * import { lockStoreCheck } from "./lock_store.ts";
 * import assert from "node:assert/strict";
 *
 * const lock = {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "http://127.0.0.1:36451/terrain",
 *   storeId: "tern-sample-store", datasets: [], files: [],
 * } as const;
 * assert.equal(lockStoreCheck(lock, "http://127.0.0.1:36451/terrain/", false, "refused"), "same");
 * assert.equal(lockStoreCheck(lock, "http://127.0.0.1:18471/terrain", true, "refused"), "confirm");
 * assert.throws(() => lockStoreCheck(lock, "http://127.0.0.1:18471/terrain", false, "refused"));
 * ```
 */
export function lockStoreCheck(
  lock: Lock,
  url: string,
  named: boolean,
  refusal: string,
): "same" | "note" | "confirm" {
  if (sameStore(lock.store, url)) return "same";
  if (!named) throw new LockError(refusal, { field: "$.store" });
  return lock.storeId === undefined ? "note" : "confirm";
}

/**
 * Refuses `lock` when the store at `url`, which reports the id `storeId` (`undefined`: none), is
 * shown to be another store than the lock's: at another URL than the lock's, the lock recorded
 * an id and the store reports another or none. At the lock's own URL the store is the lock's; a
 * lock without an id is not judged here (see {@linkcode lockUrlNote}). Whether the caller may
 * name another URL at all is the caller's rule (`connect()`: `url` or `TERRAIN_URL`).
 *
 * @throws {LockError} for `$.storeId`, naming both stores by URL and id.
 *
 * @example
 * ```ts
 * import { confirmLockStore } from "./lock_store.ts";
 * import assert from "node:assert/strict";
 *
 * const lock = {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "http://127.0.0.1:36451/terrain",
 *   storeId: "tern-sample-store", datasets: [], files: [],
 * } as const;
 * confirmLockStore(lock, "http://127.0.0.1:18471/terrain", "tern-sample-store"); // moved: the same
 * assert.throws(
 *   () => confirmLockStore(lock, "http://127.0.0.1:18471/terrain", "f00d"),
 *   /reports the id "f00d", not "tern-sample-store"/,
 * );
 * ```
 */
export function confirmLockStore(lock: Lock, url: string, storeId: string | undefined): void {
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
 * The note for a lock that recorded no store id (an older lock, or a store that reports none,
 * as the real Terrain) read from the store the caller named at another URL: that store stands in
 * for the lock's, and nothing can show whether it is the same one.
 *
 * @example
 * ```ts
 * import { lockUrlNote } from "./lock_store.ts";
 * import assert from "node:assert/strict";
 *
 * const lock = {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "http://127.0.0.1:36451/terrain",
 *   datasets: [], files: [],
 * } as const;
 * assert.match(lockUrlNote(lock, "http://127.0.0.1:18471/terrain"), /records no store id/);
 * ```
 */
export function lockUrlNote(lock: Lock, url: string): string {
  return `tern: the lock was written for the store ${quoteInput(lock.store)} and records no ` +
    `store id to compare; using the store you named, ${
      quoteInput(lockStoreUrl(url))
    }, in its place (its files are checked against the lock as usual).`;
}

/**
 * Admits the store at `target.url` for reading against `lock`, before anything is read: the
 * lock's own store as it is; another only when the caller `named` it, then with the note of
 * {@linkcode lockUrlNote} (the lock recorded no id) or once the id it reports matches the lock's
 * ({@linkcode confirmLockStore}, one `health` request).
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
  options: {
    /** The caller named the store (`--url`, `TERRAIN_URL`, `connect({ url })`). */
    named: boolean;
    /** The message refusing another store's lock when the caller named none. */
    refusal: string;
    signal?: AbortSignal;
    /** Where the note goes. @default console.warn */
    warn?: (line: string) => void;
  },
): Promise<void> {
  const check = lockStoreCheck(lock, target.url, options.named, options.refusal);
  if (check === "note") (options.warn ?? console.warn)(lockUrlNote(lock, target.url));
  if (check === "confirm") {
    confirmLockStore(lock, target.url, await fetchStoreId(target.transport, options));
  }
}
