/**
 * Reading the file name out of a `Content-Disposition` header.
 *
 * @module
 */

/**
 * The file name a `Content-Disposition` header carries: the RFC 5987 `filename*` when present and
 * decodable (Terrain's newest form), else the plain `filename` (quoted or not; the older form
 * has no disposition type word at all). Only its last path segment, without control characters
 * (RFC 6266 §4.3), so that a caller may save under it: a server cannot name `../` or a terminal
 * escape.
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
 * assert.equal(filenameFromDisposition(`filename="../../.bashrc"`), ".bashrc");
 * ```
 */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (header === null) return undefined;
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(header);
  if (extended) {
    const match = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(extended[1].trim());
    if (match) {
      const decoded = bareName(decodeExtended(match[1], match[2]) ?? "");
      if (decoded !== undefined) return decoded;
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(header);
  if (!plain) return undefined;
  return bareName(plain[1] !== undefined ? plain[1].replace(/\\(.)/g, "$1") : plain[2]);
}

/** The last segment of `name` (`/` and `\` both separate), without control characters. */
function bareName(name: string): string | undefined {
  const base = name.replace(/\p{Cc}/gu, "").split(/[\\/]/).at(-1)!.trim();
  return base === "" || base === "." || base === ".." ? undefined : base;
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
