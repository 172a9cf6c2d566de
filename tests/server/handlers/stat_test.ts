import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { DiskStore } from "../../../lib/server/disk_store.ts";
import { SETTLED_MS } from "../../../lib/server/file_hashes.ts";
import { Prng } from "../../../lib/server/prng.ts";
import { createRouter } from "../../../lib/server/router.ts";
import { Shaper } from "../../../lib/server/shaping.ts";
import { UserDirectory } from "../../../lib/server/users.ts";
import {
  ALICE,
  assertShape,
  bearer,
  DEMO,
  FIXED_MTIME,
  makeStore,
  serveStore,
  standardTree,
} from "../_store.ts";

const PROJECT = "/iplant/home/shared/project";
const A_CSV = `${PROJECT}/a.csv`;

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

/** POSTs `body` (JSON unless a string) to `url`; status and parsed answer. */
async function post(
  url: string,
  body: unknown,
  headers: HeadersInit = {},
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; json: any; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

const FILE_SHAPE = {
  id: "string",
  path: "string",
  type: "string",
  label: "string",
  "date-created": "integer",
  "date-modified": "integer",
  permission: "string",
  "file-size": "integer",
  "content-type": "string",
  infoType: "string",
  md5: "string",
};

Deno.test("stat by paths and by ids, on both routes: files with md5, folders with counts", async () => {
  await using fixture = await serveStore();
  const anonymous = await post(`${fixture.url}/filesystem/stat`, { paths: [A_CSV, PROJECT] });
  assert.equal(anonymous.status, 200, anonymous.text);
  assert.deepEqual(Object.keys(anonymous.json), ["paths", "ids"]);
  assert.deepEqual(anonymous.json.ids, {});
  const file = anonymous.json.paths[A_CSV];
  assertShape(file, FILE_SHAPE, "file");
  assert.equal(file.type, "file");
  assert.equal(file.label, "a.csv");
  assert.equal(file["file-size"], 12);
  assert.equal(file["content-type"], "text/csv");
  assert.equal(file.infoType, "csv");
  assert.equal(file.md5, md5("x,y\n1,2\n3,4\n"));
  const folder = anonymous.json.paths[PROJECT];
  assertShape(folder, {
    id: "string",
    path: "string",
    type: "string",
    label: "string",
    "date-created": "integer",
    "date-modified": "integer",
    permission: "string",
    "file-count": "integer",
    "dir-count": "integer",
  }, "folder");
  assert.equal(folder.type, "dir");
  // Eight files (sidecars are never items) and two sub-folders.
  assert.deepEqual([folder["file-count"], folder["dir-count"]], [8, 2]);

  // By id, signed in: the owner's items carry a share count; keys are the ids as asked.
  const notes = await post(
    `${fixture.url}/secured/filesystem/stat`,
    { paths: ["/iplant/home/demo/notes.txt/"] },
    bearer(DEMO.token),
  );
  const notesStat = notes.json.paths["/iplant/home/demo/notes.txt/"];
  assert.equal(notesStat.path, "/iplant/home/demo/notes.txt", "keyed as asked, path normalised");
  assert.equal(notesStat["share-count"], 0);
  assert.equal(notesStat.permission, "own");
  const upper = String(file.id).toUpperCase();
  const byId = await post(
    `${fixture.url}/secured/filesystem/stat`,
    { ids: [upper, notesStat.id] },
    bearer(DEMO.token),
  );
  assert.equal(byId.status, 200, byId.text);
  assert.deepEqual(byId.json.paths, {});
  assert.deepEqual(Object.keys(byId.json.ids), [upper, notesStat.id]);
  assert.deepEqual(byId.json.ids[upper], file);
  assert.equal(byId.json.ids[notesStat.id].md5, md5("demo's notes\n"));

  // Nothing asked, nothing answered; and the route is POST only.
  const empty = await post(`${fixture.url}/secured/filesystem/stat`, {}, bearer(DEMO.token));
  assert.deepEqual(empty.json, { paths: {}, ids: {} });
  const viaGet = await fetch(`${fixture.url}/secured/filesystem/stat`, {
    headers: bearer(DEMO.token),
  });
  await viaGet.body?.cancel();
  assert.equal(viaGet.status, 404);
});

Deno.test("stat's md5 follows the bytes: a same-size rewrite that keeps the date changes it", async () => {
  await using fixture = await serveStore();
  const ask = async () =>
    (await post(`${fixture.url}/filesystem/stat`, { paths: [A_CSV] })).json.paths[A_CSV];
  const before = await ask();
  const disk = `${fixture.root}${A_CSV}`;
  await Deno.utime(disk, FIXED_MTIME, FIXED_MTIME);
  const dated = await ask();
  await Deno.writeTextFile(disk, "x,y\n1,2\n3,5\n");
  await Deno.utime(disk, FIXED_MTIME, FIXED_MTIME);
  const after = await ask();
  assert.equal(dated.md5, before.md5);
  assert.deepEqual(
    [after["file-size"], after["date-modified"]],
    [dated["file-size"], dated["date-modified"]],
  );
  assert.equal(after.md5, md5("x,y\n1,2\n3,5\n"));
  assert.notEqual(after.md5, before.md5);
});

Deno.test("stat errors: body checks, sign-in, the 1,000-item limit, missing and unreadable items", async (t) => {
  await using fixture = await serveStore();
  const secured = `${fixture.url}/secured/filesystem/stat`;
  const demo = bearer(DEMO.token);

  await t.step("400: the body as Terrain's schema checks it", async () => {
    const noType = await fetch(secured, {
      method: "POST",
      headers: demo,
      body: JSON.stringify({ paths: [A_CSV] }),
    });
    assert.equal(noType.status, 400);
    assert.deepEqual(await noType.json(), {
      error_code: "ERR_ILLEGAL_ARGUMENT",
      reason: "(not (map? nil))",
    });
    assert.deepEqual((await post(secured, "", demo)).json.reason, "(not (map? nil))");
    assert.deepEqual((await post(secured, "{paths:", demo)).json, {
      type: "compojure.api.exception/request-parsing",
      message: "Malformed application/json request.",
    });
    assert.deepEqual((await post(secured, [A_CSV], demo)).json.reason, `(not (map? ["${A_CSV}"]))`);
    const bad = await post(secured, { paths: [A_CSV, "  "], ids: ["x"], extra: 1 }, demo);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json, {
      error_code: "ERR_ILLEGAL_ARGUMENT",
      reason: {
        paths: '(not (non-blank-string? "  "))',
        ids: '(not (instance? java.util.UUID "x"))',
        extra: "disallowed-key",
      },
    });
    assert.deepEqual((await post(secured, { paths: A_CSV }, demo)).json.reason, {
      paths: `(not (sequential? "${A_CSV}"))`,
    });
    const long = await post(secured, { paths: [7, "x".repeat(10_000)] }, demo);
    assert.equal(long.json.reason.paths, "(not (non-blank-string? 7))");
    // A NUL in a path is a 400, as a query parameter's is on every other endpoint.
    const withNul = `${PROJECT}/a\u0000b.csv`;
    const nul = await post(secured, { paths: [A_CSV, withNul] }, demo);
    assert.equal(nul.status, 400);
    assert.deepEqual(nul.json, {
      error_code: "ERR_ILLEGAL_ARGUMENT",
      reason: { paths: `(not (nul-free-string? ${JSON.stringify(withNul)}))` },
    });
  });

  await t.step("401: no token on /secured; anonymous by id or outside the community", async () => {
    const noToken = await post(secured, { paths: [A_CSV] });
    assert.equal(noToken.status, 401);
    assert.equal(noToken.json.error_code, "ERR_NOT_AUTHORIZED");
    const plain = `${fixture.url}/filesystem/stat`;
    const id = (await post(plain, { paths: [A_CSV] })).json.paths[A_CSV].id;
    for (const body of [{ ids: [id] }, { paths: [A_CSV, "/iplant/home/demo/notes.txt"] }]) {
      const refused = await post(plain, body);
      assert.equal(refused.status, 401, JSON.stringify(body));
      assert.deepEqual(refused.json, {
        user: null,
        error_code: "ERR_NOT_AUTHORIZED",
        reason: null,
      });
    }
  });

  await t.step("500 ERR_TOO_MANY_RESULTS above 1,000 paths and ids together", async () => {
    const thousand = await post(secured, { paths: Array(1000).fill(A_CSV) }, demo);
    assert.equal(thousand.status, 200);
    const id = thousand.json.paths[A_CSV].id;
    const over = await post(secured, { paths: Array(1000).fill(A_CSV), ids: [id] }, demo);
    assert.equal(over.status, 500);
    assert.deepEqual(over.json, { error_code: "ERR_TOO_MANY_RESULTS", count: 1001, limit: 1000 });
  });

  await t.step(
    "500 ERR_DOES_NOT_EXIST naming every missing id, then every missing path",
    async () => {
      const unknown = [
        "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804",
        "1b8e4f52-7a31-11e5-8f2a-3c4a92e4a804",
      ];
      const ids = await post(
        secured,
        { paths: [`${PROJECT}/none.csv`], ids: [unknown[0], unknown[1]] },
        demo,
      );
      assert.equal(ids.status, 500);
      assert.deepEqual(ids.json, { error_code: "ERR_DOES_NOT_EXIST", ids: unknown });
      const paths = await post(
        secured,
        { paths: [A_CSV, `${PROJECT}/none.csv`, `${PROJECT}//gone/`, "/elsewhere"] },
        demo,
      );
      assert.equal(paths.status, 500);
      assert.deepEqual(paths.json, {
        error_code: "ERR_DOES_NOT_EXIST",
        paths: [`${PROJECT}/none.csv`, `${PROJECT}//gone/`, "/elsewhere"],
      });
    },
  );

  await t.step(
    "500 ERR_NOT_READABLE naming the paths (or, asked by id, only the ids)",
    async () => {
      const paths = await post(
        secured,
        { paths: ["/iplant/home/alice/private.csv", "/iplant/home/alice", A_CSV] },
        demo,
      );
      assert.equal(paths.status, 500);
      assert.deepEqual(paths.json, {
        error_code: "ERR_NOT_READABLE",
        paths: ["/iplant/home/alice/private.csv", "/iplant/home/alice"],
        user: "demo",
      });
      const alice = await post(
        secured,
        { paths: ["/iplant/home/alice/private.csv"] },
        bearer(ALICE.token),
      );
      const id = alice.json.paths["/iplant/home/alice/private.csv"].id;
      const ids = await post(secured, { ids: [id] }, demo);
      assert.equal(ids.status, 500);
      assert.deepEqual(ids.json, { error_code: "ERR_NOT_READABLE", ids: [id], user: "demo" });
      assert.ok(!ids.text.includes("private.csv"), "an id never reveals the path");
    },
  );
});

