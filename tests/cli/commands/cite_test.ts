import assert from "node:assert/strict";
import { SAMPLE_CASES, SAMPLE_FILES } from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, startCli } from "../_cli.ts";

Deno.test("tern cite: every style, several datasets, errors", async (t) => {
  await using cli = await startCli();
  const penguins = SAMPLE_CASES.fullMetadata;

  await t.step("DataCite by default, APA on request", async () => {
    const [datacite, apa] = await Promise.all([
      cli.run(["cite", penguins]),
      cli.run(["cite", "--style", "apa", penguins]),
    ]);
    assert.equal(
      datacite.stdout,
      "Gorman, K. B., Williams, T. D., Fraser, W. R. (2020). Palmer Archipelago (Antarctica) " +
        "penguin size measurements, 2007-2009. Version 1.0. CyVerse Data Commons. " +
        "https://doi.org/10.25739/9k2v-7q4m\n",
    );
    assert.match(apa.stdout, /^Gorman, K\. B\., Williams, T\. D\., & Fraser, W\. R\. \(2020\)\./);
    assert.match(
      apa.stdout,
      /\[Dataset\]\. CyVerse Data Commons\. https:\/\/doi\.org\/10\.25739\/9k2v-7q4m\n$/,
    );
  });

  await t.step("BibTeX and RIS for several datasets make one file", async () => {
    const [bibtex, ris] = await Promise.all([
      cli.run(["cite", "-s", "bibtex", penguins, SAMPLE_CASES.arkOnly]),
      cli.run(["cite", "-s", "ris", penguins, SAMPLE_CASES.arkOnly]),
    ]);
    assert.equal(bibtex.code, 0, bibtex.stderr);
    assert.equal(bibtex.stdout.match(/^@\w+\{/gm)?.length, 2);
    assert.match(bibtex.stdout, /doi = \{10\.25739\/9k2v-7q4m\}/);
    assert.equal(ris.stdout.match(/^TY {2}- /gm)?.length, 2);
    assert.equal(ris.stdout.match(/^ER {2}- ?$/gm)?.length, 2);
  });

  await t.step(
    "JSON-LD: one dataset is one object, several one array; CFF documents apart",
    async () => {
      const [one, two, cff] = await Promise.all([
        cli.run(["cite", "--style", "jsonld", penguins]),
        cli.run(["cite", "--style", "jsonld", penguins, SAMPLE_CASES.arkOnly]),
        cli.run(["cite", "--style", "cff", penguins, SAMPLE_CASES.arkOnly]),
      ]);
      assert.equal(JSON.parse(one.stdout)["@type"], "Dataset");
      const both = JSON.parse(two.stdout);
      assert.ok(Array.isArray(both));
      assert.deepEqual(both.map((item: { "@type": string }) => item["@type"]), [
        "Dataset",
        "Dataset",
      ]);
      assert.equal(cff.code, 0, cff.stderr);
      const documents = cff.stdout.split(/^---$/m);
      assert.equal(documents.length, 2);
      for (const document of documents) assert.match(document, /^cff-version: "?1\.2\.0"?$/m);
    },
  );

  await t.step("CSL-JSON for several datasets is one JSON array", async () => {
    const run = await cli.run(["cite", "--style", "csl-json", penguins, SAMPLE_CASES.arkOnly]);
    const items = JSON.parse(run.stdout);
    assert.equal(items.length, 2);
    assert.equal(items[0].DOI, "10.25739/9k2v-7q4m");
  });

  await t.step(
    "a folder without dataset metadata: a warning, exit 1, unless --allow-missing",
    async () => {
      const bare = SAMPLE_CASES.noMetadata;
      const warning =
        `warning: ${bare} has no dataset metadata (no title, DOI or ARK): not cited; ` +
        "--allow-missing cites it by its folder name and path\n";
      const [refused, mixed, allowed] = await Promise.all([
        cli.run(["cite", bare]),
        cli.run(["cite", "-s", "bibtex", penguins, bare]),
        cli.run(["cite", "-s", "bibtex", "--allow-missing", bare]),
      ]);
      assert.equal(refused.code, 1);
      assert.equal(refused.stdout, "");
      assert.equal(refused.stderr, warning);
      // The others are still cited; the run still fails, so a script notices.
      assert.equal(mixed.code, 1);
      assert.equal(mixed.stderr, warning);
      assert.equal(mixed.stdout.match(/^@misc\{/gm)?.length, 1);
      assert.match(mixed.stdout, /^@misc\{Gorman2020Palmer,/);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.match(
        allowed.stderr,
        /^warning: .* has no dataset metadata .*: cited by its folder name and path\n$/,
      );
      assert.equal(
        allowed.stdout,
        [
          "@misc{WhitfieldCountyUnemployment2017,",
          "\tnote = {/iplant/home/shared/commons\\_repo/curated/Whitfield\\_CountyUnemployment\\_2017},",
          "\ttitle = {{[Whitfield\\_CountyUnemployment\\_2017]}},",
          "}",
          "",
        ].join("\n"),
      );
    },
  );

  await t.step("errors: an unknown style, a file, a missing dataset", async () => {
    const [style, file, missing] = await Promise.all([
      cli.run(["cite", "--style", "mla", penguins]),
      cli.run(["cite", SAMPLE_FILES.csv]),
      cli.run(["cite", `${penguins}_nope`]),
    ]);
    assertUsage(
      style,
      /--style must be one of datacite, apa, bibtex, ris, csl-json, jsonld, cff, got "mla"/,
    );
    assertFailed(file, "BadRequestError", /tern cite needs a dataset folder, and ".*" is a file/);
    assertFailed(missing, "NotFoundError");
  });
});
