import assert from "node:assert/strict";
import fc from "fast-check";
import { type License, loadSpdxCorrect, normalizeLicense } from "../../lib/metadata/license.ts";

const correct = await loadSpdxCorrect();
const license = (value: string, hints = {}) => normalizeLicense(value, hints, correct);
const idOf = (value: string) => license(value)?.id;

const PDDL = {
  id: "PDDL-1.0",
  name: "Open Data Commons Public Domain Dedication & License 1.0",
  url: "https://opendatacommons.org/licenses/pddl/1-0/",
};
const CC0 = {
  id: "CC0-1.0",
  name: "Creative Commons Zero v1.0 Universal",
  url: "https://creativecommons.org/publicdomain/zero/1.0/",
};

Deno.test("every licence spelling of the Data Commons (terrain-api §5.2)", () => {
  const vertnet = "License and Terms of Use: VertNet data are published under CC0 where the " +
    "data publisher allows it; users agree to the VertNet norms at " +
    "http://vertnet.org/resources/norms.html";
  const termsOfUse = "License and Terms of Use: these data may be used for research and " +
    "education; please acknowledge the data providers and the funding agency in publications.";
  const pddlText = "This data is made available under the Public Domain Dedication and License " +
    "v1.0 whose full text can be found at: http://www.opendatacommons.org/licenses/pddl/1.0/";
  const dua = "Creative Commons Attribution-NonCommercial 4.0 International License & Data Use " +
    "Agreement: users may not redistribute the raw images without written permission.";
  const cases: [string, License | undefined][] = [
    ["ODC PDDL", { ...PDDL, confidence: "alias" }],
    ["odc-pddl", { ...PDDL, confidence: "alias" }],
    ["CC0", { ...CC0, confidence: "alias" }],
    ["cc-zero", { ...CC0, confidence: "alias" }],
    ["CC BY-NC 4.0", {
      id: "CC-BY-NC-4.0",
      name: "Creative Commons Attribution Non Commercial 4.0 International",
      url: "https://creativecommons.org/licenses/by-nc/4.0/",
      confidence: "alias",
    }],
    ["CC-BY-NC-4.0", {
      id: "CC-BY-NC-4.0",
      name: "Creative Commons Attribution Non Commercial 4.0 International",
      url: "https://creativecommons.org/licenses/by-nc/4.0/",
      confidence: "exact",
    }],
    ["Creative Commons Attribution 4.0 International", {
      id: "CC-BY-4.0",
      name: "Creative Commons Attribution 4.0 International",
      url: "https://creativecommons.org/licenses/by/4.0/",
      confidence: "alias",
    }],
    ["data: ODC PDDL, code: GPLv3", {
      id: "PDDL-1.0 AND GPL-3.0-only",
      name: "data: ODC PDDL, code: GPLv3",
      confidence: "guess",
    }],
    [dua, {
      id: "CC-BY-NC-4.0",
      name: dua,
      url: "https://creativecommons.org/licenses/by-nc/4.0/",
      confidence: "guess",
    }],
    [vertnet, { id: "CC0-1.0", name: vertnet, url: CC0.url, confidence: "guess" }],
    [termsOfUse, { name: termsOfUse, confidence: "unknown" }],
    [pddlText, { id: "PDDL-1.0", name: pddlText, url: PDDL.url, confidence: "guess" }],
    ["No restrictions for the use of these data following publication.", {
      name: "No restrictions for the use of these data following publication.",
      confidence: "unknown",
    }],
    ["", undefined],
    ["   ", undefined],
  ];
  for (const [value, expected] of cases) assert.deepEqual(license(value), expected, value);
});

Deno.test("DataCite rights sub-properties: SPDX identifier, rights link", () => {
  assert.deepEqual(license("CC0", { identifier: "CC0-1.0", scheme: "SPDX" }), {
    ...CC0,
    confidence: "exact",
  });
  // A link alone identifies the licence; the stored link is the url.
  assert.deepEqual(license("", { uri: "https://creativecommons.org/licenses/by-nc/4.0/" }), {
    id: "CC-BY-NC-4.0",
    name: "Creative Commons Attribution Non Commercial 4.0 International",
    url: "https://creativecommons.org/licenses/by-nc/4.0/",
    confidence: "alias",
  });
  // An identifier of another scheme is not an SPDX id.
  assert.equal(license("Custom", { identifier: "CC0-1.0", scheme: "local" })?.id, undefined);
  // A custom link keeps the text unidentified but linked.
  assert.deepEqual(license("See terms", { uri: "https://example.org/terms" }), {
    name: "See terms",
    url: "https://example.org/terms",
    confidence: "unknown",
  });
  assert.equal(license("x", { uri: "not a url" })?.url, undefined);
});

