/**
 * {@linkcode StoreGate}: a store's say in every read — the lock's check before any data is
 * read, the provenance record after.
 *
 * @module
 */

import type { DiskCache } from "../cache/cache.ts";
import {
  describeVersion,
  type FileVersion,
  type ReadOperation,
  sameVersion,
} from "../client/file_version.ts";
import type { ReadGate } from "../data/context.ts";
import { DataChangedError, type Lock, type LockedFile, lockedVersion } from "./lock.ts";
import type { Provenance, ReadStatus } from "./provenance.ts";

/**
 * What a read of a locked file does when the store holds another version than the lock's:
 * `error` (the default) throws a `DataChangedError`; `warn` says so once per path and reads
 * the new version, marked `changed` in the provenance; `locked` reads the lock's version from
 * the local cache (saying so once per path), and throws a `DataChangedError` when the cache no
 * longer holds it.
 *
 * @example
 * ```ts
 * import { ON_CHANGE, type OnChange } from "./store_gate.ts";
 * import assert from "node:assert/strict";
 *
 * const mode: OnChange = "locked";
 * assert.ok(ON_CHANGE.includes(mode));
 * ```
 */
export type OnChange = "error" | "warn" | "locked";

/**
 * Every {@linkcode OnChange}.
 *
 * @example
 * ```ts
 * import { ON_CHANGE } from "./store_gate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(ON_CHANGE.join(" "), "error warn locked");
 * ```
 */
export const ON_CHANGE: readonly OnChange[] = Object.freeze(["error", "warn", "locked"]);

/**
 * Options of {@linkcode StoreGate}.
 *
 * @example
 * ```ts
 * import type { StoreGateOptions } from "./store_gate.ts";
 *
 * const options: StoreGateOptions = { onChange: "warn", warn: (line) => console.error(line) };
 * ```
 */
export interface StoreGateOptions {
  /** The lock reads are checked against. */
  lock?: Lock;
  /**
   * What a changed locked file does.
   *
   * @default "error"
   */
  onChange?: OnChange;
  /** Where the one line per changed path goes (default `console.warn`). */
  warn?: (line: string) => void;
  /**
   * Shows, before the first read, that the store is the lock's (its id; a `LockError`
   * otherwise). Asked once; asked again after it failed.
   *
   * @default undefined
   */
  confirm?: () => Promise<void>;
}

/**
 * The {@linkcode ReadGate} of a store: before a read, checks the version against the lock
 * (files the lock does not name read normally); after it, records the version in the
 * provenance with how it stood against the lock.
 *
 * @example
 * ```ts
 * import { Provenance } from "./provenance.ts";
 * import { StoreGate } from "./store_gate.ts";
 * import { DataChangedError } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const store = "http://127.0.0.1:8080/terrain";
 * const provenance = new Provenance(store, () => Promise.resolve(undefined));
 * const gate = new StoreGate(store, provenance, undefined, {
 *   lock: {
 *     lock: "tern lock", format: 1, tern: "0.1.0", store, datasets: [],
 *     files: [{ path: "/a.csv", id: "i", size: 3, modified: "1970-01-01T00:00:00.000Z", operations: ["text"] }],
 *   },
 * });
 * const locked = { store, path: "/a.csv", id: "i", size: 3, modified: 0 };
 * assert.equal(await gate.admit(locked, "text"), locked);
 * await assert.rejects(async () => await gate.admit({ ...locked, size: 4 }, "text"), DataChangedError);
 * gate.record(locked, "text");
 * assert.equal(provenance.reads.length, 1);
 * ```
 */
export class StoreGate implements ReadGate {
  readonly #store: string;
  readonly #provenance: Provenance;
  readonly #cache: DiskCache | undefined;
  readonly #options: StoreGateOptions;
  /** The confirmation under way or done; cleared when it failed, so a later read asks again. */
  #confirmed: Promise<void> | undefined;
  readonly #byPath: Map<string, LockedFile[]>;
  readonly #byId: Map<string, LockedFile[]>;
  /** Paths already warned about. */
  readonly #warned = new Set<string>();
  /** Versions admitted against the lock, by id, with how they stood. */
  readonly #marks = new Map<string, { version: FileVersion; status: ReadStatus }>();

