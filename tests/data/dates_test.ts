/**
 * Dates in delimited text (lib/data/dates.ts): ISO dates and datetimes arrive as Date and
 * Datetime by default, the card says which columns were parsed, `tryParseDates: false` keeps
 * text, every batch gets the same types, and a later value that is not a date is an error that
 * names it — never a silent null.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import fc from "fast-check";
import pl, { type DataFrame } from "../../polars.ts";
import { dateColumns } from "../../lib/data/dates.ts";
import { datesNote } from "../../lib/handles/display.ts";
import { ParseError } from "../../lib/data/errors.ts";
import { BatchParser, combineFrames, parseWhole } from "../../lib/data/parse.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { DATA, dataStore } from "./_store.ts";

const SEATTLE =
  "/iplant/home/shared/commons_repo/curated/NOAA_SeattleWeather_Daily_2016/seattle-weather.csv";

function plainView(frame: DataFrame): string {
  return (frame as unknown as Record<symbol, () => { "text/plain": string }>)[JUPYTER_DISPLAY]()[
    "text/plain"
  ];
}

Deno.test("seattle-weather.csv: date arrives as Date, the card says so; tryParseDates: false keeps text", async () => {
  await using store = await dataStore("sample");
  const file = store.connect().file(SEATTLE);
  const frame = await file.dataframe({ progress: false });
  assert.equal(String(frame.getColumn("date").dtype), String(pl.Date));
  assert.equal(frame.height, 1461);
  const dates = frame.getColumn("date").toArray() as unknown as Date[];
  assert.deepEqual([dates[0].toISOString(), dates.at(-1)!.toISOString()], [
    "2012-01-01T00:00:00.000Z",
    "2015-12-31T00:00:00.000Z",
  ]);
  assert.equal(frame.getColumn("date").nullCount(), 0);
  assert.match(plainView(frame), /\n {2}dates parsed from text: date \(tryParseDates: false/);
  const html = (frame as unknown as Record<symbol, () => { "text/html": string }>)
    [JUPYTER_DISPLAY]()["text/html"];
  assert.match(html, /<span>dates parsed from text: date \(tryParseDates: false keeps text\)/);

  const text = await file.dataframe({ tryParseDates: false, progress: false });
  assert.equal(String(text.getColumn("date").dtype), String(pl.String));
  assert.equal(text.getColumn("date").get(0), "2012-01-01");
  assert.ok(!plainView(text).includes("dates parsed"));
  // Types the caller gives win, and are not claimed as parsed.
  const typed = await file.dataframe({ dtypes: { date: pl.String }, progress: false });
  assert.equal(String(typed.getColumn("date").dtype), String(pl.String));
  // Parquet has types of its own: nothing to say.
  const parquet = await store.connect().file(
    "/iplant/home/shared/commons_repo/curated/NOAA_SeattleWeather_Daily_Jun2019/weather.parquet",
  ).dataframe({ progress: false });
  assert.equal(String(parquet.getColumn("date").dtype), String(pl.Date));
  assert.ok(!plainView(parquet).includes("dates parsed"));
});

Deno.test("ISO dates and datetimes only: offsets become UTC, ambiguous or impossible dates stay text", async () => {
  const csv = [
    "day,local,offset,us,impossible,mixed,note",
    "2012-01-31,2012-01-31 10:00,2012-01-31T10:00:00Z,01/02/2012,2013-02-29,2012-01-31T10:00Z,x",
    "2012-02-29,2012-02-01T11:30:15.250,2012-02-01T11:30:00+02:00,01/03/2012,2013-02-28,2012-02-01T11:30,",
    ",,,,,,2012-03-01",
  ].join("\n");
  await using store = await dataStore({ [`${DATA}/forms.csv`]: csv });
  const frame = await store.connect().file(`${DATA}/forms.csv`).dataframe({ progress: false });
  const types = Object.fromEntries(frame.columns.map((c, i) => [c, String(frame.dtypes[i])]));
  assert.deepEqual(types, {
    day: String(pl.Date),
    local: String(pl.Datetime("us")),
    offset: String(pl.Datetime("us", "UTC")),
    us: String(pl.String), // 1 February or 2 January: not guessed
    impossible: String(pl.String), // 2013 has no 29 February
    mixed: String(pl.String), // an offset and none: not one kind of value
    note: String(pl.String), // dates after the first rows' text do not make it a date column
  });
  const iso = (column: string) =>
    (frame.getColumn(column).toArray() as unknown as (Date | null)[]).map((d) =>
      d?.toISOString() ?? null
    );
  assert.deepEqual(iso("local"), ["2012-01-31T10:00:00.000Z", "2012-02-01T11:30:15.250Z", null]);
  assert.deepEqual(iso("offset"), ["2012-01-31T10:00:00.000Z", "2012-02-01T09:30:00.000Z", null]);
  assert.deepEqual(frame.getColumn("us").toArray(), ["01/02/2012", "01/03/2012", null]);
});

/** 300 days from 2020-01-01, one a row; `bad` replaces row `at`'s date. */
function days(bad?: { at: number; value: string }): string {
  const rows = Array.from({ length: 300 }, (_, i) => {
    const date = new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
    return `${i === bad?.at ? bad.value : date},${i}`;
  });
  return `day,n\n${rows.join("\n")}\n`;
}

