/**
 * The separator of a `.csv` whose header has a comma, read over loopback from the embedded
 * server: decimal commas as many to a line as the header's commas, and blank lines, must not
 * make a semicolon export be read with commas.
 *
 * @module
 */

import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { DATA, dataStore } from "./_store.ts";

Deno.test("a semicolon .csv whose lines hold as many commas as its header is read with semicolons", async () => {
  await using served = await dataStore({
    // A spectrum named by wavelength, after a line of notes; units after a comma; a blank first line.
    [`${DATA}/eu/spectrum.csv`]: "exported 2026-11-29\nnm;350,5\n1;0,25\n2;0,5\n",
    [`${DATA}/eu/units.csv`]: "Temp, °C;Rain, mm\r\n1,5;2,5\r\n3,0;4,5\r\n",
    [`${DATA}/eu/blank.csv`]: "\nnm;350,5\n1;0,25\n",
  });
  const store = served.connect();
  const read = (name: string, options = {}) =>
    store.file(`${DATA}/eu/${name}`).dataframe({ decimalComma: true, ...options });

  const spectrum = await read("spectrum.csv", { skipRows: 1 });
  assert.deepEqual(spectrum.columns, ["nm", "350,5"]);
  assert.deepEqual(spectrum.getColumn("350,5").toArray(), [0.25, 0.5]);
  const scanned = await (await store.file(`${DATA}/eu/spectrum.csv`).scan({
    decimalComma: true,
    skipRows: 1,
  })).collect();
  assert.deepEqual(scanned.toRecords(), spectrum.toRecords());

  const units = await read("units.csv");
  assert.deepEqual(units.columns, ["Temp, °C", "Rain, mm"]);
  assert.deepEqual(units.dtypes, [pl.Float64, pl.Float64]);
  assert.deepEqual(units.getColumn("Rain, mm").toArray(), [2.5, 4.5]);

  const blank = await read("blank.csv");
  assert.deepEqual(blank.columns, ["nm", "350,5"]);
  assert.deepEqual(blank.getColumn("350,5").toArray(), [0.25]);
});
