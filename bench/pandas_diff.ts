/**
 * A differential test of tern's `dataframe()` against pandas, on messy files as found in the wild.
 *
 * Generates the files (quotes, embedded line breaks, byte-order marks, CRLF, trailing delimiters,
 * missing-value spellings, leading zeros, duplicate and empty column names, other encodings, dates
 * in many forms, pandas' six JSON layouts, JSON Lines, a workbook, gzip; files as tools write them:
 * Excel's `;` CSV with decimal commas, R's `write.csv`, SAS and Stata exports, a units row, MySQL's
 * `\N`, percentages and currency, infinity spelt five ways, ragged NDJSON, a workbook written by
 * pandas' `to_excel`), serves them with the embedded server over loopback, reads each with tern
 * and with pandas (`/usr/bin/python3`, `bench/_pandas_read.py`), and compares the two cell by
 * cell. Columns are paired by position.
 *
 * Every difference is either expected (the case lists it with the reason: a documented choice of
 * tern's, docs/data.md, or a quirk of pandas') or reported as unexpected; the exit code is 1 when
 * any is unexpected. Not part of `deno task test`: it needs pandas (and openpyxl for the workbook)
 * and starts Python once.
 *
 * ```sh
 * deno run -A bench/pandas_diff.ts            # every case
 * deno run -A bench/pandas_diff.ts zip dates  # cases whose name contains a word
 * ```
 *
 * @module
 */

import { gzipSync } from "node:zlib";
import pl from "../polars.ts";
import { connect } from "../mod.ts";
import { startServer } from "../server.ts";
import type { DataFrameOptions } from "../lib/data/options.ts";

const DATA = "/iplant/home/shared/diff";

/** A plain cell both sides are reduced to. */
type Cell = null | boolean | number | string | { date: string } | {
  datetime: string;
  utc?: boolean;
};

/** One file, how each side reads it, and the differences expected, by kind, with their reason. */
interface Case {
  name: string;
  file: string;
  bytes?: Uint8Array | string;
  tern?: DataFrameOptions;
  pandas?: { reader?: string; kwargs?: Record<string, unknown> };
  /** Difference kind (`names`, `shape`, `cell:<column index>`, `error`) → why it is expected. */
  expected?: Record<string, string>;
}

const enc = (text: string) => new TextEncoder().encode(text);
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const utf16le = (text: string) => {
  const out = new Uint8Array(2 + text.length * 2);
  out.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    out[2 + 2 * i] = text.charCodeAt(i) & 0xff;
    out[3 + 2 * i] = text.charCodeAt(i) >> 8;
  }
  return out;
};

const NA_DEFAULT =
  "docs/data.md (Missing values): only empty fields are null; pandas' NA spellings " +
  "stay text unless passed as nullValues";

const INF_TEXT = "docs/data.md (Numbers): only inf, -inf and NaN infer a number column; " +
  "Infinity, INF, Inf keep it text unless typed with dtypes (pandas reads them all)";