Deno.test("every batch gets the same type, and batches equal the whole read", async () => {
  const text = days();
  const whole = await parseWhole(
    pl,
    { format: "csv", gzip: false, sep: "," },
    { bytes: new TextEncoder().encode(text) },
    {},
    "/a/days.csv",
  );
  const parser = new BatchParser(pl, { format: "csv", gzip: false, sep: "," }, {}, "/a/days.csv");
  const lines = text.split("\n");
  const chunks = [lines.slice(0, 41), lines.slice(41, 181), lines.slice(181)]
    .map((part, i, all) => part.join("\n") + (i < all.length - 1 ? "\n" : ""));
  const batches = chunks.map((chunk) => parser.parse(new TextEncoder().encode(chunk)));
  for (const batch of batches) assert.equal(String(batch.getColumn("day").dtype), String(pl.Date));
  assert.ok(combineFrames(pl, batches).frameEqual(whole, true));

  await using store = await dataStore({ [`${DATA}/days.csv`]: text });
  const file = store.connect().file(`${DATA}/days.csv`);
  const types = new Set<string>();
  let rows = 0;
  for await (const batch of file.batches({ rows: 40, progress: false })) {
    types.add(String(batch.getColumn("day").dtype));
    rows += batch.height;
  }
  assert.deepEqual([...types], [String(pl.Date)]);
  assert.equal(rows, 300);
});

Deno.test("a later value that is not a date is an error naming it, never a silent null", async () => {
  const text = days({ at: 250, value: "n/a" });
  await using store = await dataStore({ [`${DATA}/gap.csv`]: text });
  const file = store.connect().file(`${DATA}/gap.csv`);
  for (
    const read of [
      () => file.dataframe({ progress: false }),
      async () => {
        for await (const _ of file.batches({ rows: 100, progress: false })) { /* read on */ }
      },
      () =>
        parseWhole(
          pl,
          { format: "csv", gzip: false, sep: "," },
          { bytes: Buffer.from(text) },
          {},
          `${DATA}/gap.csv`,
        ),
    ]
  ) {
    await assert.rejects(read, (error: unknown) => {
      assert.ok(error instanceof ParseError, String(error));
      assert.match(error.message, /`n\/a`/);
      assert.match(error.message, /nullValues/);
      assert.match(error.message, /tryParseDates: false/);
      return true;
    });
  }
  // The remedies the error names work.
  const nulls = await file.dataframe({ nullValues: "n/a", progress: false });
  assert.equal(String(nulls.getColumn("day").dtype), String(pl.Date));
  assert.equal(nulls.getColumn("day").nullCount(), 1);
  const text2 = await file.dataframe({ tryParseDates: false, progress: false });
  assert.equal(text2.getColumn("day").get(250), "n/a");
});

