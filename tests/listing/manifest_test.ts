import { createHash } from "node:crypto";
import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { BadRequestError, connect, writeManifest } from "../../mod.ts";
import { MANIFEST_COLUMNS } from "../../lib/listing/manifest.ts";
import type { MediaBundle } from "../../lib/display/bundle.ts";
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

Deno.test("manifest: path, id, size, date, the store's checksum, format, media type and public URL per file", async () => {
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
  // The store's own checksum of each file, from one stat for all of them.
  const md5 = (bytes: Uint8Array | string) =>
    `md5:${createHash("md5").update(bytes).digest("hex")}`;
  assert.equal(notes.checksum, md5("not a table\n"));
  assert.ok(
    rows.filter((row) => String(row.path).endsWith(".parquet")).every((row) =>
      row.checksum === md5(PENGUINS)
    ),
  );
  for (const row of rows) {
    assert.equal(row.url, `${new URL(store.url).origin}/dav-anon${row.path}`);
  }
  assert.deepEqual(new Set(manifest.getColumn("access").toArray()), new Set(["public"]));
});

Deno.test("manifest: a private file's URL is Terrain's download, read with the caller's token", async () => {
  await using store = await served();
  const mine = connect({ url: store.url, token: DEMO.token, cacheDir: false });
  const own = await mine.folder("/iplant/home/demo").list({ glob: "*.parquet" }).manifest();
  const [row] = own.toRecords();
  const path = "/iplant/home/demo/private.parquet";
  assert.equal(row.url, `${store.url}/secured/fileio/download?path=${encodeURIComponent(path)}`);
  assert.equal(row.access, "token");
  // What another engine does with it: the bearer header gets the bytes, nothing else does.
  const url = String(row.url);
  const read = await fetch(url, { headers: { authorization: `Bearer ${DEMO.token}` } });
  assert.deepEqual(new Uint8Array(await read.arrayBuffer()), PENGUINS);
  const anonymous = await fetch(url);
  await anonymous.body?.cancel();
  assert.equal(anonymous.status, 401);
  // The file's own manifest says the same.
  const manifest = await mine.file(path).manifest();
  assert.deepEqual([manifest.url, manifest.access, manifest.publicUrl], [url, "token", undefined]);
});

Deno.test("manifest: no token in a signed-in manifest's files, view or engine code", async () => {
  await using store = await served();
  const mine = connect({ url: store.url, token: DEMO.token, cacheDir: false });
  const manifest = await mine.folder("/iplant/home").walk({ glob: "**/*.parquet" }).manifest();
  assert.deepEqual(new Set(manifest.getColumn("access").toArray()), new Set(["public", "token"]));
  const folder = await Deno.makeTempDir();
  try {
    const written: string[] = [];
    for (const name of ["m.csv", "m.json", "m.parquet"]) {
      await writeManifest(manifest, `${folder}/${name}`);
      written.push(new TextDecoder("latin1").decode(await Deno.readFile(`${folder}/${name}`)));
    }
    const view = await (manifest as unknown as Record<symbol, () => Promise<MediaBundle>>)[
      Symbol.for("Jupyter.display")
    ]();
    assert.ok(view["text/html"].includes("os.environ[&quot;TERRAIN_TOKEN&quot;]"));
    assert.ok(view["text/plain"].includes('"Bearer " + os.environ["TERRAIN_TOKEN"]'));
    // The text files hold the private URL in full (Parquet compresses it, the view clips it).
    for (const text of written.slice(0, 2)) assert.ok(text.includes("/secured/fileio/download"));
    for (const text of [...written, view["text/html"], view["text/plain"]]) {
      assert.ok(!text.includes(DEMO.token), "the token is not");
      assert.ok(!text.includes("Secret"), "nor any part of it");
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("manifest: written to Parquet, CSV and JSON, read back the same", async () => {
  await using store = await served();
  const { manifest, folder } = await parquetManifest(store);
  try {
    await writeManifest(manifest, `${folder}/m.parquet`);
    await writeManifest(manifest, `${folder}/m.csv`);
    await writeManifest(manifest, `${folder}/m.json`);
    assert.deepEqual(pl.readParquet(`${folder}/m.parquet`).toRecords(), manifest.toRecords());
    const csv = pl.readCSV(`${folder}/m.csv`);
    assert.deepEqual(csv.getColumn("url").toArray(), manifest.getColumn("url").toArray());
    const json = JSON.parse(await Deno.readTextFile(`${folder}/m.json`));
    assert.deepEqual(json, JSON.parse(JSON.stringify(manifest.toRecords())));
    assert.equal(
      json[0].modified,
      (manifest.toRecords()[0].modified as unknown as Date).toISOString(),
    );
    await assert.rejects(() => writeManifest(manifest, `${folder}/m.txt`), BadRequestError);
    assert.deepEqual([...Deno.readDirSync(folder)].map((e) => e.name).sort(), [
      "m.csv",
      "m.json",
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
