import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join, relative } from "node:path";
import {
  FORMATS_PATH,
  SAMPLE_CASES,
  SAMPLE_FILES,
  TERN_SAMPLES_PATH,
} from "../../../lib/sample/mod.ts";
import { assertFailed, assertUsage, lines, startCli } from "../_cli.ts";
import { PTY } from "../../progress/_pty.ts";
import { corruptingProxy } from "../../data/_proxy.ts";

/** Every file under `dir` (relative paths), to check that nothing else was written. */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (folder: string) => {
    for await (const item of Deno.readDir(folder)) {
      const path = join(folder, item.name);
      if (item.isDirectory) await visit(path);
      else found.push(relative(dir, path));
    }
  };
  await visit(dir);
  return found.sort();
}

Deno.test("tern get: downloads, up-to-date skips, cache copies, folders, errors", async (t) => {
  await using cli = await startCli();
  const disk = (path: string) => Deno.readFile(join(cli.root, path));
  const json = SAMPLE_FILES.json;

  await t.step("a file lands in the current folder, whole, with the server's date", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const run = await cli.run(["get", json], { cwd: work });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await Deno.readFile(join(work, "penguins.json")), await disk(json));
    const local = await Deno.stat(join(work, "penguins.json"));
    const remote = await Deno.stat(join(cli.root, json));
    assert.equal(
      Math.floor(local.mtime!.getTime() / 1000),
      Math.floor(remote.mtime!.getTime() / 1000),
    );
    assert.match(run.stderr, /^downloaded {2}penguins\.json \(67\.1 kB, md5 verified\)$/m);
    assert.match(run.stderr, /^1 file \(67\.1 kB\): 1 downloaded$/m);
    assert.equal(run.stdout, "");

    // Again: the local copy matches, so nothing is downloaded or written.
    const sent = cli.server.stats().bytesSent;
    const again = await cli.run(["get", json], { cwd: work });
    assert.equal(again.stderr, "1 file (67.1 kB): 1 already up to date\n");
    assert.ok(cli.server.stats().bytesSent - sent < remote.size, "the file was downloaded again");

    // Gone locally but still in the cache: copied from there, not downloaded.
    await Deno.remove(join(work, "penguins.json"));
    const before = cli.server.stats().bytesSent;
    const cached = await cli.run(["get", json], { cwd: work });
    assert.match(
      cached.stderr,
      /^from cache {2}penguins\.json \(67\.1 kB, no download, md5 verified\)$/m,
    );
    assert.match(cached.stderr, /^1 file \(67\.1 kB\): 1 from the local cache$/m);
    assert.ok(cli.server.stats().bytesSent - before < remote.size, "the file was downloaded again");
    assert.deepEqual(await Deno.readFile(join(work, "penguins.json")), await disk(json));
    assert.deepEqual(await filesUnder(work), ["penguins.json"]);
  });

  await t.step("-o names the file (parents created); --force writes it again", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const target = join(work, "data", "renamed.parquet");
    const run = await cli.run(["get", SAMPLE_FILES.parquet, "-o", target]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await Deno.readFile(target), await disk(SAMPLE_FILES.parquet));
    const forced = await cli.run(["get", "--force", SAMPLE_FILES.parquet, "-o", target]);
    assert.match(forced.stderr, /^from cache /m);
  });

  await t.step(
    "-r: a folder with everything under it, byte for byte; --json reports each",
    async () => {
      const work = await Deno.makeTempDir({ dir: cli.dir });
      const run = await cli.run(["get", "-r", "--json", FORMATS_PATH, "-o", work]);
      assert.equal(run.code, 0, run.stderr);
      const expected = (await filesUnder(join(cli.root, FORMATS_PATH)))
        .filter((name) => !name.startsWith("."));
      assert.deepEqual(await filesUnder(work), expected.map((name) => `formats/${name}`));
      for (const name of expected) {
        assert.deepEqual(
          await Deno.readFile(join(work, "formats", name)),
          await disk(`${FORMATS_PATH}/${name}`),
        );
      }
      const reports = lines(run).map((line) => JSON.parse(line));
      assert.equal(reports.length, expected.length);
      for (const report of reports) {
        assert.ok(["downloaded", "cache"].includes(report.source), report.source);
        assert.equal(report.local, join(work, "formats", report.path.split("/").pop()));
        // A walk's files were stat'd in a batch, so each was checked against its checksum.
        const bytes = await disk(report.path);
        const md5 = createHash("md5").update(bytes).digest("hex");
        assert.equal(report.checksum, `md5:${md5}`, report.path);
      }
    },
  );

  await t.step("-r --glob keeps the matching files, with their sub-folders", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const run = await cli.run([
      "get",
      "-r",
      "-q",
      "--glob",
      "**/*.parquet",
      SAMPLE_CASES.fullMetadata,
      "-o",
      work,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.deepEqual(await filesUnder(work), [
      "Gorman_PalmerPenguins_Morphometrics_2020/derived/penguins.parquet",
    ]);
  });

  await t.step("--no-cache downloads straight to the target and leaves no cache", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const run = await cli.run(["--no-cache", "get", SAMPLE_FILES.csv], {
      cwd: work,
      noCacheFlag: true,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await Deno.readFile(join(work, "penguins.csv")), await disk(SAMPLE_FILES.csv));
    await assert.rejects(Deno.stat(join(work, "xdg", "tern")), Deno.errors.NotFound);
  });

  await t.step("a folder without -r, and two files with one name: reported, exit 1", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const folder = await cli.run(["get", TERN_SAMPLES_PATH], { cwd: work });
    assertFailed(folder, "BadRequestError", /is a folder; use -r to download it/);
    const twice = await cli.run(["get", SAMPLE_FILES.csv, SAMPLE_CASES.fileWithMetadata], {
      cwd: work,
    });
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /would both be saved as .*penguins\.csv; skipped the second/);
    assert.deepEqual(await filesUnder(work), ["penguins.csv"]);
  });

  await t.step("under deno task (INIT_CWD), files land where the command was typed", async () => {
    const typedIn = await Deno.makeTempDir({ dir: cli.dir });
    const project = await Deno.makeTempDir({ dir: cli.dir });
    // The real program: going back to INIT_CWD is what its entry point does.
    const run = await cli.runProcess(["get", SAMPLE_FILES.text, "-o", "notes/"], {
      cwd: project,
      env: { INIT_CWD: typedIn },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await filesUnder(typedIn), ["notes/README.txt"]);
    assert.deepEqual(await filesUnder(project), []);
  });

  await t.step("usage errors: --glob without -r, several files into one file", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    await Deno.writeTextFile(join(work, "taken"), "");
    const [glob, into] = await Promise.all([
      cli.run(["get", "--glob", "*.csv", FORMATS_PATH]),
      cli.run(["get", SAMPLE_FILES.csv, SAMPLE_FILES.tsv, "-o", join(work, "taken")]),
    ]);
    assertUsage(glob, /--glob selects files inside folders, so it needs -r/);
    assertUsage(into, /is a file, but several files are downloaded/);
  });

  await t.step("-o - is a usage error pointing to tern cat, not a file named -", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const run = await cli.run(["get", SAMPLE_FILES.csv, "-o", "-"], { cwd: work });
    assertUsage(
      run,
      /-o - would write a file named "-"; tern cat PATH prints a file.s bytes to stdout/,
    );
    assert.deepEqual([...Deno.readDirSync(work)], []);
  });
});

