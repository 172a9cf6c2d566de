import assert from "node:assert/strict";
import fc from "fast-check";
import {
  initials,
  type NamedParty,
  normalizeOrcid,
  orcidCheckDigit,
  parseName,
  samePerson,
  uniquePeople,
} from "../../lib/metadata/names.ts";
import { normalizeMetadata } from "../../lib/metadata/normalize.ts";

/** A capitalised name word, Latin letters with some accents, apostrophes and hyphens. */
const nameWord = fc.tuple(
  fc.constantFrom(..."ABCDEFGHIJKLMNOPRSTUVWYZÉÖØÅŁ"),
  fc.stringMatching(/^[a-zäéöüñç]{1,9}$/),
  fc.constantFrom("", "", "", "-Anne", "'s"),
).map(([first, rest, tail]) => `${first}${rest}${tail}`).filter((word) =>
  !["Program", "Group", "Team", "Survey", "Trust", "Board"].includes(word)
);
const initial = fc.constantFrom(..."ABCDEFGHJKLMNPRSTW").map((letter) => `${letter}.`);
const givenNames = fc.array(fc.oneof(nameWord, initial), { minLength: 1, maxLength: 3 })
  .map((words) => words.join(" "));

Deno.test("people: Family, Given and Given Family, with particles and suffixes", () => {
  const cases: [string, ReturnType<typeof parseName>][] = [
    ["Gorman, Kristen B.", { name: "Gorman, Kristen B.", family: "Gorman", given: "Kristen B." }],
    ["Powers, LeRoy", { name: "Powers, LeRoy", family: "Powers", given: "LeRoy" }],
    ["Immer, F. R.", { name: "Immer, F. R.", family: "Immer", given: "F. R." }],
    ["Bosheng Li", { name: "Bosheng Li", family: "Li", given: "Bosheng" }],
    ["Jan van der Berg", { name: "Jan van der Berg", family: "van der Berg", given: "Jan" }],
    ["van der Berg, Jan", { name: "van der Berg, Jan", family: "van der Berg", given: "Jan" }],
    ["Ludwig van Beethoven", {
      name: "Ludwig van Beethoven",
      family: "van Beethoven",
      given: "Ludwig",
    }],
    ["Martin Luther King Jr.", {
      name: "Martin Luther King Jr.",
      family: "King",
      given: "Martin Luther",
      suffix: "Jr.",
    }],
    ["King, Martin Luther, Jr.", {
      name: "King, Martin Luther, Jr.",
      family: "King",
      given: "Martin Luther",
      suffix: "Jr.",
    }],
    ["Martin Luther King, Jr.", {
      name: "Martin Luther King, Jr.",
      family: "King",
      given: "Martin Luther",
      suffix: "Jr.",
    }],
    ["  Howard-Varona,\tCristina  ", {
      name: "Howard-Varona, Cristina",
      family: "Howard-Varona",
      given: "Cristina",
    }],
    ["O'Brien, Seán", { name: "O'Brien, Seán", family: "O'Brien", given: "Seán" }],
    ["Li, Bosheng,", { name: "Li, Bosheng", family: "Li", given: "Bosheng" }],
  ];
  for (const [written, expected] of cases) assert.deepEqual(parseName(written), expected, written);
});

Deno.test("Chinese, Japanese and Korean names written with a space are family name first, and cite so", async () => {
  assert.deepEqual(parseName("李 小龍"), { name: "李 小龍", family: "李", given: "小龍" });
  assert.deepEqual(parseName("山田 太郎"), { name: "山田 太郎", family: "山田", given: "太郎" });
  assert.deepEqual(parseName("김 철수"), { name: "김 철수", family: "김", given: "철수" });
  // Written with a comma, or in Latin letters, the usual rules hold.
  assert.deepEqual(parseName("小龍, 李"), { name: "小龍, 李", family: "小龍", given: "李" });
  assert.deepEqual(parseName("Xiaolong Li"), {
    name: "Xiaolong Li",
    family: "Li",
    given: "Xiaolong",
  });
  const metadata = await normalizeMetadata([
    { attr: "title", value: "Soil" },
    { attr: "creator", value: "李 小龍" },
    { attr: "publicationYear", value: "2020" },
  ]);
  assert.match(await metadata.citation("apa"), /^李小龍\. \(2020\)/);
});

