/**
 * A real distributed engine reads what a manifest hands it: Dask distributed, with a
 * `LocalCluster` of two worker processes, runs the manifest's Dask code (the very code
 * `engineSnippets` gives and docs/engines.md shows) against the embedded server, and reads
 * public CSV, TSV, JSON and JSON Lines files, a 35 MB CSV in byte-range partitions, and private
 * files of the same four formats through Terrain's download with the token as a bearer header.
 * Its rows and column sums must equal tern's own frames of the same files. The same code, given
 * a manifest with a private row on another host, or a token for another store, sends the token
 * nowhere (issue 29); given a wrong token, it fails the way docs/engines.md says.
 *
 * Skipped, saying what is missing, where Debian's `/usr/bin/python3` lacks dask, distributed,
 * aiohttp, requests or pandas (CI's .ci/run installs them). The token reaches Python through the
 * environment only, never argv.
 *
 * @module
 */

import assert from "node:assert/strict";
import { connect, type DataFrame, writeManifest } from "../../mod.ts";
import pl from "../../polars.ts";
import { engineSnippets, snippetPlan } from "../../lib/listing/engines.ts";
import { ALICE, DEMO, usersFile } from "../_store.ts";
import { serveCapture } from "../_capture.ts";
import { dataStore } from "../data/_store.ts";
const PYTHON = "/usr/bin/python3";
const MODULES = ["dask", "distributed", "aiohttp", "requests", "pandas"];

