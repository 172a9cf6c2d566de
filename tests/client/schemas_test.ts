import assert from "node:assert/strict";
import { loadZodModule, type z as Z } from "../../lib/deps.ts";
import { getMetadata, getPagedDirectory, getRoot } from "../../lib/client/endpoints.ts";
import { ProtocolError } from "../../lib/client/errors.ts";
import {
  Avu,
  CommentList,
  DirectoryListing,
  IrodsAvu,
  ListingItem,
  Manifest,
  MetadataResponse,
  PagedListing,
  parseBody,
  RootListing,
  SearchDocumentation,
  TokenResponse,
} from "../../lib/client/schemas.ts";
import { Transport } from "../../lib/client/transport.ts";
import { serveDouble } from "./_double.ts";

const { z } = await loadZodModule();

// Bodies shaped like the examples of /work/shared/terrain-api.md §2.2 and §4.

const id = "1a6f0c2e-54e1-11e6-9a2d-90e2ba675364";
const item = (overrides: Record<string, unknown> = {}) => ({
  id,
  path: "/iplant/home/shared/curated/x/README.txt",
  label: "README.txt",
  infoType: "unknown",
  isFavorite: false,
  badName: false,
  permission: "read",
  "date-created": 1469698401000,
  "date-modified": 1469698401000,
  "file-size": 2048,
  ...overrides,
});
const folder = {
  ...item({ path: "/iplant/home/shared/curated/x", label: "x", infoType: null, "file-size": 0 }),
};
const page = (overrides: Record<string, unknown> = {}) => ({
  ...folder,
  hasSubDirs: true,
  total: 2,
  totalBad: 0,
  folders: [item({ infoType: null, "file-size": 0, label: "images" })],
  files: [item()],
  ...overrides,
});
const directoryFolder = {
  id,
  path: "/iplant/home/shared/curated",
  label: "curated",
  permission: "read",
  "date-created": 1454000000000,
  "date-modified": 1717000000000,
  isFavorite: false,
  badName: false,
  hasSubDirs: true,
};
const avu = (attr: string, value: string, avus: unknown[] = []) => ({
  id,
  attr,
  value,
  unit: "",
  target_id: id,
  created_by: "demo",
  modified_by: "demo",
  created_on: 1667373414000,
  modified_on: 1667373414000,
  avus,
});

Deno.test("schemas: accept the documented Terrain bodies", () => {
  ListingItem.parse(item());
  PagedListing.parse(page());
  PagedListing.parse(page({ total: null, folders: [], files: [] }));
  DirectoryListing.parse({ ...directoryFolder, folders: [directoryFolder] });
  RootListing.parse({
    roots: [{
      id,
      path: "/iplant/home/jdoe",
      label: "jdoe",
      "date-created": 1,
      "date-modified": 2,
      permission: "own",
      hasSubDirs: true,
    }],
    "base-paths": {
      user_home_path: "/iplant/home/jdoe",
      user_trash_path: "/iplant/trash/home/de-irods/jdoe",
      base_trash_path: "/iplant/trash/home/de-irods",
    },
  });
  Manifest.parse({
    "content-type": "text/csv",
    infoType: "csv",
    urls: [{
      label: "anonymous",
      url: "https://data.cyverse.org/dav-anon/iplant/home/shared/a.csv",
    }],
  });
  CommentList.parse({
    comments: [{ id, commenter: "jdoe", post_time: 1, retracted: true, comment: "Wrong link." }],
  });
  SearchDocumentation.parse({
    clauses: {
      label: {
        summary: "Searches based on an object's label",
        args: { exact: { type: "bool", summary: "Whether to match exactly" } },
      },
    },
    sortFields: ["label", "dateModified"],
  });
  TokenResponse.parse({
    access_token: "a.b.c",
    expires_in: 300,
    refresh_expires_in: 1800,
    refresh_token: "r.t.s",
    token_type: "Bearer",
    "not-before-policy": 0,
    session_state: "3f0c6d0e",
    scope: "profile email",
  });
  const metadata = MetadataResponse.parse({
    path: "/iplant/home/shared/curated/x",
    "irods-avus": [{ attr: "source", value: "field-campaign-7", unit: "" }],
    avus: [avu("identifier", "10.25739/4fh7-y927", [avu("identifierType", "DOI")])],
  });
  assert.equal(metadata.avus[0].avus[0].value, "DOI");
});

Deno.test("schemas: unknown fields pass through untouched", () => {
  const parsed = PagedListing.parse(page({ newField: { nested: 1 } }));
  assert.deepEqual(parsed.newField, { nested: 1 });
  assert.equal(ListingItem.parse(item({ md5: "abc" })).md5, "abc");
});