Deno.test('the ipc-checksum AVU marks a file not checksummed yet (md5 ""), or sets its checksum', async () => {
  const tree = standardTree();
  tree["iplant/home/shared/project/.b.tsv.avus.json"] = JSON.stringify({
    "irods-avus": [{ attr: "ipc-checksum", value: "", unit: "" }],
  });
  tree["iplant/home/shared/project/.c.fastq.avus.json"] = JSON.stringify({
    "irods-avus": [{
      attr: "ipc-checksum",
      value: "sha2:n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=",
    }],
  });
  await using fixture = await serveStore(tree);
  const paths = [`${PROJECT}/b.tsv`, `${PROJECT}/c.fastq`, A_CSV];
  const { json } = await post(`${fixture.url}/filesystem/stat`, { paths });
  assert.deepEqual(paths.map((path) => json.paths[path].md5), [
    "",
    "sha2:n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=",
    md5("x,y\n1,2\n3,4\n"),
  ]);
  // Like every ipc* attribute, the mark is the server's own: no client sees it as metadata.
  const metadata = await fetch(`${fixture.url}/filesystem/${json.paths[paths[0]].id}/metadata`);
  assert.deepEqual((await metadata.json())["irods-avus"], []);
});

Deno.test("checksums are computed lazily, once per settled file version, never at start", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 50; i++) files[`iplant/home/shared/many/f${i}.csv`] = `n\n${i}\n`;
  await using temp = await makeStore({ ...files, "iplant/home/shared/many/fresh.csv": "n\n" });
  let ahead = 0;
  const store = await DiskStore.open(temp.root, "iplant", { clock: () => Date.now() + ahead });
  const shaper = new Shaper({ latencyMs: 0, bandwidth: 0, failRate: 0, dropRate: 0, seed: 1 });
  try {
    const handle = createRouter({
      store,
      users: await UserDirectory.open(store.root, {}),
      shaper,
      prng: new Prng(1, 2),
      origin: () => "http://127.0.0.1",
      log: () => {},
    });
    const stat = async (paths: string[]) => {
      const response = await handle(
        new Request("http://127.0.0.1/terrain/filesystem/stat", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ paths }),
        }),
      );
      assert.equal(response.status, 200);
      return (await response.json()).paths;
    };
    const listing = await handle(
      new Request(
        "http://127.0.0.1/terrain/filesystem/paged-directory?path=/iplant/home/shared/many&limit=100",
      ),
    );
    assert.equal((await listing.json()).total, 51);
    assert.equal(store.filesHashed, 0, "serving and listing hash nothing");

    // Checksums are remembered only for versions that have stood still long enough: the
    // server's clock steps that far past these files' change time instead of waiting for it.
    ahead = SETTLED_MS;
    const asked = ["/iplant/home/shared/many/f3.csv", "/iplant/home/shared/many/f7.csv"];
    const first = await stat(asked);
    assert.equal(store.filesHashed, 2, "only the files asked for are hashed");
    assert.deepEqual(await stat(asked), first);
    assert.equal(store.filesHashed, 2, "a settled version's checksum is remembered");

    // A file changed moments ago is hashed on every ask, so its checksum never goes stale.
    ahead = 0;
    const fresh = "/iplant/home/shared/many/fresh.csv";
    await Deno.writeTextFile(`${temp.root}${fresh}`, "n\n2\n");
    assert.equal((await stat([fresh]))[fresh].md5, md5("n\n2\n"));
    await Deno.writeTextFile(`${temp.root}${fresh}`, "n\n3\n");
    assert.equal((await stat([fresh]))[fresh].md5, md5("n\n3\n"));
    assert.equal(store.filesHashed, 4);
  } finally {
    await shaper.close();
  }
});

