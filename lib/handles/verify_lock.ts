/**
 * {@linkcode verifyLock}: checks a lock against a {@linkcode Store} — the store's face of
 * `checkLock()` in `lib/reproduce/lock_verify.ts`, which knows no handle.
 *
 * @module
 */

import {
  checkLock,
  type LockCheck,
  VERIFY_LOCK_OPTIONS,
  type VerifyLockOptions,
} from "../reproduce/lock_verify.ts";
import type { Lock } from "../reproduce/lock.ts";
import type { Store } from "./store.ts";
import { STORE_CONTEXT } from "./store_context.ts";

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
 * @throws {BadRequestError} for an unknown or ill-typed option, before any request.
 *
 * @example
 * ```ts
 * import { verifyLock } from "./verify_lock.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/README.txt";
 * const entry = await store.file(path).stat();
 * const modified = entry.modified.toISOString();
 * const checks = await verifyLock(store, {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: store.options.url, datasets: [],
 *   files: [
 *     { path, id: entry.id, size: entry.size, modified, checksum: entry.checksum, operations: ["text"] },
 *     { path: `${path}.gone`, id: "x", size: 1, modified, operations: ["text"] },
 *   ],
 * });
 * assert.deepEqual(checks.map((check) => check.status), ["unchanged", "missing"]);
 * assert.equal(checks[0].by, "checksum");
 * ```
 */
export async function verifyLock(
  store: Store,
  lock: Lock,
  options: VerifyLockOptions = {},
): Promise<LockCheck[]> {
  const parsed = VERIFY_LOCK_OPTIONS.parse("verifyLock()", options);
  const target = {
    url: store.options.url,
    concurrency: store.options.concurrency,
    transport: store[STORE_CONTEXT].transport,
    stream: (path: string, signal?: AbortSignal) => store.file(path).stream({ signal }),
  };
  return await checkLock(target, lock, parsed);
}
