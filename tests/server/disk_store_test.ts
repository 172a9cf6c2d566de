import assert from "node:assert/strict";
import { StoreFileError } from "../../lib/server/store_file.ts";
import { DiskStore, type Item, type Lookup, type PageQuery } from "../../lib/server/disk_store.ts";
import { nameUuid } from "../../lib/server/ids.ts";
import {
  ALICE,
  bearer,
  DEMO,
  get,
  makeStore,
  serveStore,
  standardTree,
  writeTree,
} from "./_store.ts";

/** A page of `folder` with every entry stat'ed at once (the handlers stat a slice at a time). */
async function wholePage(store: DiskStore, folder: Item, user: string, query: PageQuery) {
  const plan = await store.pagePlan(folder, user, query);
  return {
    total: plan.total,
    folders: await plan.items(plan.folders),
    files: await plan.items(plan.files),
  };
}

function item(found: Lookup): Item {
  assert.equal(found.found, "item", JSON.stringify(found));
  return (found as { item: Item }).item;
}

Deno.test("DiskStore.open creates the community folder of an empty store", async () => {
  await using store = await makeStore({});
  const opened = await DiskStore.open(store.root, "iplant");
  const shared = item(await opened.lookup("/iplant/home/shared", "anonymous"));
  assert.equal(shared.kind, "folder");
  assert.equal(shared.permission, "read");
});

Deno.test("lookup resolves items with fresh stats and the caller's permission", async () => {
  await using store = await makeStore();
  const opened = await DiskStore.open(store.root, "iplant");
  const csv = item(await opened.lookup("/iplant/home/shared/project/a.csv/", "demo"));
  assert.equal(csv.path, "/iplant/home/shared/project/a.csv");
  assert.equal(csv.kind, "file");
  assert.equal(csv.size, 12);
  assert.equal(csv.permission, "read");
  const home = item(await opened.lookup("/iplant/home/demo", "demo"));
  assert.equal(home.permission, "own");
  assert.deepEqual(await opened.lookup("/iplant/home/alice/private.csv", "demo"), {
    found: "unreadable",
    path: "/iplant/home/alice/private.csv",
  });
  assert.deepEqual(await opened.lookup("/iplant/home/demo/nope/", "demo"), {
    found: "missing",
    path: "/iplant/home/demo/nope",
  });
});

Deno.test("lookup refuses escapes, sidecars and special files as missing", async () => {
  await using store = await makeStore();
  await using outside = await makeStore({ "secret.txt": "top secret" });
  const root = store.root;
  await Deno.symlink(`${outside.root}/secret.txt`, `${root}/iplant/home/shared/out-file`);
  await Deno.symlink(outside.root, `${root}/iplant/home/shared/out-dir`);
  await Deno.symlink(`${root}/.terrain`, `${root}/iplant/home/shared/config`);
  await Deno.symlink(
    `${root}/iplant/home/shared/project/.a.csv.avus.json`,
    `${root}/iplant/home/shared/sidecar-link`,
  );
  const opened = await DiskStore.open(root, "iplant");
  const vectors = [
    "/iplant/home/shared/../../../etc/passwd",
    "/iplant/home/shared/%2e%2e/%2e%2e/etc",
    "/iplant/home/shared/%252e%252e",
    "/iplant/home/shared/..\\..\\..\\etc\\passwd",
    "/iplant/home/shared/a\u0000b",
    `${root}/iplant/home/shared`,
    "/etc/passwd",
    "/iplant/home/shared/out-file",
    "/iplant/home/shared/out-dir/secret.txt",
    "/iplant/home/shared/config/users.json",
    "/iplant/home/shared/sidecar-link",
    "/iplant/home/shared/project/.a.csv.avus.json",
    "/iplant/home/shared/project/.comments.json",
  ];
  for (const vector of vectors) {
    const found = await opened.lookup(vector, "demo");
    assert.equal(found.found, "missing", vector);
  }
  if (Deno.build.os !== "windows") {
    const made = await new Deno.Command("mkfifo", { args: [`${root}/iplant/home/shared/pipe`] })
      .output();
    assert.ok(made.success);
    assert.equal((await opened.lookup("/iplant/home/shared/pipe", "demo")).found, "missing");
  }
});