Deno.test("a licence written as its link is read as the rights link is: CC, ODC, SPDX and OSI pages", () => {
  assert.deepEqual(license("https://creativecommons.org/licenses/by/4.0/"), {
    id: "CC-BY-4.0",
    name: "Creative Commons Attribution 4.0 International",
    url: "https://creativecommons.org/licenses/by/4.0/",
    confidence: "alias",
  });
  assert.deepEqual(license(" http://creativecommons.org/publicdomain/zero/1.0/legalcode "), {
    ...CC0,
    url: "http://creativecommons.org/publicdomain/zero/1.0/legalcode",
    confidence: "alias",
  });
  for (
    const [link, id] of [
      ["https://spdx.org/licenses/CC-BY-4.0.html", "CC-BY-4.0"],
      ["https://opensource.org/licenses/MIT", "MIT"],
      ["https://opensource.org/license/apache-2-0/", undefined],
      ["https://opensource.org/licenses/Apache-2.0", "Apache-2.0"],
      ["https://opendatacommons.org/licenses/odbl/1-0/", "ODbL-1.0"],
    ] as const
  ) {
    const found = license(link);
    assert.equal(found?.id, id, link);
    assert.equal(found?.url, link, link);
    assert.equal(found?.confidence, id === undefined ? "unknown" : "alias", link);
  }
  // Both a link as the value and a rights link: the rights link is the url.
  assert.equal(
    license("https://example.org/x", { uri: "https://creativecommons.org/licenses/by/4.0/" })?.id,
    "CC-BY-4.0",
  );
});

Deno.test("values that deny a licence, or only hint at one, never get an id", () => {
  for (
    const value of [
      "UNLICENSED",
      "proprietary",
      "All rights reserved",
      "none",
      "N/A",
      "not specified",
      "Public Domain",
      "CC BY",
      "CC-BY-SA",
      "CC BY 5.0",
      "CC BY-ND-SA 4.0",
      "BSD",
      "No limits",
      "Submit a request",
      "Attribution",
      "Eclipse",
      "CC BY 4.0 or CC0",
      "USGS-authored or produced data and information are considered to be in the U.S. " +
      "public domain.",
    ]
  ) {
    const result = license(value);
    assert.equal(result?.id, undefined, value);
    assert.equal(result?.confidence, "unknown", value);
    assert.equal(result?.name, value);
  }
});

Deno.test("software licences through spdx-correct, read honestly", () => {
  assert.deepEqual(license("MIT License"), {
    id: "MIT",
    name: "MIT License",
    url: "https://spdx.org/licenses/MIT.html",
    confidence: "guess",
  });
  assert.equal(idOf("Apache 2"), "Apache-2.0");
  assert.equal(idOf("GPLv3"), "GPL-3.0-only");
  assert.equal(idOf("GPL v3 or later"), "GPL-3.0-or-later");
  assert.equal(idOf("GPL-3.0"), "GPL-3.0-only");
  assert.equal(license("GPL-3.0")?.confidence, "exact");
  assert.equal(idOf("LGPL 2.1"), "LGPL-2.1-only");
  assert.deepEqual(license("MIT OR Apache-2.0"), {
    id: "MIT OR Apache-2.0",
    name: "MIT OR Apache-2.0",
    confidence: "exact",
  });
  assert.equal(license("mit")?.confidence, "exact");
});

/** Creative Commons licences SPDX lists for every version 1.0–4.0. */
const CC_ELEMENTS = ["BY", "BY-NC", "BY-SA", "BY-ND", "BY-NC-SA", "BY-NC-ND"] as const;
const CC_VERSIONS = ["1.0", "2.0", "2.5", "3.0", "4.0"] as const;
const WORDS: Record<string, string> = {
  BY: "Attribution",
  NC: "NonCommercial",
  SA: "ShareAlike",
  ND: "NoDerivatives",
};
const EDITION: Record<string, string> = {
  "1.0": "Generic",
  "2.0": "Generic",
  "2.5": "Generic",
  "3.0": "Unported",
  "4.0": "International",
};

const ccLicence = fc.tuple(fc.constantFrom(...CC_ELEMENTS), fc.constantFrom(...CC_VERSIONS));

