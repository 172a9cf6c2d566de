import assert from "node:assert/strict";
import fc from "fast-check";
import { BadRequestError } from "../../lib/client/errors.ts";
import {
  type Citable,
  CITATION_STYLES,
  citationKey,
  dataciteCitation,
  formatCitation,
  toCsl,
} from "../../lib/metadata/citation.ts";
import type { Creator } from "../../lib/metadata/dataset_metadata.ts";
import { loadCitationJsModules } from "../../lib/deps.ts";

const PATH = "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020";
const GORMAN: Creator = { name: "Gorman, Kristen B.", family: "Gorman", given: "Kristen B." };
const WILLIAMS: Creator = { name: "Williams, Tony D.", family: "Williams", given: "Tony D." };
const USGS: Creator = { name: "U.S. Geological Survey, Earthquake Hazards Program" };

const FULL: Citable = {
  path: PATH,
  title: "Palmer Archipelago (Antarctica) penguin size measurements, 2007-2009",
  creators: [GORMAN, WILLIAMS],
  publicationYear: 2020,
  publisher: "CyVerse Data Commons",
  doi: "10.25739/9k2v-7q4m",
  ark: "ark:/87946/p3x9k1",
  version: "1.0",
  subjects: ["penguins", "Antarctica"],
  description: "Body size measurements\nof 344 penguins.",
  license: { id: "CC0-1.0", name: "Creative Commons Zero v1.0 Universal", confidence: "alias" },
};

Deno.test("datacite: Family, G., Family, G. (Year). Title. Version. Publisher. DOI link", () => {
  assert.equal(
    dataciteCitation(FULL),
    "Gorman, K. B., Williams, T. D. (2020). Palmer Archipelago (Antarctica) penguin size " +
      "measurements, 2007-2009. Version 1.0. CyVerse Data Commons. " +
      "https://doi.org/10.25739/9k2v-7q4m",
  );
});

Deno.test("datacite: missing parts are left out cleanly", () => {
  const base: Citable = { path: PATH, creators: [], subjects: [] };
  const cases: [Partial<Citable>, string][] = [
    [
      { ...FULL, publicationYear: undefined, version: undefined },
      "Gorman, K. B., Williams, T. D. " +
      "Palmer Archipelago (Antarctica) penguin size measurements, 2007-2009. CyVerse Data Commons. " +
      "https://doi.org/10.25739/9k2v-7q4m",
    ],
    [
      { title: "Seismic feed", creators: [USGS], publicationYear: 2019, ark: "ark:/87946/p3f2r7" },
      "U.S. Geological Survey, Earthquake Hazards Program (2019). Seismic feed. " +
      "https://n2t.net/ark:/87946/p3f2r7",
    ],
    [
      { title: "Untitled creators?", publicationYear: 2019, publisher: "CyVerse Data Commons" },
      `Untitled creators? (2019). CyVerse Data Commons. ${PATH}`,
    ],
    [
      { creators: [GORMAN], publicationYear: 2020, version: "v2.0" },
      `Gorman, K. B. (2020). [Gorman_PalmerPenguins_Morphometrics_2020]. v2.0. ${PATH}`,
    ],
    [
      { publicationYear: 2020, version: "Version 3" },
      `[Gorman_PalmerPenguins_Morphometrics_2020] (2020). Version 3. ${PATH}`,
    ],
    [{}, `[Gorman_PalmerPenguins_Morphometrics_2020]. ${PATH}`],
    [{ path: "" }, ""],
    [{ path: "", publicationYear: 2001 }, "(2001)."],
    [{
      title: "Is it done?",
      creators: [{
        name: "King, Martin Luther, Jr.",
        family: "King",
        given: "Martin Luther",
        suffix: "Jr.",
      }, {
        name: "Plato",
      }, { name: "Li", family: "Li" }],
      doi: "10.1000/a#b",
    }, "King, M. L., Jr., Plato, Li. Is it done? https://doi.org/10.1000/a%23b"],
  ];
  for (const [fields, expected] of cases) {
    assert.equal(dataciteCitation({ ...base, ...fields }), expected);
  }
});

