/**
 * The local cache, on its own and under real reads over loopback: hits and misses, a changed
 * file downloaded again, offline reads, the size cap, shared downloads, two processes filling
 * one cache at once, and hostile cache parts (issue 20): index lines that redirect, edits right
 * after a write, symlinks, FIFOs, folders and hard links where files belong (or swapped in after
 * an open), overlong index lines, a full disk and a clear() from another process.
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { join } from "node:path";
import pl from "../../polars.ts";
import {
  CacheMissError,
  copyExtension,
  CopyWriter,
  CorruptCopyError,
  DiskCache,
  type FileVersion,
} from "../../lib/cache/mod.ts";
import { TernError } from "../../lib/client/errors.ts";
import { DATA, dataStore, generatedCsv } from "../data/_store.ts";
import { fullDiskAfter } from "./_full_disk.ts";

const encoder = new TextEncoder();

function version(path: string, size: number, modified = 1): FileVersion {
  return { store: "http://127.0.0.1:1/terrain", path, id: `id-${path}`, size, modified };
}

/** Writes a copy of `v` holding `text` through the cache's one way in. */
async function put(cache: DiskCache, v: FileVersion, text: string | Uint8Array) {
  const writer = await cache.open(v);
  assert.ok(writer instanceof CopyWriter);
  await writer.write(typeof text === "string" ? encoder.encode(text) : text);
  return (await writer.commit())!;
}

/** A fetch that records the data-store paths it downloads. */
function countingFetch(downloads: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.pathname.endsWith("/fileio/download")) downloads.push(url.searchParams.get("path")!);
    return fetch(input, init);
  };
}

/**
 * Waits for `Date.now()` to pass its value now: the cache stamps uses in milliseconds, and two
 * uses in one would leave their order to chance. Waiting for the clock itself, not a fixed time.
 */
async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setTimeout(resolve, 1));
}

async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const item of Deno.readDir(dir)) found.push(item.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found.sort();
}

