import assert from "node:assert/strict";
import {
  escapeHtml,
  Html,
  joinHtml,
  link,
  markup,
  safeUrl,
  styleElement,
} from "../../lib/display/html.ts";
import { HOSTILE, HOSTILE_URLS, parseBody } from "./_safety.ts";

function textOf(html: string): string {
  return parseBody(html).textContent ?? "";
}

Deno.test("markup escapes every interpolated value, in text and in attributes", () => {
  for (const value of HOSTILE) {
    const html = markup`<span title="${value}">${value}</span>`.toString();
    const body = parseBody(html);
    const span = body.children[0];
    assert.equal(body.children.length, 1, value);
    assert.equal(span.tagName, "SPAN");
    assert.deepEqual([...span.attributes].map((attribute) => attribute.name), ["title"]);
    assert.equal(span.getAttribute("title"), value);
    assert.equal(span.textContent, value);
  }
});

Deno.test("markup keeps safe markup, joins arrays and leaves out nothing-values", () => {
  const inner = markup`<b>${"a&b"}</b>`;
  assert.equal(
    markup`${inner}${["x", markup`<i>y</i>`]}${null}${undefined}${false}${0}`.toString(),
    "<b>a&amp;b</b>x<i>y</i>0",
  );
  assert.equal(joinHtml([markup`<i>a</i>`, "", "b<c"], ", ").toString(), "<i>a</i>, b&lt;c");
});

Deno.test("escapeHtml escapes the five characters that matter", () => {
  assert.equal(escapeHtml(`<>&"'`), "&lt;&gt;&amp;&quot;&#39;");
  assert.equal(textOf(escapeHtml("&lt;kept&gt;")), "&lt;kept&gt;");
});

Deno.test("Html cannot be forged from a string", () => {
  assert.throws(() => new Html("<script>", Symbol("tern trusted markup")), TypeError);
});

Deno.test("safeUrl keeps http(s) and refuses every other scheme and credentials", () => {
  assert.equal(safeUrl("https://doi.org/10.25739/9k2v-7q4m"), "https://doi.org/10.25739/9k2v-7q4m");
  assert.equal(safeUrl("http://example.org/a b"), "http://example.org/a%20b");
  for (const url of HOSTILE_URLS) assert.equal(safeUrl(url), undefined, url);
  assert.equal(safeUrl(""), undefined);
  assert.equal(safeUrl(undefined), undefined);
});

Deno.test("link makes no link for a refused address and escapes the address it keeps", () => {
  assert.equal(link("javascript:alert(1)", "x").toString(), "x");
  assert.equal(
    link("vbscript:x", "x", { className: "t-id", title: '"t"' }).toString(),
    '<span class="t-id" title="&quot;t&quot;">x</span>',
  );
  const html = link(`https://example.org/?q="><script>`, "<b>").toString();
  const body = parseBody(html);
  const anchor = body.querySelector("a")!;
  assert.equal(anchor.getAttribute("href"), "https://example.org/?q=%22%3E%3Cscript%3E");
  assert.equal(anchor.textContent, "<b>");
  assert.equal(body.querySelectorAll("script").length, 0);
});

Deno.test("styleElement refuses a stylesheet that could close the element", () => {
  assert.throws(() => styleElement(".a{}</style><script>"), TypeError);
  assert.equal(styleElement(".tern{}").toString(), "<style>.tern{}</style>");
});
