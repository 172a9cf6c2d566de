/**
 * `skipRows` and `commentPrefix`: a file with a preamble and comment lines gives, on every route
 * (whole, in batches, `head()`, gzip, another encoding, `scan()`, a listing), the table of the
 * same file without those lines. Served by the embedded server.
 *
 * @module
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import type { DataFrame } from "../../lib/deps.ts";
import type { DataFrameOptions } from "../../lib/data/options.ts";
import { BadRequestError } from "../../lib/client/errors.ts";
import { ParseError } from "../../lib/data/errors.ts";
import type { Store } from "../../mod.ts";
import { DATA, dataStore, gzip } from "./_store.ts";

function plain(frame: DataFrame) {
  return { columns: frame.columns, dtypes: frame.dtypes.map(String), rows: frame.rows() };
}

async function concatenated(batches: AsyncIterable<DataFrame>) {
  const rows: unknown[][] = [];
  let last: DataFrame | undefined;
  for await (const batch of batches) rows.push(...batch.rows()), last = batch;
  return last && { columns: last.columns, dtypes: last.dtypes.map(String), rows };
}

/** Asserts every route reading `path` with `options` gives the table `clean` holds. */
async function assertEveryRoute(
  store: Store,
  path: string,
  options: DataFrameOptions,
  clean: string,
) {
  const expected = plain(await store.file(clean).dataframe({ cache: false }));
  const file = store.file(path);
  const streamed = { ...options, cache: false };
  const routes: [string, () => Promise<unknown>][] = [
    ["batches()", () => concatenated(file.batches(streamed))],
    ["head()", async () => plain(await file.head(1e6, streamed))],
    ["dataframe() from memory", async () => plain(await file.dataframe(streamed))],
    ["dataframe() into the cache", async () => plain(await file.dataframe(options))],
    ["dataframe() from the cache", async () => plain(await file.dataframe(options))],
    ["batches() from the cache", () => concatenated(file.batches(options))],
    ["scan()", async () => plain(await (await file.scan(options)).collect())],
  ];
  for (const [route, read] of routes) assert.deepEqual(await read(), expected, `${path}: ${route}`);
}

const rows = (count: number, end: string, comment: (i: number) => string | undefined) => {
  let text = "";
  for (let i = 0; i < count; i++) {
    text += `${i},"n ""${i}""",${i % 3 === 0 ? '"two\n# lines"' : `v${i}`}${end}`;
    text += comment(i) ?? "";
  }
  return text;
};

Deno.test("lines: a preamble and comment lines across batches, with CRLF, gzip and latin-1, read as the file without them", async () => {
  // Past the first batch (64 KiB) and the server's chunks; a comment line every 37 rows, one
  // with an unclosed quote, and a quoted field whose second line starts with "#".
  const count = 4000;
  const end = "\r\n";
  const header = `id,name,note${end}`;
  const preamble = `Logger "v2.1,,,${end}# Station: Tucson${end}${end}`;
  const comment = (i: number) => i % 37 === 5 ? `# calibrated "at ${i}${end}` : undefined;
  const body = rows(count, end, comment);
  const commented = `${preamble}${header}# units: "m${end}${body}# end, "unclosed`;
  const clean = header + rows(count, end, () => undefined);
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  await using served = await dataStore({
    [`${DATA}/clean.csv`]: clean,
    [`${DATA}/logger.csv`]: commented,
    [`${DATA}/logger.csv.gz`]: await gzip(commented),
    [`${DATA}/latin.csv`]: latin1(commented.replaceAll("note", "noté")),
    [`${DATA}/clean_latin.csv`]: clean.replaceAll("note", "noté"),
  });
  const store = served.connect({ progress: false });
  const options = { skipRows: 3, commentPrefix: "#" };
  await assertEveryRoute(store, `${DATA}/logger.csv`, options, `${DATA}/clean.csv`);
  await assertEveryRoute(store, `${DATA}/logger.csv.gz`, options, `${DATA}/clean.csv`);
  await assertEveryRoute(
    store,
    `${DATA}/latin.csv`,
    { ...options, encoding: "latin-1" },
    `${DATA}/clean_latin.csv`,
  );
  const many = await store.folder(DATA).list({ glob: "logger.*" }).dataframes(options);
  assert.equal(many.height, 2 * count);
});

