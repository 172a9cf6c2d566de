/**
 * Stable item ids. Each item's UUID is derived from its data-store path (a name-based UUID,
 * version 5), so ids survive restarts without any database, and an index maps ids back to
 * paths.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";

/** The namespace all tern ids are derived in (a fixed, randomly chosen UUID). */
const TERN_NAMESPACE = "3b6a1f52-8e0d-4c71-9a45-2ec85d17b063";

/**
 * A name-based UUID (RFC 9562 version 5, SHA-1) for `name` in `namespace`.
 *
 * @example
 * ```ts
 * import { uuidV5 } from "./ids.ts";
 * import assert from "node:assert/strict";
 *
 * const dns = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
 * assert.equal(uuidV5(dns, "python.org"), "886313e1-3b8a-5372-9b90-0c9aee199e5d");
 * ```
 */
export function uuidV5(namespace: string, name: string): string {
  const namespaceBytes = Buffer.from(namespace.replaceAll("-", ""), "hex");
  const hex = createHash("sha1").update(namespaceBytes).update(name, "utf8").digest("hex");
  // Version 5 in the high nibble of byte 6; RFC variant (binary 10) in the top bits of byte 8.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}` +
    `${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * tern's id for a name: {@link uuidV5} in tern's own namespace, so the same data-store path
 * always gives the same id.
 *
 * @example
 * ```ts
 * import { nameUuid } from "./ids.ts";
 * import assert from "node:assert/strict";
 *
 * const id = nameUuid("/iplant/home/shared");
 * assert.equal(id, nameUuid("/iplant/home/shared"));
 * assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
 * ```
 */
export function nameUuid(name: string): string {
  return uuidV5(TERN_NAMESPACE, name);
}

/**
 * True for a UUID in canonical 8-4-4-4-12 hexadecimal form (either case).
 *
 * @example
 * ```ts
 * import { isUuid } from "./ids.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isUuid("0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804"));
 * assert.ok(!isUuid("not-a-uuid"));
 * ```
 */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/**
 * Visits every item path of the store, calling `visit` for each; used to find ids that no
 * listing has shown yet.
 *
 * @example
 * ```ts
 * import type { StoreWalker } from "./ids.ts";
 * const walker: StoreWalker = async (visit) => visit("/iplant/home");
 * ```
 */
export type StoreWalker = (visit: (zonePath: string) => void) => Promise<void>;

/**
 * Maps ids back to data-store paths, and paths to their ids. Paths are remembered as items
 * are shown (so a listing derives each id once, not on every page view: both directions share
 * the same strings, and the index only grows as large as the set of paths ever seen); an
 * unknown id triggers a walk of the store. Walks are coalesced: a lookup waits for a walk that started
 * after it arrived (so it sees the store as it was then), and all lookups arriving during one
 * walk share the next, so a flood of unknown ids costs at most two walks at a time.
 *
 * @example
 * ```ts
 * import { IdIndex } from "./ids.ts";
 * import assert from "node:assert/strict";
 *
 * const index = new IdIndex(async (visit) => visit("/iplant/home/shared/a.csv"));
 * const id = index.idFor("/iplant/home/shared/a.csv");
 * assert.equal(await index.pathOf(id), "/iplant/home/shared/a.csv");
 * ```
 */
export class IdIndex {
  readonly #paths = new Map<string, string>();
  readonly #ids = new Map<string, string>();
  readonly #walker: StoreWalker;
  #running: Promise<void> | undefined;
  #queued: Promise<void> | undefined;

  /**
   * Creates an index that falls back to `walker` for unknown ids.
   *
   * @example
   * ```ts
   * import { IdIndex } from "./ids.ts";
   * const index = new IdIndex(async () => {});
   * ```
   */
  constructor(walker: StoreWalker) {
    this.#walker = walker;
  }

  /**
   * The id of the item at `zonePath`, remembering the pair for later lookups.
   *
   * @example
   * ```ts
   * import { IdIndex, nameUuid } from "./ids.ts";
   * import assert from "node:assert/strict";
   *
   * const index = new IdIndex(async () => {});
   * assert.equal(index.idFor("/iplant/home"), nameUuid("/iplant/home"));
   * ```
   */
  idFor(zonePath: string): string {
    let id = this.#ids.get(zonePath);
    if (id === undefined) {
      id = nameUuid(zonePath);
      this.#ids.set(zonePath, id);
      this.#paths.set(id, zonePath);
    }
    return id;
  }

  /**
   * The path of the item with `id` (any case), or `undefined` when no item of the store has it.
   * The path may have disappeared since it was seen; callers check that it still exists.
   *
   * @example
   * ```ts
   * import { IdIndex } from "./ids.ts";
   * import assert from "node:assert/strict";
   *
   * const index = new IdIndex(async () => {});
   * assert.equal(await index.pathOf("0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804"), undefined);
   * ```
   */
  async pathOf(id: string): Promise<string | undefined> {
    const key = id.toLowerCase();
    const known = this.#paths.get(key);
    if (known !== undefined) return known;
    await this.#walkStartingNow();
    return this.#paths.get(key);
  }

  #walkStartingNow(): Promise<void> {
    if (this.#running === undefined) return this.#start();
    const afterCurrent = () => {
      this.#queued = undefined;
      return this.#start();
    };
    this.#queued ??= this.#running.then(afterCurrent, afterCurrent);
    return this.#queued;
  }

  #start(): Promise<void> {
    const walk = this.#walker((path) => void this.idFor(path)).finally(() => {
      if (this.#running === walk) this.#running = undefined;
    });
    this.#running = walk;
    return walk;
  }
}
