import assert from "node:assert/strict";
import {
  CITATION_STYLE_LIST,
  CITATION_STYLES,
  citationStyle,
} from "../../lib/registry/citation_styles.ts";
import { formatCitation } from "../../lib/metadata/citation.ts";

const record = {
  path: "/iplant/home/shared/x",
  title: "X",
  creators: [{ name: "A. Person" }],
  subjects: [],
  publicationYear: 2020,
};

Deno.test("every registered style has a formatter, and JSON styles give JSON", async () => {
  assert.equal(new Set(CITATION_STYLES).size, CITATION_STYLE_LIST.length);
  for (const style of CITATION_STYLES) {
    const text = await formatCitation(record, style);
    assert.ok(text.length > 0, style);
    if (citationStyle(style).json) assert.doesNotThrow(() => JSON.parse(text), style);
    if (citationStyle(style).joining === "json-array") assert.ok(Array.isArray(JSON.parse(text)));
  }
});

/** A person, as the normaliser gives one. */
function person(family: string, given: string) {
  return { name: `${family}, ${given}`, family, given };
}

Deno.test("every style on one organisation, two people, 22 people, no year, a DOI and an ARK, LaTeX's specials and non-Latin names", async () => {
  const base = { path: "/iplant/home/shared/x/Data_2020", title: "Data", subjects: [] };
  const many = Array.from({ length: 22 }, (_, i) => person(`Family${i + 1}`, "Ann"));
  const cases = [
    {
      creators: [{ name: "Gapminder Foundation" }],
      publicationYear: 2020,
      expect: ["Gapminder Foundation"],
    },
    {
      creators: [person("Doe", "Jane"), person("Roe", "Rich")],
      publicationYear: 2020,
      expect: ["Doe", "Roe"],
    },
    { creators: many, publicationYear: 2020, expect: ["Family1", "Family19", "Family22"] },
    { creators: [person("Doe", "Jane")], expect: ["Doe"] },
    {
      creators: [person("Doe", "Jane")],
      doi: "10.25739/9k2v-7q4m",
      ark: "ark:/87946/p3f2r7",
      expect: ["10.25739/9k2v-7q4m"],
    },
    { creators: [{ name: "R&D_1 {50%}" }], title: "A {b} 50% & $x_1$", expect: [] },
    {
      creators: [person("李", "明"), person("Иванов", "Иван")],
      title: "数据",
      expect: ["李", "Иванов", "数据"],
    },
  ];
  for (const { expect, ...fields } of cases) {
    const record = { ...base, ...fields };
    for (const style of CITATION_STYLES) {
      const text = await formatCitation(record, style);
      for (const part of expect) assert.ok(text.includes(part), `${style} lacks ${part}: ${text}`);
      assert.doesNotMatch(text, /undefined|\bnull\b|NaN|\(\)/, `${style}: ${text}`);
    }
  }
  // APA 7: the first 19, an ellipsis, the last; no year is "n.d.".
  assert.match(
    await formatCitation({ ...base, creators: many }, "apa"),
    /^Family1, A\., (Family\d+, A\., ){17}Family19, A\., … Family22, A\. \(n\.d\.\)/,
  );
  // Everything else lists all 22.
  const bibtex = await formatCitation({ ...base, creators: many }, "bibtex");
  assert.equal(bibtex.match(/Family\d+, Ann/g)?.length, 22);
  const ris = await formatCitation({ ...base, creators: many }, "ris");
  assert.equal(ris.match(/^AU {2}- /gm)?.length, 22);
  // No year: no year field anywhere.
  for (const style of CITATION_STYLES) {
    const text = await formatCitation({ ...base, creators: many }, style);
    assert.doesNotMatch(text, /\byear\b|^PY |date-released|"issued"|datePublished/m, style);
  }
  // LaTeX's specials escaped in BibTeX only; the organisation braced whole.
  const special = { ...base, creators: [{ name: "R&D_1 {50%}" }], title: "A {b} 50% & $x_1$" };
  const tex = await formatCitation(special, "bibtex");
  assert.ok(tex.includes("author = {{R\\&D\\_1 \\textbraceleft{}50\\%\\textbraceright{}}}"), tex);
  assert.ok(
    tex.includes("title = {{A \\textbraceleft{}b\\textbraceright{} 50\\% \\& \\$x\\_1\\$}}"),
    tex,
  );
  for (const style of ["datacite", "apa", "ris", "cff", "csl-json", "jsonld"] as const) {
    assert.ok((await formatCitation(special, style)).includes("A {b} 50% & $x_1$"), style);
  }
});
