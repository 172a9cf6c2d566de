/**
 * Reading the file name out of a `Content-Disposition` header.
 *
 * @module
 */

/**
 * The file name a `Content-Disposition` header carries: the RFC 5987 `filename*` when present and
 * decodable (Terrain's newest form), else the plain `filename` (quoted or not; the older form
 * has no disposition type word at all).
 *
 * @returns The name, or `undefined` when the header is absent or names no file.
 *
 * @example
 * ```ts
 * import { filenameFromDisposition } from "./disposition.ts";
 * import assert from "node:assert/strict";
 *
 * const header = `attachment; filename="r_sum_.csv"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv`;
 * assert.equal(filenameFromDisposition(header), "résumé.csv");
 * assert.equal(filenameFromDisposition(`filename="a b.txt"`), "a b.txt");
 * ```
 */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (header === null) return undefined;
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(header);
  if (extended) {
    const match = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(extended[1].trim());
    if (match) {
      const decoded = decodeExtended(match[1], match[2]);
      if (decoded !== undefined && decoded !== "") return decoded;
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(header);
  if (!plain) return undefined;
  const name = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, "$1") : plain[2].trim();
  return name === "" ? undefined : name;
}

function decodeExtended(charset: string, value: string): string | undefined {
  // Printable ASCII without escapes is itself in UTF-8 and Latin-1, the charsets servers use.
  if (/^(utf-8|iso-8859-1)$/i.test(charset) && /^[ -$&-~]*$/.test(value)) return value;
  // A %XX escape is that byte; any other character (a lone "%" too) is its low byte.
  const bytes = [...value.matchAll(/%([0-9a-f]{2})|[^]/gi)].map(([char, hex]) =>
    hex === undefined ? char.charCodeAt(0) & 0xff : parseInt(hex, 16)
  );
  try {
    const label = charset.toLowerCase() === "iso-8859-1" ? "latin1" : charset;
    return new TextDecoder(label, { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}
