/**
 * The one reader's events: every read kind publishes `pinned`, its `bytes`, then `done` (or
 * `failed`) on the store's channel; provenance hears reads only through that channel; and the
 * parsing functions need no store at all.
 */

import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { UnsupportedFormatError } from "../../lib/data/errors.ts";
import { detectFormat } from "../../lib/data/formats.ts";
import { parseLocal } from "../../lib/data/parse.ts";
import { readDataFrame } from "../../lib/data/read.ts";
import { type ReadEvent, ReadEvents } from "../../lib/data/read_events.ts";
import type { ProgressEvent } from "../../lib/progress/events.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import type { Store } from "../../lib/handles/store.ts";
import { DATA, dataStore, generatedCsv } from "./_store.ts";

const CSV = `${DATA}/table.csv`;
const TEXT = generatedCsv(2_000);
const PNG = `${DATA}/image.png`;

/** The events of `path` a store's subscriber heard while `read` ran. */
async function heard(store: Store, path: string, read: () => Promise<unknown>) {
  const events: ReadEvent[] = [];
  const stop = store[STORE_CONTEXT].events.subscribe((event) => {
    const of = "version" in event ? event.version.path : event.path;
    if (of === path) events.push(event);
  });
  try {
    await read();
  } finally {
    stop();
  }
  return events;
}

/**
 * pinned, its bytes (`size` of them in all), done: each event naming `operation`. `version`: the
 * file's size, when the read reads no bytes (a copy already cached).
 */
function assertWhole(events: ReadEvent[], operation: string, size: number, version = size) {
  const kinds = events.map((event) => event.kind).join(" ");
  const pattern = size === 0 ? /^pinned done$/ : /^pinned( bytes)+ done$/;
  assert.match(kinds, pattern, `${operation}: ${kinds}`);
  for (const event of events) assert.equal(event.operation, operation, kinds);
  const bytes = events.reduce((sum, event) => sum + (event.kind === "bytes" ? event.count : 0), 0);
  assert.equal(bytes, size, `${operation}: bytes published`);
  const [pinned, done] = [events[0], events.at(-1)!];
  assert.ok(pinned.kind === "pinned" && done.kind === "done");
  assert.equal(done.version.id, pinned.version.id);
  assert.equal(pinned.version.size, version);
}

Deno.test("every read kind publishes pinned, its bytes, then done, on the store's channel", async () => {
  await using served = await dataStore({ [CSV]: TEXT });
  const store = served.connect({ progress: false });
  const file = store.file(CSV);
  const size = new TextEncoder().encode(TEXT).byteLength;
  assertWhole(await heard(store, CSV, () => file.head(3, { cache: false })), "head", size);
  assertWhole(await heard(store, CSV, () => file.bytes()), "bytes", size);
  const batches = () => Array.fromAsync(file.batches({ rows: 500 }));
  const batched = await heard(store, CSV, batches);
  assertWhole(batched, "batches", size);
  // With a cache, batches() parses the chunks as they arrive while the body goes into the copy
  // (so a paused loop holds no slot).
  assert.deepEqual(batched.at(-1), { ...batched.at(-1), fromCache: false, route: "stream" });
  await store.cache.clear();
  const stream = async () => await new Response(await file.stream()).bytes();
  assertWhole(await heard(store, CSV, stream), "stream", size);
  // cachedPath() downloads the copy, then finds it: pinned and done, no bytes.
  assertWhole(await heard(store, CSV, () => file.cachedPath()), "cachedPath", size);
  assertWhole(await heard(store, CSV, () => file.cachedPath()), "cachedPath", 0, size);
  await store.cache.clear();
  // A cold whole read moves the body into the cache; the next read of it is the cached copy's.
  const cold = await heard(store, CSV, () => file.dataframe());
  assertWhole(cold, "dataframe", size);
  assert.deepEqual(cold.at(-1), { ...cold.at(-1), fromCache: false, route: "file" });
  const warm = await heard(store, CSV, () => file.dataframe());
  assertWhole(warm, "dataframe", size);
  assert.deepEqual(warm.at(-1), { ...warm.at(-1), fromCache: true, route: "cache" });
  // The hash the read computed is in what it publishes (provenance keeps it from there).
  const done = warm.at(-1)!;
  assert.ok(done.kind === "done" && done.version.hash?.startsWith("xxh64:"));
});

