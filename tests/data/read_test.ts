/**
 * Reading files into DataFrames end to end, over loopback from the embedded server: every
 * format of the sample store and generated files, options passed to Polars, batches, row limits
 * that stop the download, and the errors for what cannot be read.
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import pl, { type DataFrame } from "../../polars.ts";
import { ParseError, UnsupportedFormatError } from "../../lib/data/errors.ts";
import { BadRequestError } from "../../lib/client/errors.ts";
import { SAMPLE_CASES, SAMPLE_FILES } from "../../lib/sample/mod.ts";
import { serveSampleStore } from "../../lib/sample/example.ts";
import { DATA, dataStore, generatedCsv, generatedNdjson, gzip } from "./_store.ts";

const local = (root: string, path: string) => `${root}${path}`;
const buffer = (path: string) => Buffer.from(Deno.readFileSync(path));

/** Frames equal in columns, types and values (nulls equal). */
function assertFrameEqual(actual: DataFrame, expected: DataFrame, what: string) {
  assert.deepEqual(actual.columns, expected.columns, `${what}: columns`);
  assert.deepEqual(actual.dtypes.map(String), expected.dtypes.map(String), `${what}: types`);
  assert.ok(actual.frameEqual(expected, true), `${what}: values differ`);
}

Deno.test("every sample-store format reads as Polars reads the same file locally", async () => {
  await using store = await dataStore("sample");
  const tern = store.connect();
  const oracles: [string, () => DataFrame][] = [
    [SAMPLE_FILES.csv, () => pl.readCSV(local(store.root, SAMPLE_FILES.csv))],
    [
      SAMPLE_FILES.tsv,
      () => pl.readCSV(buffer(local(store.root, SAMPLE_FILES.tsv)), { sep: "\t" }),
    ],
    [SAMPLE_FILES.json, () => pl.readJSON(buffer(local(store.root, SAMPLE_FILES.json)))],
    [
      SAMPLE_FILES.ndjson,
      () => pl.readJSON(buffer(local(store.root, SAMPLE_FILES.ndjson)), { format: "lines" }),
    ],
    [SAMPLE_FILES.parquet, () => pl.readParquet(local(store.root, SAMPLE_FILES.parquet))],
    [SAMPLE_FILES.arrow, () => pl.readIPC(buffer(local(store.root, SAMPLE_FILES.arrow)))],
    [SAMPLE_FILES.csvGz, () => pl.readCSV(buffer(local(store.root, SAMPLE_FILES.csvGz)))],
  ];
  for (const [path, oracle] of oracles) {
    const expected = oracle();
    assert.equal(expected.height, 344, path);
    // First from the server, then from the cached copy: both must match.
    assertFrameEqual(await tern.file(path).dataframe(), expected, `${path} downloaded`);
    assertFrameEqual(await tern.file(path).dataframe(), expected, `${path} cached`);
    assertFrameEqual(
      await tern.file(path).dataframe({ cache: false }),
      expected,
      `${path} uncached`,
    );
  }
  assert.equal((await tern.cache.info()).height, oracles.length);
});

Deno.test("a multi-batch CSV with quoted line breaks equals pl.readCSV of the file", async () => {
  const text = generatedCsv(60_000); // about 2.7 MB: batches of 64 KiB, 256 KiB, 1 MiB, …
  await using store = await dataStore({ [`${DATA}/big.csv`]: text });
  // The ISO dates of `day` arrive as dates (tryParseDates, on by default).
  const expected = pl.readCSV(local(store.root, `${DATA}/big.csv`), { dtypes: { day: pl.Date } });
  const frame = await store.connect().file(`${DATA}/big.csv`).dataframe();
  assertFrameEqual(frame, expected, "big.csv");
  assert.ok(frame.getColumn("note").toArray().some((note) => String(note).includes("\n")));
});

Deno.test("a body arriving in pieces smaller than the format sniff reads whole, into the copy and in memory", async () => {
  // The whole route reads into one reused buffer: the first pieces, kept to detect the format
  // while later ones arrive, must not be overwritten by them.
  const path = `${DATA}/pieces.csv`;
  await using store = await dataStore({ [path]: generatedCsv(2000) });
  const pieces: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input instanceof Request ? input.url : input).includes("fileio/download")) {
      return response;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at += 100));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const tern = store.connect({ fetch: pieces });
  const expected = pl.readCSV(local(store.root, path), { dtypes: { day: pl.Date } });
  assertFrameEqual(await tern.file(path).dataframe(), expected, "into the copy");
  assertFrameEqual(await tern.file(path).dataframe({ cache: false }), expected, "in memory");
  assertFrameEqual(await tern.file(path).dataframe(), expected, "from the copy");
});

