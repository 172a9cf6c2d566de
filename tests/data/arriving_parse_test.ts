/**
 * A whole read of large delimited text is parsed in batches as its bytes arrive, and the frame
 * it gives is exactly the whole-file parse's (types, values, nulls, dates, column order) or the
 * whole file is parsed after all: never another table.
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import type { DataFrame } from "../../lib/deps.ts";
import { ARRIVING_MIN_BYTES, ArrivingParse } from "../../lib/data/arriving_parse.ts";
import type { DataFrameOptions } from "../../lib/data/options.ts";
import { parseLocal } from "../../lib/data/parse.ts";
import { loadPolars } from "../../lib/data/polars.ts";
import { ReadEvents } from "../../lib/data/read_events.ts";
import { Reader } from "../../lib/data/reader.ts";
import { versionOfEntry } from "../../lib/client/file_version.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { DATA, dataStore } from "./_store.ts";

const pl = await loadPolars();
const encoder = new TextEncoder();

/** What a column holds: its values, and what it turns into where the table's "late" row is. */
type Kind = "int" | "float" | "text" | "quoted" | "date" | "datetime" | "bool";

interface Column {
  kind: Kind;
  /** Rows from the start left empty (null), so the first batch may see no value at all. */
  nullRows: number;
  /** Whether the late row holds something the first rows did not show. */
  late: boolean;
}

interface Table {
  columns: Column[];
  sep: "," | ";" | "\t";
  /** Rows generated one by one before the repeated block. */
  headRows: number;
  /** Rows of the block repeated to fill the file. */
  blockRows: number;
  /** Where in the file the late row goes, as a fraction of its blocks. */
  lateAt: number;
}

/** The value of `column` in row `i` of the block, which is row `at` of the file. */
function value(column: Column, i: number, at: number, sep: string, late: boolean): string {
  if (at < column.nullRows) return "";
  const late_ = late && column.late;
  switch (column.kind) {
    case "int":
      return late_ ? "12.5" : String((i * 7919) % 2000 - 700);
    case "float":
      return late_ ? "" : ((i % 977) * 0.25).toFixed(2);
    case "text":
      return late_ ? "façade" : `t${i % 17}`;
    case "quoted":
      // A separator, a doubled quote and a line break inside quotes.
      return late_ ? '"2012-01-01"' : `"a${sep}b ""q"" ${i % 5}\nnext line"`;
    case "date":
      return late_
        ? "n/a"
        : `2012-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`;
    case "datetime":
      // Late: another ISO shape, which the reader's own parse takes.
      return late_ ? "2012-01-02 10:00" : `2012-01-02T10:${String(i % 60).padStart(2, "0")}:00`;
    case "bool":
      return late_ ? "maybe" : i % 3 === 0 ? "true" : "false";
  }
}

/** The table's text: header, head rows, then the block repeated up to `bytes`, one late row. */
function tableText(table: Table, bytes: number): string {
  const { columns, sep, headRows, blockRows } = table;
  const row = (i: number, at: number, late = false) =>
    columns.map((column) => value(column, i, at, sep, late)).join(sep) + "\n";
  const header = columns.map((column, k) => `${column.kind}${k}`).join(sep) + "\n";
  const block = (at: number) =>
    Array.from({ length: blockRows }, (_, j) => row(headRows + j, at + j)).join("");
  // Blocks past every column's empty rows are all alike: made once.
  const nulls = Math.max(...columns.map((column) => column.nullRows));
  const alike = block(nulls);
  const parts = [header, ...Array.from({ length: headRows }, (_, i) => row(i, i))];
  let size = parts.reduce((sum, part) => sum + part.length, 0);
  const lateAt = size + (bytes - size) * table.lateAt;
  for (let at = headRows, late = false; size < bytes; at += blockRows) {
    if (!late && size >= lateAt) {
      parts.push(row(0, nulls, true));
      late = true;
    }
    const next = at < nulls ? block(at) : alike;
    parts.push(next);
    size += next.length;
  }
  return parts.join("");
}

const column: fc.Arbitrary<Column> = fc.record({
  kind: fc.constantFrom<Kind>("int", "float", "text", "quoted", "date", "datetime", "bool"),
  nullRows: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 })),
  late: fc.boolean(),
});

