import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { CURATED_PATH, FORMATS_PATH, TERN_SAMPLES_PATH } from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, lines, startCli } from "../_cli.ts";

/** Every entry under `path` in the store on disk (sidecars excluded), as relative paths. */
async function walkDisk(
  root: string,
  path: string,
): Promise<{ folders: string[]; files: string[] }> {
  const base = join(root, path);
  const folders: string[] = [];
  const files: string[] = [];
  const visit = async (dir: string) => {
    for await (const item of Deno.readDir(dir)) {
      if (item.name.startsWith(".")) continue;
      const full = join(dir, item.name);
      if (item.isDirectory) {
        folders.push(relative(base, full));
        await visit(full);
      } else {
        files.push(relative(base, full));
      }
    }
  };
  await visit(base);
  return { folders, files };
}

Deno.test("tern tree: drawing, depth, globs, JSON", async (t) => {
  await using cli = await startCli();

  await t.step("draws the whole tree depth first, counted like tree(1)", async () => {
    const run = await cli.run(["tree", CURATED_PATH]);
    assert.equal(run.code, 0, run.stderr);
    const disk = await walkDisk(cli.root, CURATED_PATH);
    const drawn = lines(run);
    assert.equal(drawn[0], CURATED_PATH);
    assert.equal(
      drawn.at(-1),
      `${disk.folders.length} folders, ${disk.files.length.toLocaleString("en-US")} files`,
    );
    // One line per entry between the root line and the blank line before the counts.
    assert.equal(drawn.length, 1 + disk.folders.length + disk.files.length + 2);
    // Depth first: a folder's entries follow it directly, one level deeper.
    const penguins = drawn.findIndex((line) =>
      line.endsWith("Gorman_PalmerPenguins_Morphometrics_2020/")
    );
    assert.match(drawn[penguins + 1], /^│ {3}[├└]── /);
    assert.match(drawn.at(-3)!, /^ {4}[└]── |^└── /);
  });

  await t.step("--max-depth 1 shows the folder's own entries only", async () => {
    const run = await cli.run(["tree", "--max-depth", "1", TERN_SAMPLES_PATH]);
    assert.deepEqual(lines(run), [
      TERN_SAMPLES_PATH,
      "├── formats/",
      "├── many_files/",
      "└── README.txt",
      "",
      "2 folders, 1 file",
    ]);
  });

  await t.step("--glob draws the matches under their folders", async () => {
    const run = await cli.run(["tree", "--glob", "**/*.parquet", CURATED_PATH]);
    assert.equal(run.code, 0, run.stderr);
    const disk = await walkDisk(cli.root, CURATED_PATH);
    const parquet = disk.files.filter((file) => file.endsWith(".parquet"));
    const drawn = lines(run);
    assert.equal(drawn.filter((line) => line.endsWith(".parquet")).length, parquet.length);
    assert.match(drawn.at(-1)!, new RegExp(`, ${parquet.length} files$`));
    assert.ok(!drawn.some((line) => line.endsWith(".csv")));
  });

  await t.step("--json streams every entry with its depth", async () => {
    const run = await cli.run(["tree", "--json", FORMATS_PATH.replace(/\/formats$/, "")]);
    const entries = lines(run).map((line) => JSON.parse(line));
    const disk = await walkDisk(cli.root, TERN_SAMPLES_PATH);
    assert.equal(entries.length, disk.folders.length + disk.files.length);
    const csv = entries.find((entry) => entry.path === `${FORMATS_PATH}/penguins.csv`);
    assert.equal(csv.depth, 2);
    assert.equal(csv.size, (await Deno.stat(join(cli.root, csv.path))).size);
  });

  await t.step("errors: a file, a missing folder, a bad depth", async () => {
    const [file, missing, depth, none] = await Promise.all([
      cli.run(["tree", `${FORMATS_PATH}/penguins.csv`]),
      cli.run(["tree", `${FORMATS_PATH}/nope`]),
      cli.run(["tree", "--max-depth", "0", FORMATS_PATH]),
      cli.run(["tree"]),
    ]);
    assertFailed(file, "BadRequestError", /is a file, not a folder/);
    assertFailed(missing, "NotFoundError");
    assertUsage(depth, /--max-depth must be an integer ≥ 1/);
    assertUsage(none, /missing PATH/);
  });
});
