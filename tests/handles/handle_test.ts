import assert from "node:assert/strict";
import { BadRequestError, NotFoundError, PermissionError } from "../../mod.ts";
import { PATHS, serve, TABLE_COMMENTS } from "./_store.ts";

const MISSING_ID = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";

Deno.test("stat reads a folder in one request and a file from its parent's listing", async () => {
  await using served = await serve();
  const store = served.demo();
  let before = store.stats.requests;
  const folder = await store.folder(PATHS.public).stat();
  assert.equal(store.stats.requests - before, 1);
  assert.deepEqual(
    { ...folder, created: undefined, modified: undefined, id: undefined },
    {
      id: undefined,
      path: PATHS.public,
      name: "public",
      type: "folder",
      size: 0,
      created: undefined,
      modified: undefined,
      infoType: null,
      permission: "read",
    },
  );
  assert.ok(folder.modified instanceof Date && !Number.isNaN(folder.modified.getTime()));

  before = store.stats.requests;
  const handle = store.file(PATHS.table);
  const file = await handle.stat();
  assert.equal(store.stats.requests - before, 1);
  assert.equal(file.size, (await Deno.stat(`${served.root}${PATHS.table}`)).size);
  assert.equal(file.infoType, "csv");
  assert.equal(handle.id, file.id);

  before = store.stats.requests;
  assert.equal(await handle.stat(), file, "a stat'ed handle remembers its entry");
  assert.equal(store.stats.requests, before);
  await Deno.writeTextFile(`${served.root}${PATHS.table}`, "changed\n");
  const fresh = await handle.stat({ refresh: true });
  assert.equal(fresh.size, 8);
  assert.equal(store.stats.requests - before, 1);
});

Deno.test("stat errors say exactly what is wrong: missing, unreadable, or the other kind", async () => {
  await using served = await serve();
  const store = served.demo();
  await assert.rejects(store.folder(`${PATHS.public}/nope`).stat(), NotFoundError);
  await assert.rejects(store.file(`${PATHS.public}/nope.csv`).stat(), (error: unknown) => {
    assert.ok(error instanceof NotFoundError, String(error));
    assert.equal(error.path, `${PATHS.public}/nope.csv`);
    return true;
  });
  await assert.rejects(store.folder(PATHS.aliceHome).stat(), PermissionError);
  await assert.rejects(store.file(PATHS.alicePrivate).stat(), PermissionError);
  await assert.rejects(store.folder(PATHS.table).stat(), (error: unknown) => {
    assert.ok(error instanceof BadRequestError, String(error));
    assert.match(error.message, /is a file, not a folder/);
    return true;
  });
  await assert.rejects(store.file(PATHS.empty).stat(), (error: unknown) => {
    assert.ok(error instanceof BadRequestError, String(error));
    assert.match(error.message, /is a folder, not a file/);
    return true;
  });
});

Deno.test("metadata returns raw template and iRODS AVUs by id, for folders and files", async () => {
  await using served = await serve();
  const store = served.connect();
  const folder = await store.folder(PATHS.public).metadata();
  assert.equal(folder.path, PATHS.public);
  assert.deepEqual(folder.avus.map((avu) => avu.attr), ["title", "identifier"]);
  assert.equal(folder.avus[1].avus[0].attr, "identifierType");
  assert.deepEqual(folder.irodsAvus, []);
  const file = await store.file(PATHS.table).metadata();
  assert.deepEqual(file.avus.map((avu) => [avu.attr, avu.value]), [[
    "description",
    "A small table",
  ]]);
  const none = await store.file(PATHS.png).metadata();
  assert.deepEqual(none.avus, []);
  await assert.rejects(store.folder(`${PATHS.public}/gone`).metadata(), NotFoundError);
});

Deno.test("comments come with authors, dates and the retracted flag, retracted ones included", async () => {
  await using served = await serve();
  const comments = await served.demo().file(PATHS.table).comments();
  assert.deepEqual(
    comments,
    TABLE_COMMENTS.map((comment) => ({
      id: comment.id,
      author: comment.commenter,
      posted: new Date(comment.post_time),
      retracted: comment.retracted,
      text: comment.comment,
    })),
  );
  assert.deepEqual(await served.demo().folder(PATHS.public).comments(), []);
});

Deno.test("an id is accepted wherever a path is, and is looked up once", async () => {
  await using served = await serve();
  const store = served.demo();
  const { id } = await store.folder(PATHS.public).stat();
  const tableId = (await store.file(PATHS.table).stat()).id;

  const folder = store.folder(id);
  assert.equal(folder.path, undefined);
  assert.equal(folder.id, id);
  assert.equal(String(folder), `Folder(id ${id})`);
  const child = folder.file("table.csv");
  assert.equal(String(child), `File(id ${id}/table.csv)`);
  assert.equal(await child.text(), "id,name,value\n1,alpha,0.5\n2,beta,1.5\n3,gamma,2.5\n");
  assert.equal(folder.path, PATHS.public, "the child's lookup resolved the parent");
  assert.equal(child.path, PATHS.table);

  const before = store.stats.requests;
  assert.equal((await folder.list().toArray()).length, 5);
  assert.equal(store.stats.requests - before, 1, "the path is remembered");

  const file = store.file(tableId);
  assert.equal((await file.metadata()).path, PATHS.table);
  assert.equal(file.path, PATHS.table);
  assert.equal((await file.stat()).id, tableId);
  assert.deepEqual(file.toJSON(), { kind: "file", path: PATHS.table, id: tableId });

  await assert.rejects(store.folder(MISSING_ID).list().toArray(), NotFoundError);
});

Deno.test("children of a folder handle are lazy and reject climbing names", async () => {
  await using served = await serve();
  const store = served.demo();
  const tree = store.folder(PATHS.tree);
  const deep = tree.folder("a/deep/");
  assert.equal(deep.path, `${PATHS.tree}/a/deep`);
  assert.equal(deep.file("d1.csv").name, "d1.csv");
  assert.equal(await deep.file("d1.csv").text(), "a/deep/d1.csv\n");
  assert.equal(store.folder("/").folder("iplant").path, "/iplant");
  assert.throws(() => tree.file("../x"), BadRequestError);
  assert.throws(() => tree.folder("/abs"), /cannot start with/);
  assert.throws(() => tree.file(""), BadRequestError);
});
