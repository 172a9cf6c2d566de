import assert from "node:assert/strict";
import { startServer } from "../../../server.ts";
import {
  ALICE,
  assertShape,
  bearer,
  DEMO,
  fastTempParent,
  FIXED_MTIME,
  get,
  makeStore,
  serveStore,
  writeTree,
} from "../_store.ts";

const TOP_SHAPE = {
  id: "string",
  path: "string",
  label: "string",
  infoType: "null",
  isFavorite: "boolean",
  badName: "boolean",
  permission: "string",
  "date-created": "integer",
  "date-modified": "integer",
  "file-size": "integer",
  hasSubDirs: "boolean",
  total: "integer|null",
  totalBad: "integer",
  folders: "array",
  files: "array",
};

const ITEM_SHAPE = {
  id: "string",
  path: "string",
  label: "string",
  infoType: "string|null",
  isFavorite: "boolean",
  badName: "boolean",
  permission: "string",
  "date-created": "integer",
  "date-modified": "integer",
  "file-size": "integer",
};

const PROJECT = "/iplant/home/shared/project";
const PROJECT_FILES = [
  ".hidden",
  "README",
  "a.csv",
  "b.tsv",
  "c.fastq",
  "café.csv",
  "image.png",
  "space name.txt",
];

// deno-lint-ignore no-explicit-any
type Listing = any;

function listingUrl(base: string, query: string, secured = true): string {
  return `${base}/${secured ? "secured/" : ""}filesystem/paged-directory?${query}`;
}

Deno.test("paged listing has Terrain's exact shape, folders first, sidecars hidden", async () => {
  await using fixture = await serveStore();
  const { status, headers, json } = await get(
    listingUrl(fixture.url, `path=${PROJECT}/&limit=100`),
    bearer(DEMO.token),
  );
  assert.equal(status, 200);
  assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
  assertShape(json, TOP_SHAPE, "listing");
  assert.equal(json.path, PROJECT);
  assert.equal(json.label, "project");
  assert.equal(json.permission, "read");
  assert.equal(json["file-size"], 0);
  assert.equal(json.hasSubDirs, true);
  assert.equal(json.isFavorite, false);
  assert.equal(json.totalBad, 0);
  assert.equal(json.total, 10);
  for (const item of [...json.folders, ...json.files]) assertShape(item, ITEM_SHAPE, item.path);
  assert.deepEqual(json.folders.map((f: Listing) => f.label), ["sub1", "sub2"]);
  assert.deepEqual(json.files.map((f: Listing) => f.label), PROJECT_FILES);
  assert.ok(json.folders.every((f: Listing) => f.infoType === null && f["file-size"] === 0));
  const types = Object.fromEntries(json.files.map((f: Listing) => [f.label, f.infoType]));
  assert.deepEqual(types, {
    ".hidden": "unknown",
    "README": "fasta",
    "a.csv": "csv",
    "b.tsv": "tsv",
    "c.fastq": "fastq",
    "café.csv": "csv",
    "image.png": "unknown",
    "space name.txt": "unknown",
  });
  const csv = json.files.find((f: Listing) => f.label === "a.csv");
  assert.equal(csv.path, `${PROJECT}/a.csv`);
  assert.equal(csv["file-size"], 12);
  assert.match(csv.id, /^[0-9a-f-]{36}$/);
});

Deno.test("pages cover the folder exactly once; total counts all; an empty page has total null", async () => {
  await using fixture = await serveStore();
  const seen: string[] = [];
  for (let offset = 0; offset < 10; offset += 3) {
    const { json } = await get(
      listingUrl(fixture.url, `path=${PROJECT}&limit=3&offset=${offset}`),
      bearer(DEMO.token),
    );
    assert.equal(json.total, 10);
    seen.push(
      ...json.folders.map((f: Listing) => f.label),
      ...json.files.map((f: Listing) => f.label),
    );
  }
  assert.deepEqual(seen, ["sub1", "sub2", ...PROJECT_FILES]);
  const past = await get(
    listingUrl(fixture.url, `path=${PROJECT}&limit=3&offset=10`),
    bearer(DEMO.token),
  );
  assert.equal(past.json.total, null);
  assert.deepEqual([past.json.folders, past.json.files], [[], []]);
  const empty = await get(
    listingUrl(fixture.url, `path=${PROJECT}/sub1&limit=5`),
    bearer(DEMO.token),
  );
  assert.equal(empty.json.total, null);
});

