/**
 * {@linkcode statPaths}: the entries of many files at once — with the store's checksums — from
 * batched `filesystem/stat` requests: what tern uses wherever it needs the versions of many files
 * (`tern lock verify`, manifests).
 *
 * @module
 */

import { type CallOptions, STAT_BATCH, statItems } from "./endpoints.ts";
import { type Entry, entryFromStat } from "./entry.ts";
import { NotFoundError, PermissionError, ProtocolError, quoteInput } from "./errors.ts";
import { mapConcurrent } from "./map_concurrent.ts";
import type { Transport } from "./transport.ts";

/**
 * What {@linkcode statPaths} found.
 *
 * @example
 * ```ts
 * import type { StatPathsResult } from "./stat_many.ts";
 *
 * const found = (result: StatPathsResult) => result.entries.size;
 * ```
 */
export interface StatPathsResult {
  /** Each path's entry, by the path as given. */
  readonly entries: ReadonlyMap<string, Entry>;
  /** Paths where nothing is, or nothing the caller can see. */
  readonly missing: readonly string[];
  /** Paths the caller may not read. */
  readonly unreadable: readonly string[];
}

/**
 * Stats `paths` in batches of at most {@linkcode STAT_BATCH} (Terrain's limit), several in flight
 * (the transport's concurrency, under its limiter). Terrain refuses a whole batch when any path
 * is missing or unreadable, naming every one; those are set aside and the rest asked again, so a
 * batch costs one request, or at most three with missing and unreadable paths. Repeated paths
 * are asked once.
 *
 * @throws {TernError} for any other failure (the first one; the other batches then stop).
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { statPaths } from "./stat_many.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const folder = "/iplant/home/shared/tern_samples/formats";
 * const result = await statPaths(store[STORE_CONTEXT].transport, [
 *   `${folder}/penguins.csv`,
 *   `${folder}/nothing.csv`,
 * ]);
 * assert.match(result.entries.get(`${folder}/penguins.csv`)?.checksum ?? "", /^md5:[0-9a-f]{32}$/);
 * assert.deepEqual(result.missing, [`${folder}/nothing.csv`]);
 * ```
 */
export async function statPaths(
  t: Transport,
  paths: Iterable<string>,
  options: CallOptions = {},
): Promise<StatPathsResult> {
  const unique = [...new Set(paths)];
  const batches: string[][] = [];
  for (let start = 0; start < unique.length; start += STAT_BATCH) {
    batches.push(unique.slice(start, start + STAT_BATCH));
  }
  const entries = new Map<string, Entry>();
  const missing: string[] = [];
  const unreadable: string[] = [];
  await mapConcurrent(batches, t.policy.concurrency, async (batch, _, signal) => {
    let pending = batch;
    while (pending.length > 0) {
      let answer;
      try {
        answer = await statItems(t, { paths: pending }, { signal });
      } catch (error) {
        const named = error instanceof NotFoundError
          ? missing
          : error instanceof PermissionError
          ? unreadable
          : undefined;
        const items = new Set((error as NotFoundError).items);
        const left = pending.filter((path) => !items.has(path));
        // Only an answer that names some of what was asked lets the rest be asked again.
        if (named === undefined || left.length === pending.length) throw error;
        named.push(...pending.filter((path) => items.has(path)));
        pending = left;
        continue;
      }
      for (const path of pending) {
        const info = answer.paths[path];
        if (info === undefined) {
          throw new ProtocolError(
            `filesystem/stat answered without ${quoteInput(path)}, which it was asked for.`,
            { endpoint: "filesystem/stat", path },
          );
        }
        entries.set(path, entryFromStat(info));
      }
      pending = [];
    }
  }, options.signal === undefined ? {} : { signal: options.signal });
  return { entries, missing, unreadable };
}
