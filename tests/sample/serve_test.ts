import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../../server.ts";
import {
  ALICE_PRIVATE_FILE,
  DEMO_USER,
  ensureSampleStore,
  MANY_FILES_COUNT,
  MANY_FILES_PATH,
  MANY_FILES_SUBFOLDERS,
  SAMPLE_CASES,
  SAMPLE_DATASETS,
  SAMPLE_FILES,
} from "../../lib/sample/mod.ts";

interface Item {
  id: string;
  path: string;
  label: string;
  "file-size": number;
}

interface Page {
  total: number | null;
  folders: Item[];
  files: Item[];
}

Deno.test("the built store served by startServer: listings, downloads, metadata, sign-in", async (t) => {
  // The shared sample store (built once per machine, read by the examples too): only read here.
  const root = await ensureSampleStore();
  await using server = await startServer({ root, port: 0, quiet: true });
  const bearer = { Authorization: `Bearer ${DEMO_USER.token}` };
  const list = async (path: string, query = "", headers: HeadersInit = bearer) => {
    const res = await fetch(
      `${server.url}/secured/filesystem/paged-directory?path=${encodeURIComponent(path)}${query}`,
      { headers },
    );
    assert.equal(res.status, 200, path);
    return await res.json() as Page;
  };

  await t.step(
    "a dataset listing shows its files and subfolders, never its sidecars",
    async () => {
      const dataset = SAMPLE_DATASETS.find((d) => d.path === SAMPLE_CASES.fullMetadata)!;
      const page = await list(dataset.path, "&limit=100");
      const listed = [...page.folders, ...page.files].map((i) => i.label);
      assert.ok(listed.every((label) => !label.startsWith(".")), listed.join());
      const topLevel = new Set(
        dataset.files.map((f) => f.slice(dataset.path.length + 1).split("/")[0]),
      );
      assert.deepEqual(listed.sort(), [...topLevel].sort());
      assert.equal(page.total, topLevel.size);
    },
  );

  await t.step("anonymous paging through the many-files folder", async () => {
    const res = await fetch(
      `${server.url}/filesystem/paged-directory?limit=1000&offset=0&path=${
        encodeURIComponent(MANY_FILES_PATH)
      }`,
    );
    assert.equal(res.status, 200);
    const first = await res.json() as Page;
    assert.equal(first.total, MANY_FILES_COUNT + MANY_FILES_SUBFOLDERS.length);
    assert.deepEqual(first.folders.map((f) => f.label), [...MANY_FILES_SUBFOLDERS]);
    assert.equal(first.files.length, 1000 - MANY_FILES_SUBFOLDERS.length);
    assert.equal(first.files[0].label, "part-00001.csv");
    // Offsets count the folders (listed first) too, so the last three items are the last parts.
    const end = MANY_FILES_COUNT + MANY_FILES_SUBFOLDERS.length;
    const last = await list(MANY_FILES_PATH, `&limit=1000&offset=${end - 3}`);
    assert.equal(last.total, end);
    assert.deepEqual(last.files.map((f) => f.label), [
      "part-19998.csv",
      "part-19999.csv",
      "part-20000.csv",
    ]);
  });

  await t.step("a download returns exactly the bytes on disk", async () => {
    for (const path of [SAMPLE_FILES.parquet, SAMPLE_FILES.csvGz]) {
      const res = await fetch(
        `${server.url}/secured/fileio/download?path=${encodeURIComponent(path)}`,
        { headers: bearer },
      );
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/octet-stream");
      const body = new Uint8Array(await res.arrayBuffer());
      assert.deepEqual(body, Deno.readFileSync(join(root, path.slice(1))));
    }
  });

  await t.step("metadata and comments come from the sidecars", async () => {
    const curated = await list(SAMPLE_CASES.fullMetadata.replace(/\/[^/]+$/, ""), "&limit=100");
    const folder = curated.folders.find((f) => f.path === SAMPLE_CASES.fullMetadata)!;
    const meta = await (await fetch(`${server.url}/secured/filesystem/${folder.id}/metadata`, {
      headers: bearer,
    })).json();
    const sidecar = JSON.parse(
      Deno.readTextFileSync(join(root, SAMPLE_CASES.fullMetadata.slice(1), ".avus.json")),
    );
    assert.deepEqual(
      meta.avus.map((a: { attr: string; value: string }) => [a.attr, a.value]),
      sidecar.map((a: { attr: string; value: string }) => [a.attr, a.value]),
    );
    const comments = await (await fetch(
      `${server.url}/secured/filesystem/entry/${folder.id}/comments`,
      { headers: bearer },
    )).json();
    assert.equal(comments.comments.length, 3);
    assert.equal(comments.comments.filter((c: { retracted: boolean }) => c.retracted).length, 1);
  });

  await t.step(
    "the demo user signs in with the exported password, but cannot read alice's files",
    async () => {
      const res = await fetch(`${server.url}/token/keycloak`, {
        headers: {
          Authorization: `Basic ${btoa(`${DEMO_USER.username}:${DEMO_USER.password}`)}`,
        },
      });
      assert.equal(res.status, 200);
      const { access_token: token } = await res.json();
      assert.equal(token.split(".").length, 3);
      const denied = await fetch(
        `${server.url}/secured/fileio/download?path=${encodeURIComponent(ALICE_PRIVATE_FILE)}`,
        { headers: { Authorization: `Bearer ${token}` } },
      );
      assert.equal(denied.status, 500);
      await denied.body?.cancel();
    },
  );
});