Deno.test("a stat body sent in pieces is read whole, and the connection stays open for the next request", async () => {
  await using fixture = await serveStore();
  const { hostname, port } = new URL(fixture.url);
  using conn = await Deno.connect({ hostname, port: Number(port) });
  const body = new TextEncoder().encode(JSON.stringify({ paths: [A_CSV] }));
  const head = (length: number) =>
    new TextEncoder().encode(
      `POST /terrain/filesystem/stat HTTP/1.1\r\nhost: ${hostname}\r\n` +
        `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n`,
    );
  // The head with the first bytes of the body, the rest later. The pause gives the server a
  // chance to read the first piece alone; it cannot fail the test (the answer is the same
  // however the pieces arrive), only, on a machine too busy to read in time, check less.
  await conn.write(new Uint8Array([...head(body.length), ...body.subarray(0, 5)]));
  await new Promise((resolve) => setTimeout(resolve, 20));
  await conn.write(body.subarray(5));
  const answer = await readAnswer(conn);
  assert.match(answer, /^HTTP\/1\.1 200 /);
  assert.ok(answer.includes(md5("x,y\n1,2\n3,4\n")), answer);
  // Kept alive: a second request on the same connection is answered too.
  await conn.write(new Uint8Array([...head(body.length), ...body]));
  assert.match(await readAnswer(conn), /^HTTP\/1\.1 200 /);
});

