/**
 * Every file a lock or crate records carries the store's checksum, also those pinned by a
 * listing's entry (a many-file read, a remote scan of public Parquet), which carries none: the
 * lock fills them in from batched stats, one request per 1,000 files, when the store still holds
 * the version read; `verifyLock` then catches a rewrite that kept the size and the date.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { versionOfEntry } from "../../lib/client/file_version.ts";
import { type Lock, NetworkError, SignInRequiredError, type Store, verifyLock } from "../../mod.ts";
import { DATA, type DataStore, dataStore } from "../data/_store.ts";
import { ensureSampleStore } from "../../lib/sample/mod.ts";
import { DEMO, FILES, PENGUINS, serveProvenanceStore } from "./_provenance.ts";

const SAMPLE = await ensureSampleStore();
const PARQUET = await Deno.readFile(
  `${SAMPLE}/iplant/home/shared/tern_samples/formats/penguins.parquet`,
);
const PUBLIC = `${DATA}/penguins.parquet`;
const CSVS = Object.fromEntries(
  Array.from({ length: 3 }, (_, index) => [`${DATA}/many/part-${index}.csv`, `n\n${index}0\n`]),
);
const md5 = (bytes: Uint8Array | string) => `md5:${createHash("md5").update(bytes).digest("hex")}`;

/** Rewrites a file on the server's disk with `content` of the same size, keeping its date. */
async function rewriteKeepingSizeAndDate(
  served: DataStore,
  path: string,
  content: string | Uint8Array,
): Promise<void> {
  const disk = `${served.root}${path}`;
  const before = await Deno.stat(disk);
  await served.write(path, content);
  await Deno.utime(disk, before.atime!, before.mtime!);
  const after = await Deno.stat(disk);
  assert.deepEqual([after.size, after.mtime], [before.size, before.mtime], "kept size and date");
}

/** The lock's checksum of each file, by path. */
function checksums(lock: Lock): Record<string, string | undefined> {
  return Object.fromEntries(lock.files.map((file) => [file.path, file.checksum]));
}

/** Runs `body` with console.warn captured. */
async function capturingWarnings<T>(body: (lines: string[]) => Promise<T>): Promise<T> {
  const lines: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  try {
    return await body(lines);
  } finally {
    console.warn = original;
  }
}

