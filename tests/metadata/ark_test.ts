import assert from "node:assert/strict";
import fc from "fast-check";
import { arkUrl, normalizeArk } from "../../lib/metadata/ark.ts";

/**
 * Canonical ARKs: lower-case label, five-character betanumeric NAAN, and a name of one to three
 * `/`-separated segments of ARK characters (none empty, `.` or `..`).
 */
const canonicalArk = fc.tuple(
  fc.stringMatching(/^[0-9bcdfghjkmnpqrstvwxz]{5}$/),
  fc.array(
    fc.stringMatching(/^[A-Za-z0-9=~*+@_$.\-]{1,10}$/).filter((s) => !/^\.{1,2}$/.test(s)),
    { minLength: 1, maxLength: 3 },
  ),
).map(([naan, segments]) => `ark:/${naan}/${segments.join("/")}`);

const space = fc.constantFrom("", " ", "\t", "\n ", "\u200B");

Deno.test("every way of writing an ARK normalises to ark:/NAAN/name", () => {
  const cases: [string, { bare?: boolean }, string | undefined][] = [
    ["ark:/87946/p3x9k1", {}, "ark:/87946/p3x9k1"],
    ["ark:87946/p3x9k1", {}, "ark:/87946/p3x9k1"],
    ["ARK:/87946/p3x9k1", {}, "ark:/87946/p3x9k1"],
    ["https://n2t.net/ark:/87946/p3x9k1", {}, "ark:/87946/p3x9k1"],
    ["http://n2t.net/ark:87946/p3x9k1", {}, "ark:/87946/p3x9k1"],
    ["https://ezid.cdlib.org/id/ark:/87946/p3x9k1", {}, "ark:/87946/p3x9k1"],
    ["https://n2t.net/ark:/87946/p3x9k1?info", {}, "ark:/87946/p3x9k1"],
    ["ark:/87946/p3x9k1?", {}, "ark:/87946/p3x9k1"],
    ["ark:/B7946/P2QP4N", {}, "ark:/b7946/P2QP4N"],
    ["\tark:/87946/p3x9k1 ", {}, "ark:/87946/p3x9k1"],
    ["87946/p3mw27", { bare: true }, "ark:/87946/p3mw27"],
    ["/b7946/p2qp4n", { bare: true }, "ark:/b7946/p2qp4n"],
    ["87946/p3mw27", {}, undefined],
    ["/b7946/p2qp4n", {}, undefined],
    ["SRP018832", { bare: true }, undefined],
    ["10.25739/abc", { bare: true }, undefined],
    ["https://example.org/data/87946/p3", { bare: true }, undefined],
    ["see ark:/87946/p3x9k1", {}, undefined],
    ["ark:/87946/", {}, undefined],
    ["ark:/879/abc", {}, undefined],
    ["ark:/8794l/abc", {}, undefined],
    ["ark:/87946//abc", {}, undefined],
    ["ark:/87946/a b", {}, undefined],
    ["ark:/87946/a/../b", {}, undefined],
    ["ark:/87946/a/", {}, undefined],
    ["ark:/87946/./b", {}, undefined],
    ["ark:/87946/a.b/c.d", {}, "ark:/87946/a.b/c.d"],
    ["", { bare: true }, undefined],
  ];
  for (const [input, options, expected] of cases) {
    assert.equal(normalizeArk(input, options), expected, JSON.stringify(input));
  }
});

Deno.test("property: decorating a canonical ARK and normalising gives it back", () => {
  fc.assert(fc.property(
    canonicalArk,
    fc.constantFrom(
      (ark: string) => ark,
      (ark: string) => ark.replace("ark:/", "ark:"),
      (ark: string) => ark.replace("ark:", "ARK:"),
      (ark: string) => `https://n2t.net/${ark}`,
      (ark: string) => `http://n2t.net/${ark.replace("ark:/", "ark:")}`,
    ),
    space,
    space,
    (ark, decorate, before, after) => {
      assert.equal(normalizeArk(`${before}${decorate(ark)}${after}`), ark);
    },
  ));
  fc.assert(fc.property(canonicalArk, fc.boolean(), space, (ark, slash, around) => {
    const bare = ark.slice("ark:/".length);
    const written = `${around}${slash ? "/" : ""}${bare}${around}`;
    assert.equal(normalizeArk(written, { bare: true }), ark);
    assert.equal(normalizeArk(written), undefined, "a bare value needs the bare option");
  }));
});

Deno.test("property: normalising is idempotent and never reads junk as an ARK", () => {
  fc.assert(fc.property(fc.string(), fc.boolean(), (text, bare) => {
    const once = normalizeArk(text, { bare });
    if (once === undefined) return;
    assert.equal(normalizeArk(once), once);
    assert.match(once, /^ark:\/[0-9bcdfghjkmnpqrstvwxz]{5,9}\/\S+$/);
  }));
  fc.assert(fc.property(fc.string().filter((t) => !/ark:/i.test(t)), (junk) => {
    assert.equal(normalizeArk(junk), undefined);
  }));
});

Deno.test("arkUrl links the N2T resolver", () => {
  assert.equal(arkUrl("ark:/87946/p3x9k1"), "https://n2t.net/ark:/87946/p3x9k1");
  assert.equal(arkUrl("ark:87946/p3x9k1"), "https://n2t.net/ark:/87946/p3x9k1");
  assert.throws(() => arkUrl("87946/p3x9k1"), TypeError);
  fc.assert(fc.property(canonicalArk, (ark) => {
    const url = arkUrl(ark);
    assert.equal(new URL(url).href, url);
    assert.equal(normalizeArk(url), ark);
  }));
});