Deno.test("gzip-compressed CSV and JSON Lines stream through the decompressor", async () => {
  const csv = generatedCsv(20_000);
  const lines = generatedNdjson(20_000);
  await using store = await dataStore({
    [`${DATA}/t.csv.gz`]: await gzip(csv),
    [`${DATA}/t.csv`]: csv,
    [`${DATA}/events.gz`]: await gzip(lines),
    [`${DATA}/events.ndjson`]: lines,
  });
  const tern = store.connect();
  for (const cache of [true, false]) {
    assertFrameEqual(
      await tern.file(`${DATA}/t.csv.gz`).dataframe({ cache }),
      await tern.file(`${DATA}/t.csv`).dataframe({ cache }),
      "csv.gz",
    );
    const events = await tern.file(`${DATA}/events.gz`).dataframe({ cache });
    assertFrameEqual(events, await tern.file(`${DATA}/events.ndjson`).dataframe({ cache }), "gz");
    assert.deepEqual(events.shape, { height: 20_000, width: 3 });
  }
  // Read again: now from the cache, where the compressed bytes were kept.
  assert.equal((await tern.file(`${DATA}/t.csv.gz`).dataframe()).height, 20_000);
});

Deno.test("reader options pass through to Polars", async () => {
  await using store = await dataStore({
    [`${DATA}/eu.csv`]: "name;value;when\nx;NA;2024-01-02\ny;2;2024-03-04\n",
    [`${DATA}/noheader.csv`]: "1,a\n2,b\n",
    [`${DATA}/table.txt`]: "a|b\n1|2\n3|4\n",
    [`${DATA}/notes.txt`]: "id,label\n1,x\n",
  });
  const tern = store.connect();
  const eu = await tern.file(`${DATA}/eu.csv`).dataframe({
    nullValues: "NA",
    tryParseDates: true,
    dtypes: { value: pl.Float64 },
  });
  assert.deepEqual(eu.columns, ["name", "value", "when"]);
  assert.deepEqual(eu.dtypes.map(String), [
    "DataType(String)",
    "DataType(Float64)",
    "DataType(Date)",
  ]);
  assert.deepEqual(eu.getColumn("value").toArray(), [null, 2]);
  const picked = await tern.file(`${DATA}/eu.csv`).dataframe({ columns: ["when", "name"] });
  assert.deepEqual(picked.columns, ["name", "when"], "columns keep the file's order");
  const bare = await tern.file(`${DATA}/noheader.csv`).dataframe({ hasHeader: false });
  assert.deepEqual(bare.shape, { height: 2, width: 2 });
  assert.deepEqual((await tern.file(`${DATA}/table.txt`).dataframe()).columns, ["a", "b"]);
  const forced = await tern.file(`${DATA}/notes.txt`).dataframe({ format: "csv", sep: "," });
  assert.deepEqual(forced.toRecords(), [{ id: 1, label: "x" }]);
  await assert.rejects(
    tern.file(`${DATA}/eu.csv`).dataframe({ columns: ["nope"] }),
    (error: unknown) => {
      assert.ok(error instanceof ParseError);
      assert.match(error.message, /has no column "nope"; it has "name", "value", "when"/);
      return true;
    },
  );
  await assert.rejects(tern.file(`${DATA}/eu.csv`).dataframe({ sep: ";;" }), /sep must be one/);
  // Polars' readers take one byte: a wider character is a typed error before any download, in
  // every read that parses text.
  const file = tern.file(`${DATA}/eu.csv`);
  for (
    const read of [
      () => file.dataframe({ quoteChar: "«" }),
      () => file.dataframe({ sep: "é" }),
      () => file.head(1, { quoteChar: "«" }),
      async () => {
        for await (const _ of file.batches({ quoteChar: "«" })) { /* read on */ }
      },
    ]
  ) {
    await assert.rejects(read, (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.match(error.message, /must be one ASCII character(, not a line break)?, got "(«|é)"/);
      return true;
    });
  }
  await assert.rejects(tern.file(`${DATA}/eu.csv`).dataframe({ nRows: -1 }), /nRows must be/);
});