Deno.test("apa: APA 7 through citation-js, with the same fallbacks", async () => {
  assert.equal(
    await formatCitation(FULL, "apa"),
    "Gorman, K. B., & Williams, T. D. (2020). Palmer Archipelago (Antarctica) penguin size " +
      "measurements, 2007-2009 (Version 1.0) [Dataset]. CyVerse Data Commons. " +
      "https://doi.org/10.25739/9k2v-7q4m",
  );
  assert.equal(
    await formatCitation({ ...FULL, doi: undefined, version: undefined }, "apa"),
    "Gorman, K. B., & Williams, T. D. (2020). Palmer Archipelago (Antarctica) penguin size " +
      "measurements, 2007-2009 [Dataset]. CyVerse Data Commons. https://n2t.net/ark:/87946/p3x9k1",
  );
  assert.equal(
    await formatCitation({ path: PATH, creators: [USGS], subjects: [], title: "Feed" }, "apa"),
    `U.S. Geological Survey, Earthquake Hazards Program. (n.d.). Feed [Dataset]. (${PATH}).`,
  );
  // A version written with its label is still one "Version" in APA (CSL adds the word).
  for (const version of ["2.0", "v2.0", "V2.0", "Version 2.0", "version 2.0", "ver. 2.0"]) {
    const apa = await formatCitation({ ...FULL, version }, "apa");
    assert.ok(apa.includes("2007-2009 (Version 2.0) [Dataset]"), `${version}: ${apa}`);
  }
});

