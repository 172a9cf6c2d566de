import assert from "node:assert/strict";
import { join } from "node:path";
import { DATA, dataStore } from "../data/_store.ts";

Deno.test("store.cache shows its entries as a frame and clears only its own folder", async () => {
  await using store = await dataStore({
    [`${DATA}/a.csv`]: "a\n1\n",
    [`${DATA}/b.csv`]: "b\n2\n3\n",
  });
  const tern = store.connect();
  assert.equal(tern.cache.enabled, true);
  assert.equal(tern.cache.dir, store.cacheDir);
  assert.equal(String(tern.cache), `StoreCache(${store.cacheDir}, max 5000000000 bytes)`);
  assert.equal((await tern.cache.info()).height, 0);
  await tern.file(`${DATA}/a.csv`).dataframe();
  await tern.file(`${DATA}/b.csv`).dataframe();
  const info = await tern.cache.info();
  assert.deepEqual(info.columns, [
    "path",
    "size",
    "modified",
    "cachedAt",
    "lastUsed",
    "format",
    "id",
    "store",
    "file",
  ]);
  assert.deepEqual(info.getColumn("path").toArray().sort(), [`${DATA}/a.csv`, `${DATA}/b.csv`]);
  assert.deepEqual(info.getColumn("size").toArray().sort(), [4, 6]);
  assert.deepEqual(info.getColumn("format").toArray(), ["csv", "csv"]);
  const entry = await tern.file(`${DATA}/a.csv`).stat();
  const row = info.toRecords().find((record) => record.path === `${DATA}/a.csv`)!;
  assert.equal((row.modified as unknown as Date).getTime(), entry.modified.getTime());
  assert.equal(row.store, store.url);
  // Under 1 KiB: kept in the index, without a file until a path is asked for.
  assert.equal(row.file, null);
  assert.equal(await Deno.readTextFile(await tern.file(`${DATA}/a.csv`).cachedPath()), "a\n1\n");

  // A neighbour in the cache folder (the sample store lives there by default) is left alone.
  await Deno.mkdir(join(store.cacheDir, "sample-store"));
  // a.csv takes its 4 bytes twice: in the index and in the file cachedPath() wrote.
  assert.deepEqual(await tern.cache.clear(), { files: 2, bytes: 14 });
  assert.equal((await tern.cache.info()).height, 0);
  assert.ok((await Deno.stat(join(store.cacheDir, "sample-store"))).isDirectory);
  // The cache works again after a clear.
  await tern.file(`${DATA}/a.csv`).dataframe();
  assert.equal((await tern.cache.info()).height, 1);
});

Deno.test("a store without a cache reads and shows an empty, disabled cache", async () => {
  await using store = await dataStore({ [`${DATA}/a.csv`]: "a\n1\n" });
  const tern = store.connect({ cacheDir: false });
  assert.deepEqual([tern.cache.enabled, tern.cache.dir, String(tern.cache)], [
    false,
    undefined,
    "StoreCache(disabled)",
  ]);
  assert.equal((await tern.file(`${DATA}/a.csv`).dataframe()).height, 1);
  assert.equal((await tern.cache.info()).height, 0);
  assert.deepEqual(await tern.cache.clear(), { files: 0, bytes: 0 });
  await assert.rejects(tern.file(`${DATA}/a.csv`).cachedPath(), /no local cache/);
});