const table: fc.Arbitrary<Table> = fc.record({
  columns: fc.array(column, { minLength: 1, maxLength: 5 }),
  sep: fc.constantFrom<Table["sep"]>(",", ";", "\t"),
  headRows: fc.integer({ min: 0, max: 400 }),
  blockRows: fc.integer({ min: 1, max: 80 }),
  lateAt: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** Format options, each as a read may pass it (`columns` and `dtypes` by column number). */
const formatOptions = fc.record({
  tryParseDates: fc.boolean(),
  inferSchemaLength: fc.constantFrom(undefined, 1, 10, 100, 1000, 100_000),
  columns: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
  stringColumn: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
}, { requiredKeys: [] });

function optionsFor(
  t: Table,
  o: {
    tryParseDates?: boolean;
    inferSchemaLength?: number;
    columns?: number;
    stringColumn?: number;
  },
): DataFrameOptions {
  const names = t.columns.map((column, k) => `${column.kind}${k}`);
  const options: DataFrameOptions = { sep: t.sep };
  if (o.tryParseDates !== undefined) options.tryParseDates = o.tryParseDates;
  if (o.inferSchemaLength !== undefined) options.inferSchemaLength = o.inferSchemaLength;
  // Every other column, starting at the one chosen.
  if (o.columns !== undefined) options.columns = names.filter((_, k) => k % 2 === o.columns! % 2);
  if (o.stringColumn !== undefined) {
    options.dtypes = { [names[o.stringColumn % names.length]]: pl.String };
  }
  return options;
}

function assertSameFrame(actual: DataFrame, expected: DataFrame): void {
  assert.deepEqual(actual.columns, expected.columns);
  assert.deepEqual(actual.dtypes.map(String), expected.dtypes.map(String));
  assert.equal(actual.height, expected.height);
  assert.ok(actual.frameEqual(expected, true), "the same values and nulls");
}

/** The frame the whole-file parse gives, or its error. */
async function whole(bytes: Uint8Array, sep: string, options: DataFrameOptions) {
  const detected = { format: "csv", gzip: false, sep } as const;
  return await parseLocal({ pl, detected, source: { bytes }, options, path: "/a/t.csv" })
    .then((frame) => ({ frame }), (error: Error) => ({ error }));
}

/** The bytes pushed in chunks of the sizes given, in turn, then the arriving parse's frame. */
function arriving(bytes: Uint8Array, sep: string, options: DataFrameOptions, sizes: number[]) {
  const detected = { format: "csv", gzip: false, sep } as const;
  const parse = ArrivingParse.of({
    pl,
    detected,
    options,
    path: "/a/t.csv",
    size: ARRIVING_MIN_BYTES,
  })!;
  const reused = new Uint8Array(Math.max(...sizes));
  for (let at = 0, turn = 0; at < bytes.length; turn++) {
    const piece = bytes.subarray(at, at + sizes[turn % sizes.length]);
    // One reused buffer, as a whole read's download hands its chunks over.
    reused.set(piece);
    parse.push(reused.subarray(0, piece.length));
    reused.fill(0);
    at += piece.length;
  }
  return parse.finish();
}

Deno.test("the arriving parse gives the whole-file parse's frame or none, for any table and options", async () => {
  let taken = 0, runs = 0;
  await fc.assert(
    fc.asyncProperty(
      table,
      formatOptions,
      fc.array(fc.integer({ min: 1, max: 300_000 }), { minLength: 1, maxLength: 4 }),
      async (t, o, sizes) => {
        const options = optionsFor(t, o);
        // Past the splitter's first batches (64 KiB, then 256 KiB, 1 MiB): several batches.
        const bytes = encoder.encode(tableText(t, 1_600_000));
        const frame = arriving(bytes, t.sep, options, sizes);
        runs++;
        if (frame === undefined) return;
        taken++;
        const expected = await whole(bytes, t.sep, options);
        assert.ok(
          "frame" in expected,
          `the whole parse failed: ${"error" in expected && expected.error}`,
        );
        assertSameFrame(frame, expected.frame);
      },
    ),
    { numRuns: 100, seed: 3013 },
  );
  // Not vacuous: the batches were kept for a fair share of the tables.
  assert.ok(taken >= runs / 4, `${taken} of ${runs} taken`);
});

Deno.test("the arriving parse gives up where the batches could part from the whole parse", async () => {
  const int = (late: boolean, nullRows = 0): Column => ({ kind: "int", nullRows, late });
  const base: Table = {
    columns: [int(false), { kind: "date", nullRows: 0, late: false }],
    sep: ",",
    headRows: 0,
    blockRows: 50,
    lateAt: 0.9,
  };
  const cases: { name: string; table: Table; options?: DataFrameOptions; kept: boolean }[] = [
    { name: "plain", table: base, kept: true },
    // Widened to Float64 from the first row by the whole parse, only late by the batches.
    { name: "a decimal met late", table: { ...base, columns: [int(true)] }, kept: false },
    // The first batch holds fewer rows than the types are inferred from: all of them empty
    // here, so it alone would make the column text.
    {
      name: "inference on more rows",
      table: { ...base, columns: [int(false, 50_000), base.columns[1]] },
      options: { inferSchemaLength: 100_000 },
      kept: false,
    },
    // A column empty in the whole first batch is text in both.
    {
      name: "null in the first batch",
      table: { ...base, columns: [int(false, 20_000)] },
      kept: true,
    },
    // Dates only after the rows dates are judged from: text in both.
    {
      name: "dates in later batches only",
      table: { ...base, columns: [int(false), { kind: "date", nullRows: 20_000, late: false }] },
      kept: true,
    },
    // A line break inside quotes in every row: cut across chunks, never inside a record.
    {
      name: "quoted line breaks",
      table: { ...base, columns: [int(false), { kind: "quoted", nullRows: 0, late: false }] },
      kept: true,
    },
  ];
  for (const c of cases) {
    const options = { sep: ",", ...c.options };
    const bytes = encoder.encode(tableText(c.table, 1_600_000));
    const frame = arriving(bytes, ",", options, [65_537, 7, 1 << 20]);
    const expected = await whole(bytes, ",", options);
    assert.ok("frame" in expected, c.name);
    if (frame !== undefined) assertSameFrame(frame, expected.frame);
    assert.equal(frame !== undefined, c.kept, c.name);
  }
});

Deno.test("a whole read over the server gives the frame a parse of its cached copy gives", async () => {
  await using served = await dataStore({});
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      table,
      formatOptions,
      fc.constantFrom<"utf-8" | "latin-1" | undefined>(undefined, undefined, "latin-1"),
      async (t, o, encoding) => {
        const options = { ...optionsFor(t, o), ...(encoding && { encoding }) };
        const text = tableText(t, ARRIVING_MIN_BYTES);
        // Latin-1 for the latin-1 reads (every character generated is in it).
        const bytes = encoding === "latin-1"
          ? Uint8Array.from(text, (c) => c.charCodeAt(0))
          : encoder.encode(text);
        const path = `${DATA}/big/${n++}.csv`;
        await served.write(path, bytes);
        const store = served.connect({ progress: false });
        const file = store.file(path);
        const settle = (read: Promise<DataFrame>) =>
          read.then((frame) => ({ frame }), (error: Error) => ({ error }));
        const cold = await settle(file.dataframe(options));
        // Served from the cache: the whole copy, parsed once.
        const cached = await settle(file.dataframe(options));
        await Deno.remove(`${served.root}${path}`);
        await store.cache.clear();
        if ("error" in cached) {
          assert.ok("error" in cold, `only the cached read failed: ${cached.error}`);
          assert.equal(cold.error.constructor, cached.error.constructor);
          assert.equal(cold.error.message, cached.error.message);
          return;
        }
        assert.ok("frame" in cold, `only the cold read failed: ${"error" in cold && cold.error}`);
        assertSameFrame(cold.frame, cached.frame);
      },
    ),
    { numRuns: 8, seed: 3013 },
  );
});

Deno.test("a whole read hands every chunk to `each` as it passes, before the bytes are kept", async () => {
  const text = "a,b\n" + "1,2\n".repeat(300_000);
  await using served = await dataStore({ [`${DATA}/t.csv`]: text });
  const store = served.connect({ progress: false });
  const { transport } = store[STORE_CONTEXT];
  const entry = await store.file(`${DATA}/t.csv`).stat();
  const call = { events: new ReadEvents(), operation: "dataframe", whole: true } as const;
  await using bytes = await new Reader(transport, undefined)
    .open({ version: versionOfEntry(transport.url, entry) }, call);
  const seen: Uint8Array<ArrayBuffer>[] = [];
  // Copied: a whole read's chunks share one buffer.
  const kept = await bytes.whole(undefined, {
    each: (chunk) => seen.push(new Uint8Array(chunk)),
  });
  assert.ok(seen.length > 1);
  assert.deepEqual(new Uint8Array(await new Blob(seen).arrayBuffer()), kept.bytes);
  assert.equal(kept.bytes?.length, text.length);
});
