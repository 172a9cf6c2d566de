/**
 * Excel workbooks (`.xlsx`, Office Open XML) into DataFrames. A workbook is a zip of XML
 * files: `xl/workbook.xml` names the sheets, `xl/_rels/workbook.xml.rels` says which file holds
 * each, `xl/sharedStrings.xml` holds the text of text cells, `xl/styles.xml` the number formats
 * that tell a date from a number (Excel stores dates as day numbers). fflate unzips only the
 * entries a call needs and saxes reads the XML as a stream of tags: neither builds objects keyed
 * by the document's names, so a hostile workbook cannot reach a prototype.
 *
 * A sheet becomes a table as pandas' `read_excel` makes it: the first row names the columns,
 * each column takes the one type all its cells share (integers, decimals, booleans, dates,
 * datetimes or text), a column of mixed kinds is text, and empty or error cells are null.
 *
 * @module
 */

import { loadFflateModule, loadSaxesModule } from "../deps.ts";
import type { DataFrame, Series } from "../deps.ts";
import { BadRequestError } from "../client/errors.ts";
import { ParseError } from "./errors.ts";
import type { Polars } from "./polars.ts";

/**
 * Which sheet to read: its name, or its position counting from 0 (as pandas' `sheet_name`).
 *
 * @example
 * ```ts
 * import type { SheetChoice } from "./excel.ts";
 * import assert from "node:assert/strict";
 *
 * const second: SheetChoice = 1;
 * const byName: SheetChoice = "Stations";
 * assert.notEqual(second, byName);
 * ```
 */
export type SheetChoice = string | number;

/**
 * The names of a workbook's sheets, in the workbook's order.
 *
 * @throws {ParseError} when the bytes are not an Excel workbook.
 *
 * @example
 * ```ts
 * import { sheetNames } from "./excel.ts";
 * import { exampleWorkbook } from "./excel.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(await sheetNames(await exampleWorkbook(), "/a/b.xlsx"), ["Sheet1"]);
 * ```
 */
export async function sheetNames(bytes: Uint8Array, path: string): Promise<string[]> {
  return (await openWorkbook(bytes, path)).sheets.map((sheet) => sheet.name);
}

/**
 * Reads one sheet of a workbook into a DataFrame: the first row (after `skipRows` rows of the
 * sheet, as pandas' `read_excel(skiprows=n)` drops a title block) names the columns (or, with
 * `hasHeader: false`, they are `column_1`, `column_2`, ...), every column typed from all its
 * cells.
 *
 * @throws {BadRequestError} when the workbook has no such sheet (naming the sheets it has).
 * @throws {ParseError} when the bytes are not an Excel workbook.
 *
 * @example
 * ```ts
 * import { exampleWorkbook, readSheet } from "./excel.ts";
 * import { loadPolars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const pl = await loadPolars();
 * const frame = await readSheet(pl, await exampleWorkbook(), {}, "/a/b.xlsx");
 * assert.deepEqual(frame.columns, ["station", "depth"]);
 * assert.deepEqual(frame.getColumn("depth").toArray(), [12, 7]);
 * ```
 */
export async function readSheet(
  pl: Polars,
  bytes: Uint8Array,
  options: { sheet?: SheetChoice; hasHeader?: boolean; skipRows?: number },
  path: string,
): Promise<DataFrame> {
  const book = await openWorkbook(bytes, path);
  const choice = options.sheet ?? 0;
  const sheet = typeof choice === "number"
    ? book.sheets[choice]
    : book.sheets.find((s) => s.name === choice);
  if (sheet === undefined) {
    const names = book.sheets.map((s, i) => `${i}: ${JSON.stringify(s.name)}`).join(", ");
    throw new BadRequestError(
      `${JSON.stringify(path)} has no sheet ${JSON.stringify(choice)}; its sheets are ${names}.`,
      { path },
    );
  }
  // Rows as the sheet numbers them: an empty row left out of the file still counts.
  const rows = (await book.rows(sheet)).slice(options.skipRows ?? 0);
  const header = options.hasHeader ?? true;
  // A loop, as spreading a long sheet's rows into Math.max overflows the stack.
  const width = rows.reduce((widest, row) => Math.max(widest, row.length), 0);
  const names = columnNames(header ? rows[0] ?? [] : [], width, header);
  const body = header ? rows.slice(1) : rows;
  return pl.DataFrame(names.map((name, i) => column(pl, name, body.map((row) => row[i]))));
}

/**
 * A small workbook of one sheet (`station`, `depth`: two rows), built here for examples.
 *
 * @example
 * ```ts
 * import { exampleWorkbook } from "./excel.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = await exampleWorkbook();
 * assert.deepEqual([...bytes.subarray(0, 2)], [0x50, 0x4b]); // "PK": a zip
 * ```
 */
