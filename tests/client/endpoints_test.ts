import assert from "node:assert/strict";
import {
  displayDownload,
  download,
  getComments,
  getDirectory,
  getManifest,
  getMetadata,
  getPagedDirectory,
  getRoot,
  getSavedSearches,
  getSearchDocumentation,
} from "../../lib/client/endpoints.ts";
import { INFO_TYPES } from "../../lib/registry/file_formats.ts";
import {
  BadRequestError,
  NotFoundError,
  PermissionError,
  ServerError,
  SignInRequiredError,
  type TernError,
} from "../../lib/client/errors.ts";
import { Transport } from "../../lib/client/transport.ts";
import { serveDouble } from "./_double.ts";
import {
  ALICE,
  bigBytes,
  CSV_COMMENTS,
  DEMO,
  MANY_FILES,
  MANY_FOLDERS,
  PATHS,
  PNG_BYTES,
  SAVED_SEARCHES,
  serveStore,
  TABLE_CSV,
} from "./_store.ts";

const UNKNOWN_ID = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";

function clients(url: string) {
  return {
    anonymous: new Transport({ url }),
    demo: new Transport({ url, token: DEMO.token }),
    alice: new Transport({ url, username: ALICE.username, password: ALICE.password }),
  };
}

/** Asserts the typed error class, endpoint and path of a rejection. */
async function rejectsWith(
  promise: Promise<unknown>,
  kind: new (...args: never[]) => TernError,
  endpoint: string,
  path: string | undefined,
): Promise<TernError> {
  const error = await promise.then(
    () => assert.fail(`expected ${kind.name}`),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof kind, `expected ${kind.name}, got ${error}`);
  assert.equal(error.endpoint, endpoint);
  assert.equal(error.path, path);
  return error;
}

async function text(body: ReadableStream<Uint8Array>): Promise<string> {
  return await new Response(body).text();
}

Deno.test("getRoot: the four roots and base paths of the signed-in user", async () => {
  await using served = await serveStore();
  const { anonymous, demo } = clients(served.url);
  const { roots, "base-paths": base } = await getRoot(demo);
  assert.deepEqual(roots.map((root) => root.label), [
    "demo",
    "Community Data",
    "Shared With Me",
    "Trash",
  ]);
  assert.equal(roots[0].path, PATHS.home);
  assert.equal(roots[0].permission, "own");
  assert.equal(base.user_home_path, PATHS.home);
  assert.equal(base.user_trash_path, "/iplant/trash/home/de-irods/demo");
  const before = served.server.stats().requests;
  await rejectsWith(getRoot(anonymous), SignInRequiredError, "filesystem/root", undefined);
  assert.equal(served.server.stats().requests, before, "nothing is sent for a sign-in error");
});

Deno.test("getDirectory: sub-folders only; files and other homes are typed errors", async () => {
  await using served = await serveStore();
  const { anonymous, demo } = clients(served.url);
  const listing = await getDirectory(demo, PATHS.home);
  assert.equal(listing.path, PATHS.home);
  assert.deepEqual(listing.folders.map((folder) => folder.path), [PATHS.homeSub]);
  const wrongKind = await rejectsWith(
    getDirectory(demo, PATHS.homeCsv),
    BadRequestError,
    "filesystem/directory",
    PATHS.homeCsv,
  );
  assert.match(wrongKind.message, /is a file, not a folder/);
  const forbidden = await rejectsWith(
    getDirectory(demo, "/iplant/home/alice"),
    PermissionError,
    "filesystem/directory",
    "/iplant/home/alice",
  );
  assert.equal(forbidden.code, "ERR_NOT_READABLE");
  await rejectsWith(
    getDirectory(demo, `${PATHS.home}/missing`),
    NotFoundError,
    "filesystem/directory",
    `${PATHS.home}/missing`,
  );
  await rejectsWith(
    getDirectory(anonymous, PATHS.public),
    SignInRequiredError,
    "filesystem/directory",
    PATHS.public,
  );
});