Deno.test("titles before a name and degrees after it are no part of the given or family name", async () => {
  const person = (value: string) => {
    const { family, given } = parseName(value);
    return [family, given];
  };
  assert.deepEqual(person("Dr. Jane Doe"), ["Doe", "Jane"]);
  assert.deepEqual(person("Prof John Smith"), ["Smith", "John"]);
  assert.deepEqual(person("Professor Ada King"), ["King", "Ada"]);
  assert.deepEqual(person("Jane Doe, PhD"), ["Doe", "Jane"]);
  assert.deepEqual(person("Jane Doe, Ph.D."), ["Doe", "Jane"]);
  assert.deepEqual(person("Doe, Jane, PhD"), ["Doe", "Jane"]);
  assert.deepEqual(person("Dr. Doe, Jane M., M.D."), ["Doe", "Jane M."]);
  assert.deepEqual(person("Jane Doe, PhD, MD"), ["Doe", "Jane"]);
  assert.deepEqual(person("Yan, Ma"), ["Yan", "Ma"]);
  // After a lone family name, capitals are the given name's initials, not a degree.
  assert.deepEqual(person("Doe, MA"), ["Doe", "MA"]);
  assert.deepEqual(person("Lee, MD"), ["Lee", "MD"]);
  assert.deepEqual(person("Doe, MA, PhD"), ["Doe", "MA"]);
  // The name as written is kept; a lone title is no person.
  assert.equal(parseName("Dr. Jane Doe").name, "Dr. Jane Doe");
  assert.deepEqual(parseName("Dr. Who"), { name: "Dr. Who" });
  const metadata = await normalizeMetadata([
    { attr: "title", value: "Soil" },
    { attr: "creator", value: "Dr. Jane Doe" },
    { attr: "creator", value: "John Smith, PhD" },
    { attr: "publicationYear", value: "2020" },
  ]);
  assert.match(await metadata.citation("apa"), /^Doe, J\., & Smith, J\. \(2020\)/);
});

Deno.test("a creator value listing people with commas is those people; one person stays one", async () => {
  const creators = async (value: string) => {
    const metadata = await normalizeMetadata([{ attr: "creator", value }]);
    return metadata.creators.map(({ family, given }) => `${family ?? "?"}|${given ?? "?"}`);
  };
  const cases: [string, string[]][] = [
    ["Jane Doe, John Smith", ["Doe|Jane", "Smith|John"]],
    ["Jane Doe,John Smith, Ann Lee", ["Doe|Jane", "Smith|John", "Lee|Ann"]],
    ["Jane Doe, John Smith, and Ann Lee", ["Doe|Jane", "Smith|John", "Lee|Ann"]],
    ["J. Doe, K. Smith", ["Doe|J.", "Smith|K."]],
    ["John Smith Jr., Jane Doe", ["Smith|John", "Doe|Jane"]],
    ["Doe, Jane, Smith, John", ["Doe|Jane", "Smith|John"]],
    ["van der Berg, Jan, Smith, J. K.", ["van der Berg|Jan", "Smith|J. K."]],
    ["Doe JK, Smith J", ["Doe|J. K.", "Smith|J."]], // Vancouver style
    // One person each:
    ["Doe, Jane", ["Doe|Jane"]],
    ["Smith, John Paul", ["Smith|John Paul"]],
    ["Jane Doe, PhD", ["Doe|Jane"]],
    ["Martin Luther King, Jr.", ["King|Martin Luther"]],
    ["van Dijk Smit, Jan Piet", ["van Dijk Smit|Jan Piet"]],
    ["Smith Jones, J. K.", ["Smith Jones|J. K."]],
    ["University of Arizona, Tucson", ["?|?"]],
    ["Jane Doe et al.", ["?|?"]], // no family name "al."
  ];
  for (const [value, expected] of cases) assert.deepEqual(await creators(value), expected, value);
  // Two whole names may be one "Family Family, Given Given": the record says how it was read.
  const two = await normalizeMetadata([{ attr: "creator", value: "Jane Doe, John Smith" }]);
  assert.deepEqual(two.notes, [
    'creators: "Jane Doe, John Smith" read as 2 people; if it names one, store its familyName ' +
    "and givenName",
  ]);
  const cited = await normalizeMetadata([
    { attr: "title", value: "Soil" },
    { attr: "creator", value: "Jane Doe, John Smith" },
    { attr: "publicationYear", value: "2020" },
  ]);
  assert.match(await cited.citation("apa"), /^Doe, J\., & Smith, J\. \(2020\)/);
  assert.match(await cited.citation("bibtex"), /author = \{Doe, Jane and Smith, John\}/);
});

Deno.test("organisations and unclear names stay whole", () => {
  for (
    const name of [
      "U.S. Geological Survey, Earthquake Hazards Program",
      "U.S. Department of Transportation, Bureau of Transportation Statistics",
      "Gapminder Foundation",
      "NOAA National Centers for Environmental Information",
      "Scripps CO2 Program",
      "University of Minnesota, Agricultural Experiment Station",
      "Purdue University",
      "Plato",
      "CyVerse",
      "Smith, J., Doe, A.",
      "Jane Doe & John Smith",
      "A B C D E F G",
      "",
    ]
  ) {
    assert.deepEqual(parseName(name), { name }, name);
  }
});

