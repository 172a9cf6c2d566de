/**
 * Excel workbooks read over loopback from the embedded server: a workbook of two sheets written
 * here as Excel writes one (shared strings, a styles part whose number formats mark dates,
 * booleans, error cells, missing cells and rows), each sheet read with typed columns.
 */
import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { BadRequestError } from "../../lib/client/errors.ts";
import { ParseError, UnsupportedFormatError } from "../../lib/data/errors.ts";
import { loadFflateModule } from "../../lib/deps.ts";
import type { TableOptions } from "../../lib/data/options.ts";
import { DATA, dataStore } from "./_store.ts";

const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** Two sheets, "Stations" and "Readings", laid out as Excel lays a workbook out. */
async function twoSheetWorkbook(): Promise<Uint8Array> {
  const { zipSync, strToU8 } = await loadFflateModule();
  const xml = (body: string) =>
    strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);
  const s = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
  const n = (ref: string, value: number, style = 0) =>
    `<c r="${ref}"${style ? ` s="${style}"` : ""}><v>${value}</v></c>`;
  const b = (ref: string, value: 0 | 1) => `<c r="${ref}" t="b"><v>${value}</v></c>`;
  return zipSync({
    "[Content_Types].xml": xml(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    "xl/workbook.xml": xml(
      `<workbook ${MAIN} ${R}><workbookPr/><sheets>` +
        '<sheet name="Stations" sheetId="1" r:id="rId1"/>' +
        '<sheet name="Readings" sheetId="2" r:id="rId2"/></sheets></workbook>',
    ),
    "xl/_rels/workbook.xml.rels": xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId2" Target="worksheets/sheet2.xml"/>' +
        '<Relationship Id="rId1" Target="/xl/worksheets/sheet1.xml"/>' +
        '<Relationship Id="rId3" Target="styles.xml"/></Relationships>',
    ),
    // Rich text (two runs) and a phonetic guide, which is not part of the text.
    "xl/sharedStrings.xml": xml(
      `<sst ${MAIN} count="9" uniqueCount="9">` +
        "<si><t>station</t></si><si><t>depth</t></si><si><t>ratio</t></si>" +
        "<si><t>active</t></si><si><t>opened</t></si><si><t>checked</t></si>" +
        '<si><r><t>North </t></r><r><rPr><b/></rPr><t xml:space="preserve">&amp; East</t></r></si>' +
        "<si><t>South</t><rPh><t>サウス</t></rPh></si><si><t>note</t></si></sst>",
    ),
    // Style 1: built-in format 14 (a date); style 2: a custom date-time; style 3: a
    // percentage (a number, not a date).
    "xl/styles.xml": xml(
      `<styleSheet ${MAIN}><numFmts count="2">` +
        '<numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/>' +
        '<numFmt numFmtId="165" formatCode="0.0%"/></numFmts>' +
        '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
        '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/>' +
        '<xf numFmtId="165"/></cellXfs></styleSheet>',
    ),
    "xl/worksheets/sheet1.xml": xml(
      `<worksheet ${MAIN}><sheetData>` +
        `<row r="1">${s("A1", 0)}${s("B1", 1)}${s("C1", 2)}${s("D1", 3)}${s("E1", 4)}` +
        `${s("F1", 5)}${s("G1", 8)}</row>` +
        // 45306 is 2024-01-15; 45306.5 is noon that day.
        `<row r="2">${s("A2", 6)}${n("B2", 12)}${n("C2", 0.25, 3)}${b("D2", 1)}` +
        `${n("E2", 45306, 1)}${n("F2", 45306.5, 2)}` +
        '<c r="G2" t="inlineStr"><is><t>first</t></is></c></row>' +
        // Row 3 is missing altogether: an empty row.
        `<row r="4">${s("A4", 7)}${n("B4", 7)}${n("C4", 1.5, 3)}${b("D4", 0)}` +
        `${n("E4", 45307, 1)}<c r="F4" t="e"><v>#N/A</v></c></row>` +
        "</sheetData></worksheet>",
    ),
    // Prefixed tags (as the .NET Open XML SDK writes them) and cells without references.
    "xl/worksheets/sheet2.xml": xml(
      '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
        '<x:sheetData><x:row><x:c t="str"><x:v>when</x:v></x:c><x:c t="str"><x:v>value</x:v>' +
        '</x:c></x:row><x:row><x:c t="str"><x:v>2024-01-15</x:v></x:c><x:c><x:v>1.5</x:v>' +
        '</x:c></x:row><x:row><x:c t="str"><x:v>later</x:v></x:c><x:c t="str"><x:v>n/a</x:v>' +
        "</x:c></x:row></x:sheetData></x:worksheet>",
    ),
  });
}

