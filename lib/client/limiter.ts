/**
 * A first-in, first-out bound on concurrent requests to one store.
 *
 * A slot is held for the whole exchange, including the response body, so a streaming download
 * keeps its slot until the body has been read to the end or cancelled.
 *
 * @module
 */

import { abortError, BadRequestError } from "./errors.ts";

/**
 * Gives a slot back. Calling it more than once has no further effect.
 *
 * @example
 * ```ts
 * import { Limiter, type Release } from "./limiter.ts";
 * import assert from "node:assert/strict";
 *
 * const limiter = new Limiter(1);
 * const release: Release = await limiter.acquire();
 * release();
 * release(); // ignored
 * assert.equal(limiter.active, 0);
 * ```
 */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
}

/**
 * Bounds how many requests are in flight at once; extra callers wait in arrival order.
 *
 * @example Hold a slot for a piece of work
 * ```ts
 * import { Limiter } from "./limiter.ts";
 * import assert from "node:assert/strict";
 *
 * const limiter = new Limiter(2);
 * const release = await limiter.acquire();
 * try {
 *   assert.equal(limiter.active, 1);
 * } finally {
 *   release();
 * }
 * ```
 */
export class Limiter {
  /** Most slots that may be held at once. */
  readonly max: number;
  #active = 0;
  #peak = 0;
  #waiting: Waiter[] = [];
  #watchers = new Set<() => void>();

  /**
   * Creates a limiter with `max` slots.
   *
   * @param max Slots available (a positive integer; default 4).
   * @throws {BadRequestError} when `max` is not a positive integer.
   *
   * @example
   * ```ts
   * import { Limiter } from "./limiter.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new Limiter(2).max, 2);
   * ```
   */
  constructor(max = 4) {
    if (!Number.isInteger(max) || max < 1) {
      throw new BadRequestError(`concurrency must be a positive integer, got ${String(max)}.`);
    }
    this.max = max;
  }

  /** Slots held right now. */
  get active(): number {
    return this.#active;
  }

  /** Callers waiting for a slot. */
  get pending(): number {
    return this.#waiting.length;
  }

  /**
   * Calls `watcher` each time a caller starts waiting for a slot, until the function returned is
   * called: a holder that could give its slot up (a body read ahead) learns that it is wanted.
   *
   * @example
   * ```ts
   * import { Limiter } from "./limiter.ts";
   * import assert from "node:assert/strict";
   *
   * const limiter = new Limiter(1);
   * let wanted = 0;
   * const unwatch = limiter.watch(() => wanted++);
   * const first = await limiter.acquire();
   * const second = limiter.acquire(); // waits: the watcher is told
   * unwatch();
   * first();
   * (await second)();
   * assert.equal(wanted, 1);
   * ```
   */
  watch(watcher: () => void): () => void {
    this.#watchers.add(watcher);
    return () => void this.#watchers.delete(watcher);
  }

  /** The most slots ever held at the same time. */
  get peak(): number {
    return this.#peak;
  }

  /**
   * Waits for a free slot and returns the function that gives it back.
   *
   * @param signal Stops waiting (rejecting with an `AbortError`) when aborted.
   * @returns A release function; extra calls are ignored.
   *
   * @example
   * ```ts
   * import { Limiter } from "./limiter.ts";
   * import assert from "node:assert/strict";
   *
   * const limiter = new Limiter(1);
   * const first = await limiter.acquire();
   * const second = limiter.acquire(); // waits
   * first();
   * (await second)();
   * assert.equal(limiter.active, 0);
   * assert.equal(limiter.peak, 1);
   * ```
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.#active < this.max) return Promise.resolve(this.#take());
    return new Promise<Release>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(abortError(signal!));
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      this.#waiting.push(waiter);
      for (const watcher of this.#watchers) watcher();
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #take(): Release {
    this.#active++;
    if (this.#active > this.#peak) this.#peak = this.#active;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      const next = this.#waiting.shift();
      if (next) next.grant(this.#take());
    };
  }

  /** A short description for logs: `Limiter { active: 1, max: 4, pending: 0 }`. */
  [Symbol.for("Deno.customInspect")](): string {
    return `Limiter { active: ${this.#active}, max: ${this.max}, pending: ${this.pending} }`;
  }
}