Deno.test("DataCite name hints win over guessing", () => {
  assert.deepEqual(parseName("Li Bosheng", { family: "Li", given: "Bosheng" }), {
    name: "Li Bosheng",
    family: "Li",
    given: "Bosheng",
  });
  assert.deepEqual(parseName("", { family: "Li", given: "Bosheng" }), {
    name: "Li, Bosheng",
    family: "Li",
    given: "Bosheng",
  });
  assert.deepEqual(parseName("Smith, John", { nameType: "Organizational" }), {
    name: "Smith, John",
  });
  assert.deepEqual(parseName("Smith, John", { nameType: "Personal" }), {
    name: "Smith, John",
    family: "Smith",
    given: "John",
  });
});

Deno.test("property: Family, Given round-trips", () => {
  fc.assert(fc.property(nameWord, givenNames, fc.constantFrom(", ", ",", " ,  "), (f, g, sep) => {
    const parsed = parseName(`${f}${sep}${g}`);
    assert.equal(parsed.family, f);
    assert.equal(parsed.given, g);
    assert.equal(parsed.name, `${f}, ${g}`.replace(/\s+/g, " "));
  }));
});

Deno.test("property: Given Family round-trips, and the name is kept as written", () => {
  fc.assert(fc.property(givenNames, nameWord, (g, f) => {
    const parsed = parseName(` ${g}  ${f} `);
    assert.equal(parsed.family, f);
    assert.equal(parsed.given, g);
    assert.equal(parsed.name, `${g} ${f}`);
    // Parsing the canonical "Family, Given" again gives the same person.
    const again = parseName(`${parsed.family}, ${parsed.given}`);
    assert.equal(again.family, f);
    assert.equal(again.given, g);
  }));
});

Deno.test("property: a name with an organisation word is never split", () => {
  fc.assert(fc.property(
    givenNames,
    fc.constantFrom("University", "Institute", "Survey", "Foundation", "Laboratory", "Program"),
    fc.constantFrom((a: string, b: string) => `${a} ${b}`, (a: string, b: string) => `${b}, ${a}`),
    (words, organisation, join) => {
      const name = join(words, organisation);
      assert.deepEqual(parseName(name), { name });
    },
  ));
});

Deno.test("initials, as citations print them", () => {
  assert.equal(initials("Kristen B."), "K. B.");
  assert.equal(initials("Jean-Luc"), "J.-L.");
  assert.equal(initials("J.R.R."), "J. R. R.");
  assert.equal(initials("LeRoy"), "L.");
  assert.equal(initials("élodie"), "É.");
  assert.equal(initials(""), "");
  fc.assert(fc.property(
    fc.array(nameWord.filter((w) => !w.includes("-")), {
      minLength: 1,
      maxLength: 4,
    }),
    (words) => {
      const result = initials(words.join(" "));
      assert.equal(result.split(" ").length, words.length);
      assert.match(result, /^(\p{Lu}\. )*\p{Lu}\.$/u);
    },
  ));
});

/** Valid ORCID iDs made from 15 random digits and their check character. */
const orcid = fc.stringMatching(/^\d{15}$/).map((digits) => {
  const all = `${digits}${orcidCheckDigit(digits)}`;
  return all.match(/.{4}/g)!.join("-");
});

Deno.test("ORCID iDs: check digit, spellings, refusals", () => {
  assert.equal(orcidCheckDigit("000000021825009"), "7");
  assert.equal(orcidCheckDigit("000000021694233"), "X");
  assert.equal(normalizeOrcid("0000-0002-1825-0097"), "0000-0002-1825-0097");
  assert.equal(normalizeOrcid("https://orcid.org/0000-0002-1825-0097/"), "0000-0002-1825-0097");
  assert.equal(normalizeOrcid("ORCID: 0000 0002 1825 0097"), "0000-0002-1825-0097");
  assert.equal(normalizeOrcid("0000-0002-1694-233x"), "0000-0002-1694-233X");
  assert.equal(normalizeOrcid("0000-0002-1825-0098"), undefined);
  assert.equal(normalizeOrcid("https://sandbox.orcid.org/0000-0002-1825-0097"), undefined);
  assert.equal(normalizeOrcid("0000-0002-1825"), undefined);
  assert.equal(normalizeOrcid(""), undefined);
});

