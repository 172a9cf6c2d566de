/**
 * One cache folder shared by several processes (issue 29): four processes reading the same files
 * at once, one of them killed mid-way, and, one at a time, the interleavings that failed reads
 * with a parse error or a raw `NotFound`: a copy removed (as another process's eviction or
 * `clear()` removes it) between its lookup and its read, or right after it was written, and a
 * copy whose index line another process's rewrite lost.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type CachedFile,
  CacheMissError,
  type CopyWriter,
  DiskCache,
  type FileVersion,
} from "../../lib/cache/mod.ts";
import { collect } from "../../lib/data/chunks.ts";
import type { DataContext } from "../../lib/data/context.ts";
import { readBatches, readBytes, readDataFrame } from "../../lib/data/read.ts";
import { Reader } from "../../lib/data/reader.ts";
import { statFile } from "../../lib/handles/stat.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { DATA, type DataStore, dataStore, generatedCsv } from "../data/_store.ts";
import { manyCsv } from "./_many.ts";

/** Files each process reads, and runs of four processes: enough to fail on the old code. */
const FILES = 60;
const RUNS = 2;
const READER = join(import.meta.dirname!, "_many_reader.ts");

async function manyStore(): Promise<DataStore> {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`${DATA}/f${i}.csv`] = manyCsv(i);
  return await dataStore(files);
}

function reader(store: DataStore, cacheDir: string, stderr: "piped" | "null" = "piped") {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", READER, store.url, cacheDir, DATA, String(FILES)],
    stdout: "piped",
    stderr,
  });
}

/** What a reader printed when every file was read exactly. */
const ALL_OK = Array.from({ length: FILES }, (_, i) => `ok f${i}.csv`);

/** Runs a reader to its end: it must read every file exactly and warn about nothing. */
async function readsAll(store: DataStore, cacheDir: string): Promise<void> {
  const { success, stdout, stderr } = await reader(store, cacheDir).output();
  const errors = new TextDecoder().decode(stderr);
  assert.deepEqual(new TextDecoder().decode(stdout).trim().split("\n"), ALL_OK, errors);
  assert.ok(success, errors);
  // e.g. "tern: cannot write the local cache … (the copy was replaced)"
  assert.doesNotMatch(errors, /tern:/);
}

/** The cache folder holds every file's copy, each what tern wrote, and no temporary file. */
async function assertWhole(cacheDir: string): Promise<void> {
  const cache = new DiskCache({ dir: cacheDir });
  const { checked, bad } = await cache.verify();
  assert.deepEqual(bad, []);
  assert.equal(checked, FILES);
  const names = await Array.fromAsync(Deno.readDir(cache.dir), (item) => item.name);
  assert.deepEqual(names.filter((name) => name.startsWith(".tmp-")), []);
}

Deno.test("four processes reading the same files into one cache folder read every one exactly (issue 29)", async () => {
  await using store = await manyStore();
  for (let run = 0; run < RUNS; run++) {
    const cacheDir = join(store.cacheDir, `run-${run}`);
    await Promise.all([1, 2, 3, 4].map(() => readsAll(store, cacheDir)));
    await assertWhole(cacheDir);
    // Every file is under 1 KiB: kept in the index, which the four processes shared.
    const names = await Array.fromAsync(Deno.readDir(join(cacheDir, "downloads")), (i) => i.name);
    assert.deepEqual(names, ["index.jsonl"]);
  }
});

Deno.test("a process killed mid-way leaves the others and the next one reading every file exactly (issue 29)", async () => {
  await using store = await manyStore();
  const others = Promise.all([1, 2, 3].map(() => readsAll(store, store.cacheDir)));
  const victim = reader(store, store.cacheDir, "null").spawn();
  let read = 0;
  let rest = "";
  for await (const text of victim.stdout.pipeThrough(new TextDecoderStream())) {
    const lines = (rest + text).split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      assert.equal(line, `ok f${read}.csv`);
      if (++read === FILES / 3) victim.kill("SIGKILL");
    }
  }
  assert.equal((await victim.status).signal, "SIGKILL");
  assert.equal(read, FILES / 3);
  await others;
  // The next process removes the killed one's temporary file and reads every copy.
  await readsAll(store, store.cacheDir);
  await assertWhole(store.cacheDir);
});

/**
 * A cache in which each copy is removed right after this process looked it up, or right after
 * it wrote it: what another process's eviction or `clear()` does at the worst moment.
 */
class RemovedAfter extends DiskCache {
  constructor(dir: string, readonly moment: "lookup" | "commit") {
    super({ dir, warn: (message) => assert.fail(message) });
  }

  override async lookup(version: FileVersion): Promise<CachedFile | undefined> {
    return await this.#removed("lookup", await super.lookup(version));
  }

  override async latest(store: string, path: string): Promise<CachedFile | undefined> {
    return await this.#removed("lookup", await super.latest(store, path));
  }

  override async writer(version: FileVersion): Promise<CopyWriter | undefined> {
    const opened = await super.writer(version);
    if (opened !== undefined) {
      const commit = opened.commit.bind(opened);
      opened.commit = async (format) => await this.#removed("commit", await commit(format));
    }
    return opened;
  }

  async #removed(moment: string, copy: CachedFile | undefined) {
    if (copy !== undefined && moment === this.moment) await Deno.remove(copy.file);
    return copy;
  }
}

