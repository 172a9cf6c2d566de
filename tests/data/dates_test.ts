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
import pl, { type DataFrame } from "../../polars.ts";
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