export async function exampleWorkbook(): Promise<Uint8Array> {
  const { zipSync, strToU8 } = await loadFflateModule();
  const xml = (body: string) => strToU8(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  const main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  return zipSync({
    "xl/workbook.xml": xml(
      `<workbook ${main} ${rel}><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/>` +
        "</sheets></workbook>",
    ),
    "xl/_rels/workbook.xml.rels": xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    "xl/worksheets/sheet1.xml": xml(
      `<worksheet ${main}><sheetData>` +
        '<row r="1"><c r="A1" t="inlineStr"><is><t>station</t></is></c>' +
        '<c r="B1" t="inlineStr"><is><t>depth</t></is></c></row>' +
        '<row r="2"><c r="A2" t="inlineStr"><is><t>north</t></is></c><c r="B2"><v>12</v></c></row>' +
        '<row r="3"><c r="A3" t="inlineStr"><is><t>south</t></is></c><c r="B3"><v>7</v></c></row>' +
        "</sheetData></worksheet>",
    ),
  });
}

/** One cell's value as read: a date is kept apart from a number by its format. */
type Cell = number | string | boolean | { date: number } | { time: number } | null | undefined;

/**
 * Excel's own bounds of a sheet. A cell or row reference past them is no workbook's: a few bytes
 * naming row 10^9 would otherwise have tern make a billion empty rows.
 */
const MAX_ROWS = 1_048_576;
const MAX_COLUMNS = 16_384;

/** Largest part of a workbook unpacked (a sheet's XML is several times its share of the file). */
const MAX_PART_BYTES = 1024 ** 3;

interface SheetRef {
  name: string;
  /** The zip entry of its XML. */
  entry: string;
}

interface Workbook {
  sheets: SheetRef[];
  rows(sheet: SheetRef): Promise<Cell[][]>;
}

/** Reads the workbook's sheet list; `rows()` then reads one sheet with its strings and styles. */
async function openWorkbook(bytes: Uint8Array, path: string): Promise<Workbook> {
  const { unzip } = await loadFflateModule();
  const entries = (wanted: (name: string) => boolean) =>
    new Promise<Record<string, Uint8Array>>((resolve, reject) => {
      // A part's size is as the archive declares it (fflate inflates into a buffer of that
      // size): a declared size past the cap is a zip bomb or no workbook tern can hold.
      let tooLarge: string | undefined;
      unzip(
        bytes,
        {
          filter: (file) => {
            if (!wanted(file.name)) return false;
            if (file.originalSize > MAX_PART_BYTES) tooLarge ??= file.name;
            return tooLarge === undefined;
          },
        },
        (error, files) =>
          error
            ? reject(broken(path, error.message))
            : tooLarge !== undefined
            ? reject(broken(path, `its part ${tooLarge} unpacks to more than 1 GiB`))
            : resolve(files),
      );
    });
  const xml = (files: Record<string, Uint8Array>, name: string) =>
    Object.hasOwn(files, name) ? new TextDecoder().decode(files[name]) : undefined;
  const parts = await entries((name) => name === WORKBOOK || name === WORKBOOK_RELS);
  const workbook = xml(parts, WORKBOOK);
  if (workbook === undefined) throw broken(path, `it has no ${WORKBOOK}`);
  const targets = new Map<string, string>();
  await walk(xml(parts, WORKBOOK_RELS) ?? "", path, {
    open(name, attributes) {
      if (name === "Relationship") targets.set(attributes.Id, attributes.Target);
    },
  });
  const sheets: SheetRef[] = [];
  let date1904 = false;
  await walk(workbook, path, {
    open(name, attributes) {
      if (name === "workbookPr") date1904 = ["1", "true"].includes(attributes.date1904);
      if (name !== "sheet") return;
      const id = Object.entries(attributes).find(([key]) => /(^|:)id$/.test(key))?.[1];
      const target = targets.get(id ?? "") ?? "";
      // Targets are relative to xl/ unless they start at the package's root.
      const entry = target.startsWith("/") ? target.slice(1) : `xl/${target}`;
      sheets.push({ name: attributes.name ?? "", entry });
    },
  });
  return {
    sheets,
    async rows(sheet) {
      const files = await entries((name) => [sheet.entry, STRINGS, STYLES].includes(name));
      const text = xml(files, sheet.entry);
      if (text === undefined) throw broken(path, `its sheet's part ${sheet.entry} is missing`);
      const strings = await sharedStrings(xml(files, STRINGS) ?? "", path);
      const dated = await dateStyles(xml(files, STYLES) ?? "", path);
      return await sheetRows(text, path, { strings, dated, date1904 });
    },
  };
}

const WORKBOOK = "xl/workbook.xml";
const WORKBOOK_RELS = "xl/_rels/workbook.xml.rels";
const STRINGS = "xl/sharedStrings.xml";
const STYLES = "xl/styles.xml";

function broken(path: string, why: string): ParseError {
  return new ParseError(`Could not read ${JSON.stringify(path)} as an Excel workbook: ${why}.`, {
    path,
  });
}

interface XmlVisitor {
  open?(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
}

/**
 * Reports the tags of `xml` without their namespace prefix (`x:c` and `c` alike); an absent
 * part (`""`: a workbook without text cells has no shared strings) reports none.
 */
async function walk(xml: string, path: string, visitor: XmlVisitor): Promise<void> {
  if (xml === "") return;
  const { SaxesParser } = await loadSaxesModule();
  const parser = new SaxesParser();
  const local = (name: string) => name.slice(name.indexOf(":") + 1);
  parser.on("opentag", (tag) => visitor.open?.(local(tag.name), tag.attributes));
  parser.on("closetag", (tag) => visitor.close?.(local(tag.name)));
  if (visitor.text) {
    parser.on("text", visitor.text);
    parser.on("cdata", visitor.text);
  }
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof ParseError) throw error; // a visitor's own refusal
    throw broken(path, `its XML is malformed (${(error as Error).message})`);
  }
}

