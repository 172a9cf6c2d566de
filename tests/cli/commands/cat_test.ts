import assert from "node:assert/strict";
import { join } from "node:path";
import { FORMATS_PATH, SAMPLE_CASES, SAMPLE_FILES } from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, startCli } from "../_cli.ts";

Deno.test("tern cat: exact bytes, several files, early readers, errors", async (t) => {
  await using cli = await startCli();
  const disk = (path: string) => Deno.readFile(join(cli.root, path));

  await t.step("text and binary files come out byte for byte", async () => {
    for (const path of [SAMPLE_FILES.text, SAMPLE_FILES.png, SAMPLE_FILES.parquet]) {
      const run = await cli.run(["cat", path]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(run.bytes, await disk(path), path);
      assert.equal(run.stderr, "");
    }
  });

  await t.step("several files are concatenated in order", async () => {
    const run = await cli.run(["cat", SAMPLE_FILES.text, SAMPLE_FILES.csv]);
    const expected = new Uint8Array([
      ...await disk(SAMPLE_FILES.text),
      ...await disk(SAMPLE_FILES.csv),
    ]);
    assert.deepEqual(run.bytes, expected);
  });

  await t.step("a reader that stops early ends a 13 MB download quietly", async () => {
    const child = cli.spawn(["cat", SAMPLE_CASES.parquetLarge]);
    const reader = child.stdout.getReader();
    const first = await reader.read();
    assert.ok(!first.done);
    assert.deepEqual([...first.value.slice(0, 4)], [0x50, 0x41, 0x52, 0x31]); // "PAR1"
    await reader.cancel();
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    assert.equal(status.code, 0, stderr);
    assert.equal(stderr, "");
  });

  await t.step("errors: a folder, a missing file among others, no PATH", async () => {
    const [folder, missing, none] = await Promise.all([
      cli.run(["cat", FORMATS_PATH]),
      cli.run(["cat", `${FORMATS_PATH}/nope.txt`, SAMPLE_FILES.text]),
      cli.run(["cat"]),
    ]);
    assertFailed(folder, "BadRequestError", /not a file/);
    assertFailed(missing, "NotFoundError");
    assert.deepEqual(missing.bytes, await disk(SAMPLE_FILES.text));
    assertUsage(none, /missing PATH/);
  });

  await t.step("a misspelt name: did you mean the file its folder's listing shows", async () => {
    const run = await cli.run(["cat", `${FORMATS_PATH}/READM.txt`]);
    assertFailed(
      run,
      "NotFoundError",
      new RegExp(`Did you mean "${FORMATS_PATH}/README\\.txt"\\?$`, "m"),
    );
  });
});
