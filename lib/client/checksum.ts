/**
 * The store's own checksum of a file — the one iRODS computed when the file was written, which
 * Terrain's `stat` gives as `md5` — in the one form tern keeps it everywhere (entries, file
 * versions, provenance, locks): `md5:<32 lowercase hex>`, or `sha2:<base64>` from a zone set to
 * SHA-256. A file the store has not checksummed yet (iRODS computes them by a delayed rule) has
 * none: tern says the checksum is unknown, never `""`.
 *
 * @module
 */

import { createHash } from "node:crypto";

/**
 * A checksum in tern's form: `md5:` and 32 lowercase hex digits, or `sha2:` and the base64 of a
 * SHA-256 digest (44 characters, one `=`).
 *
 * @example
 * ```ts
 * import { STORE_CHECKSUM } from "./checksum.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(STORE_CHECKSUM.test("md5:0cc175b9c0f1b6a831c399e269772661"));
 * assert.ok(STORE_CHECKSUM.test("sha2:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs="));
 * assert.ok(!STORE_CHECKSUM.test("0cc175b9c0f1b6a831c399e269772661"));
 * ```
 */
export const STORE_CHECKSUM: RegExp = /^(?:md5:[0-9a-f]{32}|sha2:[A-Za-z0-9+/]{43}=)$/;

/**
 * The checksum of a `stat` answer's `md5` field in tern's form, or `undefined` when the store has
 * none: `""` (not computed yet) or a form tern does not know (then verification falls back to
 * size and date, as for a file never checksummed).
 *
 * @example
 * ```ts
 * import { storeChecksum } from "./checksum.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(storeChecksum("0CC175B9C0F1B6A831C399E269772661"), "md5:0cc175b9c0f1b6a831c399e269772661");
 * assert.equal(
 *   storeChecksum("sha2:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs="),
 *   "sha2:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=",
 * );
 * assert.equal(storeChecksum(""), undefined);
 * ```
 */
export function storeChecksum(md5: string): string | undefined {
  const value = md5.trim();
  const form = /^[0-9a-f]{32}$/i.test(value) ? `md5:${value.toLowerCase()}` : value;
  return STORE_CHECKSUM.test(form) ? form : undefined;
}

/**
 * Computes a checksum of bytes in the same algorithm and form as a store checksum.
 *
 * @example
 * ```ts
 * import type { ChecksumHasher } from "./checksum.ts";
 *
 * const of = (hasher: ChecksumHasher, bytes: Uint8Array) => (hasher.update(bytes), hasher.digest());
 * ```
 */
export interface ChecksumHasher {
  /** Adds the next bytes. */
  update(bytes: Uint8Array): void;
  /** The checksum of every byte added, in tern's form (`md5:<hex>` or `sha2:<base64>`). */
  digest(): string;
}

/**
 * A hasher for the algorithm of `checksum` (a checksum in tern's form), to check bytes against
 * it as they stream.
 *
 * @throws {RangeError} when `checksum` is not in tern's form.
 *
 * @example
 * ```ts
 * import { checksumHasher } from "./checksum.ts";
 * import assert from "node:assert/strict";
 *
 * const hasher = checksumHasher("sha2:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=");
 * hasher.update(new TextEncoder().encode("a"));
 * assert.equal(hasher.digest(), "sha2:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=");
 * const md5 = checksumHasher("md5:00000000000000000000000000000000");
 * md5.update(new TextEncoder().encode("a"));
 * assert.equal(md5.digest(), "md5:0cc175b9c0f1b6a831c399e269772661");
 * ```
 */
export function checksumHasher(checksum: string): ChecksumHasher {
  if (!STORE_CHECKSUM.test(checksum)) {
    throw new RangeError(`not a checksum in tern's form (md5:<hex> or sha2:<base64>)`);
  }
  const md5 = checksum.startsWith("md5:");
  const hash = createHash(md5 ? "md5" : "sha256");
  return {
    update: (bytes) => void hash.update(bytes),
    digest: () => md5 ? `md5:${hash.digest("hex")}` : `sha2:${hash.digest("base64")}`,
  };
}
