import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PENGUIN_ROWS, SAMPLE_FILES } from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, lines, startCli } from "../_cli.ts";
import pl from "../../../polars.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

Deno.test("tern head: tables from every format, CSV and JSON output, errors", async (t) => {
  await using cli = await startCli();
  const csvLines = (await Deno.readTextFile(join(cli.root, SAMPLE_FILES.csv))).split("\n");

  await t.step(
    "the table docs/cli.md shows, the same from CSV, Parquet, gzip and Arrow",
    async () => {
      const documented = (await Deno.readTextFile(join(REPO, "docs", "cli.md")))
        .match(/^\$ tern head -n 3 (\S+)\n([\s\S]*?)\n```$/m);
      assert.ok(documented, "docs/cli.md shows tern head -n 3");
      assert.equal(documented[1], SAMPLE_FILES.parquet);
      const runs = await Promise.all(
        [SAMPLE_FILES.parquet, SAMPLE_FILES.csv, SAMPLE_FILES.csvGz, SAMPLE_FILES.arrow].map((
          path,
        ) => cli.run(["head", "-n", "3", path])),
      );
      for (const run of runs) {
        assert.equal(run.code, 0, run.stderr);
        // Not a terminal: 160 columns, so nothing is wrapped.
        assert.equal(run.stdout, `${documented[2]}\n`);
      }
    },
  );

  await t.step("every row asked for, past Polars' default of ten", async () => {
    const run = await cli.run(["head", "-n", "12", SAMPLE_FILES.parquet]);
    assert.match(run.stdout, /^shape: \(12, 7\)$/m);
    assert.equal(lines(run).filter((line) => line.startsWith("│ Adelie")).length, 12);
    assert.doesNotMatch(run.stdout, /│ …/);
  });

  await t.step(
    "--csv gives the file's first rows back (numbers as Polars writes them)",
    async () => {
      const run = await cli.run(["head", "--csv", "-n", "5", SAMPLE_FILES.tsv]);
      assert.equal(run.code, 0, run.stderr);
      const cells = (text: string) =>
        text.split(",").map((cell) =>
          cell === "" || Number.isNaN(Number(cell)) ? cell : Number(cell)
        );
      assert.deepEqual(lines(run).map(cells), csvLines.slice(0, 6).map(cells));
    },
  );

  await t.step("--json: one object per row, numbers as numbers", async () => {
    const run = await cli.run(["head", "--json", "-n", "2", SAMPLE_FILES.ndjson]);
    const rows = lines(run).map((line) => JSON.parse(line));
    assert.equal(rows.length, 2);
    assert.equal(rows[0].Species, "Adelie");
    assert.equal(typeof rows[0]["Body Mass (g)"], "number");
  });

  await t.step("-n larger than the table gives the whole table", async () => {
    const run = await cli.run(["head", "--json", "-n", "100000", SAMPLE_FILES.csv]);
    assert.equal(lines(run).length, PENGUIN_ROWS);
  });

  await t.step("errors: not a table, bad -n, both formats", async () => {
    const [png, rows, both] = await Promise.all([
      cli.run(["head", SAMPLE_FILES.png]),
      cli.run(["head", "-n", "-1", SAMPLE_FILES.csv]),
      cli.run(["head", "--csv", "--json", SAMPLE_FILES.csv]),
    ]);
    assertFailed(png, "UnsupportedFormatError", /it is a PNG image/);
    assert.match(png.stderr, /hint: "tern cat" prints any file's bytes/);
    assertUsage(rows, /needs a value|must be an integer/);
    assertUsage(both, /--csv and --json cannot be combined/);
  });
});

Deno.test('tern head --json: NaN and the infinities as "NaN", "Infinity", "-Infinity", not null', async () => {
  const root = await Deno.makeTempDir({ prefix: "tern-head-store-" });
  try {
    const path = "/iplant/home/shared/floats.parquet";
    await Deno.mkdir(`${root}/iplant/home/shared`, { recursive: true });
    const x = pl.Series("x", [1.5, NaN, Infinity, -Infinity, null], pl.Float64);
    await Deno.writeFile(`${root}${path}`, pl.DataFrame([x]).writeParquet());
    await using cli = await startCli({ root });
    const run = await cli.run(["head", "--json", path]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(lines(run).map((line) => JSON.parse(line).x), [
      1.5,
      "NaN",
      "Infinity",
      "-Infinity",
      null,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