/** How every value of a generated date column is written, unless it deviates. */
interface Style {
  date: boolean;
  sep: "T" | " ";
  seconds: boolean;
  /** Digits of the fraction of a second, 0 for none. */
  fraction: number;
  offset: "" | "Z" | "+hh:mm" | "+hhmm" | "+hh";
}

const style: fc.Arbitrary<Style> = fc.record({
  date: fc.boolean(),
  sep: fc.constantFrom("T" as const, " " as const),
  seconds: fc.boolean(),
  fraction: fc.constantFrom(0, 0, 1, 3, 6, 6, 9), // 9 digits in the sample: the column stays text
  offset: fc.constantFrom(
    "" as const,
    "" as const,
    "Z" as const,
    "+hh:mm" as const,
    "+hhmm" as const,
    "+hh" as const,
  ),
});

const two = (n: number) => String(n).padStart(2, "0");

/**
 * One value written in `s`; `odd` adds now and then the leap second and days past a month's end
 * (2013-02-30: no date, so a column holding one in its first rows stays text).
 */
function written(s: Style, odd = false): fc.Arbitrary<string> {
  return fc.record({
    year: fc.integer({ min: 1000, max: 2999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: odd ? fc.integer({ min: 1, max: 31 }) : fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.oneof({ weight: 30, arbitrary: fc.integer({ min: 0, max: 59 }) }, fc.constant(60)),
    digits: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }),
    sign: fc.constantFrom("+", "-"),
    offsetHour: fc.integer({ min: 0, max: 14 }),
    offsetMinute: fc.constantFrom(0, 30, 45),
  }).map((v) => {
    const day = `${v.year}-${two(v.month)}-${two(v.day)}`;
    if (s.date) return day;
    const fraction = s.seconds && s.fraction > 0
      ? `.${v.digits.slice(0, s.fraction).join("")}`
      : "";
    const offset = {
      "": "",
      Z: "Z",
      "+hh:mm": `${v.sign}${two(v.offsetHour)}:${two(v.offsetMinute)}`,
      "+hhmm": `${v.sign}${two(v.offsetHour)}${two(v.offsetMinute)}`,
      "+hh": `${v.sign}${two(v.offsetHour)}`,
    }[s.offset];
    return `${day}${s.sep}${two(v.hour)}:${two(v.minute)}` +
      `${s.seconds ? `:${two(v.second)}` : ""}${fraction}${offset}`;
  });
}

/** Values that are no ISO date, or one with something around it. */
const garbage: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("n/a", "01/02/2012", "2013-02-29", "2012-01-01 24:00", "2012-13-01", "2012", "x"),
  style.chain((s) => written(s)).map((v) => `${v}x`),
  style.chain((s) => written(s)).map((v) => ` ${v}`),
  style.chain((s) => written(s)).map((v) => `"${v}"`), // quoted: the same value
);

/**
 * A CSV of a date column in one style (with gaps) for its first rows, then a tail where values
 * deviate now and then: another style, the same with nanoseconds, or garbage.
 */
const datedCsv: fc.Arbitrary<string> = style.chain((s) => {
  const gap = { weight: 3, arbitrary: fc.constant("") };
  const head = fc.array(fc.oneof({ weight: 30, arbitrary: written(s) }, gap), {
    minLength: 1,
    maxLength: 120,
    size: "max", // else fast-check keeps arrays near ten values: no tail after the sample
  });
  const tail = fc.array(
    fc.oneof(
      { weight: 20, arbitrary: written(s) },
      { weight: 2, arbitrary: written(s, true) },
      gap,
      { weight: 1, arbitrary: style.chain((other) => written(other, true)) },
      // The same shape with nanoseconds: a fraction a microsecond cannot hold.
      { weight: 1, arbitrary: written({ ...s, date: false, seconds: true, fraction: 9 }) },
      { weight: 1, arbitrary: garbage },
    ),
    { maxLength: 120, size: "max" },
  );
  return fc.tuple(head, tail).map(([h, t]) => [...h, ...t]);
}).map((values) => `d,n\n${values.map((v, i) => `${v},${i}`).join("\n")}\n`);

