/**
 * Conversions between the data formats the sample store ships: JSON records to CSV/TSV and
 * NDJSON, gzip, and (through Polars) Parquet and Arrow IPC.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { loadPolars } from "../polars/adapter.ts";

/**
 * A row of a JSON array-of-records file.
 *
 * @example
 * ```ts
 * import { type JsonRecord, toDelimited } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * const row: JsonRecord = { species: "Adelie", mass: 3750 };
 * assert.equal(new TextDecoder().decode(toDelimited([row])), "species,mass\nAdelie,3750\n");
 * ```
 */
export type JsonRecord = Record<string, unknown>;

const encoder = new TextEncoder();

/**
 * One field of a delimited text table: empty for null or undefined, JSON for an object, and
 * quoted (inner quotes doubled) when it holds the separator, a quote or a line break.
 *
 * @example
 * ```ts
 * import { csvCell } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(csvCell('say "hi", twice'), '"say ""hi"", twice"');
 * assert.equal(csvCell(null), "");
 * assert.equal(csvCell("a,b", "\t"), "a,b");
 * ```
 */
export function csvCell(value: unknown, sep = ","): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string"
    ? value
    : typeof value === "object"
    ? JSON.stringify(value)
    : String(value);
  const needsQuotes = text.includes(sep) || /["\n\r]/.test(text);
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Column names of `records`: the keys of all rows in order of first appearance.
 *
 * @example
 * ```ts
 * import { columnsOf } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(columnsOf([{ a: 1 }, { b: 2, a: 3 }]), ["a", "b"]);
 * ```
 */
export function columnsOf(records: readonly JsonRecord[]): string[] {
  return [...new Set(records.flatMap((record) => Object.keys(record)))];
}

/**
 * Delimited text (RFC 4180 quoting, `\n` line ends, header row) from JSON records. Missing and
 * `null` values become empty fields.
 *
 * @example CSV and TSV
 * ```ts
 * import { toDelimited } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * const rows = [{ name: "Adelie, P.", mass: 3750 }, { name: "Gentoo", mass: null }];
 * const csv = new TextDecoder().decode(toDelimited(rows));
 * assert.equal(csv, 'name,mass\n"Adelie, P.",3750\nGentoo,\n');
 * assert.ok(new TextDecoder().decode(toDelimited(rows, "\t")).startsWith("name\tmass\n"));
 * ```
 */
export function toDelimited(records: readonly JsonRecord[], separator = ","): Uint8Array {
  const columns = columnsOf(records);
  const lines = [columns.map((c) => csvCell(c, separator)).join(separator)];
  for (const r of records) lines.push(columns.map((c) => csvCell(r[c], separator)).join(separator));
  return encoder.encode(lines.join("\n") + "\n");
}

/**
 * Newline-delimited JSON: one compact JSON value per line.
 *
 * @example
 * ```ts
 * import { toNdjson } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new TextDecoder().decode(toNdjson([{ a: 1 }, { a: 2 }])), '{"a":1}\n{"a":2}\n');
 * ```
 */
export function toNdjson(values: readonly unknown[]): Uint8Array {
  return encoder.encode(values.map((v) => JSON.stringify(v)).join("\n") + "\n");
}

async function pipeThrough(bytes: Uint8Array, stream: CompressionStream): Promise<Uint8Array> {
  const body = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/**
 * Gzip-compresses `bytes` with the built-in CompressionStream (header mtime 0, so the output
 * is the same on every run).
 *
 * @example Round trip
 * ```ts
 * import { gzip } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * const packed = await gzip(new TextEncoder().encode("a,b\n1,2\n"));
 * const body = new Blob([packed as Uint8Array<ArrayBuffer>]).stream();
 * const back = new Response(body.pipeThrough(new DecompressionStream("gzip")));
 * assert.equal(await back.text(), "a,b\n1,2\n");
 * ```
 */
export function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return pipeThrough(bytes, new CompressionStream("gzip"));
}

/**
 * Zlib-wraps (RFC 1950) `bytes` with deflate, as PNG image data requires.
 *
 * @example
 * ```ts
 * import { zlib } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * const z = await zlib(new Uint8Array(100));
 * assert.equal(z[0], 0x78);
 * ```
 */
export function zlib(bytes: Uint8Array): Promise<Uint8Array> {
  return pipeThrough(bytes, new CompressionStream("deflate"));
}

/**
 * Options for {@linkcode csvToParquet} and {@linkcode csvToArrow}.
 *
 * @example
 * ```ts
 * import { csvToParquet, type TableOptions } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * const options: TableOptions = { parseDates: true };
 * const parquet = await csvToParquet(new TextEncoder().encode("day,mm\n2012-01-01,1.5\n"), options);
 * assert.equal(new TextDecoder().decode(parquet.subarray(0, 4)), "PAR1");
 * ```
 */
export interface TableOptions {
  /** Parse ISO date columns into Date types (default false). */
  parseDates?: boolean;
}

// Polars is a native addon; load it only when a binary table is actually produced, so that
// importing the sample-store constants stays cheap.
async function readTable(csv: Uint8Array, options: TableOptions) {
  const pl = await loadPolars();
  return pl.readCSV(Buffer.from(csv), {
    tryParseDates: options.parseDates ?? false,
    inferSchemaLength: 100_000,
  });
}

/**
 * Parquet bytes for a delimited text table, with column types inferred by Polars.
 *
 * @example
 * ```ts
 * import { csvToParquet } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * const parquet = await csvToParquet(new TextEncoder().encode("a,b\n1,x\n"));
 * assert.equal(new TextDecoder().decode(parquet.subarray(0, 4)), "PAR1");
 * ```
 */
export async function csvToParquet(csv: Uint8Array, options: TableOptions = {}): Promise<
  Uint8Array
> {
  const df = await readTable(csv, options);
  return new Uint8Array(df.writeParquet({ compression: "zstd" }));
}

/**
 * Arrow IPC file bytes for a delimited text table, with column types inferred by Polars.
 *
 * @example
 * ```ts
 * import { csvToArrow } from "./conversions.ts";
 * import assert from "node:assert/strict";
 *
 * const arrow = await csvToArrow(new TextEncoder().encode("a,b\n1,x\n"));
 * assert.equal(new TextDecoder().decode(arrow.subarray(0, 6)), "ARROW1");
 * ```
 */
export async function csvToArrow(csv: Uint8Array, options: TableOptions = {}): Promise<
  Uint8Array
> {
  const df = await readTable(csv, options);
  return new Uint8Array(df.writeIPC());
}
