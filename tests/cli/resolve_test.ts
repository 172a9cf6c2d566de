import assert from "node:assert/strict";
import { SAMPLE_CASES, SAMPLE_FILES } from "../../lib/sample/mod.ts";
import { assertFailed, assertUsage, startCli } from "./_cli.ts";

Deno.test("tern: every command taking a PATH also takes URLs, links, DOIs and ARKs", async (t) => {
  await using cli = await startCli();
  const origin = cli.url.replace(/\/terrain$/, "");

  await t.step("stat by DOI, by DE data link and by dav-anon URL", async () => {
    const byPath = JSON.parse(
      (await cli.run(["stat", "--json", SAMPLE_CASES.fullMetadata])).stdout,
    );
    const byDoi = await cli.run(["stat", "--json", "https://doi.org/10.25739/9k2v-7q4m"]);
    assert.equal(byDoi.code, 0, byDoi.stderr);
    assert.equal(JSON.parse(byDoi.stdout).path, byPath.path);
    const link = `${origin}/data/ds${SAMPLE_FILES.csv}`;
    const byLink = await cli.run(["stat", "--json", link]);
    assert.equal(JSON.parse(byLink.stdout).path, SAMPLE_FILES.csv);
    // A link to another store is refused rather than read from this one.
    const other = await cli.run(["stat", `https://de.cyverse.org/data/ds${SAMPLE_FILES.csv}`]);
    assertFailed(other, "OtherStoreError");
  });

  await t.step("head of a file named by its dav-anon URL", async () => {
    const run = await cli.run([
      "head",
      "-n",
      "2",
      "--csv",
      `${origin}/dav-anon${SAMPLE_FILES.csv}`,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim().split("\n").length, 3);
  });

  await t.step("an unknown DOI fails as not found; a non-name is a usage error", async () => {
    assertFailed(await cli.run(["stat", "doi:10.9999/nothing"]), "NotFoundError");
    assertUsage(await cli.run(["stat", "shared/data.csv"]), /is not a data-store path/);
  });
});
