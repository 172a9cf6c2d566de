/**
 * Files as found in the wild, read over the embedded server: each gives the table the file
 * holds or a typed error naming the file, never a wrong table and never a crash of the process.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { gzipSync } from "node:zlib";
import pl from "../../polars.ts";
import { ParseError, UnsupportedFormatError } from "../../lib/data/errors.ts";
import { DATA, dataStore, generatedCsv, gzip } from "./_store.ts";

Deno.test("JSON nested 100,000 levels deep is a ParseError, not a stack overflow that kills the process", async () => {
  const deep = 100_000;
  await using served = await dataStore({
    [`${DATA}/arrays.json`]: "[".repeat(deep) + "]".repeat(deep),
    [`${DATA}/objects.json`]: `[${'{"a":'.repeat(deep)}1${"}".repeat(deep)}]`,
    [`${DATA}/lines.ndjson`]: `{"a":1}\n${'{"a":'.repeat(deep)}1${"}".repeat(deep)}\n`,
    // Brackets inside strings are text, not nesting.
    [`${DATA}/shallow.json`]: JSON.stringify([{ a: "[".repeat(500), b: { c: [1, 2] } }]),
  });
  const store = served.connect();
  for (const name of ["arrays.json", "objects.json", "lines.ndjson"]) {
    const path = `${DATA}/${name}`;
    for (const read of [() => store.file(path).dataframe(), () => store.file(path).head(1)]) {
      await assert.rejects(read(), (error: unknown) => {
        assert.ok(error instanceof ParseError);
        assert.equal(error.path, path);
        assert.match(error.message, /more than 128 levels deep/);
        return true;
      });
    }
  }
  const shallow = await store.file(`${DATA}/shallow.json`).dataframe();
  assert.equal(shallow.getColumn("a").toArray()[0], "[".repeat(500));
});

Deno.test("lines that end with a lone CR (classic Mac OS) read as lines, whole and in batches", async () => {
  await using served = await dataStore({
    [`${DATA}/mac.csv`]: 'a,b\r1,"x\ry"\r3,z\r',
    [`${DATA}/mac.txt`]: "a\tb\r1\tx\r3\tz\r",
  });
  const store = served.connect();
  for (const name of ["mac.csv", "mac.txt"]) {
    const file = store.file(`${DATA}/${name}`);
    const batches = [];
    for await (const batch of file.batches()) batches.push(...batch.toRecords());
    for (
      const rows of [
        (await file.dataframe()).toRecords(),
        (await file.head(5)).toRecords(),
        batches,
      ]
    ) {
      assert.deepEqual(rows.map((row) => row.a), [1, 3], name);
    }
  }
  const quoted = await store.file(`${DATA}/mac.csv`).dataframe();
  assert.deepEqual(quoted.getColumn("b").toArray(), ["x\ry", "z"]);
  // Many batches, cut at CRs outside quotes (the notes hold quoted line breaks).
  const csv = generatedCsv(20_000);
  await served.write(`${DATA}/big_mac.csv`, csv.replaceAll("\n", "\r"));
  await served.write(`${DATA}/big.csv`, csv);
  const expected = (await store.file(`${DATA}/big.csv`).dataframe()).toRecords();
  const frames = [];
  for await (const batch of store.file(`${DATA}/big_mac.csv`).batches({ rows: 1000 })) {
    frames.push(batch);
  }
  assert.equal(frames.length, 20);
  const notes = (rows: Record<string, unknown>[]) =>
    rows.map((row) => ({ ...row, note: String(row.note).replaceAll("\r", "\n") }));
  assert.deepEqual(notes(frames.flatMap((frame) => frame.toRecords())), expected);
  assert.deepEqual(
    notes((await store.file(`${DATA}/big_mac.csv`).dataframe()).toRecords()),
    expected,
  );
});

Deno.test("a row with more fields than the header is a ParseError, not a row cut short", async () => {
  await using served = await dataStore({
    [`${DATA}/ragged.csv`]: "a,b\n1,2\n3,4,5\n6,7\n",
    // A trailing delimiter on the data lines alone adds only empty fields: the table is whole.
    [`${DATA}/trailing.csv`]: 'a,b\r\n1,"x,\n"\r\n3,y,\r\n',
    [`${DATA}/trailing_late.csv`]: `a,b\n${"1,2\n".repeat(30_000)}3,4,\n`,
    [`${DATA}/quoted_late.csv`]: `a,b\n${"1,2\n".repeat(30_000)}3,4,""\n`,
  });
  const store = served.connect();
  const trailing = store.file(`${DATA}/trailing.csv`);
  for (const frame of [await trailing.dataframe(), await trailing.head(5)]) {
    assert.deepEqual(frame.toRecords(), [{ a: 1, b: "x,\n" }, { a: 3, b: "y" }]);
  }
  const late = store.file(`${DATA}/trailing_late.csv`);
  let rows = 0;
  for await (const batch of late.batches()) rows += batch.height;
  assert.equal(rows, 30_001);
  assert.equal((await late.dataframe()).getColumn("a").toArray().at(-1), 3);
  await assert.rejects(store.file(`${DATA}/quoted_late.csv`).dataframe(), ParseError);
  const path = `${DATA}/ragged.csv`;
  for (const read of [() => store.file(path).dataframe(), () => store.file(path).head(5)]) {
    await assert.rejects(read(), (error: unknown) => {
      assert.ok(error instanceof ParseError);
      assert.equal(error.path, path);
      assert.match(error.message, /more fields than the header has columns/);
      return true;
    });
  }
});

Deno.test("integers beyond Int64 arrive as text, exactly as written, not as a frame that throws", async () => {
  const big = "99999999999999999999";
  await using served = await dataStore({
    [`${DATA}/ids.csv`]: `id,n\n1,a\n${big},b\n`,
    [`${DATA}/ids.ndjson`]: `{"id":1}\n{"id":${big}}\n`,
    [`${DATA}/ids.json`]: `[{"id":1},{"id":${big}}]`,
  });
  const store = served.connect();
  for (const name of ["ids.csv", "ids.ndjson", "ids.json"]) {
    const file = store.file(`${DATA}/${name}`);
    for (const frame of [await file.dataframe(), await file.head(5)]) {
      assert.equal(String(frame.getColumn("id").dtype), String(pl.String));
      assert.deepEqual(frame.getColumn("id").toArray(), ["1", big], name);
    }
  }
});

Deno.test("a .csv that is an HTML error page or JSON is refused by name, not read as a table of its lines", async () => {
  const page = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n" +
    "<body><h1>Bad Gateway</h1></body></html>\n";
  await using served = await dataStore({
    [`${DATA}/page.csv`]: page,
    [`${DATA}/page.csv.gz`]: await gzip(page),
    [`${DATA}/error.csv`]: '{"error": "forbidden", "code": 403}\n',
    [`${DATA}/records.tsv`]: '[{"a": 1}, {"a": 2}]\n',
    // SQL Server writes bracketed headers: still delimited text.
    [`${DATA}/bracketed.csv`]: "[id],[name]\n1,x\n",
  });
  const store = served.connect();
  const refused = {
    "page.csv": /it is an HTML page, not delimited text/,
    "page.csv.gz": /it is an HTML page, not delimited text/,
    "error.csv": /it holds JSON, not delimited text.*format: "json"/,
    "records.tsv": /it holds JSON, not delimited text/,
  };
  for (const [name, message] of Object.entries(refused)) {
    const path = `${DATA}/${name}`;
    await assert.rejects(store.file(path).dataframe(), (error: unknown) => {
      assert.ok(error instanceof UnsupportedFormatError, name);
      assert.equal(error.path, path);
      assert.match(error.message, message);
      return true;
    });
  }
  const bracketed = await store.file(`${DATA}/bracketed.csv`).dataframe();
  assert.deepEqual(bracketed.toRecords(), [{ "[id]": 1, "[name]": "x" }]);
  const forced = await store.file(`${DATA}/error.csv`).dataframe({ format: "json" });
  assert.deepEqual(forced.toRecords(), [{ error: "forbidden", code: 403 }]);
});

Deno.test("a gzip file cut short is a ParseError naming the file, read whole and in batches", async () => {
  const rows = Array.from({ length: 50_000 }, (_, i) => `${i},${i * 7}`).join("\n");
  const whole = await gzip(`a,b\n${rows}\n`);
  await using served = await dataStore({
    [`${DATA}/cut.csv.gz`]: whole.subarray(0, whole.length >> 1),
    [`${DATA}/cut.ndjson.gz`]: (await gzip(`{"a":1}\n`.repeat(50_000))).subarray(0, 200),
  });
  const store = served.connect();
  const batches = async (path: string) => {
    for await (const _ of store.file(path).batches()) { /* read to the end */ }
  };
  for (const name of ["cut.csv.gz", "cut.ndjson.gz"]) {
    const path = `${DATA}/${name}`;
    for (const read of [() => store.file(path).dataframe(), () => batches(path)]) {
      await assert.rejects(read(), (error: unknown) => {
        assert.ok(error instanceof ParseError, String(error));
        assert.equal(error.path, path);
        return true;
      });
    }
  }
});