const CSV = { format: "csv", gzip: false, sep: "," } as const;

/** The reference: Polars' reader parsing the date columns itself, as tern read before. */
function referenceRead(bytes: Buffer): DataFrame {
  const text = { sep: ",", hasHeader: true };
  const dates = dateColumns(pl, pl.readCSV(bytes, text), {});
  const dtypes = Object.fromEntries(Object.entries(dates).map(([name, d]) => [name, d.type]));
  return pl.readCSV(bytes, { ...text, rechunk: false, dtypes });
}

/**
 * The first value of a Datetime column with a fraction a microsecond cannot hold, as the reader
 * sees it (a quoted field without its quotes).
 */
function finerThanMicrosecond(csv: string, frame: DataFrame): string | undefined {
  if (!String(frame.getColumn("d").dtype).includes("Datetime")) return undefined;
  return csv.split("\n").slice(1).map((line) => line.slice(0, line.lastIndexOf(",")))
    .map((field) => field.replace(/^"(.*)"$/, "$1"))
    .find((value) => /\.\d{6}\d*[1-9]/.test(value));
}

Deno.test("property: the fast read equals the reader's own date parse, or refuses a cut fraction; batches agree", async () => {
  await fc.assert(
    fc.asyncProperty(datedCsv, async (csv) => {
      const bytes = Buffer.from(csv);
      let reference: DataFrame | undefined;
      try {
        reference = referenceRead(bytes);
      } catch { /* the fast read must fail too */ }
      const whole = () => parseWhole(pl, CSV, { bytes }, {}, "/a/d.csv");
      if (reference === undefined) {
        // Values after the sample are converted with the column's format, which skips spaces
        // before a value: the read refuses as the reader does, or reads such a value as the
        // reader reads it without them (the date column is each line's first field).
        const result: DataFrame | unknown = await whole().catch((error: unknown) => error);
        if (result instanceof ParseError) return;
        assert.ok(!(result instanceof Error), String(result));
        const frame = result as DataFrame;
        const unpadded = referenceRead(Buffer.from(csv.replace(/^[ \t]+/gm, "")));
        assert.equal(finerThanMicrosecond(csv, unpadded), undefined);
        assert.deepEqual(frame.dtypes.map(String), unpadded.dtypes.map(String));
        assert.ok(frame.frameEqual(unpadded, true), `${frame}\n!=\n${unpadded}`);
        return;
      }
      const cut = finerThanMicrosecond(csv, reference);
      if (cut !== undefined) {
        await assert.rejects(whole, (error: unknown) => {
          assert.ok(error instanceof ParseError, String(error));
          assert.ok(error.message.includes(`\`${cut}\``), error.message);
          return true;
        });
        return;
      }
      const frame = await whole();
      assert.deepEqual(frame.dtypes.map(String), reference.dtypes.map(String));
      assert.ok(frame.frameEqual(reference, true), `${frame}\n!=\n${reference}`);
      // Batches: the first holds the sampled rows, so it decides the same types.
      const [header, ...rows] = csv.trimEnd().split("\n");
      const half = Math.max(100, 100 + Math.ceil((rows.length - 100) / 2));
      const parser = new BatchParser(pl, CSV, {}, "/a/d.csv");
      const batches = [[header, ...rows.slice(0, 100)], rows.slice(100, half), rows.slice(half)]
        .filter((part) => part.length > 0)
        .map((part) => parser.parse(new TextEncoder().encode(`${part.join("\n")}\n`)));
      assert.ok(combineFrames(pl, batches).frameEqual(frame, true));
    }),
    // Unshrunk counterexamples: shrinking CSVs of 200 rows takes minutes.
    { numRuns: 400, endOnFailure: true },
  );
});

