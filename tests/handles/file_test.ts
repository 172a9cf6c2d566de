import assert from "node:assert/strict";
import {
  BadRequestError,
  ContentError,
  isAbortError,
  NetworkError,
  NotFoundError,
} from "../../mod.ts";
import { bigBytes, GOOD_JSON, NOTES, PATHS, PNG_BYTES, serve, TABLE_CSV } from "./_store.ts";

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
  await assert.rejects(store.file(PATHS.alicePrivate).text(), NotFoundError);
  await assert.rejects(served.connect().file(PATHS.notes).text(), NotFoundError);
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

Deno.test("downloadTo is atomic: a dropped body leaves no file and keeps the old one", async () => {
  await using served = await serve({ dropRate: 1 });
  const store = served.demo();
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
    const started = performance.now();
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(
      store.file(PATHS.big).downloadTo(`${local}/big.bin`, { signal: controller.signal }),
      (error: unknown) => isAbortError(error),
    );
    assert.ok(performance.now() - started < 2000, "the abort stopped the transfer");
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
    await assert.rejects(store.file(PATHS.png).dataframe(), /it is a PNG image/);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
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