Deno.test("an integer column that meets a decimal later is widened to Float64, as Polars infers from all rows", async () => {
  // The decimal comes in a later batch (the schema is fixed by then), within the first batch
  // but after the rows types are inferred from, and in a file read whole from the cache.
  const drift = ["n,m"];
  for (let i = 0; i < 30_000; i++) drift.push(`${i},${i % 7}`);
  drift.push("1.5,2.25");
  const early = ["n"];
  for (let i = 0; i < 150; i++) early.push(String(i));
  early.push("-2.5e3");
  await using store = await dataStore({
    [`${DATA}/drift.csv`]: drift.join("\n") + "\n",
    [`${DATA}/early.csv`]: early.join("\n") + "\n",
  });
  const tern = store.connect();
  for (const name of ["drift.csv", "early.csv"]) {
    const path = `${DATA}/${name}`;
    // Every row (nodejs-polars reads a null limit for CSV as 0: no inference at all).
    const expected = pl.readCSV(local(store.root, path), { inferSchemaLength: 1_000_000 });
    assert.ok(expected.dtypes.every((type) => String(type) === "DataType(Float64)"), name);
    // Downloaded, then from the cache (read whole), then without the cache.
    for (const cache of [true, true, false]) {
      assertFrameEqual(await tern.file(path).dataframe({ cache }), expected, `${name} ${cache}`);
    }
    let rows = 0;
    let last: DataFrame | undefined;
    for await (const batch of tern.file(path).batches({ rows: 10_000, cache: false })) {
      rows += batch.height;
      last = batch;
    }
    assert.equal(rows, expected.height, name);
    assert.deepEqual(last!.row(last!.height - 1), expected.row(expected.height - 1), name);
  }
});

Deno.test("a later value that no widening fits is a ParseError that says what to do", async () => {
  const rows = ["n"];
  for (let i = 0; i < 30_000; i++) rows.push(String(i));
  rows.push("n/a");
  await using store = await dataStore({
    [`${DATA}/word.csv`]: rows.join("\n") + "\n",
    [`${DATA}/decimal.csv`]: `${rows.slice(0, -1).join("\n")}\n1.5\n`,
  });
  const tern = store.connect();
  await assert.rejects(tern.file(`${DATA}/word.csv`).dataframe(), (error: unknown) => {
    assert.ok(error instanceof ParseError, String(error));
    assert.equal(error.path, `${DATA}/word.csv`);
    assert.match(error.message, /could not parse `n\/a` as dtype `i64`/);
    assert.match(error.message, /pass dtypes/);
    return true;
  });
  const typed = await tern.file(`${DATA}/word.csv`).dataframe({ dtypes: { n: pl.String } });
  assert.equal(typed.getColumn("n").toArray().at(-1), "n/a");
  // A type the caller fixed is kept: a decimal in a column they made Int64 is an error.
  await assert.rejects(
    tern.file(`${DATA}/decimal.csv`).dataframe({ dtypes: { n: pl.Int64 } }),
    /could not parse `1\.5` as dtype `i64`/,
  );
});

Deno.test("JSON Lines and JSON types come from every row, not the first 100", async () => {
  // A key first seen after row 100, an integer where a nested field was Float64 (the sample
  // store's earthquake feed has one), and decimals after integers, across several batches.
  let lines = "";
  const records: unknown[] = [];
  for (let i = 0; i < 12_000; i++) {
    const record = {
      id: i,
      value: i < 5000 ? i : i + 0.5,
      properties: { mag: i % 500 === 499 ? 0 : i / 10 + 0.25, place: `p${i % 9}` },
      ...(i >= 150 ? { late: `k${i}` } : {}),
    };
    lines += JSON.stringify(record) + "\n";
    records.push(record);
  }
  await using store = await dataStore({
    [`${DATA}/drift.ndjson`]: lines,
    [`${DATA}/drift.json`]: JSON.stringify(records.slice(0, 300)),
  });
  const tern = store.connect();
  const all = { inferSchemaLength: null as never };
  const expected = pl.readJSON(buffer(local(store.root, `${DATA}/drift.ndjson`)), {
    format: "lines",
    ...all,
  });
  assert.deepEqual(expected.columns, ["id", "value", "properties", "late"]);
  for (const cache of [true, true, false]) {
    assertFrameEqual(
      await tern.file(`${DATA}/drift.ndjson`).dataframe({ cache }),
      expected,
      "ndjson",
    );
  }
  // A limit that proves too short falls back to every row rather than failing.
  const limited = await tern.file(`${DATA}/drift.ndjson`).dataframe({ inferSchemaLength: 10 });
  assert.equal(limited.height, 12_000);
  const json = await tern.file(`${DATA}/drift.json`).dataframe();
  assertFrameEqual(json, pl.readJSON(buffer(local(store.root, `${DATA}/drift.json`)), all), "json");
  assert.equal(json.getColumn("late").toArray().at(-1), "k299", "no key is dropped");
});