Deno.test("a later value with spaces before it is read as the date it writes; in the sample it keeps the column text", async () => {
  const rows = Array.from(
    { length: 100 },
    (_, i) => `2000-01-${two(1 + (i % 28))} 10:${two(i % 60)}Z,${i}`,
  );
  const later = Buffer.from(`d,n\n${[...rows, " 1764-05-09 02:24Z,100"].join("\n")}\n`);
  const frame = await parseWhole(pl, CSV, { bytes: later }, {}, "/a/d.csv");
  assert.equal(String(frame.getColumn("d").dtype), String(pl.Datetime("us", "UTC")));
  assert.equal(
    (frame.getColumn("d").toArray().at(-1) as unknown as Date).toISOString(),
    "1764-05-09T02:24:00.000Z",
  );
  const early = Buffer.from(`d,n\n${[" 1764-05-09 02:24Z,0", ...rows].join("\n")}\n`);
  const text = await parseWhole(pl, CSV, { bytes: early }, {}, "/a/d.csv");
  assert.equal(String(text.getColumn("d").dtype), String(pl.String));
});

Deno.test("microseconds and offsets arrive exact through the server; a nanosecond fraction after the sample is an error naming it", async () => {
  const rows = Array.from(
    { length: 150 },
    (_, i) => `2024-03-01T12:00:${two(i % 60)}.${String(i).padStart(6, "0")}+02:00,${i}`,
  );
  const fine = `at,n\n${rows.join("\n")}\n`;
  const finer = `at,n\n${
    rows.map((row, i) => i === 120 ? "2024-03-01T12:00:00.123456789+02:00,120" : row).join("\n")
  }\n`;
  await using store = await dataStore({ [`${DATA}/fine.csv`]: fine, [`${DATA}/finer.csv`]: finer });
  const frame = await store.connect().file(`${DATA}/fine.csv`).dataframe({ progress: false });
  const at = frame.getColumn("at");
  assert.equal(String(at.dtype), String(pl.Datetime("us", "UTC")));
  const micros = at.cast(pl.Int64).toArray().map(Number);
  const expected = rows.map((_, i) => Date.UTC(2024, 2, 1, 10, 0, i % 60) * 1000 + i // 12:00 at +02:00 is 10:00 UTC
  );
  assert.deepEqual(micros, expected);

  const file = store.connect().file(`${DATA}/finer.csv`);
  for (
    const read of [
      () => file.dataframe({ progress: false }),
      async () => {
        for await (const _ of file.batches({ rows: 50, progress: false })) { /* read on */ }
      },
    ]
  ) {
    await assert.rejects(read, (error: unknown) => {
      assert.ok(error instanceof ParseError, String(error));
      assert.match(error.message, /`2024-03-01T12:00:00\.123456789\+02:00`/);
      assert.match(error.message, /finer than a microsecond/);
      return true;
    });
  }
});

Deno.test("a cached copy's dates are sampled the same way small (read whole) or large (scanned)", async () => {
  // Sampling reads a copy of up to 1 MiB whole and scans a larger one lazily: both must find the
  // same date column, and a bad value after the sample is an error either way.
  const rows = (count: number, bad?: number) =>
    `day,n,note\n${
      Array.from({ length: count }, (_, i) => {
        const day = new Date(Date.UTC(1990, 0, 1 + i)).toISOString().slice(0, 10);
        return `${i === bad ? "soon" : day},${i},${"x".repeat(20)}`;
      }).join("\n")
    }\n`;
  const small = rows(500);
  const large = rows(40_000);
  assert.ok(small.length < 1024 * 1024 && large.length > 1024 * 1024);
  await using store = await dataStore({
    [`${DATA}/small.csv`]: small,
    [`${DATA}/large.csv`]: large,
    [`${DATA}/large_bad.csv`]: rows(40_000, 39_000),
  });
  const connected = store.connect();
  for (const [name, count] of [["small", 500], ["large", 40_000]] as const) {
    const frame = await connected.file(`${DATA}/${name}.csv`).dataframe({ progress: false });
    assert.equal(String(frame.getColumn("day").dtype), String(pl.Date), name);
    assert.equal(String(frame.getColumn("note").dtype), String(pl.String), name);
    assert.equal(frame.height, count);
    const last = (frame.getColumn("day").toArray() as unknown as Date[])[count - 1];
    assert.equal(last.toISOString().slice(0, 10), large.split("\n")[count].slice(0, 10));
  }
  await assert.rejects(
    connected.file(`${DATA}/large_bad.csv`).dataframe({ progress: false }),
    (error: unknown) => error instanceof ParseError && /`soon`/.test(error.message),
  );
});

