/**
 * One contender of the data suite, run as its own process so that its time, CPU and peak RSS
 * are its own. It loads nodejs-polars and warms it up, then runs one timed read and prints one
 * JSON line: `{ ms, cpuMs, mainCpuMs, rows, columns, peakRss, rssBefore }` (bytes; `peakRss` is
 * the process's VmHWM, warm-up included; `mainCpuMs` is the CPU time of the JavaScript thread
 * alone, which Polars' idle worker threads do not blur; `cpuMs` includes what tern's cache does
 * after the frame
 * is back: publishing and hashing a large copy).
 *
 * Modes:
 * - `floor`: `pl.readCSV(local)`, the file on local disk (page-cached).
 * - `naive`: `fetch` → `arrayBuffer()` → `pl.readCSV(Buffer)`.
 * - `simple`: `fetch` → `Deno.writeFile(tmp, body)` → `pl.readCSV(tmp)` (the temporary file is
 *   removed after the clock stops).
 * - `raw`: `fetch` and read the body to the end, keeping nothing: the transfer alone.
 * - `md5`: one MD5 pass (node:crypto, as tern's verification) over `local`, read into memory
 *   before the clock starts, in 64 KiB updates; `rows` is the byte count.
 * - `tern`: `connect({ url, cacheDir }).file(path).dataframe()` (`--cache-dir none` for no cache);
 *   prints the route the read took (`file`, `stream`, …) as `route`, and the store checksum the
 *   read was verified against, if any, as `checksum`. Dates stay text (the naive path's frame)
 *   unless `--dates true`. With `--warm PATH`, the store is connected and PATH (another file)
 *   read before the clock starts: the timed read starts from a tern that has read once, as
 *   every contender starts from a Polars that has.
 * - `tern-route`: `--route stream`, `file.batches()`: the route of batches and row limits.
 * - `tern-batch`: tern's reader without cache, batches growing to `--batch-mib` MiB.
 * - `many`: `connect({ url, cacheDir, concurrency }).folder(path).list().dataframes()`.
 * - `many-plain`: the folder's listing (pages of 1,000), then `concurrency` loops of `fetch` →
 *   `arrayBuffer()` → `pl.readCSV`, the frames joined with `pl.concat`: no cache, no checks.
 * - `many-plain-disk`: the same, each body also written to a new file in `--cache-dir` (one
 *   `Deno.writeFile`): the least any cache that keeps one file per copy adds.
 * - `frame-size`: reads `local` and reports the frame's Arrow IPC size as `rows`' neighbour
 *   `frameBytes` (untimed figure for the notes).
 *
 * ```sh
 * deno run -A bench/_data_worker.ts --mode tern --url http://127.0.0.1:PORT/terrain \
 *   --path /iplant/home/shared/bench/data/weather.csv --cache-dir /tmp/cache
 * ```
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import pl from "../polars.ts";
import { connect } from "../mod.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    mode: { type: "string" },
    url: { type: "string" },
    path: { type: "string" },
    local: { type: "string" },
    "cache-dir": { type: "string" },
    "batch-mib": { type: "string" },
    concurrency: { type: "string" },
    route: { type: "string" },
    dates: { type: "string" },
    warm: { type: "string" },
  },
}).values;

function status(): { rss: number; hwm: number } {
  const text = Deno.readTextFileSync("/proc/self/status");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB$`, "m").exec(text)![1]);
  return { rss: kb("VmRSS") * 1024, hwm: kb("VmHWM") * 1024 };
}

/** CPU time of the calling (JavaScript) thread, ms, to the nanosecond. */
function mainCpuMs(): number {
  return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
}