Deno.test("a symlink is as readable as the weaker of its place and its target", async () => {
  await using store = await makeStore();
  const root = store.root;
  await Deno.symlink(`${root}/iplant/home/alice`, `${root}/iplant/home/shared/to-alice`);
  await Deno.symlink(`${root}/iplant/home/shared/project`, `${root}/iplant/home/demo/proj`);
  const opened = await DiskStore.open(root, "iplant");
  assert.equal((await opened.lookup("/iplant/home/shared/to-alice", "demo")).found, "unreadable");
  assert.equal(
    (await opened.lookup("/iplant/home/shared/to-alice/private.csv", "anonymous")).found,
    "unreadable",
  );
  assert.equal(
    item(await opened.lookup("/iplant/home/shared/to-alice/private.csv", "alice")).permission,
    "read",
  );
  const linked = item(await opened.lookup("/iplant/home/demo/proj/a.csv", "demo"));
  assert.equal(linked.permission, "read", "own place, read-only target");

  const shared = item(await opened.lookup("/iplant/home/shared", "demo"));
  const page = await wholePage(opened, shared, "demo", {
    offset: 0,
    limit: 100,
    sort: "name",
    direction: "ASC",
    entityType: "any",
    infoTypes: [],
  });
  assert.deepEqual(page.folders.map((entry) => entry.name), ["other", "project"]);
  assert.equal(page.total, 2);
});

Deno.test("page filters by entity type and info type, with sidecar overrides", async () => {
  await using store = await makeStore();
  const opened = await DiskStore.open(store.root, "iplant");
  const project = item(await opened.lookup("/iplant/home/shared/project", "demo"));
  const query = {
    offset: 0,
    limit: 100,
    sort: "name" as const,
    direction: "ASC" as const,
    entityType: "any" as const,
    infoTypes: [] as string[],
  };
  const names = (page: { folders: Item[]; files: Item[] }) =>
    [...page.folders, ...page.files].map((entry) => entry.name);
  const fasta = await wholePage(opened, project, "demo", { ...query, infoTypes: ["fasta"] });
  assert.deepEqual(names(fasta), ["sub1", "sub2", "README"]);
  const unknown = await wholePage(opened, project, "demo", {
    ...query,
    entityType: "file",
    infoTypes: ["unknown"],
  });
  assert.deepEqual(names(unknown), [".hidden", "image.png", "space name.txt"]);
  const folders = await wholePage(opened, project, "demo", { ...query, entityType: "folder" });
  assert.deepEqual(names(folders), ["sub1", "sub2"]);
});

Deno.test("infoType ignores a malformed sidecar; metadata reports it by data-store path", async () => {
  await using store = await makeStore({
    ...standardTree(),
    "iplant/home/shared/project/.c.fastq.avus.json": "{ not json",
  });
  const opened = await DiskStore.open(store.root, "iplant");
  const fastq = item(await opened.lookup("/iplant/home/shared/project/c.fastq", "demo"));
  assert.equal(await opened.infoType(fastq, "demo"), "fastq");
  await assert.rejects(
    opened.metadata(fastq, "demo"),
    (error: unknown) =>
      error instanceof StoreFileError &&
      error.file === "/iplant/home/shared/project/.c.fastq.avus.json" &&
      !error.message.includes(store.root),
  );
});

Deno.test("sidecars that lead out of the store are refused", async () => {
  await using store = await makeStore();
  await using outside = await makeStore({ "evil.json": "[]" });
  const project = `${store.root}/iplant/home/shared/project`;
  await Deno.symlink(`${outside.root}/evil.json`, `${project}/.b.tsv.avus.json`);
  const opened = await DiskStore.open(store.root, "iplant");
  const tsv = item(await opened.lookup("/iplant/home/shared/project/b.tsv", "demo"));
  await assert.rejects(opened.metadata(tsv, "demo"), /leads out of the store/);
});

Deno.test("lookupId walks the store for ids no listing has shown", async () => {
  await using store = await makeStore();
  const opened = await DiskStore.open(store.root, "iplant");
  const other = await DiskStore.open(store.root, "iplant");
  const id = other.idOf("/iplant/home/shared/project/sub2/inner.txt");
  assert.equal(item(await opened.lookupId(id, "demo")).name, "inner.txt");
  const sidecarId = other.idOf("/iplant/home/shared/project/.avus.json");
  assert.equal((await opened.lookupId(sidecarId, "demo")).found, "missing");
});