Deno.test("every sort column and direction orders within folders and within files", async () => {
  await using fixture = await serveStore({
    "iplant/home/shared/s/small.txt": "1",
    "iplant/home/shared/s/large.txt": "1234567890",
    "iplant/home/shared/s/medium.txt": "12345",
    "iplant/home/shared/s/Upper.txt": "123",
    "iplant/home/shared/s/dir-b": null,
    "iplant/home/shared/s/dir-a": null,
  });
  const dir = `${fixture.root}/iplant/home/shared/s`;
  const dates: Record<string, number> = {
    "small.txt": Date.UTC(2020, 0, 4),
    "large.txt": Date.UTC(2020, 0, 1),
    "medium.txt": Date.UTC(2020, 0, 3),
    "Upper.txt": Date.UTC(2020, 0, 2),
    "dir-a": Date.UTC(2020, 0, 6),
    "dir-b": Date.UTC(2020, 0, 5),
  };
  for (const [name, time] of Object.entries(dates)) {
    await Deno.utime(`${dir}/${name}`, time / 1000, time / 1000);
  }
  const key: Record<string, (item: Listing) => string | number> = {
    name: (item) => item.label,
    path: (item) => item.path,
    size: (item) => item["file-size"],
    datecreated: (item) => item["date-created"],
    datemodified: (item) => item["date-modified"],
  };
  for (const column of Object.keys(key)) {
    for (const direction of ["ASC", "DESC"]) {
      const { json } = await get(
        listingUrl(
          fixture.url,
          `path=/iplant/home/shared/s&limit=50&sort-col=${column}&sort-dir=${direction}`,
          false,
        ),
      );
      for (const items of [json.folders, json.files]) {
        const values = items.map(key[column]);
        const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        if (direction === "DESC") sorted.reverse();
        assert.deepEqual(values, sorted, `${column} ${direction}`);
      }
      assert.equal(json.folders.length, 2);
      assert.equal(json.files.length, 4);
    }
  }
  const byDate = await get(
    listingUrl(fixture.url, "path=/iplant/home/shared/s&limit=50&sort-col=datemodified", false),
  );
  assert.deepEqual(byDate.json.files.map((f: Listing) => f.label), [
    "large.txt",
    "Upper.txt",
    "medium.txt",
    "small.txt",
  ]);
  assert.deepEqual(byDate.json.folders.map((f: Listing) => f.label), ["dir-b", "dir-a"]);
});

Deno.test("sort parameters get Terrain's fix-ups, aliases and precedence", async () => {
  await using fixture = await serveStore({
    "iplant/home/shared/s/b": "1",
    "iplant/home/shared/s/a": "1234",
  });
  const labels = async (query: string) => {
    const { status, json } = await get(
      listingUrl(fixture.url, `path=/iplant/home/shared/s&limit=9&${query}`, false),
    );
    assert.equal(status, 200, `${query}: ${JSON.stringify(json)}`);
    return json.files.map((f: Listing) => f.label).join(",");
  };
  assert.equal(await labels("sort-col=SIZE"), "b,a");
  assert.equal(await labels("sort-col=ID&sort-dir=desc"), "b,a");
  assert.equal(await labels("sort-col=LastModified"), await labels("sort-col=datemodified"));
  assert.equal(await labels("sort-col=size&sort-field=name"), "a,b");
  assert.equal(await labels("sort-col=name&sort-field=size"), "b,a");
  const shouted = await get(
    listingUrl(fixture.url, "path=/iplant/home/shared/s&limit=9&sort-field=SIZE", false),
  );
  assert.equal(shouted.status, 400);
  assert.deepEqual(shouted.json, {
    error_code: "ERR_ILLEGAL_ARGUMENT",
    reason: {
      "sort-field": '(not (#{"name" "path" "size" "datecreated" "datemodified"} "SIZE"))',
    },
  });
});

