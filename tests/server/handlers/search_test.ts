import assert from "node:assert/strict";
import {
  bearer,
  DEMO,
  FIXED_MTIME,
  makeStore,
  serveStore,
  spawnServe,
  standardTree,
} from "../_store.ts";
import { serveRoot } from "../../_store.ts";

const PROJECT = "/iplant/home/shared/project";

// deno-lint-ignore no-explicit-any
type Json = any;

async function search(
  url: string,
  body: unknown,
  headers: HeadersInit = bearer(DEMO.token),
  path = "/secured/filesystem/search",
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function paths(url: string, query: unknown, size = 100): Promise<string[]> {
  const { status, json } = await search(url, { query, size });
  assert.equal(status, 200, JSON.stringify(json));
  return (json.hits ?? []).map((hit: Json) => hit._source.path).sort();
}

const clause = (type: string, args: Record<string, unknown>) => ({ type, args });

Deno.test("search: every clause type selects what it describes", async () => {
  const tree = standardTree();
  tree["iplant/home/shared/project/big.bin"] = new Uint8Array(3 * 1024);
  await using fixture = await serveStore(tree);
  const url = fixture.url;
  await Deno.utime(`${fixture.root}/iplant/home/shared/project/b.tsv`, FIXED_MTIME, FIXED_MTIME);
  const under = clause("path", { prefix: PROJECT });
  const within = (...more: unknown[]) => ({ all: [under, ...more] });

  assert.deepEqual(await paths(url, within(clause("label", { label: "fastq" }))), [
    `${PROJECT}/c.fastq`,
  ]);
  assert.deepEqual(await paths(url, within(clause("label", { label: "A.CSV", exact: true }))), []);
  assert.deepEqual(await paths(url, within(clause("label", { label: "a.csv", exact: true }))), [
    `${PROJECT}/a.csv`,
  ]);
  assert.deepEqual(await paths(url, within(clause("label", { label: "*.csv" }))), [
    `${PROJECT}/a.csv`,
    `${PROJECT}/café.csv`,
  ]);
  assert.deepEqual(await paths(url, { all: [clause("path", { prefix: `${PROJECT}/sub` })] }), [
    `${PROJECT}/sub1`,
    `${PROJECT}/sub2`,
    `${PROJECT}/sub2/inner.txt`,
  ]);
  assert.deepEqual(await paths(url, within(clause("size", { from: "2 KB", to: "1 MB" }))), [
    `${PROJECT}/big.bin`,
  ]);
  assert.deepEqual(await paths(url, within(clause("size", { from: "3072", to: "3072" }))), [
    `${PROJECT}/big.bin`,
  ]);
  assert.deepEqual(
    await paths(url, within(clause("modified", { from: "2021-06-01", to: "2021-06-01" }))),
    [`${PROJECT}/b.tsv`],
  );
  assert.deepEqual(
    await paths(url, within(clause("created", { to: String(FIXED_MTIME.getTime()) }))),
    [`${PROJECT}/b.tsv`],
  );
  // Metadata-service AVUs (the folder's) and iRODS AVUs (a.csv's), words matched anywhere.
  assert.deepEqual(await paths(url, { all: [clause("metadata", { value: "lovelace" })] }), [
    PROJECT,
  ]);
  assert.deepEqual(
    await paths(url, { all: [clause("metadata", { attribute: "source", value: "lab" })] }),
    [`${PROJECT}/a.csv`],
  );
  assert.deepEqual(
    await paths(url, {
      all: [clause("metadata", { attribute: "source", metadata_types: ["cyverse"] })],
    }),
    [],
  );
  assert.deepEqual(
    await paths(url, {
      all: [clause("metadata", { value: "math", value_exact: true })],
    }),
    [],
  );
  assert.deepEqual(
    await paths(url, { all: [clause("metadata", { value: "maths", value_exact: true })] }),
    [PROJECT],
  );
  // Hidden iRODS attributes (ipc*) are not searchable, as they are not shown.
  assert.deepEqual(await paths(url, { all: [clause("metadata", { attribute: "ipc_UUID" })] }), []);
  assert.deepEqual(await paths(url, { all: [clause("owner", { owner: "demo" })] }), [
    "/iplant/home/demo",
    "/iplant/home/demo/data",
    "/iplant/home/demo/notes.txt",
  ]);
  assert.deepEqual(
    await paths(url, {
      all: [clause("permissions", { users: ["anonymous"], permission: "read" }), under],
    }),
    await paths(url, { all: [under] }),
  );
  assert.deepEqual(
    await paths(url, {
      all: [
        clause("permissions", { users: ["demo"], permission: "read", permission_recurse: true }),
      ],
    }),
    ["/iplant/home/demo", "/iplant/home/demo/data", "/iplant/home/demo/notes.txt"],
  );
  assert.deepEqual(await paths(url, { all: [clause("tag", { tags: [crypto.randomUUID()] })] }), []);
});

Deno.test("search: all, any and none nest", async () => {
  await using fixture = await serveStore();
  const found = await paths(fixture.url, {
    all: [clause("path", { prefix: PROJECT })],
    any: [clause("label", { label: "*.csv" }), { all: [clause("label", { label: "inner" })] }],
    none: [clause("label", { label: "café" })],
  });
  assert.deepEqual(found, [`${PROJECT}/a.csv`, `${PROJECT}/sub2/inner.txt`]);
});

Deno.test("search: a caller finds only what it may read; the anonymous variant too", async () => {
  await using fixture = await serveStore();
  const everything = { all: [clause("path", { prefix: "/iplant/home" })] };
  const demo = await paths(fixture.url, everything, 1000);
  assert.ok(demo.includes("/iplant/home/demo/notes.txt"));
  assert.ok(!demo.some((path) => path.startsWith("/iplant/home/alice")));
  const anonymous = await search(
    fixture.url,
    { query: everything, size: 1000 },
    {},
    "/filesystem/search",
  );
  assert.equal(anonymous.status, 200);
  const seen = anonymous.json.hits.map((hit: Json) => hit._source.path);
  assert.ok(seen.includes(`${PROJECT}/a.csv`));
  assert.ok(!seen.some((path: string) => path.startsWith("/iplant/home/demo")));
  const secured = await search(fixture.url, { query: everything }, {});
  assert.equal(secured.status, 401);
});

Deno.test("search: the answer has Elasticsearch's shape", async () => {
  await using fixture = await serveStore();
  const { status, json } = await search(fixture.url, {
    query: { all: [clause("label", { label: "a.csv", exact: true })] },
  });
  assert.equal(status, 200);
  assert.deepEqual(json.total, { value: 1, relation: "eq" });
  assert.equal(json.max_score, 1);
  const [hit] = json.hits;
  assert.deepEqual(Object.keys(hit), ["_index", "_type", "_id", "_score", "_source", "fields"]);
  assert.equal(hit._id, hit._source.id);
  assert.deepEqual(hit.fields, { permission: ["read"] });
  const source = hit._source;
  assert.equal(source.doc_type, "file");
  assert.equal(source.label, "a.csv");
  assert.equal(source.creator, "curator#iplant");
  assert.equal(source.fileType, "csv");
  assert.equal(source.fileSize, 12);
  assert.equal(typeof source.dateModified, "number");
  assert.deepEqual(source.metadata.irods, [{ attribute: "source", value: "lab", unit: "" }]);
  assert.deepEqual(source.metadata.cyverse, [
    { attribute: "description", value: "A small table", unit: "" },
  ]);
  assert.deepEqual(source.userPermissions, [
    { user: "curator#iplant", permission: "own" },
    { user: "anonymous#iplant", permission: "read" },
  ]);
  // The id is the one the rest of the API uses.
  const metadata = await fetch(`${fixture.url}/filesystem/${hit._id}/metadata`);
  assert.equal((await metadata.json()).path, `${PROJECT}/a.csv`);

  const sorted = await search(fixture.url, {
    query: { all: [clause("path", { prefix: PROJECT })] },
    sort: [{ field: "fileSize", order: "descending" }],
    size: 3,
  });
  assert.equal(sorted.json.max_score, undefined);
  const sizes = sorted.json.hits.map((hit: Json) => hit.sort[0]);
  assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a));
  assert.equal(sorted.json.hits[0]._score, undefined);
  const none = await search(fixture.url, { query: { all: [clause("label", { label: "nope" })] } });
  assert.deepEqual(none.json, { total: { value: 0, relation: "eq" }, max_score: null });
});

