/**
 * Serving a plain folder (no `iplant/home/...` in it): it is served as `/iplant/home/shared`,
 * or as the `mount` path under it, readable by everyone; `tern ls` lists it, `tern head` reads
 * it, a path that is not there is "does not exist", and `serve` says on stderr how the folder is
 * served. Nothing is written into the folder.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { serveMain } from "../../lib/server/main.ts";
import { startServer } from "../../lib/server/mod.ts";
import { ServerOptionsError } from "../../lib/server/options.ts";
import { assertFailed, lines, runTern } from "../cli/_cli.ts";
import { makeStore, type TempStore } from "./_store.ts";

const FLAT = {
  "measurements.csv": "site,value\na,1\nb,2\n",
  "stations.tsv": "site\tname\na\tNorth\n",
  "2024/june.csv": "site,value\nc,3\n",
};

/** A flat folder of tables, as a lab keeps them. */
function flatFolder(): Promise<TempStore> {
  return makeStore(FLAT);
}

/** The folder's entries, recursively, to see that serving it wrote nothing there. */
function entries(root: string, prefix = ""): string[] {
  return [...Deno.readDirSync(join(root, prefix))].flatMap((entry) => {
    const name = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory ? [`${name}/`, ...entries(root, name)] : [name];
  }).sort();
}

/** `tern ARGS`, anonymous, against the server at `url`. */
function tern(url: string, cwd: string, ...args: string[]) {
  return runTern(["--no-cache", "--url", url, ...args], { cwd, env: {} });
}

Deno.test("a plain folder is served as /iplant/home/shared: tern lists and reads it", async () => {
  await using flat = await flatFolder();
  const before = entries(flat.root);
  {
    await using server = await startServer({ root: flat.root, quiet: true });
    assert.equal(server.mount, "/iplant/home/shared");
    const ls = await tern(server.url, flat.root, "ls", "/iplant/home/shared");
    assert.equal(ls.code, 0, ls.stderr);
    assert.deepEqual(lines(ls), ["2024/", "measurements.csv", "stations.tsv"]);
    const nested = await tern(server.url, flat.root, "ls", "/iplant/home/shared/2024");
    assert.deepEqual(lines(nested), ["june.csv"]);
    const head = await tern(
      server.url,
      flat.root,
      "head",
      "--csv",
      "/iplant/home/shared/measurements.csv",
    );
    assert.equal(head.code, 0, head.stderr);
    assert.equal(head.stdout, FLAT["measurements.csv"]);
  }
  assert.deepEqual(entries(flat.root), before, "nothing was written into the folder");
});

Deno.test("in a plain folder, a path that is not there does not exist: never 'sign in'", async () => {
  await using flat = await flatFolder();
  await using server = await startServer({ root: flat.root, quiet: true });
  const [file, folder] = await Promise.all([
    tern(server.url, flat.root, "head", "/iplant/home/shared/nope.csv"),
    tern(server.url, flat.root, "ls", "/iplant/home/shared/nope"),
  ]);
  assertFailed(file, "NotFoundError", /"\/iplant\/home\/shared\/nope\.csv" does not exist/);
  assertFailed(folder, "NotFoundError", /"\/iplant\/home\/shared\/nope" does not exist/);
  for (const run of [file, folder]) assert.doesNotMatch(run.stderr, /sign in|Sign-in/i);
  // Outside the community folder Terrain answers anonymous callers 401 whether a path exists
  // or not (a quirk kept); the hint says that it may simply not be there.
  const outside = await tern(server.url, flat.root, "head", "/measurements.csv");
  assertFailed(outside, "SignInRequiredError");
  assert.match(
    outside.stderr,
    /^hint: .*the path may not exist at all: outside \/iplant\/home\/shared/m,
  );
});

