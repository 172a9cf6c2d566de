import assert from "node:assert/strict";
import { connect, type Entry, NotFoundError, ProtocolError } from "../../mod.ts";
import { item, pageAnswer, serveDouble } from "../handles/_double.ts";
import { until } from "../reliability/_fixtures.ts";
import {
  holdingFetch,
  PAGED_FILES,
  PAGED_FOLDERS,
  PATHS,
  serve,
  TREE_FILES,
} from "../handles/_store.ts";

/** Every path under a local folder, relative to it, files and folders. */
async function treeOnDisk(root: string, prefix = ""): Promise<string[]> {
  const paths: string[] = [];
  for await (const item of Deno.readDir(`${root}/${prefix}`)) {
    const relative = prefix === "" ? item.name : `${prefix}/${item.name}`;
    paths.push(relative);
    if (item.isDirectory) paths.push(...await treeOnDisk(root, relative));
  }
  return paths;
}

const relative = (entries: Entry[]) =>
  entries.map((entry) => entry.path.slice(PATHS.tree.length + 1));
const depth = (path: string) => path.split("/").length;

/** A fetch that records which folder each paged-directory request lists, and overlap. */
function folderRecorder() {
  const folders: string[] = [];
  const inFlight = new Map<string, number>();
  let peakFolders = 0;
  const fetcher: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const folder = url.searchParams.get("path") ?? "";
    if (!url.pathname.endsWith("/paged-directory")) return await fetch(input, init);
    folders.push(folder);
    inFlight.set(folder, (inFlight.get(folder) ?? 0) + 1);
    peakFolders = Math.max(peakFolders, inFlight.size);
    try {
      const response = await fetch(input, init);
      return new Response(await response.arrayBuffer(), response);
    } finally {
      const left = inFlight.get(folder)! - 1;
      if (left === 0) inFlight.delete(folder);
      else inFlight.set(folder, left);
    }
  };
  return { fetch: fetcher, folders, peak: () => peakFolders };
}

Deno.test("walk visits the whole tree once, breadth first, folders included", async () => {
  await using served = await serve();
  const entries = await served.demo().folder(PATHS.tree).walk().toArray();
  const paths = relative(entries);
  assert.deepEqual([...paths].sort(), (await treeOnDisk(`${served.root}${PATHS.tree}`)).sort());
  assert.equal(new Set(entries.map((entry) => entry.id)).size, entries.length);
  const depths = paths.map(depth);
  assert.deepEqual(depths, [...depths].sort((a, b) => a - b), "each level after the previous one");
  assert.deepEqual(paths.slice(0, 5), ["a", "b", "c", "top.csv", "top.txt"]);
});

Deno.test("walk maxDepth limits the levels listed; maxDepth 1 is list()", async () => {
  await using served = await serve();
  const tree = served.demo().folder(PATHS.tree);
  const one = relative(await tree.walk({ maxDepth: 1 }).toArray());
  assert.deepEqual(one, relative(await tree.list().toArray()));
  const two = relative(await tree.walk({ maxDepth: 2 }).toArray());
  assert.ok(two.every((path) => depth(path) <= 2));
  assert.ok(two.includes("a/deep") && two.includes("b/.hidden.csv"));
  assert.equal(await tree.walk({ maxDepth: Infinity }).count(), await tree.walk().count());
});

Deno.test("walk type and infoType keep only the matching entries but still descend", async () => {
  await using served = await serve();
  const tree = served.demo().folder(PATHS.tree);
  const files = relative(await tree.walk({ type: "file" }).toArray());
  assert.deepEqual([...files].sort(), [...TREE_FILES].sort());
  const folders = relative(await tree.walk({ type: "folder" }).toArray());
  assert.deepEqual([...folders].sort(), ["a", "a/deep", "a/deep/deeper", "b", "c", "c/empty-sub"]);
  const csv = relative(await tree.walk({ type: "file", infoType: "csv" }).toArray());
  assert.deepEqual(csv.sort(), TREE_FILES.filter((path) => path.endsWith(".csv")).sort());
});

Deno.test("walk glob matches relative paths (dotfiles too) and skips folders that cannot match", async () => {
  await using served = await serve();
  const recorder = folderRecorder();
  const tree = served.demo({ fetch: recorder.fetch }).folder(PATHS.tree);
  const allCsv = relative(await tree.walk({ glob: "**/*.csv" }).toArray());
  assert.deepEqual(allCsv.sort(), TREE_FILES.filter((path) => path.endsWith(".csv")).sort());

  recorder.folders.length = 0;
  const inA = relative(await tree.walk({ glob: "a/*.csv" }).toArray());
  assert.deepEqual(inA, ["a/a1.csv"]);
  assert.deepEqual(recorder.folders, [`${PATHS.tree}/a`], "only the folders that can match");

  recorder.folders.length = 0;
  const topLevel = relative(await tree.walk({ glob: "*.txt" }).toArray());
  assert.deepEqual(topLevel, ["top.txt"]);
  assert.deepEqual(recorder.folders, [PATHS.tree]);

  const walk = tree.walk({ glob: "**/d*.csv" });
  assert.equal(await walk.count(), 2);
  assert.equal(await walk.total(), (await treeOnDisk(`${served.root}${PATHS.tree}`)).length);
});

Deno.test("walk lists at most `concurrency` folders at once", async () => {
  await using served = await serve({ latencyMs: 20 });
  for (const concurrency of [1, 2, 3]) {
    const recorder = folderRecorder();
    const store = served.demo({ fetch: recorder.fetch, concurrency: 8 });
    const entries = await store.folder(PATHS.shared).walk({ concurrency }).toArray();
    assert.ok(entries.length > PAGED_FILES + PAGED_FOLDERS);
    assert.ok(recorder.peak() <= concurrency, `${recorder.peak()} folders at once`);
    if (concurrency > 1) assert.ok(recorder.peak() > 1, "folders were fetched ahead");
  }
});

