import assert from "node:assert/strict";
import { DataChangedError } from "../../mod.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { FILES, gatedRead, type ProvenanceStore, serveProvenanceStore } from "./_provenance.ts";
import type { Store } from "../../mod.ts";

/** First run: reads two files (filling the cache when there is one) and saves the lock. */
async function firstRun(served: ProvenanceStore, folder: string, cacheDir?: string) {
  const store = served.demo(cacheDir === undefined ? {} : { cacheDir });
  if (cacheDir !== undefined) await store.file(FILES.wind).cachedPath();
  await gatedRead(store, FILES.wind, "dataframe");
  await gatedRead(store, FILES.penguins, "text");
  const lock = `${folder}/tern.lock.json`;
  await store.provenance.save(lock);
  return lock;
}

/** Runs `body` with console.warn captured. */
async function warnings<T>(body: () => Promise<T>): Promise<[T, string[]]> {
  const lines: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  try {
    return [await body(), lines];
  } finally {
    console.warn = original;
  }
}

async function withFolder(body: (folder: string) => Promise<void>): Promise<void> {
  const folder = await Deno.makeTempDir({ prefix: "tern-gate-test-" });
  try {
    await body(folder);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

Deno.test("locked reads: an unchanged store reads normally; files not in the lock read and are recorded", async () => {
  await using served = await serveProvenanceStore();
  await withFolder(async (folder) => {
    const lock = await firstRun(served, folder);
    const store = served.demo({ lock });
    await gatedRead(store, FILES.wind);
    await gatedRead(store, FILES.loose, "text");
    assert.deepEqual(store.provenance.reads.map((read) => read.status), ["read", "read"]);
  });
});

Deno.test("onChange error (the default): a file changed on the server's disk is a DataChangedError before any data", async () => {
  await using served = await serveProvenanceStore();
  await withFolder(async (folder) => {
    const lock = await firstRun(served, folder);
    await served.change(FILES.wind, "hour,speed\n0,3.5\n1,4.0\n2,9.9\n");
    const store = served.demo({ lock });
    await assert.rejects(() => gatedRead(store, FILES.wind), (error: unknown) => {
      assert.ok(error instanceof DataChangedError);
      assert.equal(error.path, FILES.wind);
      assert.match(error.message, /locked: 23 bytes, modified 2020-07-16T17:43:00\.000Z/);
      assert.match(error.message, /now: 29 bytes, modified 2024-03-01T12:00:00\.000Z/);
      assert.match(error.message, /store\.provenance\.save/);
      return true;
    });
    assert.equal(store.provenance.reads.length, 0, "nothing recorded");
    // The unchanged locked file still reads.
    await gatedRead(store, FILES.penguins, "text");
    // Same size, only the date moved: still a change.
    await served.change(FILES.penguins, "species,mass\nAdelie,3750\nGentoo,5000\n");
    await assert.rejects(() => gatedRead(store, FILES.penguins), DataChangedError);
  });
});

Deno.test("onChange error: a rewrite that kept the size and the date differs by the store's checksum, and is refused before any data", async () => {
  await using served = await serveProvenanceStore();
  await withFolder(async (folder) => {
    const lock = await firstRun(served, folder);
    const locked = JSON.parse(await Deno.readTextFile(lock)).files;
    assert.ok(locked.every((file: { checksum?: string }) => /^md5:/.test(file.checksum ?? "")));
    // Same length, same date-modified (2020-07-16T17:43:00Z, as the lock has it): other bytes.
    await served.change(
      FILES.penguins,
      "species,mass\nAdelie,3751\nGentoo,5000\n",
      new Date("2020-07-16T17:43:00Z"),
    );
    const before = served.server.stats().requests;
    const store = served.demo({ lock, onChange: "error" });
    await assert.rejects(() => store.file(FILES.penguins).text(), (error: unknown) => {
      assert.ok(error instanceof DataChangedError, String(error));
      assert.equal(error.locked.size, error.current.size);
      assert.equal(error.locked.modified, error.current.modified);
      assert.notEqual(error.locked.checksum, error.current.checksum);
      assert.match(
        error.message,
        /locked: 37 bytes, .*store checksum md5:[0-9a-f]{32}; now: 37 bytes/,
      );
      return true;
    });
    // One stat, no download: the change was caught before any data was read.
    assert.equal(served.server.stats().requests - before, 1);
    assert.equal(store.provenance.reads.length, 0);
    // The other locked file is untouched and still reads, recorded with the store's checksum.
    assert.equal(await store.file(FILES.wind).text(), "hour,speed\n0,3.5\n1,4.0\n");
    const wind = locked.find((file: { path: string }) => file.path === FILES.wind);
    assert.equal(store.provenance.reads[0].checksum, wind.checksum);
  });
});

Deno.test("onChange warn: one line per path, the new version read and marked changed", async () => {
  await using served = await serveProvenanceStore();
  await withFolder(async (folder) => {
    const lock = await firstRun(served, folder);
    await served.change(FILES.wind, "hour,speed\n0,1\n");
    const store = served.demo({ lock, onChange: "warn" });
    const [, lines] = await warnings(async () => {
      await gatedRead(store, FILES.wind, "dataframe");
      await gatedRead(store, FILES.wind, "text");
      await gatedRead(store, FILES.penguins, "text");
    });
    assert.equal(lines.length, 1);
    assert.match(lines[0], /wind\.csv changed since the lock was written; reading the new version/);
    assert.deepEqual(
      store.provenance.reads.map((read) => [read.path, read.status, read.size]),
      [[FILES.wind, "changed", 15], [FILES.penguins, "read", 37]],
    );
  });
});

Deno.test("onChange locked: the locked version is served from the cache, and said so; without it, the error", async () => {
  await using served = await serveProvenanceStore();
  await withFolder(async (folder) => {
    const cacheDir = `${folder}/cache`;
    const lock = await firstRun(served, folder, cacheDir);
    await served.change(FILES.wind, "hour,speed\n0,1\n");
    const store = served.demo({ lock, onChange: "locked", cacheDir });
    const [admitted, lines] = await warnings(() => gatedRead(store, FILES.wind, "dataframe"));
    assert.equal(admitted.size, 23, "the locked version");
    assert.equal(admitted.modified, Date.parse("2020-07-16T17:43:00Z"));
    assert.equal(lines.length, 1);
    assert.match(lines[0], /reading the locked version \(23 bytes, .*\) from the local cache/);
    assert.deepEqual(store.provenance.reads.map((read) => read.status), ["locked"]);
    // The cache holds those very bytes.
    const cached = await store[STORE_CONTEXT].reader.cache!.lookup(admitted);
    assert.equal(await Deno.readTextFile(cached!.file), "hour,speed\n0,3.5\n1,4.0\n");
    // A file whose locked version is not cached: the error, saying why.
    await served.change(FILES.penguins, "species\nAdelie\n");
    await assert.rejects(
      () => gatedRead(store, FILES.penguins, "text"),
      /The locked version cannot be read: the local cache no longer holds it/,
    );
    // A store without a cache cannot serve locked versions.
    const uncached: Store = served.demo({ lock, onChange: "locked" });
    await assert.rejects(() => gatedRead(uncached, FILES.wind), /cacheDir is false/);
  });
});

Deno.test("real reads: every read method passes the gate before data (error, warn and locked modes)", async () => {
  await using served = await serveProvenanceStore();
  await withFolder(async (folder) => {
    const cacheDir = `${folder}/cache`;
    // First run: real reads, through the cache.
    const first = served.demo({ cacheDir });
    await first.file(FILES.wind).dataframe(); // keeps a copy in the cache
    const original = await first.file(FILES.wind).text();
    await first.file(FILES.penguins).dataframe();
    const lock = `${folder}/tern.lock.json`;
    const saved = await first.provenance.save(lock);
    assert.ok(saved.files.every((file) => /^xxh64:[0-9a-f]{16}$/.test(file.hash ?? "")), "hashed");

    await served.change(FILES.wind, "hour,speed\n0,1\n");

    // error: no read of the changed file returns data.
    const strict = served.demo({ lock, cacheDir });
    const wind = strict.file(FILES.wind);
    for (
      const read of [
        () => wind.text(),
        () => wind.bytes(),
        () => wind.dataframe(),
        () => wind.head(1),
        () => wind.stream(),
        () => wind.cachedPath(),
        () => wind.downloadTo(`${folder}/wind.csv`),
      ]
    ) {
      await assert.rejects(read, DataChangedError);
    }
    await assert.rejects(() => Deno.stat(`${folder}/wind.csv`), Deno.errors.NotFound);
    assert.equal((await strict.file(FILES.penguins).dataframe()).height, 2);
    assert.deepEqual(strict.provenance.reads.map((read) => read.path), [FILES.penguins]);

    // warn: the new bytes, one line, marked changed.
    const lenient = served.demo({ lock, cacheDir, onChange: "warn" });
    const [text, lines] = await warnings(async () => {
      await lenient.file(FILES.wind).bytes();
      return await lenient.file(FILES.wind).text();
    });
    assert.equal(text, "hour,speed\n0,1\n");
    assert.equal(lines.length, 1);
    assert.deepEqual(lenient.provenance.reads.map((read) => [read.status, read.operations]), [
      ["changed", ["text", "bytes"]],
    ]);

    // locked: the locked bytes, from the cache, said once.
    const pinned = served.demo({ lock, cacheDir, onChange: "locked" });
    const [locked, said] = await warnings(async () => {
      const frame = await pinned.file(FILES.wind).dataframe();
      return [frame.height, await pinned.file(FILES.wind).text()] as const;
    });
    assert.deepEqual(locked, [2, original]);
    assert.equal(said.length, 1);
    assert.match(said[0], /reading the locked version .* from the local cache/);
    assert.deepEqual(pinned.provenance.reads.map((read) => [read.status, read.size]), [
      ["locked", original.length],
    ]);
  });
});

Deno.test("real reads: a listing's dataframes() records every file it read, and a rerun checks them", async () => {
  await using served = await serveProvenanceStore();
  await withFolder(async (folder) => {
    for (let index = 0; index < 30; index++) {
      await served.change(
        `${FILES.penguins.replace("penguins.csv", "many")}/part-${index}.csv`,
        `n\n${index}\n`,
      );
    }
    const store = served.demo({ cacheDir: `${folder}/cache` });
    const many = store.folder(FILES.penguins.replace("/penguins.csv", "/many"));
    const frame = await many.list({ glob: "*.csv" }).dataframes();
    assert.equal(frame.height, 30);
    assert.equal(store.provenance.size, 30);
    assert.ok(store.provenance.reads.every((read) => read.hash !== undefined));
    const datasets = await store.provenance.datasets();
    assert.deepEqual(datasets.map((dataset) => dataset.files), [30]);
    const lock = `${folder}/tern.lock.json`;
    await store.provenance.save(lock);
    await served.change(`${many.path}/part-7.csv`, "n\n70\n");
    const rerun = served.demo({ cacheDir: `${folder}/cache`, lock });
    await assert.rejects(
      () => rerun.folder(many.path!).list({ glob: "*.csv" }).dataframes(),
      (error: unknown) =>
        error instanceof DataChangedError && error.path === `${many.path}/part-7.csv`,
    );
  });
});
