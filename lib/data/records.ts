/**
 * Cuts a byte stream of delimited text or JSON Lines into batches that end at record boundaries,
 * so each batch can be parsed on its own while the rest is still arriving.
 *
 * A record boundary is a line feed outside quotes. Whether a line feed is inside quotes depends
 * on the parity of the quote characters before it (RFC 4180 doubles quotes inside quoted
 * fields, which keeps the parity), so every byte is looked at once, by native searches that
 * jump from quote to quote.
 *
 * @module
 */

const LINE_FEED = 0x0a;

/**
 * Options of {@linkcode RecordSplitter}.
 *
 * @example
 * ```ts
 * import type { SplitterOptions } from "./records.ts";
 *
 * const csv: SplitterOptions = { quote: '"', firstBatchBytes: 64 * 1024, batchBytes: 16 << 20 };
 * const jsonLines: SplitterOptions = { quote: undefined };
 * ```
 */
export interface SplitterOptions {
  /** The quote character (one byte), or `undefined` when line feeds always end records. */
  quote?: string;
  /**
   * Size of the first batch. Later batches grow fourfold up to `batchBytes`, so the first rows
   * (and the schema) are known early and a row limit can stop the download soon, while large
   * files are parsed in few calls.
   * @default {65536}
   */
  firstBatchBytes?: number;
  /**
   * Size the batches grow to.
   * @default {16777216}
   */
  batchBytes?: number;
}

/** Default size batches grow to; see the data benchmark for how it was chosen. */
export const DEFAULT_BATCH_BYTES = 16 * 1024 * 1024;

/**
 * Accumulates chunks and hands out batches of whole records. Concatenating every batch (and the
 * final rest) gives back the input exactly. A batch is valid until the next call to `push()` or
 * `finish()`.
 *
 * @example
 * ```ts
 * import { RecordSplitter } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const splitter = new RecordSplitter({ quote: '"', firstBatchBytes: 8, batchBytes: 8 });
 * const text = new TextEncoder();
 * const decode = (bytes?: Uint8Array) => bytes && new TextDecoder().decode(bytes);
 * const first = splitter.push(text.encode('id,note\n1,"two\nlines"\n2,x'));
 * assert.equal(decode(first), 'id,note\n1,"two\nlines"\n'); // the quoted newline stays inside
 * assert.equal(decode(splitter.push(text.encode("\n3,y\n"))), "2,x\n3,y\n");
 * assert.equal(splitter.finish(), undefined);
 * ```
 */
export class RecordSplitter {
  readonly #quote: number | undefined;
  readonly #batchBytes: number;
  #threshold: number;
  #buffer = new Uint8Array(0);
  #fill = 0;
  /** How far the buffer was searched, whether that point is inside quotes, and the last cut. */
  #scanned = 0;
  #inside = false;
  #cut = 0;

  /**
   * Creates a splitter; see {@linkcode SplitterOptions}.
   *
   * @throws {RangeError} for a quote that is not one ASCII character, or bad sizes.
   *
   * @example
   * ```ts
   * import { RecordSplitter } from "./records.ts";
   *
   * const splitter = new RecordSplitter({ quote: "'" });
   * ```
   */
  constructor(options: SplitterOptions = {}) {
    const { quote, batchBytes = DEFAULT_BATCH_BYTES, firstBatchBytes = 64 * 1024 } = options;
    if (quote !== undefined && (quote.length !== 1 || quote.charCodeAt(0) > 0x7f)) {
      throw new RangeError(`the quote must be one ASCII character, got ${JSON.stringify(quote)}`);
    }
    for (
      const [name, value] of [["batchBytes", batchBytes], ["firstBatchBytes", firstBatchBytes]]
    ) {
      if (!Number.isSafeInteger(value) || (value as number) < 1) {
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
      }
    }
    this.#quote = quote?.charCodeAt(0);
    this.#batchBytes = batchBytes;
    this.#threshold = Math.min(batchBytes, firstBatchBytes);
  }

  /**
   * Adds a chunk; returns a batch when one became complete (valid until the next call). Pushing
   * an empty chunk hands out the next batch of what is already buffered, if any.
   *
   * @example
   * ```ts
   * import { RecordSplitter } from "./records.ts";
   * import assert from "node:assert/strict";
   *
   * const splitter = new RecordSplitter({ firstBatchBytes: 4 });
   * assert.equal(splitter.push(new TextEncoder().encode("a\nb\nc"))?.length, 4);
   * ```
   */
  push(chunk: Uint8Array): Uint8Array | undefined {
    if (this.#fill + chunk.byteLength > this.#buffer.byteLength) {
      const grown = new Uint8Array(
        Math.max(2 * this.#buffer.byteLength, this.#fill + chunk.byteLength, 1024),
      );
      grown.set(this.#buffer.subarray(0, this.#fill));
      this.#buffer = grown;
    }
    this.#buffer.set(chunk, this.#fill);
    this.#fill += chunk.byteLength;
    if (this.#fill < this.#threshold) return undefined;
    this.#search();
    if (this.#cut === 0) {
      // One record longer than the threshold (or an open quote): wait for twice as much.
      this.#threshold = Math.max(this.#threshold, this.#fill) * 2;
      return undefined;
    }
    const batch = this.#buffer.subarray(0, this.#cut);
    const rest = this.#buffer.subarray(this.#cut, this.#fill);
    this.#threshold = Math.min(this.#batchBytes, this.#threshold * 4);
    // Room for the next batch and the chunk that crosses its threshold.
    const room = Math.max(this.#threshold, rest.byteLength);
    this.#buffer = new Uint8Array(room + (room >> 3) + (1 << 20));
    this.#buffer.set(rest);
    this.#fill = rest.byteLength;
    this.#scanned -= this.#cut;
    this.#cut = 0;
    return batch;
  }

  /**
   * Hands out whatever is left (the last record may lack its line feed), or `undefined` when
   * nothing is.
   *
   * @example
   * ```ts
   * import { RecordSplitter } from "./records.ts";
   * import assert from "node:assert/strict";
   *
   * const splitter = new RecordSplitter();
   * splitter.push(new TextEncoder().encode("a\n1"));
   * assert.equal(new TextDecoder().decode(splitter.finish()), "a\n1");
   * ```
   */
  finish(): Uint8Array | undefined {
    const rest = this.#fill === 0 ? undefined : this.#buffer.subarray(0, this.#fill);
    this.#buffer = new Uint8Array(0);
    this.#fill = this.#scanned = this.#cut = 0;
    this.#inside = false;
    return rest;
  }

  /** Searches the bytes not searched yet for the last record boundary. */
  #search(): void {
    const buffer = this.#buffer;
    const end = this.#fill;
    for (let at = this.#scanned; at < end;) {
      const quote = this.#quote === undefined ? -1 : buffer.subarray(at, end).indexOf(this.#quote);
      const stop = quote < 0 ? end : at + quote;
      if (!this.#inside) {
        const feed = buffer.subarray(at, stop).lastIndexOf(LINE_FEED);
        if (feed >= 0) this.#cut = at + feed + 1;
      }
      if (quote < 0) break;
      this.#inside = !this.#inside;
      at = stop + 1;
    }
    this.#scanned = end;
  }
}
