import assert from "node:assert/strict";
import { join } from "node:path";
import { DEMO_USER, SAMPLE_CASES } from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, startCli } from "../_cli.ts";

Deno.test("tern croissant: a dataset's Croissant document on stdout or in a file; private files by token", async (t) => {
  await using cli = await startCli();
  const penguins = SAMPLE_CASES.fullMetadata;

  await t.step("stdout holds the document, and only it", async () => {
    const run = await cli.run(["croissant", penguins]);
    assert.equal(run.code, 0, run.stderr);
    const document = JSON.parse(run.stdout);
    assert.equal(document.conformsTo, "http://mlcommons.org/croissant/1.0");
    assert.deepEqual(document.identifier, [
      "https://doi.org/10.25739/9k2v-7q4m",
      "https://n2t.net/ark:/87946/p3x9k1",
    ]);
    const csv = document.recordSet.find((set: { name: string }) => set.name === "penguins.csv");
    const type = (name: string) =>
      csv.field.find((f: { name: string }) => f.name === name).dataType;
    assert.equal(type("Body Mass (g)"), "sc:Integer");
    assert.equal(type("Beak Length (mm)"), "sc:Float");
    assert.equal(type("Species"), "sc:Text");
    const origin = new URL(cli.url).origin;
    for (const object of document.distribution) {
      assert.equal(object.contentUrl, `${origin}/dav-anon${penguins}/${object.name}`);
    }
  });

  await t.step(
    "-o FILE writes it, with one summary line; --no-record-sets reads no table",
    async () => {
      const out = join(cli.dir, "penguins.json");
      const run = await cli.run(["croissant", "--no-record-sets", penguins, "-o", out]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "");
      assert.match(
        run.stderr,
        /^wrote the Croissant of Palmer Archipelago .* \(5 files, 0 record sets\) to .*penguins\.json\n$/,
      );
      assert.equal(JSON.parse(await Deno.readTextFile(out)).recordSet.length, 0);
    },
  );

  await t.step("-o - is a usage error, not a file named -", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const run = await cli.run(["croissant", penguins, "-o", "-"], { cwd: work });
    assertUsage(run, /-o - would write a file named "-"; without -o the document goes to stdout/);
    assert.deepEqual([...Deno.readDirSync(work)], []);
  });

  await t.step("a private dataset: download URLs, and no token anywhere", async () => {
    const out = join(cli.dir, "market.json");
    const run = await cli.run(["croissant", SAMPLE_CASES.userDataset, "-o", out, "-q"], {
      env: { TERRAIN_TOKEN: DEMO_USER.token },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    const text = await Deno.readTextFile(out);
    assert.ok(!text.includes(DEMO_USER.token));
    for (const object of JSON.parse(text).distribution) {
      assert.ok(object.contentUrl.startsWith(`${cli.url}/secured/fileio/download?path=`));
    }
  });

  await t.step(
    "usage errors: no DATASET, two, a bad --head-rows; a file is no dataset",
    async () => {
      assertUsage(await cli.run(["croissant"]), /missing DATASET/);
      assertUsage(await cli.run(["croissant", penguins, penguins]), /croissant takes one DATASET/);
      assertUsage(
        await cli.run(["croissant", "--head-rows", "0", penguins]),
        /--head-rows must be an integer ≥ 1, got "0"/,
      );
      assertFailed(await cli.run(["croissant", `${penguins}/penguins.csv`]), "\\w+Error");
    },
  );
});
