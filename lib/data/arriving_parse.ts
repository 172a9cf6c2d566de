/**
 * A whole read of delimited text parsed in batches as its bytes arrive, so that over a slow link
 * the parse overlaps the transfer instead of following it; the frame it gives is the one the
 * whole-file parse gives, or none (the caller then parses the whole, verified copy).
 *
 * The two agree by construction where the batch route fixes what the whole parse infers: the
 * first batch sees the rows types and dates are inferred from (it must hold more than
 * `inferSchemaLength` rows, else the batches are given up), and every later batch is parsed with
 * that batch's schema and dates. Every batch reads every column, as the whole parse does, so a
 * value that fails a column not asked for fails both. What can still part them is given up on:
 * a batch Polars cannot parse (the whole parse then reports the error itself) and a later batch
 * whose types differ from the first's (an integer column widened by a decimal met late, which
 * the whole parse widens from the first row).
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import { decodes } from "./encoding.ts";
import { BatchParser, combineFrames, type Parsing } from "./parse.ts";
import type { Polars } from "./polars.ts";
import { RecordSplitter } from "./records.ts";

/**
 * Files smaller than this are parsed whole once they are in: there is little transfer to hide
 * their parse behind, and the batches' own costs (a splitter, a Polars call each) would show.
 *
 * @example
 * ```ts
 * import { ARRIVING_MIN_BYTES } from "./arriving_parse.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(ARRIVING_MIN_BYTES, 16 * 1024 * 1024);
 * ```
 */
export const ARRIVING_MIN_BYTES = 16 * 1024 * 1024;

/** Rows Polars infers CSV types from when `inferSchemaLength` is not given. */
const POLARS_SAMPLE = 100;

const NO_BYTES = new Uint8Array(0);

/**
 * Parses a whole file's chunks, handed over in order with {@linkcode ArrivingParse.push}, into
 * the frame the whole-file parse would give ({@linkcode ArrivingParse.finish}), or gives up.
 * Only plain UTF-8 delimited text of at least {@linkcode ARRIVING_MIN_BYTES}, read whole, is
 * taken ({@linkcode ArrivingParse.of}).
 *
 * @example
 * ```ts
 * import { ARRIVING_MIN_BYTES, ArrivingParse } from "./arriving_parse.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const rows = Array.from({ length: 100_000 }, (_, i) => `${i},2012-01-${10 + (i % 20)},x${i}`);
 * const bytes = new TextEncoder().encode(`n,day,name\n${rows.join("\n")}\n`);
 * const csv = { format: "csv", gzip: false, sep: "," } as const;
 * const parsing = { pl, detected: csv, path: "/a/big.csv", size: ARRIVING_MIN_BYTES };
 * const arriving = ArrivingParse.of(parsing)!;
 * for (let at = 0; at < bytes.length; at += 1 << 16) arriving.push(bytes.subarray(at, at + (1 << 16)));
 * const frame = arriving.finish()!;
 * assert.equal(frame.height, 100_000);
 * assert.equal(String(frame.getColumn("day").dtype), String(pl.Date));
 * assert.equal(ArrivingParse.of({ ...parsing, size: 1000 }), undefined); // small: parsed whole
 * ```
 */
export class ArrivingParse {
  readonly #splitter: RecordSplitter;
  readonly #parser: BatchParser;
  readonly #sample: number;
  readonly #pl: Polars;
  readonly #columns: readonly string[] | undefined;
  /** The frames so far; `undefined` once the batches were given up. */
  #frames: DataFrame[] | undefined = [];
  /** The first batch's column types, which every later batch must have. */
  #types: string | undefined;
  /** Whether the first batch held too few rows to be the sample the whole parse infers from. */
  #short = false;

  private constructor(parsing: Parsing) {
    const { pl, detected, options = {}, path } = parsing;
    this.#pl = pl;
    // The download waits while a batch is parsed: batches of a few MiB keep each wait short
    // enough for the connection's buffers to carry the link meanwhile.
    this.#splitter = new RecordSplitter(options.quoteChar ?? '"', 64 * 1024, 4 * 1024 * 1024);
    // Every batch reads every column, as the whole parse does (a value another column cannot
    // hold fails it), and the columns asked for are picked from the joined frame.
    const { columns, ...every } = options;
    this.#columns = columns;
    this.#parser = new BatchParser(pl, detected, every, path);
    this.#sample = options.inferSchemaLength ?? POLARS_SAMPLE;
  }

