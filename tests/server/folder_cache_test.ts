import assert from "node:assert/strict";
import {
  entryStat,
  FolderCache,
  RACY_WINDOW_MS,
  statMany,
  STATS_TTL_MS,
} from "../../lib/server/folder_cache.ts";
import { makeStore, writeTree } from "./_store.ts";

const noLinks = () => undefined;
const settle = () => new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 30));

Deno.test("snapshot sorts folders and files apart, hides sidecars, flags AVU sidecars", async () => {
  await using store = await makeStore({
    "d/b.csv": "1",
    "d/a.txt": "1",
    "d/.hidden": "1",
    "d/Z": null,
    "d/m": null,
    "d/.a.txt.avus.json": "[]",
    "d/.avus.json": "[]",
    "d/.comments.json": "[]",
    "d/.b.csv.comments.json": "[]",
  });
  const snapshot = await new FolderCache(noLinks).snapshot(`${store.root}/d`);
  assert.deepEqual(snapshot.folders.map((entry) => entry.name), ["Z", "m"]);
  assert.deepEqual(snapshot.files.map((entry) => entry.name), [".hidden", "a.txt", "b.csv"]);
  assert.deepEqual(snapshot.files.map((entry) => entry.hasAvus), [false, true, false]);
  assert.deepEqual(snapshot.files.map((entry) => entry.nameType), ["unknown", "unknown", "csv"]);
  assert.equal(snapshot.hasSymlinks, false);
});

Deno.test("snapshot skips special files and names that are not UTF-8", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await using store = await makeStore({ "d/ok.txt": "1" });
  const made = await new Deno.Command("sh", {
    args: [
      "-c",
      `mkfifo "$1/d/pipe" && printf x > "$1/d/$(printf 'bad\\377name')"`,
      "sh",
      store.root,
    ],
  }).output();
  assert.ok(made.success, new TextDecoder().decode(made.stderr));
  const snapshot = await new FolderCache(noLinks).snapshot(`${store.root}/d`);
  assert.deepEqual(snapshot.files.map((entry) => entry.name), ["ok.txt"]);
});

Deno.test("snapshot is reused until the folder changes, and never when racy", async () => {
  await using store = await makeStore({ "d/a": "1" });
  const cache = new FolderCache(noLinks);
  const dir = `${store.root}/d`;
  const fresh = await cache.snapshot(dir);
  assert.equal(fresh.racy, true, "taken right after the folder was written");
  assert.notEqual(await cache.snapshot(dir), fresh, "a racy snapshot is not reused");
  await settle();
  const settled = await cache.snapshot(dir);
  assert.equal(settled.racy, false);
  assert.equal(await cache.snapshot(dir), settled, "an unchanged folder is not re-read");
  await writeTree(store.root, { "d/b": "2" });
  const changed = await cache.snapshot(dir);
  assert.deepEqual(changed.files.map((entry) => entry.name), ["a", "b"]);
  await Deno.remove(`${dir}/a`);
  assert.deepEqual((await cache.snapshot(dir)).files.map((entry) => entry.name), ["b"]);
});

Deno.test("concurrent snapshots of one folder share a single read", async () => {
  await using store = await makeStore({ "d/a": "1" });
  const cache = new FolderCache(noLinks);
  const [a, b] = await Promise.all([
    cache.snapshot(`${store.root}/d`),
    cache.snapshot(`${store.root}/d`),
  ]);
  assert.equal(a, b);
});

Deno.test("orderBy sorts by size and dates with name tie-breaks; stats expire", async () => {
  await using store = await makeStore({
    "d/big": "xxxx",
    "d/small": "x",
    "d/mid-a": "xx",
    "d/mid-b": "xx",
    "d/sub": null,
  });
  const dir = `${store.root}/d`;
  await Deno.utime(`${dir}/small`, 1, new Date(Date.UTC(2020, 0, 3)));
  await Deno.utime(`${dir}/big`, 1, new Date(Date.UTC(2020, 0, 1)));
  await Deno.utime(`${dir}/mid-a`, 1, new Date(Date.UTC(2020, 0, 2)));
  await Deno.utime(`${dir}/mid-b`, 1, new Date(Date.UTC(2020, 0, 2)));
  const cache = new FolderCache(noLinks);
  const snapshot = await cache.snapshot(dir);
  const bySize = await cache.orderBy(snapshot, "size");
  assert.deepEqual(bySize.files.map((e) => e.name), ["small", "mid-a", "mid-b", "big"]);
  assert.deepEqual(bySize.folders.map((e) => e.name), ["sub"]);
  const byDate = await cache.orderBy(snapshot, "modified");
  assert.deepEqual(byDate.files.map((e) => e.name), ["big", "mid-a", "mid-b", "small"]);
  assert.equal(await cache.orderBy(snapshot, "size"), bySize, "orders are kept while fresh");
  const table = await cache.stats(snapshot);
  table.takenAt -= STATS_TTL_MS + 1;
  await Deno.writeTextFile(`${dir}/small`, "x".repeat(10));
  const refreshed = await cache.orderBy(snapshot, "size");
  assert.deepEqual(refreshed.files.map((e) => e.name), ["mid-a", "mid-b", "big", "small"]);
});

Deno.test("statMany returns undefined for paths it cannot stat", async () => {
  await using store = await makeStore({ "a": "1" });
  const [found, missing] = await statMany([`${store.root}/a`, `${store.root}/nope`]);
  assert.equal(found?.size, 1);
  assert.equal(missing, undefined);
});

Deno.test("entryStat's created is the earlier of birth and modification time", async () => {
  await using store = await makeStore({ "copied.csv": "a\n", "edited.csv": "b\n", "sub": null });
  // A file unpacked or copied with its dates keeps an old mtime but is born now.
  const past = new Date(Date.UTC(2021, 5, 1));
  await Deno.utime(`${store.root}/copied.csv`, past, past);
  const copied = entryStat(await Deno.stat(`${store.root}/copied.csv`));
  assert.equal(copied.modified, past.getTime());
  assert.equal(copied.created, past.getTime());
  // A file edited after it was born: an hour after, set rather than waited for.
  await Deno.writeTextFile(`${store.root}/edited.csv`, "b\nc\n");
  const born = (await Deno.stat(`${store.root}/edited.csv`)).birthtime;
  const later = new Date((born ?? new Date()).getTime() + 3_600_000);
  await Deno.utime(`${store.root}/edited.csv`, later, later);
  const info = await Deno.stat(`${store.root}/edited.csv`);
  const edited = entryStat(info);
  assert.equal(edited.size, 4);
  assert.equal(edited.modified, later.getTime());
  assert.equal(edited.created, born?.getTime() ?? edited.modified);
  assert.ok(edited.created <= edited.modified);
  assert.equal(entryStat(await Deno.stat(`${store.root}/sub`)).size, 0, "folders have size 0");
});