Deno.test("ensureFolder creates folders but never through a symlink out of the store", async () => {
  await using store = await makeStore();
  await using outside = await makeStore({});
  const opened = await DiskStore.open(store.root, "iplant");
  await opened.ensureFolder("/iplant/trash/home/de-irods/demo");
  assert.ok((await Deno.stat(`${store.root}/iplant/trash/home/de-irods/demo`)).isDirectory);
  await Deno.symlink(outside.root, `${store.root}/iplant/home/escape`);
  await assert.rejects(opened.ensureFolder("/iplant/home/escape/x"), /leads out of the store/);
  assert.deepEqual([...Deno.readDirSync(outside.root)], []);
});

Deno.test("redact removes the store's disk location", async () => {
  await using store = await makeStore({});
  const opened = await DiskStore.open(store.root, "iplant");
  const message = opened.redact(`No such file: ${opened.root}/iplant/home/x and ${opened.root}`);
  assert.ok(!message.includes(opened.root));
  assert.ok(message.includes("/iplant/home/x"));
});

Deno.test("a new file shows up in the next page, and edits show in sizes and dates", async () => {
  await using store = await makeStore({ "iplant/home/shared/d/a.txt": "1" });
  const opened = await DiskStore.open(store.root, "iplant");
  const folder = item(await opened.lookup("/iplant/home/shared/d", "demo"));
  const query = {
    offset: 0,
    limit: 10,
    sort: "name" as const,
    direction: "ASC" as const,
    entityType: "any" as const,
    infoTypes: [],
  };
  const before = await wholePage(opened, folder, "demo", query);
  await writeTree(store.root, {
    "iplant/home/shared/d/a.txt": "12345",
    "iplant/home/shared/d/b": "",
  });
  await Deno.utime(`${store.root}/iplant/home/shared/d/a.txt`, 1, new Date(Date.UTC(2030, 0, 1)));
  const after = await wholePage(opened, folder, "demo", query);
  assert.equal(before.files[0].size, 1);
  assert.equal(after.files[0].size, 5);
  assert.equal(after.files[0].modified, Date.UTC(2030, 0, 1));
  assert.deepEqual(after.files.map((entry) => entry.name), ["a.txt", "b"]);
});

Deno.test("a sidecar symlinked into a private home is read only by who may read that home", async () => {
  const secretAvus = JSON.stringify([{ attr: "secret", value: "alice only", unit: "" }]);
  const secretComments = JSON.stringify([{
    id: "9e1d7c1a-2b3c-11ee-8f44-0242ac120003",
    comment: "private note",
    commenter: "alice",
    post_time: 1000,
    retracted: false,
  }]);
  const tree = {
    ...standardTree(),
    "iplant/home/alice/private/.avus.json": secretAvus,
    "iplant/home/alice/private/.x.csv.comments.json": secretComments,
    "iplant/home/alice/private/.x.csv.avus.json": JSON.stringify({
      "irods-avus": [{ attr: "ipc-filetype", value: "secret-type", unit: "" }],
    }),
    "iplant/home/shared/pub/x.csv": "a\n1\n",
  };
  await using fixture = await serveStore(tree);
  const pub = `${fixture.root}/iplant/home/shared/pub`;
  const privateDir = `${fixture.root}/iplant/home/alice/private`;
  await Deno.symlink(`${privateDir}/.avus.json`, `${pub}/.avus.json`);
  await Deno.symlink(`${privateDir}/.x.csv.comments.json`, `${pub}/.x.csv.comments.json`);
  await Deno.symlink(`${privateDir}/.x.csv.avus.json`, `${pub}/.x.csv.avus.json`);
  const folderId = nameUuid("/iplant/home/shared/pub");
  const fileId = nameUuid("/iplant/home/shared/pub/x.csv");
  // Show the ids once so the server knows them without a walk.
  await get(`${fixture.url}/filesystem/paged-directory?path=/iplant/home/shared/pub&limit=10`);

  const anonymous = await get(`${fixture.url}/filesystem/${folderId}/metadata`);
  assert.equal(anonymous.status, 200);
  assert.deepEqual(anonymous.json.avus, [], "anonymous callers get no private AVUs");
  const asDemo = await get(
    `${fixture.url}/secured/filesystem/${folderId}/metadata`,
    bearer(DEMO.token),
  );
  assert.deepEqual(asDemo.json.avus, []);
  const asAlice = await get(
    `${fixture.url}/secured/filesystem/${folderId}/metadata`,
    bearer(ALICE.token),
  );
  assert.deepEqual(asAlice.json.avus.map((a: { attr: string }) => a.attr), ["secret"]);

  const comments = (token: string) =>
    get(`${fixture.url}/secured/filesystem/entry/${fileId}/comments`, bearer(token));
  assert.deepEqual((await comments(DEMO.token)).json.comments, []);
  assert.equal((await comments(ALICE.token)).json.comments[0].comment, "private note");

  // Nor does a private sidecar's file type show in a listing.
  const listing = await get(
    `${fixture.url}/filesystem/paged-directory?path=/iplant/home/shared/pub&limit=10`,
  );
  assert.equal(listing.json.files[0].infoType, "csv");
});