Deno.test("tern get: Ctrl-C stops a download and leaves nothing partial", async (t) => {
  await using cli = await startCli({ bandwidth: 2_000_000 });
  const interrupt = async (args: string[], work: string, started: () => Promise<boolean>) => {
    // Without --cache-dir: the default cache, under the working folder's XDG_CACHE_HOME.
    const child = cli.spawn(args, { cwd: work, noCacheFlag: true });
    const deadline = Date.now() + 20_000;
    while (!await started() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill("SIGINT");
    const [status, stderr] = await Promise.all([
      child.status,
      new Response(child.stderr).text(),
      new Response(child.stdout).text(),
    ]);
    assert.equal(status.code, 130, stderr);
    assert.match(stderr, /^interrupted$/m);
  };

  await t.step("straight to disk: the hidden partial file is removed", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    // Bytes are flowing once the partial file beside the target exists.
    await interrupt(
      ["--no-cache", "get", SAMPLE_CASES.parquetLarge],
      work,
      async () => (await filesUnder(work)).some((name) => name.endsWith(".tern-partial")),
    );
    assert.deepEqual(await filesUnder(work), []);
  });

  await t.step("through the cache: no target, and no cached copy is kept", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const cache = join(work, "xdg", "tern");
    await interrupt(
      ["get", SAMPLE_CASES.parquetLarge],
      work,
      async () => (await filesUnder(work).catch(() => [])).length > 0,
    );
    const left = (await filesUnder(work)).filter((name) => !name.endsWith("index.jsonl"));
    assert.deepEqual(left.filter((name) => !name.startsWith(relative(work, cache))), []);
    assert.deepEqual(left.filter((name) => name.endsWith(".parquet")), []);
  });
});

