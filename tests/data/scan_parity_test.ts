/**
 * `file.scan()` gives the table `file.dataframe()` gives, or fails with the same error class:
 * property tests over generated delimited text, Parquet and Arrow files served by the embedded
 * server.
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import pl from "../../polars.ts";
import type { DataFrame, DataType, LazyDataFrame } from "../../lib/deps.ts";
import type { Store } from "../../mod.ts";
import type { Encoding } from "../../lib/data/encoding.ts";
import type { DataFrameOptions } from "../../lib/data/options.ts";
import { DATA, dataStore } from "./_store.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";

/** A frame as plain values: its columns, their types and its rows. */
function plain(frame: DataFrame) {
  return {
    columns: frame.columns,
    dtypes: frame.dtypes.map(String),
    rows: frame.rows(),
  };
}

type Outcome = { ok: ReturnType<typeof plain> } | { failed: string };

async function outcome(read: () => Promise<DataFrame>): Promise<Outcome> {
  try {
    return { ok: plain(await read()) };
  } catch (error) {
    return { failed: error instanceof Error ? error.constructor.name : String(error) };
  }
}

/** Asserts the scan (with `query` applied) and the whole read (the same query) agree. */
async function assertSame(
  scan: () => Promise<LazyDataFrame>,
  whole: () => Promise<DataFrame>,
  query: (frame: LazyDataFrame) => LazyDataFrame,
  what: string,
) {
  const scanned = await outcome(async () => await query(await scan()).collect());
  const read = await outcome(async () => await query((await whole()).lazy()).collect());
  assert.deepEqual(scanned, read, what);
}

async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

let serial = 0;
/** Serves `bytes` under a fresh name (a new version: nothing cached) and gives its handle. */
async function served(
  served: { write(path: string, content: Uint8Array): Promise<void> },
  store: Store,
  extension: string,
  bytes: Uint8Array,
) {
  const path = `${DATA}/f${serial++}.${extension}`;
  await served.write(path, bytes);
  return store.file(path);
}

// ---- Delimited text ------------------------------------------------------------------------

const word = fc.stringMatching(/^[a-z]{1,4}$/);
/** Fields of the kinds parse.ts treats specially, and plain ones. */
const field = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom("9223372036854775808", "-99999999999999999999", "12345678901234567890123"),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => x.toFixed(3)),
  fc.constantFrom("2024-01-31", "1999-12-01", "2024-01-31 10:00", "2024-01-31T10:00:00Z"),
  word,
  fc.constantFrom("é", "Ünïcode", "naïve"),
  fc.constantFrom('"a,b"', '"say ""hi"""', '"two\nlines"', ""),
);
/** Every column of one kind, with some rows from another: types infer and then meet others. */
const column = fc.tuple(field, fc.array(fc.tuple(fc.nat(40), field), { maxLength: 2 }));

const delimited = fc.record({
  names: fc.uniqueArray(
    fc.oneof(word, fc.constant('"c""d"'), fc.constant('"x,y"')),
    { minLength: 1, maxLength: 4 },
  ),
  columns: fc.array(column, { minLength: 4, maxLength: 4 }),
  rows: fc.nat(40),
  /** Rows made one field short or long (the long one empty or not), by index. */
  ragged: fc.array(fc.tuple(fc.nat(40), fc.constantFrom("short", "empty", "long")), {
    maxLength: 1,
  }),
  blank: fc.array(fc.nat(41), { maxLength: 2 }),
  lineEnd: fc.constantFrom("\n", "\r\n", "\r"),
  finalEnd: fc.boolean(),
  tsv: fc.boolean(),
  gzip: fc.boolean(),
  /** dataframe()'s text options, which a scan takes too. */
  options: fc.record({
    hasHeader: fc.boolean(),
    tryParseDates: fc.boolean(),
    quoteChar: fc.constantFrom('"', "'"),
    nullValues: fc.oneof(word, fc.array(word, { maxLength: 2 })),
    inferSchemaLength: fc.integer({ min: 1, max: 50 }),
    skipRows: fc.nat(2),
    commentPrefix: fc.constantFrom("#", "x"),
  }, { requiredKeys: [] }),
  encoding: fc.constantFrom<Encoding | "undeclared latin-1" | undefined>(
    undefined,
    undefined,
    undefined,
    "latin-1",
    "utf-16",
    "windows-1252",
    "undeclared latin-1",
  ),
});
type Delimited = typeof delimited extends fc.Arbitrary<infer T> ? T : never;

