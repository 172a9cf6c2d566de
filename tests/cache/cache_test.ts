/**
 * The local cache, on its own and under real reads over loopback: hits and misses, a changed
 * file downloaded again, offline reads, the size cap, shared downloads, and two processes
 * filling one cache at once.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import pl from "../../polars.ts";
import {
  CacheMissError,
  copyExtension,
  CorruptCopyError,
  DiskCache,
  type FileVersion,
} from "../../lib/cache/mod.ts";
import { DATA, dataStore, generatedCsv } from "../data/_store.ts";

const encoder = new TextEncoder();

function version(path: string, size: number, modified = 1): FileVersion {
  return { store: "http://127.0.0.1:1/terrain", path, id: `id-${path}`, size, modified };
}

/** A temporary file of the cache's for `v`, holding `bytes` (as a native download leaves it). */
async function tempWith(cache: DiskCache, v: FileVersion, bytes: Uint8Array): Promise<string> {
  const opened = (await cache.openTemp(v))!;
  for (let offset = 0; offset < bytes.byteLength;) {
    offset += await opened.file.write(bytes.subarray(offset));
  }
  opened.file.close();
  return opened.temp;
}

/** A fetch that records the data-store paths it downloads. */
function countingFetch(downloads: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.pathname.endsWith("/fileio/download")) downloads.push(url.searchParams.get("path")!);
    return fetch(input, init);
  };
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
    const v1 = version("/a/t.csv", 4);
    assert.equal(await cache.lookup(v1), undefined);
    const writer = (await cache.create(v1))!;
    writer.write(encoder.encode("a\n"));
    assert.equal(await cache.lookup(v1), undefined, "nothing is visible while writing");
    writer.write(encoder.encode("1\n"));
    const cached = (await writer.commit({ format: "csv" }))!;
    assert.ok(cached.file.endsWith(".csv"));
    assert.equal(await Deno.readTextFile(cached.file), "a\n1\n");
    assert.equal((await cache.lookup(v1))?.file, cached.file);
    assert.equal(await cache.lookup({ ...v1, modified: 2 }), undefined, "another date is a miss");
    assert.equal(await cache.lookup({ ...v1, id: "other" }), undefined, "another id is a miss");

    const short = (await cache.create(version("/a/short.csv", 10)))!;
    short.write(encoder.encode("abc"));
    assert.equal(await short.commit(), undefined, "a copy of the wrong size is not published");
    assert.deepEqual(warnings.length, 1);
    assert.match(warnings[0], /cannot write the local cache .*the copy has 3 bytes, expected 10/);
    const aborted = (await cache.create(version("/a/gone.csv", 3)))!;
    aborted.write(encoder.encode("abc"));
    await aborted.abort();
    assert.deepEqual(
      (await names(cache.dir)).filter((name) => name !== "index.jsonl"),
      [cached.file.slice(cache.dir.length + 1)],
      "no temporary or partial file is left",
    );

    // A copy truncated behind the cache's back is not served.
    await Deno.writeTextFile(cached.file, "a\n");
    assert.equal(await cache.lookup(v1), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a copy of many pieces holds every byte in order, whether or not the caller waits", async () => {
  // The writer reuses the memory of pieces already on disk: a piece reused too early would
  // show up here as wrong bytes.
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const size = 13 * 1024 * 1024 + 12_345;
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 2654435761) >>> 24;
    for (const waits of [true, false]) {
      const v = version(`/a/pieces-${waits}.csv`, size);
      const writer = (await cache.create(v))!;
      // Chunks of odd sizes, as a download delivers them, crossing every piece boundary.
      for (
        let offset = 0, step = 1;
        offset < size;
        offset += step, step = (step * 7 + 3) % 200_003
      ) {
        const wait = writer.write(bytes.subarray(offset, Math.min(size, offset + step)));
        if (waits && wait !== undefined) await wait;
      }
      const cached = (await writer.commit())!;
      const copy = await Deno.readFile(cached.file);
      assert.equal(copy.length, size);
      const wrong = copy.findIndex((byte, i) => byte !== bytes[i]);
      assert.equal(wrong, -1, `waits: ${waits}: first wrong byte at ${wrong}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copy names carry the extension Polars needs to read them by path", () => {
  assert.equal(copyExtension("/x/a.TSV"), ".csv");
  assert.equal(copyExtension("/x/a.pq"), ".parquet");
  assert.equal(copyExtension("/x/a.feather"), ".ipc");
  assert.equal(copyExtension("/x/a.jsonl"), ".ndjson");
  assert.equal(copyExtension("/x/a.csv.gz"), ".gz");
  assert.equal(copyExtension("/x/plot.png"), ".png");
  assert.equal(copyExtension("/x/weird.ext!"), ".bin");
});

Deno.test("the least recently used copies go when the cap is exceeded", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir, maxBytes: 25 });
    const put = async (path: string) => {
      const writer = (await cache.create(version(path, 10)))!;
      writer.write(new Uint8Array(10));
      return (await writer.commit())!;
    };
    await put("/a/1.bin");
    await put("/a/2.bin");
    // Use 1 again, so 2 is now the least recently used.
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(await cache.lookup(version("/a/1.bin", 10)));
    await put("/a/3.bin");
    const left = (await cache.entries()).map((entry) => entry.version.path).sort();
    assert.deepEqual(left, ["/a/1.bin", "/a/3.bin"]);
    assert.equal(await cache.create(version("/a/huge.bin", 26)), undefined, "larger than the cap");
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
  const frames = await Promise.all([1, 2, 3, 4].map(() => tern.file(`${DATA}/t.csv`).dataframe()));
  assert.deepEqual(frames.map((frame) => frame.height), [20_000, 20_000, 20_000, 20_000]);
  assert.equal(downloads.length, 1);
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
    // Last use is a file time; keep the reads apart so the order is unambiguous.
    await new Promise((resolve) => setTimeout(resolve, 5));
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
  const bytes = await Deno.readFile(file);
  edit(bytes);
  using handle = await Deno.open(file, { write: true });
  await handle.write(bytes);
  await Deno.utime(file, before.atime!, before.mtime!);
}

Deno.test("a changed, replaced or symlinked copy is never served; offline it is a typed error (issue 12)", async () => {
  await using store = await dataStore({
    [`${DATA}/t.csv`]: "a,b\n1,2\n",
    [`${DATA}/other.csv`]: "a,b\n7,8\n",
  });
  const downloads: string[] = [];
  const tern = store.connect({ fetch: countingFetch(downloads) });
  const path = `${DATA}/t.csv`;
  const read = async () => (await tern.file(path).dataframe()).toRecords();
  const copy = await tern.file(path).cachedPath();
  assert.equal(downloads.length, 1);
  assert.deepEqual(await read(), [{ a: 1, b: 2 }]);
  assert.equal(downloads.length, 1, "an intact copy is a cache hit");

  // Same size, other bytes, modification time put back.
  await tamper(copy, (bytes) => bytes[4] = "9".charCodeAt(0));
  assert.deepEqual(await read(), [{ a: 1, b: 2 }]);
  assert.equal(downloads.length, 2, "the changed copy was downloaded again");

  // Replaced by another file of the same size.
  const elsewhere = `${store.cacheDir}/elsewhere.csv`;
  await Deno.writeTextFile(elsewhere, "a,b\n7,8\n");
  await Deno.rename(elsewhere, copy);
  assert.deepEqual(await read(), [{ a: 1, b: 2 }]);
  assert.equal(downloads.length, 3);

  // A symlink to a same-size file.
  await Deno.writeTextFile(elsewhere, "a,b\n7,8\n");
  await Deno.remove(copy);
  await Deno.symlink(elsewhere, copy);
  assert.deepEqual(await read(), [{ a: 1, b: 2 }]);
  assert.equal(downloads.length, 4);
  assert.ok((await Deno.lstat(copy)).isFile, "the symlink was replaced by a real copy");
  assert.equal(await Deno.readTextFile(elsewhere), "a,b\n7,8\n", "its target was left alone");

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

Deno.test("a copy's identity is checked with one lstat; verify() hashes every copy and drops bad ones (issue 12)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const put = async (path: string, text: string) => {
      const writer = (await cache.create(version(path, text.length)))!;
      writer.write(encoder.encode(text));
      return (await writer.commit())!;
    };
    const a = await put("/a/1.csv", "x\n1\n");
    const b = await put("/a/2.csv", "x\n2\n");
    assert.deepEqual((await cache.verify()).bad, []);
    // A flipped bit on disk: same size, same times; only a hash sees it.
    await tamper(b.file, (bytes) => bytes[2] ^= 1);
    const result = await cache.verify();
    assert.equal(result.checked, 2);
    assert.deepEqual(result.bad.map((bad) => [bad.path, bad.reason]), [
      ["/a/2.csv", "its bytes are not the ones tern wrote"],
    ]);
    assert.equal(await cache.lookup(version("/a/2.csv", 4)), undefined, "dropped");
    assert.ok(await cache.lookup(version("/a/1.csv", 4)));
    // A copy with no record (put there by hand) is not tern's.
    const stranger = new DiskCache({ dir });
    await Deno.writeTextFile(stranger.copyPath(version("/a/3.csv", 4)), "x\n3\n");
    assert.equal((await stranger.check(version("/a/3.csv", 4))).state, "changed");
    assert.equal(a.version.path, "/a/1.csv");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copies record an XXH64; index lines of an earlier tern (SHA-256) are still checked", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const writer = (await cache.create(version("/a/1.csv", 4)))!;
    writer.write(encoder.encode("x\n1\n"));
    const copy = (await writer.commit())!;
    const index = join(cache.dir, "index.jsonl");
    const lines = (await Deno.readTextFile(index)).trim().split("\n").map((raw) => JSON.parse(raw));
    assert.equal(lines.length, 1);
    assert.match(lines[0].xxh64, /^[0-9a-f]{16}$/);
    assert.equal(lines[0].sha256, undefined);
    // The same line as an earlier tern wrote it: a SHA-256 and no XXH64.
    const legacy = async (sha256: string) => {
      const { xxh64: _, ...rest } = lines[0];
      await Deno.writeTextFile(index, `${JSON.stringify({ ...rest, sha256 })}\n`);
      return new DiskCache({ dir });
    };
    const right = createHash("sha256").update("x\n1\n").digest("hex");
    assert.equal((await (await legacy(right)).check(copy.version)).state, "valid");
    assert.deepEqual((await (await legacy(right)).verify()).bad, []);
    const wrong = createHash("sha256").update("x\n2\n").digest("hex");
    assert.deepEqual(await (await legacy(wrong)).check(copy.version), {
      state: "changed",
      file: copy.file,
      reason: "its bytes are not the ones tern wrote",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a large adopted copy is hashed after the read returns; until then its identity vouches", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const size = 16 * 1024 * 1024;
    const bytes = new Uint8Array(size).map((_, i) => i % 251);
    const adopt = async (path: string) => {
      const v = version(path, size);
      return (await cache.adopt(v, await tempWith(cache, v, bytes)))!;
    };
    const index = join(cache.dir, "index.jsonl");
    const lineOf = async (blob: string) =>
      (await Deno.readTextFile(index)).trim().split("\n").map((raw) => JSON.parse(raw))
        .filter((line) => line.blob === blob).at(-1);
    const name = (copy: { file: string }) => copy.file.slice(cache.dir.length + 1);

    // Adopted: recorded with its identity, the hash follows.
    const first = await adopt("/big/1.csv");
    assert.equal((await lineOf(name(first))).xxh64, undefined);
    assert.equal((await cache.check(first.version)).state, "valid"); // waits for the hash
    assert.match((await lineOf(name(first))).xxh64, /^[0-9a-f]{16}$/);
    await cache.settled();

    // Changed before the hash was taken: the hash is not taken of the wrong bytes.
    const changed = bytes.slice();
    changed[7] ^= 1;
    const second = await adopt("/big/2.csv");
    Deno.writeFileSync(second.file, changed); // before the event loop turns, so before the hash
    await cache.settled();
    assert.equal((await lineOf(name(second))).xxh64, undefined);
    assert.deepEqual(await cache.check(second.version), {
      state: "changed",
      file: second.file,
      reason: "it changed before tern recorded its hash",
    });

    // A process that ended before hashing: the next one takes the hash while the identity holds.
    const third = await adopt("/big/3.csv");
    await cache.settled();
    const { xxh64: _, ...unhashed } = await lineOf(name(third));
    await Deno.writeTextFile(index, `${JSON.stringify(unhashed)}\n`, { append: true });
    const later = new DiskCache({ dir });
    assert.equal((await later.check(third.version)).state, "valid");
    assert.match((await lineOf(name(third))).xxh64, /^[0-9a-f]{16}$/);
    assert.deepEqual((await later.verify()).bad.map((bad) => bad.path), ["/big/2.csv"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a large copy taken by the cache is published after the caller moved on; lookups wait for it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir, warn: () => {} });
    const size = 16 * 1024 * 1024;
    const write = (v: FileVersion, bytes: number) =>
      tempWith(cache, v, new Uint8Array(bytes).fill(7));
    const v = version("/big/taken.csv", size);
    const temp = await write(v, size);
    assert.equal(await cache.take(v, temp, { format: "csv" }), true);
    // Not yet in place when take returns: the caller's frame does not wait for it.
    assert.deepEqual(await names(cache.dir).then((all) => all.filter((n) => n.endsWith(".csv"))), [
      temp.slice(cache.dir.length + 1),
    ]);
    assert.equal(await cache.holds(v.store, v.path), true);
    const found = await cache.lookup(v); // waits for it
    assert.equal(found?.format, "csv");
    assert.equal((await Deno.stat(found!.file)).size, size);
    // A wrong size: taken all the same, then removed rather than kept.
    const short = version("/big/short.csv", size);
    assert.equal(await cache.take(short, await write(short, size - 1)), true);
    await cache.settled();
    assert.equal(await cache.lookup(short), undefined);
    assert.deepEqual((await names(cache.dir)).filter((n) => n.startsWith(".tmp-")), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a copy of one piece is created in one write once complete (many small files)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir, warn: () => {} });
    const small = (await cache.create(version("/a/1.csv", 4)))!;
    small.write(encoder.encode("x\n"));
    assert.deepEqual(
      (await names(cache.dir)).filter((name) => name.startsWith(".tmp-")),
      [],
      "nothing on disk before the copy is complete",
    );
    small.write(encoder.encode("1\n"));
    const copy = (await small.commit({ format: "csv" }))!;
    assert.equal(await Deno.readTextFile(copy.file), "x\n1\n");
    assert.equal((await cache.check(copy.version)).state, "valid");
    // An empty file has no piece, and still gets its copy.
    const empty = (await cache.create(version("/a/empty.csv", 0)))!;
    assert.equal((await Deno.stat((await empty.commit())!.file)).size, 0);
    // More bytes than the version's size: nothing published, nothing left.
    const long = (await cache.create(version("/a/2.csv", 2)))!;
    long.write(encoder.encode("x\n2\n"));
    assert.equal(await long.commit(), undefined);
    assert.equal(await cache.lookup(version("/a/2.csv", 2)), undefined);
    assert.deepEqual((await names(cache.dir)).filter((name) => name.startsWith(".tmp-")), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("temporary files of killed downloads are counted and removed at the next start (issue 12)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    // Larger than one piece (a one-piece copy exists on disk only once complete).
    const live = (await cache.create(version("/a/live.csv", 5 * 1024 * 1024)))!;
    const piece = 4 * 1024 * 1024;
    await live.write(new Uint8Array(piece)); // a whole piece: written to disk
    await live.write(new Uint8Array(1)); // waits for that piece's write
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
    assert.deepEqual(await names(cache.dir), [live.temp.slice(cache.dir.length + 1)]);
    await live.abort();
    assert.deepEqual(await names(cache.dir), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
