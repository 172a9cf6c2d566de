import assert from "node:assert/strict";
import { join } from "node:path";
import {
  FORMATS_PATH,
  MANY_FILES_COUNT,
  MANY_FILES_PATH,
  MANY_FILES_SUBFOLDERS,
  TERN_SAMPLES_PATH,
} from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, lines, startCli } from "../_cli.ts";

/** The names in the formats folder, as `ls` of the store's folder on disk gives them. */
async function namesOnDisk(root: string, path: string): Promise<Map<string, Deno.FileInfo>> {
  const names = new Map<string, Deno.FileInfo>();
  for await (const item of Deno.readDir(join(root, path))) {
    if (item.name.startsWith(".")) continue; // sidecars are never listed
    names.set(item.name, await Deno.stat(join(root, path, item.name)));
  }
  return names;
}

Deno.test("tern ls: names, long format, JSON, sorting, filters, paging", async (t) => {
  await using cli = await startCli();
  const onDisk = await namesOnDisk(cli.root, FORMATS_PATH);

  await t.step("names, one per line, sorted by name", async () => {
    const run = await cli.run(["ls", FORMATS_PATH]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(lines(run), [...onDisk.keys()].sort());
    assert.equal(run.stderr, "");
  });

  await t.step("folders first, with a slash", async () => {
    const run = await cli.run(["ls", TERN_SAMPLES_PATH]);
    assert.deepEqual(lines(run), ["formats/", "many_files/", "README.txt"]);
  });

  await t.step("-l: kind, size, UTC date, file type, name; --bytes gives exact sizes", async () => {
    const [human, exact] = await Promise.all([
      cli.run(["ls", "-l", FORMATS_PATH]),
      cli.run(["ls", "-l", "--bytes", FORMATS_PATH]),
    ]);
    const csv = lines(human).find((line) => line.endsWith(" penguins.csv"));
    assert.match(csv!, /^- +13\.5 kB {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}csv +penguins\.csv$/);
    for (const line of lines(exact)) {
      const [, size, name] = /^- +(\d+) .* (\S+)$/.exec(line)!;
      assert.equal(Number(size), onDisk.get(name)!.size, name);
    }
    // Terrain types only some formats; the others are named from the extension, not "unknown".
    const types = new Map(
      lines(human).map((line) => {
        const [, type, name] = /^- .* \d\d:\d\d {2}(\S+) +(\S+)$/.exec(line)!;
        return [name, type];
      }),
    );
    assert.deepEqual(Object.fromEntries(types), {
      "README.txt": "text",
      "penguin_body_mass.png": "png",
      "penguins.arrow": "arrow",
      "penguins.csv": "csv",
      "penguins.csv.gz": "gzip",
      "penguins.json": "json",
      "penguins.ndjson": "ndjson",
      "penguins.parquet": "parquet",
      "penguins.tsv": "tsv",
    });
    const folders = lines(await cli.run(["ls", "-l", TERN_SAMPLES_PATH]));
    assert.match(folders[0], /^d +- {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}- +formats\/$/);
  });

  await t.step("--json: one object per line with exact sizes and ISO dates", async () => {
    const run = await cli.run(["ls", "--json", FORMATS_PATH]);
    const entries = lines(run).map((line) => JSON.parse(line));
    assert.equal(entries.length, onDisk.size);
    for (const entry of entries) {
      assert.equal(entry.path, `${FORMATS_PATH}/${entry.name}`);
      assert.equal(entry.type, "file");
      assert.equal(entry.size, onDisk.get(entry.name)!.size);
      assert.equal(new Date(entry.modified).toISOString(), entry.modified);
      assert.match(entry.id, /^[0-9a-f-]{36}$/);
    }
  });

  await t.step("--sort size --order desc --type file, done by the server", async () => {
    const run = await cli.run(["ls", "--json", "--sort", "size", "--order", "desc", FORMATS_PATH]);
    const sizes = lines(run).map((line) => JSON.parse(line).size as number);
    assert.deepEqual(sizes, [...onDisk.values()].map((info) => info.size).sort((a, b) => b - a));
    const files = await cli.run(["ls", "--type", "file", TERN_SAMPLES_PATH]);
    assert.deepEqual(lines(files), ["README.txt"]);
  });

  await t.step("--glob filters names; -p prints full paths", async () => {
    const run = await cli.run(["ls", "-p", "--glob", "*.parquet", FORMATS_PATH]);
    assert.deepEqual(lines(run), [`${FORMATS_PATH}/penguins.parquet`]);
  });

  await t.step("a folder of 20,003 entries lists completely, page by page", async () => {
    const run = await cli.run(["ls", MANY_FILES_PATH]);
    const names = lines(run);
    assert.equal(names.length, MANY_FILES_COUNT + MANY_FILES_SUBFOLDERS.length);
    assert.deepEqual(names.slice(0, 4), [
      ...MANY_FILES_SUBFOLDERS.map((f) => `${f}/`),
      "part-00001.csv",
    ]);
    assert.equal(names.at(-1), "part-20000.csv");
    assert.equal(new Set(names).size, names.length);
  });

  await t.step("--limit stops early and asks for one small page", async () => {
    const before = cli.server.stats().requests;
    const run = await cli.run(["ls", "--limit", "3", "--type", "file", MANY_FILES_PATH]);
    assert.deepEqual(lines(run), ["part-00001.csv", "part-00002.csv", "part-00003.csv"]);
    assert.ok(cli.server.stats().requests - before <= 2, "more than one page was requested");
  });

  await t.step("a reader that stops early ends the listing quietly with status 0", async () => {
    const child = cli.spawn(["ls", MANY_FILES_PATH]);
    const reader = child.stdout.getReader();
    const first = await reader.read();
    assert.ok(!first.done && first.value.length > 0);
    await reader.cancel();
    const [status, stderr] = await Promise.all([
      child.status,
      new Response(child.stderr).text(),
    ]);
    assert.equal(status.code, 0, stderr);
    assert.equal(stderr, "");
  });

  await t.step("a file PATH lists that file; several PATHs get headers", async () => {
    const file = await cli.run(["ls", "-l", `${FORMATS_PATH}/penguins.csv`]);
    assert.equal(lines(file).length, 1);
    assert.match(file.stdout, /penguins\.csv\n$/);
    const both = await cli.run(["ls", TERN_SAMPLES_PATH, `${FORMATS_PATH}/README.txt`]);
    assert.deepEqual(lines(both), [
      `${TERN_SAMPLES_PATH}:`,
      "formats/",
      "many_files/",
      "README.txt",
      "",
      `${FORMATS_PATH}/README.txt:`,
      "README.txt",
    ]);
  });

  await t.step("one missing PATH among others: the rest is listed, exit 1", async () => {
    const run = await cli.run(["ls", `${TERN_SAMPLES_PATH}/nope`, TERN_SAMPLES_PATH]);
    assertFailed(run, "NotFoundError");
    assert.ok(lines(run).includes("formats/"));
  });

  await t.step("bad option values are usage errors", async () => {
    const [limit, mixed, glob] = await Promise.all([
      cli.run(["ls", "--limit", "0", FORMATS_PATH]),
      cli.run(["ls", "--json", "-l", FORMATS_PATH]),
      cli.run(["ls", "--glob", "/abs/*.csv", FORMATS_PATH]),
    ]);
    assertUsage(limit, /--limit must be an integer ≥ 1, got "0"/);
    assertUsage(mixed, /--json and --long cannot be combined/);
    assertUsage(
      glob,
      /glob must be a pattern relative to the listed folder .*got "\/abs\/\*\.csv"/,
    );
  });
});

Deno.test("tern ls: names that could drive the terminal are printed escaped", async () => {
  const root = await Deno.makeTempDir({ prefix: "tern-cli-hostile-" });
  try {
    const folder = join(root, "iplant/home/shared/hostile");
    await Deno.mkdir(folder, { recursive: true });
    const name = "evil\x1b]0;owned\x07\u202Egnp.csv";
    await Deno.writeTextFile(join(folder, name), "a,b\n1,2\n");
    await using cli = await startCli({ root });
    const [text, long, json] = await Promise.all([
      cli.run(["ls", "/iplant/home/shared/hostile"]),
      cli.run(["ls", "-l", "/iplant/home/shared/hostile"]),
      cli.run(["ls", "--json", "/iplant/home/shared/hostile"]),
    ]);
    assert.equal(text.stdout, "evil\\x1b]0;owned\\x07\\u{202e}gnp.csv\n");
    assert.ok(!long.stdout.includes("\x1b") && long.stdout.includes("evil\\x1b]0;owned"));
    assert.equal(JSON.parse(json.stdout).name, name);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