/** The text of a generated file: its header, rows, blank lines and line ends. */
function delimitedText(file: Delimited): string {
  const sep = file.tsv ? "\t" : ",";
  const lines = [file.names.join(sep)];
  for (let row = 0; row < file.rows; row++) {
    const fields = file.names.map((_, i) => {
      const [first, others] = file.columns[i];
      return others.find(([at]) => at === row)?.[1] ?? first;
    });
    const ragged = file.ragged.find(([at]) => at === row)?.[1];
    if (ragged === "short" && fields.length > 1) fields.pop();
    if (ragged === "empty") fields.push("");
    if (ragged === "long") fields.push("9");
    lines.push(fields.join(sep));
  }
  for (const at of file.blank) lines.splice(Math.min(at + 1, lines.length), 0, "");
  return lines.join(file.lineEnd) + (file.finalEnd ? file.lineEnd : "");
}

/** The text as bytes in the file's encoding (latin-1 as windows-1252 agrees for these). */
function encoded(text: string, encoding: Delimited["encoding"]): Uint8Array<ArrayBuffer> {
  if (encoding === undefined || encoding === "utf-8") return new TextEncoder().encode(text);
  if (encoding === "utf-16") {
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      bytes[2 + 2 * i] = text.charCodeAt(i) & 0xff;
      bytes[3 + 2 * i] = text.charCodeAt(i) >> 8;
    }
    return bytes;
  }
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

Deno.test("scan parity: generated delimited text scans to the table dataframe() reads", async () => {
  await using store = await dataStore({});
  const tern = store.connect({ progress: false });
  await fc.assert(
    fc.asyncProperty(delimited, async (file) => {
      const text = delimitedText(file);
      const bytes = encoded(text, file.encoding);
      const extension = `${file.tsv ? "tsv" : "csv"}${file.gzip ? ".gz" : ""}`;
      const handle = await served(store, tern, extension, file.gzip ? await gzip(bytes) : bytes);
      const declared = file.encoding === "undeclared latin-1" ? {} : { encoding: file.encoding };
      const options = { ...file.options, ...(declared.encoding === undefined ? {} : declared) };
      await assertSame(
        () => handle.scan(options),
        () => handle.dataframe(options),
        (frame) => frame,
        `${JSON.stringify(text)} ${JSON.stringify(options)}`,
      );
    }),
    { numRuns: 40 },
  );
});

/** Files each of whose whole read differs from Polars' lazy CSV reader. */
const SPECIAL: Record<string, { text: string; bytes?: Uint8Array; encoding?: Encoding }> = {
  "blank lines": { text: "a,b\n1,x\n\n2,y\n" },
  "a quoted header": { text: '"c""d",e\n1,2\n' },
  "an integer beyond Int64": { text: "a,b\n1,x\n99999999999999999999,y\n" },
  "a decimal after the rows types are inferred from": {
    text: `a\n${"1\n".repeat(150)}1.5\n`,
  },
  "a ragged row": { text: "a,b\n1,2\n3,4,5\n" },
  "a ragged row of an empty field": { text: "a,b\n1,2,\n3,4,\n" },
  "lone CR line ends": { text: "a,b\r1,x\r2,y\r" },
  "ISO dates": { text: "d,t\n2024-01-31,2024-01-31T10:00:00Z\n2024-02-01,2024-02-01T11:00:00Z\n" },
  "invalid UTF-8": { text: "", bytes: Uint8Array.of(0x61, 0x0a, 0xe9, 0x0a) },
  "latin-1": { text: "", bytes: Uint8Array.of(0x61, 0x0a, 0xe9, 0x0a), encoding: "latin-1" },
  "an empty file": { text: "" },
  "a header alone": { text: "a,b" },
  "HTML saved as CSV": { text: "<!DOCTYPE html>\n<html><body>x</body></html>\n" },
};

for (const [name, { text, bytes, encoding }] of Object.entries(SPECIAL)) {
  Deno.test(`scan parity: ${name} scans as dataframe() reads it`, async () => {
    await using store = await dataStore({});
    const tern = store.connect({ progress: false });
    const handle = await served(store, tern, "csv", bytes ?? new TextEncoder().encode(text));
    const options = encoding === undefined ? {} : { encoding };
    await assertSame(
      () => handle.scan(options),
      () => handle.dataframe(options),
      (frame) => frame,
      name,
    );
  });
}

// ---- Parquet and Arrow, and a query's selection --------------------------------------------

