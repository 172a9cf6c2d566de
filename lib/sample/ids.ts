/**
 * Deterministic identifiers and randomness for the sample store.
 *
 * Everything the builder writes must come out byte-identical on every run, so ids are
 * name-based (UUID v5) and "random" content comes from a seeded generator.
 *
 * @module
 */

import { uuidV5 } from "../server/ids.ts";

/** RFC 4122 URL namespace; names below are prefixed so they cannot collide with real URLs. */
const URL_NAMESPACE = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";

/**
 * A name-based UUID for `name`, stable across runs and machines, in a name space of its own
 * (so it never equals the id the server derives for a path).
 *
 * @example Same name, same id
 * ```ts
 * import { nameUuid } from "./ids.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(nameUuid("comment:1"), nameUuid("comment:1"));
 * assert.match(nameUuid("comment:1"), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab]/);
 * ```
 */
export function nameUuid(name: string): string {
  return uuidV5(URL_NAMESPACE, `tern-sample-store:${name}`);
}

/**
 * A small seeded pseudo-random generator (mulberry32) returning floats in [0, 1).
 *
 * Not for anything secret: it only makes generated sample content repeatable.
 *
 * @example Repeatable sequence
 * ```ts
 * import { seededRandom } from "./ids.ts";
 * import assert from "node:assert/strict";
 *
 * const a = seededRandom(7), b = seededRandom(7);
 * assert.equal(a(), b());
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