const BOOK = `${DATA}/stations.xlsx`;

Deno.test("an .xlsx with two sheets reads both, its columns typed", async () => {
  const workbook = await twoSheetWorkbook();
  await using served = await dataStore({ [BOOK]: workbook, [`${DATA}/export`]: workbook });
  const store = served.connect();
  const file = store.file(BOOK);
  assert.deepEqual(await file.sheets(), ["Stations", "Readings"]);

  const stations = await file.dataframe();
  assert.deepEqual(stations.columns, [
    "station",
    "depth",
    "ratio",
    "active",
    "opened",
    "checked",
    "note",
  ]);
  const types = stations.dtypes.map(String);
  assert.deepEqual(types, [
    String(pl.String),
    String(pl.Int64),
    String(pl.Float64),
    String(pl.Bool),
    String(pl.Date),
    String(pl.Datetime("ms")),
    String(pl.String),
  ]);
  assert.deepEqual(stations.getColumn("station").toArray(), ["North & East", null, "South"]);
  assert.deepEqual(stations.getColumn("depth").toArray(), [12, null, 7]);
  assert.deepEqual(stations.getColumn("ratio").toArray(), [0.25, null, 1.5]);
  assert.deepEqual(stations.getColumn("active").toArray(), [true, null, false]);
  const day = (iso: string) => new Date(iso).getTime();
  const dates = stations.getColumn("opened").toArray() as unknown as (Date | null)[];
  assert.deepEqual(dates.map((d) => d?.getTime() ?? null), [
    day("2024-01-15"),
    null,
    day("2024-01-16"),
  ]);
  const checked = stations.getColumn("checked").toArray() as unknown as (Date | null)[];
  assert.deepEqual(checked.map((d) => d?.getTime() ?? null), [
    day("2024-01-15T12:00:00Z"),
    null,
    null, // #N/A
  ]);
  assert.deepEqual(stations.getColumn("note").toArray(), ["first", null, null]);

  const readings = await file.dataframe({ sheet: "Readings" });
  assert.deepEqual(readings.columns, ["when", "value"]);
  // A column of numbers and text is text, as pandas keeps it as objects.
  assert.deepEqual(readings.getColumn("value").toArray(), ["1.5", "n/a"]);
  assert.ok((await file.dataframe({ sheet: 1 })).frameEqual(readings));

  // Reader options apply as to any format.
  const some = await file.dataframe({ columns: ["station", "depth"], nRows: 1 });
  assert.deepEqual(some.rows(), [["North & East", 12]]);
  const renamed = await file.dataframe({ sheet: 1, hasHeader: false });
  assert.deepEqual(renamed.columns, ["column_1", "column_2"]);
  assert.equal(renamed.height, 3);

  // A name that does not say: the zip's first entries do.
  assert.ok((await store.file(`${DATA}/export`).dataframe()).frameEqual(stations));
});