Deno.test("a gzip bomb of one endless line, streamed by head(), stops with a ParseError, its memory bounded", async () => {
  // 300 MiB of zeros without a line break, about 300 kB compressed.
  const zeros = new Uint8Array(1024 * 1024).fill(0x30);
  const line = ReadableStream.from((function* () {
    yield new TextEncoder().encode("a\n");
    for (let i = 0; i < 300; i++) yield zeros;
  })()).pipeThrough(new CompressionStream("gzip"));
  const bomb = new Uint8Array(await new Response(line).arrayBuffer());
  await using served = await dataStore({ [`${DATA}/bomb.csv.gz`]: bomb });
  const store = served.connect();
  await assert.rejects(store.file(`${DATA}/bomb.csv.gz`).head(5), (error: unknown) => {
    assert.ok(error instanceof ParseError);
    assert.match(error.message, /a record runs past 256 MiB without ending/);
    return true;
  });
});

Deno.test("a gzip bomb read whole is refused as it expands, whatever its trailer says", async () => {
  // 1.5 GiB of rows in 24 members of 64 MiB, about 1.6 MB compressed; the last member, of
  // 1 KiB, has the trailer: it says 1,024 bytes (a one-member bomb of 4 GiB + 1 KiB says the
  // same, its size being stored modulo 4 GiB).
  const rows = gzipSync(new TextEncoder().encode("0\n".repeat(32 * 1024 * 1024)));
  const members = [gzipSync("a\n"), ...Array(24).fill(rows), gzipSync("0\n".repeat(512))];
  const bomb = new Uint8Array(Buffer.concat(members));
  assert.equal(new DataView(bomb.buffer).getUint32(bomb.length - 4, true), 1024);
  await using served = await dataStore({
    [`${DATA}/bomb.csv.gz`]: bomb,
    [`${DATA}/bomb.json.gz`]: bomb,
  });
  const store = served.connect();
  const reads = [
    // Without a cache, and decoded from another encoding: the same count.
    () => store.file(`${DATA}/bomb.csv.gz`).dataframe({ cache: false, encoding: "latin-1" }),
    // A JSON array is collected whole even in batches.
    () => Array.fromAsync(store.file(`${DATA}/bomb.json.gz`).batches({ format: "json" })),
  ];
  for (const read of reads) {
    await assert.rejects(read(), (error: unknown) => {
      assert.ok(error instanceof ParseError, String(error));
      assert.match(error.path ?? "", /bomb\.(csv|json)\.gz$/);
      assert.match(error.message, /past 10\d\d\.\d MB, more than 100-fold: a gzip bomb/);
      return true;
    });
  }
});

