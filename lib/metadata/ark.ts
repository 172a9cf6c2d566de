/**
 * ARKs (Archival Resource Keys): canonical `ark:/NAAN/name` from any common spelling, and the
 * N2T resolver link.
 *
 * @module
 */

import { quoteInput } from "../client/errors.ts";

/** A Name Assigning Authority Number: betanumeric (digits and consonants but `l`). */
const NAAN = "[0-9bcdfghjkmnpqrstvwxz]{5,9}";

/** Characters of an ARK name: letters, digits, `= ~ * + @ _ $ . / -` and percent escapes. */
const NAME = "[A-Za-z0-9=~*+@_$.\\-%][A-Za-z0-9=~*+@_$./\\-%]*";

/** After the `ark:` label: an optional `/`, the NAAN, `/`, the name. */
const LABELLED = new RegExp(`^ark:/?(${NAAN})/(${NAME})$`, "i");

/** Without a label: an optional leading `/`, the NAAN, `/`, the name. */
const BARE = new RegExp(`^/?(${NAAN})/(${NAME})$`, "i");

/** Characters that never belong to an identifier but slip in when copying from documents. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;

/**
 * Options of {@linkcode normalizeArk}.
 *
 * @example
 * ```ts
 * import type { ArkOptions } from "./ark.ts";
 *
 * const typedAsArk: ArkOptions = { bare: true };
 * ```
 */
export interface ArkOptions {
  /**
   * Also accept a value without the `ark:` label (`87946/p3mw27`, `/b7946/p2qp4n`). Use it only
   * where the metadata says the value is an ARK (or nothing else can be meant): on its own, such
   * a value could as well be a Handle.
   *
   * @default false
   */
  bare?: boolean;
}

/**
 * The canonical form (`ark:/87946/p3mw27`) of an ARK written as `ark:/…`, `ark:…`, a resolver
 * link (`https://n2t.net/ark:/…`, any host), or — with `bare` — `87946/p3mw27` or
 * `/87946/p3mw27`; `undefined` when the value is not an ARK. The label and NAAN are lower-cased
 * (they are case-insensitive); the name keeps its case; a `?` inflection is dropped.
 *
 * @example
 * ```ts
 * import { normalizeArk } from "./ark.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizeArk("https://n2t.net/ark:/87946/p3x9k1"), "ark:/87946/p3x9k1");
 * assert.equal(normalizeArk("ARK:87946/p3x9k1"), "ark:/87946/p3x9k1");
 * assert.equal(normalizeArk("/b7946/p2qp4n", { bare: true }), "ark:/b7946/p2qp4n");
 * assert.equal(normalizeArk("87946/p3mw27"), undefined);
 * assert.equal(normalizeArk("SRP018832", { bare: true }), undefined);
 * ```
 */
export function normalizeArk(value: string, options: ArkOptions = {}): string | undefined {
  if (typeof value !== "string") return undefined;
  let text = value.replace(INVISIBLE, "").trim();
  const label = text.search(/ark:/i);
  let match: RegExpExecArray | null = null;
  if (label >= 0) {
    const isLink = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
    // Only a link may carry text before the label (its scheme and host).
    if (label > 0 && !isLink) return undefined;
    text = text.slice(label);
    if (isLink) {
      text = text.replace(/[?#].*$/s, "");
      try {
        text = decodeURIComponent(text);
      } catch {
        return undefined;
      }
    }
    match = LABELLED.exec(text.replace(/(?<!\?)\?+$/, ""));
  } else if (options.bare === true) {
    match = BARE.exec(text.replace(/(?<!\?)\?+$/, ""));
  }
  // Empty, `.` or `..` segments are not names (and URL parsing would rewrite them).
  if (match === null || match[2].split("/").some((s) => s === "" || /^\.{1,2}$/.test(s))) {
    return undefined;
  }
  return `ark:/${match[1].toLowerCase()}/${match[2]}`;
}

/**
 * The N2T resolver link of an ARK (N2T resolves every registered NAAN).
 *
 * @throws {TypeError} when `ark` is not a labelled ARK.
 *
 * @example
 * ```ts
 * import { arkUrl } from "./ark.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(arkUrl("ark:/87946/p3x9k1"), "https://n2t.net/ark:/87946/p3x9k1");
 * ```
 */
export function arkUrl(ark: string): string {
  const canonical = normalizeArk(ark);
  if (canonical === undefined) throw new TypeError(`Not an ARK: ${quoteInput(ark)}`);
  return `https://n2t.net/${canonical}`;
}