Deno.test("a body over 4 MiB, or chunked, is not read: the stat sees none, and the connection is closed", async () => {
  await using fixture = await serveStore();
  const { hostname, port } = new URL(fixture.url);
  for (
    const framing of [`content-length: ${4 * 1024 * 1024 + 1}`, "transfer-encoding: chunked"]
  ) {
    using conn = await Deno.connect({ hostname, port: Number(port) });
    await conn.write(
      new TextEncoder().encode(
        `POST /terrain/filesystem/stat HTTP/1.1\r\nhost: ${hostname}\r\n` +
          `content-type: application/json\r\n${framing}\r\n\r\n{"paths": [`,
      ),
    );
    const answer = await readAnswer(conn);
    assert.match(answer, /^HTTP\/1\.1 400 /, framing);
    assert.match(answer, /\r\nconnection: close\r\n/i, framing);
    assert.ok(answer.endsWith('"reason":"(not (map? nil))"}'), answer);
  }
});

/** Reads one answer with a Content-Length from `conn`, with a generous guard against hangs. */
async function readAnswer(conn: Deno.Conn): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  const buffer = new Uint8Array(64 * 1024);
  const guard = setTimeout(() => conn.close(), 30_000);
  try {
    while (true) {
      const end = text.indexOf("\r\n\r\n");
      if (end >= 0) {
        const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
        if (text.length >= end + 4 + length) return text;
      }
      const count = await conn.read(buffer);
      if (count === null) return text;
      text += decoder.decode(buffer.subarray(0, count), { stream: true });
    }
  } finally {
    clearTimeout(guard);
  }
}
