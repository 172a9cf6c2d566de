import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "../../../polars.ts";
import { DEMO_USER, FORMATS_PATH } from "../../../lib/sample/mod.ts";
import { assertUsage, startCli } from "../_cli.ts";

Deno.test("tern manifest: a folder's files as CSV, JSON or Parquet; private files by token", async (t) => {
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

  await t.step("usage errors before any request", async () => {
    const before = cli.server.stats().requests;
    assertUsage(await cli.run(["manifest", FORMATS_PATH]), /missing -o FILE/);
    assertUsage(
      await cli.run(["manifest", FORMATS_PATH, "-o", join(cli.dir, "m.txt")]),
      /must end in \.csv, \.json or \.parquet/,
    );
    assertUsage(await cli.run(["manifest", "-o", join(cli.dir, "m.csv")]), /missing FOLDER/);
    assert.equal(cli.server.stats().requests, before);
    assert.ok(!(await Array.fromAsync(Deno.readDir(cli.dir))).some((e) => e.name === "m.csv"));
  });
});