Deno.test("scan() of a workbook takes dataframe()'s sheet, hasHeader, columns and dtypes, with a cache and without", async () => {
  const workbook = await twoSheetWorkbook();
  await using served = await dataStore({ [BOOK]: workbook, [`${DATA}/export`]: workbook });
  const options: TableOptions[] = [
    { sheet: "Readings" },
    { sheet: 1, hasHeader: false, dtypes: { column_2: pl.Utf8 } },
    { columns: ["station", "depth"], dtypes: { depth: pl.Float64 } },
  ];
  for (const cacheDir of [undefined, false] as const) {
    const store = served.connect({ progress: false, ...(cacheDir === false && { cacheDir }) });
    // A name that says Excel is read as dataframe() reads it; one that does not is found in
    // the cached copy's bytes (or read whole without a cache).
    for (const path of [BOOK, `${DATA}/export`]) {
      const file = store.file(path);
      for (const given of options) {
        const expected = await file.dataframe(given);
        const scanned = await (await file.scan(given)).collect();
        assert.ok(scanned.frameEqual(expected), `${path} ${JSON.stringify(given)}`);
      }
    }
  }
});

Deno.test("a column of times of day (format h:mm) is a Time column, not dates in 1899", async () => {
  const { zipSync, strToU8 } = await loadFflateModule();
  const xml = (body: string) =>
    strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);
  const text = (ref: string, value: string) =>
    `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
  const n = (ref: string, value: number) => `<c r="${ref}" s="1"><v>${value}</v></c>`;
  const book = zipSync({
    "xl/workbook.xml": xml(
      `<workbook ${MAIN} ${R}><sheets><sheet name="Log" sheetId="1" r:id="rId1"/></sheets>` +
        "</workbook>",
    ),
    "xl/_rels/workbook.xml.rels": xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    // Style 1: built-in format 21, h:mm:ss.
    "xl/styles.xml": xml(
      `<styleSheet ${MAIN}><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="21"/></cellXfs>` +
        "</styleSheet>",
    ),
    "xl/worksheets/sheet1.xml": xml(
      `<worksheet ${MAIN}><sheetData>` +
        `<row r="1">${text("A1", "at")}${text("B1", "when")}</row>` +
        // 0.4375 of a day is 10:30; 45306.5 is noon on 2024-01-15.
        `<row r="2">${n("A2", 0.4375)}${n("B2", 0.5)}</row>` +
        `<row r="3">${n("B3", 45306.5)}</row>` +
        `<row r="4">${n("A4", 0.999988425925926)}</row>` +
        "</sheetData></worksheet>",
    ),
  });
  await using served = await dataStore({ [`${DATA}/log.xlsx`]: book });
  const frame = await served.connect().file(`${DATA}/log.xlsx`).dataframe();
  assert.deepEqual(frame.dtypes, [pl.Time, pl.String]);
  assert.deepEqual(frame.getColumn("at").toArray(), ["10:30:00", null, "23:59:59"]);
  // Times and dates in one column: text, each as written.
  assert.deepEqual(frame.getColumn("when").toArray(), [
    "12:00:00",
    "2024-01-15T12:00:00.000",
    null,
  ]);
});

Deno.test("an empty text cell (pandas' to_excel writes NaN so) is null, not text", async () => {
  const { zipSync, strToU8 } = await loadFflateModule();
  const xml = (body: string) =>
    strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);
  const text = (ref: string, value: string) =>
    `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
  const empty = (ref: string) => `<c r="${ref}" t="inlineStr"></c>`;
  const n = (ref: string, value: number) => `<c r="${ref}" t="n"><v>${value}</v></c>`;
  const book = zipSync({
    "xl/workbook.xml": xml(
      `<workbook ${MAIN} ${R}><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets>` +
        "</workbook>",
    ),
    "xl/_rels/workbook.xml.rels": xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    "xl/sharedStrings.xml": xml(`<sst ${MAIN}><si><t></t></si></sst>`),
    // As pandas 1.5 writes a frame with openpyxl: the index first, under an empty header cell.
    "xl/worksheets/sheet1.xml": xml(
      `<worksheet ${MAIN}><sheetData>` +
        `<row r="1">${text("B1", "site")}${text("C1", "value")}</row>` +
        `<row r="2">${n("A2", 10)}${text("B2", "a")}${n("C2", 1.5)}</row>` +
        `<row r="3">${n("A3", 20)}${text("B3", "b")}${empty("C3")}</row>` +
        `<row r="4">${n("A4", 30)}<c r="B4" t="s"><v>0</v></c>${n("C4", 3)}</row>` +
        "</sheetData></worksheet>",
    ),
  });
  await using served = await dataStore({ [`${DATA}/pandas.xlsx`]: book });
  const frame = await served.connect().file(`${DATA}/pandas.xlsx`).dataframe();
  assert.deepEqual(frame.columns, ["Unnamed: 0", "site", "value"]);
  assert.deepEqual(frame.dtypes, [pl.Int64, pl.String, pl.Float64]);
  assert.deepEqual(frame.getColumn("site").toArray(), ["a", "b", null]);
  assert.deepEqual(frame.getColumn("value").toArray(), [1.5, null, 3]);
});