/** The cases: each a file as it is found in the wild. */
function cases(): Case[] {
  const long = "x".repeat(200_000);
  return [
    {
      name: "quotes-newlines",
      file: "quotes.csv",
      bytes: 'id,text,n\n1,"a, b",1\n2,"line one\nline two",2\n3,"she said ""hi""",3\n' +
        '4,"",4\n5,plain,5\n',
      expected: {
        "cell:1": 'docs/data.md (Missing values): a quoted empty field "" is the empty string ' +
          "(pandas: NaN)",
      },
    },
    {
      name: "bom-crlf",
      file: "bom.csv",
      bytes: '\ufeffname,value\r\nA,1\r\nB,2\r\n"C\r\nD",3\r\n',
    },
    {
      name: "trailing-delimiter-all-lines",
      file: "trail_all.csv",
      bytes: "a,b,\n1,2,\n3,4,\n",
      expected: {
        names: 'docs/data.md (Headers): an empty name stays "" (pandas: Unnamed: 2)',
      },
    },
    {
      name: "trailing-delimiter-data-only",
      file: "trail_data.csv",
      bytes: "a,b\n1,2,\n3,4,\n",
      expected: {
        names: "docs/data.md (Ragged rows): pandas takes the first column as the index",
        "cell:0": "pandas shifts the columns (first column becomes its index)",
        "cell:1": "pandas shifts the columns (first column becomes its index)",
      },
    },
    {
      name: "comment-like-lines",
      file: "comments.csv",
      bytes: "# exported 2024-01-01\nid,value\n1,10\n2,20\n",
      expected: {
        error: "pandas quirk: it takes the comment for the header and `id` for its index, a " +
          "wrong table; tern refuses the longer rows (docs/data.md, Ragged rows)",
      },
    },
    {
      name: "missing-values",
      file: "missing.csv",
      bytes: "id,a,b,c,d\n1,NA,N/A,,null\n2,5,6,7,8\n3,,NaN,nan,NULL\n",
      expected: {
        "cell:1": NA_DEFAULT,
        "cell:2": NA_DEFAULT,
        "cell:3": NA_DEFAULT,
        "cell:4": NA_DEFAULT,
      },
    },
    {
      name: "missing-values-passed",
      file: "missing.csv",
      tern: { nullValues: ["NA", "N/A", "null", "NaN", "nan", "NULL"] },
    },
    {
      name: "thousands",
      file: "thousands.csv",
      bytes: 'city,population\nA,"1,234"\nB,"12,345,678"\nC,999\n',
    },
    {
      name: "thousands-passed",
      file: "thousands.csv",
      pandas: { kwargs: { thousands: "," } },
      expected: {
        "cell:1": "docs/data.md (Numbers): thousands separators stay text; Polars has no option",
      },
    },
    {
      name: "mixed-types",
      file: "mixed.csv",
      bytes: "id,v\n1,1\n2,2.5\n3,abc\n4,\n5,7\n",
    },
    {
      name: "zip-codes",
      file: "zip.csv",
      bytes: "zip,city\n02134,Boston\n10001,New York\n00501,Holtsville\n",
    },
    {
      name: "zip-codes-as-text",
      file: "zip.csv",
      tern: { dtypes: { zip: pl.String } },
      pandas: { kwargs: { dtype: { zip: "str" } } },
    },
    {
      name: "scientific",
      file: "sci.csv",
      bytes: "a,b,c\n1e5,1.5E-3,-2.5e+10\n3,4,5\n",
    },
    {
      name: "very-long-field",
      file: "long.csv",
      bytes: `id,text\n1,${long}\n2,"${long}\n${long}"\n`,
    },
    {
      name: "duplicate-names",
      file: "dupes.csv",
      bytes: "a,b,a,a\n1,2,3,4\n5,6,7,8\n",
      expected: { names: "docs/data.md (Headers): Polars' suffix a_duplicated_0 (pandas: a.1)" },
    },
    {
      name: "empty-names",
      file: "empty_names.csv",
      bytes: "a,,c,\n1,2,3,4\n",
      expected: { names: 'docs/data.md (Headers): "" then "_duplicated_0" (pandas: Unnamed: 1)' },
    },
    {
      name: "header-only",
      file: "header.csv",
      bytes: "a,b,c\n",
    },
    {
      name: "unicode-names",
      file: "unicode.csv",
      bytes: "température °C,naïve,日本語,emoji 🌊\n21.5,oui,はい,🌊\n",
    },
    {
      name: "latin-1",
      file: "latin1.csv",
      bytes: latin1("ville,prix\nMontréal,12\nZürich,13\nSão Paulo,14\n"),
      tern: { encoding: "latin-1" },
      pandas: { kwargs: { encoding: "latin-1" } },
    },
    {
      name: "windows-1252",
      file: "cp1252.csv",
      bytes: Uint8Array.from([
        ...enc("name,quote\nA,"),
        0x93, // “
        ...enc("hi"),
        0x94, // ”
        ...enc("\nB,"),
        0x80, // €
        ...enc("5\n"),
      ]),
      tern: { encoding: "windows-1252" },
      pandas: { kwargs: { encoding: "cp1252" } },
    },
    {
      name: "utf-16",
      file: "utf16.csv",
      bytes: utf16le("name,value\nÅsa,1\nŁódź,2\n"),
      tern: { encoding: "utf-16" },
      pandas: { kwargs: { encoding: "utf-16" } },
    },
    {
      name: "dates",
      file: "dates.csv",
      bytes: "iso,dt,tz,us,eu,text,compact\n" +
        "2012-01-31,2012-01-31 10:00,2012-01-31T10:00:00Z,01/02/2012,31.01.2012,Jan 31 2012,20120131\n" +
        "2013-02-28,2013-02-28T11:30:15.250,2013-02-28T11:30:00+02:00,12/31/2013,28.02.2013,Feb 28 2013,20130228\n",
      pandas: { kwargs: { parse_dates: ["iso", "dt", "tz"] } },
    },
    {
      name: "tsv",
      file: "t.tsv",
      bytes: 'a\tb\tc\n1\tx y\t2.5\n2\t"q"\t3\n',
      pandas: { kwargs: { sep: "\t" } },
    },
    {
      name: "booleans",
      file: "bools.csv",
      bytes: "a,b,c\nTrue,true,TRUE\nFalse,false,FALSE\n",
    },
    {
      name: "spaces-around",
      file: "spaces.csv",
      bytes: "id,v,s\n1, 12, a \n2,13 ,b\n",
      expected: { "cell:1": "docs/data.md (Numbers): a number padded with spaces stays text" },
    },
    {
      name: "quoted-numbers",
      file: "qnum.csv",
      bytes: 'id,v\n"1","2.5"\n"2","3"\n',
    },
    {
      name: "special-floats",
      file: "floats.csv",
      bytes: "a,b\n1.5,inf\n-inf,2\n.5,1.\n",
    },
    {
      name: "ints-with-missing",
      file: "int_na.csv",
      bytes: "a,b\n1,x\n,y\n3,z\n",
    },
    {
      name: "decimal-comma-semicolon",
      file: "semi.csv",
      bytes: "a;b\n1,5;x\n2,25;y\n",
      pandas: { kwargs: { sep: ";" } },
    },
    {
      name: "gzip",
      file: "g.csv.gz",
      bytes: gzipSync(enc("zip,v\n02134,1.5\n10001,2\n")),
    },
    {
      name: "bom-quoted-header",
      file: "bom_quoted.csv",
      bytes: '\ufeff"id","name"\r\n"1","a"\r\n"2","b"\r\n',
    },
    {
      name: "late-values-after-empty",
      file: "late.csv",
      bytes: "id,v\n" + Array.from({ length: 150 }, (_, i) => `${i},`).join("\n") +
        "\n150,3.5\n151,abc\n",
    },
    {
      name: "late-numbers-after-empty",
      file: "late_numbers.csv",
      bytes: "id,v\n" + Array.from({ length: 150 }, (_, i) => `${i},`).join("\n") +
        "\n150,3.5\n151,4\n",
      expected: {
        "cell:1": "docs/data.md (A type that changes late): empty in the first rows, a column is " +
          "text (pandas looks at every row)",
      },
    },
    {
      name: "late-int-overflow",
      file: "late_big.csv",
      bytes: "id,v\n" + Array.from({ length: 150 }, (_, i) => `${i},${i}`).join("\n") +
        "\n150,99999999999999999999\n",
      expected: {
        error: "docs/data.md (A type that changes late): a ParseError naming the value " +
          "(pandas makes the column float, rounding it)",
      },
    },
    {
      name: "late-float-in-int",
      file: "late_float.csv",
      bytes: "id,v\n" + Array.from({ length: 150 }, (_, i) => `${i},${i}`).join("\n") +
        "\n150,0.5\n",
    },
    {
      name: "whitespace-line",
      file: "ws_line.csv",
      bytes: "a,b\n1,2\n   \n3,4\n",
    },
    {
      name: "nul-byte",
      file: "nul.csv",
      bytes: "a,b\n1,x\u0000y\n2,z\n",
      expected: {
        error: "docs/data.md (Formats): a NUL byte is binary content, refused by name; " +
          'format: "csv" reads it as text',
      },
    },
    {
      name: "cr-only",
      file: "mac.csv",
      bytes: 'a,b\r1,2\r3,"x\ry"\r',
    },
    {
      name: "tsv-trailing-tab",
      file: "trail.tsv",
      bytes: "a\tb\t\n1\t2\t\n",
      pandas: { kwargs: { sep: "\t" } },
      expected: { names: 'docs/data.md (Headers): an empty name stays "" (pandas: Unnamed: 2)' },
    },
    {
      name: "plus-signs",
      file: "plus.csv",
      bytes: "a,b\n+5,-3\n+0.5,+1e3\n",
      expected: {
        "cell:0": "docs/data.md (Numbers): a leading + keeps a column text",
        "cell:1": "docs/data.md (Numbers): a leading + keeps a column text",
      },
    },
    {
      name: "quote-inside-field",
      file: "inner_quote.csv",
      bytes: 'id,size\n1,12" ruler\n2,a"b"c\n',
      expected: {
        error: "docs/data.md (Quotes): Polars refuses a quote inside an unquoted field",
      },
    },
    {
      name: "quote-inside-field-quoteChar",
      file: "inner_quote.csv",
      tern: { quoteChar: "'" },
    },
    {
      name: "tsv-unclosed-quote",
      file: "unclosed.tsv",
      bytes: 'id\tnote\n1\t"hello\n2\tworld\n3\tend\n',
      pandas: { kwargs: { sep: "\t" } },
    },
    {
      name: "datetime-fractions",
      file: "fractions.csv",
      bytes: "t\n2012-01-31 10:00:00.5\n2012-01-31 10:00:00.25\n2012-01-31 10:00:00\n",
      pandas: { kwargs: { parse_dates: ["t"] } },
    },
    {
      name: "datetime-minutes-then-seconds",
      file: "minutes.csv",
      bytes: "t\n2012-01-31 10:00\n2012-01-31 10:00:30\n2012-01-31T11:00:00\n",
      pandas: { kwargs: { parse_dates: ["t"] } },
    },
    {
      name: "nan-spellings",
      file: "nan.csv",
      bytes: "a,b,c\n1.5,NaN,nan\n2.5,3,4\n",
      expected: { "cell:2": NA_DEFAULT },
    },
    {
      name: "utf-16-be-crlf",
      file: "utf16be.csv",
      bytes: Uint8Array.from([
        0xfe,
        0xff,
        ...[..."a,b\r\nÅ,1\r\n"].flatMap((c) => [0, c.charCodeAt(0)]),
      ]),
      tern: { encoding: "utf-16" },
      pandas: { kwargs: { encoding: "utf-16" } },
    },
    {
      name: "latin-1-gzip",
      file: "latin1.csv.gz",
      bytes: gzipSync(latin1("ville,n\nMontréal,1\n")),
      tern: { encoding: "latin-1" },
      pandas: { kwargs: { encoding: "latin-1" } },
    },
    {
      name: "many-date-forms",
      file: "date_forms.csv",
      bytes: "a,b,c,d\n2012-01-31,2012/01/31,31/01/2012,2012-01-31 10:00:00+0000\n" +
        "2012-02-29,2012/02/29,29/02/2012,2012-02-29 10:00:00+0100\n",
      expected: {
        "cell:0": "docs/data.md (Dates): ISO dates are read as dates (pandas: parse_dates)",
        "cell:3": "docs/data.md (Dates): ISO datetimes with offsets in UTC (pandas: parse_dates)",
      },
    },
    {
      name: "jsonl-python-nan",
      file: "nan.jsonl",
      bytes: '{"a": 1.5, "b": "x"}\n{"a": NaN, "b": "y"}\n',
      pandas: { reader: "read_json", kwargs: { lines: true } },
      expected: {
        error:
          "docs/data.md (JSON): NaN is no JSON value, a ParseError saying so (pandas reads it)",
      },
    },
    ...toolCases(),
    ...jsonCases(),
    {
      name: "xlsx-first-sheet",
      file: "book.xlsx",
      pandas: { reader: "read_excel" },
      expected: {
        "cell:1": 'pandas quirk: read_excel makes the text cells "02134" numbers; tern keeps text',
      },
    },
    {
      name: "xlsx-second-sheet",
      file: "book.xlsx",
      tern: { sheet: "Readings" },
      pandas: { reader: "read_excel", kwargs: { sheet_name: "Readings" } },
      expected: {
        "cell:1": "docs/data.md (Excel): a column that mixes kinds is text (pandas: objects)",
        "cell:2": "pandas quirk: booleans with an empty cell become floats 1.0/0.0/NaN",
      },
    },
    {
      name: "xlsx-odd-sheet",
      file: "book.xlsx",
      tern: { sheet: "Odd" },
      pandas: { reader: "read_excel", kwargs: { sheet_name: "Odd" } },
      expected: {
        "cell:5": 'pandas quirk: read_excel makes the text cells "007" numbers; tern keeps text',
      },
    },
  ];
}

