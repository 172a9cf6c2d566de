/**
 * Cuts a byte stream of delimited text or JSON Lines into batches that end at record boundaries,
 * so each batch can be parsed on its own while the rest is still arriving.
 *
 * A record boundary is a line feed outside quotes. Whether a line feed is inside quotes depends
 * on the parity of the quote characters before it (RFC 4180 doubles quotes inside quoted
 * fields, which keeps the parity), so each batch's quotes are counted when it is cut (only the
 * short rest carried into the next batch is counted again), four bytes at a time, which keeps
 * the splitter at a few GB/s on one core.
 *
 * Lines dropped before any of that (a preamble, comment lines) are dropped by
 * {@linkcode LineFilter}, once, at the start of the stream, so every route reads the same text.
 *
 * The other record-level questions of delimited text asked of its bytes live here too: whether
 * it has blank lines (and the text without them) and whether the fields past the header's are
 * all empty.
 *
 * @module
 */

import { joinBytes } from "./chunks.ts";

/**
 * How many bytes equal to `quote` lie in `bytes[start, end)`.
 *
 * @example
 * ```ts
 * import { countByte } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode('a,"b ""c""",d\n');
 * assert.equal(countByte(bytes, 0x22, 0, bytes.length), 6);
 * ```
 */
export function countByte(bytes: Uint8Array, quote: number, start: number, end: number): number {
  // Many tables quote nothing: one native search settles that without looking at every word.
  const first = bytes.subarray(start, end).indexOf(quote);
  if (first < 0) return 0;
  let count = 0;
  let i = start + first;
  // Whole 32-bit words need a 4-aligned start in the underlying buffer.
  while (i < end && ((bytes.byteOffset + i) & 3) !== 0) {
    if (bytes[i] === quote) count++;
    i++;
  }
  const words = (end - i) >> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    const pattern = quote * 0x01010101;
    for (let k = 0; k < words; k++) {
      const x = view[k] ^ pattern; // bytes equal to the quote become zero
      if (((x - 0x01010101) & ~x & 0x80808080) !== 0) {
        // Exact count of zero bytes: the high bit of each non-zero byte, counted.
        const nonZero = ((((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) & 0x80808080) >>> 7;
        count += 4 - bitCount(nonZero);
      }
    }
    i += words * 4;
  }
  for (; i < end; i++) if (bytes[i] === quote) count++;
  return count;
}

function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Accumulates chunks and hands out batches of whole records. Concatenating every batch (and the
 * final rest) gives back the input exactly. A batch is handed out without copying, and is valid
 * until the next call to `push()` or `finish()`: the splitter alternates between two buffers,
 * so after the first few batches it allocates nothing (fresh memory costs page faults, which at
 * these sizes cost as much as the copy itself).
 *
 * @example
 * ```ts
 * import { RecordSplitter } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const splitter = new RecordSplitter('"', 8, 8);
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
  readonly #lineEnd: number;
  readonly #batchBytes: number;
  #threshold: number;
  #buffer: Uint8Array;
  /** The buffer of the batch handed out last, reused for the one after next. */
  #spare: Uint8Array = new Uint8Array(0);
  #fill = 0;

  /**
   * Creates a splitter. Batches start at `firstBatchBytes` and grow fourfold up to
   * `batchBytes`, so the first rows (and the schema) are known early and a row limit can stop
   * the download soon, while large files are parsed in few calls.
   *
   * @param quote The quote character (one ASCII character), or `undefined` when line feeds
   * always end records (JSON Lines).
   * @param firstBatchBytes Size of the first batch.
   * @param batchBytes Size the batches grow to; see the data benchmark for how it was chosen.
   * @param lineEnd The byte records end with: a line feed, or a carriage return for text whose
   * lines end with a lone CR.
   *
   * @example
   * ```ts
   * import { RecordSplitter } from "./records.ts";
   *
   * const csv = new RecordSplitter("'");
   * const jsonLines = new RecordSplitter(undefined, 1024, 1024 * 1024);
   * ```
   */
  constructor(
    quote?: string,
    firstBatchBytes = 64 * 1024,
    batchBytes = 16 * 1024 * 1024,
    lineEnd: "\n" | "\r" = "\n",
  ) {
    this.#quote = quote?.charCodeAt(0);
    this.#lineEnd = lineEnd.charCodeAt(0);
    this.#batchBytes = batchBytes;
    this.#threshold = Math.min(batchBytes, firstBatchBytes);
    this.#buffer = new Uint8Array(capacityFor(this.#threshold));
  }

  /**
   * Adds a chunk; returns a batch when one became complete (valid until the next call).
   *
   * @example
   * ```ts
   * import { RecordSplitter } from "./records.ts";
   * import assert from "node:assert/strict";
   *
   * const splitter = new RecordSplitter(undefined, 4);
   * assert.equal(splitter.push(new TextEncoder().encode("a\nb\nc"))?.length, 4);
   * ```
   */
  push(chunk: Uint8Array): Uint8Array | undefined {
    if (chunk.byteLength > 0) {
      if (this.#fill + chunk.byteLength > this.#buffer.byteLength) {
        const grown = new Uint8Array(
          Math.max(this.#buffer.byteLength * 2, capacityFor(this.#fill + chunk.byteLength)),
        );
        grown.set(this.#buffer.subarray(0, this.#fill));
        this.#buffer = grown;
      }
      this.#buffer.set(chunk, this.#fill);
      this.#fill += chunk.byteLength;
    }
    return this.#fill >= this.#threshold ? this.#cut() : undefined;
  }

  /**
   * How many bytes it holds that no batch has taken yet.
   *
   * @example
   * ```ts
   * import { RecordSplitter } from "./records.ts";
   * import assert from "node:assert/strict";
   *
   * const splitter = new RecordSplitter(undefined, 1024);
   * splitter.push(new TextEncoder().encode("a\n1"));
   * assert.equal(splitter.buffered, 3);
   * ```
   */
  get buffered(): number {
    return this.#fill;
  }

  /**
   * Hands out whatever is left (the last record may lack its line feed), or `undefined` when
   * nothing is. The splitter takes no more chunks after.
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
    return this.#fill === 0 ? undefined : this.#buffer.subarray(0, this.#fill);
  }

  /** Cuts at the last line feed outside quotes; grows the threshold when there is none. */
  #cut(): Uint8Array | undefined {
    const buffer = this.#buffer;
    const fill = this.#fill;
    const quote = this.#quote;
    const lineEnd = this.#lineEnd;
    let end = buffer.lastIndexOf(lineEnd, fill - 1);
    if (quote !== undefined && end >= 0) {
      // Quotes up to and including the line feed at `end`; step back while that count is odd.
      let quotes = countByte(buffer, quote, 0, end + 1);
      while (end >= 0 && (quotes & 1) === 1) {
        const previous = buffer.lastIndexOf(lineEnd, end - 1);
        quotes -= countByte(buffer, quote, previous + 1, end + 1);
        end = previous;
      }
    }
    if (end < 0) {
      // One record longer than the threshold (or an open quote): wait for twice as much.
      this.#threshold = Math.max(this.#threshold, fill) * 2;
      return undefined;
    }
    const cut = end + 1;
    const rest = fill - cut;
    this.#threshold = Math.min(this.#batchBytes, this.#threshold * 4);
    const wanted = capacityFor(Math.max(this.#threshold, rest));
    const next = this.#spare.byteLength >= wanted ? this.#spare : new Uint8Array(wanted);
    next.set(buffer.subarray(cut, fill));
    this.#spare = buffer;
    this.#buffer = next;
    this.#fill = rest;
    return buffer.subarray(0, cut);
  }
}

/**
 * Which lines of delimited text {@linkcode LineFilter} drops.
 *
 * @example
 * ```ts
 * import type { LineDropping } from "./records.ts";
 *
 * const logger: LineDropping = { skipRows: 2, commentPrefix: "#" };
 * ```
 */
export interface LineDropping {
  /**
   * Lines to drop first, as written (a quote in them opens no field).
   * @default {0}
   */
  skipRows?: number;
  /**
   * A line after those starting with this (outside a quoted field) is dropped.
   * @default {undefined}
   */
  commentPrefix?: string;
  /**
   * The quote character.
   * @default {'"'}
   */
  quoteChar?: string;
  /**
   * What lines end with: `"\n"`, or `"\r"` for text whose lines end with a lone CR.
   * @default {"\n"}
   */
  lineEnd?: "\n" | "\r";
}

/**
 * Drops the first `skipRows` lines and the comment lines of delimited text as its chunks pass,
 * before records are cut: a comment line's quotes would otherwise open a field, and a preamble
 * must be dropped once, not at each batch. A whole file is one chunk, the last. Once the
 * preamble is gone and there is no comment prefix, chunks pass as they are.
 *
 * @example
 * ```ts
 * import { LineFilter } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const filter = new LineFilter({ skipRows: 1, commentPrefix: "#" });
 * const text = new TextEncoder();
 * const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
 * const first = filter.push(text.encode('Logger "v2\na,b\n# a "quote\n1,"x\n#'));
 * assert.equal(decode(first), 'a,b\n1,"x\n'); // the comment's quote opened nothing
 * const rest = filter.push(text.encode('y"\n#end\n2,z'), true);
 * assert.equal(decode(rest), '#y"\n2,z'); // a line inside a quoted field is no comment
 * ```
 */
export class LineFilter {
  #skip: number;
  readonly #prefix: Uint8Array | undefined;
  readonly #quote: number;
  readonly #end: number;
  #quoted = false;
  // An unended line, in the chunks it came in: joined once its end comes, so a long line costs
  // one copy rather than one per chunk.
  #held: Uint8Array[] = [];
  #heldBytes = 0;

  /**
   * Creates a filter.
   *
   * @example
   * ```ts
   * import { LineFilter } from "./records.ts";
   * import assert from "node:assert/strict";
   *
   * const filter = new LineFilter({ commentPrefix: "//", lineEnd: "\r" });
   * const kept = filter.push(new TextEncoder().encode("// x\ra\r1\r"), true);
   * assert.equal(new TextDecoder().decode(kept), "a\r1\r");
   * ```
   */
  constructor({ skipRows = 0, commentPrefix, quoteChar = '"', lineEnd = "\n" }: LineDropping) {
    this.#skip = skipRows;
    this.#prefix = commentPrefix === undefined
      ? undefined
      : new TextEncoder().encode(commentPrefix);
    this.#quote = quoteChar.charCodeAt(0);
    this.#end = lineEnd.charCodeAt(0);
  }

  /**
   * The lines of `chunk` (and of the unended line held from before) that are kept; an unended
   * last line is held for the next chunk, unless `last`.
   *
   * @example
   * ```ts
   * import { LineFilter } from "./records.ts";
   * import assert from "node:assert/strict";
   *
   * const filter = new LineFilter({ skipRows: 1 });
   * assert.equal(filter.push(new TextEncoder().encode("pre")).length, 0);
   * assert.equal(filter.buffered, 3);
   * assert.equal(new TextDecoder().decode(filter.push(new TextEncoder().encode("\na\n1"))), "a\n1");
   * ```
   */
  push(chunk: Uint8Array, last = false): Uint8Array {
    const prefix = this.#prefix;
    const dropping = this.#skip > 0 || prefix !== undefined;
    if (dropping && !last && chunk.indexOf(this.#end) < 0) {
      this.#held.push(chunk.slice());
      this.#heldBytes += chunk.length;
      return chunk.subarray(0, 0);
    }
    let bytes = chunk;
    if (this.#heldBytes > 0) {
      bytes = joinBytes([...this.#held, chunk]);
      [this.#held, this.#heldBytes] = [[], 0];
    }
    const end = this.#end;
    let start = 0;
    for (; this.#skip > 0 && start < bytes.length; this.#skip--) {
      const stop = bytes.indexOf(end, start);
      if (stop < 0 && !last) break;
      start = stop < 0 ? bytes.length : stop + 1;
    }
    // The preamble is gone and there are no comments: the rest passes as it is.
    if (this.#skip === 0 && prefix === undefined) return bytes.subarray(start);
    const stop = this.#skip > 0 ? start : last ? bytes.length : bytes.lastIndexOf(end) + 1;
    const kept = new Uint8Array(stop - start);
    let fill = 0;
    if (prefix !== undefined) {
      // Comment lines are rare: hop from one prefix byte at a line start to the next, and count
      // quotes only up to those, with one native search each (a loop over lines would cost a
      // call per line).
      let [from, counted, at] = [start, start, start];
      while ((at = bytes.indexOf(prefix[0], at)) >= 0 && at < stop) {
        if ((at === start || bytes[at - 1] === end) && startsWith(bytes, at, prefix)) {
          if ((countByte(bytes, this.#quote, counted, at) & 1) === 1) this.#quoted = !this.#quoted;
          counted = at;
          if (!this.#quoted) {
            kept.set(bytes.subarray(from, at), fill);
            fill += at - from;
            const next = bytes.indexOf(end, at);
            from = counted = at = next < 0 || next >= stop ? stop : next + 1;
            continue;
          }
        }
        at++;
      }
      if ((countByte(bytes, this.#quote, counted, stop) & 1) === 1) this.#quoted = !this.#quoted;
      start = from;
    }
    kept.set(bytes.subarray(start, stop), fill);
    fill += stop - start;
    if (stop < bytes.length) {
      this.#held.push(bytes.slice(stop));
      this.#heldBytes = bytes.length - stop;
    }
    return kept.subarray(0, fill);
  }

  /**
   * How many bytes of an unended line it holds.
   *
   * @example
   * ```ts
   * import { LineFilter } from "./records.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new LineFilter({ commentPrefix: "#" }).buffered, 0);
   * ```
   */
  get buffered(): number {
    return this.#heldBytes;
  }
}

/** Whether `bytes` from `start` on begin with `prefix`. */
function startsWith(bytes: Uint8Array, start: number, prefix: Uint8Array): boolean {
  if (bytes.length - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[start + i] !== prefix[i]) return false;
  return true;
}

/** Room for a batch plus the chunk that crosses its threshold. */
function capacityFor(bytes: number): number {
  return bytes + (bytes >> 3) + 256 * 1024;
}

/**
 * Whether delimited text starts with a blank line or holds one: two line ends in a row (a CR
 * between them allowed). A native search per line; quotes are not looked at, so a quoted field that
 * holds a blank line counts too (see {@linkcode withoutBlankLines}).
 *
 * @param end The byte lines end with (a line feed, or a CR).
 *
 * @example
 * ```ts
 * import { hasBlankLine } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextEncoder();
 * assert.ok(hasBlankLine(text.encode("a,b\r\n\r\n1,2\r\n"), 0x0a));
 * assert.ok(!hasBlankLine(text.encode("a,b\n1,2\n"), 0x0a));
 * ```
 */
export function hasBlankLine(bytes: Uint8Array, end: number): boolean {
  if (bytes[0] === end || (bytes[0] === CR && bytes[1] === end)) return true;
  // One native search per line: Deno's Buffer.includes of a two-byte pattern is a JavaScript
  // loop, several times slower over a large file.
  for (let at = bytes.indexOf(end); at >= 0; at = bytes.indexOf(end, at + 1)) {
    const next = bytes[at + 1];
    if (next === end || (next === CR && bytes[at + 2] === end)) return true;
  }
  return false;
}

/**
 * Delimited text without its blank lines outside quotes (a line of nothing but a CR, spaces or
 * tabs is blank; a tab that separates fields is not), or `undefined` when it has none.
 *
 * @param end The byte lines end with (a line feed, or a CR).
 * @param quote The quote character's byte.
 * @param sep The separator's byte.
 *
 * @example
 * ```ts
 * import { withoutBlankLines } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextEncoder().encode('a,b\n\n1,"x\n\ny"\n\r\n  \n2,z\n');
 * const kept = withoutBlankLines(text, 0x0a, 0x22)!;
 * assert.equal(new TextDecoder().decode(kept), 'a,b\n1,"x\n\ny"\n2,z\n'); // quoted lines stay
 * assert.equal(withoutBlankLines(new TextEncoder().encode("a\n1\n"), 0x0a, 0x22), undefined);
 * ```
 */
export function withoutBlankLines(
  bytes: Uint8Array,
  end: number,
  quote: number,
  sep = 0x2c,
): Uint8Array | undefined {
  const blank = (b: number) => b === end || b === CR || ((b === 0x20 || b === 0x09) && b !== sep);
  const kept = new Uint8Array(bytes.length);
  let [fill, start, quoted, dropped] = [0, 0, false, false];
  for (let i = 0; i <= bytes.length; i++) {
    const byte = bytes[i];
    if (byte === quote) quoted = !quoted;
    if (i < bytes.length && (quoted || byte !== end)) continue;
    const line = bytes.subarray(start, Math.min(i + 1, bytes.length));
    if (line.length > 0 && line.every(blank)) dropped = true;
    else kept.set(line, fill), fill += line.length;
    start = i + 1;
  }
  return dropped ? kept.subarray(0, fill) : undefined;
}

/**
 * How delimited text is laid out, for {@linkcode extraFieldsEmpty}.
 *
 * @example
 * ```ts
 * import type { Delimiting } from "./records.ts";
 *
 * const semicolons: Delimiting = { sep: ";", eolChar: "\n" };
 * ```
 */
export interface Delimiting {
  /** The field separator. */
  sep: string;
  /**
   * The quote character.
   * @default {'"'}
   */
  quoteChar?: string;
  /** What lines end with: `"\n"`, or `"\r"` for text whose lines end with a lone CR. */
  eolChar: string;
}

/**
 * Whether every field beyond the first `width` of each record of delimited text is empty
 * (`width`: the first record's fields, when not given), quotes and line ends inside quotes
 * taken into account; a quoted field is never empty. One pass in JavaScript: for an error path.
 *
 * @example
 * ```ts
 * import { extraFieldsEmpty } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextEncoder();
 * const csv = { sep: ",", eolChar: "\n" };
 * assert.ok(extraFieldsEmpty(text.encode('a,b\n1,"x,"\r\n2,y,\r\n'), csv));
 * assert.ok(!extraFieldsEmpty(text.encode("a,b\n1,2,3\n"), csv));
 * assert.ok(!extraFieldsEmpty(text.encode("1,2,\n"), csv, 1)); // width given: a later batch
 * ```
 */
export function extraFieldsEmpty(
  bytes: Uint8Array,
  { sep, quoteChar = '"', eolChar }: Delimiting,
  width?: number,
): boolean {
  const [separator, quote, end] = [sep, quoteChar, eolChar].map((c) => c.charCodeAt(0));
  let fields = width;
  let field = 0;
  let quoted = false;
  for (const byte of bytes) {
    if (quoted) {
      if (byte === quote) quoted = false;
      continue;
    }
    if (byte === separator) field++;
    else if (byte === end) {
      fields ??= field + 1;
      field = 0;
    } else if (byte === quote) quoted = true;
    if (fields !== undefined && field >= fields && byte !== separator && byte !== CR) {
      return false;
    }
  }
  return true;
}

const CR = 0x0d;

/**
 * Delimited text with each field that is a number written with a decimal comma (`3,14`,
 * `-0,5`, `"1,5e3"`) written with a decimal point instead, as Polars' CSV reader reads numbers:
 * what `decimalComma: true` reads. A field that is anything else keeps its comma (`a,b`, `1,2,3`,
 * and `1.234,5`, whose thousands separator makes it text); a field's quotes and line ends are
 * honoured. Every byte keeps its place, so offsets in errors still point into the file; `bytes`
 * is copied only when a comma changes. With `header`, the first record is a header, left as
 * written (a spectrum's `350,5` names a column), as pandas leaves it. The fields of the columns
 * (counted from 0) in `columns.text` are left as written, and the columns whose fields changed
 * are added to `columns.changed`. One pass in JavaScript over text that has a comma, taken only
 * for that option.
 *
 * @example
 * ```ts
 * import { decimalPoints } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextEncoder();
 * const fixed = decimalPoints(text.encode('a;b;c\r\n3,14;"-1,5e3";Bern, BE\r\n'), {
 *   sep: ";",
 *   eolChar: "\n",
 * });
 * assert.equal(new TextDecoder().decode(fixed), 'a;b;c\r\n3.14;"-1.5e3";Bern, BE\r\n');
 *
 * const changed = new Set<number>();
 * const kept = decimalPoints(text.encode("1,5;1,2\n"), { sep: ";", eolChar: "\n" }, false, {
 *   text: new Set([1]),
 *   changed,
 * });
 * assert.equal(new TextDecoder().decode(kept), "1.5;1,2\n");
 * assert.deepEqual([...changed], [0]);
 * ```
 */
export function decimalPoints(
  bytes: Uint8Array,
  { sep, quoteChar = '"', eolChar }: Delimiting,
  header = false,
  columns: { text?: ReadonlySet<number>; changed?: Set<number> } = {},
): Uint8Array {
  if (bytes.indexOf(COMMA) < 0) return bytes;
  const [separator, quote, end] = [sep, quoteChar, eolChar].map((c) => c.charCodeAt(0));
  let out = bytes;
  // The field being read: where its content starts and stops (at a closing quote or a CR), its
  // comma, and whether each byte so far may belong to a number.
  let start = 0;
  let stop = -1;
  let comma = -1;
  let numeric = true;
  let quoted = false;
  // Whether the line holds more than spaces, tabs and CRs: a blank line before the header is
  // dropped by the reader, so the header is the first line that is not blank.
  let filled = false;
  let column = 0;
  for (let i = 0; i <= bytes.length; i++) {
    const byte = i < bytes.length ? bytes[i] : end;
    if (!quoted && byte !== end && byte !== 0x20 && byte !== 0x09 && byte !== CR) filled = true;
    if (quoted) {
      if (byte === quote) {
        quoted = false;
        stop = i;
      } else if (byte === COMMA && comma < 0) comma = i;
      else if (NUMBER_BYTE[byte] === 0) numeric = false;
    } else if (byte === separator || byte === end) {
      if (
        !header && numeric && comma >= 0 && !columns.text?.has(column) &&
        decimalComma(bytes, start, stop < 0 ? i : stop, comma)
      ) {
        if (out === bytes) out = bytes.slice();
        out[comma] = 0x2e;
        columns.changed?.add(column);
      }
      column++;
      if (byte === end) {
        if (filled) header = false;
        filled = false;
        column = 0;
      }
      start = i + 1;
      stop = comma = -1;
      numeric = true;
    } else if (byte === quote) {
      quoted = true;
      if (i === start) start++;
      else numeric = false; // a doubled quote, or one inside unquoted text
    } else if (byte === CR && (i + 1 === bytes.length || bytes[i + 1] === end)) {
      if (stop < 0) stop = i; // a CRLF line end, after a closing quote or not
    } else if (stop >= 0) numeric = false; // text after a closing quote
    else if (byte === COMMA && comma < 0) comma = i;
    else if (NUMBER_BYTE[byte] === 0) numeric = false;
  }
  return out;
}

/**
 * A field that `decimalComma` makes a number (`3,14`, `-,5`, `1,5e3`), as text: the card's note
 * and the parse error's hint ask it of values Polars kept as text.
 *
 * @example
 * ```ts
 * import { DECIMAL_COMMA_NUMBER } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(DECIMAL_COMMA_NUMBER.test("-3,14e2"));
 * assert.ok(!DECIMAL_COMMA_NUMBER.test("1.234,5"));
 * ```
 */
export const DECIMAL_COMMA_NUMBER = /^[+-]?\d*,\d+(?:[eE][+-]?\d+)?$/;

/**
 * Whether `bytes[from, to)`, of digits, signs, `e` and one comma at `comma`, is a number: the
 * bytes' form of {@linkcode DECIMAL_COMMA_NUMBER}.
 */
function decimalComma(bytes: Uint8Array, from: number, to: number, comma: number): boolean {
  const digits = (at: number) => {
    while (at < to && bytes[at] >= 0x30 && bytes[at] <= 0x39) at++;
    return at;
  };
  if (bytes[from] === PLUS || bytes[from] === MINUS) from++;
  if (digits(from) !== comma) return false;
  let at = digits(comma + 1);
  if (at === comma + 1) return false;
  if (at < to && (bytes[at] === 0x65 || bytes[at] === 0x45)) {
    at++;
    if (bytes[at] === PLUS || bytes[at] === MINUS) at++;
    const exponent = at;
    at = digits(at);
    if (at === exponent) return false;
  }
  return at === to;
}

/** 1 for the bytes a number may hold besides its comma: digits, signs, `e` and `E`. */
const NUMBER_BYTE = new Uint8Array(256);
for (const char of "0123456789+-eE") NUMBER_BYTE[char.charCodeAt(0)] = 1;

const COMMA = 0x2c;
const PLUS = 0x2b;
const MINUS = 0x2d;