/** The text of each shared string (rich text runs joined, phonetic guides left out). */
async function sharedStrings(xml: string, path: string): Promise<string[]> {
  const strings: string[] = [];
  let current: string | undefined;
  let inText = false;
  let phonetic = false;
  await walk(xml, path, {
    open(name) {
      if (name === "si") current = "";
      if (name === "rPh") phonetic = true;
      if (name === "t") inText = !phonetic;
    },
    close(name) {
      if (name === "si") strings.push(current ?? "");
      if (name === "rPh") phonetic = false;
      if (name === "t") inText = false;
    },
    text(text) {
      if (inText && current !== undefined) current += text;
    },
  });
  return strings;
}

/** Excel's built-in number formats that show dates or times. */
const DATE_FORMAT_IDS: ReadonlySet<number> = new Set([
  14,
  15,
  16,
  17,
  18,
  19,
  20,
  21,
  22,
  27,
  28,
  29,
  30,
  31,
  32,
  33,
  34,
  35,
  36,
  45,
  46,
  47,
  50,
  51,
  52,
  53,
  54,
  55,
  56,
  57,
  58,
]);

/** Whether each cell style (by index) shows its number as a date or time. */
async function dateStyles(xml: string, path: string): Promise<boolean[]> {
  const custom = new Map<number, string>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  await walk(xml, path, {
    open(name, attributes) {
      if (name === "numFmt") custom.set(Number(attributes.numFmtId), attributes.formatCode ?? "");
      if (name === "cellXfs") inCellXfs = true;
      if (name === "xf" && inCellXfs) {
        const id = Number(attributes.numFmtId ?? 0);
        styles.push(custom.has(id) ? isDateFormat(custom.get(id)!) : DATE_FORMAT_IDS.has(id));
      }
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return styles;
}

/**
 * Whether a number format code shows a date or time: a day, month, year, hour or second
 * placeholder outside quoted text, escapes and bracketed colours or conditions.
 */
function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|_.|\*./g, "").replace(
    /\[(?!h+\]|m+\]|s+\])[^\]]*\]/gi,
    "",
  );
  return /[dmyhs]/i.test(bare.split(";")[0]);
}

/** Reads a sheet's cells into rows (a row or cell left out is empty). */
async function sheetRows(
  xml: string,
  path: string,
  book: { strings: string[]; dated: boolean[]; date1904: boolean },
): Promise<Cell[][]> {
  const rows: Cell[][] = [];
  let row: Cell[] | undefined;
  let cell: { column: number; type: string; style: number; value: string } | undefined;
  let inValue = false;
  let nextColumn = 0;
  await walk(xml, path, {
    open(name, attributes) {
      if (name === "row") {
        const at = attributes.r === undefined ? rows.length : Number(attributes.r) - 1;
        if (!(at >= 0 && at < MAX_ROWS)) {
          throw broken(
            path,
            attributes.r === undefined
              ? "its sheet has more rows than Excel's 1,048,576"
              : `a row is numbered ${JSON.stringify(attributes.r)}, past Excel's 1 to 1,048,576`,
          );
        }
        while (rows.length < at) rows.push([]);
        row = [];
        nextColumn = 0;
      } else if (name === "c" && row !== undefined) {
        const column = attributes.r === undefined ? nextColumn : columnIndex(attributes.r);
        if (!(column >= 0 && column < MAX_COLUMNS)) {
          throw broken(
            path,
            `a cell is at ${JSON.stringify(attributes.r)}, past Excel's columns A to XFD`,
          );
        }
        cell = { column, type: attributes.t ?? "n", style: Number(attributes.s ?? 0), value: "" };
        nextColumn = column + 1;
      } else if (cell !== undefined && (name === "v" || name === "t")) inValue = true;
    },
    close(name) {
      if (name === "v" || name === "t") inValue = false;
      else if (name === "c" && cell !== undefined && row !== undefined) {
        row[cell.column] = cellValue(cell, book, path);
        cell = undefined;
      } else if (name === "row" && row !== undefined) {
        rows.push(row);
        row = undefined;
      }
    },
    text(text) {
      if (inValue && cell !== undefined) cell.value += text;
    },
  });
  return rows;
}

