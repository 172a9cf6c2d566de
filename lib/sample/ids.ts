/**
 * Deterministic identifiers and randomness for the sample store.
 *
 * Everything the builder writes must come out byte-identical on every run, so ids are
 * name-based (UUID v5) and "random" content comes from a seeded generator.
 *
 * @module
 */

import { createHash } from "node:crypto";

/** RFC 4122 URL namespace; names below are prefixed so they cannot collide with real URLs. */
const URL_NAMESPACE = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";

function uuidBytes(uuid: string): Uint8Array {
  const hex = uuid.replaceAll("-", "");
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function formatUuid(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20, 32)
  }`;
}

/**
 * The RFC 4122 name-based UUID (version 5, SHA-1) of `name` in `namespace`.
 *
 * @example The RFC 4122 DNS example
 * ```ts
 * import { uuidV5 } from "./ids.ts";
 * import assert from "node:assert/strict";
 *
 * const dns = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
 * assert.equal(uuidV5(dns, "www.example.com"), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
 * ```
 */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash("sha1").update(uuidBytes(namespace)).update(name).digest();
  const bytes = new Uint8Array(hash.subarray(0, 16));
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return formatUuid(bytes);
}

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
