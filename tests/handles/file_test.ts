import assert from "node:assert/strict";
import pl from "../../polars.ts";
import {
  BadRequestError,
  ContentError,
  FileChangedError,
  IntegrityError,
  isAbortError,
  NetworkError,
  NotFoundError,
  PermissionError,
  SignInRequiredError,
  Store,
  TernError,
} from "../../mod.ts";
import { quoteInput } from "../../lib/client/errors.ts";
import { Transport } from "../../lib/client/transport.ts";
import { LocalFileError } from "../../lib/handles/file.ts";
import { until } from "../reliability/_fixtures.ts";
import { item, pageAnswer, serveDouble, statAnswer } from "./_double.ts";
import {
  bigBytes,
  GOOD_JSON,
  NOTES,
  PATHS,
  PNG_BYTES,
  serve,
  TABLE_CSV,
  writeFile,
} from "./_store.ts";

async function temporaryFolder(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "tern-file-test-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

async function listDir(path: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) names.push(entry.name);
  return names.sort();
}

Deno.test("bytes, text, json and stream return the file's exact content", async () => {
  await using served = await serve();
  const store = served.demo();
  assert.deepEqual(await store.file(PATHS.big).bytes(), bigBytes());
  assert.equal(await store.file(PATHS.notes).text(), NOTES);
  assert.deepEqual(await store.file(PATHS.goodJson).json(), GOOD_JSON);
  assert.equal(await store.file(PATHS.unicode).text(), "unicode name\n");
  const stream = await store.file(PATHS.big).stream();
  let size = 0;
  for await (const chunk of stream) size += chunk.byteLength;
  assert.equal(size, bigBytes().length);
  assert.equal(store.stats.inFlight, 0, "a finished body gives its slot back");
});

Deno.test("stream pipes into web streams such as gzip decompression", async () => {
  await using served = await serve();
  const store = served.demo();
  const original = await store.file(PATHS.big).bytes();
  const gzipped = await new Response(
    new Blob([original]).stream().pipeThrough(new CompressionStream("gzip")),
  ).bytes();
  await writeFile(`${served.root}${PATHS.big}.gz`, gzipped);
  const stream = (await store.file(`${PATHS.big}.gz`).stream())
    .pipeThrough(new DecompressionStream("gzip"));
  assert.deepEqual(await new Response(stream).bytes(), original);
});

