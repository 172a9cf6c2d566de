import assert from "node:assert/strict";
import fc from "fast-check";
import { firstYear, parseDate, splitList, tidy } from "../../lib/metadata/values.ts";

Deno.test("tidy collapses whitespace of every kind", () => {
  assert.equal(tidy("\t CyVerse \n\n Data\u00a0Commons  "), "CyVerse Data Commons");
  assert.equal(tidy(undefined as unknown as string), "");
});

Deno.test("tidy drops characters that show as nothing, copied along from documents", () => {
  for (
    const invisible of [
      "\u200b",
      "\ufeff",
      "\u2060",
      "\u00ad",
      "\u200e",
      "\u202e",
      "\u2066",
      "\x07",
      "\u200b \ufeff",
    ]
  ) {
    assert.equal(tidy(invisible), "", JSON.stringify(invisible));
  }
  assert.equal(tidy("\ufeffSoil\u200b cores\u202e"), "Soil cores");
  // Joiners stay: emoji sequences and Persian or Indic words need them.
  assert.equal(tidy("می\u200cخواهم"), "می\u200cخواهم");
});

Deno.test("splitList splits outside brackets and drops empty items", () => {
  assert.deepEqual(
    splitList("barley, Hordeum vulgare, variety trials, crop yield, Minnesota", /,/),
    [
      "barley",
      "Hordeum vulgare",
      "variety trials",
      "crop yield",
      "Minnesota",
    ],
  );
  assert.deepEqual(splitList("a;; b ;", /;/), ["a", "b"]);
  assert.deepEqual(splitList("Zea mays (maize, corn), [x, y] z", /,/), [
    "Zea mays (maize, corn)",
    "[x, y] z",
  ]);
  assert.deepEqual(splitList("unbalanced ) paren, b", /,/), ["unbalanced ) paren", "b"]);
});

Deno.test("property: splitList never loses or invents text outside separators", () => {
  fc.assert(fc.property(fc.array(fc.stringMatching(/^[a-z ]{0,8}$/)), (items) => {
    const parts = splitList(items.join(","), /,/);
    assert.deepEqual(parts, items.map(tidy).filter((item) => item !== ""));
  }));
});

Deno.test("years: a year, or the year of a date as people write it, nothing else", () => {
  assert.equal(firstYear("2018"), 2018);
  assert.equal(firstYear(" 2018-06-12"), 2018);
  assert.equal(firstYear("2018/06"), 2018);
  assert.equal(firstYear("2021.1"), 2021);
  // As researchers write dates: month names, seasons, days first, approximate years.
  const written: [string, number][] = [
    ["May 2019", 2019],
    ["may 2019", 2019],
    ["Sept. 2019", 2019],
    ["12 May 2019", 2019],
    ["May 12, 2019", 2019],
    ["1st of May 2019", 2019],
    ["05/01/2019", 2019],
    ["1.5.2019", 2019],
    ["Spring 2019", 2019],
    ["c. 2019", 2019],
    ["ca. 2019", 2019],
    ["circa 2019", 2019],
    ["c.2019", 2019],
    ["ca 2019", 2019],
    ["c2019", 2019],
    ["©2019", 2019],
    ["05/2019", 2019],
    ["20190501", 2019], // ISO 8601's basic form
    ["20190501T120000Z", 2019],
  ];
  for (const [value, year] of written) assert.equal(firstYear(value), year, value);
  for (
    const value of [
      "",
      "n/a",
      "TBD",
      "18",
      "20180",
      "3018",
      "0999",
      "May",
      "Version 2 2019",
      "1/2/3/2019",
      "20191301",
      "201905",
      "1/5/19",
    ]
  ) {
    assert.equal(firstYear(value), undefined, value);
  }
});

Deno.test("dates: ISO dates and times (UTC unless a zone is given), epoch ms or s", () => {
  const iso = (value: string) => parseDate(value)?.toISOString();
  assert.equal(iso("2021-02-16"), "2021-02-16T00:00:00.000Z");
  assert.equal(iso("2021-02-16T21:05:00Z"), "2021-02-16T21:05:00.000Z");
  assert.equal(iso("2021-02-16 21:05"), "2021-02-16T21:05:00.000Z");
  assert.equal(iso("2021-02-16T21:05:00.250+0200"), "2021-02-16T19:05:00.250Z");
  assert.equal(iso("2021-02-16T21:05:00-07:00"), "2021-02-17T04:05:00.000Z");
  assert.equal(iso("1613509500000"), "2021-02-16T21:05:00.000Z");
  assert.equal(iso("1613509500"), "2021-02-16T21:05:00.000Z");
  for (const value of ["", "2021-02-30", "2021-13-01", "16/02/2021", "yesterday", "2021"]) {
    assert.equal(parseDate(value), undefined, value);
  }
});