Deno.test("PagedListing, compiled, answers exactly as zod's runtime check would", () => {
  const runtime = z.looseObject(PagedListing.shape);
  const bodies: unknown[] = [
    page(),
    page({ total: null, folders: [], files: [] }),
    page({ newField: { nested: 1 } }),
    page({ total: undefined }),
    page({ total: "2" }),
    page({ files: null }),
    page({ files: [item(), item({ "file-size": "12" })] }),
    page({ folders: [item({ permission: "admin" })] }),
    page({ files: [item({ infoType: 5, id: 7 })], totalBad: "x" }),
    [],
    "not a page",
    null,
  ];
  const context = { endpoint: "filesystem/paged-directory", subject: "/iplant/home/shared" };
  const outcome = (schema: Z.ZodType<unknown, unknown>, body: unknown) => {
    try {
      return { value: parseBody(schema, structuredClone(body), context) };
    } catch (error) {
      assert.ok(error instanceof ProtocolError);
      return { error: error.message };
    }
  };
  for (const body of bodies) {
    assert.deepEqual(outcome(PagedListing, body), outcome(runtime, body), JSON.stringify(body));
  }
});

Deno.test("Avu: null unit reads as empty, missing avus as [], nesting is recursive", () => {
  const parsed = Avu.parse({
    id,
    attr: "creator",
    value: "Ada",
    unit: null,
    avus: [{ id, attr: "affiliation", value: "U", avus: [{ id, attr: "ror", value: "r" }] }],
  });
  assert.equal(parsed.unit, "");
  assert.equal(parsed.avus[0].unit, "");
  assert.deepEqual(parsed.avus[0].avus[0].avus, []);
  assert.equal(IrodsAvu.parse({ attr: "a", value: "b", unit: null }).unit, "");
  assert.equal(Avu.safeParse({ id, attr: "a", value: 3 }).success, false);
});

Deno.test("parseBody: names the endpoint, the field path and what arrived", () => {
  const bad = page({ files: [item(), item({ "file-size": "12" })] });
  assert.throws(
    () =>
      parseBody(PagedListing, bad, {
        endpoint: "filesystem/paged-directory",
        subject: "/iplant/home/shared/curated/x",
      }),
    (error: unknown) => {
      assert.ok(error instanceof ProtocolError);
      assert.equal(
        error.message,
        'filesystem/paged-directory answered an unexpected body for "/iplant/home/shared/curated/x": ' +
          'at "files[1].file-size": expected number, got "12".',
      );
      assert.equal(error.endpoint, "filesystem/paged-directory");
      assert.equal(error.path, "/iplant/home/shared/curated/x");
      return true;
    },
  );
});

Deno.test("parseBody: missing fields, enums, extra problems, long values", () => {
  const context = { endpoint: "filesystem/root" };
  assert.throws(
    () => parseBody(RootListing, { roots: [] }, context),
    /at "base-paths": expected object, got nothing \(the field is missing\)/,
  );
  assert.throws(
    () => parseBody(ListingItem, item({ permission: "admin" }), context),
    /at "permission": expected one of "read", "write", "own", got "admin"/,
  );
  assert.throws(
    () => parseBody(ListingItem, item({ id: 1, path: 2, label: 3 }), context),
    /\(and 2 more problems\)/,
  );
  assert.throws(
    () => parseBody(ListingItem, item({ label: 1, path: "x".repeat(500) }), context),
    (error: unknown) => error instanceof ProtocolError && error.message.length < 300,
  );
  assert.throws(
    () => parseBody(Manifest, "text", context),
    /at "\(the whole body\)": expected object, got "text"/,
  );
});

Deno.test("schemas (double): wrong field types from a server are a ProtocolError", async () => {
  await using double = serveDouble((request) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith("/paged-directory")) {
      return Response.json(page({ total: "2" }));
    }
    if (path.endsWith("/metadata")) {
      return Response.json({ path: "/x", avus: [avu("title", "T")], "irods-avus": [{ attr: 1 }] });
    }
    return Response.json({ roots: "none", "base-paths": {} });
  });
  const t = new Transport({ url: double.url, token: "a.b.c" });
  await assert.rejects(
    getPagedDirectory(t, { path: "/iplant/home/shared", limit: 10 }),
    /filesystem\/paged-directory answered an unexpected body for "\/iplant\/home\/shared": at "total": expected number, got "2"/,
  );
  await assert.rejects(
    getMetadata(t, id),
    /at "irods-avus\[0\]\.attr": expected string, got 1/,
  );
  await assert.rejects(getRoot(t), /at "roots": expected array, got "none"/);
  // The listing's unexpected answer is followed by one stat (is the path a file?), not a retry.
  assert.deepEqual(
    double.seen.map((request) => new URL(request.url).pathname.replace(/^\/terrain/, "")),
    [
      "/secured/filesystem/paged-directory",
      "/secured/filesystem/stat",
      `/secured/filesystem/${id}/metadata`,
      "/secured/filesystem/root",
    ],
    "a ProtocolError is not retried",
  );
});