Deno.test("bibtex: @misc with a stable key, braced title, version and path in note", async () => {
  assert.equal(
    await formatCitation(FULL, "bibtex"),
    [
      "@misc{Gorman2020Palmer,",
      "\tauthor = {Gorman, Kristen B. and Williams, Tony D.},",
      "\tdoi = {10.25739/9k2v-7q4m},",
      "\tyear = {2020},",
      "\tnote = {Version 1.0},",
      "\tpublisher = {CyVerse Data Commons},",
      "\ttitle = {{Palmer Archipelago (Antarctica) penguin size measurements, 2007-2009}},",
      "\turl = {https://doi.org/10.25739/9k2v-7q4m},",
      "}",
    ].join("\n"),
  );
  const noIdentifier = await formatCitation(
    { path: PATH, creators: [USGS], subjects: [], title: "Feed & more: 50% done", version: "2" },
    "bibtex",
  );
  assert.match(noIdentifier, /^@misc\{USFeed,/);
  assert.match(
    noIdentifier,
    /author = \{\{U\.S\. Geological Survey, Earthquake Hazards Program\}\}/,
  );
  // LaTeX needs underscores escaped.
  assert.ok(
    noIdentifier.includes(`note = {Version 2. ${PATH.replaceAll("_", "\\_")}}`),
    noIdentifier,
  );
  assert.match(noIdentifier, /50\\% done/);
  assert.ok(!noIdentifier.includes("url ="));
});

/** Creators whose names hold LaTeX's special characters, a suffix and letters beyond ASCII. */
const AWKWARD: Citable["creators"] = [
  { name: "Smith & Sons_Ltd {50% #1}" },
  { name: "Müller, Jürgen", family: "Müller", given: "Jürgen" },
  { name: "King, Martin Luther, Jr.", family: "King", given: "Martin Luther", suffix: "Jr." },
  USGS,
];

/** What citation-js's BibTeX and RIS readers make of a text: its first entry, as CSL. */
async function readBack(text: string): Promise<Record<string, unknown>> {
  const { Cite } = await loadCitationJsModules() as {
    Cite: new (data: string) => { data: Record<string, unknown>[] };
  };
  const [entry, ...rest] = new Cite(text).data;
  assert.deepEqual(rest, [], "one entry");
  return entry;
}

/** The text with every escape and command taken out: what LaTeX would find raw. */
function raw(bibtex: string): string {
  return bibtex.replace(/\\(?:[A-Za-z]+|[^A-Za-z])/g, "");
}

Deno.test("bibtex: a folder-name stand-in and awkward names come out escaped, readable, and read back whole", async () => {
  const noMetadata = await formatCitation({
    path: "/iplant/home/shared/commons_repo/curated/Whitfield_CountyUnemployment_2017",
    creators: [],
    subjects: [],
  }, "bibtex");
  assert.equal(
    noMetadata,
    [
      "@misc{WhitfieldCountyUnemployment2017,",
      "\tnote = {/iplant/home/shared/commons\\_repo/curated/Whitfield\\_CountyUnemployment\\_2017},",
      "\ttitle = {{[Whitfield\\_CountyUnemployment\\_2017]}},",
      "}",
    ].join("\n"),
  );
  assert.deepEqual(await readBack(noMetadata), {
    ...await readBack(noMetadata),
    title: "[Whitfield_CountyUnemployment_2017]",
    note: "/iplant/home/shared/commons_repo/curated/Whitfield_CountyUnemployment_2017",
  });

  const title = "Ørsted's {raw} data_v2: 50% & $5 ~ ^ \\ #1 (USGS)";
  const bibtex = await formatCitation(
    { path: PATH, title, creators: AWKWARD, subjects: [], publicationYear: 2020 },
    "bibtex",
  );
  // Nothing LaTeX treats as special is left raw, and braces balance.
  const body = raw(bibtex);
  assert.doesNotMatch(body, /[&%$#_~^\\]/, bibtex);
  let depth = 0;
  for (const char of body) {
    depth += char === "{" ? 1 : char === "}" ? -1 : 0;
    assert.ok(depth >= 0, bibtex);
  }
  assert.equal(depth, 0, bibtex);
  // One pair of braces keeps the title's capitals, not one per word.
  assert.match(bibtex, /\ttitle = \{\{\\O\{\}rsted's .* \\#1 \(USGS\)\}\},\n/);
  const back = await readBack(bibtex);
  assert.equal(back.title, title);
  assert.deepEqual(back.author, [
    { family: "Smith & Sons_Ltd {50% #1}" },
    { family: "Müller", given: "Jürgen" },
    { family: "King", given: "Martin Luther", suffix: "Jr." },
    { family: USGS.name },
  ]);
});

Deno.test("bibtex: names and titles in Cyrillic, Greek, Chinese and Korean are kept, not dropped, and read back whole", async () => {
  const title = "Данные о почве: 土壤数据 & Σύνολο 50%";
  const creators: Citable["creators"] = [
    { name: "Иванов, Иван", family: "Иванов", given: "Иван" },
    { name: "Παπαδόπουλος, Σωκράτης", family: "Παπαδόπουλος", given: "Σωκράτης" },
    { name: "国家气象中心" },
    { name: "김, 철수", family: "김", given: "철수" },
    { name: "Müller, Jürgen", family: "Müller", given: "Jürgen" },
  ];
  const bibtex = await formatCitation(
    { path: PATH, title, creators, subjects: [], publicationYear: 2020 },
    "bibtex",
  );
  assert.match(
    bibtex,
    /\tauthor = \{Иванов, Иван and Παπαδόπουλος, Σωκράτης and \{国家气象中心\} and 김, 철수 and M/,
  );
  assert.ok(bibtex.includes("\ttitle = {{Данные о почве: 土壤数据 \\& Σύνολο 50\\%}},"), bibtex);
  assert.doesNotMatch(raw(bibtex), /[&%$#_~^\\]/, bibtex);
  const back = await readBack(bibtex);
  assert.equal(back.title, title);
  assert.deepEqual(back.author, [
    { family: "Иванов", given: "Иван" },
    { family: "Παπαδόπουλος", given: "Σωκράτης" },
    { family: "国家气象中心" },
    { family: "김", given: "철수" },
    { family: "Müller", given: "Jürgen" },
  ]);
});

Deno.test("bibtex: a DOI holding a brace cannot unbalance the entry; its link still names it", async () => {
  const bibtex = await formatCitation(
    { path: PATH, title: "T", creators: [], subjects: [], doi: "10.1234/a}b{c}}" },
    "bibtex",
  );
  let depth = 0;
  for (const char of raw(bibtex)) {
    depth += char === "{" ? 1 : char === "}" ? -1 : 0;
    assert.ok(depth >= 0, bibtex);
  }
  assert.equal(depth, 0, bibtex);
  assert.ok(bibtex.includes("\turl = {https://doi.org/10.1234/a%7Db%7Bc%7D%7D},"), bibtex);
});

Deno.test("ris: names, titles and subjects as they are, read back whole; one KW per subject", async () => {
  const ris = await formatCitation({
    path: "/iplant/home/shared/commons_repo/curated/Whitfield_CountyUnemployment_2017",
    title: "[Whitfield_CountyUnemployment_2017] {x} & 50%",
    creators: AWKWARD.slice(0, 3),
    subjects: ["Antarctica, Southern Ocean", "sea ice"],
  }, "ris");
  const lines = ris.split("\n");
  assert.deepEqual(lines.filter((line) => line.startsWith("KW")), [
    "KW  - Antarctica, Southern Ocean",
    "KW  - sea ice",
  ]);
  const back = await readBack(ris);
  assert.equal(back.title, "[Whitfield_CountyUnemployment_2017] {x} & 50%");
  assert.deepEqual(back.author, [
    { literal: "Smith & Sons_Ltd {50% #1}" },
    { family: "Müller", given: "Jürgen" },
    { family: "King", given: "Martin Luther", suffix: "Jr." },
  ]);
});

Deno.test("ris: one line per tag (no hard wrapping), DO/UR/N1 as available", async () => {
  const long = { ...FULL, description: "word ".repeat(60).trim() };
  const ris = await formatCitation(long, "ris");
  const lines = ris.split("\n");
  assert.equal(lines[0], "TY  - DATA");
  assert.equal(lines.at(-1), "ER  - ");
  assert.ok(lines.every((line) => /^[A-Z][A-Z0-9] {2}- /.test(line)), ris);
  assert.ok(lines.includes(`AB  - ${"word ".repeat(60).trim()}`));
  assert.ok(lines.includes("DO  - 10.25739/9k2v-7q4m"));
  assert.ok(lines.includes("UR  - https://doi.org/10.25739/9k2v-7q4m"));
  assert.deepEqual(lines.filter((line) => line.startsWith("KW")), [
    "KW  - penguins",
    "KW  - Antarctica",
  ]);
  assert.deepEqual(lines.filter((line) => line.startsWith("AU")), [
    "AU  - Gorman, Kristen B.",
    "AU  - Williams, Tony D.",
  ]);
  const pathOnly = await formatCitation({ path: PATH, creators: [], subjects: [] }, "ris");
  assert.ok(pathOnly.split("\n").includes(`N1  - ${PATH}`));
  assert.ok(!pathOnly.includes("UR  -"));
});

Deno.test("csl-json: one CSL item, people split, organisations literal, path when no link", async () => {
  const [item] = JSON.parse(
    await formatCitation({ ...FULL, creators: [GORMAN, USGS] }, "csl-json"),
  );
  assert.deepEqual(item, {
    id: "Gorman2020Palmer",
    "citation-key": "Gorman2020Palmer",
    type: "dataset",
    title: FULL.title,
    author: [{ family: "Gorman", given: "Kristen B." }, { literal: USGS.name }],
    issued: { "date-parts": [[2020]] },
    publisher: "CyVerse Data Commons",
    version: "1.0",
    DOI: "10.25739/9k2v-7q4m",
    URL: "https://doi.org/10.25739/9k2v-7q4m",
    abstract: "Body size measurements\nof 344 penguins.",
    keyword: "penguins, Antarctica",
    license: "CC0-1.0",
  });
  assert.deepEqual(toCsl({ path: PATH, creators: [], subjects: [] }), {
    id: "GormanPalmerPenguinsMorphometrics2020",
    "citation-key": "GormanPalmerPenguinsMorphometrics2020",
    type: "dataset",
    title: "[Gorman_PalmerPenguins_Morphometrics_2020]",
    archive_location: PATH,
  });
  const software = toCsl({ ...FULL, resourceTypeGeneral: "Software" });
  assert.equal(software.type, "software");
});

Deno.test("citation keys are ASCII, never empty, never bare digits", () => {
  assert.equal(citationKey(FULL), "Gorman2020Palmer");
  assert.equal(
    citationKey({ path: PATH, creators: [], subjects: [] }),
    "GormanPalmerPenguinsMorphometrics2020",
  );
  assert.equal(
    citationKey({ path: "", creators: [], subjects: [], publicationYear: 2020 }),
    "dataset2020",
  );
  assert.equal(
    citationKey({ path: "", creators: [USGS], subjects: [], title: "The CO2 record" }),
    "USCO2",
  );
});

Deno.test("an unknown style is a clear BadRequestError", async () => {
  await assert.rejects(formatCitation(FULL, "mla" as "apa"), (error: unknown) => {
    assert.ok(error instanceof BadRequestError);
    assert.equal(
      error.message,
      'Unknown citation style "mla"; use one of datacite, apa, bibtex, ris, csl-json, jsonld, cff.',
    );
    return true;
  });
});

/** Records with any subset of the citation fields. */
const partialRecord: fc.Arbitrary<Citable> = fc.record({
  path: fc.constantFrom(PATH, "", "/iplant/home/demo/My data (v2)"),
  title: fc.option(fc.constantFrom("Daily weather", "What? A title.", "Ünïcode & 50% {x}"), {
    nil: undefined,
  }),
  creators: fc.subarray([GORMAN, WILLIAMS, USGS, { name: "Plato" }]),
  publicationYear: fc.option(fc.integer({ min: 1900, max: 2030 }), { nil: undefined }),
  publisher: fc.option(fc.constant("CyVerse Data Commons"), { nil: undefined }),
  doi: fc.option(fc.constant("10.7946/P2H59V"), { nil: undefined }),
  ark: fc.option(fc.constant("ark:/87946/p3mw27"), { nil: undefined }),
  version: fc.option(fc.constantFrom("1", "2021.1", "v3"), { nil: undefined }),
  subjects: fc.subarray(["weather", "Seattle"]),
});

Deno.test("property: no style ever prints undefined, null or empty brackets", async () => {
  await fc.assert(
    fc.asyncProperty(partialRecord, async (record) => {
      for (const style of CITATION_STYLES) {
        // LaTeX macros such as \textunderscore{} end in an empty group on purpose.
        const text = (await formatCitation(record, style)).replace(/\\[a-z]+\{\}/g, "");
        assert.ok(
          !/undefined|\bnull\b|NaN|\(\s*\)|\[\s*\]|\{\s*\}/.test(text),
          `${style}: ${text}`,
        );
        if (style === "datacite") {
          assert.ok(!/\.\.|\s\.|\s,/.test(text), text);
          const link = record.doi
            ? "https://doi.org/"
            : record.ark
            ? "https://n2t.net/"
            : undefined;
          if (link !== undefined) assert.ok(text.includes(link), text);
          else if (record.path !== "") assert.ok(text.endsWith(record.path), text);
        }
        if (style === "csl-json") assert.equal(JSON.parse(text).length, 1);
      }
    }),
    { numRuns: 40 },
  );
});

const DOE: Creator = { name: "Doe, Jane", family: "Doe", given: "Jane" };
const ARIZONA: Creator = { name: "University of Arizona, Tucson" };

Deno.test("apa: a comma before & also when the last creator is an organisation", async () => {
  const record: Citable = {
    path: PATH,
    title: "Soil cores",
    creators: [DOE, ARIZONA],
    subjects: [],
  };
  assert.match(
    await formatCitation({ ...record, publicationYear: 2020 }, "apa"),
    /^Doe, J\., & University of Arizona, Tucson\. \(2020\)\. Soil cores \[Dataset\]\./,
  );
  // An organisation with a lowercase particle is still one name, kept as written.
  assert.match(
    await formatCitation({ ...record, creators: [DOE, { name: "van Gogh Museum" }] }, "apa"),
    /^Doe, J\., & van Gogh Museum\. \(n\.d\.\)/,
  );
});

Deno.test("apa: a title's own closing period is not doubled; ? and ! stay; ... stays", async () => {
  const base: Citable = { path: PATH, creators: [DOE], subjects: [], publicationYear: 2020 };
  const cases: [string, string][] = [
    ["Soil cores.", "Soil cores [Dataset]."],
    ["Is it done?", "Is it done? [Dataset]."],
    ["Wow!", "Wow! [Dataset]."],
    ["And so on...", "And so on... [Dataset]."],
    ["Quakes in the U.S.", "Quakes in the U.S. [Dataset]."],
  ];
  for (const [title, expected] of cases) {
    const apa = await formatCitation({ ...base, title }, "apa");
    assert.ok(apa.includes(`(2020). ${expected}`), apa);
    assert.doesNotMatch(apa, /[^.]\.\.(?!\.)|\.\s+\./, apa);
  }
});

Deno.test("apa: without a date the link stands alone (no bare 'Retrieved')", async () => {
  const apa = await formatCitation(
    { path: PATH, title: "Wow!", creators: [DOE], subjects: [], ark: "ark:/87946/p3f2r7" },
    "apa",
  );
  assert.equal(apa, "Doe, J. (n.d.). Wow! [Dataset]. https://n2t.net/ark:/87946/p3f2r7");
});

Deno.test("apa: hyphenated given names keep an initial for each part", async () => {
  const person = (family: string, given: string): Creator => ({
    name: `${family}, ${given}`,
    family,
    given,
  });
  const apa = await formatCitation({
    path: PATH,
    title: "T",
    subjects: [],
    creators: [
      person("Lee", "Min-jun"),
      person("Dupont", "Jean-Baptiste"),
      person("Chang", "Yi\u2010Chun"),
      person("Kim", "Ji-yeon Soo"),
    ],
  }, "apa");
  assert.ok(apa.startsWith("Lee, M.-J., Dupont, J.-B., Chang, Y.-C., & Kim, J.-Y. S. (n.d.)"), apa);
  // DataCite's form gives the same initials.
  assert.ok(
    dataciteCitation({ path: PATH, title: "T", subjects: [], creators: [person("Lee", "Min-jun")] })
      .startsWith("Lee, M.-J. T."),
  );
});

Deno.test("datacite: a Chinese, Japanese or Korean name is written whole, family name first", () => {
  const creators: Creator[] = [
    { name: "李, 明", family: "李", given: "明" },
    { name: "김, 민준", family: "김", given: "민준" },
    { name: "Иванов, Иван", family: "Иванов", given: "Иван" },
  ];
  assert.equal(
    dataciteCitation({ path: "", title: "数据", creators, subjects: [], publicationYear: 2020 }),
    "李明, 김민준, Иванов, И. (2020). 数据.",
  );
});

Deno.test("ris: an organisation whose name holds a comma stays one organisation for Zotero's and citation-js's readers", async () => {
  const ris = await formatCitation(
    { path: PATH, title: "T", creators: [DOE, ARIZONA, USGS], subjects: [] },
    "ris",
  );
  const authors = ris.split("\n").filter((line) => line.startsWith("AU  - "));
  assert.deepEqual(authors, [
    "AU  - Doe, Jane",
    "AU  - University of Arizona Tucson",
    "AU  - U.S. Geological Survey Earthquake Hazards Program",
  ]);
  // Zotero's RIS reader (zotero/translators RIS.js) splits AU at every comma and takes a
  // value that does not split as an organisation.
  const zotero = authors.map((line) => line.slice(6).split(/\s*,\s*/));
  assert.deepEqual(zotero.map((parts) => parts.length), [2, 1, 1]);
  assert.deepEqual((await readBack(ris)).author, [
    { family: "Doe", given: "Jane" },
    { literal: "University of Arizona Tucson" },
    { literal: "U.S. Geological Survey Earthquake Hazards Program" },
  ]);
  // BibTeX, CSL-JSON and CFF keep the name exactly, braced whole in BibTeX.
  const bibtex = await formatCitation(
    { path: PATH, title: "T", creators: [ARIZONA], subjects: [] },
    "bibtex",
  );
  assert.ok(bibtex.includes("\tauthor = {{University of Arizona, Tucson}},"), bibtex);
});