Deno.test("skipRows drops a sheet's title block before its header, as pandas' read_excel(skiprows=n)", async () => {
  const { zipSync, strToU8 } = await loadFflateModule();
  const xml = (body: string) => strToU8(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  const text = (ref: string, value: string) =>
    `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
  const book = zipSync({
    "xl/workbook.xml": xml(
      `<workbook ${MAIN} ${R}><sheets><sheet name="Survey" sheetId="1" r:id="rId1"/></sheets>` +
        "</workbook>",
    ),
    "xl/_rels/workbook.xml.rels": xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    // A title in row 1, row 2 left out of the file (empty), the header in row 3.
    "xl/worksheets/sheet1.xml": xml(
      `<worksheet ${MAIN}><sheetData>` +
        `<row r="1">${text("A1", "Station survey 2024")}</row>` +
        `<row r="3">${text("A3", "station")}${text("B3", "depth")}</row>` +
        `<row r="4">${text("A4", "North")}<c r="B4"><v>12</v></c></row>` +
        `<row r="5">${text("A5", "South")}<c r="B5"><v>7</v></c></row>` +
        "</sheetData></worksheet>",
    ),
  });
  await using served = await dataStore({ [`${DATA}/survey.xlsx`]: book });
  const file = served.connect().file(`${DATA}/survey.xlsx`);
  for (
    const frame of [
      await file.dataframe({ skipRows: 2 }),
      await file.dataframe({ skipRows: 2, sheet: "Survey" }),
      await (await file.scan({ skipRows: 2 })).collect(),
    ]
  ) {
    assert.deepEqual(frame.columns, ["station", "depth"]);
    assert.deepEqual(frame.dtypes, [pl.String, pl.Int64]);
    assert.deepEqual(frame.getColumn("depth").toArray(), [12, 7]);
  }
  const headless = await file.dataframe({ skipRows: 3, hasHeader: false });
  assert.deepEqual(headless.columns, ["column_1", "column_2"]);
  assert.deepEqual(headless.getColumn("column_1").toArray(), ["North", "South"]);
  // Past the last row: an empty frame, as an empty sheet reads.
  assert.equal((await file.dataframe({ skipRows: 9 })).height, 0);
});

Deno.test("a sheet that is not there is a typed error naming the sheets there are", async () => {
  await using served = await dataStore({ [BOOK]: await twoSheetWorkbook() });
  const file = served.connect().file(BOOK);
  await assert.rejects(file.dataframe({ sheet: "Stasions" }), (error: unknown) => {
    assert.ok(error instanceof BadRequestError);
    assert.equal(
      error.message,
      `"${BOOK}" has no sheet "Stasions"; its sheets are 0: "Stations", 1: "Readings".`,
    );
    return true;
  });
  await assert.rejects(file.dataframe({ sheet: 2 }), /has no sheet 2; its sheets are 0: "Stat/);
  await assert.rejects(file.dataframe({ sheet: -1 }), {
    name: "BadRequestError",
    message: "file.dataframe(): sheet must be a sheet name or a position counting from 0, got -1.",
  });
});

Deno.test("a zip that is no workbook and an old .xls are refused by name", async () => {
  const { zipSync, strToU8 } = await loadFflateModule();
  const zip = zipSync({ "notes/readme.txt": strToU8("hello") });
  const ole2 = new Uint8Array([
    0xd0,
    0xcf,
    0x11,
    0xe0,
    0xa1,
    0xb1,
    0x1a,
    0xe1,
    ...new Uint8Array(504),
  ]);
  await using served = await dataStore({
    [`${DATA}/fake.xlsx`]: zip,
    [`${DATA}/bundle.zip`]: zip,
    [`${DATA}/old.xls`]: ole2,
  });
  const store = served.connect();
  await assert.rejects(store.file(`${DATA}/fake.xlsx`).dataframe(), {
    name: "ParseError",
    message: `Could not read "${DATA}/fake.xlsx" as an Excel workbook: it has no xl/workbook.xml.`,
  });
  await assert.rejects(store.file(`${DATA}/fake.xlsx`).sheets(), ParseError);
  await assert.rejects(store.file(`${DATA}/bundle.zip`).dataframe(), /ZIP archive \(unpack it/);
  await assert.rejects(store.file(`${DATA}/old.xls`).dataframe(), (error: unknown) => {
    assert.ok(error instanceof UnsupportedFormatError);
    assert.match(error.message, /Excel 97-2003 workbook \(save it as \.xlsx/);
    return true;
  });
});

/** A one-sheet workbook whose sheet data is `rows` (row elements, as Excel writes them). */
async function oneSheetWorkbook(rows: string): Promise<Uint8Array> {
  const { zipSync, strToU8 } = await loadFflateModule();
  return zipSync({
    "xl/workbook.xml": strToU8(
      `<workbook ${MAIN} ${R}><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    "xl/worksheets/sheet1.xml": strToU8(
      `<worksheet ${MAIN}><sheetData>${rows}</sheetData></worksheet>`,
    ),
  });
}

