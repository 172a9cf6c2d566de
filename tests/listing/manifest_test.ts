import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { BadRequestError, connect, writeManifest } from "../../mod.ts";
import { MANIFEST_COLUMNS } from "../../lib/listing/manifest.ts";
import { ensureSampleStore } from "../../lib/sample/mod.ts";
import { ALICE, DEMO, usersFile } from "../_store.ts";
import { dataStore } from "../data/_store.ts";

const SAMPLE = await ensureSampleStore();
const PENGUINS = await Deno.readFile(
  `${SAMPLE}/iplant/home/shared/tern_samples/formats/penguins.parquet`,
);

async function served() {
  return await dataStore({
    "/iplant/home/shared/data/2019/penguins.parquet": PENGUINS,
    "/iplant/home/shared/data/2020/penguins.parquet": PENGUINS,
    "/iplant/home/shared/data/2020/notes.txt": "not a table\n",
    "/iplant/home/demo/private.parquet": PENGUINS,
    "/.terrain/users.json": usersFile(DEMO, ALICE, 300),
  });
}

/** The manifest of the shared Parquet files, and a temporary folder to write it into. */
async function parquetManifest(store: Awaited<ReturnType<typeof served>>) {
  const manifest = await store.connect().folder("/iplant/home/shared/data").walk({
    glob: "**/*.parquet",
  }).manifest();
  return { manifest, folder: await Deno.makeTempDir() };
}

Deno.test("manifest: path, id, size, date, format, media type and public URL per file", async () => {
  await using store = await served();
  const tern = store.connect();
  const listing = tern.folder("/iplant/home/shared/data").walk({ type: "file" });
  const manifest = await listing.manifest();
  assert.deepEqual(manifest.columns, [...MANIFEST_COLUMNS]);
  const entries = await listing.toArray();
  assert.deepEqual(manifest.getColumn("path").toArray(), entries.map((entry) => entry.path));
  assert.deepEqual(manifest.getColumn("id").toArray(), entries.map((entry) => entry.id));
  assert.deepEqual(manifest.getColumn("size").toArray().map(Number), entries.map((e) => e.size));
  assert.equal(String(manifest.getColumn("modified").dtype), String(pl.Datetime("ms", "UTC")));
  const rows = manifest.toRecords();
  const notes = rows.find((row) => String(row.path).endsWith("notes.txt"))!;
  assert.equal(notes.format, null);
  for (const row of rows) {
    assert.equal(row.url, `${new URL(store.url).origin}/dav-anon${row.path}`);
  }
  // A private file has no public URL.
  const mine = connect({ url: store.url, token: DEMO.token, cacheDir: false });
  const own = await mine.folder("/iplant/home/demo").list({ glob: "*.parquet" }).manifest();
  assert.deepEqual(own.getColumn("url").toArray(), [null]);
});

Deno.test("manifest: written to Parquet and CSV, read back the same", async () => {
  await using store = await served();
  const { manifest, folder } = await parquetManifest(store);
  try {
    await writeManifest(manifest, `${folder}/m.parquet`);
    await writeManifest(manifest, `${folder}/m.csv`);
    assert.deepEqual(pl.readParquet(`${folder}/m.parquet`).toRecords(), manifest.toRecords());
    const csv = pl.readCSV(`${folder}/m.csv`);
    assert.deepEqual(csv.getColumn("url").toArray(), manifest.getColumn("url").toArray());
    await assert.rejects(() => writeManifest(manifest, `${folder}/m.json`), BadRequestError);
    assert.deepEqual([...Deno.readDirSync(folder)].map((e) => e.name).sort(), [
      "m.csv",
      "m.parquet",
    ]);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("manifest: another engine (Polars over plain HTTP) reads the manifest's URLs", async () => {
  await using store = await served();
  const { manifest, folder } = await parquetManifest(store);
  try {
    // What a user on another machine does: the manifest file and Polars, no tern.
    await writeManifest(manifest, `${folder}/m.parquet`);
    const urls = pl.readParquet(`${folder}/m.parquet`).getColumn("url").toArray() as string[];
    const before = store.server.stats().requests;
    const lazy = pl.concat(
      urls.map((url) => pl.scanParquet(url).withColumns(pl.lit(url).alias("url"))),
      { how: "vertical" },
    );
    const counts = await lazy.groupBy("url").agg(pl.len().alias("rows")).sort("url").collect();
    assert.deepEqual(counts.getColumn("rows").toArray(), [344, 344]);
    assert.ok(store.server.stats().requests > before, "the rows came from the server");
    const species = await lazy.select(pl.col("Species").nUnique()).collect();
    assert.equal(species.getColumn("Species").get(0), 3);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