Deno.test("a walk of a missing folder is NotFoundError; breaking out stops the walk", async () => {
  await using served = await serve({ latencyMs: 20 });
  await assert.rejects(served.demo().folder(`${PATHS.tree}/nope`).walk().toArray(), NotFoundError);
  // The sub-folders listed ahead are never answered: only the walk's stop ends their requests.
  await using holding = holdingFetch((url) => url.searchParams.get("path") !== PATHS.tree);
  const store = served.demo({ fetch: holding.fetch, timeoutMs: 600_000 });
  const entries: Entry[] = [];
  for await (const entry of store.folder(PATHS.tree).walk({ concurrency: 3 })) {
    entries.push(entry);
    if (entries.length === 4) break;
  }
  assert.equal(entries.length, 4);
  assert.ok(holding.held() > 0, "sub-folders were being listed ahead");
  const requests = store.stats.requests;
  await until(() => store.stats.inFlight === 0, "the walk's requests ahead were aborted");
  assert.equal(store.stats.requests, requests, "nothing more is requested after the break");
});

Deno.test("a walk refuses sub-folders that are not directly inside the folder listed (test double)", async () => {
  const root = "/iplant/home/shared/loop";
  const cases: [string, string, RegExp][] = [
    // The folder lists itself; then its parent, as "..", and as "."; then a folder elsewhere.
    [
      "itself",
      root,
      /listed "\/iplant\/home\/shared\/loop" as its sub-folder "loop", which must be "\/iplant\/home\/shared\/loop\/loop" in "\/iplant\/home\/shared\/loop"/,
    ],
    ["dot-dot", `${root}/..`, /a sub-folder named "\.\." in "\/iplant\/home\/shared\/loop"/],
    ["dot", `${root}/.`, /a sub-folder named "\." in/],
    [
      "elsewhere",
      "/iplant/home/shared/other/x",
      /"\/iplant\/home\/shared\/other\/x" as its sub-folder "x", which must be "\/iplant\/home\/shared\/loop\/x"/,
    ],
  ];
  for (const [what, folderPath, message] of cases) {
    await using double = serveDouble((url) => {
      const path = url.searchParams.get("path")!;
      const items = [item(folderPath, "folder", 1), item(`${path}/f.csv`, "file", 2)];
      return pageAnswer(path, items, items.length);
    });
    const store = connect({ url: double.url, anonymous: true, cacheDir: false, progress: false });
    await assert.rejects(store.folder(root).walk().toArray(), (error: unknown) => {
      assert.ok(error instanceof ProtocolError, `${what}: ${error}`);
      assert.match(error.message, message, what);
      return true;
    });
    // At once: nothing was listed after the root.
    assert.equal(double.requests.length, 1, `${what}: only the root was listed`);
    // A walk that does not go down that far never meets the bad entry.
    assert.equal(await store.folder(root).walk({ maxDepth: 1 }).count(), 2, what);
  }
});

Deno.test("a glob with literal leading folders starts there with one stat, listing nothing above", async () => {
  await using served = await serve();
  const recorder = folderRecorder();
  const store = served.demo({ fetch: recorder.fetch });
  const tree = store.folder(PATHS.tree);
  const expected = (await treeOnDisk(`${served.root}${PATHS.tree}`))
    .filter((path) => path === "a/deep" || path.startsWith("a/deep/"));
  recorder.folders.length = 0;
  const deep = relative(await tree.walk({ glob: "a/deep/**" }).toArray());
  assert.deepEqual(deep.sort(), expected.sort());
  assert.ok(
    !recorder.folders.includes(PATHS.tree) && !recorder.folders.includes(`${PATHS.tree}/a`),
  );
  // The folder at the base is an entry too when the glob matches it; a file can be the base.
  assert.deepEqual(relative(await tree.walk({ glob: "a/deep" }).toArray()), ["a/deep"]);
  assert.deepEqual(relative(await tree.walk({ glob: "a/a1.csv" }).toArray()), ["a/a1.csv"]);
  assert.deepEqual(relative(await tree.walk({ glob: "a/deep", type: "file" }).toArray()), []);
  // A base that is not there matches nothing; one deeper than maxDepth is never asked for.
  recorder.folders.length = 0;
  assert.deepEqual(await tree.walk({ glob: "nope/**/*.csv" }).toArray(), []);
  const requests = store.stats.requests;
  assert.deepEqual(await tree.walk({ glob: "a/deep/**", maxDepth: 1 }).toArray(), []);
  assert.equal(store.stats.requests, requests, "nothing asked past maxDepth");
  assert.deepEqual(recorder.folders, []);
});

Deno.test("a walk refuses a stat of its glob's base that answers another path (test double)", async () => {
  const root = "/iplant/home/shared/loop";
  await using double = serveDouble((url) => {
    if (!url.pathname.endsWith("/filesystem/stat")) return pageAnswer(root, [], 0);
    const elsewhere = {
      ...item("/iplant/home/shared/other", "folder", 1),
      type: "dir",
      "file-count": 0,
      "dir-count": 0,
    };
    return Response.json({ paths: { [`${root}/sub`]: elsewhere }, ids: {} });
  });
  const store = connect({ url: double.url, anonymous: true, cacheDir: false, progress: false });
  await assert.rejects(store.folder(root).walk({ glob: "sub/**" }).toArray(), (error: unknown) => {
    assert.ok(error instanceof ProtocolError, String(error));
    assert.match(
      error.message,
      /answered "\/iplant\/home\/shared\/other" for "\/iplant\/home\/shared\/loop\/sub"/,
    );
    return true;
  });
});
