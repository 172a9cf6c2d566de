/**
 * DOIs: canonical `10.prefix/suffix` from any common spelling, the resolver link, comparison.
 *
 * @module
 */

import { quoteInput } from "../client/errors.ts";

/** `10.` + a registrant code of 4–9 digits (optionally sub-divided) + `/` + a suffix. */
const DOI_SHAPE = /^10\.\d{4,9}(?:\.\d+)*\/[^\s\p{Cc}]+$/u;

/** Resolver hosts whose paths are DOIs (handle.net resolves DOIs too). */
const RESOLVER = /^(?:https?:\/\/)?(?:dx\.|www\.)?(?:doi\.org|hdl\.handle\.net)\/+/i;

/** Labels written in front of a DOI. */
const LABEL = /^(?:urn:doi:|info:doi\/|doi\s*:\s*|doi\s+)/i;

/** Characters that never belong to an identifier but slip in when copying from documents. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;

/**
 * The canonical form (`10.25739/9k2v-7q4m`) of a DOI written in any common way — bare, with a
 * `doi:` label, as a `https://doi.org/` or `http://dx.doi.org/` link (percent-escapes decoded),
 * with surrounding whitespace or the punctuation of a sentence after it — or `undefined` when
 * the value is not a DOI. The suffix keeps
 * its case (DOIs compare case-insensitively: compare the lower-cased forms).
 *
 * @example
 * ```ts
 * import { normalizeDoi } from "./doi.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizeDoi("https://doi.org/10.25739/6gq1-wz4f"), "10.25739/6gq1-wz4f");
 * assert.equal(normalizeDoi("doi:10.25739/tx0s-5m8a"), "10.25739/tx0s-5m8a");
 * assert.equal(normalizeDoi("\t10.7946/P2C35G "), "10.7946/P2C35G");
 * assert.equal(normalizeDoi("(see https://doi.org/10.7946/P2C35G)."), undefined);
 * assert.equal(normalizeDoi("https://doi.org/10.7946/P2C35G)."), "10.7946/P2C35G");
 * assert.equal(normalizeDoi("10.25739/"), undefined);
 * assert.equal(normalizeDoi("SRP018832"), undefined);
 * ```
 */
export function normalizeDoi(value: string): string | undefined {
  if (typeof value !== "string") return undefined;
  let text = value.replace(INVISIBLE, "").trim().replace(LABEL, "").trim();
  const resolver = RESOLVER.exec(text);
  if (resolver !== null) {
    // In a link the DOI is URL-encoded, and `?`/`#` start a query or fragment.
    text = text.slice(resolver[0].length).replace(/[?#].*$/s, "");
    try {
      text = decodeURIComponent(text);
    } catch {
      return undefined;
    }
  }
  text = withoutSentenceEnd(text);
  return DOI_SHAPE.test(text) ? text : undefined;
}

/**
 * The DOI without the punctuation of the sentence it was copied from: a trailing `.`, `,`, `;`
 * or `:`, and a closing bracket the DOI does not open (as DataCite's and Crossref's link finders
 * read text). A DOI may hold any of these inside.
 */
function withoutSentenceEnd(text: string): string {
  // How many more times each bracket closes than opens (one pass: a value may be long).
  const unopened: Record<string, number> = { ")": 0, "]": 0 };
  for (const char of text) {
    if (char === ")" || char === "]") unopened[char]++;
    else if (char === "(") unopened[")"]--;
    else if (char === "[") unopened["]"]--;
  }
  let end = text.length;
  while (end > 0) {
    const char = text[end - 1];
    if (".,;:".includes(char)) end--;
    else if (unopened[char] > 0) {
      unopened[char]--;
      end--;
    } else break;
  }
  return text.slice(0, end);
}

/**
 * The `https://doi.org/` link of a DOI, escaping the characters a URL cannot carry as they are.
 *
 * @throws {TypeError} when `doi` is not a DOI.
 *
 * @example
 * ```ts
 * import { doiUrl } from "./doi.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(doiUrl("10.25739/9k2v-7q4m"), "https://doi.org/10.25739/9k2v-7q4m");
 * assert.equal(doiUrl("doi:10.1000/a#b"), "https://doi.org/10.1000/a%23b");
 * ```
 */
export function doiUrl(doi: string): string {
  const canonical = normalizeDoi(doi);
  if (canonical === undefined) throw new TypeError(`Not a DOI: ${quoteInput(doi)}`);
  return `https://doi.org/${encodeDoi(canonical)}`;
}

function encodeDoi(doi: string): string {
  // Keep what is readable and legal in a URL path; escape the rest (`#`, `?`, `%`, spaces,
  // quotes, brackets, non-ASCII). A DOI with `.` or `..` segments keeps all its slashes escaped
  // (one path segment), or URL parsing would drop the segments and link another DOI.
  const dotSegments = doi.split("/").some((segment) => /^\.{1,2}$/.test(segment));
  const kept = dotSegments
    ? /%(3A|3B|40|24|2B|2C|3D|28|29|21|2A|27)/g
    : /%(2F|3A|3B|40|24|2B|2C|3D|28|29|21|2A|27)/g;
  return encodeURIComponent(doi).replace(
    kept,
    (_, hex: string) => String.fromCharCode(parseInt(hex, 16)),
  );
}
