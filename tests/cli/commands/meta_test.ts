import assert from "node:assert/strict";
import { join } from "node:path";
import { FORMATS_PATH, SAMPLE_CASES } from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, lines, startCli } from "../_cli.ts";

/** The template AVUs of a sidecar on disk, in either of its two forms. */
async function sidecarAvus(file: string): Promise<{ attr: string; value: string }[]> {
  const parsed = JSON.parse(await Deno.readTextFile(file));
  return Array.isArray(parsed) ? parsed : parsed.avus;
}

Deno.test("tern meta: normalised records, raw AVUs, JSON", async (t) => {
  await using cli = await startCli();
  const penguins = SAMPLE_CASES.fullMetadata;

  await t.step("the normalised record: canonical DOI, licence, nothing missing", async () => {
    const run = await cli.run(["meta", penguins]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^title +Palmer Archipelago \(Antarctica\) penguin size/m);
    assert.match(
      run.stdout,
      /^doi +10\.25739\/9k2v-7q4m {2}https:\/\/doi\.org\/10\.25739\/9k2v-7q4m$/m,
    );
    assert.match(run.stdout, /^license +CC0-1\.0 \(Creative Commons Zero v1\.0 Universal; exact;/m);
    assert.match(run.stdout, /^citation lacks +nothing$/m);
    // Continuation lines of a multi-valued field are indented under its values.
    const creators = lines(run).findIndex((line) => line.startsWith("creators"));
    assert.match(lines(run)[creators + 1], /^ {16}Williams, Tony D\./);
  });

  await t.step("--json: the record without its raw AVUs", async () => {
    const record = JSON.parse((await cli.run(["meta", "--json", penguins])).stdout);
    assert.equal(record.doi, "10.25739/9k2v-7q4m");
    assert.equal(record.path, penguins);
    assert.deepEqual(record.missing, []);
    assert.equal(record.creators[0].family, "Gorman");
    assert.equal("raw" in record, false);
  });

  await t.step(
    "a dataset without metadata: an empty record that says what a citation lacks",
    async () => {
      const run = await cli.run(["meta", SAMPLE_CASES.noMetadata]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stdout,
        /^citation lacks +creators, title, publicationYear, publisher, doi$/m,
      );
    },
  );

  await t.step("--raw: the AVUs exactly as stored, nested ones indented", async () => {
    const stored = await sidecarAvus(join(cli.root, penguins, ".avus.json"));
    const raw = JSON.parse((await cli.run(["meta", "--raw", "--json", penguins])).stdout);
    assert.deepEqual(
      raw.avus.map((avu: { attr: string; value: string }) => [avu.attr, avu.value]),
      stored.map((avu) => [avu.attr, avu.value]),
    );
    const text = await cli.run(["meta", "--raw", penguins]);
    assert.match(text.stdout, new RegExp(`^AVUs \\(${stored.length}\\)$`, "m"));
    assert.match(text.stdout, /^ {2}title = Palmer Archipelago .*\n {4}xml:lang = en$/m);
  });

  await t.step("a file: says it is a file and shows its own metadata, no citation", async () => {
    const file = SAMPLE_CASES.fileWithMetadata;
    const stored = await sidecarAvus(
      join(cli.root, file.replace(/[^/]+$/, (name) => `.${name}.avus.json`)),
    );
    const run = await cli.run(["meta", file]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(lines(run).slice(0, 5), [
      `path      ${file}`,
      "type      file (its own metadata; a dataset's metadata is on its folder)",
      "size      13,487 bytes (13.5 kB)",
      "modified  2020-07-16T17:43:00.000Z",
      `AVUs      ${stored[0].attr} = ${stored[0].value}`,
    ]);
    assert.equal(lines(run).length, 4 + stored.length);
    assert.doesNotMatch(run.stdout, /citation lacks/);

    const record = JSON.parse((await cli.run(["meta", "--json", file])).stdout);
    assert.equal(record.path, file);
    assert.equal(record.type, "file");
    assert.equal(record.size, 13_487);
    assert.deepEqual(
      record.avus.map((avu: { attr: string; value: string }) => [avu.attr, avu.value]),
      stored.map((avu) => [avu.attr, avu.value]),
    );
    assert.equal("missing" in record, false);

    const bare = await cli.run(["meta", `${FORMATS_PATH}/penguins.csv`]);
    assert.match(bare.stdout, /^AVUs {6}none$/m);
  });

  await t.step("errors: missing dataset, no PATH", async () => {
    assertFailed(await cli.run(["meta", `${penguins}_nope`]), "NotFoundError");
    assertUsage(await cli.run(["meta"]), /missing PATH/);
  });
});