/** Ways people write a Creative Commons licence, and the confidence each should get. */
const SPELLINGS: [string, (elements: string, version: string) => string][] = [
  ["alias", (e, v) => `CC ${e} ${v}`],
  ["alias", (e, v) => `cc ${e.toLowerCase().replaceAll("-", " ")} ${v}`],
  ["alias", (e, v) => `CC-${e} ${v.replace(".0", "")}`],
  ["exact", (e, v) => `CC-${e}-${v}`],
  ["exact", (e, v) => `cc-${e.toLowerCase()}-${v}`],
  ["alias", (e, v) => `Creative Commons ${e.split("-").map((x) => WORDS[x]).join("-")} ${v}`],
  [
    "alias",
    (e, v) =>
      `Creative Commons ${e.split("-").map((x) => WORDS[x]).join(" ")} ${v} ${EDITION[v]} License`,
  ],
  ["alias", (e, v) => `${e.split("-").map((x) => WORDS[x]).join("-")} ${v} ${EDITION[v]}`],
  [
    "alias",
    (e, v) => `Creative Commons ${e.split("-").map((x) => WORDS[x]).join("-")} ${v} (CC ${e} ${v})`,
  ],
];

Deno.test("property: every CC BY(-NC)(-SA|-ND) x.0 spelling gives its SPDX id", () => {
  fc.assert(
    fc.property(
      ccLicence,
      fc.constantFrom(...SPELLINGS),
      ([elements, version], [confidence, spell]) => {
        const result = license(spell(elements, version));
        assert.equal(result?.id, `CC-${elements}-${version}`, spell(elements, version));
        assert.equal(result?.confidence, confidence);
        assert.equal(
          result?.url,
          `https://creativecommons.org/licenses/${elements.toLowerCase()}/${version}/`,
        );
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("property: a licence named inside prose is a guess with the same id", () => {
  fc.assert(fc.property(
    ccLicence,
    fc.constantFrom(...SPELLINGS.slice(0, 7)),
    fc.constantFrom(
      (l: string) => `These data are distributed under the ${l}; please cite the paper.`,
      (l: string) => `Licence: ${l}. Contact the authors before commercial reuse of the images.`,
    ),
    ([elements, version], [, spell], sentence) => {
      const text = sentence(spell(elements, version));
      assert.deepEqual(
        [license(text)?.id, license(text)?.confidence, license(text)?.name],
        [`CC-${elements}-${version}`, "guess", text],
      );
    },
  ));
});

Deno.test("property: an identified licence's id normalises to itself, exactly", () => {
  const ids = new Set<string>();
  for (const elements of CC_ELEMENTS) {
    for (const version of CC_VERSIONS) ids.add(idOf(`CC ${elements} ${version}`)!);
  }
  for (const value of ["ODC PDDL", "CC0", "ODbL", "ODC-By", "Public Domain Mark 1.0", "GPLv3"]) {
    ids.add(idOf(value)!);
  }
  for (const id of ids) {
    assert.deepEqual([license(id)?.id, license(id)?.confidence], [id, "exact"], id);
    assert.equal(license(id.toLowerCase())?.id, id);
  }
});

Deno.test("property: prose without a licence name never gets an id", () => {
  const vocabulary = [
    "the",
    "data",
    "are",
    "free",
    "to",
    "use",
    "please",
    "cite",
    "by",
    "attribution",
    "version",
    "4.0",
    "2",
    "license",
    "terms",
    "limits",
    "commits",
    "public",
    "domain",
    "authors",
    "no",
    "restrictions",
    "share",
    "commercial",
  ];
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 30 }),
      (words) => {
        const text = words.join(" ");
        const result = license(text);
        assert.equal(result?.id, undefined, text);
        assert.equal(result?.confidence, "unknown");
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a 100 kB rights value is never handed whole to spdx-correct, and a licence named at its end is still found", () => {
  // spdx-correct's time grows with the square of its input's length (a 100 kB value of
  // brackets held a read for seconds, 1 MB for minutes): the longest value it is asked is short.
  const asked: number[] = [];
  const counting = (value: string) => {
    asked.push(value.length);
    return correct(value);
  };
  for (const unit of ["(", ")", "cc by ", "Apache "]) {
    const value = unit.repeat(100_000 / unit.length);
    normalizeLicense(value, {}, counting);
    normalizeLicense(value, { identifier: value }, counting);
  }
  assert.ok(Math.max(...asked) <= 1_000, `spdx-correct was asked ${Math.max(...asked)} characters`);
  const prose = `${"Data collected under permit; ".repeat(3_500)}Licensed CC BY 4.0.`;
  assert.equal(normalizeLicense(prose, {}, counting)?.id, "CC-BY-4.0");
  assert.equal(normalizeLicense(`${"cc ".repeat(30_000)}by 4.0`, {}, counting)?.id, "CC-BY-4.0");
});
