/**
 * The one way tern writes HTML: a tagged template that escapes every interpolated value, and
 * link helpers that only ever emit `http:`/`https:` addresses (DOIs and ARKs through their
 * resolvers). A value from the service can therefore never become markup, a script, an event
 * handler or a `javascript:` link, whichever renderer it goes through.
 *
 * @module
 */

/**
 * Markup that is already safe: made only by {@linkcode markup}, {@linkcode link} and the other
 * helpers here, never from a string by hand.
 *
 * @example
 * ```ts
 * import { Html, markup } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * const cell = markup`<td>${"<b>not bold</b>"}</td>`;
 * assert.ok(cell instanceof Html);
 * assert.equal(cell.toString(), "<td>&lt;b&gt;not bold&lt;/b&gt;</td>");
 * ```
 */
export class Html {
  readonly #markup: string;

  /**
   * Only this module's helpers make markup (the key is private to it); renderers write
   * markup`…`.
   *
   * @example
   * ```ts
   * import { Html } from "./html.ts";
   * import assert from "node:assert/strict";
   *
   * try {
   *   new Html("<script>", Symbol("forged"));
   * } catch (error) {
   *   assert.equal((error as Error).name, "TypeError");
   * }
   * ```
   */
  constructor(markup: string, key: symbol) {
    if (key !== TRUSTED) throw new TypeError("Html is made by markup`…`, not by hand.");
    this.#markup = markup;
  }

  /** The markup. */
  toString(): string {
    return this.#markup;
  }
}

const TRUSTED = Symbol("tern trusted markup");

/**
 * What may be interpolated into {@linkcode markup}: text and numbers (escaped), safe markup
 * (kept), nothing (`null`, `undefined`, `false`: left out), and arrays of these (joined).
 *
 * @example
 * ```ts
 * import { type HtmlValue, markup } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * const items: HtmlValue = ["a", "b"].map((name) => markup`<li>${name}</li>`);
 * assert.equal(markup`<ul>${items}</ul>`.toString(), "<ul><li>a</li><li>b</li></ul>");
 * ```
 */
export type HtmlValue =
  | Html
  | string
  | number
  | null
  | undefined
  | false
  | readonly HtmlValue[];

/**
 * Escapes text for HTML element content and quoted attribute values alike.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   escapeHtml(`"><img src=x onerror=alert(1)>`),
 *   "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;",
 * );
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * The HTML template tag: the literal parts are the renderer's own markup, every interpolated
 * value is escaped unless it is {@linkcode Html}.
 *
 * @example
 * ```ts
 * import { markup } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * const name = "<script>alert(1)</script>";
 * assert.equal(
 *   markup`<b title="${name}">${name}</b>`.toString(),
 *   '<b title="&lt;script&gt;alert(1)&lt;/script&gt;">&lt;script&gt;alert(1)&lt;/script&gt;</b>',
 * );
 * ```
 */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let markup = strings[0];
  for (let index = 0; index < values.length; index++) {
    markup += render(values[index]) + strings[index + 1];
  }
  return new Html(markup, TRUSTED);
}

/**
 * Joins pieces of markup with a separator (itself escaped when it is text).
 *
 * @example
 * ```ts
 * import { joinHtml, markup } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(joinHtml([markup`<i>a</i>`, "b&c"], ", ").toString(), "<i>a</i>, b&amp;c");
 * ```
 */
export function joinHtml(parts: readonly HtmlValue[], separator: HtmlValue = ""): Html {
  const glue = render(separator);
  return new Html(parts.map(render).filter((part) => part !== "").join(glue), TRUSTED);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/**
 * The address itself when it is an absolute `http:` or `https:` URL, else `undefined`: the
 * only links renderers emit. Whitespace and control characters around or inside the scheme
 * (which browsers ignore, and which hide `java\tscript:`) do not sneak past, because the URL
 * parser normalises them before the scheme is checked.
 *
 * @example
 * ```ts
 * import { safeUrl } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   safeUrl("https://doi.org/10.25739/9k2v-7q4m"),
 *   "https://doi.org/10.25739/9k2v-7q4m",
 * );
 * assert.equal(safeUrl("javascript:alert(1)"), undefined);
 * assert.equal(safeUrl(" java\tscript:alert(1)"), undefined);
 * ```
 */
export function safeUrl(url: string | undefined): string | undefined {
  if (typeof url !== "string" || url.trim() === "") return undefined;
  const parsed = URL.parse(url.trim());
  if (parsed === null || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    return undefined;
  }
  if (parsed.username !== "" || parsed.password !== "") return undefined;
  return parsed.href;
}

/**
 * Attributes of a {@linkcode link}.
 *
 * @example
 * ```ts
 * import type { LinkOptions } from "./html.ts";
 *
 * const options: LinkOptions = { className: "t-id", title: "Resolve the DOI" };
 * ```
 */
export interface LinkOptions {
  /** CSS class(es). */
  className?: string;
  /** Tooltip. */
  title?: string;
}

/**
 * A link that opens in a new tab. When the address is not `http(s)`, no link is made: the
 * content alone (in a `<span>` carrying the class and title, when given).
 *
 * @example
 * ```ts
 * import { link } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   link("https://example.org/?a=1&b=2", "example").toString(),
 *   '<a href="https://example.org/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">' +
 *     "example</a>",
 * );
 * assert.equal(link("javascript:alert(1)", "click").toString(), "click");
 * ```
 */
export function link(url: string | undefined, content: HtmlValue, options: LinkOptions = {}): Html {
  const href = safeUrl(url);
  const classAttr = options.className === undefined ? "" : markup` class="${options.className}"`;
  const titleAttr = options.title === undefined ? "" : markup` title="${options.title}"`;
  if (href === undefined) {
    return classAttr === "" && titleAttr === ""
      ? markup`${content}`
      : markup`<span${classAttr}${titleAttr}>${content}</span>`;
  }
  return markup`<a href="${href}"${classAttr}${titleAttr} target="_blank" rel="noopener noreferrer">${content}</a>`;
}

/**
 * A `<style>` element for a stylesheet of this package (a constant, not data). Refuses text
 * that could close the element.
 *
 * @throws {TypeError} when the stylesheet contains `<`.
 *
 * @example
 * ```ts
 * import { styleElement } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(styleElement(".tern{color:red}").toString(), "<style>.tern{color:red}</style>");
 * ```
 */
export function styleElement(css: string): Html {
  if (css.includes("<")) throw new TypeError("A stylesheet must not contain '<'.");
  return new Html(`<style>${css}</style>`, TRUSTED);
}