/** A store with one CSV larger than the copies a lookup hands over as bytes, and a reader. */
async function largeCsv() {
  const csv = generatedCsv(40_000);
  assert.ok(csv.length > 1024 * 1024, "a copy read by path");
  return await oneCsv(csv);
}

/** A store with one CSV (`big.csv`, whatever its size), and a reader counting downloads. */
async function oneCsv(csv: string) {
  const store = await dataStore({ [`${DATA}/big.csv`]: csv });
  const downloads: string[] = [];
  const tern = store.connect({
    progress: false,
    fetch: (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes("/fileio/download")) {
        downloads.push("big.csv");
      }
      return fetch(input, init);
    },
  });
  const context = (cache: DiskCache, offline = false): DataContext => ({
    ...tern[STORE_CONTEXT],
    reader: new Reader(tern[STORE_CONTEXT].transport, cache),
    offline,
  });
  const path = `${DATA}/big.csv`;
  const { transport } = tern[STORE_CONTEXT];
  // Reads of a listed entry: no download is sent beside a stat, whose read-ahead a slow stat
  // would give up (a second download, by timing), so every download counted here is the cache's.
  const entry = await statFile(transport, path);
  const source = {
    path,
    entry,
    stat: (signal?: AbortSignal) => statFile(transport, path, { signal }),
  };
  const expected = await tern.file(entry).dataframe();
  return { store, csv, downloads, context, source, expected, [Symbol.asyncDispose]: store.close };
}

Deno.test("a copy removed between its lookup and its read is downloaded again, for every kind of read (issue 29)", async () => {
  await using big = await largeCsv();
  const { context, source, expected, downloads } = big;
  const removed = () => context(new RemovedAfter(big.store.cacheDir, "lookup"));
  const fill = () => context(new DiskCache({ dir: big.store.cacheDir }));

  const { frame } = await readDataFrame(removed(), source);
  assert.ok(frame.frameEqual(expected), "dataframe()");
  assert.equal(downloads.length, 2, "downloaded again");

  await readDataFrame(fill(), source);
  const batches = await Array.fromAsync(readBatches(removed(), source, { rows: 15_000 }));
  assert.deepEqual(batches.map((batch) => batch.height), [15_000, 15_000, 10_000]);
  assert.ok(batches[0].vstack(batches[1]).vstack(batches[2]).frameEqual(expected), "batches()");

  await readDataFrame(fill(), source);
  const bytes = await readBytes(removed(), source, "bytes", {}, (chunks) => collect(chunks));
  assert.equal(new TextDecoder().decode(bytes), big.csv, "bytes()");
});

Deno.test("a copy removed right after it was written is read all the same (issue 29)", async () => {
  await using big = await largeCsv();
  await Deno.remove(big.store.cacheDir, { recursive: true });
  const written = big.context(new RemovedAfter(big.store.cacheDir, "commit"));
  const { frame, route } = await readDataFrame(written, big.source);
  assert.ok(frame.frameEqual(big.expected));
  assert.equal(route, "memory");
  assert.equal(big.downloads.length, 3, "downloaded again, into memory");
});

Deno.test("a small copy removed right after it was written is parsed from its bytes, not downloaded again", async () => {
  await using small = await oneCsv(generatedCsv(100));
  await Deno.remove(small.store.cacheDir, { recursive: true });
  const written = small.context(new RemovedAfter(small.store.cacheDir, "commit"));
  // With its entry known, the read asks for the bytes once, after no stat.
  const source = { ...small.source, entry: await small.source.stat() };
  const before = small.downloads.length;
  const { frame, route } = await readDataFrame(written, source);
  assert.ok(frame.frameEqual(small.expected));
  assert.equal(route, "file", "the published copy, from the bytes it was written from");
  assert.equal(small.downloads.length - before, 1, "not downloaded again");
});

Deno.test("offline, a copy removed between its lookup and its read is a CacheMissError (issue 29)", async () => {
  await using big = await largeCsv();
  const offline = big.context(new RemovedAfter(big.store.cacheDir, "lookup"), true);
  await assert.rejects(readDataFrame(offline, big.source), (error: unknown) => {
    assert.ok(error instanceof CacheMissError, String(error));
    assert.match(error.message, /was removed while it was read/);
    return true;
  });
});

Deno.test("a copy whose index line another process lost is passed over, never removed (issue 29)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const mine = new DiskCache({ dir });
    // Over 1 KiB: a copy of its own (a smaller one lives in its line, and goes with it).
    const text = new TextEncoder().encode("a\n" + "1\n".repeat(600));
    const version = {
      store: "http://x/terrain",
      path: "/a/b.csv",
      id: "i",
      size: text.length,
      modified: 1,
    };
    const writer = await mine.open(version) as CopyWriter;
    await writer.write(text);
    const copy = (await writer.commit())!;
    // Another process rewrote the index (as its cap does) without this copy's line.
    await Deno.writeTextFile(join(mine.dir, "index.jsonl"), "");
    const theirs = new DiskCache({ dir });
    assert.equal(await theirs.lookup(version), undefined, "not served without its line");
    assert.deepEqual(await Deno.readFile(copy.file), text, "still there for its reader");
    // A download of that version takes its place, with a line.
    const again = await theirs.open(version) as CopyWriter;
    await again.write(text);
    await again.commit();
    assert.deepEqual((await theirs.lookup(version))?.bytes, text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