Deno.test("a listing through a symlink to /iplant/home shows only what the caller may read", async () => {
  await using fixture = await serveStore();
  await Deno.symlink(`${fixture.root}/iplant/home`, `${fixture.root}/iplant/home/shared/homes`);
  const list = async (headers: HeadersInit = {}) => {
    const path = "/iplant/home/shared/homes";
    const { json } = await get(
      `${fixture.url}/secured/filesystem/paged-directory?path=${path}&limit=100`.replace(
        "/secured",
        Object.keys(headers).length ? "/secured" : "",
      ),
      headers,
    );
    return json.folders.map((f: { label: string; permission: string }) => [f.label, f.permission]);
  };
  assert.deepEqual(await list(), [["shared", "read"]]);
  assert.deepEqual(await list(bearer(DEMO.token)), [["demo", "read"], ["shared", "read"]]);
  // Every folder a listing shows can be opened by the same caller.
  const alice = await get(
    `${fixture.url}/secured/filesystem/paged-directory?path=/iplant/home/shared/homes/demo&limit=10`,
    bearer(DEMO.token),
  );
  assert.equal(alice.status, 200);
});

Deno.test("the parsed-sidecar cache is bounded by bytes, and evicted sidecars still read right", async () => {
  const tree: Record<string, string> = {};
  const big = (i: number) =>
    JSON.stringify([{ attr: "n", value: String(i), unit: "" }, {
      attr: "padding",
      value: "x".repeat(200_000),
      unit: "",
    }]);
  for (let i = 0; i < 12; i++) {
    tree[`iplant/home/shared/many/f${i}.txt`] = "x\n";
    tree[`iplant/home/shared/many/.f${i}.txt.avus.json`] = big(i);
  }
  await using store = await makeStore(tree);
  const opened = await DiskStore.open(store.root, "iplant", { sidecarCacheBytes: 1_000_000 });
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 12; i++) {
      const file = item(await opened.lookup(`/iplant/home/shared/many/f${i}.txt`, "demo"));
      const { avus } = await opened.metadata(file, "demo");
      assert.equal(avus[0].value, String(i));
      assert.ok(opened.cachedSidecarBytes <= 1_000_000, `${opened.cachedSidecarBytes} bytes held`);
    }
  }
  assert.ok(opened.cachedSidecarBytes > 600_000, "the cache is used up to its bound");
});

