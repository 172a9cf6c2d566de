/**
 * One timer for every deadline of a request: the wait for its headers, then each wait for a
 * body chunk.
 *
 * @module
 */

/**
 * A deadline that moves without a timer per move: its one timer, when it fires, finds the
 * deadline in force and either expires it or re-arms for what is left of it. A small download
 * moves its deadline three or four times (sent, headers, each chunk) and arms one timer.
 *
 * @example
 * ```ts
 * import { Deadline } from "./deadline.ts";
 * import assert from "node:assert/strict";
 *
 * const deadline = new Deadline();
 * const expired = await new Promise<string>((resolve) => {
 *   deadline.set(60_000, () => resolve("the first"));
 *   deadline.set(10, () => resolve("the second")); // sooner: it replaces the first
 * });
 * assert.equal(expired, "the second");
 * deadline.set(20, () => assert.fail("paused"));
 * deadline.pause(); // the timer, when it fires, finds no deadline
 * await new Promise((resolve) => setTimeout(resolve, 40));
 * deadline.stop();
 * ```
 */
export class Deadline {
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (`performance.now()` time). */
  #firesAt = 0;
  #due = Infinity;
  #expire: () => void = () => {};

  /** Calls `expire` once `ms` pass from now, unless the deadline moves or stops first. */
  set(ms: number, expire: () => void): void {
    this.#due = performance.now() + ms;
    this.#expire = expire;
    if (this.#timer !== undefined && this.#firesAt <= this.#due) return;
    clearTimeout(this.#timer);
    this.#arm(ms);
  }

  /** No deadline until the next `set`; the armed timer lapses when it fires. */
  pause(): void {
    this.#due = Infinity;
  }

  /** No deadline, and no timer left to keep the process waiting. */
  stop(): void {
    this.#due = Infinity;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    this.#firesAt = performance.now() + ms;
    this.#timer = setTimeout(this.#fire, ms);
  }

  #fire = (): void => {
    this.#timer = undefined;
    const left = this.#due - performance.now();
    if (left === Infinity) return;
    if (left > 0) return this.#arm(left);
    this.#due = Infinity;
    this.#expire();
  };
}