Deno.test("search: pages by from and size return every hit once, in a stable order", async () => {
  await using fixture = await serveStore();
  const query = { all: [clause("path", { prefix: "/iplant/home" })] };
  const all = await search(fixture.url, { query, size: 1000 });
  const total = all.json.total.value;
  assert.ok(total > 10);
  const seen: string[] = [];
  for (let from = 0; from < total; from += 3) {
    const page = await search(fixture.url, { query, from, size: 3, sort: [{ field: "path" }] });
    assert.equal(page.json.total.value, total);
    seen.push(...page.json.hits.map((hit: Json) => hit._source.path));
  }
  assert.equal(seen.length, total);
  assert.equal(new Set(seen).size, total);
  assert.deepEqual(seen, [...seen].sort());
  const beyond = await search(fixture.url, { query, from: 9_995, size: 10 });
  assert.equal(beyond.status, 400);
  assert.match(beyond.json.error, /all shards failed/);
});

Deno.test("search: scroll goes past 10,000 hits, each once, then EOF", async () => {
  const store = await makeStore({});
  const folder = `${store.root}/iplant/home/shared/many`;
  await Deno.mkdir(folder, { recursive: true });
  for (let i = 0; i < 10_050; i++) Deno.writeFileSync(`${folder}/f${i}.txt`, new Uint8Array());
  await using fixture = await serveRoot(store.root, {}, () => store[Symbol.asyncDispose]());
  const query = { all: [clause("path", { prefix: "/iplant/home/shared/many/" })] };
  const first = await search(
    fixture.url,
    { query, size: 5000, scroll: "1m" },
    {},
    "/filesystem/search",
  );
  assert.equal(first.status, 200);
  assert.deepEqual(first.json.total, { value: 10_000, relation: "gte" });
  const seen = new Set<string>(first.json.hits.map((hit: Json) => hit._source.path));
  let scrollId = first.json.scroll_id;
  assert.equal(typeof scrollId, "string");
  for (;;) {
    const next = await search(
      fixture.url,
      { scroll_id: scrollId, scroll: "1m" },
      {},
      "/filesystem/search",
    );
    if (next.status === 400) {
      assert.deepEqual(next.json, { error: "EOF" });
      break;
    }
    assert.equal(next.status, 200);
    for (const hit of next.json.hits) seen.add(hit._source.path);
    scrollId = next.json.scroll_id;
  }
  assert.equal(seen.size, 10_050);
  const gone = await search(
    fixture.url,
    { scroll_id: scrollId, scroll: "1m" },
    {},
    "/filesystem/search",
  );
  assert.equal(gone.status, 400);
  assert.match(gone.json.error, /search_context_missing_exception/);
});