/** Files as tools write them: spreadsheet exports, statistics packages, instruments, dumps. */
function toolCases(): Case[] {
  const euro = "\ufeffStation;Temp °C;Rain mm;Date\r\nBern;3,14;0,5;31.01.2012\r\n" +
    "Genève;-1,5;12;01.02.2012\r\nZürich;;1,25;02.02.2012\r\n";
  return [
    {
      name: "excel-eu-export",
      file: "excel_eu.csv",
      bytes: euro,
      pandas: { kwargs: { sep: ";" } },
    },
    {
      name: "excel-eu-export-decimal",
      file: "excel_eu.csv",
      tern: { decimalComma: true },
      pandas: { kwargs: { sep: ";", decimal: "," } },
    },
    {
      name: "excel-eu-all-quoted",
      file: "excel_eu_quoted.csv",
      bytes: '"Name";"Value"\r\n"A";"1,5"\r\n"B";"-2,25"\r\n',
      tern: { decimalComma: true },
      pandas: { kwargs: { sep: ";", decimal: "," } },
    },
    {
      name: "excel-eu-comma-in-header",
      file: "excel_eu_header.csv",
      bytes: "Temp, °C;Rain, mm\r\n3,5;1\r\n4;0,5\r\n",
      tern: { decimalComma: true },
      pandas: { kwargs: { sep: ";", decimal: "," } },
    },
    {
      name: "excel-eu-thousands-decimal",
      file: "excel_eu_thousands.csv",
      bytes: "name;amount\r\nA;1.234,5\r\nB;12,25\r\n",
      tern: { decimalComma: true },
      pandas: { kwargs: { sep: ";", decimal: "," } },
      expected: {
        "cell:1": "docs/data.md (Numbers): in a column that stays text (1.234,5, pandas too " +
          'without thousands="."), decimalComma still writes 12,25 as 12.25 (pandas: as written)',
      },
    },
    {
      name: "r-write-csv",
      file: "r_write.csv",
      bytes: '"","site","value","when"\n"1","a",1.5,2020-01-01\n"2","b",NA,2020-01-02\n',
      expected: {
        names: 'docs/data.md (Headers): an empty name stays "" (pandas: Unnamed: 0)',
        "cell:2": NA_DEFAULT,
        "cell:3": "docs/data.md (Dates): ISO dates are read as dates (pandas: parse_dates)",
      },
    },
    {
      name: "r-write-csv-na",
      file: "r_write.csv",
      tern: { nullValues: "NA", tryParseDates: false },
      pandas: { kwargs: { index_col: 0 } },
      expected: {
        names: "pandas takes R's row names for its index (index_col=0); tern keeps the column",
        shape: "pandas takes R's row names for its index (index_col=0); tern keeps the column",
        "cell:0": "pandas takes R's row names for its index: columns shift by one",
        "cell:1": "pandas takes R's row names for its index: columns shift by one",
        "cell:2": "pandas takes R's row names for its index: columns shift by one",
      },
    },
    {
      name: "sas-export",
      file: "sas.csv",
      bytes: "ID,NAME,WEIGHT,VISIT\n1,Smith,70.5,01JAN2020\n2,Jones,.,15MAR2020\n" +
        "3,Brown,80,.\n",
    },
    {
      name: "sas-export-missing-dot",
      file: "sas.csv",
      tern: { nullValues: "." },
      pandas: { kwargs: { na_values: ["."], keep_default_na: false } },
    },
    {
      name: "stata-export",
      file: "stata.csv",
      bytes: 'make,price,mpg,foreign\n"AMC Concord",4099,22,Domestic\n"Buick, Le Sabre",5788,' +
        ',Domestic\n"VW Rabbit",4697,25,Foreign\n',
    },
    {
      name: "units-row",
      file: "units.csv",
      bytes: "time,temperature,pressure\ns,degC,hPa\n0,21.5,1013.2\n1,21.7,1013.1\n",
    },
    {
      name: "mysql-tsv-null",
      file: "dump.tsv",
      bytes: "id\tname\tscore\n1\talpha\t\\N\n2\t\\N\t3.5\n3\tgamma\t4\n",
      pandas: { kwargs: { sep: "\t" } },
    },
    {
      name: "mysql-tsv-null-passed",
      file: "dump.tsv",
      tern: { nullValues: "\\N" },
      pandas: { kwargs: { sep: "\t", na_values: ["\\N"], keep_default_na: false } },
    },
    {
      name: "percent-currency",
      file: "money.csv",
      bytes: 'item,share,price,eur\na,12.5%,$1.50,"€1.234,50"\nb,100%,$20,€3\n',
    },
    {
      name: "inf-spellings",
      file: "inf.csv",
      bytes: "a,b,c,d,e\n1.5,Infinity,INF,-Infinity,nan\n2,inf,-inf,1,NaN\n",
      expected: {
        "cell:1": INF_TEXT,
        "cell:2": INF_TEXT,
        "cell:3": INF_TEXT,
        "cell:4": NA_DEFAULT,
      },
    },
    {
      name: "inf-spellings-typed",
      file: "inf.csv",
      tern: { dtypes: { b: pl.Float64, c: pl.Float64, d: pl.Float64, e: pl.Float64 } },
    },
    {
      name: "ndjson-ragged",
      file: "ragged.ndjson",
      bytes: '{"id":1,"a":"x"}\n{"id":2,"b":2.5}\n{"id":3,"a":"z","c":[1,2]}\n',
      pandas: { reader: "read_json", kwargs: { lines: true, dtype: false, convert_dates: false } },
    },
    {
      name: "xlsx-pandas",
      file: "pandas.xlsx",
      pandas: { reader: "read_excel" },
    },
  ];
}

