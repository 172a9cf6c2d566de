/**
 * A child process for the scan tests whose failure on older code was a process abort (a Polars
 * panic): scans a Parquet file, then changes it on the server's disk or makes the server lie
 * about ranges, collects, and prints what happened as one JSON line. Run as
 * `deno run -A tests/data/_scan_change.ts SCENARIO…` with each SCENARIO one of `same-size`,
 * `smaller`, `lie-long`, `lie-short`, `lie-label`, `lie-chunked` (a long body without
 * `Content-Length`), `lie-cut` (the right `Content-Length`, then the connection breaks halfway)
 * (lying only after the scan) and `lie-long-early` (lying from the start): one after another,
 * each with a store, a server and a cache of its own, one line each as it ends (an abort
 * leaves the lines of those before it).
 *
 * @module
 */

import pl from "../../polars.ts";
import { connect } from "../../mod.ts";
import { DATA, dataStore } from "./_store.ts";
import { frontProxy } from "./_proxy.ts";

const PATH = `${DATA}/values.parquet`;
// Small: what these scenarios check (a version pinned, a range counted) needs no size, and a
// file of a million rows made the child the longest part of the suite. Polars fetches all three
// row groups of a file this small in one range.
const ROWS = 30_000;
const GROUP = 10_000;

/** A Parquet file of `rows` Int64 values from `offset`, in row groups of {@linkcode GROUP}. */
function parquet(rows: number, offset: number): Uint8Array {
  const values = Array.from({ length: rows }, (_, i) => i + offset);
  const path = Deno.makeTempFileSync({ suffix: ".parquet" });
  try {
    // nodejs-polars 0.25.2 honours rowGroupSize although its types leave it out.
    const options = { compression: "uncompressed", rowGroupSize: GROUP } as const;
    pl.DataFrame({ x: pl.Series("x", values, pl.Int64) }).writeParquet(path, options);
    return Deno.readFileSync(path);
  } finally {
    Deno.removeSync(path);
  }
}

/** A proxy in front of `upstream` (a Terrain base URL) that lies about ranges once told to. */
function lyingProxy(upstream: string, how: string) {
  const state = { lying: false };
  const proxy = frontProxy(upstream, {
    async answer(_request, answer) {
      if (!state.lying || answer.status !== 206) return undefined;
      const headers = new Headers(answer.headers);
      let body = new Uint8Array(await answer.arrayBuffer());
      if (how === "long") body = new Uint8Array([...body, ...new Uint8Array(100)]);
      if (how === "short") body = body.subarray(0, Math.max(0, body.length - 100));
      if (how === "label") {
        const shifted = (_: string, a: string, b: string) => `${+a + 1}-${+b + 1}`;
        headers.set("content-range", headers.get("content-range")!.replace(/(\d+)-(\d+)/, shifted));
      }
      if (how === "cut") {
        // The right Content-Length, then the connection breaks halfway through the body.
        const half = body.subarray(0, body.length >> 1);
        const cut = new ReadableStream({
          start(controller) {
            controller.enqueue(half);
            controller.error(new Error("connection cut"));
          },
        });
        return new Response(cut, { status: 206, headers });
      }
      if (how === "chunked") {
        // A longer body with no Content-Length: only counting the bytes finds it out.
        headers.delete("content-length");
        const long = new Uint8Array([...body, ...new Uint8Array(100)]);
        return new Response(ReadableStream.from([long]), { status: 206, headers });
      }
      headers.set("content-length", String(body.length));
      return new Response(body, { status: 206, headers });
    },
  });
  return { url: proxy.url, state, close: () => proxy[Symbol.asyncDispose]() };
}

const before = parquet(ROWS, 0);

/** Runs one scenario: what the first and the second collect() gave. */
async function run(scenario: string) {
  // The version renamed in; the lying scenarios never change the file.
  const after = scenario.startsWith("lie-")
    ? undefined
    : scenario === "smaller"
    ? parquet(ROWS - GROUP, 5_000_000)
    : parquet(ROWS, 5_000_000);
  if (scenario === "same-size" && after?.length !== before.length) {
    throw new Error("sizes differ");
  }
  await using served = await dataStore({ [PATH]: before });
  const lying = scenario.startsWith("lie-")
    ? lyingProxy(served.url, scenario.split("-")[1])
    : undefined;
  if (lying && scenario.endsWith("-early")) lying.state.lying = true;
  await using store = connect({
    url: lying?.url ?? served.url,
    anonymous: true,
    cacheDir: served.cacheDir,
  });
  const lazy = await store.file(PATH).scan();
  if (lying) lying.state.lying = true;
  else {
    const disk = `${served.root}${PATH}`;
    await Deno.writeFile(`${disk}.new`, after!);
    await Deno.rename(`${disk}.new`, disk);
  }

  const filter = pl.col("x").gtEq(pl.lit(2 * GROUP).cast(pl.Int64));
  const truth = (bytes: Uint8Array) => pl.readParquet(Buffer.from(bytes)).filter(filter);
  const outcome = async (collect: () => Promise<{ toRecords(): unknown[] }>) => {
    try {
      const rows = JSON.stringify((await collect()).toRecords());
      const which = rows === JSON.stringify(truth(before).toRecords())
        ? "old"
        : after !== undefined && rows === JSON.stringify(truth(after).toRecords())
        ? "new"
        : "neither";
      return { frame: which };
    } catch (error) {
      const { name, message } = error as Error;
      return { error: name, message };
    }
  };
  const first = await outcome(() => lazy.filter(filter).collect());
  const again = await outcome(() => lazy.filter(filter).collect());
  await lying?.close();
  return { first, again };
}

for (const scenario of Deno.args) {
  console.log(JSON.stringify({ scenario, ...await run(scenario) }));
}