const cell = {
  i: fc.option(fc.integer({ min: -50, max: 50 })),
  f: fc.option(fc.oneof(fc.double(), fc.constant(Number.NaN))),
  s: fc.option(fc.oneof(word, fc.constant(""))),
  b: fc.option(fc.boolean()),
  d: fc.option(
    fc.date({ min: new Date("1900-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
  ),
  l: fc.option(fc.array(fc.integer({ min: -9, max: 9 }), { maxLength: 3 })),
};
const table = fc.array(fc.record(cell), { maxLength: 30 });

type Row = typeof table extends fc.Arbitrary<(infer T)[]> ? T : never;

/**
 * The generated rows as bytes of `format` (a list column only when it holds a list: nodejs-polars
 * cannot make one of nulls alone).
 */
function tableBytes(rows: Row[], format: string) {
  const columns = [
    pl.Series("i", rows.map((row) => row.i), pl.Int64),
    pl.Series("f", rows.map((row) => row.f), pl.Float64),
    pl.Series("s", rows.map((row) => row.s), pl.String),
    pl.Series("b", rows.map((row) => row.b), pl.Bool),
    pl.Series("d", rows.map((row) => row.d), pl.Datetime("ms")),
  ];
  if (rows.some((row) => row.l !== null)) {
    columns.push(pl.Series("l", rows.map((row) => row.l), pl.List(pl.Int64)));
  }
  const frame = pl.DataFrame(columns);
  return new Uint8Array(format === "parquet" ? frame.writeParquet() : frame.writeIPC());
}

Deno.test("scan parity: Parquet and Arrow, whole and with columns and a filter", async () => {
  await using store = await dataStore({});
  const tern = store.connect({ progress: false });
  await fc.assert(
    fc.asyncProperty(
      table,
      fc.constantFrom("parquet", "arrow"),
      fc.boolean(),
      fc.subarray(["i", "f", "s", "b", "d", "l"], { minLength: 1 }),
      fc.integer({ min: -50, max: 50 }),
      fc.constantFrom<Record<string, DataType>>(
        {},
        { i: pl.Float64 },
        { i: pl.Int32, f: pl.Float32, s: pl.Categorical },
      ),
      async (rows, format, remote, chosen, bound, dtypes) => {
        const withList = rows.some((row) => row.l !== null);
        const kept = chosen.filter((name) => name !== "l" || withList);
        const columns = kept.length > 0 ? kept : ["i"];
        const handle = await served(store, tern, format, tableBytes(rows, format));
        const filter = (frame: LazyDataFrame) =>
          columns.includes("i") ? frame.filter(pl.col("i").gtEq(pl.lit(bound))) : frame;
        await assertSame(
          () => handle.scan({ remote }),
          () => handle.dataframe(),
          (frame) => frame,
          `${format}, remote ${remote}`,
        );
        await assertSame(
          async () => (await handle.scan({ remote })).select(...columns),
          () => handle.dataframe({ columns }),
          filter,
          `${format}, remote ${remote}, ${columns} filtered`,
        );
        // dataframe()'s options: columns and dtypes apply, those about text are ignored.
        const options = { columns, dtypes, sep: ";", nullValues: "x", skipRows: 1 };
        await assertSame(
          () => handle.scan({ remote, ...options }),
          () => handle.dataframe(options),
          filter,
          `${format}, remote ${remote}, ${columns} as ${JSON.stringify(dtypes)}, filtered`,
        );
      },
    ),
    { numRuns: 15 },
  );
});

Deno.test("scan parity: a CSV's columns and a filter select what dataframe() selects", async () => {
  await using store = await dataStore({});
  const tern = store.connect({ progress: false });
  const text = "id,day,name\n1,2024-01-02,a\n2,2024-02-03,b\n\n3,2024-03-04,c\n";
  const handle = await served(store, tern, "csv", new TextEncoder().encode(text));
  await assertSame(
    async () => (await handle.scan()).select("id", "day"),
    () => handle.dataframe({ columns: ["id", "day"] }),
    (frame) => frame.filter(pl.col("day").gt(pl.lit(new Date("2024-01-15")))),
    text,
  );
});

/** Text that reads right only with dataframe()'s text options, and those options. */
const OPTIONED: Record<string, { text: string; options: DataFrameOptions }> = {
  "a logger's export": {
    text: "logger v2\nstation 7\nid;day;name;depth\n# calibrated\n1;2024-01-02;'a;b';NA\n" +
      "NA;2024-02-03;c;1.5\n3;2024-03-04;'d';-\n",
    options: {
      // Its preamble hides the table from detection, as it does from dataframe()'s.
      format: "csv",
      sep: ";",
      quoteChar: "'",
      skipRows: 2,
      commentPrefix: "#",
      nullValues: ["NA", "-"],
      tryParseDates: false,
      dtypes: { depth: pl.Float32 },
      columns: ["id", "day", "depth"],
      inferSchemaLength: 1,
    },
  },
  "no header, pipes": {
    text: "1|x|2024-01-02\n2|y|2024-01-03\n",
    options: { hasHeader: false, sep: "|", nullValues: { column_2: "y" } },
  },
  "a column typed as text": {
    text: "id,code\n1,007\n2,010\n",
    options: { dtypes: { code: pl.Utf8 }, encoding: "latin-1" },
  },
};

for (const [name, { text, options }] of Object.entries(OPTIONED)) {
  Deno.test(`scan parity: ${name} scans with dataframe()'s options on every route as dataframe() reads it`, async () => {
    await using store = await dataStore({});
    const cached = store.connect({ progress: false });
    const uncached = store.connect({ progress: false, cacheDir: false });
    const bytes = new TextEncoder().encode(text);
    // A name that says CSV is read as dataframe() reads it; one that says nothing goes through
    // the cached copy, its format found in its bytes; without a cache both are read whole.
    for (const [tern, how] of [[cached, "cached"], [uncached, "uncached"]] as const) {
      for (const extension of ["csv", "dat"]) {
        const handle = await served(store, tern, extension, bytes);
        const expected = plain(await handle.dataframe(options));
        assert.deepEqual(plain(await (await handle.scan(options)).collect()), expected, how);
        assert.ok(expected.rows.length > 0);
      }
    }
    // A listing scans each file with them, as listing.dataframes() reads it.
    await store.write(`${DATA}/optioned/a.csv`, bytes);
    await store.write(`${DATA}/optioned/b.csv`, bytes);
    const listing = cached.folder(`${DATA}/optioned`).list();
    await assertSame(
      async () => (await listing.scan(options)).sort("source"),
      () => listing.dataframes(options),
      (frame) => frame.sort("source"),
      name,
    );
  });
}

Deno.test("scan parity: a column that Parquet or Arrow lacks is dataframe()'s ParseError at scan(), on every route", async () => {
  await using store = await dataStore({});
  const tern = store.connect({ progress: false });
  const frame = pl.DataFrame({ a: [1, 2], b: ["x", "y"] });
  for (const format of ["parquet", "arrow"]) {
    const bytes = new Uint8Array(format === "parquet" ? frame.writeParquet() : frame.writeIPC());
    const handle = await served(store, tern, format, bytes);
    const options = { columns: ["a", "z"] };
    // Both name the file and the column (dataframe() in Polars' words).
    const message = new RegExp(`"${handle.path}".* "z"`);
    await assert.rejects(handle.dataframe(options), { name: "ParseError", message });
    for (const remote of [true, false]) {
      await assert.rejects(handle.scan({ ...options, remote }), {
        name: "ParseError",
        message: `${JSON.stringify(handle.path)} has no column "z"; it has "a", "b".`,
      });
    }
  }
});

Deno.test("scan parity: a scan of text is one read, recorded as a scan, not as a dataframe() read", async () => {
  await using store = await dataStore({});
  const tern = store.connect({ progress: false });
  const handle = await served(store, tern, "csv", new TextEncoder().encode("a,b\n1,2\n"));
  const heard: string[] = [];
  const stop = tern[STORE_CONTEXT].events.subscribe((event) => {
    heard.push(
      `${event.kind}:${event.operation}${event.kind === "bytes" ? `:${event.count}` : ""}`,
    );
  });
  await (await handle.scan()).collect();
  stop();
  assert.deepEqual(tern.provenance.reads.map((read) => read.operations), [["scan"]]);
  // The store's channel hears the scan once: its copy is not read a second time as a new read.
  assert.deepEqual(heard, ["pinned:scan", "bytes:scan:8", "done:scan"]);
});

Deno.test("scan parity: an empty Parquet or Arrow file fails as dataframe() does", async () => {
  await using store = await dataStore({});
  const tern = store.connect({ progress: false });
  for (const extension of ["parquet", "arrow"]) {
    const handle = await served(store, tern, extension, new Uint8Array(0));
    await assertSame(() => handle.scan(), () => handle.dataframe(), (f) => f, extension);
  }
});

Deno.test("scan parity: listing.scan() unites files as listing.dataframes() does", async () => {
  await using store = await dataStore({
    [`${DATA}/many/a.csv`]: "id,day\n1,2024-01-02\n\n2,2024-01-03\n",
    [`${DATA}/many/b.csv`]: '"c""d",id\nx,1.5\n',
    [`${DATA}/many/c.parquet`]: new Uint8Array(
      pl.DataFrame({ id: [7, 8], flag: [true, false] }).writeParquet(),
    ),
  });
  const listing = store.connect({ progress: false }).folder(`${DATA}/many`).list();
  await assertSame(
    async () => (await listing.scan()).sort("source"),
    async () => await listing.dataframes(),
    (frame) => frame.sort("source"),
    "three files",
  );
});