/** A placeholder for an integer JavaScript's numbers cannot hold (2^53 + 1), written in its place. */
const BIG = 123456789;
const bigger = (json: string) => json.replaceAll(String(BIG), "9007199254740993");

/** pandas' six `to_json` layouts of one frame, and JSON Lines. */
function jsonCases(): Case[] {
  const records = [
    { id: 1, zip: "02134", x: 1.5, when: "2020-01-01", big: BIG },
    { id: 2, zip: "10001", x: null, when: "2020-01-02", big: 2 },
  ];
  const cols = ["id", "zip", "x", "when", "big"] as const;
  const byColumn = Object.fromEntries(
    cols.map((c) => [c, Object.fromEntries(records.map((r, i) => [String(i), r[c]]))]),
  );
  const byIndex = Object.fromEntries(records.map((r, i) => [String(i), r]));
  const split = { columns: cols, index: [0, 1], data: records.map((r) => cols.map((c) => r[c])) };
  const table = {
    schema: {
      fields: [
        { name: "index", type: "integer" },
        { name: "id", type: "integer" },
        { name: "zip", type: "string" },
        { name: "x", type: "number" },
        { name: "when", type: "string" },
        { name: "big", type: "integer" },
      ],
      primaryKey: ["index"],
      pandas_version: "1.4.0",
    },
    data: records.map((r, i) => ({ index: i, ...r })),
  };
  const values = records.map((r) => cols.map((c) => r[c]));
  const layout = (orient: string, doc: unknown, expected?: Case["expected"]): Case => ({
    name: `json-${orient}`,
    file: `${orient}.json`,
    bytes: bigger(JSON.stringify(doc)),
    pandas: {
      reader: "read_json",
      kwargs: { orient, dtype: false, convert_dates: false },
    },
    expected,
  });
  return [
    layout("records", records),
    layout("columns", byColumn),
    layout("index", byIndex),
    layout("split", split),
    layout("table", table),
    layout("values", values, {
      names: "docs/data.md (pandas' JSON): column_1, column_2, … as for a headerless CSV",
    }),
    {
      name: "jsonl",
      file: "rows.jsonl",
      bytes: bigger(records.map((r) => JSON.stringify(r)).join("\n") + "\n"),
      pandas: { reader: "read_json", kwargs: { lines: true, dtype: false, convert_dates: false } },
    },
  ];
}