Deno.test("a copy is published whole or not at all, and found only for its exact version", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const warnings: string[] = [];
    const cache = new DiskCache({ dir, warn: (message) => warnings.push(message) });
    // Over 1 KiB: a file of its own.
    const [head, rest] = ["a\n", "1\n".repeat(600)];
    const v1 = version("/a/t.csv", head.length + rest.length);
    assert.equal(await cache.lookup(v1), undefined);
    const writer = await cache.open(v1);
    assert.ok(writer instanceof CopyWriter);
    await writer.write(encoder.encode(head));
    assert.equal(await cache.lookup(v1), undefined, "nothing is visible while writing");
    await writer.write(encoder.encode(rest));
    const cached = (await writer.commit("csv"))!;
    assert.ok(cached.file.endsWith(".csv"));
    assert.match(cached.version.hash!, /^xxh64:[0-9a-f]{16}$/, "hashed before it was visible");
    assert.equal(await Deno.readTextFile(cached.file), head + rest);
    assert.equal((await cache.lookup(v1))?.file, cached.file);
    assert.equal(await cache.lookup({ ...v1, modified: 2 }), undefined, "another date is a miss");
    assert.equal(await cache.lookup({ ...v1, id: "other" }), undefined, "another id is a miss");

    const short = (await cache.open(version("/a/short.csv", 10))) as CopyWriter;
    await short.write(encoder.encode("abc"));
    assert.equal(await short.commit(), undefined, "a copy of the wrong size is not published");
    await short.abort(); // a writer that did not publish is ended by abort() or salvage()
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /cannot write the local cache .*the copy has 3 bytes, expected 10/);
    const aborted = (await cache.open(version("/a/gone.csv", 3))) as CopyWriter;
    await aborted.write(encoder.encode("abc"));
    await aborted.abort();
    assert.deepEqual(
      (await names(cache.dir)).filter((name) => name !== "index.jsonl"),
      [cached.file.slice(cache.dir.length + 1)],
      "no temporary or partial file is left",
    );
    // A copy truncated behind the cache's back is not served.
    await Deno.chmod(cached.file, 0o644);
    await Deno.writeTextFile(cached.file, "a\n");
    assert.equal(await cache.lookup(v1), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a copy of many pieces holds every byte in order", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const size = 13 * 1024 * 1024 + 12_345;
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 2654435761) >>> 24;
    const writer = (await cache.open(version("/a/pieces.csv", size))) as CopyWriter;
    // Chunks of odd sizes, as a download delivers them, crossing every piece boundary.
    for (let at = 0, step = 1; at < size; at += step, step = (step * 7 + 3) % 200_003) {
      await writer.write(bytes.subarray(at, Math.min(size, at + step)));
    }
    const cached = (await writer.commit())!;
    assert.ok(
      createHash("sha256").update(await Deno.readFile(cached.file)).digest("hex") ===
        createHash("sha256").update(bytes).digest("hex"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a small copy comes from its commit with the bytes written; a large one by path only", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const small = await put(cache, version("/a/small.csv", 4), "a\n1\n");
    assert.deepEqual(small.bytes, encoder.encode("a\n1\n"));
    const large = await put(
      cache,
      version("/a/large.bin", 1024 * 1024 + 1),
      new Uint8Array(1024 * 1024 + 1),
    );
    assert.equal(large.bytes, undefined);
    assert.equal((await Deno.stat(large.file)).size, 1024 * 1024 + 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copies committed at once are all indexed, and found by another cache object", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const versions = Array.from({ length: 40 }, (_, i) => version(`/a/${i}.csv`, 4));
    const writers = await Promise.all(versions.map((v) => cache.writer(v)));
    await Promise.all(writers.map((writer) => writer!.write(encoder.encode("a\n1\n"))));
    const copies = await Promise.all(writers.map((writer) => writer!.commit("csv")));
    assert.equal(copies.filter((copy) => copy !== undefined).length, 40);
    const index = await Deno.readTextFile(join(dir, "downloads", "index.jsonl"));
    assert.equal(index.split("\n").filter((line) => line !== "").length, 40, "one line each");
    const other = new DiskCache({ dir });
    for (const v of versions) assert.equal((await other.lookup(v))?.version.path, v.path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a miss is told by the index: what stands at an unindexed copy's name is never opened, nor removed (issue 33)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const warnings: string[] = [];
    const cache = new DiskCache({ dir, warn: (message) => warnings.push(message) });
    await put(cache, version("/a/indexed.csv", 4), "a\n1\n");
    // A copy's name without an index line: a symlink, as a process that died mid-publish
    // cannot leave, and a file of the wrong size, as one can.
    const other = await put(
      new DiskCache({ dir: await Deno.makeTempDir({ dir }) }),
      version("/a/b.csv", 4),
      "a\n1\n",
    );
    const [link, short] = [version("/a/b.csv", 4), version("/a/c.csv", 9)];
    const copyOf = async (v: FileVersion) => {
      const writer = (await cache.writer(v))!;
      await writer.write(encoder.encode("x".repeat(v.size)));
      const file = await cache.fileOf((await writer.commit())!);
      await Deno.remove(file);
      return file;
    };
    const [linkFile, shortFile] = [await copyOf(link), await copyOf(short)];
    await Deno.symlink(other.file, linkFile);
    await Deno.writeTextFile(shortFile, "a\n");
    // A fresh cache object reads the index once; a line for neither version is in it.
    await Deno.writeTextFile(join(dir, "downloads", "index.jsonl"), "");
    const fresh = new DiskCache({ dir, warn: (message) => warnings.push(message) });
    for (const v of [link, short]) assert.equal(await fresh.lookup(v), undefined);
    assert.ok((await Deno.lstat(linkFile)).isSymlink, "the symlink was left alone");
    assert.equal(await Deno.readTextFile(shortFile), "a\n", "the short file was left alone");
    assert.deepEqual(warnings, []);
    // Once another process publishes one of them, the index says so and the copy is found.
    await put(new DiskCache({ dir }), short, "x".repeat(9));
    assert.equal(new TextDecoder().decode((await fresh.lookup(short))?.bytes), "x".repeat(9));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("while there is no index, a miss opens nothing; a copy another process publishes is found", async () => {
  const dir = await Deno.makeTempDir();
  const realOpen = fs.promises.open;
  try {
    // A cap no copy fits in: the cache writes nothing, and every read looks up first.
    const cache = new DiskCache({ dir, maxBytes: 2 });
    const index = join(cache.dir, "index.jsonl");
    let opens = 0;
    fs.promises.open = ((path: string, ...rest: never[]) => {
      if (path === index) opens++;
      return realOpen(path, ...rest);
    }) as typeof fs.promises.open;
    const versions = Array.from({ length: 20 }, (_, i) => version(`/a/${i}.csv`, 4));
    for (const v of versions) assert.equal(await cache.open(v), undefined);
    assert.equal(opens, 0, "a missing index has no line to read");
    await put(new DiskCache({ dir }), versions[7], "a\n7\n");
    assert.deepEqual((await cache.lookup(versions[7]))?.bytes, encoder.encode("a\n7\n"));
  } finally {
    fs.promises.open = realOpen;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a lookup finds another process's copies after publishing its own, also across an index rewrite (issue 33)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const mine = new DiskCache({ dir });
    // Another process's cache object, whose cap of three copies makes it rewrite the index.
    const theirs = new DiskCache({ dir, maxBytes: 12 });
    const [one, two, three, four] = [1, 2, 3, 4].map((i) => version(`/a/${i}.csv`, 4));
    await put(mine, one, "a\n1\n");
    assert.equal(await mine.lookup(two), undefined);
    await put(mine, three, "a\n3\n"); // since its last read, the index grew by its own lines
    await put(theirs, two, "a\n2\n");
    assert.equal((await mine.lookup(two))?.version.path, "/a/2.csv");
    const inode = async () => (await Deno.lstat(join(dir, "downloads", "index.jsonl"))).ino;
    const before = await inode();
    await put(theirs, four, "a\n4\n"); // over their cap: one evicted, the index rewritten
    assert.notEqual(await inode(), before);
    assert.equal((await mine.lookup(four))?.version.path, "/a/4.csv");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("after another process's clear(), the copy being published fails (reported once) and the next one makes the folder again", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const warnings: string[] = [];
    const mine = new DiskCache({ dir, warn: (message) => warnings.push(message) });
    const [one, two, three] = [1, 2, 3].map((i) => version(`/a/${i}.csv`, 4));
    await put(mine, one, "a\n1\n");
    await new DiskCache({ dir }).clear();
    assert.equal(await put(mine, two, "a\n2\n"), undefined);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /cannot write the local cache/);
    await put(mine, three, "a\n3\n");
    assert.equal((await new DiskCache({ dir }).lookup(three))?.version.path, "/a/3.csv");
    assert.equal(warnings.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copy names carry the extension Polars needs to read them by path", () => {
  assert.equal(copyExtension("/a/b.tsv"), ".csv");
  assert.equal(copyExtension("/a/b.parquet"), ".parquet");
  assert.equal(copyExtension("/a/b.csv.gz"), ".gz");
  assert.equal(copyExtension("/a/NOTES"), ".bin");
});

Deno.test("the least recently used copies go when the cap is exceeded", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir, maxBytes: 25 });
    for (const path of ["/a/1.bin", "/a/2.bin", "/a/3.bin"]) {
      await put(cache, version(path, 10), "0123456789");
      await nextMillisecond();
      if (path === "/a/2.bin") assert.ok(await cache.lookup(version("/a/1.bin", 10)));
    }
    const left = (await cache.entries()).map((entry) => entry.version.path).sort();
    assert.deepEqual(left, ["/a/1.bin", "/a/3.bin"], "2 was the least recently used");
    assert.equal(await cache.open(version("/a/huge.bin", 26)), undefined, "larger than the cap");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a second read of an unchanged file comes from the cache; an edited one is downloaded", async () => {
  await using store = await dataStore({ [`${DATA}/t.csv`]: "a,b\n1,2\n" });
  const downloads: string[] = [];
  const tern = store.connect({ fetch: countingFetch(downloads) });
  const path = `${DATA}/t.csv`;
  assert.deepEqual((await tern.file(path).dataframe()).toRecords(), [{ a: 1, b: 2 }]);
  assert.deepEqual((await tern.file(path).dataframe()).toRecords(), [{ a: 1, b: 2 }]);
  assert.equal(downloads.length, 1, "the second read was a cache hit");

  // Touching the file on disk moves its date-modified: the next read downloads it again.
  const later = new Date(Date.now() + 60_000);
  await Deno.utime(`${store.root}${path}`, later, later);
  await tern.file(path).dataframe();
  assert.equal(downloads.length, 2, "a new date-modified means a fresh download");

  await store.write(path, "a,b\n3,4\n5,6\n");
  assert.deepEqual((await tern.file(path).dataframe()).getColumn("a").toArray(), [3, 5]);
  assert.equal(downloads.length, 3);
  assert.deepEqual((await tern.file(path).dataframe()).getColumn("a").toArray(), [3, 5]);
  assert.equal(downloads.length, 3);

  assert.deepEqual((await tern.file(path).dataframe({ cache: false })).shape, {
    height: 2,
    width: 2,
  });
  assert.equal(downloads.length, 4, "cache: false always downloads");
});

Deno.test("concurrent reads of one file share one download", async () => {
  await using store = await dataStore({ [`${DATA}/t.csv`]: generatedCsv(20_000) });
  const downloads: string[] = [];
  const tern = store.connect({ fetch: countingFetch(downloads) });
  // Handles of a listed entry: no download beside a stat, whose read-ahead a slow stat would give
  // up (a second download, by timing); the claim is what makes the four share one.
  const entry = (await tern.folder(DATA).list().toArray()).find((item) => item.name === "t.csv")!;
  const frames = await Promise.all([1, 2, 3, 4].map(() => tern.file(entry).dataframe()));
  assert.deepEqual(frames.map((frame) => frame.height), [20_000, 20_000, 20_000, 20_000]);
  assert.equal(downloads.length, 1);
});

Deno.test("lookups of a version while it is being published never remove the new copy (issue 29)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    // Each trial looks the version up again and again while its copy is renamed into place and
    // indexed: a lookup between the two once took the copy for one tern never wrote.
    // Over 1 KiB: copies of their own, renamed into place.
    const text = "a\n" + "1\n".repeat(600);
    for (let i = 0; i < 20; i++) {
      const v = version(`/a/${i}.csv`, text.length);
      const writer = await cache.open(v);
      assert.ok(writer instanceof CopyWriter);
      await writer.write(encoder.encode(text));
      let published = false;
      const committing = writer.commit().finally(() => published = true);
      // A miss is answered without leaving JavaScript: each lookup gives the commit's
      // file-system calls a turn.
      while (!published) await cache.lookup(v).then(() => new Promise((go) => setTimeout(go)));
      const copy = await committing;
      assert.equal(await Deno.readTextFile(copy!.file), text, `trial ${i}`);
      assert.equal((await cache.lookup(v))?.file, copy!.file);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("offline stores read cached copies without the server, and say when one is missing", async () => {
  const store = await dataStore({
    [`${DATA}/t.parquet`]: new Uint8Array(pl.DataFrame({ x: [1, 2, 3] }).writeParquet()),
    [`${DATA}/u.csv`]: "a\n1\n",
  });
  const cacheDir = await Deno.makeTempDir();
  try {
    await store.connect({ cacheDir }).file(`${DATA}/t.parquet`).dataframe();
    await store.close();
    // The server is gone; an offline store with the same cache still reads the file.
    const offline = store.connect({ cacheDir, offline: true });
    assert.deepEqual(
      (await offline.file(`${DATA}/t.parquet`).dataframe()).getColumn("x").toArray(),
      [1, 2, 3],
    );
    assert.ok((await offline.file(`${DATA}/t.parquet`).cachedPath()).endsWith(".parquet"));
    await assert.rejects(offline.file(`${DATA}/u.csv`).dataframe(), (error: unknown) => {
      assert.ok(error instanceof CacheMissError, String(error));
      assert.equal(error.path, `${DATA}/u.csv`);
      assert.match(error.message, /is not in the local cache .* offline/);
      return true;
    });
  } finally {
    await store.close().catch(() => {});
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("the size cap holds across reads through a store", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 4; i++) files[`${DATA}/f${i}.csv`] = `a\n${"xyz"[i % 3].repeat(1000)}\n`;
  await using store = await dataStore(files);
  const tern = store.connect({ cacheMaxBytes: 2500 });
  for (let i = 0; i < 4; i++) {
    await tern.file(`${DATA}/f${i}.csv`).dataframe();
    // Last uses are stamped in milliseconds; keep the reads apart so the order is unambiguous.
    await nextMillisecond();
  }
  const info = await tern.cache.info();
  const total = (info.getColumn("size").toArray() as number[]).reduce((a, b) => a + b, 0);
  assert.ok(total <= 2500, `cache holds ${total} bytes`);
  assert.deepEqual(info.getColumn("path").toArray().sort(), [`${DATA}/f2.csv`, `${DATA}/f3.csv`]);
});

Deno.test("two processes filling one cache with the same file leave one valid copy", async () => {
  await using store = await dataStore({ [`${DATA}/t.csv`]: generatedCsv(50_000) });
  const child = () =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        join(import.meta.dirname!, "_reader.ts"),
        store.url,
        store.cacheDir,
        `${DATA}/t.csv`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
  const results = await Promise.all([child(), child(), child()]);
  for (const result of results) {
    assert.ok(result.success, new TextDecoder().decode(result.stderr));
    assert.equal(new TextDecoder().decode(result.stdout).trim(), "50000");
  }
  const left = await names(join(store.cacheDir, "downloads"));
  assert.equal(left.filter((name) => name.startsWith(".tmp")).length, 0);
  const copies = left.filter((name) => name.endsWith(".csv"));
  assert.equal(copies.length, 1);
  const frame = await store.connect().file(`${DATA}/t.csv`).dataframe();
  assert.equal(frame.height, 50_000);
});

/** Overwrites bytes of a file in place, keeping its size and putting its times back. */
async function tamper(file: string, edit: (bytes: Uint8Array) => void): Promise<void> {
  const before = await Deno.stat(file);
  await Deno.chmod(file, 0o644); // copies are read-only
  const bytes = await Deno.readFile(file);
  edit(bytes);
  using handle = await Deno.open(file, { write: true });
  await handle.write(bytes);
  await Deno.utime(file, before.atime!, before.mtime!);
}

Deno.test("a changed, replaced or symlinked copy is never served; offline it is a typed error (issue 12)", async () => {
  // Over 1 KiB: copies of their own (a smaller one lives in the index; see below).
  const [mine, other] = ["1,2\n", "7,8\n"].map((row) => "a,b\n" + row.repeat(300));
  const rows = Array.from({ length: 300 }, () => ({ a: 1, b: 2 }));
  await using store = await dataStore({ [`${DATA}/t.csv`]: mine, [`${DATA}/other.csv`]: other });
  const downloads: string[] = [];
  const tern = store.connect({ fetch: countingFetch(downloads) });
  const path = `${DATA}/t.csv`;
  const read = async () => (await tern.file(path).dataframe()).toRecords();
  const copy = await tern.file(path).cachedPath();
  assert.equal(downloads.length, 1);
  assert.deepEqual(await read(), rows);
  assert.equal(downloads.length, 1, "an intact copy is a cache hit");

  // Same size, other bytes, modification time put back.
  await tamper(copy, (bytes) => bytes[4] = "9".charCodeAt(0));
  assert.deepEqual(await read(), rows);
  assert.equal(downloads.length, 2, "the changed copy was downloaded again");

  // Replaced by another file of the same size.
  const elsewhere = `${store.cacheDir}/elsewhere.csv`;
  await Deno.writeTextFile(elsewhere, other);
  await Deno.rename(elsewhere, copy);
  assert.deepEqual(await read(), rows);
  assert.equal(downloads.length, 3);

  // A symlink to a same-size file.
  await Deno.writeTextFile(elsewhere, other);
  await Deno.remove(copy);
  await Deno.symlink(elsewhere, copy);
  assert.deepEqual(await read(), rows);
  assert.equal(downloads.length, 4);
  assert.ok((await Deno.lstat(copy)).isFile, "the symlink was replaced by a real copy");
  assert.equal(await Deno.readTextFile(elsewhere), other, "its target was left alone");

  // Offline: a changed copy is a typed error, never the wrong frame.
  await tamper(copy, (bytes) => bytes[4] = "9".charCodeAt(0));
  const offline = store.connect({ offline: true });
  await assert.rejects(offline.file(path).dataframe(), (error: unknown) => {
    assert.ok(error instanceof CorruptCopyError, String(error));
    assert.ok(error instanceof CacheMissError);
    assert.equal(error.path, path);
    assert.match(error.message, /not the one tern wrote/);
    return true;
  });
});

/** Rewrites each index line of a cache folder with `edit` (as a bit flip or another tern would). */
async function editIndex(cacheDir: string, edit: (line: Record<string, unknown>) => void) {
  const path = join(cacheDir, "downloads", "index.jsonl");
  const lines = (await Deno.readTextFile(path)).split("\n").filter((line) => line !== "");
  const edited = lines.map((text) => {
    const line = JSON.parse(text);
    edit(line);
    return `${JSON.stringify(line)}\n`;
  });
  await Deno.writeTextFile(path, edited.join(""));
}

Deno.test("a copy of up to 1 KiB lives in its index line: no file until a path is asked for (issue 33)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const v = version("/a/small.csv", 4);
    const copy = await put(cache, v, "a\n1\n");
    assert.deepEqual(await names(cache.dir), ["index.jsonl"], "no file per small copy");
    // Another process (a cache object of its own) finds it in the index.
    const other = new DiskCache({ dir });
    assert.deepEqual((await other.lookup(v))?.bytes, encoder.encode("a\n1\n"));
    assert.deepEqual((await other.entries()).map((entry) => entry.version.path), ["/a/small.csv"]);
    assert.deepEqual(await other.usage(), { files: 1, bytes: 4, tempFiles: 0, tempBytes: 0 });
    // A path is written from the verified bytes, read-only, whole (no temporary file left).
    const file = await other.fileOf((await other.lookup(v))!);
    assert.equal(file, copy.file);
    assert.equal(await Deno.readTextFile(file), "a\n1\n");
    assert.equal((await Deno.lstat(file)).mode! & 0o222, 0, "written read-only");
    assert.deepEqual(await names(cache.dir), [file.slice(cache.dir.length + 1), "index.jsonl"]);
    // What happens to that file never changes what the index serves.
    await Deno.remove(file);
    assert.deepEqual((await new DiskCache({ dir }).lookup(v))?.bytes, encoder.encode("a\n1\n"));
    // A copy over 1 KiB has a file of its own, as before.
    const large = await put(cache, version("/a/large.csv", 1025), "x".repeat(1025));
    assert.equal((await Deno.stat(large.file)).size, 1025);
    // An entry comes without its bytes: they are taken from the index, while it holds them.
    const small = (await other.entries()).find((entry) => entry.inline)!;
    assert.equal(small.bytes, undefined);
    assert.equal(await Deno.readTextFile(await other.fileOf(small)), "a\n1\n");
    // A copy in hand whose folder another process cleared is a miss, not a raw NotFound.
    const held = (await other.lookup(v))!;
    await Deno.remove(cache.dir, { recursive: true });
    await assert.rejects(other.fileOf(held), CacheMissError);
    await other.clear();
    await assert.rejects(other.fileOf(small), CacheMissError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("once the index holds 32 MiB, small copies get files of their own: every process keeps the index in memory (issue 33)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    await put(cache, version("/a/first.csv", 4), "a\n1\n");
    // Lines another tern wrote, as far as this one can tell: over 64 KiB each, skipped unread.
    const junk = `${"x".repeat(2 * 1024 * 1024)}\n`;
    await Deno.writeTextFile(join(cache.dir, "index.jsonl"), junk.repeat(16), { append: true });
    const other = new DiskCache({ dir });
    assert.equal((await other.lookup(version("/a/first.csv", 4)))?.inline, true);
    const later = await put(other, version("/a/later.csv", 4), "a\n2\n");
    assert.equal(later.inline, undefined);
    assert.equal(await Deno.readTextFile(later.file), "a\n2\n");
    assert.equal((await Deno.lstat(later.file)).mode! & 0o222, 0, "written read-only");
    assert.deepEqual(
      (await new DiskCache({ dir }).lookup(version("/a/later.csv", 4)))?.bytes,
      encoder.encode("a\n2\n"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a corrupt or cut index line is never served: the copy is downloaded again; offline it is a typed error (issue 33)", async () => {
  await using store = await dataStore({
    [`${DATA}/t.csv`]: "a,b\n1,2\n",
    [`${DATA}/u.csv`]: "a,b\n3,4\n",
  });
  const downloads: string[] = [];
  const tern = store.connect({ fetch: countingFetch(downloads) });
  const read = async (path: string) => (await tern.file(path).dataframe()).toRecords();
  assert.deepEqual(await read(`${DATA}/t.csv`), [{ a: 1, b: 2 }]);
  assert.deepEqual(await read(`${DATA}/u.csv`), [{ a: 3, b: 4 }]);
  assert.equal(downloads.length, 2);
  // Same length, other bytes in t.csv's line: its hash no longer matches.
  const tampered = Buffer.from("a,b\n9,2\n").toString("base64");
  await editIndex(store.cacheDir, (line) => {
    if (line.path === `${DATA}/t.csv`) line.data = tampered;
  });
  const fresh = new DiskCache({ dir: store.cacheDir });
  const { bad } = await fresh.verify();
  assert.deepEqual(bad.map((found) => [found.path, found.reason]), [
    [`${DATA}/t.csv`, "its bytes in the index are not the ones tern wrote"],
  ]);
  // verify() removed what it found bad: offline, a miss.
  const offline = store.connect({ offline: true });
  await assert.rejects(
    offline.file(`${DATA}/t.csv`).dataframe(),
    (error: unknown) => error instanceof CacheMissError && !(error instanceof CorruptCopyError),
  );
  assert.deepEqual(await offline.file(`${DATA}/u.csv`).dataframe().then((f) => f.toRecords()), [
    { a: 3, b: 4 },
  ]);
  const again = store.connect({ fetch: countingFetch(downloads) });
  assert.deepEqual((await again.file(`${DATA}/t.csv`).dataframe()).toRecords(), [{ a: 1, b: 2 }]);
  assert.equal(downloads.length, 3, "downloaded again, never served");
  // A process that died mid-append leaves a cut line: skipped, and the lines before it served.
  const index = join(store.cacheDir, "downloads", "index.jsonl");
  const text = await Deno.readTextFile(index);
  const last = text.slice(text.lastIndexOf("\n", text.length - 2) + 1);
  await Deno.writeTextFile(index, text.slice(0, text.length - last.length) + last.slice(0, 60));
  const afterCrash = new DiskCache({ dir: store.cacheDir });
  const served = await Promise.all(
    (await afterCrash.entries()).map(async (entry) =>
      (await afterCrash.lookup(entry.version))?.bytes
    ),
  );
  assert.ok(served.length >= 1 && served.every((bytes) => bytes !== undefined));
  assert.deepEqual((await store.connect().file(`${DATA}/t.csv`).dataframe()).toRecords(), [
    { a: 1, b: 2 },
  ]);
});

Deno.test("a copy kept in the index that fails its check is forgotten: offline a plain miss after the first error, online downloaded again", async () => {
  await using store = await dataStore({ [`${DATA}/t.csv`]: "a,b\n1,2\n" });
  const path = `${DATA}/t.csv`;
  const downloads: string[] = [];
  const read = async (options: { offline?: boolean } = {}) =>
    (await store.connect({ fetch: countingFetch(downloads), ...options }).file(path).dataframe())
      .toRecords();
  // Same length, other bytes in the line: its hash no longer matches.
  const tamper = () =>
    editIndex(store.cacheDir, (line) => line.data = Buffer.from("a,b\n9,2\n").toString("base64"));
  assert.deepEqual(await read(), [{ a: 1, b: 2 }]);
  await tamper();
  // Offline: told once that the copy was bad; then, in any process, a miss like any other.
  await assert.rejects(read({ offline: true }), CorruptCopyError);
  assert.deepEqual(await indexLines(store.cacheDir), [], "its line left the index");
  await assert.rejects(
    read({ offline: true }),
    (error: unknown) => error instanceof CacheMissError && !(error instanceof CorruptCopyError),
  );
  assert.deepEqual(await read(), [{ a: 1, b: 2 }]);
  assert.equal(downloads.length, 2, "downloaded again");
  // Online first: downloaded again, and the index holds only the new copy, served offline.
  await tamper();
  assert.deepEqual(await read(), [{ a: 1, b: 2 }]);
  assert.equal(downloads.length, 3);
  assert.deepEqual((await indexLines(store.cacheDir)).map((line) => line.path), [path]);
  assert.deepEqual(await read({ offline: true }), [{ a: 1, b: 2 }]);
});

Deno.test("copies kept in the index count against the cap and go least recently used first, with any file written for them (issue 33)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir, maxBytes: 35 });
    const [one, two, three] = ["/a/1.bin", "/a/2.bin", "/a/3.bin"].map((p) => version(p, 10));
    // Uses in different milliseconds, so that their order is plain.
    const later = nextMillisecond;
    const first = await put(cache, one, "0123456789");
    await cache.fileOf(first); // a path asked for: a file beside the line
    await later();
    await put(cache, two, "0123456789");
    await later();
    assert.ok(await cache.lookup(one), "1 used after 2");
    await later();
    await put(cache, three, "0123456789");
    const left = (await cache.entries()).map((entry) => entry.version.path).sort();
    assert.deepEqual(left, ["/a/1.bin", "/a/3.bin"], "2 was the least recently used");
    // 1 takes its bytes twice (line and file): one more copy and it goes, file and all.
    await later();
    await cache.lookup(three);
    await put(cache, version("/a/4.bin", 10), "0123456789");
    assert.deepEqual((await cache.entries()).map((entry) => entry.version.path).sort(), [
      "/a/3.bin",
      "/a/4.bin",
    ]);
    assert.deepEqual(await names(cache.dir), ["index.jsonl"], "the file of 1 went with it");
    const lines = (await Deno.readTextFile(join(cache.dir, "index.jsonl"))).trim().split("\n");
    assert.deepEqual(lines.map((line) => JSON.parse(line).path).sort(), ["/a/3.bin", "/a/4.bin"]);
    assert.equal(await new DiskCache({ dir }).lookup(one), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("temporary files of killed downloads are counted and removed at the next start (issue 12)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const live = (await cache.open(version("/a/live.csv", 5 * 1024 * 1024))) as CopyWriter;
    const piece = 4 * 1024 * 1024;
    await live.write(new Uint8Array(piece));
    // A download killed mid-way: its process is gone, its temporary file stays.
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "console.log(Deno.pid)"],
      stdout: "piped",
    });
    const deadPid = Number(new TextDecoder().decode((await child.output()).stdout).trim());
    const leftover = join(
      cache.dir,
      `.tmp-${deadPid}-abcd1234-${"0".repeat(32)}-${"1".repeat(16)}.csv`,
    );
    await Deno.writeFile(leftover, new Uint8Array(5000));
    // The next start removes the dead writer's file, keeps the live one, and counts it.
    const usage = await new DiskCache({ dir }).usage();
    assert.deepEqual(usage, { files: 0, bytes: 0, tempFiles: 1, tempBytes: piece });
    const temps = await names(cache.dir);
    assert.equal(temps.length, 1);
    assert.match(temps[0], new RegExp(`^\\.tmp-${Deno.pid}-`), "the live writer's file stays");
    await live.abort();
    assert.deepEqual(await names(cache.dir), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a small copy is written whole at the end of its download: no temporary file before (issue 33)", async () => {
  // Under 1 MiB, slowed to about two seconds: several progress events come while it downloads.
  const text = generatedCsv(6000);
  await using store = await dataStore({ [`${DATA}/small.csv`]: text }, { bandwidth: 120_000 });
  const tern = store.connect();
  const entry = (await tern.folder(DATA).list().toArray()).find((item) =>
    item.name === "small.csv"
  )!;
  const downloads = join(store.cacheDir, "downloads");
  const during: string[] = [];
  let midway = 0;
  const frame = await tern.file(entry).dataframe({
    progress: false,
    onProgress: (event) => {
      if (event.kind !== "bytes" || event.bytes < entry.size / 2 || event.bytes >= entry.size) {
        return;
      }
      midway++;
      for (const item of Deno.readDirSync(downloads)) during.push(item.name);
    },
  });
  assert.equal(frame.height, 6000);
  assert.ok(midway > 0, "no progress event came while the second half downloaded");
  assert.deepEqual(during.filter((name) => name.startsWith(".tmp-")), []);
  const [copy] = (await new DiskCache({ dir: store.cacheDir }).entries()).map((c) => c.file);
  assert.equal(await Deno.readTextFile(copy), text);
  assert.equal((await Deno.lstat(copy)).mode! & 0o222, 0, "published read-only");
  assert.deepEqual((await names(downloads)).filter((name) => name.startsWith(".tmp-")), []);
});

/** The index lines of a cache folder, parsed. */
async function indexLines(cacheDir: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(join(cacheDir, "downloads", "index.jsonl"));
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

Deno.test("offline: an index line naming another file's copy is refused, also by cachedPath (issue 20)", async () => {
  await using store = await dataStore({
    [`${DATA}/t.csv`]: generatedCsv(7899),
    [`${DATA}/evil.csv`]: "id\nEVIL\n",
  });
  const tern = store.connect();
  const real = await tern.file(`${DATA}/t.csv`).cachedPath();
  const evil = await tern.file(`${DATA}/evil.csv`).cachedPath();
  const lines = await indexLines(store.cacheDir);
  const mine = lines.findLast((line) => line.path === `${DATA}/t.csv`)!;
  const theirs = lines.findLast((line) => line.path === `${DATA}/evil.csv`)!;
  // One hand-written line: the real file's version, the other copy's name and hash, newest.
  const hostile = { ...theirs, ...mine, blob: theirs.blob, cachedAt: Date.now() + 60_000 };
  for (const field of ["hash", "xxh64", "identity"]) {
    if (field in theirs) (hostile as Record<string, unknown>)[field] = theirs[field];
  }
  await Deno.writeTextFile(
    join(store.cacheDir, "downloads", "index.jsonl"),
    `${JSON.stringify(hostile)}\n`,
    { append: true },
  );
  const offline = store.connect({ offline: true });
  assert.equal((await offline.file(`${DATA}/t.csv`).dataframe()).height, 7899);
  assert.equal(await offline.file(`${DATA}/t.csv`).cachedPath(), real);
  assert.notEqual(real, evil);
});

Deno.test("a same-size edit of a large copy right after it was written is never served (issue 20)", async () => {
  const csv = generatedCsv(400_000);
  assert.ok(csv.length >= 16 * 1024 * 1024);
  await using store = await dataStore({ [`${DATA}/big.csv`]: csv });
  const downloads: string[] = [];
  const tern = store.connect({ fetch: countingFetch(downloads) });
  // A listed entry: no download beside a stat (see "share one download" above).
  const entry = (await tern.folder(DATA).list().toArray()).find((item) => item.name === "big.csv")!;
  const file = tern.file(entry);
  const first = await file.dataframe();
  // At once: same size, a digit changed, modification time put back.
  await tamper(await file.cachedPath(), (bytes) => bytes[bytes.length - 20] ^= 1);
  const second = await file.dataframe();
  assert.ok(second.frameEqual(first), "the edited copy was served");
  assert.equal(downloads.length, 2, "the edited copy was replaced by a download");
});

/** A store whose cache folder has `prepare` done to its `downloads/` before any read. */
async function hostileCache(prepare: (downloads: string, outside: string) => Promise<void>) {
  const store = await dataStore({
    [`${DATA}/t.csv`]: "a,b\n1,2\n",
    [`${DATA}/u.csv`]: `a,b\n${"3,4\n".repeat(100)}`,
  });
  const outside = await Deno.makeTempDir({ prefix: "tern-outside-" });
  await prepare(join(store.cacheDir, "downloads"), outside);
  const warnings: string[] = [];
  const close = async () => {
    await store.close();
    await Deno.remove(outside, { recursive: true });
  };
  return { store, outside, warnings, close };
}

Deno.test("a symlinked index.jsonl is never appended to; it is replaced (issue 20)", async () => {
  const { store, outside, close } = await hostileCache(async (downloads, outside) => {
    await Deno.mkdir(downloads, { recursive: true });
    await Deno.writeTextFile(join(outside, "target.txt"), "keep\n");
    await Deno.symlink(join(outside, "target.txt"), join(downloads, "index.jsonl"));
  });
  try {
    const tern = store.connect();
    assert.deepEqual((await tern.file(`${DATA}/t.csv`).dataframe()).toRecords(), [{ a: 1, b: 2 }]);
    assert.deepEqual((await tern.file(`${DATA}/t.csv`).dataframe()).toRecords(), [{ a: 1, b: 2 }]);
    assert.equal(await Deno.readTextFile(join(outside, "target.txt")), "keep\n");
    assert.ok((await Deno.lstat(join(store.cacheDir, "downloads", "index.jsonl"))).isFile);
  } finally {
    await close();
  }
});

Deno.test("an index hard-linked to a file elsewhere is never appended to; the link goes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const warnings: string[] = [];
    const cache = new DiskCache({ dir, warn: (message) => warnings.push(message) });
    await Deno.mkdir(cache.dir, { recursive: true });
    // Beside the cache folder: a hard link needs the same file system.
    const elsewhere = join(dir, "notes.txt");
    await Deno.writeTextFile(elsewhere, "keep\n");
    await Deno.link(elsewhere, join(cache.dir, "index.jsonl"));
    const v = version("/a/small.csv", 4);
    await put(cache, v, "a\n1\n");
    assert.equal(await Deno.readTextFile(elsewhere), "keep\n");
    assert.equal((await Deno.lstat(join(cache.dir, "index.jsonl"))).nlink, 1);
    assert.deepEqual((await new DiskCache({ dir }).lookup(v))?.bytes, encoder.encode("a\n1\n"));
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /a hard link stood where .*index\.jsonl was expected/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an append checks the file it opened, not the name: a FIFO swapped out or a symlink swapped in after the open gets no line", async () => {
  // The swap is made at the file layer, right after the cache's open of its index: the one
  // moment between the open and the check that another process could use.
  const { O_RDONLY, O_APPEND, O_NONBLOCK } = fs.constants;
  const realOpenSync = fs.openSync;
  for (const swap of ["fifo", "symlink"] as const) {
    const dir = await Deno.makeTempDir();
    let reader: number | undefined;
    try {
      const warnings: string[] = [];
      const cache = new DiskCache({ dir, warn: (message) => warnings.push(message) });
      await put(cache, version("/a/first.csv", 4), "a\n1\n");
      const index = join(cache.dir, "index.jsonl");
      const elsewhere = join(dir, "notes.txt");
      await Deno.writeTextFile(elsewhere, "keep\n");
      let armed = true;
      fs.openSync = ((path: string, flags: number, mode?: number) => {
        if (!armed || path !== index || !(flags & O_APPEND)) return realOpenSync(path, flags, mode);
        armed = false;
        if (swap === "fifo") {
          // A FIFO with a reader at the name when it is opened, a regular file by the check.
          Deno.removeSync(index);
          assert.ok(new Deno.Command("mkfifo", { args: [index] }).outputSync().success);
          reader = realOpenSync(index, O_RDONLY | O_NONBLOCK);
          const fd = realOpenSync(path, flags, mode);
          Deno.writeTextFileSync(`${index}.new`, "");
          Deno.renameSync(`${index}.new`, index);
          return fd;
        }
        // The index opened, then moved away and a symlink to a file elsewhere put at its name.
        const fd = realOpenSync(path, flags, mode);
        Deno.renameSync(index, join(dir, "moved.jsonl"));
        Deno.symlinkSync(elsewhere, index);
        return fd;
      }) as typeof fs.openSync;
      const v = version("/a/second.csv", 4);
      await put(cache, v, "a\n2\n");
      fs.openSync = realOpenSync;
      assert.ok(!armed, "the swap was made");
      assert.equal(await Deno.readTextFile(elsewhere), "keep\n", swap);
      if (reader !== undefined) {
        assert.equal(fs.readSync(reader, new Uint8Array(4096)), 0, "nothing went into the FIFO");
      } else {
        assert.equal((await Deno.readTextFile(join(dir, "moved.jsonl"))).split("\n").length, 2);
      }
      // The line went to a regular index of its own at the name, where any process finds it.
      assert.ok((await Deno.lstat(index)).isFile, swap);
      assert.deepEqual((await new DiskCache({ dir }).lookup(v))?.bytes, encoder.encode("a\n2\n"));
      assert.deepEqual(
        warnings,
        swap === "fifo" ? [] : [
          `tern: a symlink stood where ${index} was expected in the local cache ${dir}; ` +
          "it was moved aside, not followed.",
        ],
      );
    } finally {
      fs.openSync = realOpenSync;
      if (reader !== undefined) fs.closeSync(reader);
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("a symlinked downloads/ is not followed: eviction deletes nothing outside (issue 20)", async () => {
  const copyLike = `${"a".repeat(32)}-${"b".repeat(16)}.csv`;
  const { store, outside, close } = await hostileCache(async (downloads, outside) => {
    await Deno.mkdir(join(downloads, ".."), { recursive: true });
    await Deno.writeTextFile(join(outside, copyLike), "x".repeat(5000));
    await Deno.writeTextFile(join(outside, "index.jsonl"), "");
    await Deno.symlink(outside, downloads);
  });
  try {
    const tern = store.connect({ cacheMaxBytes: 500 });
    for (const name of ["t.csv", "u.csv", "t.csv"]) await tern.file(`${DATA}/${name}`).dataframe();
    assert.equal(await Deno.readTextFile(join(outside, copyLike)), "x".repeat(5000));
    assert.equal(await Deno.readTextFile(join(outside, "index.jsonl")), "");
    assert.ok((await Deno.lstat(join(store.cacheDir, "downloads"))).isDirectory);
  } finally {
    await close();
  }
});

Deno.test("an index that is a FIFO or a folder never stops a read (issue 20)", async () => {
  for (const kind of ["fifo", "folder"]) {
    const { store, close } = await hostileCache(async (downloads) => {
      await Deno.mkdir(downloads, { recursive: true });
      const index = join(downloads, "index.jsonl");
      if (kind === "folder") {
        await Deno.mkdir(index);
        await Deno.writeTextFile(join(index, "inside.txt"), "kept");
      } else {
        const made = await new Deno.Command("mkfifo", { args: [index] }).output();
        assert.ok(made.success, "mkfifo");
      }
    });
    try {
      const tern = store.connect();
      for (let i = 0; i < 2; i++) {
        const frame = await tern.file(`${DATA}/u.csv`).dataframe();
        assert.equal(frame.height, 100, kind);
      }
      assert.ok((await Deno.lstat(join(store.cacheDir, "downloads", "index.jsonl"))).isFile, kind);
    } finally {
      await close();
    }
  }
});

Deno.test("an overlong index line is skipped, not held, and dropped at the next rewrite (issue 20)", async () => {
  const { store, close } = await hostileCache(async (downloads) => {
    await Deno.mkdir(downloads, { recursive: true });
    using index = await Deno.open(join(downloads, "index.jsonl"), { write: true, create: true });
    const piece = new TextEncoder().encode("x".repeat(1024 * 1024));
    for (let i = 0; i < 32; i++) await index.write(piece); // one 32 MiB line
    await index.write(new TextEncoder().encode("\n"));
  });
  try {
    const downloads: string[] = [];
    const tern = store.connect({ fetch: countingFetch(downloads) });
    for (let i = 0; i < 2; i++) {
      assert.deepEqual((await tern.file(`${DATA}/t.csv`).dataframe()).toRecords(), [{
        a: 1,
        b: 2,
      }]);
    }
    assert.equal(downloads.length, 1, "the second read was a cache hit");
    const size = (await Deno.stat(join(store.cacheDir, "downloads", "index.jsonl"))).size;
    assert.ok(size < 64 * 1024, `the index was rewritten without the line (${size} bytes)`);
  } finally {
    await close();
  }
});

/** Whether this process may mount a small tmpfs (root, and mount allowed). */
async function canMount(): Promise<boolean> {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return false;
  const dir = await Deno.makeTempDir();
  try {
    const mounted = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir],
      stderr: "null",
    }).output();
    if (mounted.success) await new Deno.Command("umount", { args: [dir] }).output();
    return mounted.success;
  } catch {
    return false;
  } finally {
    await Deno.remove(dir);
  }
}

Deno.test({
  name:
    "a full disk (a 1 MiB tmpfs) costs one warning; dataframe() reads on without the cache (issue 20)",
  ignore: !await canMount(), // needs root and mount(8): elsewhere there is no disk to fill
  async fn() {
    await using store = await dataStore({ [`${DATA}/big.csv`]: generatedCsv(40_000) });
    const cacheDir = await Deno.makeTempDir();
    const mounted = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=1m", "tmpfs", cacheDir],
    }).output();
    assert.ok(mounted.success);
    try {
      const warnings: string[] = [];
      const originalWarn = console.warn;
      console.warn = (message: string) => warnings.push(message);
      try {
        const tern = store.connect({ cacheDir });
        for (let i = 0; i < 2; i++) {
          assert.equal((await tern.file(`${DATA}/big.csv`).dataframe()).height, 40_000);
        }
      } finally {
        console.warn = originalWarn;
      }
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /cannot write the local cache .*No space left on device/);
    } finally {
      await new Deno.Command("umount", { args: [cacheDir] }).output();
      await Deno.remove(cacheDir, { recursive: true });
    }
  },
});

Deno.test("an injected write error (ENOSPC at the file layer) mid-copy: one warning, one download, a true frame (issue 20)", async () => {
  // Where no small disk can be mounted, the disk fills at the file layer: the cache's temporary
  // file refuses writes past 256 KiB with the error a full disk gives. Everything else is real.
  const text = generatedCsv(40_000); // about 1.8 MB
  await using store = await dataStore({ [`${DATA}/big.csv`]: text });
  using _disk = fullDiskAfter(256 * 1024);
  const warnings: string[] = [];
  const originalWarn = console.warn;
  console.warn = (message: string) => warnings.push(message);
  const downloads: string[] = [];
  try {
    const tern = store.connect({ fetch: countingFetch(downloads) });
    // A listed entry: no download beside a stat (see "share one download" above).
    const entry = (await tern.folder(DATA).list().toArray()).find((item) =>
      item.name === "big.csv"
    )!;
    const frame = await tern.file(entry).dataframe();
    assert.equal(frame.height, 40_000);
    assert.deepEqual(frame.getColumn("id").toArray().slice(-2), [39_998, 39_999]);
    assert.deepEqual(downloads, [`${DATA}/big.csv`], "the bytes already received were kept");
    assert.equal((await tern.cache.info()).height, 0);
  } finally {
    console.warn = originalWarn;
  }
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0], /cannot write the local cache .*No space left on device/);
  const left = await names(join(store.cacheDir, "downloads"));
  assert.deepEqual(left.filter((name) => name.startsWith(".tmp-")), [], "no temporary file left");
});

Deno.test("clear() from another process during a download gives a true frame or a typed error (issue 20)", async () => {
  await using store = await dataStore(
    { [`${DATA}/t.csv`]: generatedCsv(60_000) },
    { bandwidth: 4_000_000 },
  );
  let cleared: Promise<Deno.CommandOutput> | undefined;
  const clearer = `import { DiskCache } from "${new URL(
    "../../lib/cache/cache.ts",
    import.meta.url,
  )}"; await new DiskCache({ dir: Deno.args[0] }).clear();`;
  const onProgress = () => {
    cleared ??= new Deno.Command(Deno.execPath(), {
      args: ["eval", clearer, store.cacheDir],
    }).output();
  };
  try {
    const frame = await store.connect().file(`${DATA}/t.csv`).dataframe({ onProgress });
    assert.equal(frame.height, 60_000);
  } catch (error) {
    assert.ok(error instanceof TernError, `a raw error: ${error}`);
  }
  assert.ok((await cleared)?.success, "the other process cleared the cache");
});
