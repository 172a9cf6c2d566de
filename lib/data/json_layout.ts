/**
 * pandas' JSON layouts (`df.to_json(orient=...)`): `records` (an array of objects, what Polars
 * reads), `columns` (pandas' default: `{column: {index: value}}`), `index` (`{index: {column:
 * value}}`), `split` (`{columns, index, data}`), `table` (`{schema, data}`) and `values` (an
 * array of arrays). Every layout but `records` is rewritten here as records, so each reads to
 * the frame its records layout gives (the index is left out, as `orient="records"` leaves it,
 * except a `table` layout's named primary key, which is a column of its own).
 *
 * @module
 */

import { ParseError } from "./errors.ts";

/**
 * The layouts {@linkcode asRecords} knows, and `auto` (decide from the document).
 *
 * @example
 * ```ts
 * import { JSON_LAYOUTS } from "./json_layout.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(JSON_LAYOUTS[0], "auto");
 * ```
 */
export const JSON_LAYOUTS = [
  "auto",
  "records",
  "columns",
  "index",
  "split",
  "table",
  "values",
] as const;

/**
 * A JSON layout: `auto` or one of pandas' `orient` values.
 *
 * @example
 * ```ts
 * import type { JsonLayout } from "./json_layout.ts";
 *
 * const pandasDefault: JsonLayout = "columns";
 * ```
 */
export type JsonLayout = (typeof JSON_LAYOUTS)[number];

type Records = Record<string, unknown>[];

/**
 * A JSON document as the records text Polars reads, or `undefined` when it is one already (an
 * array of objects, or anything pandas does not write, which Polars reads as it is).
 *
 * @throws {ParseError} when the document is not in the layout asked for, or when `auto` cannot
 * tell `columns` from `index`: the message names the layout it is and the option that reads it.
 *
 * @example
 * ```ts
 * import { asRecords } from "./json_layout.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * const columns = bytes('{"a":{"0":1,"1":2},"b":{"0":"x","1":"y"}}'); // pandas' df.to_json()
 * assert.equal(asRecords(columns, "auto", "/t.json"), '[{"a":1,"b":"x"},{"a":2,"b":"y"}]');
 * assert.equal(asRecords(bytes('[{"a":1}]'), "auto", "/t.json"), undefined);
 * ```
 */
export function asRecords(json: Uint8Array, layout: JsonLayout, path: string): string | undefined {
  // The common case stays Polars' alone: no JavaScript parse of an array of records.
  const head = new TextDecoder().decode(json.subarray(0, 256)).replace(/^\uFEFF/, "").trimStart();
  if ((layout === "auto" || layout === "records") && /^\[\s*[^\s[]/.test(head)) return undefined;
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder().decode(json).replace(/^\uFEFF/, ""), asWritten);
  } catch (error) {
    throw new ParseError(
      `Could not parse ${JSON.stringify(path)} as JSON: ${(error as Error).message}.`,
      { path },
    );
  }
  const found = layoutOf(document);
  if (found === undefined) {
    if (layout === "auto" || layout === "records") return undefined;
    throw wrongLayout(path, layout, "no layout of pandas'");
  }
  if (found === "ambiguous") {
    if (layout === "columns" || layout === "index") {
      return JSON.stringify(convert(document, layout));
    }
    throw new ParseError(
      `${JSON.stringify(path)} is an object of objects whose keys do not tell pandas' ` +
        `"columns" layout ({column: {index: value}}) from its "index" layout ({index: {column: ` +
        `value}}); pass jsonLayout: "columns" or jsonLayout: "index".`,
      { path },
    );
  }
  if (layout !== "auto" && layout !== found) throw wrongLayout(path, layout, `"${found}"`);
  const why = found === "split" || found === "table" ? flaw(document as Doc, found) : undefined;
  if (why !== undefined) {
    throw new ParseError(
      `${JSON.stringify(path)} has the keys of pandas' "${found}" JSON layout, but ${why}.`,
      { path },
    );
  }
  return found === "records" ? undefined : JSON.stringify(convert(document, found));
}

/**
 * Keeps a number as written where a JavaScript number would change it, so the records handed
 * to Polars hold what the file holds: `9007199254740993` (past 2^53) would round, `1.0` would
 * become the integer `1` and turn a float column into Int64 (the records layout keeps both).
 */