Deno.test("lines: a logger's .txt or .dat is sniffed without the lines it drops", async () => {
  await using served = await dataStore({
    [`${DATA}/tab.txt`]: "# Station: Tucson, AZ\n# Logger v2, firmware 1.2\na\tb\n1\t2\n3\t4\n",
    [`${DATA}/tab.txt.gz`]: await gzip("# Station: Tucson, AZ\na\tb\n1\t2\n3\t4\n"),
    [`${DATA}/semi.dat`]: "Logger v2.1, serial 12\nStation, Tucson\na;b\n1;2\n3;4\n",
    [`${DATA}/clean.csv`]: "a,b\n1,2\n3,4\n",
  });
  const store = served.connect({ progress: false });
  const clean = `${DATA}/clean.csv`;
  await assertEveryRoute(store, `${DATA}/tab.txt`, { commentPrefix: "#" }, clean);
  await assertEveryRoute(store, `${DATA}/tab.txt.gz`, { commentPrefix: "#" }, clean);
  await assertEveryRoute(store, `${DATA}/semi.dat`, { skipRows: 2 }, clean);
});

const line = fc.constantFrom("# note", '# a "quote', "#", "#,,,", '#"', "# é");
const preambleLine = fc.constantFrom("Logger v2.1,,,", '# Station: "Tucson', '"open', "", "a,b");
const cell = fc.oneof(
  fc.integer({ min: -99, max: 99 }).map(String),
  fc.constantFrom("x", '"a,b"', '"say ""hi"""', '"two\n#lines"', '"#"', ""),
);

Deno.test("lines: property: batches(), head() and dataframe() with skipRows and commentPrefix give the file without those lines", async () => {
  await using served = await dataStore({});
  const store = served.connect({ progress: false });
  let serial = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        preamble: fc.array(preambleLine, { maxLength: 3 }),
        rows: fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 12 }),
        comments: fc.array(fc.tuple(fc.nat(13), line), { maxLength: 5 }),
        end: fc.constantFrom("\n", "\r\n"),
        trailing: fc.boolean(),
      }),
      async ({ preamble, rows, comments, end, trailing }) => {
        const records = ["a,b", ...rows.map((row) => row.join(","))];
        const commented = records.flatMap((record, i) => [
          ...comments.filter(([at]) => at === i).map(([, text]) => text),
          record,
        ]);
        commented.push(...comments.filter(([at]) => at >= records.length).map(([, t]) => t));
        const text = (lines: string[]) => lines.join(end) + (trailing ? end : "");
        const n = serial++;
        await served.write(`${DATA}/p${n}.csv`, text([...preamble, ...commented]));
        await served.write(`${DATA}/c${n}.csv`, text(records));
        const options = { skipRows: preamble.length, commentPrefix: "#" };
        const file = store.file(`${DATA}/p${n}.csv`);
        const expected = plain(await store.file(`${DATA}/c${n}.csv`).dataframe({ cache: false }));
        assert.deepEqual(await concatenated(file.batches({ ...options, cache: false })), expected);
        assert.deepEqual(plain(await file.head(100, { ...options, cache: false })), expected);
        assert.deepEqual(plain(await file.dataframe(options)), expected);
      },
    ),
    { numRuns: 30 },
  );
});

Deno.test("lines: a first line of # that is refused says commentPrefix and skipRows read it", async () => {
  await using served = await dataStore({
    [`${DATA}/hash.csv`]: "# Station Tucson\na,b\n1,2\n",
    [`${DATA}/only.csv`]: "# nothing but comments\n#\n",
  });
  const store = served.connect({ progress: false });
  const file = store.file(`${DATA}/hash.csv`);
  for (const read of [() => file.dataframe(), () => file.head(1, { cache: false })]) {
    await assert.rejects(read(), (error: unknown) => {
      assert.ok(error instanceof ParseError);
      assert.match(error.message, /first line starts with "#": commentPrefix: "#" drops/);
      return true;
    });
  }
  assert.deepEqual((await file.dataframe({ skipRows: 1 })).rows(), [[1, 2]]);
  const only = store.file(`${DATA}/only.csv`);
  assert.equal((await only.dataframe({ commentPrefix: "#" })).height, 0);
  assert.equal(await concatenated(only.batches({ commentPrefix: "#", cache: false })), undefined);
});

Deno.test("lines: skipRows and commentPrefix are checked once, by name", async () => {
  await using served = await dataStore({ [`${DATA}/a.csv`]: "a\n1\n" });
  const file = served.connect({ progress: false }).file(`${DATA}/a.csv`);
  const refusals: [() => Promise<unknown>, RegExp][] = [
    [() => file.dataframe({ skipRows: -1 }), /skipRows must be an integer ≥ 0, got -1/],
    [() => file.head(1, { commentPrefix: "" }), /commentPrefix must be a string of 1 to 5/],
    [() => file.scan({ commentPrefix: "#\n" }), /commentPrefix must be a string of 1 to 5/],
    [() => file.dataframe({ skiprows: 1 } as DataFrameOptions), /did you mean "skipRows"/],
  ];
  for (const [read, message] of refusals) {
    await assert.rejects(read(), (error: unknown) => {
      assert.ok(error instanceof BadRequestError);
      assert.match(error.message, message);
      return true;
    });
  }
});