/** CPU time of this process (all threads), ms. */
function cpuMs(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function downloadUrl(): string {
  return `${args.url}/fileio/download?path=${encodeURIComponent(args.path!)}`;
}

/** The request tern's stat makes for a file (its parent's file listing), fetched and parsed. */
async function statRequest(): Promise<void> {
  const parent = args.path!.slice(0, args.path!.lastIndexOf("/"));
  const query = new URLSearchParams({
    path: parent,
    limit: "1000",
    offset: "0",
    "entity-type": "file",
    "sort-col": "name",
    "sort-dir": "ASC",
  });
  const listing = await (await fetch(`${args.url}/filesystem/paged-directory?${query}`)).json();
  if (!Array.isArray(listing.files)) throw new Error("the listing has no files");
}

const cacheDir = args["cache-dir"] === undefined || args["cache-dir"] === "none"
  ? false
  : args["cache-dir"];

/** Work a contender does after its frame is back, waited for before its CPU time is read. */
const afterFrame: () => Promise<void> | undefined = () => undefined;

/** Temporary files a contender made, removed after the clock stops. */
const leftovers: string[] = [];

/** The bytes of `local`, read before the clock starts (`md5` mode). */
const inMemory = args.mode === "md5" ? await Deno.readFile(args.local!) : undefined;

async function run(): Promise<
  { rows: number; columns: number; frameBytes?: number; route?: string; checksum?: string }
> {
  switch (args.mode) {
    case "floor": {
      const frame = pl.readCSV(args.local!);
      return { rows: frame.height, columns: frame.width };
    }
    case "stat-floor": {
      // The least a cached re-read can take in a new process: the one request that tells
      // whether the copy is still the server's version, then Polars reading a local file.
      await statRequest();
      const frame = pl.readCSV(args.local!);
      return { rows: frame.height, columns: frame.width };
    }
    case "stat-naive": {
      // The least a read that pins its version can take without a cache: that request, then
      // the naive path.
      await statRequest();
      const bytes = await (await fetch(downloadUrl())).arrayBuffer();
      const frame = pl.readCSV(Buffer.from(bytes));
      return { rows: frame.height, columns: frame.width };
    }
    case "naive": {
      const bytes = await (await fetch(downloadUrl())).arrayBuffer();
      const frame = pl.readCSV(Buffer.from(bytes));
      return { rows: frame.height, columns: frame.width };
    }
    case "simple": {
      const tmp = await Deno.makeTempFile({ suffix: ".csv" });
      leftovers.push(tmp);
      await Deno.writeFile(tmp, (await fetch(downloadUrl())).body!);
      const frame = pl.readCSV(tmp);
      return { rows: frame.height, columns: frame.width };
    }
    case "raw": {
      let size = 0;
      for await (const chunk of (await fetch(downloadUrl())).body!) size += chunk.byteLength;
      return { rows: size, columns: 0 };
    }
    case "md5": {
      const hash = createHash("md5");
      // The chunk size a body arrives in; larger updates hash no faster.
      for (let at = 0; at < inMemory!.length; at += 65536) {
        hash.update(inMemory!.subarray(at, at + 65536));
      }
      hash.digest("hex");
      return { rows: inMemory!.length, columns: 0 };
    }
    case "tern": {
      const store = warmed ?? connect({ url: args.url, anonymous: true, cacheDir });
      let route: string | undefined;
      const frame = await store.file(args.path!).dataframe({
        // The naive path's frame (the date column as text), so both sides do the same work; what
        // parsing it costs is the first-read suite's row.
        tryParseDates: args.dates === "true",
        onProgress: (event) => route ??= event.route,
      });
      const checksum = store.provenance.reads[0]?.checksum;
      return { rows: frame.height, columns: frame.width, route, checksum };
    }
    case "tern-route": {
      if (args.route !== "stream") throw new Error(`unknown route ${args.route}`);
      const store = connect({ url: args.url, anonymous: true, cacheDir });
      // The batch route: parsed from the arriving chunks, bounded memory; without the cache, so
      // the work is the same as in earlier figures (with one, batches() also writes the copy).
      let rows = 0;
      let columns = 0;
      const batches = store.file(args.path!).batches({
        rows: 1_000_000,
        tryParseDates: false,
        cache: false,
      });
      for await (const batch of batches) {
        rows += batch.height;
        columns = batch.width;
      }
      return { rows, columns, route: "stream" };
    }
    case "tern-batch": {
      const store = connect({ url: args.url, anonymous: true, cacheDir: false });
      const file = store.file(args.path!);
      // Batches of about `batch-mib` MiB of CSV (some 45 bytes a row), parsed as they arrive.
      const rows = Math.max(1, Math.round(Number(args["batch-mib"]) * 1024 * 1024 / 45));
      let height = 0;
      let width = 0;
      for await (const batch of file.batches({ rows, tryParseDates: false })) {
        height += batch.height;
        width = batch.width;
      }
      return { rows: height, columns: width };
    }
    case "many": {
      const store = connect({
        url: args.url,
        anonymous: true,
        cacheDir,
        concurrency: Number(args.concurrency ?? 4),
      });
      const frame = await store.folder(args.path!).list({ type: "file" }).dataframes();
      return { rows: frame.height, columns: frame.width };
    }
    case "many-plain":
    case "many-plain-disk": {
      const keep = args.mode === "many-plain-disk" ? cacheDir : undefined;
      const paths: string[] = [];
      for (let offset = 0;; offset += 1000) {
        const query = new URLSearchParams({
          path: args.path!,
          limit: "1000",
          offset: String(offset),
          "entity-type": "file",
        });
        const page = await (await fetch(`${args.url}/filesystem/paged-directory?${query}`)).json();
        paths.push(...page.files.map((file: { path: string }) => file.path));
        if (page.files.length < 1000) break;
      }
      const frames: ReturnType<typeof pl.readCSV>[] = new Array(paths.length);
      let next = 0;
      const loop = async () => {
        while (next < paths.length) {
          const at = next++;
          const url = `${args.url}/fileio/download?path=${encodeURIComponent(paths[at])}`;
          const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
          if (keep) await Deno.writeFile(`${keep}/${at}.csv`, bytes, { createNew: true });
          frames[at] = pl.readCSV(Buffer.from(bytes.buffer));
        }
      };
      await Promise.all(Array.from({ length: Number(args.concurrency ?? 4) }, loop));
      const frame = pl.concat(frames, { how: "diagonalRelaxed", rechunk: false });
      return { rows: frame.height, columns: frame.width };
    }
    case "frame-size": {
      const frame = pl.readCSV(args.local!);
      return { rows: frame.height, columns: frame.width, frameBytes: frame.writeIPC().length };
    }
    default:
      throw new Error(`unknown mode ${args.mode}`);
  }
}

// Load and warm Polars (and the module graph) before the clock starts.
pl.readCSV("a,b\n1,2\n");
const warmed = args.warm === undefined
  ? undefined
  : connect({ url: args.url, anonymous: true, cacheDir });
await warmed?.file(args.warm!).dataframe();
const before = status();
const cpuBefore = cpuMs();
const mainBefore = mainCpuMs();
const started = performance.now();
const result = await run();
const ms = performance.now() - started;
await afterFrame();
const cpu = cpuMs() - cpuBefore;
const mainCpu = mainCpuMs() - mainBefore;
for (const file of leftovers) await Deno.remove(file).catch(() => {});
console.log(
  JSON.stringify({
    ms,
    cpuMs: cpu,
    mainCpuMs: mainCpu,
    ...result,
    peakRss: status().hwm,
    rssBefore: before.rss,
  }),
);
