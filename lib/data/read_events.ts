/**
 * What a read tells the world: the version it pinned, the bytes as they arrive, and how it
 * ended. Progress, provenance and the lock's record subscribe to these events; the read calls
 * none of them.
 *
 * @module
 */

import type { FileVersion, ReadOperation } from "../client/file_version.ts";

/**
 * How a read got its bytes into Polars: `cache`, a verified cached copy; `file`, the body moved
 * into the cache copy, then read once; `stream`, parsed from the chunks as they arrived (row
 * limits, batches); `memory`, collected in memory and parsed once (no cache).
 *
 * @example
 * ```ts
 * import type { ReadRoute } from "./read_events.ts";
 * import assert from "node:assert/strict";
 *
 * const route: ReadRoute = "cache";
 * assert.equal(route, "cache");
 * ```
 */
export type ReadRoute = "cache" | "file" | "stream" | "memory";

/**
 * One event of one read. `pinned` once the version to read is chosen (again when the read
 * starts over with a changed file's new version); `bytes` as its bytes arrive (a cached copy's
 * size at once); then `done` with the version read (with its content hash where tern has one),
 * or `failed`. A read its caller leaves early (a `batches()` loop ended by `break`, a cancelled
 * stream) ends with `failed` too.
 *
 * @example
 * ```ts
 * import type { ReadEvent } from "./read_events.ts";
 * import assert from "node:assert/strict";
 *
 * const event: ReadEvent = { kind: "bytes", operation: "bytes", path: "/a.csv", count: 4 };
 * assert.equal(event.kind, "bytes");
 * ```
 */
export type ReadEvent =
  & { operation: ReadOperation }
  & (
    | { kind: "pinned"; version: FileVersion }
    | { kind: "bytes"; path: string; count: number }
    | { kind: "done"; version: FileVersion; fromCache: boolean; route?: ReadRoute }
    | { kind: "failed"; path: string; error: unknown }
  );

/**
 * A subscriber to read events. It runs inside the read, so it must be quick; what it throws
 * fails the read (a caller's `onProgress` that throws stops the read it watches).
 *
 * @example
 * ```ts
 * import type { ReadListener } from "./read_events.ts";
 * import assert from "node:assert/strict";
 *
 * const kinds: string[] = [];
 * const listener: ReadListener = (event) => void kinds.push(event.kind);
 * listener({ kind: "failed", operation: "text", path: "/a", error: new Error("x") });
 * assert.deepEqual(kinds, ["failed"]);
 * ```
 */
export type ReadListener = (event: ReadEvent) => void;

/**
 * A store's read events: every read of the store publishes here. A call that wants its own
 * events (its progress) reads through {@linkcode ReadEvents.with}, which tells its listener
 * first and then the store's subscribers.
 *
 * @example
 * ```ts
 * import { ReadEvents } from "./read_events.ts";
 * import assert from "node:assert/strict";
 *
 * const store = new ReadEvents();
 * const seen: string[] = [];
 * const stop = store.subscribe((event) => void seen.push(`store ${event.kind}`));
 * const call = store.with((event) => void seen.push(`call ${event.kind}`));
 * call.publish({ kind: "bytes", operation: "bytes", path: "/a", count: 1 });
 * stop();
 * call.publish({ kind: "failed", operation: "bytes", path: "/a", error: new Error("x") });
 * assert.deepEqual(seen, ["call bytes", "store bytes", "call failed"]);
 * ```
 */
export class ReadEvents {
  readonly #listeners = new Set<ReadListener>();
  readonly #parent: ReadEvents | undefined;

  /**
   * @param parent The channel that hears every event of this one after its own subscribers.
   *
   * @example
   * ```ts
   * import { ReadEvents } from "./read_events.ts";
   * import assert from "node:assert/strict";
   *
   * const store = new ReadEvents();
   * let heard = 0;
   * store.subscribe(() => heard++);
   * new ReadEvents(store).publish({ kind: "bytes", operation: "bytes", path: "/a", count: 1 });
   * assert.equal(heard, 1);
   * ```
   */
  constructor(parent?: ReadEvents) {
    this.#parent = parent;
  }

  /**
   * Adds a subscriber; the function returned removes it.
   *
   * @example
   * ```ts
   * import { ReadEvents } from "./read_events.ts";
   * import assert from "node:assert/strict";
   *
   * const events = new ReadEvents();
   * let heard = 0;
   * const stop = events.subscribe(() => heard++);
   * events.publish({ kind: "bytes", operation: "bytes", path: "/a", count: 1 });
   * stop();
   * events.publish({ kind: "bytes", operation: "bytes", path: "/a", count: 1 });
   * assert.equal(heard, 1);
   * ```
   */
  subscribe(listener: ReadListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * A channel for one call: `listener` hears its events first, then this channel's subscribers.
   *
   * @example
   * ```ts
   * import { ReadEvents } from "./read_events.ts";
   * import assert from "node:assert/strict";
   *
   * const store = new ReadEvents();
   * const kinds: string[] = [];
   * store.with((event) => void kinds.push(event.kind))
   *   .publish({ kind: "bytes", operation: "bytes", path: "/a", count: 1 });
   * store.publish({ kind: "bytes", operation: "bytes", path: "/b", count: 1 }); // not the call's
   * assert.deepEqual(kinds, ["bytes"]);
   * ```
   */
  with(listener: ReadListener): ReadEvents {
    const events = new ReadEvents(this);
    events.subscribe(listener);
    return events;
  }

  /**
   * Tells every subscriber, in the order they subscribed, then the parent channel's.
   *
   * @example
   * ```ts
   * import { ReadEvents } from "./read_events.ts";
   * import assert from "node:assert/strict";
   *
   * const events = new ReadEvents();
   * const counts: number[] = [];
   * events.subscribe((event) => void (event.kind === "bytes" && counts.push(event.count)));
   * events.publish({ kind: "bytes", operation: "bytes", path: "/a", count: 7 });
   * assert.deepEqual(counts, [7]);
   * ```
   */
  publish(event: ReadEvent): void {
    // The store's subscribers (provenance) hear the event even when a call's own listener throws.
    try {
      for (const listener of [...this.#listeners]) listener(event);
    } finally {
      this.#parent?.publish(event);
    }
  }
}