Deno.test("gzip of several members (appended, or files joined) reads whole, in batches and by head()", async () => {
  const joined = async (...parts: string[]) =>
    new Uint8Array(Buffer.concat(await Promise.all(parts.map(gzip))));
  await using served = await dataStore({
    [`${DATA}/two.csv.gz`]: await joined("a,b\n1,x\n", "2,y\n3,z\n"),
    [`${DATA}/two.ndjson.gz`]: await joined(
      '{"a":1,"b":"x"}\n',
      '{"a":2,"b":"y"}\n{"a":3,"b":"z"}\n',
    ),
    [`${DATA}/two.json.gz`]: await joined('[{"a":1,"b":"x"},', '{"a":2,"b":"y"},{"a":3,"b":"z"}]'),
  });
  const store = served.connect();
  const records = [{ a: 1, b: "x" }, { a: 2, b: "y" }, { a: 3, b: "z" }];
  for (const name of ["two.csv.gz", "two.ndjson.gz", "two.json.gz"]) {
    const file = store.file(`${DATA}/${name}`);
    for (const cache of [true, false]) {
      assert.deepEqual((await file.dataframe({ cache })).toRecords(), records, name);
      const batches = await Array.fromAsync(file.batches({ rows: 2, cache }));
      assert.deepEqual(pl.concat(batches).toRecords(), records, name);
      assert.deepEqual((await file.head(2, { cache })).toRecords(), records.slice(0, 2), name);
    }
  }
});