/** A cell of a Polars frame, reduced as the Python side reduces pandas'. */
function ternCell(value: unknown, dtype: string): Cell {
  if (value === null || value === undefined) return null;
  if (/Int64/.test(dtype) && typeof value === "string") {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  }
  if (value instanceof Date) {
    const iso = value.toISOString();
    if (!dtype.includes("Datetime")) return { date: iso.slice(0, 10) };
    return { datetime: iso.slice(0, -1), ...(dtype.includes("UTC") ? { utc: true } : {}) };
  }
  if (typeof value === "number" && !Number.isFinite(value)) {
    return Number.isNaN(value) ? null : value > 0 ? "Infinity" : "-Infinity";
  }
  if (typeof value === "object") return JSON.stringify(value);
  return value as Cell;
}

/** The same instant or day written two ways (pandas `…10:00:00`, JS `…10:00:00.000`). */
function sameCell(a: Cell, b: Cell): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") {
    return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const day = (c: object) => "date" in c ? String(c.date) : (c as { datetime: string }).datetime;
    const ms = (s: string) => Date.parse(s.length === 10 ? `${s}T00:00:00Z` : `${s}Z`);
    return ms(day(a)) === ms(day(b)) && ("utc" in a) === ("utc" in b);
  }
  return false;
}

interface Side {
  columns: string[];
  dtypes: string[];
  rows: Cell[][];
  error?: string;
}