/** `B7` → 1 (columns count from 0). */
function columnIndex(reference: string): number {
  let index = 0;
  for (const char of reference.toUpperCase()) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    index = index * 26 + code - 64;
  }
  return index - 1;
}

function cellValue(
  cell: { type: string; style: number; value: string },
  book: { strings: string[]; dated: boolean[]; date1904: boolean },
  path: string,
): Cell {
  const { type, value } = cell;
  if (type === "e") return null; // #N/A, #DIV/0! and the like: no value
  // pandas' to_excel writes a missing value as an empty text cell: empty, as pandas reads it.
  if (value === "") return null;
  switch (type) {
    case "s": {
      const text = book.strings[Number(value)];
      if (text === undefined) throw broken(path, `a cell names shared string ${value}, not there`);
      return text === "" ? null : text;
    }
    case "str":
    case "inlineStr":
      return value;
    case "b":
      return value === "1" || value === "true";
    case "d":
      return { date: Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`) };
  }
  const number = Number(value);
  if (!Number.isFinite(number)) return value;
  if (!book.dated[cell.style]) return number;
  // A time of day (`10:30`, format h:mm) is a fraction of day 0, not a date in 1899.
  if (number >= 0 && number < 1) return { time: Math.round(number * 86_400_000) };
  return { date: excelDateToMs(number, book.date1904) };
}

/**
 * Milliseconds since 1970 of an Excel day number. The 1900 system counts from 1899-12-30 and
 * takes 1900 for a leap year (day 60 is a 29 February that never was), so days before it are
 * one later than the count says.
 */
function excelDateToMs(days: number, date1904: boolean): number {
  const epoch = date1904 ? 24107 : 25569;
  const shifted = !date1904 && days < 60 ? days + 1 : days;
  return Math.round((shifted - epoch) * 86_400_000);
}

/** Column names from the header row: blanks get pandas' `Unnamed: i`, repeats a suffix. */
function columnNames(header: Cell[], width: number, hasHeader: boolean): string[] {
  const seen = new Map<string, number>();
  return Array.from({ length: width }, (_, i) => {
    const cell = header[i];
    const base = !hasHeader
      ? `column_${i + 1}`
      : cell === null || cell === undefined || cell === ""
      ? `Unnamed: ${i}`
      : text(cell);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}_duplicated_${count - 1}`;
  });
}

/** A cell as text, for a column of mixed kinds and for header names. */
function text(cell: NonNullable<Cell>): string {
  if (typeof cell === "object" && "time" in cell) {
    return new Date(cell.time).toISOString().slice(11, 23).replace(/\.000$/, "");
  }
  if (typeof cell === "object") {
    const iso = new Date(cell.date).toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.replace("Z", "");
  }
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  return String(cell);
}

/** One column, typed by the kind all its cells share. */
function column(pl: Polars, name: string, cells: Cell[]): Series {
  const present = cells.filter((cell): cell is NonNullable<Cell> => cell != null);
  const values = cells.map((cell) => cell ?? null);
  const kinds = new Set(present.map((cell) => typeof cell));
  if (kinds.size === 0) return pl.Series(name, values, pl.String);
  if (kinds.size === 1 && kinds.has("number")) {
    const whole = (present as number[]).every(Number.isSafeInteger);
    return pl.Series(name, values, whole ? pl.Int64 : pl.Float64);
  }
  if (kinds.size === 1 && kinds.has("boolean")) return pl.Series(name, values, pl.Bool);
  if (kinds.size === 1 && present.every((cell) => typeof cell === "object" && "time" in cell)) {
    const ns = cells.map((cell) => cell == null ? null : (cell as { time: number }).time * 1e6);
    return pl.Series(name, ns, pl.Int64).cast(pl.Time);
  }
  if (kinds.size === 1 && present.every((cell) => typeof cell === "object" && "date" in cell)) {
    const ms = cells.map((cell) => cell == null ? null : (cell as { date: number }).date);
    const days = ms.every((value) => value === null || value % 86_400_000 === 0);
    const dates = pl.Series(name, ms.map((value) => value === null ? null : new Date(value)));
    return days ? dates.cast(pl.Date) : dates.cast(pl.Datetime("ms"));
  }
  return pl.Series(name, cells.map((cell) => cell == null ? null : text(cell)), pl.String);
}