Deno.test("a lock after walk().dataframes() records each file's md5, and verifyLock catches a same-size, same-date rewrite", async (t) => {
  await using served = await dataStore(CSVS);
  const store = served.connect();
  const frame = await store.folder(`${DATA}/many`).walk({ glob: "*.csv" }).dataframes();
  assert.equal(frame.height, 3);
  const folder = await Deno.makeTempDir({ prefix: "tern-lock-checksum-" });
  try {
    const lock = await store.provenance.save(`${folder}/tern.lock.json`);
    await t.step("the lock, the saved file and the reads carry each file's md5", async () => {
      const expected = Object.fromEntries(
        Object.entries(CSVS).map(([path, content]) => [path, md5(content)]),
      );
      assert.deepEqual(checksums(lock), expected);
      const saved = JSON.parse(await Deno.readTextFile(`${folder}/tern.lock.json`)) as Lock;
      assert.deepEqual(checksums(saved), expected);
      assert.deepEqual(
        Object.fromEntries(store.provenance.reads.map((read) => [read.path, read.checksum])),
        expected,
      );
    });
    await t.step("the crate gives each File its md5", async () => {
      const crate = await store.provenance.crate();
      const files = crate["@graph"].filter((entity) => entity["@type"] === "File");
      assert.deepEqual(
        files.map((file) => file.md5).sort(),
        Object.values(CSVS).map((content) => md5(content).slice(4)).sort(),
      );
    });
    await t.step("verifyLock sees a rewrite that kept the size and the date", async () => {
      const path = `${DATA}/many/part-1.csv`;
      await rewriteKeepingSizeAndDate(served, path, "n\n11\n");
      const checks = await verifyLock(store, lock);
      const changed = checks.filter((check) => check.status !== "unchanged");
      assert.deepEqual(changed.map((check) => [check.path, check.status, check.by]), [
        [path, "changed", "checksum"],
      ]);
      assert.match(changed[0].detail ?? "", /checksum md5:[0-9a-f]{32} → md5:[0-9a-f]{32}/);
    });
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a lock after a listing's remote scan().collect() of public Parquet records its md5, and verifyLock catches a same-size, same-date rewrite", async () => {
  await using served = await dataStore({ [PUBLIC]: PARQUET });
  const store = served.connect();
  // A listing's scan pins each file by its entry (a file's own scan() stats it, checksum and all).
  const frame = await (await store.folder(DATA).list({ glob: "*.parquet" }).scan()).collect();
  assert.equal(frame.height, 344);
  assert.equal((await store.cache.info()).height, 0, "scanned in place, not through the cache");
  assert.deepEqual(store.provenance.reads.map((read) => read.operations), [["scan"]]);
  const lock = await store.provenance.lock();
  assert.deepEqual(checksums(lock), { [PUBLIC]: md5(PARQUET) });
  const changed = PARQUET.slice();
  changed[changed.length >> 1] ^= 1;
  await rewriteKeepingSizeAndDate(served, PUBLIC, changed);
  const [check] = await verifyLock(store, lock);
  assert.deepEqual([check.status, check.by], ["changed", "checksum"]);
});

Deno.test("a file changed between its read and the lock gets no checksum, and a note naming it", async () => {
  await using served = await dataStore(CSVS);
  const store = served.connect();
  await store.folder(`${DATA}/many`).walk({ glob: "*.csv" }).dataframes();
  const path = `${DATA}/many/part-2.csv`;
  await served.write(path, "n\n200\n");
  const lock = await capturingWarnings(async (lines) => {
    const lock = await store.provenance.lock();
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(lines[0], /no longer holds the version read of 1 file/);
    assert.ok(lines[0].includes(JSON.stringify(path)), lines[0]);
    assert.match(lines[0], /records no store checksum for it/);
    return lock;
  });
  assert.deepEqual(checksums(lock), {
    [`${DATA}/many/part-0.csv`]: md5(CSVS[`${DATA}/many/part-0.csv`]),
    [`${DATA}/many/part-1.csv`]: md5(CSVS[`${DATA}/many/part-1.csv`]),
    [path]: undefined,
  });
  const read = store.provenance.reads.find((read) => read.path === path)!;
  assert.equal(read.checksum, undefined, "not the new version's checksum");
  assert.equal(read.size, CSVS[path].length, "still the version read");
});

Deno.test("a lock stats the files it has no checksum for with one request per 1,000 files, once", async () => {
  const count = 1001;
  const files: Record<string, string> = {};
  for (let index = 0; index < count; index++) files[`${DATA}/big/f-${index}.txt`] = `${index}\n`;
  await using served = await dataStore(files);
  const stats: number[] = [];
  const store: Store = served.connect({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.endsWith("/filesystem/stat")) {
        const body = await request.clone().json() as { paths: string[] };
        stats.push(body.paths.length);
      }
      return await fetch(request);
    },
  });
  // Each file as a many-file read records it: its listing entry (no checksum) published as read,
  // without downloading a thousand files.
  const context = store[STORE_CONTEXT];
  for await (const entry of store.folder(`${DATA}/big`).list()) {
    const version = versionOfEntry(context.transport.url, entry);
    context.events.publish({ kind: "done", operation: "bytes", version, fromCache: false });
  }
  assert.equal(store.provenance.size, count);
  assert.ok(store.provenance.reads.every((read) => read.checksum === undefined));
  const lock = await store.provenance.lock();
  assert.deepEqual(stats.sort((a, b) => b - a), [1000, 1], "one stat request per 1,000 files");
  assert.ok(lock.files.every((file) => file.checksum === md5(files[file.path])));
  await store.provenance.lock();
  assert.equal(stats.length, 2, "the checksums are kept: a second lock stats nothing");
});