Deno.test("small text is searched for a date before its columns are sampled: quoted and gzip-compressed dates are still found", async () => {
  const csv =
    'at,station,day\n"2012-01-31 10:00",ST1,2012-01-31\n"2012-02-01 11:30",ST2,2012-02-01\n';
  const gzip = new Uint8Array(
    await new Response(
      ReadableStream.from([new TextEncoder().encode(csv)]).pipeThrough(
        new CompressionStream("gzip"),
      ),
    ).arrayBuffer(),
  );
  await using store = await dataStore({
    [`${DATA}/dated.csv`]: csv,
    [`${DATA}/dated.csv.gz`]: gzip,
    [`${DATA}/plain.csv`]: "station,code\nST1,2012-1\nST2,99-01-01\n",
  });
  for (const cacheDir of [undefined, false] as const) {
    const connected = store.connect(cacheDir === false ? { cacheDir } : {});
    for (const name of ["dated.csv", "dated.csv.gz"]) {
      const frame = await connected.file(`${DATA}/${name}`).dataframe({ progress: false });
      const types = frame.dtypes.map(String);
      assert.deepEqual(types, [String(pl.Datetime("us")), String(pl.String), String(pl.Date)]);
    }
    const plain = await connected.file(`${DATA}/plain.csv`).dataframe({ progress: false });
    assert.deepEqual(plain.getColumn("code").toArray(), ["2012-1", "99-01-01"]);
  }
});

Deno.test("a wide numeric table is read once: the date check looks at its text columns only", () => {
  // Polars itself, with its reads counted: a sample of every column as text would be a second.
  const reads: string[] = [];
  const counted = new Proxy(pl, {
    get: (target, key, receiver) =>
      key === "readCSV" || key === "scanCSV"
        ? (...args: unknown[]) => {
          reads.push(String(key));
          return (Reflect.get(target, key, receiver) as (...a: unknown[]) => unknown)(...args);
        }
        : Reflect.get(target, key, receiver),
  });
  const numbers = Array.from({ length: 2000 }, (_, i) => `x${i}`);
  const rows = Array.from(
    { length: 5 },
    (_, r) =>
      [`2012-01-0${r + 1}`, `note ${r}`, ...numbers.map((_, i) => r * i / 4 + 0.5)].join(","),
  );
  const csv = Buffer.from(`day,note,${numbers.join(",")}\n${rows.join("\n")}\n`);
  const frame = new BatchParser(counted, CSV, {}, "/a/wide.csv").parse(csv);
  assert.deepEqual(reads, ["readCSV"]);
  assert.equal(String(frame.getColumn("day").dtype), String(pl.Date));
  assert.equal(String(frame.getColumn("note").dtype), String(pl.String));
  assert.ok(numbers.every((name) => String(frame.getColumn(name).dtype) === String(pl.Float64)));
  assert.deepEqual(frame.getColumn("x3").toArray(), [0.5, 1.25, 2, 2.75, 3.5]);
});

/**
 * The passes `run` makes over every column of a frame `width` columns wide, counted on the native
 * frames Polars makes: every property read of a nodejs-polars frame lists all its column names
 * (its Proxy looks for a column of that name), and `dtypes` makes a type object per column.
 */
