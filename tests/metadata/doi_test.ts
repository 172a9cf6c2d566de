import assert from "node:assert/strict";
import fc from "fast-check";
import { doiUrl, normalizeDoi } from "../../lib/metadata/doi.ts";

/**
 * Canonical DOIs: `10.` + 4–9 digit registrant (maybe sub-divided) + `/` + visible suffix, which
 * ends as no sentence does (in `.`, `,`, `;` or `:`, the end of the text a DOI was copied from).
 */
const canonicalDoi = fc.tuple(
  fc.stringMatching(/^[1-9]\d{3,8}(\.\d{1,3})?$/),
  fc.stringMatching(/^[A-Za-z0-9\-._;()/:<>#?%'"[\]{}|^`~!*@$&+=,\u00e9\u4e2d]{0,40}$/),
  fc.stringMatching(/^[A-Za-z0-9\-_/#?%'"{}|^`~!*@$&+=\u00e9\u4e2d]$/),
).map(([registrant, suffix, last]) => `10.${registrant}/${suffix}${last}`);

const space = fc.constantFrom("", " ", "\t", "\n", "  \t", "\u200B");

Deno.test("every way of writing a DOI normalises to the canonical form", () => {
  const cases: [string, string | undefined][] = [
    ["10.25739/9k2v-7q4m", "10.25739/9k2v-7q4m"],
    ["doi:10.25739/tx0s-5m8a", "10.25739/tx0s-5m8a"],
    ["DOI: 10.25739/tx0s-5m8a", "10.25739/tx0s-5m8a"],
    ["doi 10.25739/tx0s-5m8a", "10.25739/tx0s-5m8a"],
    ["urn:doi:10.25739/tx0s-5m8a", "10.25739/tx0s-5m8a"],
    ["info:doi/10.25739/tx0s-5m8a", "10.25739/tx0s-5m8a"],
    ["https://doi.org/10.25739/6gq1-wz4f", "10.25739/6gq1-wz4f"],
    ["http://dx.doi.org/10.7946/P2H59V", "10.7946/P2H59V"],
    ["https://www.doi.org/10.7946/P2H59V", "10.7946/P2H59V"],
    ["doi.org/10.7946/P2H59V", "10.7946/P2H59V"],
    ["doi: https://doi.org/10.7946/P2H59V", "10.7946/P2H59V"],
    ["https://hdl.handle.net/10.7946/P2H59V", "10.7946/P2H59V"],
    ["https://doi.org/10.1000/a%23b%3Fc", "10.1000/a#b?c"],
    ["https://doi.org/10.1000/a%20b", undefined],
    ["https://doi.org/10.1000/abc?download=1#top", "10.1000/abc"],
    ["\t10.25739/r8tn-3d6w", "10.25739/r8tn-3d6w"],
    [" 10.7946/P2C35G \n", "10.7946/P2C35G"],
    ["10.1002.3/xyz", "10.1002.3/xyz"],
    ["", undefined],
    ["10.25739/", undefined],
    ["10.257/abc", undefined],
    ["11.25739/abc", undefined],
    ["10.abcd/efg", undefined],
    ["10.25739/ab cd", undefined],
    ["SRP018832", undefined],
    ["https://example.org/10.25739/abc", undefined],
    ["https://doi.org/10.1000/%E0%A4%A", undefined],
    ["doi:", undefined],
    // Sentence punctuation copied along with a DOI is not part of it; its own brackets are.
    ["doi:10.1234/ABC.5.", "10.1234/ABC.5"],
    ["10.1234/abc,", "10.1234/abc"],
    ["10.1234/abc;", "10.1234/abc"],
    ["(https://doi.org/10.1234/xyz).", undefined],
    ["https://doi.org/10.1234/xyz).", "10.1234/xyz"],
    [
      "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O.",
      "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O",
    ],
    ["10.1016/0002-9378(76)90125-0)", "10.1016/0002-9378(76)90125-0"],
    ["10.1234/a(b)", "10.1234/a(b)"],
    ["10.1234/a[1]", "10.1234/a[1]"],
    ["10.1234/.", undefined],
  ];
  for (const [input, expected] of cases) {
    assert.equal(normalizeDoi(input), expected, JSON.stringify(input));
  }
  // Long values are read in one pass, without running out of stack.
  assert.equal(normalizeDoi(`10.1234/a${")".repeat(100_000)}.`), "10.1234/a");
  const nested = `10.1234/${"(".repeat(50_000)}a${")".repeat(50_000)}`;
  assert.equal(normalizeDoi(`${nested}).`), nested);
  assert.equal(normalizeDoi(42 as unknown as string), undefined);
});

Deno.test("property: decorating a canonical DOI and normalising gives it back", () => {
  fc.assert(fc.property(
    canonicalDoi,
    fc.constantFrom("", "doi:", "DOI: ", "doi ", "urn:doi:", "info:doi/"),
    space,
    space,
    (doi, label, before, after) => {
      assert.equal(normalizeDoi(`${before}${label}${doi}${after}`), doi);
    },
  ));
  fc.assert(fc.property(
    canonicalDoi,
    fc.constantFrom("https://doi.org/", "http://dx.doi.org/", "https://www.doi.org/", "doi.org/"),
    space,
    (doi, resolver, around) => {
      const link = doiUrl(doi).replace("https://doi.org/", resolver);
      assert.equal(normalizeDoi(`${around}${link}${around}`), doi);
    },
  ));
});

Deno.test("property: normalising is idempotent and never invents a DOI", () => {
  fc.assert(fc.property(fc.oneof(fc.string(), canonicalDoi.map((d) => ` doi:${d}`)), (text) => {
    const once = normalizeDoi(text);
    if (once === undefined) return;
    assert.equal(normalizeDoi(once), once);
    assert.ok(once.startsWith("10."));
    assert.ok(!/\s/.test(once));
  }));
  fc.assert(fc.property(fc.string().filter((text) => !text.includes("10.")), (junk) => {
    assert.equal(normalizeDoi(junk), undefined);
  }));
});

Deno.test("property: the resolver link is a stable URL that names the same DOI", () => {
  fc.assert(fc.property(
    fc.oneof(canonicalDoi, fc.constant("10.1234/../x"), fc.constant("10.1234/./../x")),
    (doi) => {
      const url = doiUrl(doi);
      assert.ok(url.startsWith("https://doi.org/"));
      assert.equal(new URL(url).href, url, "URL parsing must not change the link");
      assert.equal(decodeURIComponent(url.slice("https://doi.org/".length)), doi);
    },
  ));
  assert.equal(doiUrl("10.25739/9k2v-7q4m"), "https://doi.org/10.25739/9k2v-7q4m");
  assert.equal(doiUrl("10.1000/a(b);c"), "https://doi.org/10.1000/a(b);c");
  assert.throws(() => doiUrl("not a doi"), TypeError);
});