Deno.test("a quoted header's doubled quote is one quote in the column name, as in its values", async () => {
  await using served = await dataStore({
    [`${DATA}/quoted.csv`]: '"a,b","c""d",e\n1,"x""y",3\n',
  });
  const store = served.connect();
  for (
    const frame of [
      await store.file(`${DATA}/quoted.csv`).dataframe(),
      await store.file(`${DATA}/quoted.csv`).head(1),
    ]
  ) {
    assert.deepEqual(frame.toRecords(), [{ "a,b": 1, 'c"d': 'x"y', e: 3 }]);
  }
});

Deno.test("scan() of a CR-only CSV reads its lines, and of deep JSON Lines is a ParseError, not an abort", async () => {
  await using served = await dataStore({
    [`${DATA}/mac.csv`]: "a,b\r1,x\r3,z\r",
    [`${DATA}/deep.ndjson`]: `{"a":1}\n${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}\n`,
    [`${DATA}/flat.ndjson`]: '{"a":1}\n{"a":2}\n',
  });
  const store = served.connect();
  const mac = await (await store.file(`${DATA}/mac.csv`).scan()).collect();
  assert.deepEqual(mac.toRecords(), [{ a: 1, b: "x" }, { a: 3, b: "z" }]);
  await assert.rejects(store.file(`${DATA}/deep.ndjson`).scan(), ParseError);
  const flat = await (await store.file(`${DATA}/flat.ndjson`).scan()).collect();
  assert.deepEqual(flat.getColumn("a").toArray(), [1, 2]);
});

Deno.test("blank lines inside a table of two columns or more are skipped, as pandas skips them", async () => {
  const rows = Array.from({ length: 40_000 }, (_, i) => `${i},v${i}`);
  const spaced = `a,b\n${rows.slice(0, 20_000).join("\n")}\n\n\r\n${
    rows.slice(20_000).join("\n")
  }\n\n`;
  await using served = await dataStore({
    [`${DATA}/blank.csv`]: 'a,b\r\n1,"x\r\n\r\ny"\r\n\r\n,\r\n3,z\r\n\r\n',
    [`${DATA}/large.csv`]: spaced, // read by path, over 1 MiB
    [`${DATA}/large.csv.gz`]: await gzip(spaced),
    [`${DATA}/one.csv`]: "a\n1\n\n3\n",
  });
  const store = served.connect();
  const small = store.file(`${DATA}/blank.csv`);
  const expected = [{ a: 1, b: "x\r\n\r\ny" }, { a: null, b: null }, { a: 3, b: "z" }];
  for (
    const frame of [
      await small.dataframe(),
      await small.head(10),
      await small.dataframe({ cache: false }),
    ]
  ) {
    assert.deepEqual(frame.toRecords(), expected);
  }
  for (const name of ["large.csv", "large.csv.gz"]) {
    const file = store.file(`${DATA}/${name}`);
    const whole = await file.dataframe();
    assert.equal(whole.height, 40_000, name);
    assert.equal(whole.getColumn("a").nullCount(), 0, name);
    let height = 0;
    for await (const batch of file.batches({ rows: 7_000 })) {
      height += batch.height;
      assert.equal(batch.getColumn("a").nullCount(), 0, name);
    }
    assert.equal(height, 40_000, name);
  }
  // One column: an empty line is how an empty value is written.
  const one = await store.file(`${DATA}/one.csv`).dataframe();
  assert.deepEqual(one.getColumn("a").toArray(), [1, null, 3]);
});

