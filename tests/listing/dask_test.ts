/**
 * A real distributed engine reads what a manifest hands it: Dask distributed, with a
 * `LocalCluster` of two worker processes, runs the manifest's Dask snippet (the very code
 * `engineSnippets` gives and docs/engines.md shows) against the embedded server, and reads
 * public CSVs, a 40 MB CSV in byte-range partitions, and a private CSV through Terrain's download
 * with the token as a bearer header. Its rows and column sums must equal tern's own frames of the
 * same files.
 *
 * Skipped, saying what is missing, where Debian's `/usr/bin/python3` lacks dask, distributed,
 * aiohttp, requests or pandas (CI's .ci/run installs them). The token reaches Python through the
 * environment only, never argv.
 *
 * @module
 */

import assert from "node:assert/strict";
import { connect, writeManifest } from "../../mod.ts";
import { engineSnippets } from "../../lib/listing/engines.ts";
import { ALICE, DEMO, usersFile } from "../_store.ts";
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
const PRIVATE = "/iplant/home/demo/engines/private.csv";
/** Rows of the large CSV: about 41 MB, over the 40 MB the engine run read. */
const LARGE_ROWS = 1_900_000;

/**
 * A CSV of `rows` rows from `start`: integer, text, and float columns whose values are exact
 * binary fractions, so every engine's sums are exact and comparable with `equal`.
 */
function csv(start: number, rows: number): string {
  const lines = ["id,station,reading,count"];
  for (let id = start; id < start + rows; id++) {
    lines.push(`${id},s${id % 50},${(id % 1000) / 8},${(id * 7919) % 1000}`);
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
}

/** Runs the snippet as a program would, then reports on the frames it made. */
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
public_summary, private_summary, public_lengths = dask.compute(
    summary(public), summary(private), public.map_partitions(len))
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
}))
client.close()
namespace["cluster"].close()
`;

Deno.test({
  name:
    "dask: two worker processes read public, large (byte ranges) and private files of a manifest",
  ignore: missing !== undefined,
  // Dask's cluster holds sockets and processes of its own until Python exits.
  sanitizeResources: false,
  async fn() {
    const small = [csv(0, 300), csv(10_000, 1_000), csv(50_000, 20)];
    await using store = await dataStore({
      [`${FOLDER}/a.csv`]: small[0],
      [`${FOLDER}/b.csv`]: small[1],
      [`${FOLDER}/c.csv`]: small[2],
      [`${FOLDER}/notes.txt`]: "not a table\n",
      [PRIVATE]: csv(900_000, 500),
      "/.terrain/users.json": usersFile(DEMO, ALICE, 300),
    });
    await store.write(`${FOLDER}/large.csv`, csv(1_000_000, LARGE_ROWS));
    const largeSize = (await Deno.stat(`${store.root}${FOLDER}/large.csv`)).size;
    assert.ok(largeSize >= 40e6, `the large CSV has ${largeSize} bytes`);

    const tern = connect({ url: store.url, token: DEMO.token, cacheDir: store.cacheDir });
    const publicManifest = await tern.folder(FOLDER).list({ glob: "*.csv" }).manifest();
    const privateManifest = await tern.folder("/iplant/home/demo/engines").list().manifest();
    const manifest = publicManifest.vstack(privateManifest);
    assert.deepEqual(manifest.getColumn("access").toArray(), [
      "public",
      "public",
      "public",
      "public",
      "token",
    ]);

    const folder = await Deno.makeTempDir({ prefix: "tern-dask-" });
    try {
      await writeManifest(manifest, `${folder}/manifest.csv`);
      const dask = engineSnippets({
        manifest: `${folder}/manifest.csv`,
        format: "csv",
        public: true,
        token: true,
      })[0];
      assert.ok(dask.tested);
      await Deno.writeTextFile(`${folder}/dask_snippet.py`, dask.code);
      const output = await new Deno.Command(PYTHON, {
        args: ["-c", HARNESS, `${folder}/dask_snippet.py`],
        cwd: folder,
        clearEnv: true,
        env: {
          PATH: "/usr/bin:/bin",
          HOME: folder,
          TERRAIN_TOKEN: DEMO.token,
          // Dask's worker scratch space, inside the folder this test removes.
          DASK_TEMPORARY_DIRECTORY: folder,
          PYTHONDONTWRITEBYTECODE: "1",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(output.stdout);
      const stderr = new TextDecoder().decode(output.stderr);
      assert.ok(output.success, `python failed:\n${stderr.slice(-4000)}`);
      const result: DaskResult = JSON.parse(stdout.trim().split("\n").at(-1)!);

      // Two worker processes, neither of them the one that ran the snippet.
      assert.equal(result.workers, 2);
      assert.equal(result.workerPids.length, 2);
      assert.ok(!result.workerPids.includes(result.mainPid));

      // One partition per small file (in the manifest's order); the 41 MB file spans several,
      // each read as a byte range (fsspec refuses to read from an offset when a server answers
      // a range request with the whole file, so more than one partition means ranges).
      const [a, b, c, ...large] = result.publicPartitionRows;
      assert.deepEqual([a, b, c], [300, 1_000, 20]);
      assert.ok(large.length >= 2 && large.every((rows) => rows > 0), `${large}`);
      assert.equal(large.reduce((sum, rows) => sum + rows, 0), LARGE_ROWS);
      assert.equal(result.public.partitions, 3 + large.length);
      // Terrain's download answers no ranges: the private file is one partition.
      assert.equal(result.private.partitions, 1);

      // Same rows and sums as tern's frames of the same files.
      const expected = async (paths: string[]) => {
        let rows = 0;
        const sums: Record<string, number> = { id: 0, reading: 0, count: 0 };
        for (const path of paths) {
          const frame = await tern.file(path).dataframe();
          rows += frame.height;
          for (const name of Object.keys(sums)) sums[name] += Number(frame.getColumn(name).sum());
        }
        return { rows, sums };
      };
      const publicPaths = publicManifest.getColumn("path").toArray() as string[];
      const { partitions: _p, ...publicSeen } = result.public;
      const { partitions: _q, ...privateSeen } = result.private;
      assert.deepEqual(publicSeen, await expected(publicPaths));
      assert.deepEqual(privateSeen, await expected([PRIVATE]));
      assert.equal(publicSeen.rows, 300 + 1_000 + 20 + LARGE_ROWS);
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  },
});
