/**
 * Where the sample store lives: `serveSampleStore({ dir })` and `TERN_SAMPLE_STORE` choose the
 * folder (instead of the one in the user's cache folder that every process shares), and
 * `sample-store --reset` rebuilds it there, undoing edits. One store, built in a temporary
 * folder, serves every step; only the reset builds it again.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serveSampleStore } from "../../lib/sample/example.ts";
import { sampleStoreMain } from "../../lib/sample/main.ts";
import {
  buildSampleStore,
  isSampleStoreCurrent,
  resetSampleStore,
  SampleStoreError,
  STAMP_FILE,
  TERN_SAMPLES_PATH,
} from "../../lib/sample/mod.ts";
import { runTern } from "../cli/_cli.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** The names of the anonymous listing of `TERN_SAMPLES_PATH` on the server at `url`. */
async function sampleNames(url: string): Promise<string[]> {
  const query = `path=${encodeURIComponent(TERN_SAMPLES_PATH)}&limit=100`;
  const listing = await (await fetch(`${url}/filesystem/paged-directory?${query}`)).json();
  return [...listing.folders, ...listing.files].map((item: { label: string }) => item.label);
}

/**
 * Runs a script serving `serveSampleStore()` in `cwd` with `env` (TERRAIN_* and the shared
 * test server left out), and returns what it printed: the names it listed.
 */
async function serveInChild(cwd: string, env: Record<string, string>): Promise<string[]> {
  const script = join(cwd, "serve.ts");
  await Deno.writeTextFile(
    script,
    `import { serveSampleStore } from "${ROOT}/sample.ts";
const server = await serveSampleStore();
const query = "path=${encodeURIComponent(TERN_SAMPLES_PATH)}&limit=100";
const listing = await (await fetch(\`\${server.url}/filesystem/paged-directory?\${query}\`)).json();
console.log(JSON.stringify(listing.files.map((item) => item.label)));
await server.close();
`,
  );
  const inherited = Object.entries(Deno.env.toObject())
    .filter(([name]) => !name.startsWith("TERRAIN_") && !name.startsWith("TERN_"));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script],
    cwd,
    clearEnv: true,
    env: { ...Object.fromEntries(inherited), ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Only turns a script that never ends into a failure rather than a hang.
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 90_000);
  const output = await child.output().finally(() => clearTimeout(watchdog));
  await Deno.remove(script);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

Deno.test("the sample store lives where dir or TERN_SAMPLE_STORE says; --reset rebuilds it there", async (t) => {
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-sample-home-" }));
  const dir = join(parent, "store");
  try {
    await buildSampleStore(dir);
    const stamp = () => Deno.statSync(join(dir, STAMP_FILE)).ino;
    const built = stamp();
    // What tells this store from any other: a file added, and one edited.
    const samples = join(dir, TERN_SAMPLES_PATH);
    await Deno.writeTextFile(join(samples, "marker.txt"), "only here\n");
    const readme = join(samples, "README.txt");
    const original = await Deno.readTextFile(readme);
    await Deno.writeTextFile(readme, "edited\n");

    await t.step("serveSampleStore({ dir }) serves that folder, as it is", async () => {
      await using server = await serveSampleStore({ dir });
      assert.ok((await sampleNames(server.url)).includes("marker.txt"));
      assert.equal(stamp(), built, "not rebuilt");
    });

    await t.step("TERN_SAMPLE_STORE (relative: from the current folder) names it", async () => {
      const names = await serveInChild(parent, { TERN_SAMPLE_STORE: "store" });
      assert.ok(names.includes("marker.txt"), JSON.stringify(names));
      assert.equal(stamp(), built, "not rebuilt");
    });

    await t.step("tern sample-store --reuse finds it through TERN_SAMPLE_STORE", async () => {
      const run = await runTern(["sample-store", "--reuse"], {
        cwd: parent,
        env: { TERN_SAMPLE_STORE: "store" },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^Sample store ready at ${dir}`));
      assert.equal(stamp(), built, "not rebuilt");
    });

    await t.step("sample-store --reset rebuilds it there, undoing the edits", async () => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await sampleStoreMain(["--reset"], {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
        cwd: parent,
        env: { TERN_SAMPLE_STORE: "store" },
      });
      assert.equal(code, 0, err.join("\n"));
      assert.equal(out[0], `Sample store written to ${dir}`);
      assert.notEqual(stamp(), built, "rebuilt");
      await assert.rejects(Deno.stat(join(samples, "marker.txt")), Deno.errors.NotFound);
      assert.equal(await Deno.readTextFile(readme), original);
      assert.equal(await isSampleStoreCurrent(dir), true);
      const left = [...Deno.readDirSync(parent)].map((entry) => entry.name);
      assert.deepEqual(left, ["store"], "no lock or temporary folder left beside it");
    });
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("sample-store: --reset and --reuse exclude each other; DIR is needed without them", async () => {
  const err: string[] = [];
  const io = { out: () => {}, err: (line: string) => err.push(line), env: {} };
  assert.equal(await sampleStoreMain(["--reset", "--reuse"], io), 2);
  assert.match(err[0], /--reuse and --reset exclude each other/);
  err.length = 0;
  assert.equal(await sampleStoreMain([], io), 2);
  assert.match(err[0], /missing DIR .*--reset rebuilds the sample store where it lives/);
  err.length = 0;
  // With neither TERN_SAMPLE_STORE nor a home folder, there is no default to reset.
  assert.equal(await sampleStoreMain(["--reset"], io), 1);
  assert.match(err[0], /none of TERN_SAMPLE_STORE, XDG_CACHE_HOME and HOME is set/);
});

Deno.test("sample store: a folder that is not one is refused, and nothing beside it is removed", async () => {
  const parent = await Deno.makeTempDir({ prefix: "tern-sample-home-" });
  try {
    const dir = join(parent, "thesis");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(join(dir, "chapter1.tex"), "mine");
    // The user's own files, named as a build's lock and leftovers begin, and long untouched.
    await Deno.mkdir(join(parent, "thesis.old-drafts"));
    await Deno.writeTextFile(join(parent, "thesis.old-drafts", "draft.tex"), "mine");
    await Deno.writeTextFile(join(parent, "thesis.tmp-notes.txt"), "mine");
    await Deno.writeTextFile(join(parent, "thesis.lock"), "mine");
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ["thesis.old-drafts", "thesis.tmp-notes.txt", "thesis.lock"]) {
      await Deno.utime(join(parent, name), hourAgo, hourAgo);
    }
    const before = [...Deno.readDirSync(parent)].map((entry) => entry.name).sort();
    await assert.rejects(
      serveSampleStore({ dir }),
      (error) =>
        error instanceof SampleStoreError && /is not a tern sample store/.test(error.message),
    );
    await assert.rejects(resetSampleStore(dir), SampleStoreError);
    assert.deepEqual([...Deno.readDirSync(parent)].map((entry) => entry.name).sort(), before);
    assert.equal(await Deno.readTextFile(join(parent, "thesis.old-drafts", "draft.tex")), "mine");
    assert.equal(await Deno.readTextFile(join(parent, "thesis.lock")), "mine");
    assert.equal(await Deno.readTextFile(join(dir, "chapter1.tex")), "mine");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
