/**
 * The two routes of a whole-file read (lib/data/read.ts): batches parsed as the body arrives
 * (`stream`) and the body moved natively into a file that Polars reads once (`file`). Both must
 * give the same frame and the same cache entry; the choice follows the link; a failed native
 * transfer leaves nothing behind.
 *
 * @module
 */

import assert from "node:assert/strict";
import pl, { type DataFrame } from "../../polars.ts";
import { isAbortError } from "../../lib/client/errors.ts";
import { DiskCache } from "../../lib/cache/cache.ts";
import type { ProgressEvent } from "../../lib/progress/events.ts";
import { readDataFrame, type ReadRoute, type ReadTuning } from "../../lib/data/read.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import type { Store } from "../../mod.ts";
import { DATA, dataStore, generatedCsv, generatedNdjson, gzip } from "./_store.ts";

/** Always the file route (any rate is fast enough, any size large enough). */
const FILE: ReadTuning = { nativeRate: 0, probeBytes: 1 };
/** Never the file route for text. */
const STREAM: ReadTuning = { nativeRate: Infinity, probeBytes: 1 };

function assertFrameEqual(actual: DataFrame, expected: DataFrame, what: string) {
  assert.deepEqual(actual.columns, expected.columns, `${what}: columns`);
  assert.deepEqual(actual.dtypes.map(String), expected.dtypes.map(String), `${what}: types`);
  assert.ok(actual.frameEqual(expected, true), `${what}: values differ`);
}

async function read(
  store: Store,
  path: string,
  tuning: ReadTuning,
  options: { cache?: boolean; signal?: AbortSignal } = {},
): Promise<{ frame: DataFrame; route: ReadRoute }> {
  const file = store.file(path);
  const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
  return await readDataFrame(store[STORE_CONTEXT], source, options, tuning);
}

const entries = (cacheDir: string) => new DiskCache({ dir: cacheDir }).entries();

/** The names in the cache's downloads folder (copies, index and any temporary file). */
async function cacheFiles(cacheDir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const item of Deno.readDir(`${cacheDir}/downloads`)) names.push(item.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names.sort();
}

Deno.test("both routes give the same frame and the same cache entry, for every format", async () => {
  const csv = generatedCsv(20_000);
  const frame = pl.DataFrame({
    id: Array.from({ length: 5000 }, (_, i) => i),
    label: Array.from({ length: 5000 }, (_, i) => `L${i % 13}`),
  });
  const files: Record<string, string | Uint8Array> = {
    [`${DATA}/a.csv`]: csv,
    [`${DATA}/a.tsv`]: generatedCsv(20_000, "\t"),
    [`${DATA}/a.ndjson`]: generatedNdjson(20_000),
    [`${DATA}/a.json`]: JSON.stringify(frame.toRecords()),
    [`${DATA}/a.parquet`]: new Uint8Array(frame.writeParquet()),
    [`${DATA}/a.arrow`]: new Uint8Array(frame.writeIPC()),
    [`${DATA}/a.csv.gz`]: await gzip(csv),
  };
  // Text goes either way; whole formats always by file once large; gzip always streams.
  const routes: Record<string, [ReadRoute, ReadRoute]> = {
    csv: ["file", "stream"],
    tsv: ["file", "stream"],
    ndjson: ["file", "stream"],
    json: ["file", "file"],
    parquet: ["file", "file"],
    arrow: ["file", "file"],
    gz: ["stream", "stream"],
  };
  await using store = await dataStore(files);
  const otherCache = await Deno.makeTempDir({ prefix: "tern-route-cache-" });
  try {
    const viaFile = store.connect();
    const viaStream = store.connect({ cacheDir: otherCache });
    for (const path of Object.keys(files)) {
      const kind = path.slice(path.lastIndexOf(".") + 1);
      const a = await read(viaFile, path, FILE);
      const b = await read(viaStream, path, STREAM);
      assert.deepEqual([a.route, b.route], routes[kind], path);
      assertFrameEqual(a.frame, b.frame, path);
      // Uncached, the file route uses a temporary file; memory is the other fast choice.
      const c = await read(viaFile, path, FILE, { cache: false });
      const d = await read(viaFile, path, { ...FILE, uncachedFast: "memory" }, { cache: false });
      assertFrameEqual(c.frame, a.frame, `${path} uncached`);
      assertFrameEqual(d.frame, a.frame, `${path} in memory`);
      if (kind === "csv") assert.deepEqual([c.route, d.route], ["file", "memory"]);
    }
    const [fromFile, fromStream] = [await entries(store.cacheDir), await entries(otherCache)];
    const shape = (entries: typeof fromFile) =>
      entries.map((e) => [e.version.path, e.version.size, e.format]).sort();
    assert.deepEqual(shape(fromFile), shape(fromStream));
    assert.equal(fromFile.length, Object.keys(files).length);
    for (const entry of fromFile) {
      const twin = fromStream.find((e) => e.version.path === entry.version.path)!;
      const served = await Deno.readFile(`${store.root}${entry.version.path}`);
      assert.deepEqual(await Deno.readFile(entry.file), served, entry.version.path);
      assert.deepEqual(await Deno.readFile(twin.file), served, entry.version.path);
    }
    // No temporary file is left in either cache, nor in the system's temporary folder's tern-*.
    for (const dir of [store.cacheDir, otherCache]) {
      assert.deepEqual((await cacheFiles(dir)).filter((name) => name.startsWith(".tmp-")), []);
    }
  } finally {
    await Deno.remove(otherCache, { recursive: true });
  }
});