Deno.test("text and json refuse content they cannot read instead of mangling it", async () => {
  await using served = await serve();
  const store = served.demo();
  await assert.rejects(store.file(PATHS.binary).text(), (error: unknown) => {
    assert.ok(error instanceof ContentError, String(error));
    assert.match(error.message, /is not UTF-8 text \(6 bytes\); use bytes\(\)/);
    assert.equal(error.path, PATHS.binary);
    return true;
  });
  await assert.rejects(store.file(PATHS.badJson).json(), (error: unknown) => {
    assert.ok(error instanceof ContentError, String(error));
    assert.match(error.message, /bad\.json" is not valid JSON/);
    return true;
  });
  assert.equal((await store.file(PATHS.binary).bytes()).length, 6);
});

Deno.test("downloads of missing files, folders and other users' files fail with typed errors", async () => {
  await using served = await serve();
  const store = served.demo();
  await assert.rejects(store.file(`${PATHS.public}/nope.csv`).bytes(), NotFoundError);
  await assert.rejects(store.file(PATHS.empty).bytes(), BadRequestError);
  // The file's size is asked for first, from its parent's listing, which demo may not read.
  await assert.rejects(store.file(PATHS.alicePrivate).text(), PermissionError);
  await assert.rejects(served.connect().file(PATHS.notes).text(), SignInRequiredError);
  assert.equal(store.stats.inFlight, 0);
});

Deno.test("manifest gives the detected type, info type and public URL only for public files", async () => {
  await using served = await serve();
  const store = served.demo();
  const table = await store.file(PATHS.table).manifest();
  assert.equal(table.contentType, "text/csv");
  assert.equal(table.infoType, "csv");
  assert.ok(table.publicUrl?.endsWith("/dav-anon/iplant/home/shared/public/table.csv"));
  assert.deepEqual(table.urls, [{ label: "anonymous", url: table.publicUrl }]);
  const notes = await store.file(PATHS.notes).manifest();
  assert.equal(notes.publicUrl, undefined);
  assert.deepEqual(notes.urls, []);
  await assert.rejects(store.file(PATHS.public).manifest(), /is a folder, not a file/);
});

Deno.test("openInline gives the detected media type for display, unlike the octet-stream download", async () => {
  await using served = await serve();
  const store = served.connect();
  const inline = await store.file(PATHS.png).openInline();
  assert.equal(inline.contentType, "image/png");
  assert.equal(inline.filename, "plot.png");
  assert.deepEqual(new Uint8Array(await new Response(inline.body).arrayBuffer()), PNG_BYTES);
  const csv = await store.file(PATHS.table).openInline();
  assert.match(csv.contentType, /^text\/csv/);
  assert.equal(await new Response(csv.body).text(), TABLE_CSV);
});

Deno.test("downloadTo writes the exact bytes, into a folder or to a file name, creating folders", async () => {
  await using served = await serve();
  const store = served.demo();
  const local = await Deno.makeTempDir();
  try {
    const intoFolder = await store.file(PATHS.big).downloadTo(`${local}/`);
    assert.deepEqual(intoFolder, { path: `${local}/big.bin`, size: bigBytes().length });
    assert.deepEqual(await Deno.readFile(`${local}/big.bin`), bigBytes());

    const existingFolder = await store.file(PATHS.table).downloadTo(local);
    assert.equal(existingFolder.path, `${local}/table.csv`);

    const named = await store.file(PATHS.table).downloadTo(`${local}/deep/er/copy.csv`);
    assert.equal(named.path, `${local}/deep/er/copy.csv`);
    assert.equal(await Deno.readTextFile(named.path), TABLE_CSV);

    await Deno.writeTextFile(`${local}/notes.txt`, "old");
    await store.file(PATHS.notes).downloadTo(`${local}/notes.txt`);
    assert.equal(await Deno.readTextFile(`${local}/notes.txt`), NOTES);
    assert.deepEqual(await listDir(local), ["big.bin", "deep", "notes.txt", "table.csv"]);
  } finally {
    await Deno.remove(local, { recursive: true });
  }
});

Deno.test("downloadTo replaces a symlink at the target rather than writing through it", async () => {
  await using served = await serve();
  const store = served.demo();
  const local = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${local}/foreign.csv`, "not mine");
    await Deno.symlink(`${local}/foreign.csv`, `${local}/table.csv`);
    const saved = await store.file(PATHS.table).downloadTo(`${local}/`);
    assert.equal(saved.path, `${local}/table.csv`);
    assert.ok(!(await Deno.lstat(saved.path)).isSymlink);
    assert.equal(await Deno.readTextFile(saved.path), TABLE_CSV);
    assert.equal(await Deno.readTextFile(`${local}/foreign.csv`), "not mine");
  } finally {
    await Deno.remove(local, { recursive: true });
  }
});

Deno.test("downloadTo is atomic: a dropped body leaves no file and keeps the old one", async () => {
  await using served = await serve({ dropRate: 1 });
  const store = served.demo({ retries: 1 });
  const local = await Deno.makeTempDir();
  try {
    await assert.rejects(store.file(PATHS.big).downloadTo(`${local}/big.bin`), NetworkError);
    assert.deepEqual(await listDir(local), [], "no partial or temporary file is left");
    await Deno.writeTextFile(`${local}/keep.bin`, "previous version");
    await assert.rejects(store.file(PATHS.big).downloadTo(`${local}/keep.bin`), NetworkError);
    assert.equal(await Deno.readTextFile(`${local}/keep.bin`), "previous version");
    assert.deepEqual(await listDir(local), ["keep.bin"]);
    await assert.rejects(
      store.file(`${PATHS.public}/nope`).downloadTo(`${local}/x`),
      NotFoundError,
    );
    assert.deepEqual(await listDir(local), ["keep.bin"]);
    assert.equal(store.stats.inFlight, 0);
  } finally {
    await Deno.remove(local, { recursive: true });
  }
});

Deno.test("downloadTo aborted mid-body rejects with AbortError and leaves nothing", async () => {
  // 300 KiB at 100 KiB/s: the abort after 300 ms lands mid-body.
  await using served = await serve({ bandwidth: 100 * 1024 });
  const store = served.demo();
  const local = await Deno.makeTempDir();
  try {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(
      store.file(PATHS.big).downloadTo(`${local}/big.bin`, { signal: controller.signal }),
      (error: unknown) => isAbortError(error),
    );
    // Not stopped, the download would have ended in a saved file, not an AbortError.
    assert.deepEqual(await listDir(local), []);
    assert.equal(store.stats.inFlight, 0);
  } finally {
    await Deno.remove(local, { recursive: true });
  }
});

Deno.test("dataframe, head and batches read the file as a table; cachedPath gives its local copy", async () => {
  await using served = await serve();
  const cacheDir = await Deno.makeTempDir();
  try {
    const store = served.demo({ cacheDir });
    const file = store.file(PATHS.table);
    const expected = [
      { id: 1, name: "alpha", value: 0.5 },
      { id: 2, name: "beta", value: 1.5 },
      { id: 3, name: "gamma", value: 2.5 },
    ];
    assert.deepEqual((await file.dataframe()).toRecords(), expected);
    assert.deepEqual((await file.head(2)).toRecords(), expected.slice(0, 2));
    const heights = [];
    for await (const batch of file.batches({ rows: 2 })) heights.push(batch.height);
    assert.deepEqual(heights, [2, 1]);
    const local = await file.cachedPath();
    assert.ok(local.startsWith(`${cacheDir}/downloads/`) && local.endsWith(".csv"));
    assert.equal(await Deno.readTextFile(local), TABLE_CSV);
    await assert.rejects(file.head(-1), /head\(n\) needs an integer n ≥ 0/);
    // Options where the row count goes, as `df.head()` habits write it.
    await assert.rejects(
      file.head({ columns: ["id"] } as unknown as number),
      /file\.head\(n, options\) takes the number of rows first, got an object: head\(10, \{ … \}\)/,
    );
    await assert.rejects(store.file(PATHS.png).dataframe(), /it is a PNG image/);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("a batches() loop left early ends its progress, interrupted; one read to its end, once", async () => {
  await using served = await serve();
  const file = served.demo({ cacheDir: false, progress: false }).file(PATHS.table);
  const ends = async (leave: boolean) => {
    const done: string[] = [];
    const onProgress = (event: { kind: string; ok?: boolean; interrupted?: boolean }) =>
      void (event.kind === "done" && done.push(event.interrupted ? "interrupted" : `${event.ok}`));
    for await (const _ of file.batches({ rows: 1, onProgress })) if (leave) break;
    return done;
  };
  assert.deepEqual(await ends(true), ["interrupted"]);
  assert.deepEqual(await ends(false), ["true"]);
});

Deno.test("dataframe() and scan() refuse a misspelt or bad option before any request, naming it", async () => {
  await using served = await serve();
  let requests = 0;
  const store = served.demo({
    cacheDir: false,
    fetch: (input, init) => (requests++, fetch(input, init)),
  });
  const file = store.file(PATHS.table);
  const refused: [() => Promise<unknown>, string | RegExp][] = [
    [
      () => file.dataframe({ seperator: ";" } as never),
      'file.dataframe(): unknown option "seperator": did you mean "sep"?',
    ],
    [
      () => file.dataframe({ nrows: 2 } as never),
      'file.dataframe(): unknown option "nrows": did you mean "nRows"?',
    ],
    [
      () => file.dataframe({ nRows: "2" } as never),
      'file.dataframe(): nRows must be an integer ≥ 0, got "2".',
    ],
    [
      () => file.dataframe({ columns: "name" } as never),
      'file.dataframe(): columns must be a non-empty array of column names, got "name".',
    ],
    [
      () => file.head(2, { header: false } as never),
      'file.head(): unknown option "header": did you mean "hasHeader"?',
    ],
    [
      () => file.scan({ remot: false } as never),
      'file.scan(): unknown option "remot": did you mean "remote"?',
    ],
    [
      () => file.scan({ nRows: 5 } as never),
      /^file\.scan\(\): unknown option "nRows"; the options are format, encoding, sep, .*, remote, onProgress, progress, signal\.$/,
    ],
    [
      () => file.scan({ quoteChar: "ab" }),
      'file.scan(): quoteChar must be one ASCII character, got "ab".',
    ],
    [
      () => file.scan({ format: "xlsx" } as never),
      /^file\.scan\(\): format must be one of "csv", .*"parquet".*, got "xlsx"\. Did you mean "excel"\?$/,
    ],
  ];
  for (const [read, message] of refused) {
    await assert.rejects(read, (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      if (typeof message === "string") assert.equal(error.message, message);
      else assert.match(error.message, message);
      return true;
    });
  }
  assert.equal(requests, 0);
  assert.equal(served.server.stats().requests, 0);
});

Deno.test("every option of dataframe() and scan() still works", async () => {
  await using served = await serve();
  await using cache = await temporaryFolder();
  const store = served.demo({ cacheDir: cache.path });
  const file = store.file(PATHS.table);
  const events: string[] = [];
  const frame = await file.dataframe({
    format: "csv",
    sep: ",",
    quoteChar: '"',
    columns: ["id", "value"],
    dtypes: { id: pl.Utf8 },
    hasHeader: true,
    nullValues: { value: "1.5" },
    nRows: 2,
    tryParseDates: false,
    inferSchemaLength: 10,
    cache: false,
    onProgress: (event) => events.push(event.kind),
    progress: false,
    signal: new AbortController().signal,
  });
  assert.deepEqual(frame.toRecords(), [{ id: "1", value: 0.5 }, { id: "2", value: null }]);
  assert.ok(events.includes("done"), events.join());
  assert.equal((await store.cache.info()).height, 0, "cache: false kept no copy");
  const headless = await file.dataframe({ hasHeader: false, nullValues: ["alpha", "beta"] });
  assert.deepEqual(headless.getColumn(headless.columns[1]).toArray(), [
    "name",
    null,
    null,
    "gamma",
  ]);
  const scanned: string[] = [];
  const lazy = await file.scan({
    format: "csv",
    remote: false,
    onProgress: (event) => scanned.push(event.kind),
    progress: false,
    signal: new AbortController().signal,
  });
  assert.equal((await lazy.collect()).height, 3);
  assert.ok(scanned.includes("done"), scanned.join());
  assert.equal((await store.cache.info()).height, 1, "the whole read and the scan share one copy");
});

Deno.test("a path handle asks for the current entry before reading; a listing's handle trusts its entry", async () => {
  await using served = await serve();
  const cacheDir = await Deno.makeTempDir();
  try {
    const store = served.demo({ cacheDir });
    await store.file(PATHS.table).dataframe();
    let requests = served.server.stats().requests;
    await store.file(PATHS.table).dataframe();
    assert.equal(served.server.stats().requests - requests, 1, "one stat, then the cached copy");
    const [entry] = await store.folder(PATHS.public).list({ glob: "table.csv" }).toArray();
    requests = served.server.stats().requests;
    assert.equal((await store.file(entry).dataframe()).height, 3);
    assert.equal(served.server.stats().requests - requests, 0, "no request at all");
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});

/** A store on `url` that retries after 1-5 ms, for failure tests. */
function impatient(url: string, retries = 2): Store {
  const transport = new Transport({ url, retries, retryBaseMs: 1, retryMaxMs: 5 });
  return new Store(transport, {
    url: transport.url,
    auth: "anonymous",
    credentialsFrom: "none",
    ...transport.policy,
    cacheDir: false,
    progress: false,
  });
}

/** A chunked body: no Content-Length, as Terrain sends downloads. */
function chunked(bytes: Uint8Array): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += 1000) {
        controller.enqueue(bytes.slice(offset, offset + 1000));
      }
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "application/octet-stream" } });
}

const DOUBLE_FOLDER = "/iplant/home/shared/double";

/**
 * A double whose folder lists one file of `size` bytes named `name`, and whose n-th download
 * (from 0) gets `body(n)`.
 */
function fileDouble(name: string, size: number, body: (attempt: number) => Response) {
  let downloads = 0;
  return serveDouble((url) => {
    if (url.pathname.endsWith("/fileio/download")) return body(downloads++);
    const entry = { ...item(`${DOUBLE_FOLDER}/${name}`, "file", 1), "file-size": size };
    if (url.pathname.endsWith("/filesystem/stat")) return statAnswer([entry]);
    return pageAnswer(DOUBLE_FOLDER, [entry], 1);
  });
}

Deno.test("a short chunked body is re-downloaded, then refused by every read (test double)", async () => {
  const bytes = new TextEncoder().encode("0123456789");
  await using double = fileDouble("a.bin", 10, () => chunked(bytes.subarray(0, 3)));
  const store = impatient(double.url);
  const [entry] = await store.folder(DOUBLE_FOLDER).list().toArray();
  const path = `${DOUBLE_FOLDER}/a.bin`;
  const short = (error: unknown) => {
    assert.ok(error instanceof IntegrityError, String(error));
    assert.match(
      error.message,
      /ended after 3 of its listed 10 bytes \(gave up after 3 attempts\)/,
    );
    return true;
  };
  // From a listing (the size is known) and from a path (the size is asked for first).
  for (const file of [store.file(entry), store.file(path)]) {
    await assert.rejects(file.bytes(), short);
    await assert.rejects(file.text(), short);
    await assert.rejects(file.json(), short);
    const body = await file.stream();
    await assert.rejects(new Response(body).arrayBuffer(), short);
  }
  const local = await Deno.makeTempDir();
  try {
    await assert.rejects(store.file(entry).downloadTo(`${local}/a.bin`), short);
    assert.deepEqual(await listDir(local), [], "nothing is saved");
  } finally {
    await Deno.remove(local, { recursive: true });
  }
  const downloads = double.requests.filter((url) => url.pathname.endsWith("/fileio/download"));
  assert.equal(downloads.length, 9 * 3, "each read made 3 attempts");
  assert.equal(store.stats.inFlight, 0);
});

Deno.test("a body that ends short resumes where it ended, for bytes, stream and downloadTo (test double)", async () => {
  const bytes = bigBytes();
  await using double = fileDouble(
    "big.bin",
    bytes.length,
    // Every other download ends after a third of the file.
    (attempt) => chunked(attempt % 2 === 0 ? bytes.subarray(0, 100_000) : bytes),
  );
  const store = impatient(double.url);
  const file = store.file(`${DOUBLE_FOLDER}/big.bin`);
  assert.deepEqual(await file.bytes(), bytes);
  assert.deepEqual(new Uint8Array(await new Response(await file.stream()).arrayBuffer()), bytes);
  const local = await Deno.makeTempDir();
  try {
    const saved = await file.downloadTo(`${local}/`);
    assert.deepEqual(saved, { path: `${local}/big.bin`, size: bytes.length });
    assert.deepEqual(await Deno.readFile(saved.path), bytes);
    assert.deepEqual(await listDir(local), ["big.bin"]);
  } finally {
    await Deno.remove(local, { recursive: true });
  }
  assert.equal(store.stats.inFlight, 0);
});

Deno.test("under dropped bodies bytes() and downloadTo() come back exact", async () => {
  await using served = await serve({ dropRate: 0.5, seed: 11 });
  const store = impatient(served.url, 8);
  const local = await Deno.makeTempDir();
  try {
    for (let i = 0; i < 4; i++) {
      assert.deepEqual(await store.file(PATHS.big).bytes(), bigBytes());
      const saved = await store.file(PATHS.big).downloadTo(`${local}/big-${i}.bin`);
      assert.deepEqual(await Deno.readFile(saved.path), bigBytes());
    }
    assert.ok(served.server.stats().bodiesDropped > 0, "the server did cut bodies");
  } finally {
    await Deno.remove(local, { recursive: true });
  }
});

Deno.test("stream() hands bytes on as they arrive and cancelling it ends the request", async () => {
  // 300 KiB at 1 KiB/s: the server takes 5 minutes to send it all, and the test reads one piece,
  // so only the cancel can give the slot back within the hang guard below.
  await using served = await serve({ bandwidth: 1024 });
  const store = served.demo();
  const body = await store.file(PATHS.big).stream();
  const reader = body.getReader();
  const first = await reader.read();
  assert.ok(!first.done && first.value.byteLength < bigBytes().length);
  // Counted, not timed: a stream that buffered the file would hand nothing on before the
  // server had sent all of it.
  assert.ok(
    served.server.stats().bytesSent < bigBytes().length,
    "the first bytes came before the whole file",
  );
  await reader.cancel();
  await until(() => store.stats.inFlight === 0, "the cancelled body gave its slot back");
});

Deno.test("bytes() and downloadTo() of a file rewritten after it was listed read its new version", async () => {
  await using served = await serve();
  const store = served.demo();
  const path = `${PATHS.public}/changing.txt`;
  await writeFile(`${served.root}${path}`, "old\n");
  const [entry] = await store.folder(PATHS.public).list({ glob: "changing.txt" }).toArray();
  await writeFile(`${served.root}${path}`, "new and longer\n");
  await Deno.utime(`${served.root}${path}`, new Date(2030, 0, 1), new Date(2030, 0, 1));
  assert.equal(new TextDecoder().decode(await store.file(entry).bytes()), "new and longer\n");
  const local = await Deno.makeTempDir();
  try {
    const saved = await store.file(entry).downloadTo(`${local}/`);
    assert.equal(await Deno.readTextFile(saved.path), "new and longer\n");
    assert.deepEqual(await listDir(local), ["changing.txt"]);
  } finally {
    await Deno.remove(local, { recursive: true });
  }
  // A stream cannot take back what it delivered: it says the file changed.
  const [stale] = await store.folder(PATHS.public).list({ glob: "changing.txt" }).toArray();
  await writeFile(`${served.root}${path}`, "newest, longer still\n");
  await Deno.utime(`${served.root}${path}`, new Date(2031, 0, 1), new Date(2031, 0, 1));
  await assert.rejects(async () => {
    const body = await store.file(stale).stream();
    await new Response(body).arrayBuffer();
  }, FileChangedError);
});

Deno.test("downloadTo saves a file whose name is 255 bytes into a folder", async () => {
  await using served = await serve();
  const store = served.demo();
  const ascii = `${"a".repeat(251)}.csv`;
  const utf8 = `${"é".repeat(125)}x.csv`;
  assert.equal(new TextEncoder().encode(utf8).length, 255);
  for (const name of [ascii, utf8]) {
    await writeFile(`${served.root}${PATHS.public}/${name}`, `${name}\n`);
  }
  const local = await Deno.makeTempDir();
  try {
    for (const name of [ascii, utf8]) {
      const saved = await store.file(`${PATHS.public}/${name}`).downloadTo(`${local}/`);
      assert.equal(saved.path, `${local}/${name}`);
      assert.equal(await Deno.readTextFile(saved.path), `${name}\n`);
    }
    assert.deepEqual(await listDir(local), [ascii, utf8].sort(), "no temporary file is left");
  } finally {
    await Deno.remove(local, { recursive: true });
  }
});

Deno.test("downloadTo turns a local file-system failure into a LocalFileError naming the path", async () => {
  await using served = await serve();
  const store = served.demo();
  const local = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${local}/plain`, "a file, not a folder");
    const cases = [
      // A parent that is a file; a name longer than any file system allows.
      `${local}/plain/table.csv`,
      `${local}/${"b".repeat(256)}.csv`,
    ];
    for (const target of cases) {
      await assert.rejects(store.file(PATHS.table).downloadTo(target), (error: unknown) => {
        assert.ok(error instanceof LocalFileError, String(error));
        assert.ok(error instanceof TernError);
        assert.equal(error.localPath, target);
        // Named as every input is quoted: at most 200 characters of it.
        assert.ok(error.message.includes(quoteInput(target)), error.message);
        assert.match(error.message, /os error \d+/);
        assert.equal(error.path, PATHS.table);
        return true;
      });
    }
    assert.deepEqual(await listDir(local), ["plain"], "no temporary file is left");
    assert.equal(store.stats.inFlight, 0);
  } finally {
    await Deno.remove(local, { recursive: true });
  }
});