function passesOver<T>(width: number, run: () => T): { passes: string[]; result: T } {
  const native = Object.getPrototypeOf(
    (pl.DataFrame({ a: [1] }) as unknown as { inner(): object }).inner(),
  );
  const names = Object.getOwnPropertyDescriptor(native, "columns")!;
  const types = Object.getOwnPropertyDescriptor(native, "dtypes")!;
  const passes: string[] = [];
  Object.defineProperty(native, "columns", {
    ...names,
    get(this: object) {
      const columns = names.get!.call(this) as string[];
      if (columns.length === width) passes.push("columns");
      return columns;
    },
  });
  Object.defineProperty(native, "dtypes", {
    ...types,
    value(this: object) {
      const dtypes = (types.value as (this: object) => unknown[]).call(this);
      if (dtypes.length === width) passes.push("dtypes");
      return dtypes;
    },
  });
  try {
    return { passes, result: run() };
  } finally {
    Object.defineProperty(native, "columns", names);
    Object.defineProperty(native, "dtypes", types);
  }
}

Deno.test("a whole wide CSV is parsed with few passes over its columns: no type objects, no schema", async () => {
  const numbers = Array.from({ length: 2000 }, (_, i) => `x${i}`);
  // A local copy, read by path as dataframe() reads one: its text is not searched for dates.
  const file = await Deno.makeTempFile({ suffix: ".csv" });
  try {
    await Deno.writeTextFile(
      file,
      `${numbers.join(",")}\n${numbers.map((_, i) => i / 2).join(",")}\n`,
    );
    const parser = new BatchParser(pl, CSV, {}, "/a/wide.csv");
    const { passes, result: frame } = passesOver(2000, () => parser.parse(file));
    // Which columns are text (one read of the native frame), and the row count; a file read by
    // path is then asked for its names (a quoted header's doubled quotes) and its first column's
    // null count (blank lines), which its bytes cannot answer without reading them again:
    // listings, no types.
    assert.deepEqual(passes, ["columns", "dtypes", ...Array(5).fill("columns")]);
    assert.equal(frame.width, 2000);
    assert.deepEqual(frame.getColumn("x3").toArray(), [1.5]);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("the card's note on parsed dates reads a wide frame's types once, not once a column", () => {
  const columns = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`x${i}`, [i]]));
  const frame = pl.DataFrame({ day: [new Date(0)], ...columns })
    .withColumns(pl.col("day").cast(pl.Date));
  const { passes, result } = passesOver(501, () => datesNote(frame, "csv", {}));
  assert.equal(result, "dates parsed from text: day (tryParseDates: false keeps text)");
  // One read of the native frame: no type objects, no column list through the frame's Proxy.
  assert.deepEqual(passes, ["columns", "dtypes", "columns"]);
});

Deno.test("columns named __proto__, constructor or toString get dates like any other column", () => {
  // Column names are data: as keys of a plain object, `__proto__` set its prototype and
  // `constructor` was "in" every object, so both columns stayed text.
  const names = ["__proto__", "constructor", "toString", "day"];
  const csv = Buffer.from(`${names.join(",")}\n${names.map(() => "2012-01-02").join(",")}\n`);
  const frame = new BatchParser(pl, CSV, {}, "/a/keys.csv").parse(csv);
  assert.deepEqual(frame.columns, names);
  assert.deepEqual(frame.dtypes.map(String), names.map(() => String(pl.Date)));
});

Deno.test("columns named __proto__ or constructor are widened to Float64 like any other when a decimal follows their integers", () => {
  const names = ["__proto__", "constructor", "n"];
  const csv = Buffer.from(`${names.join(",")}\n1,1,1\n2.5,2.5,2.5\n`);
  const frame = new BatchParser(pl, CSV, { inferSchemaLength: 1 }, "/a/keys.csv").parse(csv);
  assert.deepEqual(frame.dtypes.map(String), names.map(() => String(pl.Float64)));
  assert.deepEqual(frame.getColumn("constructor").toArray(), [1, 2.5]);
});