Deno.test("the route follows the link: a slow link streams, loopback moves the file", async () => {
  const text = generatedCsv(30_000); // about 1.3 MB
  const path = `${DATA}/w.csv`;
  // A modest bar, so that a busy test machine's loopback still clears it by far.
  const tuning: ReadTuning = { nativeRate: 20e6, probeBytes: 64 * 1024 };
  const routes = async (options: { bandwidth?: number }) => {
    await using store = await dataStore({ [path]: text }, options);
    const events: ProgressEvent[] = [];
    const frame = await store.connect().file(path).dataframe({
      onProgress: (event) => events.push(event),
    });
    assert.equal(frame.height, 30_000);
    const routed = await read(store.connect({ cacheDir: false }), path, tuning);
    return { progress: events.find((e) => e.kind === "file")?.route, tuned: routed.route };
  };
  // Defaults: a file this small never takes the file route (4 MiB probe).
  assert.deepEqual(await routes({}), { progress: "stream", tuned: "file" });
  assert.deepEqual(await routes({ bandwidth: 4_000_000 }), { progress: "stream", tuned: "stream" });
});

Deno.test("a native transfer that fails or is aborted leaves no cache entry and no temporary file", async () => {
  const text = generatedCsv(40_000);
  const path = `${DATA}/x.csv`;
  const nothingLeft = async (cacheDir: string) => {
    assert.deepEqual(await entries(cacheDir), []);
    assert.deepEqual((await cacheFiles(cacheDir)).filter((n) => n.startsWith(".tmp-")), []);
  };
  // Both routes: the single parse of the finished file, and batches read back as it grows.
  for (const [tuning, expected] of [[FILE, "file"], [STREAM, "stream"]] as const) {
    {
      // Aborted half way through a slow transfer.
      await using store = await dataStore({ [path]: text }, { bandwidth: 2_000_000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      await assert.rejects(
        read(store.connect(), path, tuning, { signal: controller.signal }),
        (error) => isAbortError(error),
      );
      await nothingLeft(store.cacheDir);
    }
    {
      // Some downloads cut short: the native transfer resumes, appending to the same file, and
      // the frame and the copy are whole (read back as it grows: every byte once, in order).
      await using store = await dataStore({ [path]: text }, { dropRate: 0.7, seed: 2 });
      const { frame, route } = await read(store.impatient(8), path, tuning);
      assert.equal(route, expected);
      assert.ok(frame.frameEqual(pl.readCSV(`${store.root}${path}`), true));
      const [entry] = await entries(store.cacheDir);
      assert.deepEqual(await Deno.readFile(entry.file), new TextEncoder().encode(text));
      assert.ok(store.server.stats().bodiesDropped > 0, "the server dropped no download");
    }
  }
  {
    // Every download cut short: the retries give up.
    await using store = await dataStore({ [path]: text }, { dropRate: 1, seed: 3 });
    await assert.rejects(read(store.impatient(2), path, FILE));
    await nothingLeft(store.cacheDir);
  }
});

Deno.test("a file over the cache's cap takes the file route through a temporary file and is not kept", async () => {
  const text = generatedCsv(20_000);
  const path = `${DATA}/big.csv`;
  await using store = await dataStore({ [path]: text, [`${DATA}/tiny.csv`]: "a\n1\n" });
  const warnings: string[] = [];
  const originalWarn = console.warn;
  console.warn = (message: string) => warnings.push(message);
  try {
    const tern = store.connect({ cacheMaxBytes: 1000 });
    await tern.file(`${DATA}/tiny.csv`).dataframe(); // the cache folder exists, with one copy
    const before = await cacheFiles(store.cacheDir);
    const { frame, route } = await read(tern, path, FILE);
    assert.equal(route, "file");
    assert.ok(frame.frameEqual(pl.readCSV(`${store.root}${path}`), true));
    assert.deepEqual((await entries(store.cacheDir)).map((e) => e.version.path), [
      `${DATA}/tiny.csv`,
    ]);
    assert.deepEqual(await cacheFiles(store.cacheDir), before);
  } finally {
    console.warn = originalWarn;
  }
});

Deno.test("without permission to write files, a large read goes on in memory", async () => {
  const text = generatedCsv(100_000); // about 4.5 MB: past the 4 MiB from which a file is used
  const parquet = new Uint8Array(pl.readCSV(text).writeParquet());
  await using store = await dataStore({
    [`${DATA}/big.csv`]: text,
    [`${DATA}/big.parquet`]: parquet,
  });
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { connect } from ${JSON.stringify(new URL("../../mod.ts", import.meta.url).href)};
const store = connect({ url: ${JSON.stringify(store.url)}, anonymous: true, cacheDir: false });
const heights = [];
for (const name of ["big.csv", "big.parquet"]) {
  heights.push((await store.file(${JSON.stringify(DATA)} + "/" + name).dataframe()).height);
}
console.log(JSON.stringify(heights));
`,
    );
    // Reading and the network only: no temporary file can be made.
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-net",
        "--allow-env",
        "--allow-ffi",
        "--allow-sys",
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    assert.equal(code, 0, decoder.decode(stderr));
    assert.deepEqual(JSON.parse(decoder.decode(stdout).trim()), [100_000, 100_000]);
  } finally {
    await Deno.remove(script);
  }
});