/** Why the test cannot run here, or undefined when it can. */
async function missingPython(): Promise<string | undefined> {
  try {
    const { success, stderr } = await new Deno.Command(PYTHON, {
      args: ["-c", `import ${MODULES.join(", ")}`],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (success) return undefined;
    const last = new TextDecoder().decode(stderr).trim().split("\n").at(-1);
    return `${PYTHON} cannot import ${MODULES.join(", ")} (${last})`;
  } catch (error) {
    return `${PYTHON} cannot run (${(error as Error).message})`;
  }
}

const missing = await missingPython();
if (missing !== undefined) console.warn(`Dask test skipped: ${missing}`);

const FOLDER = "/iplant/home/shared/engines";
const PRIVATE = "/iplant/home/demo/engines";
/**
 * Rows of the large CSV: about 35 MB, two of the 16 MB blocks of the code's `dd.read_csv` (Dask
 * makes size ÷ blocksize partitions, rounded down), so it arrives in two byte-range partitions.
 * More adds no partition boundary, only parsing.
 */
const LARGE_ROWS = 1_600_000;
/** The table formats of the test's files, public and private: the ones Dask's code reads. */
const FORMATS = ["csv", "tsv", "json", "ndjson"] as const;

/**
 * A table of `rows` rows from `start` in `format`: integer, text, and float columns whose values
 * are exact binary fractions, so every engine's sums are exact and comparable with `equal`.
 * CSV and TSV rows are written as text directly: the large CSV's 1.6 million rows as objects
 * cost seconds of CPU.
 */
function table(start: number, rows: number, format: (typeof FORMATS)[number] = "csv"): string {
  if (format === "json" || format === "ndjson") {
    const records = Array.from({ length: rows }, (_, index) => {
      const id = start + index;
      return { id, station: `s${id % 50}`, reading: (id % 1000) / 8, count: (id * 7919) % 1000 };
    });
    if (format === "json") return `${JSON.stringify(records)}\n`;
    return records.map((record) => `${JSON.stringify(record)}\n`).join("");
  }
  const sep = format === "tsv" ? "\t" : ",";
  const lines = [["id", "station", "reading", "count"].join(sep)];
  for (let id = start; id < start + rows; id++) {
    lines.push(`${id}${sep}s${id % 50}${sep}${(id % 1000) / 8}${sep}${(id * 7919) % 1000}`);
  }
  return `${lines.join("\n")}\n`;
}

/** What Python prints: the cluster, and each frame's partitions, rows and column sums. */
interface DaskResult {
  workers: number;
  workerPids: number[];
  mainPid: number;
  public: { partitions: number; rows: number; sums: Record<string, number> };
  publicPartitionRows: number[];
  private: { partitions: number; rows: number; sums: Record<string, number> };
  privatePartitionRows: number[];
}

/** Runs the code as a program would, then reports on the frames it made. */
const HARNESS = `
import json, os, sys
import dask
snippet = open(sys.argv[1]).read()
namespace = {"__name__": "__main__"}
exec(compile(snippet, sys.argv[1], "exec"), namespace)
client, public, private = namespace["client"], namespace["public"], namespace["private"]
def summary(frame):
    numeric = frame.select_dtypes("number")
    return {"rows": len(frame.index), "sums": numeric.sum()}
public_summary, private_summary, public_lengths, private_lengths = dask.compute(
    summary(public), summary(private), public.map_partitions(len), private.map_partitions(len))
def plain(part, frame):
    return {"partitions": frame.npartitions, "rows": int(part["rows"]),
            "sums": {name: float(value) for name, value in part["sums"].items()}}
print(json.dumps({
    "workers": len(client.scheduler_info()["workers"]),
    "workerPids": sorted(set(client.run(os.getpid).values())),
    "mainPid": os.getpid(),
    "public": plain(public_summary, public),
    "publicPartitionRows": [int(rows) for rows in public_lengths],
    "private": plain(private_summary, private),
    "privatePartitionRows": [int(rows) for rows in private_lengths],
}))
client.close()
namespace["cluster"].close()
`;

/**
 * Runs Python on `code` (written to `folder/snippet.py`) in `folder`, with only `env` (and a
 * PATH and HOME) in its environment: through the harness, or as a script of its own.
 */
async function runPython(
  folder: string,
  code: string,
  env: Record<string, string>,
  options: { harness: boolean },
): Promise<{ success: boolean; stdout: string; stderr: string }> {
  await Deno.writeTextFile(`${folder}/snippet.py`, code);
  const output = await new Deno.Command(PYTHON, {
    args: options.harness ? ["-c", HARNESS, `${folder}/snippet.py`] : [`${folder}/snippet.py`],
    cwd: folder,
    clearEnv: true,
    env: {
      PATH: "/usr/bin:/bin",
      HOME: folder,
      // Dask's worker scratch space, inside the folder the test removes.
      DASK_TEMPORARY_DIRECTORY: folder,
      PYTHONDONTWRITEBYTECODE: "1",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { success: output.success, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** The Dask code a manifest's notebook view shows (what a user copies from it). */
async function daskCodeOfView(manifest: DataFrame): Promise<string> {
  const show = (manifest as unknown as Record<symbol, () => Promise<Record<string, string>>>)[
    Symbol.for("Jupyter.display")
  ];
  const text = (await show.call(manifest))["text/plain"];
  const code = /^# Dask \(Python\)\n([^]*?)^# DuckDB/m.exec(text)?.[1];
  assert.ok(code !== undefined, text);
  return code;
}

Deno.test({
  name: "dask: two worker processes read public, large (byte ranges) and private files of a " +
    "manifest, in CSV, TSV, JSON and JSON Lines",
  ignore: missing !== undefined,
  // Dask's cluster holds sockets and processes of its own until Python exits.
  sanitizeResources: false,
  async fn(t) {
    const small = { csv: [300, 1_000, 20], tsv: 77, json: 33, ndjson: 55 };
    const privateRows = { csv: 500, tsv: 44, json: 22, ndjson: 66 };
    await using store = await dataStore({
      [`${FOLDER}/a.csv`]: table(0, small.csv[0]),
      [`${FOLDER}/b.csv`]: table(10_000, small.csv[1]),
      [`${FOLDER}/c.csv`]: table(50_000, small.csv[2]),
      [`${FOLDER}/d.tsv`]: table(60_000, small.tsv, "tsv"),
      [`${FOLDER}/e.json`]: table(70_000, small.json, "json"),
      [`${FOLDER}/f.ndjson`]: table(80_000, small.ndjson, "ndjson"),
      [`${FOLDER}/notes.txt`]: "not a table\n",
      ...Object.fromEntries(FORMATS.map((format, index) => [
        `${PRIVATE}/private.${format}`,
        table(900_000 + 1_000 * index, privateRows[format], format),
      ])),
      "/.terrain/users.json": usersFile(DEMO, ALICE, 300),
    });
    await store.write(`${FOLDER}/large.csv`, table(1_000_000, LARGE_ROWS));
    const largeSize = (await Deno.stat(`${store.root}${FOLDER}/large.csv`)).size;
    assert.ok(largeSize >= 32e6, `the large CSV has ${largeSize} bytes`);

    const tern = connect({ url: store.url, token: DEMO.token, cacheDir: store.cacheDir });
    const publicManifest = await tern.folder(FOLDER).list().manifest();
    const privateManifest = await tern.folder(PRIVATE).list().manifest();
    const manifest = publicManifest.vstack(privateManifest);
    assert.deepEqual(manifest.getColumn("access").toArray(), [
      ...Array(8).fill("public"),
      ...Array(4).fill("token"),
    ]);

    const folder = await Deno.makeTempDir({ prefix: "tern-dask-" });
    try {
      const path = `${folder}/manifest.csv`;
      await writeManifest(manifest, path);
      // The code docs/engines.md shows, with this manifest's path and this store's URL.
      const plan = snippetPlan(manifest, { manifest: path, store: store.url });
      assert.deepEqual(plan, { manifest: path, store: store.url, public: FORMATS, token: FORMATS });
      const [dask] = engineSnippets(plan);
      assert.ok(dask.tested);
      // TERRAIN_URL as a person may write it: the code compares stores as tern does.
      const env = {
        TERRAIN_URL: `${store.url.replace("http:", "HTTP:")}/`,
        TERRAIN_TOKEN: DEMO.token,
      };

      await t.step("the rows and sums are tern's, TSV's included", async () => {
        const run = await runPython(folder, dask.code, env, { harness: true });
        assert.ok(run.success, `python failed:\n${run.stderr.slice(-4000)}`);
        const result: DaskResult = JSON.parse(run.stdout.trim().split("\n").at(-1)!);

        // Two worker processes, neither of them the one that ran the code.
        assert.equal(result.workers, 2);
        assert.equal(result.workerPids.length, 2);
        assert.ok(!result.workerPids.includes(result.mainPid));

        // CSV partitions first, one per small file (in the manifest's order), the 35 MB file's
        // several, each read as a byte range (fsspec refuses to read from an offset when a
        // server answers a range request with the whole file, so more than one partition means
        // ranges); then the TSV, JSON and JSON Lines files, one partition each.
        const rows = result.publicPartitionRows;
        assert.deepEqual(rows.slice(-3), [small.tsv, small.json, small.ndjson]);
        const [a, b, c] = rows;
        const large = rows.slice(3, -3);
        assert.deepEqual([a, b, c], small.csv);
        assert.ok(large.length >= 2 && large.every((count) => count > 0), `${large}`);
        assert.equal(large.reduce((sum, count) => sum + count, 0), LARGE_ROWS);
        assert.equal(result.public.partitions, rows.length);
        // Terrain's download answers no ranges: each private file is one partition.
        assert.deepEqual(
          result.privatePartitionRows,
          FORMATS.map((format) => privateRows[format]),
        );

        // Same rows and sums as tern's frames of the same files: a TSV read with the wrong
        // separator would be one text column, and its numbers would be missing from the sums.
        const expected = async (paths: string[]) => {
          let rows = 0;
          const sums: Record<string, number> = { id: 0, reading: 0, count: 0 };
          for (const path of paths) {
            const frame = await tern.file(path).dataframe();
            rows += frame.height;
            for (const name of Object.keys(sums)) {
              sums[name] += Number(frame.getColumn(name).sum());
            }
          }
          return { rows, sums };
        };
        const tables = (frame: DataFrame) =>
          frame.filter(pl.col("format").isNotNull()).getColumn("path").toArray() as string[];
        const { partitions: _p, ...publicSeen } = result.public;
        const { partitions: _q, ...privateSeen } = result.private;
        assert.deepEqual(publicSeen, await expected(tables(publicManifest)));
        assert.deepEqual(privateSeen, await expected(tables(privateManifest)));
        assert.equal(publicSeen.rows, 300 + 1_000 + 20 + LARGE_ROWS + 77 + 33 + 55);
      });

      await t.step("a wrong token: the OSError docs/engines.md explains", async () => {
        // Terrain refuses a token it did not sign (403; 401 without one), which fsspec takes
        // for a missing file.
        const wrong = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vIn0.not-the-signature";
        const url = privateManifest.getColumn("url").get(0) as string;
        const refused = await fetch(url, { headers: { authorization: `Bearer ${wrong}` } });
        assert.equal(refused.status, 403);
        assert.match(await refused.text(), /ERR_FORBIDDEN/);
        const run = await runPython(
          folder,
          dask.code,
          { ...env, TERRAIN_TOKEN: wrong },
          { harness: false },
        );
        assert.ok(!run.success);
        const quoted = url.replace(/[.?[\]]/g, "\\$&");
        assert.match(
          run.stderr,
          new RegExp(`^OSError: .* Original Message: \\['${quoted}'\\] resolved to no files$`, "m"),
        );
      });
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  },
});

Deno.test({
  name: "dask: the code a manifest shows sends the token only to the store it was made for, " +
    "when TERRAIN_URL names it (issue 29)",
  ignore: missing !== undefined,
  sanitizeResources: false,
  async fn(t) {
    await using store = await dataStore({
      [`${PRIVATE}/private.csv`]: table(900_000, 50),
      "/.terrain/users.json": usersFile(DEMO, ALICE, 300),
    });
    // Passes every request on to the real store, so the token would work there.
    await using capture = serveCapture(store.url);
    const folder = await Deno.makeTempDir({ prefix: "tern-dask-" });
    try {
      await t.step("a private row on another host: refused, no request sent there", async () => {
        const tern = connect({ url: store.url, token: DEMO.token, cacheDir: false });
        const manifest = await tern.folder(PRIVATE).list().manifest();
        const code = await daskCodeOfView(manifest);
        const elsewhere = `${capture.url}/secured/fileio/download?path=${PRIVATE}/private.csv`;
        const hostile = manifest.vstack(
          manifest.head(1).withColumns(pl.lit(elsewhere).alias("url")),
        );
        await writeManifest(hostile, `${folder}/manifest.csv`);
        const run = await runPython(
          folder,
          code,
          { TERRAIN_URL: store.url, TERRAIN_TOKEN: DEMO.token },
          { harness: false },
        );
        assert.deepEqual(capture.authorizations(), []);
        assert.deepEqual(capture.requests, []);
        assert.ok(!run.success, run.stdout);
        assert.ok(
          run.stderr.includes(
            "ValueError: Not sending TERRAIN_TOKEN to private rows of the manifest that are not " +
              `on ${store.url}, the store it was made for (1): ${elsewhere}\n`,
          ),
          run.stderr,
        );
      });

      await t.step("a token for another store than the manifest's: sent nowhere", async () => {
        const tern = connect({ url: capture.url, token: DEMO.token, cacheDir: false });
        const manifest = await tern.folder(PRIVATE).list().manifest();
        assert.ok(manifest.getColumn("url").get(0).startsWith(`${capture.url}/secured/`));
        const code = await daskCodeOfView(manifest);
        await writeManifest(manifest, `${folder}/manifest.csv`);
        capture.clear();
        // TERRAIN_URL unset: the token is for tern's default store; set: for the one it names.
        const environments: Record<string, string>[] = [{}, { TERRAIN_URL: store.url }];
        for (const env of environments) {
          const run = await runPython(
            folder,
            code,
            { ...env, TERRAIN_TOKEN: DEMO.token },
            { harness: false },
          );
          assert.deepEqual(capture.authorizations(), []);
          assert.ok(!run.success, run.stdout);
          assert.ok(
            run.stderr.includes(
              `ValueError: Not sending TERRAIN_TOKEN: this manifest was made for ${capture.url}`,
            ),
            run.stderr,
          );
        }
      });
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  },
});
