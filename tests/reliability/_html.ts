/**
 * Checks that rendered notebook HTML cannot run anything: parsed with linkedom, it holds no
 * element that executes or loads (script, iframe, object, svg, img, …), no `on*` attribute, and
 * no URL or style that runs script or loads from elsewhere; plus the hostile values used to
 * try.
 *
 * @module
 */

import { parseHTML } from "linkedom";
import { JUPYTER_DISPLAY, type MediaBundle } from "../../lib/display/bundle.ts";

/**
 * Markup, handlers and URLs that would run script if rendered unescaped; each carries a
 * `tern-xss-…` marker, so a view can be checked to show it as text.
 *
 * @example
 * ```ts
 * import { PAYLOADS } from "./_html.ts";
 *
 * const avus = [{ attr: "title", value: PAYLOADS.script }];
 * ```
 */
export const PAYLOADS = {
  script: `<script>alert("tern-xss-script")</script>`,
  img: `"><img src=x onerror=alert('tern-xss-img')>`,
  attribute: `' onmouseover='alert("tern-xss-attr")' x='`,
  svg: `<svg onload=alert("tern-xss-svg")>`,
  url: `javascript:alert("tern-xss-url")`,
  style: `</style><script>alert("tern-xss-style")</script>`,
  link: `<a href="javascript:alert('tern-xss-link')">tern-xss-link</a>`,
  iframe: `<iframe srcdoc="<script>alert('tern-xss-iframe')</script>"></iframe>`,
} as const;

/**
 * Payloads that are valid file names (no `/`), for names on disk.
 *
 * @example
 * ```ts
 * import { NAME_PAYLOADS } from "./_html.ts";
 *
 * console.log(NAME_PAYLOADS.every((name) => !name.includes("/"))); // true
 * ```
 */
export const NAME_PAYLOADS = [
  `"><img src=x onerror=alert('tern-xss-name1')>.csv`,
  `<svg onload=alert("tern-xss-name2")>.txt`,
  `javascript:alert("tern-xss-name3")`,
  `' onmouseover='alert("tern-xss-name4")' x='.tsv`,
] as const;

/** Elements that run script, load content, or submit anything. */
const DANGEROUS = new Set([
  "SCRIPT",
  "IFRAME",
  "FRAME",
  "FRAMESET",
  "OBJECT",
  "EMBED",
  "APPLET",
  "BASE",
  "META",
  "LINK",
  "FORM",
  "INPUT",
  "BUTTON",
  "TEXTAREA",
  "SELECT",
  "SVG",
  "MATH",
  "IMG",
  "IMAGE",
  "VIDEO",
  "AUDIO",
  "SOURCE",
  "TEMPLATE",
  "NOSCRIPT",
]);

/** Attributes whose value is fetched or navigated to. */
const URL_ATTRIBUTES = new Set([
  "href",
  "src",
  "action",
  "formaction",
  "xlink:href",
  "background",
  "poster",
  "srcset",
  "data",
]);

interface Element {
  readonly tagName: string;
  readonly attributes: Iterable<{ name: string; value: string }>;
}

interface Document {
  readonly body: {
    readonly textContent: string | null;
    querySelectorAll(selector: string): Iterable<Element>;
  };
}

/** `value` lower-cased without whitespace and control characters, which browsers ignore in URL schemes. */
function squeeze(value: string): string {
  let kept = "";
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code > 0x20 && code !== 0x7f) kept += char;
  }
  return kept.toLowerCase();
}

/**
 * What a safe view showed.
 *
 * @example
 * ```ts
 * import type { CheckedHtml } from "./_html.ts";
 *
 * const shows = (checked: CheckedHtml, marker: string) => checked.text.includes(marker);
 * ```
 */
export interface CheckedHtml {
  /** The visible text of the HTML (stylesheets included). */
  text: string;
  /** How many elements it has. */
  elements: number;
  /** How many links it has (each checked). */
  links: number;
}

/**
 * Fails, naming `where`, when `html` could run script or load anything; returns its text.
 * Also rejects raw `<script`/`<iframe` in the string itself, so a parser difference between
 * linkedom and a browser cannot hide one.
 *
 * @example
 * ```ts
 * import { assertSafeHtml } from "./_html.ts";
 *
 * const { text } = assertSafeHtml('<div class="tern">&lt;script&gt;</div>', "a view");
 * console.log(text); // <script>
 * ```
 */
export function assertSafeHtml(html: string, where: string): CheckedHtml {
  if (typeof html !== "string" || html === "") throw new Error(`${where}: no HTML`);
  const raw = /<\s*(script|iframe|object|embed|svg|img)\b/i.exec(html);
  if (raw) throw new Error(`${where}: raw <${raw[1]}> in the HTML`);
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`) as unknown as {
    document: Document;
  };
  let elements = 0;
  let links = 0;
  for (const element of document.body.querySelectorAll("*")) {
    elements++;
    const tag = element.tagName.toUpperCase();
    if (DANGEROUS.has(tag)) throw new Error(`${where}: <${tag.toLowerCase()}> element`);
    if (tag === "A") links++;
    for (const { name, value } of element.attributes) {
      const attribute = name.toLowerCase();
      if (attribute.startsWith("on")) throw new Error(`${where}: ${attribute} handler`);
      if (attribute === "srcdoc") throw new Error(`${where}: srcdoc attribute`);
      const squeezed = squeeze(value);
      if (URL_ATTRIBUTES.has(attribute) && /^(javascript|vbscript|data|file):/.test(squeezed)) {
        throw new Error(`${where}: ${attribute}="${value}"`);
      }
      if (attribute === "style" && /url\(|expression\(|javascript:/.test(squeezed)) {
        throw new Error(`${where}: style="${value}"`);
      }
    }
  }
  return { text: document.body.textContent ?? "", elements, links };
}

/**
 * A value's notebook view, through the display symbol; `undefined` when it has none.
 *
 * @example
 * ```ts
 * import { viewOf } from "./_html.ts";
 *
 * const view = await viewOf({
 *   [Symbol.for("Jupyter.display")]: () => ({ "text/plain": "x", "text/html": "<b>x</b>" }),
 * });
 * console.log(view?.["text/plain"]); // x
 * ```
 */
export async function viewOf(value: unknown): Promise<MediaBundle | undefined> {
  const display = (value as { [JUPYTER_DISPLAY]?: () => MediaBundle | Promise<MediaBundle> })?.[
    JUPYTER_DISPLAY
  ];
  return typeof display === "function" ? await display.call(value) : undefined;
}
