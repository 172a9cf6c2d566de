import assert from "node:assert/strict";
import {
  AuthError,
  BadRequestError,
  Dataset,
  File,
  Folder,
  NotFoundError,
  SignInRequiredError,
} from "../../mod.ts";
import { ALICE, DEMO, PATHS, SAVED_SEARCHES, serve } from "./_store.ts";

Deno.test("store.folder, file and dataset make handles of the right kind without requests", async () => {
  await using served = await serve();
  const store = served.demo();
  const folder = store.folder(`${PATHS.public}/`);
  const file = store.file(PATHS.table);
  const dataset = store.dataset(PATHS.public);
  assert.ok(folder instanceof Folder && folder.kind === "folder");
  assert.ok(file instanceof File && file.kind === "file");
  assert.ok(dataset instanceof Dataset && dataset instanceof Folder);
  assert.equal(folder.path, PATHS.public);
  assert.equal(file.name, "table.csv");
  assert.equal(Deno.inspect(dataset), `Dataset(${PATHS.public})`);
  assert.equal(store.stats.requests, 0);
  assert.throws(() => store.folder("iplant/home"), BadRequestError);
  assert.throws(() => store.file(`${PATHS.public}/../x`), BadRequestError);
});

Deno.test("handles made from listing entries keep the entry; kinds cannot be mixed up", async () => {
  await using served = await serve();
  const store = served.demo();
  const [folderEntry, ...fileEntries] = await store.folder(PATHS.public).list().toArray();
  const requests = store.stats.requests;
  const file = store.file(fileEntries[0]);
  assert.deepEqual(await file.stat(), fileEntries[0]);
  assert.deepEqual(await store.folder(folderEntry).stat(), folderEntry);
  assert.equal(store.stats.requests, requests, "stat of a handle made from an entry is free");
  assert.throws(() => store.folder(fileEntries[0]), /entry of a file/);
  assert.throws(() => store.file(folderEntry), /entry of a folder/);
  assert.ok((await store.entry(fileEntries[0])) instanceof File);
  assert.ok((await store.entry(folderEntry)) instanceof Folder);
  assert.equal(store.stats.requests, requests);
});

Deno.test("store.entry resolves a path or an id to a File or Folder handle", async () => {
  await using served = await serve();
  const store = served.demo();
  const table = await store.file(PATHS.table).stat();
  const folder = await store.folder(PATHS.public).stat();

  let before = store.stats.requests;
  const byPath = await store.entry(PATHS.table);
  assert.ok(byPath instanceof File);
  assert.equal(store.stats.requests - before, 1, "one manifest request decides the kind");
  assert.ok((await store.entry(PATHS.public)) instanceof Folder);

  before = store.stats.requests;
  const byId = await store.entry(table.id);
  assert.ok(byId instanceof File);
  assert.equal(byId.path, PATHS.table);
  assert.equal(byId.id, table.id);
  assert.equal(store.stats.requests - before, 2, "metadata for the path, manifest for the kind");
  const folderById = await store.entry(folder.id.toUpperCase());
  assert.ok(folderById instanceof Folder);
  assert.equal(folderById.path, PATHS.public);

  await assert.rejects(store.entry(`${PATHS.public}/nope.csv`), NotFoundError);
  await assert.rejects(store.entry("0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804"), NotFoundError);
  await assert.rejects(store.entry("relative/path"), BadRequestError);
});

Deno.test("store.root gives typed folder handles that already know their entries", async () => {
  await using served = await serve();
  const store = served.demo();
  const roots = await store.root();
  assert.equal(roots.home.path, PATHS.home);
  assert.equal(roots.community.path, PATHS.shared);
  assert.equal(roots.sharedWithMe.path, "/iplant/home");
  assert.equal(roots.trash.path, "/iplant/trash/home/de-irods/demo");
  assert.deepEqual(roots.basePaths, {
    userHome: PATHS.home,
    userTrash: "/iplant/trash/home/de-irods/demo",
    baseTrash: "/iplant/trash/home/de-irods",
  });
  const requests = store.stats.requests;
  const home = await roots.home.stat();
  assert.equal(home.type, "folder");
  assert.equal(home.permission, "own");
  assert.equal(store.stats.requests, requests);
  const names = (await roots.home.list().toArray()).map((entry) => entry.name);
  assert.ok(names.includes("notes.txt"));
});

Deno.test("saved searches come back verbatim; search documentation is typed", async () => {
  await using served = await serve();
  const store = served.demo();
  assert.deepEqual(await store.savedSearches(), SAVED_SEARCHES);
  const docs = await store.searchDocumentation();
  assert.ok(Object.keys(docs.clauses).includes("path"));
  assert.ok(docs.sortFields.includes("label"));
  const anonymousDocs = await served.connect().searchDocumentation();
  assert.deepEqual(Object.keys(anonymousDocs.clauses).sort(), Object.keys(docs.clauses).sort());
});

Deno.test("anonymous stores read public data and get SignInRequiredError for the rest", async () => {
  await using served = await serve();
  const store = served.connect();
  assert.equal(store.options.auth, "anonymous");
  assert.equal((await store.file(PATHS.table).text()).split("\n")[0], "id,name,value");
  await assert.rejects(store.root(), SignInRequiredError);
  await assert.rejects(store.savedSearches(), SignInRequiredError);
  await assert.rejects(store.file(PATHS.table).comments(), SignInRequiredError);
  await assert.rejects(store.folder(PATHS.home).list().toArray(), (error: unknown) => {
    assert.ok(error instanceof SignInRequiredError, String(error));
    assert.equal(error.path, PATHS.home);
    return true;
  });
});

Deno.test("username/password stores sign in lazily; a wrong password is an AuthError", async () => {
  await using served = await serve();
  const alice = served.connect({ username: ALICE.username, password: ALICE.password });
  assert.equal(alice.stats.tokenExchanges, 0);
  assert.equal((await alice.root()).home.path, PATHS.aliceHome);
  assert.equal(await alice.file(PATHS.alicePrivate).text(), "alice only\n");
  assert.equal(alice.stats.tokenExchanges, 1);

  const wrong = served.connect({ username: DEMO.username, password: "not-the-password" });
  await assert.rejects(wrong.folder(PATHS.home).list().count(), (error: unknown) => {
    assert.ok(error instanceof AuthError, String(error));
    assert.ok(!error.message.includes("not-the-password"));
    return true;
  });
  const badToken = served.connect({ token: "bad.token.value" });
  await assert.rejects(badToken.root(), AuthError);
});
