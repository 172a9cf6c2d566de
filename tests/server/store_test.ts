import assert from "node:assert/strict";
import { StoreFileError } from "../../lib/server/store_file.ts";
import { type Item, type Lookup, Store } from "../../lib/server/store.ts";
import { makeStore, standardTree, writeTree } from "./_store.ts";

function item(found: Lookup): Item {
  assert.equal(found.found, "item", JSON.stringify(found));
  return (found as { item: Item }).item;
}

Deno.test("Store.open creates the community folder of an empty store", async () => {
  await using store = await makeStore({});
  const opened = await Store.open(store.root, "iplant");
  const shared = item(await opened.lookup("/iplant/home/shared", "anonymous"));
  assert.equal(shared.kind, "folder");
  assert.equal(shared.permission, "read");
});

Deno.test("lookup resolves items with fresh stats and the caller's permission", async () => {
  await using store = await makeStore();
  const opened = await Store.open(store.root, "iplant");
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
  const opened = await Store.open(root, "iplant");
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
  const opened = await Store.open(root, "iplant");
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
  const page = await opened.page(shared, "demo", {
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
  const opened = await Store.open(store.root, "iplant");
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
  const fasta = await opened.page(project, "demo", { ...query, infoTypes: ["fasta"] });
  assert.deepEqual(names(fasta), ["sub1", "sub2", "README"]);
  const unknown = await opened.page(project, "demo", {
    ...query,
    entityType: "file",
    infoTypes: ["unknown"],
  });
  assert.deepEqual(names(unknown), [".hidden", "image.png", "space name.txt"]);
  const folders = await opened.page(project, "demo", { ...query, entityType: "folder" });
  assert.deepEqual(names(folders), ["sub1", "sub2"]);
});

Deno.test("infoType ignores a malformed sidecar; metadata reports it by data-store path", async () => {
  await using store = await makeStore({
    ...standardTree(),
    "iplant/home/shared/project/.c.fastq.avus.json": "{ not json",
  });
  const opened = await Store.open(store.root, "iplant");
  const fastq = item(await opened.lookup("/iplant/home/shared/project/c.fastq", "demo"));
  assert.equal(await opened.infoType(fastq), "fastq");
  await assert.rejects(
    opened.metadata(fastq),
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
  const opened = await Store.open(store.root, "iplant");
  const tsv = item(await opened.lookup("/iplant/home/shared/project/b.tsv", "demo"));
  await assert.rejects(opened.metadata(tsv), /leads out of the store/);
});

Deno.test("lookupId walks the store for ids no listing has shown", async () => {
  await using store = await makeStore();
  const opened = await Store.open(store.root, "iplant");
  const other = await Store.open(store.root, "iplant");
  const id = other.idOf("/iplant/home/shared/project/sub2/inner.txt");
  assert.equal(item(await opened.lookupId(id, "demo")).name, "inner.txt");
  const sidecarId = other.idOf("/iplant/home/shared/project/.avus.json");
  assert.equal((await opened.lookupId(sidecarId, "demo")).found, "missing");
});

Deno.test("ensureFolder creates folders but never through a symlink out of the store", async () => {
  await using store = await makeStore();
  await using outside = await makeStore({});
  const opened = await Store.open(store.root, "iplant");
  await opened.ensureFolder("/iplant/trash/home/de-irods/demo");
  assert.ok((await Deno.stat(`${store.root}/iplant/trash/home/de-irods/demo`)).isDirectory);
  await Deno.symlink(outside.root, `${store.root}/iplant/home/escape`);
  await assert.rejects(opened.ensureFolder("/iplant/home/escape/x"), /leads out of the store/);
  assert.deepEqual([...Deno.readDirSync(outside.root)], []);
});

Deno.test("redact removes the store's disk location", async () => {
  await using store = await makeStore({});
  const opened = await Store.open(store.root, "iplant");
  const message = opened.redact(`No such file: ${opened.root}/iplant/home/x and ${opened.root}`);
  assert.ok(!message.includes(opened.root));
  assert.ok(message.includes("/iplant/home/x"));
});

Deno.test("a new file shows up in the next page, and edits show in sizes and dates", async () => {
  await using store = await makeStore({ "iplant/home/shared/d/a.txt": "1" });
  const opened = await Store.open(store.root, "iplant");
  const folder = item(await opened.lookup("/iplant/home/shared/d", "demo"));
  const query = {
    offset: 0,
    limit: 10,
    sort: "name" as const,
    direction: "ASC" as const,
    entityType: "any" as const,
    infoTypes: [],
  };
  const before = await opened.page(folder, "demo", query);
  await writeTree(store.root, {
    "iplant/home/shared/d/a.txt": "12345",
    "iplant/home/shared/d/b": "",
  });
  await Deno.utime(`${store.root}/iplant/home/shared/d/a.txt`, 1, new Date(Date.UTC(2030, 0, 1)));
  const after = await opened.page(folder, "demo", query);
  assert.equal(before.files[0].size, 1);
  assert.equal(after.files[0].size, 5);
  assert.equal(after.files[0].modified, Date.UTC(2030, 0, 1));
  assert.deepEqual(after.files.map((entry) => entry.name), ["a.txt", "b"]);
});
