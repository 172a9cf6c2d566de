/**
 * A 100,000-entry folder, iterated to the end: right count, nothing repeated or missing, and
 * flat client memory. Heap use is measured after forced collections (`--expose-gc` set at run
 * time through node:v8), and the server runs in this process, so the first pass warms its
 * caches before the measured one.
 */

import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { fillFolder, generatedName, serve } from "../handles/_store.ts";

v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

const COUNT = 100_000;
const FOLDER = "/iplant/home/shared/big";

function heapUsed(): number {
  collectGarbage();
  return Deno.memoryUsage().heapUsed;
}

Deno.test("a 100,000-entry folder is listed to the end, once each, in flat memory", async () => {
  const root = await Deno.makeTempDir({ prefix: "tern-100k-" });
  try {
    let started = performance.now();
    await fillFolder(root, `${root}${FOLDER}`, COUNT);
    const fillMs = performance.now() - started;
    await using served = await serve({ root });
    const store = served.connect();
    const listing = store.folder(FOLDER).list();

    const before = store.stats.requests;
    assert.equal(await listing.count(), COUNT);
    assert.equal(store.stats.requests - before, 1);

    // The first pass keeps every entry: it warms the server's caches (it runs in this process)
    // before the measured pass, and shows what accumulation looks like to the measurement.
    const kept = await listing.toArray();
    assert.equal(kept.length, COUNT);
    const keptHeap = heapUsed();
    kept.length = 0;
    const baseline = heapUsed();
    const keptGrowth = keptHeap - baseline;

    // Names are sorted and generated in order, so comparing with the expected name checks
    // completeness and the absence of repeats without keeping anything.
    started = performance.now();
    let peak = 0;
    let index = 0;
    for await (const entry of listing) {
      if (entry.name !== generatedName(index)) {
        assert.fail(`entry ${index} is ${entry.name}, expected ${generatedName(index)}`);
      }
      if (++index % 10_000 === 0) peak = Math.max(peak, heapUsed() - baseline);
    }
    const iterateMs = performance.now() - started;
    assert.equal(index, COUNT);

    const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
    console.log(
      `100k: fill ${fillMs.toFixed(0)} ms, iterate ${iterateMs.toFixed(0)} ms, ` +
        `heap growth while iterating ${mb(peak)} MB vs ${mb(keptGrowth)} MB when kept`,
    );
    assert.ok(peak < 8e6, `heap grew ${mb(peak)} MB while iterating`);
    assert.ok(keptGrowth > 4 * Math.max(peak, 1e6), "the measurement can see accumulation");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
