/**
 * Which characters are invisible or act on the display instead of being shown, and how they are
 * made visible: one rule for every plain-text view, the CLI and the client's error messages.
 *
 * A leaf module: it imports nothing.
 *
 * @module
 */

// Control (Cc) and format (Cf) characters — C0/C1 controls, DEL, the bidirectional marks,
// embeddings, overrides and isolates ("Trojan Source"), zero-width spaces, the BOM, soft hyphens,
// the whole block of invisible tag characters (its unassigned code points too: a font may draw
// them as nothing) — and the line and paragraph separators. ZWJ and ZWNJ stay: emoji sequences
// and Persian or Indic words need them, and they cannot reorder text.
const INVISIBLE = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\u2028\u2029\u{e0000}-\u{e007f}]/gu;
const NAMED_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * The one escaping of text for plain output, shared by every `text/plain` view and the CLI:
 * characters that are invisible or act on the display instead of being shown (terminal
 * escapes, bidirectional overrides that make `exe.csv` read as `vsc.exe`, zero-width spaces)
 * become visible escapes — `\n`, `\x1b`, `\u{202e}` — and everything else is unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { visibleText } from "./visible_text.ts";
 *
 * assert.equal(visibleText("report\u202Efdp.exe"), "report\\u{202e}fdp.exe");
 * assert.equal(visibleText("a\u200Bb\x1b[2J\n"), "a\\u{200b}b\\x1b[2J\\n");
 * assert.equal(visibleText("données 👩‍🔬.csv"), "données 👩‍🔬.csv");
 * ```
 */
export function visibleText(text: string): string {
  INVISIBLE.lastIndex = 0;
  if (!INVISIBLE.test(text)) return text;
  return text.replace(INVISIBLE, (char) => {
    const named = NAMED_ESCAPES[char];
    if (named !== undefined) return named;
    const code = char.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * JSON text as `JSON.stringify` writes it, with every invisible character that it leaves as it
 * is (C1 controls such as the one-character CSI `\u009b`, bidirectional overrides, zero-width
 * spaces, line separators) written as a `\u` escape: the same JSON value, but nothing in it acts
 * on the terminal it is printed to. Line breaks and tabs are only ever layout in such text
 * (inside strings `JSON.stringify` escapes them), so they stay.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { visibleJson } from "./visible_text.ts";
 *
 * const json = JSON.stringify({ name: "a\u009b2Jb\u202e" }, null, 1);
 * assert.equal(visibleJson(json), '{\n "name": "a\\u009b2Jb\\u202e"\n}');
 * assert.deepEqual(JSON.parse(visibleJson(json)), JSON.parse(json));
 * ```
 */
export function visibleJson(json: string): string {
  INVISIBLE.lastIndex = 0;
  if (!INVISIBLE.test(json)) return json;
  return json.replace(INVISIBLE, (char) => {
    if (NAMED_ESCAPES[char] !== undefined) return char;
    // Code units, so that a tag character beyond U+FFFF becomes its two surrogate escapes.
    return Array.from(
      { length: char.length },
      (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`,
    ).join("");
  });
}