/** The differences between tern's reading and pandas', keyed by kind. */
function differences(tern: Side, pandas: Side): Map<string, string> {
  const out = new Map<string, string>();
  if (tern.error || pandas.error) {
    if (!(tern.error && pandas.error)) {
      out.set("error", `tern: ${tern.error ?? "read"}; pandas: ${pandas.error ?? "read"}`);
    }
    return out;
  }
  if (JSON.stringify(tern.columns) !== JSON.stringify(pandas.columns)) {
    out.set(
      "names",
      `tern ${JSON.stringify(tern.columns)}; pandas ${JSON.stringify(pandas.columns)}`,
    );
  }
  if (tern.columns.length !== pandas.columns.length || tern.rows.length !== pandas.rows.length) {
    out.set(
      "shape",
      `tern ${tern.rows.length}×${tern.columns.length}; pandas ${pandas.rows.length}×${pandas.columns.length}`,
    );
  }
  const width = Math.min(tern.columns.length, pandas.columns.length);
  const height = Math.min(tern.rows.length, pandas.rows.length);
  for (let c = 0; c < width; c++) {
    for (let r = 0; r < height; r++) {
      const [a, b] = [tern.rows[r][c], pandas.rows[r][c]];
      if (sameCell(a, b)) continue;
      const show = (v: Cell) => JSON.stringify(v)?.slice(0, 60);
      out.set(
        `cell:${c}`,
        `${tern.columns[c]} (${tern.dtypes[c]} vs ${pandas.dtypes[c]}) row ${r}: ` +
          `tern ${show(a)}, pandas ${show(b)}`,
      );
      break;
    }
  }
  return out;
}