Deno.test("--mount serves a plain folder under the community folder", async () => {
  await using flat = await flatFolder();
  await using server = await startServer({
    root: flat.root,
    mount: "/iplant/home/shared/lab//",
    quiet: true,
  });
  assert.equal(server.mount, "/iplant/home/shared/lab");
  const [community, lab, head] = await Promise.all([
    tern(server.url, flat.root, "ls", "/iplant/home/shared"),
    tern(server.url, flat.root, "ls", "/iplant/home/shared/lab"),
    tern(server.url, flat.root, "head", "--csv", "/iplant/home/shared/lab/2024/june.csv"),
  ]);
  assert.deepEqual(lines(community), ["lab/"], community.stderr);
  assert.deepEqual(lines(lab), ["2024/", "measurements.csv", "stations.tsv"], lab.stderr);
  assert.equal(head.stdout, FLAT["2024/june.csv"], head.stderr);
  const missing = await tern(server.url, flat.root, "ls", "/iplant/home/shared/other");
  assertFailed(missing, "NotFoundError");
});

Deno.test("a plain folder is searched where it is mounted: tern search finds its files", async () => {
  await using flat = await flatFolder();
  for (const mount of ["/iplant/home/shared", "/iplant/home/shared/lab"]) {
    await using server = await startServer({ root: flat.root, mount, quiet: true });
    const found = await tern(server.url, flat.root, "search", "--name", "*.csv");
    assert.equal(found.code, 0, found.stderr);
    assert.deepEqual(lines(found).sort(), [`${mount}/2024/june.csv`, `${mount}/measurements.csv`]);
    const folders = await tern(server.url, flat.root, "search", "--under", "/iplant/home");
    assert.equal(folders.code, 0, folders.stderr);
    assert.ok(lines(folders).includes(`${mount}/2024`), folders.stdout);
    assert.ok(lines(folders).includes("/iplant/home/shared"), folders.stdout);
  }
});

Deno.test("serve says on stderr how it serves a plain folder", async () => {
  await using flat = await flatFolder();
  for (
    const [extra, said] of [
      [[], /^serving .* as \/iplant\/home\/shared: a plain folder, not laid out as a store/],
      [["--mount", "/iplant/home/shared/lab"], /^serving .* as \/iplant\/home\/shared\/lab: /],
    ] as const
  ) {
    const stop = new AbortController();
    const url = Promise.withResolvers<string>();
    const stderr: string[] = [];
    const running = serveMain(["--root", flat.root, "--quiet", ...extra], {
      stdout: (line) => url.resolve(line),
      stderr: (line) => stderr.push(line),
      signal: stop.signal,
      processSignals: false,
    });
    assert.match(await url.promise, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
    stop.abort();
    assert.equal(await running, 0);
    assert.equal(stderr.length, 1, stderr.join("\n"));
    assert.match(stderr[0], said);
  }
  // A store's folder is served as the store, without a word.
  await using store = await makeStore({ "iplant/home/shared/a.csv": "x\n1\n" });
  const stderr: string[] = [];
  const stop = new AbortController();
  const url = Promise.withResolvers<string>();
  const running = serveMain(["--root", store.root, "--quiet"], {
    stdout: (line) => url.resolve(line),
    stderr: (line) => stderr.push(line),
    signal: stop.signal,
    processSignals: false,
  });
  await url.promise;
  stop.abort();
  assert.equal(await running, 0);
  assert.deepEqual(stderr, []);
});

Deno.test("a plain folder holding .terrain/ and a mount outside the community are refused", async () => {
  await using accounts = await makeStore({
    ".terrain/users.json": '{"users":[]}',
    "measurements.csv": "site\na\n",
  });
  await assert.rejects(
    startServer({ root: accounts.root, quiet: true }),
    (error) =>
      error instanceof ServerOptionsError && error.option === "root" &&
      /holds \.terrain\/ \(a store's accounts\) but no iplant\/ folder/.test(error.message),
  );
  await using flat = await flatFolder();
  for (const mount of ["/iplant/home/demo", "/iplant/home/shared/../x", "relative", "/other/x"]) {
    await assert.rejects(
      startServer({ root: flat.root, mount, quiet: true }),
      (error) =>
        error instanceof ServerOptionsError && error.option === "mount" &&
        /must be \/iplant\/home\/shared or a folder under it/.test(error.message),
      mount,
    );
  }
});
