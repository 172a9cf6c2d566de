/**
 * Many files into one DataFrame through `listing.dataframes()`: order, source column, overlap
 * up to the store's concurrency, progress events, differing columns, and failures.
 */

import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { BadRequestError } from "../../lib/client/errors.ts";
import { UnsupportedFormatError } from "../../lib/data/errors.ts";
import { ProgressChannel } from "../../lib/progress/channel.ts";
import type { ProgressEvent } from "../../lib/progress/events.ts";
import { DATA, dataStore } from "./_store.ts";

function partCsv(index: number): string {
  let text = "id,part,value\n";
  for (let row = 0; row < 5; row++) {
    text += `${index * 5 + row},${index},${(row * 1.5).toFixed(1)}\n`;
  }
  return text;
}

async function manyFiles(count: number, latencyMs = 0) {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`${DATA}/parts/${i % 2 === 0 ? "even" : "odd"}/part-${String(i).padStart(3, "0")}.csv`] =
      partCsv(i);
  }
  files[`${DATA}/parts/README.txt`] = "Parts of a table.\n";
  return await dataStore(files, { latencyMs });
}

Deno.test("files read concurrently land in listing order with their source path first", async () => {
  await using store = await manyFiles(24, 15);
  const tern = store.connect({ concurrency: 4 });
  const listing = tern.folder(`${DATA}/parts`).walk({ glob: "**/*.csv" });
  const entries = await listing.toArray();
  const frame = await listing.dataframes();
  assert.deepEqual(frame.columns, ["source", "id", "part", "value"]);
  assert.equal(frame.height, 24 * 5);
  const sources = frame.getColumn("source").toArray() as string[];
  const expectedOrder = entries.flatMap((entry) => Array(5).fill(entry.path));
  assert.deepEqual(sources, expectedOrder, "rows keep the listing's order");
  for (const [index, entry] of entries.entries()) {
    const rows = frame.slice(index * 5, 5);
    const part = Number(entry.name.slice(5, 8));
    assert.deepEqual(rows.getColumn("part").toArray(), [part, part, part, part, part]);
  }
  // Concurrent (with 15 ms of latency each, 24 files overlap), never past the store's limit.
  assert.ok(
    tern.stats.peakInFlight > 1 && tern.stats.peakInFlight <= 4,
    `${tern.stats.peakInFlight}`,
  );
});

Deno.test("progress reports bytes, files done out of the total, and the rate, ending with done", async () => {
  await using store = await manyFiles(10);
  const tern = store.connect();
  const listing = tern.folder(`${DATA}/parts`).walk({ glob: "**/*.csv" });
  const totalBytes = (await listing.toArray()).reduce((sum, entry) => sum + entry.size, 0);
  const channel = new ProgressChannel();
  const seen: ProgressEvent[] = [];
  const [frame] = await Promise.all([
    listing.dataframes({ onProgress: channel.report }),
    (async () => {
      for await (const event of channel) seen.push(event);
    })(),
  ]);
  assert.equal(frame.height, 50);
  assert.equal(seen[0].kind, "start");
  assert.deepEqual([seen[0].totalFiles, seen[0].totalBytes], [10, totalBytes]);
  const last = seen.at(-1)!;
  assert.deepEqual(
    [last.kind, last.ok, last.files, last.bytes, last.cachedFiles],
    ["done", true, 10, totalBytes, 0],
  );
  assert.ok(last.rate > 0 && last.elapsedMs > 0);
  assert.equal(seen.filter((event) => event.kind === "file").length, 10);

  // Again: every file now comes from the cache.
  const events: ProgressEvent[] = [];
  await listing.dataframes({ onProgress: (event) => events.push(event) });
  assert.equal(events.at(-1)!.cachedFiles, 10);
});

