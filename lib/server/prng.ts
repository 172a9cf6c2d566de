/**
 * A small seeded pseudo-random generator, so that fault injection and shuffles repeat exactly
 * for a given seed.
 *
 * @module
 */

/** Spreads the bits of a 32-bit integer so nearby seeds give unrelated sequences. */
function mix32(value: number): number {
  let x = value | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * Deterministic pseudo-random numbers (mulberry32). Not for cryptography.
 *
 * Separate `stream` numbers give independent sequences from one seed, so that, for example,
 * shuffling a response does not shift which later request gets a fault.
 *
 * @example Same seed, same sequence
 * ```ts
 * import { Prng } from "./prng.ts";
 * import assert from "node:assert/strict";
 *
 * const a = new Prng(42);
 * const b = new Prng(42);
 * assert.equal(a.next(), b.next());
 * ```
 */
export class Prng {
  #state: number;

  /**
   * Creates a generator from a seed (any finite number; it is folded to 32 bits).
   *
   * @example
   * ```ts
   * import { Prng } from "./prng.ts";
   * import assert from "node:assert/strict";
   * const faults = new Prng(1, 0);
   * const shuffles = new Prng(1, 1);
   * assert.notEqual(faults.next(), shuffles.next()); // independent streams
   * assert.equal(new Prng(1, 0).next(), new Prng(1, 0).next()); // reproducible
   * ```
   */
  constructor(seed: number, stream = 0) {
    const folded = Math.trunc(seed) ^ Math.trunc(seed / 0x100000000);
    this.#state = mix32(folded ^ mix32(stream + 0x9e3779b9));
  }

  /**
   * Returns the next number in [0, 1).
   *
   * @example
   * ```ts
   * import { Prng } from "./prng.ts";
   * import assert from "node:assert/strict";
   *
   * const x = new Prng(7).next();
   * assert.ok(x >= 0 && x < 1);
   * ```
   */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
  }

  /**
   * Returns an integer in [0, n).
   *
   * @example
   * ```ts
   * import { Prng } from "./prng.ts";
   * import assert from "node:assert/strict";
   *
   * const k = new Prng(7).below(10);
   * assert.ok(Number.isInteger(k) && k >= 0 && k < 10);
   * ```
   */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  /**
   * Returns a shuffled copy of `items` (Fisher–Yates); the input is left untouched.
   *
   * @example
   * ```ts
   * import { Prng } from "./prng.ts";
   * import assert from "node:assert/strict";
   *
   * const shuffled = new Prng(3).shuffle([1, 2, 3, 4]);
   * assert.deepEqual([...shuffled].sort(), [1, 2, 3, 4]);
   * ```
   */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}