async function pandasSides(
  requests: {
    name?: string;
    path?: string;
    reader?: string;
    kwargs?: unknown;
    write_xlsx?: string;
  }[],
): Promise<Side[]> {
  const child = new Deno.Command("/usr/bin/python3", {
    args: [new URL("./_pandas_read.py", import.meta.url).pathname],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(enc(JSON.stringify(requests)));
  await writer.close();
  const { success, stdout } = await child.output();
  if (!success) throw new Error("bench/_pandas_read.py failed");
  return JSON.parse(new TextDecoder().decode(stdout));
}

async function main(filters: string[]) {
  const all = cases().filter((c) => !filters.length || filters.some((f) => c.name.includes(f)));
  const root = await Deno.makeTempDir({ prefix: "tern-pandas-diff-" });
  const cacheDir = await Deno.makeTempDir({ prefix: "tern-pandas-diff-cache-" });
  try {
    const folder = `${root}${DATA}`;
    await Deno.mkdir(folder, { recursive: true });
    for (const c of all) {
      if (c.bytes !== undefined) {
        await Deno.writeFile(
          `${folder}/${c.file}`,
          typeof c.bytes === "string" ? enc(c.bytes) : c.bytes,
        );
      }
    }
    await pandasSides([{ write_xlsx: `${folder}/book.xlsx` }]);
    const pandas = await pandasSides(all.map((c) => ({
      name: c.name,
      path: `${folder}/${c.file}`,
      reader: c.pandas?.reader ?? "read_csv",
      kwargs: c.pandas?.kwargs ?? {},
    })));
    await using server = await startServer({ root, port: 0, quiet: true });
    await using store = connect({ url: server.url, anonymous: true, cacheDir });
    let unexpected = 0;
    for (const [i, c] of all.entries()) {
      let tern: Side;
      try {
        const file = store.file(`${DATA}/${c.file}`);
        const read = await file.dataframe(c.tern ?? {});
        // The streamed route (head() parses batches as they arrive) must give the same table.
        const streamed = await file.head(1_000_000, c.tern ?? {});
        if (!streamed.frameEqual(read, true)) {
          unexpected++;
          console.log(`  UNEXPECTED head() differs from dataframe():\n${streamed}\n${read}`);
        }
        const dtypes = read.dtypes.map(String);
        // JavaScript numbers would round integers past 2^53 on the way out: take them as text.
        const frame = read.withColumns(
          ...read.columns.filter((_, j) => /^DataType\((U?Int64)\)$/.test(dtypes[j])).map((c) =>
            pl.col(c).cast(pl.String)
          ),
        );
        tern = {
          columns: frame.columns,
          dtypes,
          rows: frame.rows().map((row) => row.map((v, j) => ternCell(v, dtypes[j]))),
        };
      } catch (error) {
        tern = {
          columns: [],
          dtypes: [],
          rows: [],
          error: `${(error as Error).name}: ${(error as Error).message}`,
        };
      }
      const found = differences(tern, pandas[i]);
      const lines = [...found].map(([kind, what]) => {
        const why = c.expected?.[kind];
        if (!why) unexpected++;
        return `  ${why ? "expected " : "UNEXPECTED"} ${kind}: ${what}${
          why ? `\n      (${why})` : ""
        }`;
      });
      console.log(
        `${found.size ? "≠" : "="} ${c.name}${lines.length ? `\n${lines.join("\n")}` : ""}`,
      );
    }
    console.log(`\n${all.length} cases, ${unexpected} unexpected difference(s)`);
    if (unexpected) Deno.exitCode = 1;
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
}

if (import.meta.main) await main(Deno.args);