Deno.test("search: bad queries are refused as Terrain and the search service word it", async () => {
  await using fixture = await serveStore();
  const url = fixture.url;
  const unknown = await search(url, { query: { all: [clause("colour", { value: "red" })] } });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.json.error_code, "ERR_ILLEGAL_ARGUMENT");
  assert.match(unknown.json.reason, /query\.all\[0\].*"colour"/);
  const cases: [unknown, RegExp][] = [
    [{ all: [clause("path", {})] }, /^No prefix was passed, cannot create clause\.$/],
    [{ all: [clause("metadata", {})] }, /^Must provide at least one of attribute, value, or unit$/],
    [
      { any: [clause("size", { from: "huge" })] },
      /^Provided string "huge" does not describe a filesize$/,
    ],
    [{ none: [clause("created", { from: "soon" })] }, /does not describe a date/],
    [{ all: [clause("label", { label: 5 })] }, /cannot unmarshal number.*query\.all\[0\]\.label/],
  ];
  for (const [query, message] of cases) {
    const { status, json } = await search(url, { query });
    assert.equal(status, 400, JSON.stringify(query));
    assert.match(json.error, message);
  }
  const extra = await search(url, { query: {}, limit: 5 });
  assert.deepEqual(extra.json, {
    error_code: "ERR_ILLEGAL_ARGUMENT",
    reason: { limit: "disallowed-key" },
  });
  const zero = await search(url, { query: {}, size: 0 });
  assert.equal(zero.json.error_code, "ERR_ILLEGAL_ARGUMENT");
  const badSort = await search(url, { query: {}, sort: [{ field: "colour" }] });
  assert.equal(badSort.json.error_code, "ERR_ILLEGAL_ARGUMENT");
  const notJson = await fetch(`${url}/secured/filesystem/search`, {
    method: "POST",
    headers: { ...bearer(DEMO.token), "content-type": "application/json" },
    body: "{ broken",
  });
  assert.equal(notJson.status, 400);
  assert.equal((await notJson.json()).message, "Malformed application/json request.");
});