Deno.test("tern get: symlinks in the destination are replaced, never followed", async (t) => {
  await using cli = await startCli();
  const outside = await Deno.makeTempDir({ dir: cli.dir });

  await t.step(
    "-r into a folder holding a symlink to a folder: nothing lands outside",
    async () => {
      const work = await Deno.makeTempDir({ dir: cli.dir });
      const folder = "Gorman_PalmerPenguins_Morphometrics_2020";
      await Deno.symlink(outside, join(work, folder));
      const args = ["get", "-r", "-q", "--glob", "**/*.parquet", SAMPLE_CASES.fullMetadata];
      const run = await cli.run([...args, "-o", work]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(await filesUnder(outside), []);
      assert.ok((await Deno.lstat(join(work, folder))).isDirectory);
      assert.deepEqual(await filesUnder(work), [`${folder}/derived/penguins.parquet`]);
    },
  );

  await t.step("a same-size, same-date symlink to a file is not up to date", async () => {
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const json = SAMPLE_FILES.json;
    const remote = await Deno.stat(join(cli.root, json));
    const foreign = join(outside, "foreign.json");
    await Deno.writeFile(foreign, new Uint8Array(remote.size).fill(120));
    await Deno.utime(foreign, remote.mtime!, remote.mtime!);
    await Deno.symlink(foreign, join(work, "penguins.json"));
    const run = await cli.run(["get", json], { cwd: work });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /1 (downloaded|from the local cache)/);
    const local = await Deno.lstat(join(work, "penguins.json"));
    assert.ok(local.isFile && !local.isSymlink);
    assert.deepEqual(
      await Deno.readFile(join(work, "penguins.json")),
      await Deno.readFile(join(cli.root, json)),
    );
    // The link's target kept its own bytes.
    assert.deepEqual(await Deno.readFile(foreign), new Uint8Array(remote.size).fill(120));
  });
});

Deno.test({
  name: "tern get on a terminal: Ctrl-C leaves the bar saying interrupted, never ✓, exit 130",
  ignore: !PTY,
  async fn() {
    await using cli = await startCli({ bandwidth: 2_000_000 });
    const work = await Deno.makeTempDir({ dir: cli.dir });
    const child = cli.spawnOnTerminal(["--no-cache", "get", SAMPLE_CASES.parquetLarge], {
      cwd: work,
      noCacheFlag: true,
    });
    const stdin = child.stdin.getWriter();
    let screen = "";
    let pressed = false;
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      screen += decoder.decode(chunk, { stream: true });
      // The bar is up with bytes flowing (a percentage), the transfer far from done: Ctrl-C.
      if (!pressed && /\] \d+% /.test(screen)) {
        pressed = true;
        await stdin.write(new Uint8Array([0x03]));
      }
    }
    await stdin.close().catch(() => {});
    await child.stderr.cancel();
    const status = await child.status;
    assert.ok(pressed, `no progress bar was drawn:\n${screen}`);
    assert.equal(status.code, 130, screen);
    const last = screen.split("\r\x1b[2K").at(-1) ?? "";
    // The last redraw (cut to the terminal's 80 columns).
    assert.match(last, /^\[#*·+\] ✗ flights_3m\.parquet · interrupted · 0 of 1 files · /);
    assert.doesNotMatch(screen, /✓/);
    assert.match(screen, /^interrupted\r?$/m);
    assert.deepEqual(await filesUnder(work), []);
  },
});

Deno.test("tern get: a body with one byte changed is refused after one more download, nothing saved or cached", async (t) => {
  await using cli = await startCli();
  await using proxy = corruptingProxy(cli.url, "penguins.json");
  const env = { TERRAIN_URL: proxy.url };
  const routes: [string, string[]][] = [["through the cache", []], ["straight to disk", [
    "--no-cache",
  ]]];
  for (const [name, flags] of routes) {
    await t.step(name, async () => {
      proxy.corrupting = true;
      const work = await Deno.makeTempDir({ dir: cli.dir });
      const before = proxy.downloads;
      const noCacheFlag = flags.length > 0;
      const options = { cwd: work, env, noCacheFlag };
      const run = await cli.run(["get", ...flags, SAMPLE_FILES.json], options);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /penguins\.json.*checksum md5:[0-9a-f]{32}, not the store's md5:/);
      assert.equal(proxy.downloads - before, 2, "read once more from the network, not more");
      assert.deepEqual(await filesUnder(work), []);
      // Nothing was cached: the next run downloads (and says it verified).
      proxy.corrupting = false;
      const again = await cli.run(["get", ...flags, SAMPLE_FILES.json], options);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /^downloaded {2}penguins\.json \(67\.1 kB, md5 verified\)$/m);
    });
  }
});