Deno.test("entity-type and repeated info-type filter the listing and its total", async () => {
  await using fixture = await serveStore();
  const ask = async (query: string) =>
    (await get(listingUrl(fixture.url, `path=${PROJECT}&limit=100&${query}`), bearer(DEMO.token)))
      .json;
  const files = await ask("entity-type=FILE");
  assert.deepEqual(files.folders, []);
  assert.equal(files.total, 8);
  const folders = await ask("entity-type=folder");
  assert.deepEqual(folders.files, []);
  assert.equal(folders.total, 2);
  const tables = await ask("info-type=csv&info-type=tsv");
  assert.deepEqual(tables.files.map((f: Listing) => f.label), ["a.csv", "b.tsv", "café.csv"]);
  assert.equal(tables.folders.length, 2, "folders stay listed with entity-type any");
  assert.equal(tables.total, 5);
  const unknown = await ask("info-type=unknown&entity-type=file");
  assert.deepEqual(unknown.files.map((f: Listing) => f.label), [
    ".hidden",
    "image.png",
    "space name.txt",
  ]);
});

Deno.test("bad parameters get the real service's 400 bodies", async () => {
  await using fixture = await serveStore();
  const cases: [string, Record<string, string>][] = [
    [`path=${PROJECT}`, { limit: "missing-required-key" }],
    ["limit=10", { path: "missing-required-key" }],
    [`path=${PROJECT}&limit=0`, { limit: "(not (positive-integer? 0))" }],
    [`path=${PROJECT}&limit=ten`, { limit: '(not (instance? java.lang.Long "ten"))' }],
    [`path=${PROJECT}&limit=1&offset=-5`, { offset: "(not (non-negative-integer? -5))" }],
    [`path=${PROJECT}&limit=1&sort-dir=up`, { "sort-dir": '(not (#{"ASC" "DESC"} "UP"))' }],
    [`path=${PROJECT}&limit=1&entity-type=link`, {
      "entity-type": '(not (#{"any" "file" "folder"} "link"))',
    }],
    ["path=&limit=1", { path: '(not (non-blank-string? ""))' }],
    ["path=%2Fiplant%00x&limit=1", { path: '(not (nul-free-string? "/iplant\\u0000x"))' }],
  ];
  for (const [query, reason] of cases) {
    const { status, headers, json } = await get(listingUrl(fixture.url, query), bearer(DEMO.token));
    assert.equal(status, 400, query);
    assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
    assert.deepEqual(json, { error_code: "ERR_ILLEGAL_ARGUMENT", reason }, query);
  }
  const info = await get(
    listingUrl(fixture.url, `path=${PROJECT}&limit=1&info-type=csv&info-type=xls`),
    bearer(DEMO.token),
  );
  assert.equal(info.status, 400);
  assert.match(
    info.json.reason["info-type"],
    /^\[nil \(not \(#\{"ace" .* "unknown"\} "xls"\)\)\]$/,
  );
});

Deno.test("missing, unreadable and non-folder paths: 500 with the singular path key", async () => {
  await using fixture = await serveStore();
  const ask = (path: string) =>
    get(listingUrl(fixture.url, `path=${encodeURIComponent(path)}&limit=5`), bearer(DEMO.token));
  const missing = await ask("/iplant/home/demo/nope/");
  assert.equal(missing.status, 500);
  assert.deepEqual(missing.json, {
    error_code: "ERR_DOES_NOT_EXIST",
    path: "/iplant/home/demo/nope",
  });
  const other = await ask("/iplant/home/alice");
  assert.equal(other.status, 500);
  assert.deepEqual(other.json, {
    error_code: "ERR_NOT_READABLE",
    path: "/iplant/home/alice",
    user: "demo",
  });
  const file = await ask(`${PROJECT}/a.csv`);
  assert.equal(file.status, 500);
  assert.deepEqual(file.json, { error_code: "ERR_NOT_A_FOLDER", path: `${PROJECT}/a.csv` });
  const outside = await ask("/tempZone/home");
  assert.deepEqual(outside.json, { error_code: "ERR_DOES_NOT_EXIST", path: "/tempZone/home" });
});

Deno.test("anonymous listing works only for paths starting with the community folder", async () => {
  await using fixture = await serveStore();
  const shared = await get(listingUrl(fixture.url, "path=/iplant/home/shared&limit=10", false));
  assert.equal(shared.status, 200);
  assert.equal(shared.json.label, "Community Data");
  assert.equal(shared.json.permission, "read");
  assert.equal(shared.json.badName, true);
  const home = await get(listingUrl(fixture.url, "path=/iplant/home/demo&limit=10", false));
  assert.equal(home.status, 401);
  assert.equal(home.headers.get("content-type"), "application/json; charset=utf-8");
  assert.deepEqual(home.json, { user: null, error_code: "ERR_NOT_AUTHORIZED", reason: null });
  const prefixOnly = await get(
    listingUrl(fixture.url, "path=/iplant/home/sharedX&limit=10", false),
  );
  assert.equal(prefixOnly.status, 500, "a plain string-prefix test, as in Terrain");
  assert.equal(prefixOnly.json.error_code, "ERR_DOES_NOT_EXIST");
  const secured = await get(listingUrl(fixture.url, "path=/iplant/home/shared&limit=10"));
  assert.equal(secured.status, 401);
  const withToken = await get(
    listingUrl(fixture.url, "path=/iplant/home/demo&limit=10", false),
    bearer(DEMO.token),
  );
  assert.equal(withToken.status, 200, "the plain variant accepts credentials too");
});

Deno.test("Shared With Me lists only what the caller can read, with per-caller labels", async () => {
  await using fixture = await serveStore();
  const demo = await get(listingUrl(fixture.url, "path=/iplant/home&limit=10"), bearer(DEMO.token));
  assert.equal(demo.json.label, "Shared With Me");
  assert.deepEqual(demo.json.folders.map((f: Listing) => [f.label, f.permission, f.badName]), [
    ["demo", "own", true],
    ["shared", "read", true],
  ]);
  assert.equal(demo.json.total, 2);
  const alice = await get(
    listingUrl(fixture.url, "path=/iplant/home&limit=10"),
    bearer(ALICE.token),
  );
  assert.deepEqual(alice.json.folders.map((f: Listing) => f.label), ["alice", "shared"]);
});

Deno.test("an edited file shows its new size and date in the very next listing", async () => {
  await using fixture = await serveStore();
  const file = `${fixture.root}/iplant/home/shared/project/a.csv`;
  const ask = async () => {
    const { json } = await get(
      listingUrl(fixture.url, `path=${PROJECT}&limit=100`),
      bearer(DEMO.token),
    );
    return json.files.find((f: Listing) => f.label === "a.csv");
  };
  const before = await ask();
  await Deno.writeTextFile(file, "x,y\n".repeat(100));
  await Deno.utime(file, Date.UTC(2031, 1, 1) / 1000, Date.UTC(2031, 1, 1) / 1000);
  const after = await ask();
  assert.equal(before["file-size"], 12);
  assert.equal(after["file-size"], 400);
  assert.equal(after["date-modified"], Date.UTC(2031, 1, 1));
  await writeTree(fixture.root, { "iplant/home/shared/project/new.csv": "n\n" });
  const { json } = await get(
    listingUrl(fixture.url, `path=${PROJECT}&limit=100`),
    bearer(DEMO.token),
  );
  assert.equal(json.total, 11);
});

Deno.test("date-created is never later than date-modified, even for backdated files", async () => {
  await using fixture = await serveStore({ "iplant/home/shared/dated/old.csv": "x\n" });
  const file = `${fixture.root}/iplant/home/shared/dated/old.csv`;
  await Deno.utime(file, FIXED_MTIME, FIXED_MTIME);
  const { json } = await get(
    listingUrl(fixture.url, "path=/iplant/home/shared/dated&limit=10", false),
  );
  assert.equal(json.files[0]["date-modified"], FIXED_MTIME.getTime());
  assert.equal(json.files[0]["date-created"], FIXED_MTIME.getTime());
  assert.ok(json["date-created"] <= json["date-modified"], "the folder too");
});

Deno.test("a 100,000-file folder pages to the end completely, each entry once", async () => {
  const count = 100_000;
  await using store = await makeStore({}, fastTempParent());
  const dir = `${store.root}/iplant/home/shared/many`;
  await Deno.mkdir(`${dir}/folder-a`, { recursive: true });
  await Deno.mkdir(`${dir}/folder-b`);
  // Hard links to one empty file per 50,000 names (an inode takes about 65,000 links): a
  // link costs the file system a fraction of a new file, and the listing sees files all the same.
  for (let i = 0; i < count; i++) {
    const seed = `${store.root}/.seed-${Math.floor(i / 50_000)}`;
    if (i % 50_000 === 0) Deno.writeFileSync(seed, new Uint8Array());
    Deno.linkSync(seed, `${dir}/part-${String(i).padStart(6, "0")}.csv`);
  }
  // Dated in the past, the folder is not "racy" (changed moments before it was read), so its
  // listing is kept for the later pages from the first read on.
  await Deno.utime(dir, FIXED_MTIME, FIXED_MTIME);
  await using server = await startServer({ root: store.root, quiet: true });
  const names = new Set<string>();
  const timings: number[] = [];
  for (let offset = 0; offset < count + 2; offset += 1000) {
    const started = performance.now();
    const response = await fetch(
      listingUrl(server.url, `path=/iplant/home/shared/many&limit=1000&offset=${offset}`, false),
    );
    const json = await response.json();
    timings.push(performance.now() - started);
    assert.equal(json.total, count + 2);
    for (const item of [...json.folders, ...json.files]) {
      assert.ok(!names.has(item.label), `repeated ${item.label}`);
      names.add(item.label);
    }
  }
  assert.equal(names.size, count + 2);
  const later = timings.slice(1).sort((a, b) => a - b);
  const median = later[Math.floor(later.length / 2)];
  const p95 = later[Math.floor(later.length * 0.95)];
  console.log(
    `100k folder: first page ${timings[0].toFixed(0)} ms, later pages median ${
      median.toFixed(1)
    } ms, p95 ${p95.toFixed(1)} ms`,
  );
  // Reported, not asserted: a bound on time fails by load alone. That later pages reuse the
  // folder's listing is tests/server/folder_cache_test.ts's ("snapshot is reused until the folder
  // changes").
  const started = performance.now();
  const bySize = await fetch(
    listingUrl(
      server.url,
      "path=/iplant/home/shared/many&limit=1000&sort-col=size&sort-dir=DESC",
      false,
    ),
  );
  assert.equal((await bySize.json()).files.length, 998);
  console.log(
    `100k folder: first page sorted by size ${(performance.now() - started).toFixed(0)} ms`,
  );
});

Deno.test("a large page is streamed, and says the same as the small pages it spans", async () => {
  await using store = await makeStore({}, fastTempParent());
  const dir = `${store.root}/iplant/home/shared/big`;
  await Deno.mkdir(`${dir}/sub`, { recursive: true });
  for (let i = 0; i < 2500; i++) {
    Deno.writeFileSync(`${dir}/f-${String(i).padStart(4, "0")}.csv`, new Uint8Array(i % 7));
  }
  await using server = await startServer({ root: store.root, quiet: true });
  const query = "path=/iplant/home/shared/big&sort-col=size&sort-dir=DESC";
  const whole = await fetch(listingUrl(server.url, `${query}&limit=3000`, false));
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get("content-length"), null, "streamed, not sized up front");
  assert.equal(whole.headers.get("content-type"), "application/json; charset=utf-8");
  const streamed = await whole.json();
  const parts = [];
  for (let offset = 0; offset < 2501; offset += 500) {
    const part = await fetch(listingUrl(server.url, `${query}&limit=500&offset=${offset}`, false));
    assert.ok(Number(part.headers.get("content-length")) > 0);
    parts.push(await part.json());
  }
  const { folders: _f, files: _g, ...head } = streamed;
  const { folders: _h, files: _i, ...partHead } = parts[0];
  assert.deepEqual(head, partHead);
  assert.deepEqual(streamed.folders, parts.flatMap((part) => part.folders));
  assert.deepEqual(streamed.files, parts.flatMap((part) => part.files));
  assert.equal(streamed.files.length, 2500);
  const head2 = await fetch(listingUrl(server.url, `${query}&limit=3000`, false), {
    method: "HEAD",
  });
  assert.equal(head2.status, 200);
  assert.equal((await head2.arrayBuffer()).byteLength, 0);
});
