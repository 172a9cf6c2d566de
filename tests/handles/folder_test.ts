import assert from "node:assert/strict";
import {
  BadRequestError,
  Listing,
  NotFoundError,
  PermissionError,
  SignInRequiredError,
} from "../../mod.ts";
import { MIXED_FOLDERS, namesOnDisk, PAGED_FOLDERS, PATHS, serve } from "./_store.ts";

Deno.test("folders() lists sub-folders in one request when signed in", async () => {
  await using served = await serve();
  const store = served.demo();
  const before = store.stats.requests;
  const folders = await store.folder(PATHS.paged).folders();
  assert.equal(store.stats.requests - before, 1);
  assert.deepEqual(
    folders.map((entry) => entry.name),
    Array.from({ length: PAGED_FOLDERS }, (_, index) => `dir-${index}`),
  );
  assert.ok(folders.every((entry) => entry.type === "folder" && entry.size === 0));
  assert.ok(folders.every((entry) => entry.path === `${PATHS.paged}/${entry.name}`));
});

Deno.test("folders() falls back to the paged listing for anonymous stores, with the same entries", async () => {
  await using served = await serve();
  const signedIn = await served.demo().folder(PATHS.mixed).folders();
  const anonymous = await served.connect().folder(PATHS.mixed).folders();
  assert.deepEqual(anonymous.map((entry) => entry.name), [...MIXED_FOLDERS]);
  assert.deepEqual(anonymous.map((entry) => entry.id), signedIn.map((entry) => entry.id));
  await assert.rejects(served.connect().folder(PATHS.home).folders(), SignInRequiredError);
});

Deno.test("list() returns a lazy Listing of the folder's entries, folders first", async () => {
  await using served = await serve();
  const store = served.demo();
  const listing = store.folder(PATHS.mixed).list();
  assert.ok(listing instanceof Listing);
  assert.equal(String(listing), `Listing(list ${PATHS.mixed})`);
  const entries = await listing.toArray();
  const disk = await namesOnDisk(`${served.root}${PATHS.mixed}`);
  assert.deepEqual(entries.map((entry) => entry.name), [...disk.folders, ...disk.files]);
  assert.deepEqual(
    Deno.inspect(store.folder(PATHS.mixed).walk({ glob: "*.csv", maxDepth: 2, type: "file" })),
    `Listing(walk ${PATHS.mixed}, type "file", glob "*.csv", maxDepth 2)`,
  );
});

Deno.test("list() and walk() reject bad options at once, before any request", async () => {
  await using served = await serve();
  const store = served.demo();
  const folder = store.folder(PATHS.mixed);
  assert.throws(() => folder.list({ sort: "date" as "name" }), /sort must be one of/);
  assert.throws(() => folder.list({ type: "files" as "file" }), /type must be one of/);
  assert.throws(() => folder.list({ pageSize: 0 }), /pageSize must be an integer ≥ 1/);
  assert.throws(() => folder.walk({ maxDepth: 0 }), /maxDepth must be an integer ≥ 1/);
  assert.throws(() => folder.walk({ glob: "/abs/*.csv" }), /not starting with "\/"/);
  assert.throws(() => folder.list({ infoType: [] }), BadRequestError);
  assert.equal(store.stats.requests, 0);
});

Deno.test("list() and walk() refuse a misspelt option before any request, naming the nearest name", async () => {
  await using served = await serve();
  let requests = 0;
  const store = served.demo({ fetch: (input, init) => (requests++, fetch(input, init)) });
  const folder = store.folder(PATHS.mixed);
  const refused: [() => unknown, string][] = [
    [
      () => folder.list({ sortBy: "size" } as never),
      'folder.list(): unknown option "sortBy": did you mean "sort"?',
    ],
    [
      () => folder.list({ infotype: "csv" } as never),
      'folder.list(): unknown option "infotype": did you mean "infoType"?',
    ],
    [
      () => folder.list({ maxDepth: 2 } as never),
      'folder.list(): unknown option "maxDepth"; the options are type, sort, order, infoType, ' +
      "pageSize, glob, signal.",
    ],
    [
      () => folder.walk({ depth: 2 } as never),
      'folder.walk(): unknown option "depth": did you mean "maxDepth"?',
    ],
    [
      () => folder.list({ pageSize: "100" } as never),
      'folder.list(): pageSize must be an integer ≥ 1, got "100".',
    ],
  ];
  for (const [run, message] of refused) {
    assert.throws(run, (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.equal(error.message, message);
      return true;
    });
  }
  assert.equal(requests, 0);
  assert.equal(served.server.stats().requests, 0);
});

Deno.test("every list() and walk() option still works", async () => {
  await using served = await serve();
  const folder = served.demo().folder(PATHS.mixed);
  const names = async (listing: Listing) => (await listing.toArray()).map((entry) => entry.name);
  const signal = new AbortController().signal;
  const list = folder.list({
    type: "file",
    sort: "size",
    order: "desc",
    infoType: ["csv", "tsv"],
    pageSize: 1,
    glob: "*.csv",
    signal,
  });
  assert.deepEqual(await names(list), ["e.csv", "a.csv"]);
  const walk = served.demo().folder(PATHS.tree).walk({
    type: "file",
    sort: "name",
    order: "asc",
    infoType: "csv",
    pageSize: 2,
    glob: "a/**",
    signal,
    maxDepth: 2,
    concurrency: 1,
  });
  assert.deepEqual(await names(walk), ["a1.csv"]);
});

Deno.test("listing errors surface through the iteration: missing, unreadable, not a folder", async () => {
  await using served = await serve();
  const store = served.demo();
  await assert.rejects(store.folder(`${PATHS.public}/nope`).list().toArray(), (error: unknown) => {
    assert.ok(error instanceof NotFoundError, String(error));
    assert.equal(error.path, `${PATHS.public}/nope`);
    return true;
  });
  await assert.rejects(store.folder(PATHS.aliceHome).list().count(), PermissionError);
  await assert.rejects(store.folder(PATHS.aliceHome).folders(), PermissionError);
  await assert.rejects(store.folder(PATHS.table).list().take(1), /is a file, not a folder/);
  await assert.rejects(store.folder(PATHS.table).folders(), BadRequestError);
  await assert.rejects(store.folder(PATHS.table).walk().toArray(), BadRequestError);
});