Deno.test("downloadTo into a folder refuses entry names that would leave it (test double)", async () => {
  const names = ["..", ".", "", "nul\u0000.csv"];
  await using double = serveDouble((url) => {
    if (url.pathname.endsWith("/fileio/download")) return chunked(new Uint8Array([1, 2, 3]));
    const entries = names.map((name, i) => ({
      ...item(`${DOUBLE_FOLDER}/${name}`, "file", i + 1),
      "file-size": 3,
    }));
    return pageAnswer(DOUBLE_FOLDER, entries, entries.length);
  });
  const store = impatient(double.url);
  const listed = await store.folder(DOUBLE_FOLDER).list().toArray();
  assert.equal(listed.length, names.length);
  const work = await Deno.makeTempDir();
  const target = `${work}/outer/target`;
  await Deno.mkdir(target, { recursive: true });
  try {
    for (const entry of listed) {
      await assert.rejects(store.file(entry).downloadTo(`${target}/`), (error: unknown) => {
        assert.ok(error instanceof BadRequestError, String(error));
        assert.match(error.message, /not a safe local file name; give downloadTo a file path/);
        assert.equal(error.path, entry.path);
        return true;
      });
    }
    assert.deepEqual(await listDir(work), ["outer"]);
    assert.deepEqual(await listDir(`${work}/outer`), ["target"]);
    assert.deepEqual(await listDir(target), []);
    assert.ok(
      !double.requests.some((url) => url.pathname.endsWith("/fileio/download")),
      "nothing was downloaded",
    );
    // Under a name of the caller's choosing, the same file saves.
    const saved = await store.file(listed[0]).downloadTo(`${target}/parent.bin`);
    assert.deepEqual(await Deno.readFile(saved.path), new Uint8Array([1, 2, 3]));
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