Deno.test("files with different columns combine: columns united, types widened", async () => {
  await using store = await dataStore({
    [`${DATA}/mixed/a.csv`]: "id,x\n1,10\n",
    [`${DATA}/mixed/b.csv`]: "id,x,y\n2,2.5,b\n",
    [`${DATA}/mixed/c.parquet`]: new Uint8Array(
      pl.DataFrame({ id: [3], z: [true] }).writeParquet(),
    ),
  });
  const frame = await store.connect().folder(`${DATA}/mixed`).list().dataframes({ source: "file" });
  assert.deepEqual(frame.columns, ["file", "id", "x", "y", "z"]);
  assert.deepEqual(frame.toRecords(), [
    { file: `${DATA}/mixed/a.csv`, id: 1, x: 10, y: null, z: null },
    { file: `${DATA}/mixed/b.csv`, id: 2, x: 2.5, y: "b", z: null },
    { file: `${DATA}/mixed/c.parquet`, id: 3, x: null, y: null, z: true },
  ]);
  const bare = await store.connect().folder(`${DATA}/mixed`).list({ glob: "*.csv" }).dataframes({
    source: false,
    nRows: 1,
  });
  assert.deepEqual(bare.toRecords(), [{ id: 1, x: 10, y: null }]);
});

Deno.test("a file that cannot be read fails the whole read, naming it, and stops the rest", async () => {
  await using store = await manyFiles(12, 5);
  const tern = store.connect();
  await assert.rejects(
    tern.folder(`${DATA}/parts`).walk().dataframes(),
    (error: unknown) => {
      assert.ok(error instanceof UnsupportedFormatError, String(error));
      assert.equal(error.path, `${DATA}/parts/README.txt`);
      return true;
    },
  );
  assert.equal(tern.stats.inFlight, 0);
  await assert.rejects(
    tern.folder(`${DATA}/parts`).walk({ glob: "**/*.csv" }).dataframes({ source: "id" }),
    /already has a column named "id"/,
  );
  const empty = await tern.folder(`${DATA}/parts`).walk({ glob: "**/*.none" }).dataframes();
  assert.deepEqual(empty.shape, { height: 0, width: 0 });
});

Deno.test("files whose own source columns cannot be joined are named as the source-column clash, not a Polars supertype error", async () => {
  await using store = await dataStore({
    [`${DATA}/clash/a.json`]: JSON.stringify([{ source: [1, 2], v: 1 }]),
    [`${DATA}/clash/b.json`]: JSON.stringify([{ source: { k: "x" }, v: 2 }]),
  });
  const tern = store.connect();
  await assert.rejects(tern.folder(`${DATA}/clash`).walk().dataframes(), (error: unknown) => {
    assert.ok(error instanceof BadRequestError, String(error));
    assert.match(error.message, /"[^"]*\/clash\/a\.json" already has a column named "source"/);
    assert.equal(error.path, `${DATA}/clash/a.json`);
    return true;
  });
  // Without a source column the files' own disagreement is Polars' to report.
  await assert.rejects(
    tern.folder(`${DATA}/clash`).walk().dataframes({ source: false }),
    (error: unknown) => !(error instanceof BadRequestError),
  );
});

Deno.test("files without rows add their columns but no source rows", async () => {
  await using store = await dataStore({
    [`${DATA}/few/a.csv`]: "id,value\n1,x\n2,y\n",
    [`${DATA}/few/b.csv`]: "id,extra\n",
    [`${DATA}/few/c.csv`]: "id,value\n3,z\n",
  });
  const frame = await store.connect().folder(`${DATA}/few`).list().dataframes();
  assert.deepEqual(frame.columns, ["source", "id", "value", "extra"]);
  assert.deepEqual(frame.getColumn("source").toArray(), [
    `${DATA}/few/a.csv`,
    `${DATA}/few/a.csv`,
    `${DATA}/few/c.csv`,
  ]);
  assert.deepEqual(frame.getColumn("id").toArray(), [1, 2, 3]);
  assert.equal(frame.getColumn("source").nullCount(), 0);
});

Deno.test("the joined frame has one chunk per column, not one per file", async () => {
  await using store = await manyFiles(6);
  const frame = await store.connect().folder(`${DATA}/parts`).walk({ glob: "**/*.csv" })
    .dataframes();
  assert.equal(frame.height, 30);
  for (const column of frame.getColumns()) assert.equal(column.nChunks(), 1, column.name);
});