  /**
   * @param store The store's URL, as its reads name it in their versions.
   * @param provenance Where reads are recorded.
   * @param cache The store's cache, which `onChange: "locked"` reads locked versions from.
   *
   * @example
   * ```ts
   * import { Provenance } from "./provenance.ts";
   * import { StoreGate } from "./store_gate.ts";
   * import assert from "node:assert/strict";
   *
   * const provenance = new Provenance("http://x/terrain", () => Promise.resolve(undefined));
   * const gate = new StoreGate("http://x/terrain", provenance, undefined);
   * const version = { store: "http://x/terrain", path: "/a", id: "i", size: 1, modified: 0 };
   * assert.equal(await gate.admit(version, "bytes"), version); // no lock: every version reads
   * ```
   */
  constructor(
    store: string,
    provenance: Provenance,
    cache: DiskCache | undefined,
    options: StoreGateOptions = {},
  ) {
    this.#store = store;
    this.#provenance = provenance;
    this.#cache = cache;
    this.#options = options;
    const files = options.lock?.files ?? [];
    this.#byPath = Map.groupBy(files, (file) => file.path);
    this.#byId = Map.groupBy(files, (file) => file.id);
  }

  /**
   * The version to read: `current` when the lock does not name the file or names this
   * version (`sameVersion`: id, size, date-modified, and the store's checksum where the lock and
   * `current` both have one, so a rewrite that kept the size and the date is a change); otherwise
   * what `onChange` says.
   *
   * @throws {LockError} when `confirm` shows the store is not the lock's.
   * @throws {DataChangedError} when the file changed and `onChange` is `error`, or is `locked`
   * and the cache no longer holds the locked version.
   */
  async admit(current: FileVersion, _operation: ReadOperation): Promise<FileVersion> {
    // onChange was checked where the caller gave it (`connect()`).
    const { confirm, onChange = "error" } = this.#options;
    if (confirm !== undefined) {
      await (this.#confirmed ??= confirm().catch((error) => {
        this.#confirmed = undefined;
        throw error;
      }));
    }
    const entries = this.#byPath.get(current.path) ?? this.#byId.get(current.id);
    if (entries === undefined) return current;
    const versions = entries.map((entry) => lockedVersion(this.#store, entry));
    if (versions.some((version) => sameVersion(version, current))) return current;
    // Several locked versions of one path: the newest is the one a rerun expects.
    const locked = versions.reduce((a, b) => (b.modified > a.modified ? b : a));
    if (onChange === "error") throw new DataChangedError(locked, current);
    if (onChange === "warn") {
      this.#once(
        current.path,
        `tern: ${current.path} changed since the lock was written; reading the new version ` +
          `(locked: ${describeVersion(locked)}; now: ${describeVersion(current)}).`,
      );
      this.#marks.set(current.id, { version: current, status: "changed" });
      return current;
    }
    // The cache hands out only a verified copy of exactly this version.
    const cached = await this.#cache?.lookup(locked);
    if (cached === undefined) {
      throw new DataChangedError(
        locked,
        current,
        this.#cache === undefined
          ? "the store has no local cache (cacheDir is false)"
          : "the local cache no longer holds it",
      );
    }
    this.#once(
      current.path,
      `tern: ${current.path} changed since the lock was written; reading the locked version ` +
        `(${describeVersion(locked)}) from the local cache.`,
    );
    this.#marks.set(locked.id, { version: locked, status: "locked" });
    return locked;
  }

  /** Records a read in the provenance, marked as it stood against the lock (the store calls
   * it for each read's `done` event). */
  record(version: FileVersion, operation: ReadOperation): void {
    const mark = this.#marks.get(version.id);
    const status = mark !== undefined && sameVersion(mark.version, version) ? mark.status : "read";
    this.#provenance.record(version, operation, status);
  }

  #once(path: string, line: string): void {
    if (this.#warned.has(path)) return;
    this.#warned.add(path);
    (this.#options.warn ?? console.warn)(line);
  }
}