Deno.test("JSON Lines with Python's NaN is a ParseError that says why, read whole or streamed", async () => {
  const path = `${DATA}/python.jsonl`;
  await using served = await dataStore({ [path]: '{"a": 1.5}\n{"a": NaN}\n' });
  const file = served.connect().file(path);
  for (const read of [() => file.dataframe(), () => file.head(5)]) {
    await assert.rejects(read(), (error: unknown) => {
      assert.ok(error instanceof ParseError);
      assert.match(error.message, /NaN and Infinity are no JSON values/);
      return true;
    });
  }
});

Deno.test("lines of only spaces or tabs are blank lines too: no junk row, no number column made text", async () => {
  await using served = await dataStore({
    [`${DATA}/spaces.csv`]: "id,name\r\n1,a\r\n   \r\n2,b\r\n\t\r\n",
    [`${DATA}/tabs.tsv`]: "id\tname\n1\ta\n  \n2\t\n\t\n", // a tab there separates fields
    [`${DATA}/kept.csv`]: "id,name\n  ,a\n2,b\n", // a field of spaces is a value
  });
  const store = served.connect();
  const csv = store.file(`${DATA}/spaces.csv`);
  for (const frame of [await csv.dataframe(), await csv.head(10)]) {
    assert.deepEqual(frame.toRecords(), [{ id: 1, name: "a" }, { id: 2, name: "b" }]);
  }
  const tsv = await store.file(`${DATA}/tabs.tsv`).dataframe();
  assert.deepEqual(tsv.toRecords(), [
    { id: 1, name: "a" },
    { id: 2, name: null },
    { id: null, name: null },
  ]);
  const kept = await store.file(`${DATA}/kept.csv`).dataframe();
  assert.deepEqual(kept.getColumn("id").toArray(), ["  ", "2"]);
});

Deno.test("a small file's blank lines are found by its bytes wherever they are: first, last without a line end, CR-ended", async () => {
  await using served = await dataStore({
    [`${DATA}/first.csv`]: "a,b\n\n1,x\n2,y\n",
    [`${DATA}/last.csv`]: "a,b\n1,x\n2,y\n \t", // no line end after the last line
    [`${DATA}/mac.csv`]: "a,b\r1,x\r  \r2,y\r",
    [`${DATA}/quoted.csv`]: 'a,b\n1,"x\n  \ny"\n2,y\n', // inside quotes: a value
  });
  const store = served.connect();
  const rows = [{ a: 1, b: "x" }, { a: 2, b: "y" }];
  for (const name of ["first.csv", "last.csv", "mac.csv"]) {
    const file = store.file(`${DATA}/${name}`);
    for (const frame of [await file.dataframe(), await file.dataframe({ cache: false })]) {
      assert.deepEqual(frame.toRecords(), rows, name);
    }
  }
  const quoted = await store.file(`${DATA}/quoted.csv`).dataframe();
  assert.deepEqual(quoted.toRecords(), [{ a: 1, b: "x\n  \ny" }, { a: 2, b: "y" }]);
});

Deno.test("a first row longer than a batch does not leave head() and batches() a header-only schema of text", async () => {
  const csv = `n,note\n1,${"x".repeat(200_000)}\n2,y\n`;
  await using served = await dataStore({ [`${DATA}/long.csv`]: csv });
  const store = served.connect();
  const file = store.file(`${DATA}/long.csv`);
  const batches = [];
  for await (const batch of file.batches()) batches.push(batch);
  for (const frame of [await file.dataframe(), await file.head(5), ...batches]) {
    assert.equal(String(frame.getColumn("n").dtype), String(pl.Int64));
    assert.deepEqual(frame.getColumn("n").toArray(), [1, 2]);
  }
});