Deno.test("the sample store's earthquake feed reads as Polars reads it with every row", async () => {
  await using store = await dataStore("sample");
  const tern = store.connect();
  const expected = pl.readJSON(buffer(local(store.root, SAMPLE_CASES.ndjson)), {
    format: "lines",
    inferSchemaLength: null as never,
  });
  for (const cache of [true, true, false]) {
    assertFrameEqual(
      await tern.file(SAMPLE_CASES.ndjson).dataframe({ cache }),
      expected,
      `events.ndjson ${cache}`,
    );
  }
});

Deno.test("nRows and head(n) stop the download early and cache nothing partial", async () => {
  const text = generatedCsv(200_000); // about 9 MB
  // Shaped bodies are counted as they are sent, so bytesSent shows where the download stopped;
  // slow enough that the bytes sent while the stat is answered (alongside) stay few.
  await using store = await dataStore({ [`${DATA}/big.csv`]: text }, { bandwidth: 10_000_000 });
  const tern = store.connect();
  const file = tern.file(`${DATA}/big.csv`);
  await file.stat();
  const before = store.server.stats().bytesSent;
  const head = await file.head(5);
  const sent = store.server.stats().bytesSent - before;
  assert.deepEqual(head.getColumn("id").toArray(), [0, 1, 2, 3, 4]);
  assert.ok(sent < text.length / 4, `${sent} of ${text.length} bytes were sent for 5 rows`);
  assert.equal(tern.stats.inFlight, 0, "the cancelled body gave its slot back");
  assert.equal((await tern.cache.info()).height, 0);
  const leftovers = [...Deno.readDirSync(`${store.cacheDir}/downloads`)].map((item) => item.name);
  assert.deepEqual(leftovers.filter((name) => name.startsWith(".tmp")), []);
  const limited = await file.dataframe({ nRows: 70_000 });
  assert.equal(limited.height, 70_000);
  assert.equal(limited.getColumn("id").toArray().at(-1), 69_999);
  assert.equal((await file.head(0)).height, 0);
});

Deno.test("batches() yields frames of the asked size that add up to the file", async () => {
  const text = generatedCsv(45_000);
  await using store = await dataStore({ [`${DATA}/big.csv`]: text });
  const tern = store.connect();
  const file = tern.file(`${DATA}/big.csv`);
  const heights: number[] = [];
  const frames: DataFrame[] = [];
  for await (const batch of file.batches({ rows: 10_000 })) {
    heights.push(batch.height);
    frames.push(batch);
  }
  assert.deepEqual(heights, [10_000, 10_000, 10_000, 10_000, 5_000]);
  const whole = pl.readCSV(local(store.root, `${DATA}/big.csv`), { dtypes: { day: pl.Date } });
  assertFrameEqual(pl.concat(frames, { how: "diagonal" }), whole, "batches");
  // Again from the cache copy it left, then stopping after the first batch.
  for await (const batch of file.batches({ rows: 1000 })) {
    assert.equal(batch.height, 1000);
    break;
  }
  assert.equal(tern.stats.inFlight, 0);
  const parquet = pl.DataFrame({ x: [1, 2, 3, 4, 5] }).writeParquet();
  await store.write(`${DATA}/five.parquet`, new Uint8Array(parquet));
  const sizes = [];
  for await (const batch of tern.file(`${DATA}/five.parquet`).batches({ rows: 2 })) {
    sizes.push(batch.height);
  }
  assert.deepEqual(sizes, [2, 2, 1]);
});

Deno.test("JSON arrays, Arrow IPC streams, empty and header-only files", async () => {
  const frame = pl.DataFrame({ a: [1, 2, 3], b: ["x", "y", "z"] });
  await using store = await dataStore({
    [`${DATA}/records.json`]: JSON.stringify(frame.toRecords()),
    [`${DATA}/stream.arrows`]: new Uint8Array(frame.writeIPCStream()),
    [`${DATA}/file.feather`]: new Uint8Array(frame.writeIPC()),
    [`${DATA}/empty.csv`]: "",
    [`${DATA}/header.csv`]: "a,b\n",
  });
  const tern = store.connect();
  for (const name of ["records.json", "stream.arrows", "file.feather"]) {
    const read = await tern.file(`${DATA}/${name}`).dataframe();
    assert.deepEqual(read.toRecords(), frame.toRecords(), name);
  }
  assert.deepEqual((await tern.file(`${DATA}/empty.csv`).dataframe()).shape, {
    height: 0,
    width: 0,
  });
  const header = await tern.file(`${DATA}/header.csv`).dataframe();
  assert.deepEqual([header.height, header.columns], [0, ["a", "b"]]);
});