  /**
   * A parse of the arriving chunks of a whole read, or `undefined` when the file is better
   * parsed whole after the transfer: not plain delimited text (compressed, another encoding,
   * another format), a row limit, or a file under {@linkcode ARRIVING_MIN_BYTES}.
   *
   * @example
   * ```ts
   * import { ArrivingParse } from "./arriving_parse.ts";
   * import { loadPolars } from "./polars.ts";
   * import assert from "node:assert/strict";
   *
   * const pl = await loadPolars();
   * const size = 1 << 30;
   * const parsing = { pl, detected: { format: "csv", gzip: true } as const, path: "/a.csv.gz", size };
   * assert.equal(ArrivingParse.of(parsing), undefined);
   * ```
   */
  static of(parsing: Parsing & { size: number }): ArrivingParse | undefined {
    const { detected, options = {}, size } = parsing;
    const plain = detected.format === "csv" && !detected.gzip && !decodes(options.encoding);
    const whole = options.nRows === undefined;
    return plain && whole && size >= ARRIVING_MIN_BYTES ? new ArrivingParse(parsing) : undefined;
  }

  /**
   * Takes the next chunk (copied: it may be reused once this returns) and parses the batches
   * of whole records it completes. Never throws: a batch that fails gives the batches up.
   *
   * @example
   * ```ts
   * import { ARRIVING_MIN_BYTES, ArrivingParse } from "./arriving_parse.ts";
   * import { loadPolars } from "./polars.ts";
   * import assert from "node:assert/strict";
   *
   * const pl = await loadPolars();
   * const csv = { format: "csv", gzip: false, sep: "," } as const;
   * const arriving = ArrivingParse.of({ pl, detected: csv, path: "/a.csv", size: ARRIVING_MIN_BYTES })!;
   * arriving.push(new TextEncoder().encode("a,b\n1,"));
   * arriving.push(new TextEncoder().encode("2\n"));
   * assert.deepEqual(arriving.finish()?.toRecords(), [{ a: 1, b: 2 }]);
   * ```
   */
  push = (chunk: Uint8Array): void => {
    if (this.#frames === undefined) return;
    for (let batch = this.#splitter.push(chunk); batch; batch = this.#splitter.push(NO_BYTES)) {
      this.#take(batch);
      if (this.#frames === undefined) return;
    }
  };

  /**
   * The frame of every chunk pushed, as the whole-file parse gives it, or `undefined` when the
   * batches were given up (parse the whole file instead). Call it only once the bytes were
   * verified.
   *
   * @example
   * ```ts
   * import { ARRIVING_MIN_BYTES, ArrivingParse } from "./arriving_parse.ts";
   * import { loadPolars } from "./polars.ts";
   * import assert from "node:assert/strict";
   *
   * const pl = await loadPolars();
   * const csv = { format: "csv", gzip: false, sep: "," } as const;
   * const arriving = ArrivingParse.of({ pl, detected: csv, path: "/a.csv", size: ARRIVING_MIN_BYTES })!;
   * arriving.push(new TextEncoder().encode('a\n"not closed\n'));
   * assert.equal(arriving.finish(), undefined); // Polars refused it: the whole parse will say why
   * ```
   */
  finish(): DataFrame | undefined {
    const rest = this.#splitter.finish();
    if (rest !== undefined && this.#frames !== undefined) this.#take(rest);
    if (this.#frames === undefined) return undefined;
    const frame = combineFrames(this.#pl, this.#frames);
    const columns = this.#columns;
    if (columns === undefined) return frame;
    // A column not there is the whole parse's error to tell.
    if (columns.some((name) => !frame.columns.includes(name))) return undefined;
    return frame.select(...frame.columns.filter((name) => columns.includes(name)));
  }

  /** Parses one batch, or gives the batches up. */
  #take(batch: Uint8Array): void {
    const frames = this.#frames!;
    try {
      const frame = this.#parser.parse(batch);
      // A pass over the names per batch (a frame's `dtypes` lists them all): a few dozen.
      const types = frame.dtypes.map(String).join("\n");
      if (frames.length === 0) {
        this.#types = types;
        // The whole parse infers from its first rows: this batch must hold them all (unless it
        // is the whole file, which only `finish()` can tell).
        if (frame.height <= this.#sample) this.#short = true;
      } else if (this.#short || types !== this.#types) {
        this.#frames = undefined;
        return;
      }
      frames.push(frame);
    } catch {
      this.#frames = undefined;
    }
  }
}
