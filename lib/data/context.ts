/**
 * What a read needs from its store besides the file: the transport, its one reader (which owns the
 * local cache), whether
 * the store is offline, and the channel its reads publish on. The store builds one and passes it
 * down (handles hold it), so every handle and listing of a store reads through the same cache
 * and is heard by the same subscribers.
 *
 * @module
 */

import type { FileVersion, ReadOperation } from "../client/file_version.ts";
import type { Transport } from "../client/transport.ts";
import type { ProgressSetting } from "../progress/reporter.ts";
import type { ReadEvents } from "./read_events.ts";
import type { Reader } from "./reader.ts";
import type { ScanProxy } from "./scan_proxy.ts";

/**
 * A store's reading context.
 *
 * @example
 * ```ts
 * import type { DataContext } from "./context.ts";
 * import { ReadEvents } from "./read_events.ts";
 * import { Reader } from "./reader.ts";
 * import { DiskCache } from "../cache/cache.ts";
 * import { Transport } from "../client/transport.ts";
 * import assert from "node:assert/strict";
 *
 * const transport = new Transport({ url: "http://127.0.0.1:8080/terrain" }); // sends nothing yet
 * const context: DataContext = {
 *   transport,
 *   reader: new Reader(transport, new DiskCache({ dir: "/tmp/tern-cache" })),
 *   offline: true,
 *   events: new ReadEvents(),
 * };
 * assert.equal(context.reader.cache?.root, "/tmp/tern-cache");
 * ```
 */
export interface DataContext {
  /** The store's transport. */
  readonly transport: Transport;
  /** The store's one reader: every read takes its bytes from its `open()`; it owns the local cache. */
  readonly reader: Reader;
  /** Serve only from the cache; never download. */
  readonly offline: boolean;
  /** How reads show progress (default `true`: in a notebook or on a terminal's stderr). */
  readonly progress?: ProgressSetting;
  /** Where every read publishes what it pinned, its bytes, and how it ended. */
  readonly events: ReadEvents;
  /** The store's say in which version a read reads (a lock's check). */
  readonly gate?: ReadGate;
  /**
   * The store's loopback proxy for remote scans (closed with the store). Without one, every
   * scan reads the cached copy.
   */
  readonly scans?: ScanProxy;
}

/**
 * The store's say in which version a read reads. A read first resolves the
 * {@linkcode FileVersion} it will read, asks {@linkcode ReadGate.admit}, and reads exactly the
 * version admitted; what was read is heard through the store's events.
 *
 * @example
 * ```ts
 * import type { ReadGate } from "./context.ts";
 * import type { FileVersion } from "../client/file_version.ts";
 * import assert from "node:assert/strict";
 *
 * const gate: ReadGate = { admit: (version) => version };
 * const version: FileVersion = { store: "s", path: "/p", id: "i", size: 1, modified: 0 };
 * assert.equal(await gate.admit(version, "text"), version);
 * ```
 */
export interface ReadGate {
  /**
   * Before any data is read: returns the version to read, which is `current` unless a lock
   * pins another one (that one is then served only from the cache, never downloaded), or
   * throws (a lock's typed error).
   */
  admit(current: FileVersion, operation: ReadOperation): FileVersion | Promise<FileVersion>;
}
