import assert from "node:assert/strict";
import { join } from "node:path";
import { connect } from "../../../mod.ts";
import { CURATED_PATH, DEMO_USER, FORMATS_PATH } from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, lines, startCli } from "../_cli.ts";

const SIGNED_IN = { env: { TERRAIN_TOKEN: DEMO_USER.token } };
const PENGUINS = `${CURATED_PATH}/Gorman_PalmerPenguins_Morphometrics_2020`;

/** The files in the formats folder, as the store's folder on disk has them. */
async function formatsOnDisk(root: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  for await (const item of Deno.readDir(join(root, FORMATS_PATH))) {
    if (item.name.startsWith(".")) continue; // sidecars are never hits
    files.set(
      `${FORMATS_PATH}/${item.name}`,
      (await Deno.stat(join(root, FORMATS_PATH, item.name))).size,
    );
  }
  return files;
}

Deno.test("tern search: paths, combined flags, sort, limit, JSON, CSV, saved searches", async (t) => {
  await using cli = await startCli();
  const search = (...args: string[]) => cli.run(["search", ...args], SIGNED_IN);
  const onDisk = await formatsOnDisk(cli.root);

  await t.step("one path per line and nothing else, every hit once", async () => {
    const run = await search("--under", `${FORMATS_PATH}/`);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(lines(run).sort(), [...onDisk.keys()].sort());
    assert.equal(run.stderr, "");
  });

  await t.step("flags combine with all; a --query is one more condition", async () => {
    const csvAnywhere = lines(await search("--name", "*.csv"));
    assert.ok(csvAnywhere.some((path) => !path.startsWith(FORMATS_PATH)), csvAnywhere.join("\n"));
    assert.deepEqual(lines(await search("--name", "*.csv", "--under", `${FORMATS_PATH}/`)), [
      `${FORMATS_PATH}/penguins.csv`,
    ]);
    // --meta repeated: both pairs must hold.
    assert.deepEqual(lines(await search("--meta", "rights=CC0", "--meta", "subject=penguins")), [
      PENGUINS,
    ]);
    assert.deepEqual(lines(await search("--meta", "rights=CC0", "--meta", "subject=maize")), []);
    const query = JSON.stringify({ any: [{ type: "label", args: { label: "*.tsv" } }] });
    assert.deepEqual(lines(await search("--query", query, "--under", `${FORMATS_PATH}/`)), [
      `${FORMATS_PATH}/penguins.tsv`,
    ]);
  });

  await t.step("--sort FIELD[:asc|desc] and --limit", async () => {
    const biggest = await search(
      "--under",
      `${FORMATS_PATH}/`,
      "--sort",
      "size:desc",
      "--limit",
      "2",
    );
    assert.deepEqual(lines(biggest), [
      `${FORMATS_PATH}/penguins.json`,
      `${FORMATS_PATH}/penguins.ndjson`,
    ]);
    const bySize = [...onDisk].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
    const ascending = lines(
      await search("--under", `${FORMATS_PATH}/`, "--sort", "fileSize", "--sort", "path"),
    );
    assert.deepEqual(ascending, bySize.map(([path]) => path));
  });

  await t.step("--json: the entry with its creator and metadata", async () => {
    const [hit, ...rest] = lines(
      await search("--meta", "subject=penguins", "--meta", "rights=CC0", "--json"),
    )
      .map((line) => JSON.parse(line));
    assert.equal(rest.length, 0);
    assert.equal(hit.path, PENGUINS);
    assert.equal(hit.type, "folder");
    assert.equal(hit.creator, "curator");
    assert.ok(
      hit.metadata.some((avu: { attribute: string; value: string }) =>
        avu.attribute === "rights" && avu.value === "CC0"
      ),
    );
  });

  await t.step("--csv: a header, then one row per hit with exact sizes", async () => {
    const [header, ...rows] = lines(await search("--under", `${FORMATS_PATH}/`, "--csv"));
    assert.equal(header, "path,name,type,size,modified,created,creator");
    assert.equal(rows.length, onDisk.size);
    for (const row of rows) {
      const [path, name, type, size, modified] = row.split(",");
      assert.equal(path, `${FORMATS_PATH}/${name}`);
      assert.equal(type, "file");
      assert.equal(Number(size), onDisk.get(path));
      assert.equal(new Date(modified).toISOString(), modified);
    }
  });

  await t.step("--saved runs a saved search as the library does", async () => {
    await using store = await connect({ url: cli.url, token: DEMO_USER.token });
    const expected = (await store.runSavedSearch("Penguin tables").toArray())
      .map((hit) => hit.path);
    assert.ok(expected.length > 0);
    assert.deepEqual(lines(await search("--saved", "Penguin tables")), expected);
    assertFailed(await search("--saved", "Nope"), "NotFoundError", /"Penguin tables"/);
  });

  await t.step("bad input is a usage error naming it", async () => {
    assertUsage(await search(), /nothing to search for/);
    assertUsage(await search("--query", "{all:"), /--query is not JSON/);
    assertUsage(
      await search("--query", '{"all":[{"type":"path","args":{}}]}'),
      /query\.all\[0\]\.all\[0\]\.args\.prefix is missing/,
    );
    assertUsage(
      await search("--name", "x", "--sort", "bigness"),
      /--sort must be FIELD\[:asc\|desc\]/,
    );
    assertUsage(await search("--name", "x", "--sort", "size:up"), /got "size:up"/);
    assertUsage(
      await search("--saved", "Penguin tables", "--name", "x"),
      /--saved runs a saved search/,
    );
    assertUsage(
      await search("--name", "x", "--json", "--csv"),
      /--json and --csv cannot be combined/,
    );
    assertUsage(await search("--meta", "=maize"), /--meta needs ATTR or ATTR=VALUE/);
    assertUsage(await search("--under", "shared"), /not a data-store path/);
    // A bare argument: the option it was likely meant as.
    assertUsage(
      await search(FORMATS_PATH),
      new RegExp(
        `unexpected argument "${FORMATS_PATH}": .*did you mean --under ${FORMATS_PATH}\\?`,
      ),
    );
    for (const given of ["subject=maize", "subject == 'maize'", 'subject=="maize"']) {
      assertUsage(
        await search(given),
        /search takes options only; did you mean --meta subject=maize\?/,
      );
    }
    assertUsage(await search("*.parquet"), /did you mean --name \*\.parquet\?/);
  });

  await t.step("--help lists the query options", async () => {
    const run = await cli.run(["search", "--help"]);
    assert.equal(run.code, 0);
    for (const option of ["--query JSON", "--meta ATTR[=VALUE]", "--under PATH", "--saved NAME"]) {
      assert.ok(run.stdout.includes(option), option);
    }
  });
});

Deno.test("tern search: a table on a terminal, with the count of hits", async () => {
  await using cli = await startCli();
  const child = cli.spawnOnTerminal(
    ["search", "--under", `${FORMATS_PATH}/`, "--sort", "size:desc", "--limit", "3"],
    SIGNED_IN,
  );
  await child.stdin.close();
  const { code, stdout } = await child.output();
  const screen = new TextDecoder().decode(stdout).replaceAll("\r", "");
  assert.equal(code, 0, screen);
  const rows = screen.split("\n").filter((line) => line !== "");
  assert.equal(rows.length, 4, screen);
  assert.match(
    rows[0],
    /^- +67\.1 kB {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}json +.*\/formats\/penguins\.json$/,
  );
  assert.match(rows[3], /3 hits of 9/);
});