Deno.test("search: a server without search answers 403", async () => {
  await using fixture = await serveStore(standardTree(), { search: false });
  const { status, json } = await search(fixture.url, { query: {} });
  assert.equal(status, 403);
  assert.deepEqual(json, {
    error_code: "ERR_FORBIDDEN",
    reason: "Data search is not enabled in this deployment",
  });
});

Deno.test("search: the index follows files added, removed and renamed", async () => {
  await using fixture = await serveStore();
  const url = fixture.url;
  const query = { all: [clause("label", { label: "fresh" })] };
  assert.deepEqual(await paths(url, query), []);
  const disk = `${fixture.root}/iplant/home/shared/project`;
  await Deno.writeTextFile(`${disk}/fresh.csv`, "a\n");
  assert.deepEqual(await paths(url, query), [`${PROJECT}/fresh.csv`]);
  await Deno.rename(`${disk}/fresh.csv`, `${disk}/sub1/fresh.txt`);
  assert.deepEqual(await paths(url, query), [`${PROJECT}/sub1/fresh.txt`]);
  await Deno.writeTextFile(
    `${disk}/sub1/.fresh.txt.avus.json.tmp`,
    JSON.stringify([{ attr: "colour", value: "green" }]),
  );
  await Deno.rename(`${disk}/sub1/.fresh.txt.avus.json.tmp`, `${disk}/sub1/.fresh.txt.avus.json`);
  assert.deepEqual(await paths(url, { all: [clause("metadata", { value: "green" })] }), [
    `${PROJECT}/sub1/fresh.txt`,
  ]);
  await Deno.remove(`${disk}/sub1/fresh.txt`);
  assert.deepEqual(await paths(url, query), []);
});

Deno.test("search: many stars, many words and a size padded with spaces are answered, not hung on", async () => {
  // The server runs in its own process: a request that held its event loop would hold this
  // test's too. The watchdog only catches a hang; the old regexes took hours on these.
  const tree = standardTree();
  tree[`iplant/home/shared/project/${"a".repeat(100)}.csv`] = "x\n1\n";
  // Enough entries that a cost per word and entry shows: the old matcher took minutes here.
  for (let i = 0; i < 5000; i++) tree[`iplant/home/shared/project/many/a${i}.csv`] = "";
  await using store = await makeStore(tree);
  const { child, url, stdout } = await spawnServe(["--root", store.root, "--port", "0", "--quiet"]);
  try {
    const ask = (query: unknown) =>
      fetch(`${url}/secured/filesystem/search`, {
        method: "POST",
        headers: { ...bearer(DEMO.token), "content-type": "application/json" },
        body: JSON.stringify({ query, size: 10 }),
        signal: AbortSignal.timeout(120_000),
      });
    const stars = await ask({ all: [clause("label", { label: `*${"a*".repeat(20)}b` })] });
    assert.equal(stars.status, 200);
    assert.deepEqual((await stars.json()).total, { value: 0, relation: "eq" });
    const found = await ask({ all: [clause("label", { label: `*${"a*".repeat(20)}.csv` })] });
    assert.deepEqual((await found.json()).hits.map((hit: Json) => hit._source.label), [
      `${"a".repeat(100)}.csv`,
    ]);
    // A word repeated, and runs of stars, cost one word of one star.
    const repeated = await ask({ all: [clause("label", { label: "a ".repeat(500_000) })] });
    const once = await ask({ all: [clause("label", { label: "a" })] });
    const total = (await once.json()).total.value;
    assert.ok(total > 5000);
    assert.equal((await repeated.json()).total.value, total);
    const starry = await ask({ all: [clause("label", { label: "*".repeat(1_000_000) })] });
    assert.equal(starry.status, 200);
    await starry.body?.cancel();
    // Past Elasticsearch's 1,024 clauses a query is refused, as the service refuses it.
    const words = Array.from({ length: 1025 }, (_, i) => `w${i}`).join(" ");
    const many = await ask({ all: [clause("label", { label: words })] });
    assert.equal(many.status, 400);
    assert.match((await many.json()).error, /too_many_clauses: maxClauseCount is set to 1024/);
    const padded = await ask({ all: [clause("size", { from: `1${" ".repeat(100_000)}x` })] });
    assert.equal(padded.status, 400);
    assert.match((await padded.json()).error, /does not describe a filesize/);
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await stdout.cancel();
    await child.stderr.cancel();
  }
});