/** A fetch that counts the requests it passes on, by endpoint (the path after `/terrain/`). */
function countingFetch(): { fetch: typeof fetch; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetch: (input, init) => {
      const request = new Request(input, init);
      asked.push(new URL(request.url).pathname.replace(/^\/terrain\//, ""));
      return fetch(request);
    },
  };
}

Deno.test("an offline store asks nothing when a lock is made: files pinned by a listing keep no checksum, and the lock is made", async () => {
  await using served = await dataStore(CSVS);
  const online = served.connect();
  await online.folder(`${DATA}/many`).walk({ glob: "*.csv" }).dataframes();
  assert.equal((await online.cache.info()).height, 3, "the online store cached the files");
  const counted = countingFetch();
  const offline = served.connect({ offline: true, fetch: counted.fetch });
  const frame = await offline.folder(`${DATA}/many`).walk({ glob: "*.csv" }).dataframes();
  assert.equal(frame.height, 3);
  assert.ok(counted.asked.length > 0, "the offline store lists through the server");
  assert.deepEqual(offline.provenance.reads.map((read) => read.checksum), [
    undefined,
    undefined,
    undefined,
  ]);
  // Dataset metadata comes from the server offline too (as listings do): looked up first, so
  // what is counted below is the lock's own asking.
  await offline.provenance.datasets();
  counted.asked.length = 0;
  const lock = await capturingWarnings(async (lines) => {
    const lock = await offline.provenance.lock();
    assert.deepEqual(lines, [], "no note: nothing was found changed");
    return lock;
  });
  assert.deepEqual(counted.asked, [], "the lock asked the server nothing");
  assert.equal(lock.storeId, undefined);
  assert.deepEqual(
    checksums(lock),
    Object.fromEntries(Object.keys(CSVS).map((p) => [p, undefined])),
  );
});

Deno.test("an anonymous store's lock gets the checksum of community files a listing pinned, through anonymous stats", async (t) => {
  const outside = "/iplant/home/alice/private.csv";
  await using served = await dataStore({ ...CSVS, [outside]: "n\n9\n" });
  const stats: (string | null)[] = [];
  const store = served.connect({
    fetch: (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.endsWith("/filesystem/stat")) {
        stats.push(request.headers.get("authorization"));
      }
      return fetch(request);
    },
  });
  assert.equal(store.options.auth, "anonymous");
  await store.folder(`${DATA}/many`).walk({ glob: "*.csv" }).dataframes();
  const lock = await store.provenance.lock();
  assert.deepEqual(
    checksums(lock),
    Object.fromEntries(Object.entries(CSVS).map(([path, content]) => [path, md5(content)])),
  );
  assert.deepEqual(stats, [null], "one stat, without credentials");
  // The other half (a file outside the community folder asks no stat) has no real case: the
  // store lets an anonymous caller read nothing there, so no such file is ever recorded.
  await t.step("an anonymous store reads nothing outside the community folder", async () => {
    await assert.rejects(store.file(outside).text(), SignInRequiredError);
    await assert.rejects(store.folder("/iplant/home/alice").list().toArray(), SignInRequiredError);
    assert.equal(store.provenance.size, 3);
  });
});

Deno.test("a stat lost to the network while a lock is made is a NetworkError naming the stat and its cause, without the token; the next lock asks again", async () => {
  await using served = await serveProvenanceStore();
  let down = true;
  await using store = served.demo({
    retries: 1,
    retryBaseMs: 1,
    fetch: (input, init) => {
      const request = new Request(input, init);
      if (down && new URL(request.url).pathname.endsWith("/filesystem/stat")) {
        return Promise.reject(new TypeError("connection reset by peer"));
      }
      return fetch(request);
    },
  });
  await store.folder(PENGUINS).walk({ glob: "*.csv" }).dataframes();
  assert.deepEqual(store.provenance.reads.map((read) => read.checksum), [undefined]);
  const failed = (error: unknown) => {
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.endpoint, "filesystem/stat");
    assert.match(error.message, /filesystem\/stat .*connection reset by peer/);
    const shown = [error.message, JSON.stringify(error), Deno.inspect(error), String(error.cause)];
    assert.ok(shown.every((text) => !text.includes(DEMO.token)), "no token");
    return true;
  };
  await assert.rejects(store.provenance.lock(), failed);
  const folder = await Deno.makeTempDir({ prefix: "tern-lock-checksum-" });
  try {
    await assert.rejects(store.provenance.save(`${folder}/tern.lock.json`), failed);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(folder)), [], "no lock written");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
  down = false;
  const lock = await capturingWarnings(async (lines) => {
    const lock = await store.provenance.lock();
    assert.deepEqual(lines, [], "a lost stat is not a changed file");
    return lock;
  });
  const bytes = await Deno.readFile(`${served.root}${FILES.penguins}`);
  assert.deepEqual(checksums(lock), { [FILES.penguins]: md5(bytes) });
});

Deno.test("a file found changed at one lock is not statted again at the next, which still names it", async () => {
  await using served = await dataStore(CSVS);
  const counted = countingFetch();
  const store = served.connect({ fetch: counted.fetch });
  await store.folder(`${DATA}/many`).walk({ glob: "*.csv" }).dataframes();
  const path = `${DATA}/many/part-2.csv`;
  await served.write(path, "n\n200\n");
  const stats = () => counted.asked.filter((endpoint) => endpoint.endsWith("filesystem/stat"));
  for (const lock of [1, 2, 3]) {
    const made = await capturingWarnings(async (lines) => {
      const made = await store.provenance.lock();
      assert.equal(lines.length, 1, `lock ${lock}: ${lines.join("\n")}`);
      assert.ok(lines[0].includes(JSON.stringify(path)), lines[0]);
      return made;
    });
    assert.equal(checksums(made)[path], undefined);
    assert.equal(stats().length, 1, `one stat, at the first lock: after lock ${lock}`);
  }
});
