/**
 * Rich display for plain results (an array of comments, a manifest object, the roots) without
 * changing their type: the display method is attached as a hidden property, so the value still
 * compares, serialises and iterates exactly as before.
 *
 * @module
 */

import { JUPYTER_DISPLAY, type MediaBundle } from "./bundle.ts";

/**
 * Gives `value` a hidden `[Symbol.for("Jupyter.display")]` method that returns `render()`, and
 * returns the same value. The property is not enumerable, so `JSON.stringify`, spreading,
 * `Object.keys` and deep equality ignore it. Frozen values are returned unchanged.
 *
 * @example
 * ```ts
 * import { withDisplay } from "./attach.ts";
 * import { JUPYTER_DISPLAY } from "./bundle.ts";
 * import assert from "node:assert/strict";
 *
 * const manifest = withDisplay({ contentType: "text/csv" }, () => ({
 *   "text/plain": "text/csv",
 *   "text/html": '<div class="tern">text/csv</div>',
 * }));
 * assert.equal(JSON.stringify(manifest), '{"contentType":"text/csv"}');
 * assert.equal(typeof manifest[JUPYTER_DISPLAY], "function");
 * ```
 */
export function withDisplay<T extends object>(
  value: T,
  render: () => MediaBundle | Promise<MediaBundle>,
): T & { [JUPYTER_DISPLAY]: () => MediaBundle | Promise<MediaBundle> } {
  if (Object.isExtensible(value)) {
    Object.defineProperty(value, JUPYTER_DISPLAY, {
      value: render,
      enumerable: false,
      writable: false,
      configurable: true,
    });
  }
  return value as T & { [JUPYTER_DISPLAY]: () => MediaBundle | Promise<MediaBundle> };
}