Deno.test("property: every spelling of a valid ORCID iD normalises to it", () => {
  fc.assert(fc.property(
    orcid,
    fc.constantFrom(
      (id: string) => id,
      (id: string) => id.replaceAll("-", ""),
      (id: string) => `https://orcid.org/${id}`,
      (id: string) => `http://www.orcid.org/${id}`,
      (id: string) => `orcid.org/${id}`,
      (id: string) => `ORCID ${id}`,
      (id: string) => ` ${id.toLowerCase()}\t`,
    ),
    (id, spell) => assert.equal(normalizeOrcid(spell(id)), id),
  ));
});

Deno.test("property: changing one digit of an ORCID iD is always caught", () => {
  fc.assert(fc.property(orcid, fc.nat(15), fc.integer({ min: 1, max: 9 }), (id, at, bump) => {
    const digits = id.replaceAll("-", "").split("");
    const position = at;
    if (digits[position] === "X") return;
    digits[position] = String((Number(digits[position]) + bump) % 10);
    assert.equal(normalizeOrcid(digits.join("")), undefined);
  }));
});

Deno.test("samePerson: spellings of one person agree; namesakes and other iDs do not", () => {
  const same: [string, string][] = [
    ["Gorman, Kristen B.", "Kristen B. Gorman"],
    ["Gorman, Kristen B.", "gorman,  kristen b"],
    ["Gorman, Kristen B.", "Gorman, K. B."],
    ["Gazitúa, M. Consuelo", "Gazitua, M. Consuelo"],
    ["Li, Yueh-Fen", "Yueh Fen Li"],
    ["Gapminder Foundation", "gapminder foundation"],
    ["King, Martin Luther, Jr.", "Martin Luther King Jr."],
  ];
  for (const [a, b] of same) assert.ok(samePerson(parseName(a), parseName(b)), `${a} = ${b}`);
  const different: [string, string][] = [
    ["Keeling, Charles D.", "Keeling, Ralph F."],
    ["Gorman, Kristen B.", "Gorman, Kristen"],
    ["Gorman, K. B.", "Gorman, K. D."],
    ["Li, Yueh-Fen", "Li, Changying"],
    ["King, Martin Luther, Jr.", "King, Martin Luther"],
    ["Gapminder Foundation", "Gapminder"],
  ];
  for (const [a, b] of different) assert.ok(!samePerson(parseName(a), parseName(b)), `${a} ≠ ${b}`);
  const withId = { ...parseName("Li, Y."), orcid: "0000-0002-1825-0097" };
  assert.ok(samePerson(withId, parseName("Li, Yueh-Fen")) === false); // initials count differs
  assert.ok(samePerson(withId, { ...parseName("Yan Li"), orcid: "0000-0002-1825-0097" }));
  assert.ok(!samePerson(withId, { ...parseName("Li, Y."), orcid: "0000-0002-1694-233X" }));
});

Deno.test("samePerson: property: a person equals every spelling of themself", () => {
  fc.assert(
    fc.property(nameWord, givenNames, (family, given) => {
      const written = parseName(`${family}, ${given}`);
      fc.pre(written.family !== undefined);
      return samePerson(written, parseName(`${family.toUpperCase()}, ${given}`)) &&
        samePerson(written, parseName(`${family},   ${given.replace(/\./g, "")}`));
    }),
  );
});

Deno.test("property: uniquePeople, which compares only entries sharing a key, folds as comparing every pair does", () => {
  // The plain definition: each entry against every one kept before it.
  const pairwise = (people: NamedParty[]) => {
    const kept: NamedParty[] = [];
    for (const person of people) {
      const index = kept.findIndex((earlier) => samePerson(earlier, person));
      if (index < 0) kept.push(person);
      else kept[index] = uniquePeople([kept[index], person])[0];
    }
    return kept;
  };
  const spelling = fc.constantFrom(
    "Gorman, Kristen B.",
    "Kristen B. Gorman",
    "Gorman, K. B.",
    "Gorman, K.",
    "Gorman, Tony",
    "Görman, Kristen",
    "Williams, Tony D.",
    "T. D. Williams",
    "Li, Y.",
    "Li Ying",
    "CyVerse",
    "cyverse",
  );
  const orcid = fc.constantFrom(undefined, "0000-0002-1825-0097", "0000-0002-1694-233X");
  const party = fc.tuple(spelling, orcid).map(([name, id]) => ({
    ...parseName(name),
    ...(id === undefined ? {} : { orcid: id }),
  }));
  fc.assert(
    fc.property(fc.array(party, { maxLength: 12 }), (people) => {
      assert.deepEqual(uniquePeople(people), pairwise(people));
    }),
    { numRuns: 300 },
  );
});
