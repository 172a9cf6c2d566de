import assert from "node:assert/strict";
import { join } from "node:path";
import { locateVegaDatasets, VegaDatasets, VegaDatasetsError } from "../../lib/sample/vega.ts";

Deno.test("locateVegaDatasets finds the installed package and its data files", async () => {
  const dir = await locateVegaDatasets();
  assert.ok(Deno.statSync(join(dir, "data", "penguins.json")).isFile);
  const vega = await VegaDatasets.open(dir);
  assert.equal(vega.version, "3.2.1");
  assert.equal((await vega.json<unknown[]>("barley.json")).length, 120);
  assert.equal(await vega.bytes("sp500.csv"), await vega.bytes("sp500.csv"), "cached");
  assert.equal(vega.resource("penguins.json")?.name, "penguins");
  assert.equal(vega.resource("no-such.csv"), undefined);
});

Deno.test("VegaDatasets reports missing packages and files with their location", async () => {
  const empty = await Deno.makeTempDir();
  try {
    await assert.rejects(VegaDatasets.open(empty), (e: unknown) => {
      assert.ok(e instanceof VegaDatasetsError);
      assert.match(e.message, /Cannot read package\.json of vega-datasets in /);
      return true;
    });
    const vega = await VegaDatasets.open();
    await assert.rejects(vega.bytes("no-such.csv"), /Cannot read no-such\.csv from .*data/);
  } finally {
    await Deno.remove(empty);
  }
});