function asWritten(_key: string, value: unknown, context?: { source?: string }): unknown {
  const source = context?.source;
  return typeof value === "number" && source !== undefined && source !== String(value)
    ? (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(source)
    : value;
}

function wrongLayout(path: string, asked: JsonLayout, found: string): ParseError {
  const pass = found.startsWith('"') ? `; pass jsonLayout: ${found} to read it` : "";
  return new ParseError(
    `${JSON.stringify(path)} is not in pandas' "${asked}" JSON layout: it is in ${found}` +
      `${found.startsWith('"') ? " layout" : ""}${pass}.`,
    { path },
  );
}

type Doc = Record<string, unknown>;

/** What keeps a document with the keys of the split or table layout from being one, if anything. */
function flaw(document: Doc, layout: "split" | "table"): string | undefined {
  const rows = document.data as unknown[];
  if (layout === "split") {
    if (!Array.isArray(document.columns)) return 'its "columns" is not an array';
    const at = rows.findIndex((row) => !Array.isArray(row));
    return at < 0 ? undefined : `row ${at} of its "data" is not an array`;
  }
  const key = (document.schema as Doc).primaryKey;
  if (key !== undefined && !(Array.isArray(key) && key.every((name) => typeof name === "string"))) {
    return 'its "schema.primaryKey" is not an array of names';
  }
  const at = rows.findIndex((row) => !isObject(row));
  return at < 0 ? undefined : `row ${at} of its "data" is not an object`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isRange = (keys: string[]) => keys.every((key, i) => key === String(i));

/** Which of pandas' layouts a parsed document is in (`ambiguous`: `columns` or `index`). */
function layoutOf(document: unknown): Exclude<JsonLayout, "auto"> | "ambiguous" | undefined {
  if (Array.isArray(document)) {
    if (document.length > 0 && document.every(Array.isArray)) return "values";
    return "records";
  }
  if (!isObject(document)) return undefined;
  const keys = Object.keys(document).sort().join(",");
  if ((keys === "columns,data,index" || keys === "columns,data") && Array.isArray(document.data)) {
    return "split";
  }
  if (keys === "data,schema" && isObject(document.schema) && Array.isArray(document.data)) {
    return "table";
  }
  const inner = Object.values(document);
  if (inner.length === 0 || !inner.every(isObject)) return undefined;
  // pandas' default index is 0, 1, 2...: the keys of whichever level it is at say the layout.
  const outerRange = isRange(Object.keys(document));
  const innerRange = inner.every((value) => isRange(Object.keys(value)));
  if (innerRange && !outerRange) return "columns";
  if (outerRange && !innerRange) return "index";
  return "ambiguous";
}

/** The document's rows as records (in the layout `layout`, which it was found to be). */
function convert(document: unknown, layout: Exclude<JsonLayout, "auto" | "records">): Records {
  const record = (entries: [string, unknown][]) => Object.fromEntries(entries);
  switch (layout) {
    case "values":
      return (document as unknown[][]).map((row) =>
        record(row.map((value, i) => [`column_${i + 1}`, value]))
      );
    case "split": {
      const { columns, data } = document as { columns: unknown[]; data: unknown[][] };
      return data.map((row) => record(columns.map((name, i) => [String(name), row[i] ?? null])));
    }
    case "table": {
      const { schema, data } = document as { schema: { primaryKey?: string[] }; data: Records };
      // pandas calls an unnamed index "index": left out, as in the records layout.
      const dropped = (schema.primaryKey ?? []).filter((key) => /^(index|level_\d+)$/.test(key));
      return data.map((row) => record(Object.entries(row).filter(([k]) => !dropped.includes(k))));
    }
    case "index":
      return Object.values(document as Record<string, Record<string, unknown>>).map((row) =>
        record(Object.entries(row))
      );
    case "columns": {
      const columns = Object.entries(document as Record<string, Record<string, unknown>>);
      const index = Object.keys(columns[0]?.[1] ?? {});
      return index.map((key) =>
        record(
          columns.map(([name, values]) => [name, Object.hasOwn(values, key) ? values[key] : null]),
        )
      );
    }
  }
}
