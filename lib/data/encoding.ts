/**
 * Text in another encoding than UTF-8, made UTF-8 for Polars (which reads nothing else): decoded
 * while it streams, or whole, with the platform's `TextDecoder`; and the first byte of a text
 * that is not valid UTF-8, for an error that says where.
 *
 * @module
 */

import { joinBytes } from "./chunks.ts";

/**
 * The encodings of text files the readers take (the `encoding` option). `utf-16` takes its byte
 * order from the byte-order mark (little-endian without one). `latin-1` and `iso-8859-1` are
 * read as `windows-1252`, as browsers and the WHATWG Encoding standard do: the two agree except
 * at 0x80–0x9F, control characters in ISO-8859-1 that text files use for €, curly quotes and
 * dashes.
 *
 * @example
 * ```ts
 * import { ENCODINGS } from "./encoding.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(ENCODINGS.includes("latin-1"));
 * ```
 */
export const ENCODINGS = [
  "utf-8",
  "utf-16",
  "utf-16le",
  "utf-16be",
  "latin-1",
  "iso-8859-1",
  "windows-1252",
] as const;

/**
 * One of {@linkcode ENCODINGS}.
 *
 * @example
 * ```ts
 * import type { Encoding } from "./encoding.ts";
 *
 * const encoding: Encoding = "windows-1252";
 * ```
 */
export type Encoding = typeof ENCODINGS[number];

/**
 * Whether text in `encoding` must be decoded before Polars reads it: anything but UTF-8.
 *
 * @example
 * ```ts
 * import { decodes } from "./encoding.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(decodes(undefined), false);
 * assert.equal(decodes("latin-1"), true);
 * ```
 */
export function decodes(encoding: Encoding | undefined): encoding is Encoding {
  return encoding !== undefined && encoding !== "utf-8";
}

/** A decoder for `encoding`, `utf-16`'s byte order read from `head`'s byte-order mark. */
function decoderFor(encoding: Encoding, head: Uint8Array): TextDecoder {
  const big = head[0] === 0xfe && head[1] === 0xff;
  const label = encoding === "utf-16" ? (big ? "utf-16be" : "utf-16le") : encoding === "latin-1" // not one of the Encoding standard's labels; "latin1" is
    ? "latin1"
    : encoding;
  return new TextDecoder(label);
}

/**
 * `chunks` of text in `encoding`, as UTF-8 chunks, decoded as they arrive (a character split
 * between chunks is kept for the next; a byte-order mark is dropped).
 *
 * @example
 * ```ts
 * import { toUtf8 } from "./encoding.ts";
 * import assert from "node:assert/strict";
 *
 * const latin1 = [new Uint8Array([0x43, 0x61, 0x66]), new Uint8Array([0xe9, 0x0a])];
 * const out: string[] = [];
 * for await (const chunk of toUtf8(latin1, "latin-1")) out.push(new TextDecoder().decode(chunk));
 * assert.equal(out.join(""), "Café\n");
 * ```
 */
export async function* toUtf8(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  encoding: Encoding,
): AsyncGenerator<Uint8Array, void> {
  const encoder = new TextEncoder();
  let decoder: TextDecoder | undefined;
  let held: Uint8Array = new Uint8Array(0);
  for await (const chunk of chunks) {
    if (decoder === undefined) {
      // utf-16's byte order needs the mark's two bytes.
      held = joinBytes([held, chunk]);
      if (encoding === "utf-16" && held.length < 2) continue;
      decoder = decoderFor(encoding, held);
      yield encoder.encode(decoder.decode(held, { stream: true }));
    } else yield encoder.encode(decoder.decode(chunk, { stream: true }));
  }
  // Fewer than two bytes in all, or the end of a character split between chunks.
  const rest = decoder === undefined ? decoderFor(encoding, held).decode(held) : decoder.decode();
  if (rest !== "") yield encoder.encode(rest);
}

/**
 * The whole of `bytes`, text in `encoding`, as UTF-8 (a byte-order mark dropped).
 *
 * @example
 * ```ts
 * import { wholeToUtf8 } from "./encoding.ts";
 * import assert from "node:assert/strict";
 *
 * const utf16be = new Uint8Array([0xfe, 0xff, 0x00, 0x61, 0x20, 0xac]);
 * assert.equal(new TextDecoder().decode(wholeToUtf8(utf16be, "utf-16")), "a€");
 * ```
 */
export function wholeToUtf8(bytes: Uint8Array, encoding: Encoding): Uint8Array {
  return new TextEncoder().encode(decoderFor(encoding, bytes).decode(bytes));
}

/**
 * The first bytes of a file in `encoding` as UTF-8, for format detection: as they are when the
 * encoding is UTF-8 or they start a gzip file (its decompressed head is decoded instead).
 *
 * @example
 * ```ts
 * import { utf8Head } from "./encoding.ts";
 * import assert from "node:assert/strict";
 *
 * const head = new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x3b, 0x00, 0x62, 0x00]);
 * assert.equal(new TextDecoder().decode(utf8Head(head, "utf-16")), "a;b");
 * assert.equal(utf8Head(head, undefined), head);
 * ```
 */
export function utf8Head(head: Uint8Array, encoding: Encoding | undefined): Uint8Array {
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  return decodes(encoding) && !gzip ? wholeToUtf8(head, encoding) : head;
}

/**
 * The offset of the first byte of `bytes` that does not begin or continue a valid UTF-8
 * character (an overlong form, a surrogate or a sequence cut short included), or `undefined`
 * when all of it is valid UTF-8.
 *
 * @example
 * ```ts
 * import { invalidUtf8At } from "./encoding.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(invalidUtf8At(new TextEncoder().encode("naïve,€\n")), undefined);
 * assert.equal(invalidUtf8At(new Uint8Array([0x61, 0x2c, 0xe9, 0x0a])), 2); // latin-1 é
 * ```
 */
export function invalidUtf8At(bytes: Uint8Array): number | undefined {
  for (let at = 0; at < bytes.length;) {
    const lead = bytes[at];
    if (lead < 0x80) {
      at++;
      continue;
    }
    // The continuation bytes a lead byte needs, and the range its first one must be in (RFC
    // 3629's table: no overlong forms, no surrogates, nothing above U+10FFFF).
    const [need, low, high] = lead >= 0xc2 && lead <= 0xdf
      ? [1, 0x80, 0xbf]
      : lead === 0xe0
      ? [2, 0xa0, 0xbf]
      : lead === 0xed
      ? [2, 0x80, 0x9f]
      : lead >= 0xe1 && lead <= 0xef
      ? [2, 0x80, 0xbf]
      : lead === 0xf0
      ? [3, 0x90, 0xbf]
      : lead === 0xf4
      ? [3, 0x80, 0x8f]
      : lead >= 0xf1 && lead <= 0xf3
      ? [3, 0x80, 0xbf]
      : [0, 0, 0];
    if (need === 0 || at + need >= bytes.length) return at;
    if (bytes[at + 1] < low || bytes[at + 1] > high) return at;
    for (let next = 2; next <= need; next++) {
      if ((bytes[at + next] & 0xc0) !== 0x80) return at;
    }
    at += need + 1;
  }
  return undefined;
}