Deno.test("getPagedDirectory: anonymous pages cover a folder exactly, folders first", async () => {
  await using served = await serveStore();
  const { anonymous } = clients(served.url);
  const seen: string[] = [];
  const kinds: string[] = [];
  let offset = 0;
  let total: number | null = null;
  while (true) {
    const page = await getPagedDirectory(anonymous, { path: PATHS.many, limit: 7, offset });
    if (page.folders.length + page.files.length === 0) {
      assert.equal(page.total, null, "an empty page has a null total");
      break;
    }
    total = page.total;
    for (const entry of page.folders) kinds.push("folder"), seen.push(entry.path);
    for (const entry of page.files) kinds.push("file"), seen.push(entry.path);
    offset += 7;
  }
  assert.equal(total, MANY_FILES + MANY_FOLDERS);
  assert.equal(seen.length, MANY_FILES + MANY_FOLDERS);
  assert.equal(new Set(seen).size, seen.length, "no entry repeats");
  assert.deepEqual(
    kinds,
    [...Array(MANY_FOLDERS).fill("folder"), ...Array(MANY_FILES).fill("file")],
  );
});

Deno.test("getPagedDirectory: filters and sorting reach the server", async () => {
  await using served = await serveStore();
  const { anonymous, demo } = clients(served.url);
  const files = await getPagedDirectory(anonymous, {
    path: PATHS.public,
    limit: 100,
    entityType: "file",
    sortCol: "size",
    sortDir: "DESC",
  });
  assert.equal(files.folders.length, 0);
  assert.equal(files.files[0].path, PATHS.publicBig);
  const sizes = files.files.map((file) => file["file-size"]);
  assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a));
  assert.equal(files.total, files.files.length);

  const csv = await getPagedDirectory(demo, {
    path: PATHS.public,
    limit: 100,
    entityType: "file",
    infoType: ["csv", "tsv"],
  });
  assert.deepEqual(csv.files.map((file) => file.label), ["table.csv"]);
  assert.equal(csv.files[0].infoType, "csv");
  assert.equal(csv.files[0]["file-size"], TABLE_CSV.length);

  const lower = await getPagedDirectory(anonymous, {
    path: PATHS.many,
    limit: 2,
    sortDir: "desc" as "DESC",
    entityType: "folder",
  });
  assert.deepEqual(lower.folders.map((folder) => folder.label), ["folder-3", "folder-2"]);
});

Deno.test("getPagedDirectory: anonymous outside shared, missing, unreadable, wrong kind", async () => {
  await using served = await serveStore();
  const { anonymous, demo } = clients(served.url);
  const endpoint = "filesystem/paged-directory";
  await rejectsWith(
    getPagedDirectory(anonymous, { path: PATHS.home, limit: 10 }),
    SignInRequiredError,
    endpoint,
    PATHS.home,
  );
  await rejectsWith(
    getPagedDirectory(demo, { path: `${PATHS.home}/nope`, limit: 10 }),
    NotFoundError,
    endpoint,
    `${PATHS.home}/nope`,
  );
  await rejectsWith(
    getPagedDirectory(demo, { path: "/iplant/home/alice", limit: 10 }),
    PermissionError,
    endpoint,
    "/iplant/home/alice",
  );
  await rejectsWith(
    getPagedDirectory(demo, { path: PATHS.homeCsv, limit: 10 }),
    BadRequestError,
    endpoint,
    PATHS.homeCsv,
  );
});