Deno.test("a read that fails publishes failed with its error, and no done", async () => {
  await using served = await dataStore({ [PNG]: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2]) });
  const store = served.connect({ progress: false });
  let thrown: unknown;
  const events = await heard(store, PNG, () =>
    store.file(PNG).dataframe().catch((error) => {
      thrown = error;
    }));
  assert.ok(thrown instanceof UnsupportedFormatError);
  assert.match(events.map((event) => event.kind).join(" "), /^pinned( bytes)* failed$/);
  const failed = events.at(-1)!;
  assert.ok(failed.kind === "failed");
  assert.equal(failed.error, thrown);
  assert.equal(failed.operation, "dataframe");
  assert.equal(store.provenance.reads.length, 0);
});

Deno.test("provenance records a read only through the store's events", async () => {
  await using served = await dataStore({ [CSV]: TEXT });
  const store = served.connect({ progress: false });
  const stat = (signal?: AbortSignal) => store.file(CSV).stat({ refresh: true, signal });
  // A channel of its own, with no subscriber: the read publishes, and nothing records it.
  const own = new ReadEvents();
  const kinds: string[] = [];
  own.subscribe((event) => void kinds.push(event.kind));
  const context = { ...store[STORE_CONTEXT], events: own };
  const { frame } = await readDataFrame(context, { path: CSV, stat }, { cache: false });
  assert.equal(frame.height, 2_000);
  assert.equal(kinds.at(-1), "done");
  assert.equal(store.provenance.reads.length, 0);
  // The same read on the store's channel is recorded.
  await readDataFrame(store[STORE_CONTEXT], { path: CSV, stat }, { cache: false });
  assert.deepEqual(store.provenance.reads.map((read) => [read.path, read.operations]), [
    [CSV, ["dataframe"]],
  ]);
});

Deno.test("each call's progress listens to its own read only, also when reads overlap", async () => {
  const other = `${DATA}/other.csv`;
  const otherText = generatedCsv(500);
  await using served = await dataStore({ [CSV]: TEXT, [other]: otherText });
  const store = served.connect({ progress: false });
  const folder = await Deno.makeTempDir({ prefix: "tern-progress-" });
  try {
    const seen: Record<string, ProgressEvent[]> = { frame: [], saved: [] };
    await Promise.all([
      store.file(CSV).dataframe({ onProgress: (event) => void seen.frame.push(event) }),
      store.file(other).downloadTo(`${folder}/`, {
        onProgress: (event) => void seen.saved.push(event),
      }),
    ]);
    const sizes = { frame: TEXT.length, saved: otherText.length };
    const paths = { frame: CSV, saved: other };
    for (const call of ["frame", "saved"] as const) {
      const events = seen[call];
      assert.match(events.map((e) => e.kind).join(" "), /^start( bytes)* file done$/, call);
      assert.equal(events.find((e) => e.kind === "file")?.path, paths[call]);
      assert.deepEqual(
        [events.at(-1)?.bytes, events.at(-1)?.totalBytes, events.at(-1)?.ok],
        [sizes[call], sizes[call], true],
        call,
      );
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("detection and parsing are plain functions of bytes or a path: no store, cache or network", async () => {
  const bytes = new TextEncoder().encode("a;b\n1;x\n2;y\n");
  const detected = detectFormat({ path: "/any/where.csv", head: bytes, format: "csv" });
  const options = { sep: ";" };
  const fromBytes = await parseLocal({
    pl,
    detected,
    source: { bytes },
    options,
    path: "/any/where.csv",
  });
  assert.deepEqual(fromBytes.toRecords(), [{ a: 1, b: "x" }, { a: 2, b: "y" }]);
  const folder = await Deno.makeTempDir({ prefix: "tern-parse-" });
  try {
    await Deno.writeFile(`${folder}/t.csv`, bytes);
    const file = `${folder}/t.csv`;
    const fromFile = await parseLocal({
      pl,
      detected,
      source: { file },
      options,
      path: "/any/where.csv",
    });
    assert.ok(fromFile.frameEqual(fromBytes));
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
  assert.throws(
    () => detectFormat({ path: "/any/notes.md", head: new TextEncoder().encode("# notes") }),
    UnsupportedFormatError,
  );
});