Deno.test("files that are not tables are refused before they are downloaded whole", async () => {
  await using store = await dataStore("sample");
  const tern = store.connect();
  for (const path of [SAMPLE_FILES.png, SAMPLE_FILES.text]) {
    await assert.rejects(tern.file(path).dataframe(), (error: unknown) => {
      assert.ok(error instanceof UnsupportedFormatError, String(error));
      assert.equal(error.path, path);
      assert.match(error.message, /Supported formats: CSV \(\.csv\), TSV \(\.tsv \.tab\), JSON/);
      return true;
    });
  }
  assert.equal(tern.stats.inFlight, 0);
  assert.equal((await tern.cache.info()).height, 0);
  // Nor is a temporary copy left open in the cache folder.
  const left: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const item of Deno.readDir(dir)) {
      if (item.isDirectory) await walk(`${dir}/${item.name}`);
      else if (item.name.startsWith(".tmp-")) left.push(item.name);
    }
  };
  await walk(store.cacheDir);
  assert.deepEqual(left, []);
});

Deno.test("a cold read asks for the bytes alongside the stat: one round trip of latency, not two", async () => {
  const latencyMs = 200;
  await using store = await dataStore({
    [`${DATA}/t.csv`]: "a,b\n1,2\n",
    [`${DATA}/u.csv`]: "a\n1\n",
  }, {
    latencyMs,
  });
  const requests: string[] = [];
  const recording: typeof fetch = (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const what = `${url.pathname.split("/").pop()} ${url.searchParams.get("path") ?? ""}`.trim();
    requests.push(`sent ${what}`);
    return fetch(input, init).then((response) => {
      requests.push(`answered ${what}`);
      return response;
    });
  };
  const tern = store.connect({ fetch: recording });
  assert.equal((await tern.file(`${DATA}/t.csv`).dataframe()).height, 1);
  // Both requests left before either answer came back: one round trip, not two (the time it
  // saves is the bench's to measure, not a test's).
  assert.deepEqual(requests.slice(0, 2).map((line) => line.split(" ")[0]), ["sent", "sent"]);
  // A cached copy: the stat decides, nothing is downloaded.
  requests.length = 0;
  await tern.file(`${DATA}/t.csv`).dataframe();
  const sent = requests.filter((line) => line.startsWith("sent"));
  assert.equal(sent.length, 1, sent.join(", ")); // the stat (through the folder's listing)
  assert.ok(!sent[0].includes("download"), sent[0]);
  // A folder or a missing path: the typed error of the stat; the download sent is dropped.
  await assert.rejects(tern.file(DATA).dataframe(), /folder/);
  await assert.rejects(tern.file(`${DATA}/missing.csv`).dataframe(), /does not exist|not found/i);
  // Without a cache, too.
  requests.length = 0;
  await tern.file(`${DATA}/u.csv`).dataframe({ cache: false });
  assert.deepEqual(requests.slice(0, 2).map((line) => line.split(" ")[0]), ["sent", "sent"]);
});

Deno.test("a read loads Polars beside its requests: without --allow-ffi a missing file is still a NotFoundError, a present one the permission error, and nothing goes unhandled", async () => {
  await using server = await serveSampleStore();
  const script = `
    import { connect } from ${JSON.stringify(new URL("../../mod.ts", import.meta.url).href)};
    const store = connect({ url: ${JSON.stringify(server.url)}, anonymous: true, cacheDir: false });
    const formats = ${JSON.stringify(SAMPLE_CASES.formats)};
    for (const name of ["missing.csv", "penguins.csv"]) {
      try {
        await store.file(formats + "/" + name).dataframe();
        console.log("read");
      } catch (error) {
        console.log(error.name);
      }
    }
    // A rejection nobody handled would end the process here, before the last line.
    await new Promise((resolve) => setTimeout(resolve, 100));
    console.log("end");
  `;
  const file = await Deno.makeTempFile({ prefix: "tern-read-test-", suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, script);
    const root = new URL("../../", import.meta.url);
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--config",
        "deno.json",
        "--allow-net",
        "--allow-read",
        "--allow-env",
        "--allow-sys",
        file,
      ],
      cwd: root,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    const lines = new TextDecoder().decode(output.stdout).trim().split("\n");
    assert.deepEqual(lines, ["NotFoundError", "NotCapable", "end"], stderr);
  } finally {
    await Deno.remove(file);
  }
});
