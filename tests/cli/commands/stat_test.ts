import assert from "node:assert/strict";
import { join } from "node:path";
import { DEMO_USER, FORMATS_PATH, SAMPLE_FILES } from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, lines, startCli } from "../_cli.ts";

Deno.test("tern stat: files and folders, by path or id, text and JSON", async (t) => {
  await using cli = await startCli();
  const csvOnDisk = await Deno.stat(join(cli.root, SAMPLE_FILES.csv));

  await t.step("a file: size, dates and media type as on disk, and its public URL", async () => {
    const run = await cli.run(["stat", SAMPLE_FILES.csv]);
    assert.equal(run.code, 0, run.stderr);
    const fields = new Map(
      lines(run).map((line) => {
        const [, key, value] = /^(\S+(?: \S+)?) {2,}(.*)$/.exec(line)!;
        return [key, value] as const;
      }),
    );
    assert.equal(fields.get("path"), SAMPLE_FILES.csv);
    assert.equal(fields.get("type"), "file");
    assert.equal(fields.get("size"), `${csvOnDisk.size.toLocaleString("en-US")} bytes (13.5 kB)`);
    assert.equal(
      fields.get("modified"),
      csvOnDisk.mtime!.toISOString().replace(/\.\d+Z$/, ".000Z"),
    );
    assert.equal(fields.get("file type"), "csv");
    assert.equal(fields.get("media type"), "text/csv");
    assert.equal(
      fields.get("public URL"),
      `${cli.url.replace(/\/terrain$/, "")}/dav-anon${SAMPLE_FILES.csv}`,
    );
  });

  await t.step("--json, and the same item by its id", async () => {
    const byPath = JSON.parse((await cli.run(["stat", "--json", SAMPLE_FILES.csv])).stdout);
    assert.equal(byPath.size, csvOnDisk.size);
    assert.equal(byPath.contentType, "text/csv");
    const byId = await cli.run(["stat", "--json", byPath.id]);
    assert.equal(byId.code, 0, byId.stderr);
    assert.deepEqual(JSON.parse(byId.stdout), byPath);
  });

  await t.step("a folder has no size or media type", async () => {
    const run = await cli.run(["stat", "--json", FORMATS_PATH]);
    const entry = JSON.parse(run.stdout);
    assert.equal(entry.type, "folder");
    assert.equal(entry.size, 0);
    assert.equal("contentType" in entry, false);
  });

  await t.step("a private file shows no public URL", async () => {
    const run = await cli.run(["--token", DEMO_USER.token, "stat", `${DEMO_USER.home}/notes.txt`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^public URL {2}none \(not public\)$/m);
  });

  await t.step("several PATHs: the missing one is reported, the others shown, exit 1", async () => {
    const run = await cli.run(["stat", "--json", `${FORMATS_PATH}/nope`, SAMPLE_FILES.csv]);
    assertFailed(run, "NotFoundError");
    assert.equal(lines(run).length, 1);
    assert.equal(JSON.parse(run.stdout).path, SAMPLE_FILES.csv);
  });

  await t.step("no PATH is a usage error", async () => {
    assertUsage(await cli.run(["stat"]), /missing PATH/);
  });
});
