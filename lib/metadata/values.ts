/**
 * Small value parsers shared by the normaliser: whitespace, lists, years and dates as people
 * type them into metadata forms.
 *
 * @module
 */

/**
 * Characters that show as nothing (zero-width spaces, the BOM, soft hyphens, bidirectional
 * controls, control characters other than whitespace): copied along from documents, never part
 * of a value. ZWJ and ZWNJ stay: emoji sequences and Persian or Indic words need them.
 */
const INVISIBLE = /(?![\u200c\u200d\t\n\v\f\r])[\p{Cc}\p{Cf}]/gu;

/**
 * The value without the characters that show as nothing (whitespace stays), trimmed.
 *
 * @example
 * ```ts
 * import { withoutInvisible } from "./values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(withoutInvisible("\ufeffSoil\u200b\ncores "), "Soil\ncores");
 * ```
 */
export function withoutInvisible(value: string): string {
  return value.replace(INVISIBLE, "").trim();
}

/**
 * Collapses runs of whitespace (tabs and newlines included) to one space, drops characters
 * that show as nothing, and trims.
 *
 * @example
 * ```ts
 * import { tidy } from "./values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(tidy("\tCyVerse  Data\nCommons "), "CyVerse Data Commons");
 * assert.equal(tidy("\u200b\ufeff"), "");
 * ```
 */
export function tidy(value: string): string {
  return typeof value === "string" ? withoutInvisible(value).replace(/\s+/g, " ") : "";
}

/**
 * Splits a list written in one value at `separators`, except inside parentheses or brackets
 * (`Zea mays (maize, corn)` stays whole); items are tidied and empty ones dropped.
 *
 * @example
 * ```ts
 * import { splitList } from "./values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(splitList("barley, Hordeum vulgare (two-row, six-row);  yield", /[,;]/), [
 *   "barley", "Hordeum vulgare (two-row, six-row)", "yield",
 * ]);
 * ```
 */
export function splitList(value: string, separators: RegExp): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of value) {
    if (char === "(" || char === "[") depth++;
    else if ((char === ")" || char === "]") && depth > 0) depth--;
    if (depth === 0 && separators.test(char)) {
      items.push(current);
      current = "";
    } else current += char;
  }
  items.push(current);
  return items.map(tidy).filter((item) => item !== "");
}

const DAY = String.raw`\d{1,2}(?:st|nd|rd|th)?`;
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|` +
  String.raw`aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const SEASON = "(?:spring|summer|autumn|fall|winter)";

/** A year as people write a date around it: its day and month (named or in digits) first. */
const YEAR = new RegExp(
  String.raw`^\s*(?:(?:c\.?|ca\.?|circa|approx\.?|©)\s*)?` +
    String.raw`(?:(?:${DAY}\s+(?:of\s+)?)?(?:${MONTH}|${SEASON})\s+(?:${DAY},?\s+)?` +
    String.raw`|(?:\d{1,2}[/.-]){1,2})?` +
    // A compact ISO date (20190501) has a month and a day after its year.
    String.raw`([12]\d{3})(?:$|[-/.,T\s]|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:$|T))`,
  "i",
);

/**
 * The year of a value written as a year or a date (`2018`, `2018-06-12`, `2018/06`, `May 2018`,
 * `12 May 2018`, `05/01/2018`, `Spring 2018`), or approximately (`c. 2018`, `circa 2018`),
 * between 1000 and 2999; `undefined` for anything else.
 *
 * @example
 * ```ts
 * import { firstYear } from "./values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(firstYear(" 2018 "), 2018);
 * assert.equal(firstYear("2019-11-21"), 2019);
 * assert.equal(firstYear("May 2019"), 2019);
 * assert.equal(firstYear("c. 2019"), 2019);
 * assert.equal(firstYear("n.d."), undefined);
 * assert.equal(firstYear("20180"), undefined);
 * ```
 */
export function firstYear(value: string): number | undefined {
  const match = YEAR.exec(value);
  return match === null ? undefined : Number(match[1]);
}

/**
 * A date from an ISO 8601 date or date-time (no zone means UTC) or epoch milliseconds (13
 * digits) or seconds (10 digits); `undefined` for anything else.
 *
 * @example
 * ```ts
 * import { parseDate } from "./values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parseDate("2021-02-16")?.toISOString(), "2021-02-16T00:00:00.000Z");
 * assert.equal(parseDate("1613509500000")?.toISOString(), "2021-02-16T21:05:00.000Z");
 * assert.equal(parseDate("last Tuesday"), undefined);
 * ```
 */
export function parseDate(value: string): Date | undefined {
  const text = value.trim();
  let ms: number;
  if (/^\d{13}$/.test(text)) ms = Number(text);
  else if (/^\d{10}$/.test(text)) ms = Number(text) * 1000;
  else {
    const match =
      /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/
        .exec(text);
    if (match === null) return undefined;
    const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", zone] =
      match;
    const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${
      zone === undefined ? "Z" : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone
    }`;
    // Date.parse rolls 2021-02-30 over to March; a real calendar day reads back the same.
    const day0 = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    if (day0.toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return undefined;
    ms = Date.parse(iso);
  }
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}
