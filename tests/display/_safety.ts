/**
 * Hostile values and the checks every rendered view must pass: parsed with linkedom, the HTML
 * may only use a fixed set of elements and attributes, never a script, frame or event handler,
 * only http(s) links, and the stylesheet stays scoped under `.tern`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import type { MediaBundle } from "../../lib/display/bundle.ts";

/** Values that try to become markup, scripts or links, or to spoof what is shown. */
export const HOSTILE = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)' x='",
  "</style><script>alert(2)</script>",
  "<iframe src=https://evil.example/></iframe>",
  "javascript:alert(3)",
  "<a href=javascript:alert(4)>click</a>",
  "&lt;already escaped&gt; &amp; &#x3C;",
  "\u202Egnp.exe",
  "\u001b[31mred\u001b[0m",
  "${alert(5)} {{7*7}} `backtick`",
] as const;

/** URLs that must never become links. */
export const HOSTILE_URLS = [
  "javascript:alert(1)",
  "JAVASCRIPT:alert(1)",
  " java\tscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "//evil.example/x",
  "https://user:secret@evil.example/",
  "file:///etc/passwd",
] as const;

/** A value long enough that showing it whole would make a notebook heavy. */
export const LONG = "long value ".repeat(20_000);

const ELEMENTS = new Set([
  "DIV",
  "SPAN",
  "STYLE",
  "TABLE",
  "THEAD",
  "TBODY",
  "TR",
  "TH",
  "TD",
  "A",
  "B",
  "BDI",
  "DETAILS",
  "SUMMARY",
  "PRE",
  "DL",
  "DT",
  "DD",
]);

const ATTRIBUTES = new Set([
  "class",
  "href",
  "target",
  "rel",
  "title",
  "style",
  "open",
  "colspan",
  "download",
]);

/** The part of linkedom's DOM the checks use (Deno has no DOM types). */
export interface DomElement {
  readonly tagName: string;
  readonly attributes:
    & Iterable<{ name: string; value: string }>
    & ArrayLike<
      { name: string; value: string }
    >;
  readonly children: ArrayLike<DomElement>;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement> & ArrayLike<DomElement>;
  cloneNode(deep: boolean): DomElement;
  remove(): void;
}

/** The body of an HTML fragment, parsed by linkedom. */
export function parseBody(html: string): DomElement {
  const window = parseHTML(`<!doctype html><html><body>${html}</body></html>`) as unknown as {
    document: { body: DomElement };
  };
  return window.document.body;
}

/** A parsed view. */
export interface ParsedView {
  /** The `.tern` wrapper. */
  root: DomElement;
  /** The visible text (the stylesheet left out). */
  text: string;
  /** Every link's href. */
  hrefs: string[];
}

/**
 * Parses a bundle's HTML and checks it: one `.tern` wrapper holding its `<style>` first; only
 * known elements and attributes; no `on*` attribute; `style` only as a bar width; links only to
 * `http(s)` with `target=_blank` and `rel=noopener noreferrer`; `text/plain` present.
 */
export function checkView(bundle: MediaBundle): ParsedView {
  assert.deepEqual(Object.keys(bundle).sort(), ["text/html", "text/plain"]);
  assert.equal(typeof bundle["text/plain"], "string");
  assert.ok(bundle["text/plain"].length > 0, "text/plain is empty");
  const html = bundle["text/html"];
  const body = parseBody(html);
  assert.equal(body.children.length, 1, "one top-level element");
  const root = body.children[0];
  assert.equal(root.tagName, "DIV");
  assert.equal(root.getAttribute("class"), "tern");
  const styles = root.querySelectorAll("style");
  assert.equal(styles.length, 1, "one stylesheet");
  assert.equal(root.children[0].tagName, "STYLE", "the stylesheet comes first");
  const hrefs: string[] = [];
  for (const element of root.querySelectorAll("*")) {
    assert.ok(ELEMENTS.has(element.tagName), `unexpected element <${element.tagName}>`);
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      assert.ok(!name.startsWith("on"), `event handler ${name}`);
      assert.ok(ATTRIBUTES.has(name), `unexpected attribute ${name} on <${element.tagName}>`);
      if (name === "style") assert.match(attribute.value, /^width:\d+(\.\d)?%$/);
    }
    if (element.tagName === "A" && element.getAttribute("download") !== null) {
      // A download of a document the view carries: JSON data, never a page to navigate to.
      const href = element.getAttribute("href") ?? "";
      assert.match(href, /^data:application\/ld\+json;charset=utf-8,[^<>"' ]*$/);
      assert.match(element.getAttribute("download") ?? "", /^[\w.-]+$/);
    } else if (element.tagName === "A") {
      const href = element.getAttribute("href") ?? "";
      const url = new URL(href);
      assert.ok(url.protocol === "https:" || url.protocol === "http:", `link to ${href}`);
      assert.equal(url.username + url.password, "", "credentials in a link");
      assert.equal(element.getAttribute("target"), "_blank");
      assert.equal(element.getAttribute("rel"), "noopener noreferrer");
      hrefs.push(href);
    }
  }
  checkStylesheet(styles[0].textContent ?? "");
  const clone = root.cloneNode(true);
  clone.querySelector("style")?.remove();
  return { root, text: clone.textContent ?? "", hrefs };
}

/** Every rule of the stylesheet is scoped under `.tern`; nothing global, nothing fetched. */
export function checkStylesheet(css: string): void {
  assert.ok(!css.includes("<"), "stylesheet contains <");
  assert.ok(!/:root|@import|url\(|expression\(/i.test(css), "stylesheet reaches outside");
  const selectors = css.replace(/@media[^{]*\{/g, "").split("}")
    .map((rule) => rule.split("{")[0].trim())
    .filter((selector) => selector !== "");
  for (const group of selectors) {
    for (const selector of group.split(",")) {
      assert.match(selector.trim(), /(^|\s)\.tern(\s|$|\.)/, `unscoped selector ${selector}`);
    }
  }
}