Deno.test("a row or cell referenced past Excel's bounds is refused, not filled in; a long sheet reads", async () => {
  const header = '<row r="1"><c r="A1" t="str"><v>n</v></c></row>';
  const rows = 200_000;
  let long = header;
  for (let row = 2; row <= rows + 1; row++) long += `<row><c><v>${row}</v></c></row>`;
  await using served = await dataStore({
    // A few hundred bytes that name row 10^9, and column ZZZZZZ (over 300 million).
    [`${DATA}/far_row.xlsx`]: await oneSheetWorkbook(
      `${header}<row r="1000000000"><c><v>1</v></c></row>`,
    ),
    [`${DATA}/far_column.xlsx`]: await oneSheetWorkbook(
      `${header}<row><c r="ZZZZZZ2"><v>1</v></c></row>`,
    ),
    [`${DATA}/long.xlsx`]: await oneSheetWorkbook(long),
    // One row more than Excel holds, none of them numbered.
    [`${DATA}/too_long.xlsx`]: await oneSheetWorkbook("<row/>".repeat(1_048_577)),
  });
  const store = served.connect();
  await assert.rejects(store.file(`${DATA}/far_row.xlsx`).dataframe(), {
    name: "ParseError",
    message: `Could not read "${DATA}/far_row.xlsx" as an Excel workbook: a row is numbered ` +
      `"1000000000", past Excel's 1 to 1,048,576.`,
  });
  await assert.rejects(store.file(`${DATA}/far_column.xlsx`).dataframe(), {
    name: "ParseError",
    message: `Could not read "${DATA}/far_column.xlsx" as an Excel workbook: a cell is at ` +
      `"ZZZZZZ2", past Excel's columns A to XFD.`,
  });
  await assert.rejects(store.file(`${DATA}/too_long.xlsx`).dataframe(), {
    name: "ParseError",
    message: `Could not read "${DATA}/too_long.xlsx" as an Excel workbook: its sheet has more ` +
      "rows than Excel's 1,048,576.",
  });
  const frame = await store.file(`${DATA}/long.xlsx`).dataframe();
  assert.equal(frame.height, rows);
  assert.equal(frame.getColumn("n").sum(), (rows + 1) * (rows + 2) / 2 - 1);
});
