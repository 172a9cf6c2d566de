/**
 * End to end on the realistic sample store (lib/sample), built once into a temporary folder
 * and served by the embedded server: what a notebook session does, through the public API.
 */

import assert from "node:assert/strict";
import {
  ALICE_PRIVATE_FILE,
  ALICE_USER,
  CURATED_PATH,
  DEMO_USER,
  ensureSampleStore,
  FORMATS_PATH,
  MANY_FILES_COUNT,
  MANY_FILES_PATH,
  MANY_FILES_SUBFOLDERS,
  partCsv,
  partName,
  SAMPLE_CASES,
  SAMPLE_FILES,
} from "../../lib/sample/mod.ts";
import { Folder, PermissionError } from "../../mod.ts";
import { serve } from "./_store.ts";

Deno.test("sample store end to end", async (t) => {
  // The shared sample store (built once per machine, read by the examples too): only read here.
  const root = await ensureSampleStore();
  await using served = await serve({ root });
  const demo = served.connect({ username: DEMO_USER.username, password: DEMO_USER.password });
  const anonymous = served.connect();

  await t.step("signed in with a password, demo sees their roots but not alice's", async () => {
    const roots = await demo.root();
    assert.equal(roots.home.path, DEMO_USER.home);
    const names = (await roots.home.list().toArray()).map((entry) => entry.name);
    assert.ok(names.includes(SAMPLE_CASES.userDataset.split("/").at(-1)!));
    assert.ok(Array.isArray(await demo.savedSearches()));
    await assert.rejects(demo.folder(ALICE_USER.home).list().toArray(), PermissionError);
    // Reads ask for the file's size first, in a listing of its folder, which demo may not read.
    await assert.rejects(demo.file(ALICE_PRIVATE_FILE).text(), PermissionError);
  });

  await t.step("the 20,000-file folder pages completely, anonymously", async () => {
    const folder = anonymous.folder(MANY_FILES_PATH);
    assert.equal(await folder.list().count(), MANY_FILES_COUNT + MANY_FILES_SUBFOLDERS.length);
    assert.deepEqual((await folder.folders()).map((entry) => entry.name), [
      ...MANY_FILES_SUBFOLDERS,
    ]);
    let index = 0;
    for await (const entry of folder.list({ type: "file", glob: "part-*.csv" })) {
      index++;
      if (entry.name !== partName(index)) {
        assert.fail(`${entry.name} where ${partName(index)} belongs`);
      }
    }
    assert.equal(index, MANY_FILES_COUNT);
    const part = folder.file(partName(17));
    assert.equal(await part.text(), partCsv(17));
    assert.equal((await part.stat()).size, new TextEncoder().encode(partCsv(17)).length);
    const archived = await folder.walk({ glob: "archive/**", type: "file" }).toArray();
    assert.deepEqual(archived.map((entry) => entry.name), [partName(0)]);
  });

  await t.step(
    "curated datasets: walk, metadata, comments, DataFrame, lookup by id",
    async () => {
      const datasets = await demo.folder(CURATED_PATH).folders();
      assert.ok(datasets.length >= 8);
      const penguins = demo.dataset(SAMPLE_CASES.fullMetadata);
      const metadata = await penguins.metadata();
      assert.equal(metadata.path, SAMPLE_CASES.fullMetadata);
      assert.ok(metadata.avus.some((avu) => avu.attr === "title" && avu.value !== ""));
      assert.ok(metadata.avus.find((avu) => avu.attr === "identifier")?.avus.length);
      assert.ok((await penguins.comments()).length > 0);
      assert.deepEqual((await demo.dataset(SAMPLE_CASES.noMetadata).metadata()).avus, []);

      const files = await penguins.walk({ type: "file" }).toArray();
      assert.ok(files.some((entry) => entry.path === SAMPLE_CASES.fileWithMetadata));
      const tree = demo.folder(CURATED_PATH).walk({ maxDepth: 2 });
      assert.equal((await tree.toDataFrame()).height, await tree.count());

      const byId = await demo.entry((await penguins.stat()).id);
      assert.ok(byId instanceof Folder);
      assert.equal(byId.path, SAMPLE_CASES.fullMetadata);
    },
  );

  await t.step(
    "every format file downloads byte-exact; inline display has its type",
    async () => {
      for (const path of Object.values(SAMPLE_FILES)) {
        const bytes = await anonymous.file(path).bytes();
        assert.deepEqual(bytes, await Deno.readFile(`${root}${path}`), path);
      }
      const large = await anonymous.file(SAMPLE_CASES.parquetLarge).stat();
      assert.equal(large.size, (await Deno.stat(`${root}${SAMPLE_CASES.parquetLarge}`)).size);
      const png = await anonymous.file(SAMPLE_FILES.png).openInline();
      assert.equal(png.contentType, "image/png");
      await png.body.cancel();
      const csv = await anonymous.folder(FORMATS_PATH).list({ infoType: "csv", type: "file" })
        .toArray();
      assert.deepEqual(csv.map((entry) => entry.name), ["penguins.csv"]);
      assert.equal(anonymous.stats.inFlight, 0);
    },
  );
});