Deno.test("unknown ids cost a stat per folder after the first walk, and new files are still found", async () => {
  await using store = await makeStore();
  // Folders changed in the last seconds are read on every walk (their time may not tell the
  // next change apart yet): age them all.
  const age = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory) await age(`${dir}/${entry.name}`);
    }
    await Deno.utime(dir, 1e9, 1e9);
  };
  await age(`${store.root}/iplant`);
  const opened = await DiskStore.open(store.root, "iplant");
  const unknown = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";
  assert.equal((await opened.lookupId(unknown, "demo")).found, "missing");
  const firstWalk = opened.foldersWalked;
  assert.ok(firstWalk >= 8, `${firstWalk} folders in the first walk`);
  for (let i = 0; i < 20; i++) {
    assert.equal((await opened.lookupId(unknown, "demo")).found, "missing");
  }
  assert.equal(opened.foldersWalked, firstWalk, "no folder read again while nothing changed");

  // A file added deep down, never listed, is found by its id; only its folder is read again.
  const other = await DiskStore.open(store.root, "iplant");
  await Deno.writeTextFile(`${store.root}/iplant/home/shared/project/sub2/new.txt`, "new\n");
  const id = other.idOf("/iplant/home/shared/project/sub2/new.txt");
  assert.equal(item(await opened.lookupId(id, "demo")).name, "new.txt");
  assert.equal(opened.foldersWalked, firstWalk + 1);
  // Changed again within the same clock tick: still seen.
  await Deno.writeTextFile(`${store.root}/iplant/home/shared/project/sub2/newer.txt`, "new\n");
  const newer = other.idOf("/iplant/home/shared/project/sub2/newer.txt");
  assert.equal(item(await opened.lookupId(newer, "demo")).name, "newer.txt");
  // So is a file in a new folder.
  await Deno.mkdir(`${store.root}/iplant/home/demo/fresh/deeper`, { recursive: true });
  await Deno.writeTextFile(`${store.root}/iplant/home/demo/fresh/deeper/x.csv`, "x\n");
  const deep = other.idOf("/iplant/home/demo/fresh/deeper/x.csv");
  assert.equal(item(await opened.lookupId(deep, "demo")).name, "x.csv");
  // A removed file's id is gone once its path no longer resolves.
  await Deno.remove(`${store.root}/iplant/home/shared/project/sub2/new.txt`);
  assert.equal((await opened.lookupId(id, "demo")).found, "missing");
});

Deno.test("a plain folder mounted deeper: the folders above hold only the way down", async () => {
  await using store = await makeStore({
    "a.csv": "x\n1\n",
    ".avus.json": JSON.stringify([{ attr: "title", value: "Lab data", unit: "" }]),
  });
  const opened = await DiskStore.open(store.root, "iplant", { mount: "/iplant/home/shared/lab" });
  const query = {
    offset: 0,
    limit: 10,
    sort: "name",
    direction: "ASC",
    entityType: "any",
    infoTypes: [],
  } as const;
  const names = async (path: string, user: string) => {
    const folder = item(await opened.lookup(path, user));
    const page = await wholePage(opened, folder, user, query);
    return [...page.folders, ...page.files].map((entry) => entry.path);
  };
  assert.deepEqual(await names("/iplant", "demo"), ["/iplant/home"]);
  assert.deepEqual(await names("/iplant/home", "demo"), ["/iplant/home/shared"]);
  assert.deepEqual(await names("/iplant/home/shared", "anonymous"), ["/iplant/home/shared/lab"]);
  assert.deepEqual(await names("/iplant/home/shared/lab", "anonymous"), [
    "/iplant/home/shared/lab/a.csv",
  ]);
  const home = item(await opened.lookup("/iplant/home", "demo"));
  assert.deepEqual(
    (await wholePage(opened, home, "demo", { ...query, entityType: "folder" })).folders
      .map((entry) => entry.path),
    ["/iplant/home/shared"],
  );
  // The mounted folder's own metadata is its own, not the folders' above it.
  const lab = item(await opened.lookup("/iplant/home/shared/lab", "anonymous"));
  assert.equal((await opened.metadata(lab, "anonymous")).avus[0]?.value, "Lab data");
  const shared = item(await opened.lookup("/iplant/home/shared", "anonymous"));
  assert.deepEqual((await opened.metadata(shared, "anonymous")).avus, []);
  assert.deepEqual(await opened.comments(shared, "anonymous"), []);
  // Nothing else of the zone is there, and ids reach every level.
  for (const path of ["/iplant/home/demo", "/iplant/trash", "/iplant/home/shared/other"]) {
    assert.equal((await opened.lookup(path, "demo")).found, "missing", path);
  }
  const other = await DiskStore.open(store.root, "iplant", { mount: "/iplant/home/shared/lab" });
  for (const path of ["/iplant/home", "/iplant/home/shared/lab/a.csv"]) {
    assert.equal(item(await opened.lookupId(other.idOf(path), "demo")).path, path);
  }
  await opened.ensureFolder("/iplant/home/demo");
  assert.deepEqual([...Deno.readDirSync(store.root)].map((entry) => entry.name).sort(), [
    ".avus.json",
    "a.csv",
  ]);
});
