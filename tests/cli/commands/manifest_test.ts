import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "../../../polars.ts";
import { DEMO_USER, FORMATS_PATH } from "../../../lib/sample/mod.ts";
import { engineSnippets, snippetPlan } from "../../../mod.ts";
import { assertUsage, startCli } from "../_cli.ts";

Deno.test("tern manifest: a folder's files as CSV, JSON or Parquet; private files by token; --code", async (t) => {
  await using cli = await startCli();

  await t.step("--glob picks the files; the format follows the extension", async () => {
    const csv = join(cli.dir, "formats.csv");
    const run = await cli.run(["manifest", "--glob", "*.{csv,parquet}", FORMATS_PATH, "-o", csv]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, `wrote 2 files to ${csv}\n`);
    const frame = pl.readCSV(csv);
    assert.deepEqual(frame.getColumn("path").toArray(), [
      `${FORMATS_PATH}/penguins.csv`,
      `${FORMATS_PATH}/penguins.parquet`,
    ]);
    assert.deepEqual(frame.getColumn("access").toArray(), ["public", "public"]);
    const origin = new URL(cli.url).origin;
    assert.deepEqual(
      frame.getColumn("url").toArray(),
      frame.getColumn("path").toArray().map((path) => `${origin}/dav-anon${path}`),
    );

    const json = join(cli.dir, "formats.json");
    assert.equal((await cli.run(["manifest", FORMATS_PATH, "-o", json, "-q"])).stderr, "");
    const rows = JSON.parse(await Deno.readTextFile(json));
    assert.equal(
      rows.length,
      (await Array.fromAsync(Deno.readDir(join(cli.root, FORMATS_PATH))))
        .filter((entry) => entry.isFile && !entry.name.startsWith(".")).length,
    );
    const parquet = join(cli.dir, "formats.parquet");
    assert.equal((await cli.run(["manifest", FORMATS_PATH, "-o", parquet, "-q"])).code, 0);
    assert.deepEqual(
      pl.readParquet(parquet).getColumn("path").toArray(),
      rows.map((r: { path: string }) => r.path),
    );
  });

  await t.step("a signed-in caller's private files: Terrain's download URL, no token", async () => {
    const out = join(cli.dir, "mine.csv");
    const run = await cli.run(["manifest", DEMO_USER.home, "--glob", "*.csv", "-o", out], {
      env: { TERRAIN_TOKEN: DEMO_USER.token },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /^wrote 2 files to .*; 2 private: read with your token as a bearer header\n$/,
    );
    const text = await Deno.readTextFile(out);
    assert.ok(!text.includes(DEMO_USER.token));
    const rows = pl.readCSV(out).toRecords();
    assert.deepEqual(rows.map((row) => row.access), ["token", "token"]);
    for (const row of rows) {
      // Non-ASCII and spaces are encoded in the query; the server reads the path back from it.
      const url = String(row.url);
      assert.equal(
        url,
        `${cli.url}/secured/fileio/download?path=${
          encodeURIComponent(String(row.path)).replaceAll("%20", "+")
        }`,
      );
      const read = await fetch(url, { headers: { authorization: `Bearer ${DEMO_USER.token}` } });
      assert.deepEqual(
        new Uint8Array(await read.arrayBuffer()),
        await Deno.readFile(join(cli.root, String(row.path))),
      );
    }
  });

  await t.step(
    "--code ENGINE: stdout is only that engine's code for FILE, TSV included",
    async () => {
      const expected: Record<string, RegExp[]> = {
        dask: [
          /^manifest = pd\.read_csv\("formats\.csv"\)/m,
          /^ {8}dd\.read_csv\(urls\("public", "tsv"\), sep="\\t", blocksize="16MB"\),$/m,
          /^ {8}dd\.read_json\(urls\("public", "ndjson"\), orient="records", lines=True,/m,
          /^ {8}dd\.read_parquet\(urls\("public", "parquet"\)\),$/m,
        ],
        duckdb: [
          /^manifest = db\.read_csv\("formats\.csv"\)\.df\(\)/m,
          /^public = public\.union\(db\.read_csv\(urls\("public", "tsv"\), sep="\\t"\)\)$/m,
        ],
        polars: [
          /^manifest = pl\.read_csv\("formats\.csv"\)/m,
          /^ {4}pl\.scan_csv\(urls\("public", "tsv"\), separator="\\t"\),$/m,
        ],
      };
      for (const [engine, patterns] of Object.entries(expected)) {
        const run = await cli.run([
          "manifest",
          FORMATS_PATH,
          "-o",
          "formats.csv",
          "--code",
          engine,
        ]);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stderr, /^wrote \d+ files to formats\.csv\n$/);
        const frame = pl.readCSV(join(cli.dir, "formats.csv"));
        const plan = snippetPlan(frame, { manifest: "formats.csv", store: cli.url });
        assert.deepEqual(plan.public, ["csv", "tsv", "json", "ndjson", "parquet", "arrow"]);
        const snippet = engineSnippets(plan).find((each) => each.engine.toLowerCase() === engine);
        assert.equal(run.stdout, snippet?.code);
        for (const pattern of patterns) assert.match(run.stdout, pattern, engine);
        // Public files only: no token, and no store to check.
        assert.ok(!run.stdout.includes("TERRAIN_TOKEN"), engine);
        assert.match(run.stdout, /^ *# Not read here: the public Arrow IPC files/m, engine);
      }
    },
  );

  await t.step(
    "--code with private files: the token from the environment, for this store only",
    async () => {
      const run = await cli.run(
        ["manifest", DEMO_USER.home, "--glob", "*.csv", "-o", "mine.json", "--code", "dask", "-q"],
        { env: { TERRAIN_TOKEN: DEMO_USER.token } },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, "");
      assert.match(run.stdout, /^manifest = pd\.read_json\("mine\.json", orient="records"\)/m);
      assert.ok(run.stdout.includes(`STORE = "${cli.url}"\n`));
      assert.ok(run.stdout.includes('"Bearer " + os.environ["TERRAIN_TOKEN"]'));
      assert.ok(
        run.stdout.includes(
          'dd.read_csv(urls("token", "csv"), blocksize=None, storage_options=auth)',
        ),
      );
      assert.ok(!run.stdout.includes(DEMO_USER.token));
    },
  );

  await t.step("usage errors before any request", async () => {
    const before = cli.server.stats().requests;
    assertUsage(await cli.run(["manifest", FORMATS_PATH]), /missing -o FILE/);
    assertUsage(
      await cli.run(["manifest", FORMATS_PATH, "-o", join(cli.dir, "m.txt")]),
      /must end in \.csv, \.json or \.parquet/,
    );
    assertUsage(await cli.run(["manifest", "-o", join(cli.dir, "m.csv")]), /missing FOLDER/);
    assertUsage(
      await cli.run(["manifest", FORMATS_PATH, "-o", join(cli.dir, "m.csv"), "--code", "spark"]),
      /--code "spark": the engine is one of dask, duckdb, polars/,
    );
    assert.equal(cli.server.stats().requests, before);
    assert.ok(!(await Array.fromAsync(Deno.readDir(cli.dir))).some((e) => e.name === "m.csv"));
  });
});
