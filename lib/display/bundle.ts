/**
 * What a tern object gives a notebook: a MIME bundle with `text/html` (a self-contained view:
 * markup plus its scoped stylesheet) and `text/plain` (the same information for front ends and
 * logs that do not render HTML).
 *
 * @module
 */

import { layoutText } from "./format.ts";
import { type Html, markup, styleElement } from "./html.ts";
import { STYLESHEET } from "./style.ts";

const STYLE = styleElement(STYLESHEET);

/**
 * The key notebooks look up to render an object: Deno's kernel (and nodejs-polars, and others)
 * call `object[JUPYTER_DISPLAY]()` and show the MIME bundle it returns.
 *
 * @example
 * ```ts
 * import { JUPYTER_DISPLAY } from "./bundle.ts";
 * import assert from "node:assert/strict";
 *
 * const badge = { [JUPYTER_DISPLAY]: () => ({ "text/plain": "ok" }) };
 * assert.ok(JUPYTER_DISPLAY === Symbol.for("Jupyter.display"));
 * ```
 */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for("Jupyter.display") as never;

/**
 * A MIME bundle as Jupyter front ends take it; tern's views always carry both keys.
 *
 * @example
 * ```ts
 * import type { MediaBundle } from "./bundle.ts";
 *
 * const bundle: MediaBundle = { "text/plain": "Folder(/iplant/home/shared)", "text/html": "<div></div>" };
 * ```
 */
export interface MediaBundle {
  /** The plain-text view, for front ends that do not render HTML. */
  "text/plain": string;
  /** The HTML view: self-contained, scoped under `.tern`, without scripts. */
  "text/html": string;
}

/**
 * Wraps a view's markup in the `.tern` container with its stylesheet, beside its text (with any
 * invisible or control character escaped; line breaks and tabs are kept).
 *
 * @example
 * ```ts
 * import { bundle } from "./bundle.ts";
 * import { markup } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * const out = bundle(markup`<div class="t-card">${"a < b"}</div>`, "a < b");
 * assert.equal(out["text/plain"], "a < b");
 * assert.ok(out["text/html"].startsWith('<div class="tern">'));
 * ```
 */
export function bundle(body: Html, text: string): MediaBundle {
  return {
    // The last guard for every view: whatever a renderer forgot to escape, no control or
    // bidirectional character reaches a notebook's plain output (escaping twice is harmless).
    "text/plain": layoutText(text),
    "text/html": markup`<div class="tern">${STYLE}${body}</div>`.toString(),
  };
}