Deno.test("getPagedDirectory (double): a file's path, which Terrain fails to list, is ERR_NOT_A_FOLDER", async () => {
  // Terrain has data-info list the path; data-info answers a file's path with the file's bytes,
  // which Terrain then fails to read as a listing: a 500, or for bytes that happen to be JSON an
  // answer that is no listing. The embedded server says ERR_NOT_A_FOLDER instead; this double
  // answers those two ways and forwards everything else to it.
  await using served = await serveStore();
  const listings: string[] = [];
  await using double = serveDouble(async (request) => {
    const url = new URL(request.url);
    const path = url.searchParams.get("path") ?? "";
    if (url.pathname.endsWith("/paged-directory")) listings.push(path);
    if (url.pathname.endsWith("/paged-directory") && path.endsWith(".csv")) {
      return Response.json({
        error_code: "ERR_UNCHECKED_EXCEPTION",
        reason: "com.fasterxml.jackson.core.JsonParseException: Unrecognized token 'id'",
      }, { status: 500 });
    }
    if (url.pathname.endsWith("/paged-directory") && path.endsWith(".png")) {
      return Response.json({ a: 1 });
    }
    if (url.pathname.endsWith("/paged-directory") && path === PATHS.public) {
      return Response.json({ error_code: "ERR_UNCHECKED_EXCEPTION", reason: "boom" }, {
        status: 500,
      });
    }
    return await fetch(`${served.url}${url.pathname.slice("/terrain".length)}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.method === "POST" ? await request.arrayBuffer() : undefined,
    });
  });
  const anonymous = new Transport({ url: double.url, retries: 0 });
  const endpoint = "filesystem/paged-directory";
  for (const file of [PATHS.publicCsv, PATHS.publicPng]) {
    const error = await rejectsWith(
      getPagedDirectory(anonymous, { path: file, limit: 10 }),
      BadRequestError,
      endpoint,
      file,
    );
    assert.equal(error.code, "ERR_NOT_A_FOLDER");
    assert.match(error.message, /is a file, not a folder/);
  }
  // A folder that fails is the server's failure, as it said.
  const failed = await rejectsWith(
    getPagedDirectory(anonymous, { path: PATHS.public, limit: 10 }),
    ServerError,
    endpoint,
    PATHS.public,
  );
  assert.equal(failed.code, "ERR_UNCHECKED_EXCEPTION");
  assert.deepEqual(listings, [PATHS.publicCsv, PATHS.publicPng, PATHS.public]);
});

Deno.test("endpoints: bad arguments are refused before anything is sent", async () => {
  await using served = await serveStore();
  const { anonymous } = clients(served.url);
  const endpoint = "filesystem/paged-directory";
  const cases: [Promise<unknown>, RegExp][] = [
    [getPagedDirectory(anonymous, { path: "relative/path", limit: 1 }), /absolute data-store path/],
    [getPagedDirectory(anonymous, { path: "  ", limit: 1 }), /must not be blank/],
    [getPagedDirectory(anonymous, { path: "/a\0b", limit: 1 }), /NUL/],
    [getMetadata(anonymous, "not-a-uuid"), /needs an item id \(a UUID/],
    [getComments(anonymous, UNKNOWN_ID.slice(1)), /needs an item id/],
    [download(anonymous, ""), /must not be blank/],
    [getManifest(anonymous, 42 as unknown as string), /must be a string, got number/],
  ];
  for (const [promise, message] of cases) {
    await assert.rejects(promise, (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.match(error.message, message);
      return true;
    });
  }
  await assert.rejects(
    getPagedDirectory(anonymous, { path: "relative", limit: 1 }),
    (error: unknown) => error instanceof BadRequestError && error.endpoint === endpoint,
  );
  assert.equal(served.server.stats().requests, 0);
});

Deno.test("download: the exact bytes, size and name; missing and folder are typed", async () => {
  await using served = await serveStore();
  const { anonymous, demo } = clients(served.url);
  const csv = await download(anonymous, PATHS.publicCsv);
  assert.equal(csv.contentType, "application/octet-stream");
  assert.equal(csv.filename, "table.csv");
  assert.equal(csv.size, TABLE_CSV.length);
  assert.equal(await text(csv.body), TABLE_CSV);

  const big = await download(anonymous, PATHS.publicBig);
  const bytes = new Uint8Array(await new Response(big.body).arrayBuffer());
  assert.deepEqual(bytes, bigBytes());

  const unicode = await download(anonymous, PATHS.unicode);
  assert.equal(unicode.filename, "résumé été.txt");
  await unicode.body.cancel();

  const own = await download(demo, PATHS.homeCsv);
  assert.equal(await text(own.body), "a,b\n1,2\n");

  await rejectsWith(
    download(anonymous, `${PATHS.public}/missing.csv`),
    NotFoundError,
    "fileio/download",
    `${PATHS.public}/missing.csv`,
  );
  await rejectsWith(
    download(anonymous, PATHS.public),
    BadRequestError,
    "fileio/download",
    PATHS.public,
  );
  await rejectsWith(
    download(demo, PATHS.alicePrivate),
    NotFoundError,
    "fileio/download",
    PATHS.alicePrivate,
  );
});

Deno.test("displayDownload: detected media type, inline or attachment", async () => {
  await using served = await serveStore();
  const { anonymous } = clients(served.url);
  const inline = await displayDownload(anonymous, PATHS.publicCsv, { inline: true });
  assert.equal(inline.contentType.split(";")[0], "text/csv");
  assert.equal(inline.filename, "table.csv");
  assert.equal(await text(inline.body), TABLE_CSV);
  const png = await displayDownload(anonymous, PATHS.publicPng);
  assert.equal(png.contentType, "image/png");
  assert.deepEqual(new Uint8Array(await new Response(png.body).arrayBuffer()), PNG_BYTES);
  await rejectsWith(
    displayDownload(anonymous, `${PATHS.public}/nope.png`),
    NotFoundError,
    "filesystem/display-download",
    `${PATHS.public}/nope.png`,
  );
});

Deno.test("getManifest: type, info type and public URL; private files have none", async () => {
  await using served = await serveStore();
  const { anonymous, demo } = clients(served.url);
  const manifest = await getManifest(anonymous, PATHS.publicCsv);
  assert.equal(manifest["content-type"], "text/csv");
  assert.equal(manifest.infoType, "csv");
  assert.equal(manifest.urls.length, 1);
  assert.equal(manifest.urls[0].label, "anonymous");
  const viaUrl = await fetch(manifest.urls[0].url);
  assert.equal(await viaUrl.text(), TABLE_CSV);
  assert.deepEqual((await getManifest(demo, PATHS.homeCsv)).urls, []);
  await rejectsWith(
    getManifest(anonymous, PATHS.public),
    BadRequestError,
    "filesystem/file/manifest",
    PATHS.public,
  );
});

Deno.test("getComments: every comment with its retraction; sign-in needed", async () => {
  await using served = await serveStore();
  const { anonymous, demo } = clients(served.url);
  const page = await getPagedDirectory(demo, { path: PATHS.public, limit: 100 });
  const table = page.files.find((file) => file.path === PATHS.publicCsv)!;
  const { comments } = await getComments(demo, table.id);
  assert.deepEqual(comments, CSV_COMMENTS);
  const folder = await getComments(demo, page.id);
  assert.deepEqual(folder.comments, []);
  await rejectsWith(
    getComments(anonymous, table.id),
    SignInRequiredError,
    "filesystem/entry/{id}/comments",
    table.id,
  );
  await rejectsWith(
    getComments(demo, UNKNOWN_ID),
    NotFoundError,
    "filesystem/entry/{id}/comments",
    UNKNOWN_ID,
  );
});

Deno.test("getMetadata: template AVUs with nesting, anonymously; unknown ids are typed", async () => {
  await using served = await serveStore();
  const { anonymous } = clients(served.url);
  const page = await getPagedDirectory(anonymous, { path: PATHS.public, limit: 1 });
  const metadata = await getMetadata(anonymous, page.id);
  assert.equal(metadata.path, PATHS.public);
  assert.deepEqual(metadata.avus.map((avu) => [avu.attr, avu.value]), [
    ["title", "Public test data"],
    ["identifier", "10.25739/abcd-1234"],
    ["subject", "testing"],
    ["subject", "fixtures"],
  ]);
  const identifier = metadata.avus[1];
  assert.equal(identifier.avus[0].attr, "identifierType");
  assert.equal(identifier.avus[0].target_id, identifier.id);
  assert.ok(Array.isArray(metadata["irods-avus"]));
  await rejectsWith(
    getMetadata(anonymous, UNKNOWN_ID),
    NotFoundError,
    "filesystem/{id}/metadata",
    UNKNOWN_ID,
  );
});

Deno.test("getMetadata: another user's private item is a PermissionError that names only its id", async () => {
  await using served = await serveStore();
  const { anonymous, demo, alice } = clients(served.url);
  const home = await getPagedDirectory(alice, { path: "/iplant/home/alice", limit: 10 });
  const privateId = home.files.find((file) => file.path === PATHS.alicePrivate)!.id;
  for (const transport of [demo, anonymous]) {
    const error = await rejectsWith(
      getMetadata(transport, privateId),
      PermissionError,
      "filesystem/{id}/metadata",
      privateId,
    );
    assert.equal(error.status, 403);
    assert.doesNotMatch(error.message, /alice|private/);
  }
});

Deno.test("getSavedSearches: stored JSON verbatim, {} when none, sign-in needed", async () => {
  await using served = await serveStore();
  const { anonymous, demo, alice } = clients(served.url);
  assert.deepEqual(await getSavedSearches(demo), SAVED_SEARCHES);
  assert.deepEqual(await getSavedSearches(alice), {});
  await rejectsWith(getSavedSearches(anonymous), SignInRequiredError, "saved-searches", undefined);
});

Deno.test("getSearchDocumentation: nine clauses with summaries, anonymously", async () => {
  await using served = await serveStore();
  const { anonymous } = clients(served.url);
  const docs = await getSearchDocumentation(anonymous);
  assert.deepEqual(Object.keys(docs.clauses).sort(), [
    "created",
    "label",
    "metadata",
    "modified",
    "owner",
    "path",
    "permissions",
    "size",
    "tag",
  ]);
  assert.equal(docs.clauses.path.args.prefix.type, "string");
  assert.deepEqual([...docs.sortFields].sort(), [
    "creator",
    "dateCreated",
    "dateModified",
    "fileSize",
    "id",
    "label",
    "path",
  ]);
});

Deno.test("endpoints (double): route variants and the display-download attachment flag", async () => {
  await using double = serveDouble(() => new Response("x"));
  const anonymous = new Transport({ url: double.url });
  const signedIn = new Transport({ url: double.url, token: "a.b.c" });
  await (await displayDownload(anonymous, "/iplant/home/shared/a.csv", { inline: true })).body
    .cancel();
  await (await displayDownload(signedIn, "/iplant/home/shared/a.csv")).body.cancel();
  await (await download(anonymous, "/iplant/home/shared/a.csv")).body.cancel();
  await (await download(signedIn, "/iplant/home/shared/a.csv")).body.cancel();
  const seen = double.seen.map((request) => `${request.url.pathname}${request.url.search}`);
  assert.deepEqual(seen, [
    "/terrain/filesystem/display-download?path=%2Fiplant%2Fhome%2Fshared%2Fa.csv&attachment=0",
    "/terrain/secured/filesystem/display-download?path=%2Fiplant%2Fhome%2Fshared%2Fa.csv&attachment=1",
    "/terrain/fileio/download?path=%2Fiplant%2Fhome%2Fshared%2Fa.csv",
    "/terrain/secured/fileio/download?path=%2Fiplant%2Fhome%2Fshared%2Fa.csv",
  ]);
});

Deno.test("INFO_TYPES: Terrain's filter values, each accepted by the server", async () => {
  assert.equal(INFO_TYPES.length, 55);
  assert.ok(INFO_TYPES.includes("csv") && INFO_TYPES.includes("unknown"));
  assert.ok(Object.isFrozen(INFO_TYPES));
  await using served = await serveStore();
  const page = await getPagedDirectory(new Transport({ url: served.url }), {
    path: PATHS.public,
    limit: 100,
    entityType: "file",
    infoType: INFO_TYPES,
  });
  assert.equal(page.files.length, page.total);
});
