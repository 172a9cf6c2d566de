import assert from "node:assert/strict";
import { contentDisposition, parseRange } from "../../../lib/server/handlers/downloads.ts";
import { ALICE, bearer, DEMO, fastTempParent, get, makeStore, serveStore } from "../_store.ts";
import { startServer } from "../../../server.ts";

const PROJECT = "/iplant/home/shared/project";

async function bytesOf(url: string, headers: HeadersInit = {}) {
  const response = await fetch(url, { headers });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

Deno.test("contentDisposition uses the newest data-info form", () => {
  assert.equal(
    contentDisposition("inline", 'q"uote\\back\nline.txt'),
    `inline; filename="q_uote_back_line.txt"; filename*=UTF-8''q%22uote%5Cback%0Aline.txt`,
  );
  assert.equal(
    contentDisposition("attachment", "it's (1)*.csv"),
    `attachment; filename="it's (1)*.csv"; filename*=UTF-8''it%27s%20%281%29%2A.csv`,
  );
});

Deno.test("parseRange understands single ranges and ignores the rest", () => {
  assert.deepEqual(parseRange("bytes=2-", 10), { start: 2, end: 9 });
  assert.deepEqual(parseRange("bytes=2-100", 10), { start: 2, end: 9 });
  assert.deepEqual(parseRange("bytes=-3", 10), { start: 7, end: 9 });
  assert.deepEqual(parseRange("bytes=-30", 10), { start: 0, end: 9 });
  assert.equal(parseRange("bytes=10-", 10), "unsatisfiable");
  assert.equal(parseRange("bytes=-0", 10), "unsatisfiable");
  assert.equal(parseRange("bytes=5-2", 10), undefined);
  assert.equal(parseRange("bytes=0-1,3-4", 10), undefined);
  assert.equal(parseRange("items=0-1", 10), undefined);
  assert.equal(parseRange(null, 10), undefined);
});

Deno.test("parseRange: the unit in any case, whitespace around = and -", () => {
  for (const header of ["Bytes=2-4", "BYTES=2-4", "bytes= 2-4", "bytes =2-4", "bytes=2 - 4"]) {
    assert.deepEqual(parseRange(header, 10), { start: 2, end: 4 }, header);
  }
  assert.deepEqual(parseRange("Bytes= -3", 10), { start: 7, end: 9 });
  assert.equal(parseRange("bytes=2-4x", 10), undefined);
  assert.equal(parseRange("bytes2-4", 10), undefined);
});

Deno.test("fileio/download streams the exact bytes as an octet-stream attachment", async () => {
  await using fixture = await serveStore();
  const onDisk = await Deno.readFile(`${fixture.root}/iplant/home/shared/project/café.csv`);
  for (const variant of ["secured/fileio/download", "fileio/download"]) {
    const { response, bytes } = await bytesOf(
      `${fixture.url}/${variant}?path=${encodeURIComponent(`${PROJECT}/café.csv`)}`,
      variant.startsWith("secured") ? bearer(DEMO.token) : {},
    );
    assert.equal(response.status, 200);
    assert.deepEqual(bytes, onDisk);
    assert.equal(response.headers.get("content-type"), "application/octet-stream");
    assert.equal(response.headers.get("content-length"), String(onDisk.length));
    assert.equal(
      response.headers.get("content-disposition"),
      `attachment; filename="caf_.csv"; filename*=UTF-8''caf%C3%A9.csv`,
    );
    assert.equal(response.headers.get("accept-ranges"), null);
  }
});

Deno.test("display-download detects the type; only attachment=1 means attachment", async () => {
  await using fixture = await serveStore();
  const ask = (name: string, attachment?: string) =>
    bytesOf(
      `${fixture.url}/filesystem/display-download?path=${encodeURIComponent(`${PROJECT}/${name}`)}${
        attachment === undefined ? "" : `&attachment=${attachment}`
      }`,
    );
  const csv = await ask("a.csv");
  assert.equal(csv.response.headers.get("content-type"), "text/csv");
  assert.match(csv.response.headers.get("content-disposition")!, /^attachment; filename="a.csv"/);
  assert.equal(new TextDecoder().decode(csv.bytes), "x,y\n1,2\n3,4\n");
  for (const value of ["0", "true", "false", "yes", ""]) {
    const inline = await ask("a.csv", value);
    assert.match(inline.response.headers.get("content-disposition")!, /^inline; /, value);
  }
  assert.match(
    (await ask("a.csv", "1")).response.headers.get("content-disposition")!,
    /^attachment;/,
  );
  assert.equal((await ask("README")).response.headers.get("content-type"), "text/plain");
  assert.equal((await ask("image.png")).response.headers.get("content-type"), "image/png");
  assert.equal(
    (await ask("b.tsv")).response.headers.get("content-type"),
    "text/tab-separated-values",
  );
  const spaced = await ask("space name.txt");
  assert.match(
    spaced.response.headers.get("content-disposition")!,
    /filename\*=UTF-8''space%20name\.txt$/,
  );
});

Deno.test("downloads ignore Range and answer HEAD without a body", async () => {
  await using fixture = await serveStore();
  const url = `${fixture.url}/fileio/download?path=${PROJECT}/a.csv`;
  const ranged = await bytesOf(url, { range: "bytes=0-1" });
  assert.equal(ranged.response.status, 200);
  assert.equal(ranged.bytes.length, 12);
  const head = await fetch(url, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-length"), "12");
  assert.equal((await head.arrayBuffer()).byteLength, 0);
});

Deno.test("download errors have Terrain's bodies", async () => {
  await using fixture = await serveStore();
  const display = await get(`${fixture.url}/filesystem/display-download`);
  assert.equal(display.status, 400);
  assert.deepEqual(display.json, {
    fields: ["path"],
    error_code: "ERR_BAD_OR_MISSING_FIELD",
    reason: null,
  });
  assert.equal((await get(`${fixture.url}/filesystem/display-download?path=%20`)).status, 400);
  const fileio = await get(`${fixture.url}/fileio/download`);
  assert.equal(fileio.status, 400);
  assert.deepEqual(fileio.json, {
    error_code: "ERR_ILLEGAL_ARGUMENT",
    reason: { path: "missing-required-key" },
  });
  const blank = await get(`${fixture.url}/fileio/download?path=`);
  assert.deepEqual(blank.json.reason, { path: '(not (non-blank-string? ""))' });
  const missing = await get(`${fixture.url}/fileio/download?path=/iplant/home/shared/nope.txt`);
  assert.equal(missing.status, 500);
  assert.deepEqual(missing.json, {
    error_code: "ERR_REQUEST_FAILED",
    message:
      "GET http://data-info/data/path/iplant/home/shared/nope.txt had a service error: internal error",
  });
  const folder = await get(`${fixture.url}/filesystem/display-download?path=${PROJECT}`);
  assert.equal(folder.status, 500);
  assert.deepEqual(folder.json, {
    error_code: "ERR_REQUEST_FAILED",
    message:
      `interal error related to usage of GET http://data-info/data/path${PROJECT}: bad request`,
  });
  const private_ = await get(
    `${fixture.url}/secured/fileio/download?path=/iplant/home/alice/private.csv`,
    bearer(DEMO.token),
  );
  assert.equal(private_.status, 500);
  assert.equal(private_.json.error_code, "ERR_REQUEST_FAILED");
  const anonymous = await get(`${fixture.url}/fileio/download?path=/iplant/home/alice/private.csv`);
  assert.equal(anonymous.json.error_code, "ERR_REQUEST_FAILED");
  const owner = await get(
    `${fixture.url}/secured/fileio/download?path=/iplant/home/alice/private.csv`,
    bearer(ALICE.token),
  );
  assert.equal(owner.text, "secret\n1\n");
});

Deno.test("no path-escape vector reaches outside the store or a sidecar", async () => {
  await using fixture = await serveStore();
  await using outside = await makeStore({ "secret.txt": "TOP-SECRET-OUTSIDE" });
  const root = fixture.root;
  await Deno.symlink(`${outside.root}/secret.txt`, `${root}/iplant/home/shared/link-out`);
  await Deno.symlink(outside.root, `${root}/iplant/home/shared/dir-out`);
  const relativeOut = `${"../".repeat(12)}${outside.root.slice(1)}/secret.txt`;
  const vectors = [
    `/iplant/home/shared/${relativeOut}`,
    `/iplant/home/shared/..%2F..%2F..%2F${outside.root.slice(1)}%2Fsecret.txt`,
    `%2Fiplant%2Fhome%2Fshared%2F%2E%2E%2F%2E%2E%2F%2E%2E%2F.terrain%2Fusers.json`,
    `/iplant/home/shared/%252e%252e/%252e%252e/%252e%252e/.terrain/users.json`,
    `/iplant/home/shared/..\\..\\..\\.terrain\\users.json`,
    `/iplant/home/shared/..%5C..%5C..%5C.terrain%5Cusers.json`,
    `${outside.root}/secret.txt`,
    `/iplant/home/shared/link-out`,
    `/iplant/home/shared/dir-out/secret.txt`,
    `/iplant/../.terrain/users.json`,
    `/iplant/home/shared/project/.a.csv.avus.json`,
    `/iplant/home/shared/project/.a.csv.comments.json`,
    `/iplant/home/shared/project/.avus.json`,
    `/iplant/home/alice/private.csv`,
  ];
  const endpoints = [
    "fileio/download",
    "filesystem/display-download",
    "filesystem/file/manifest",
    "filesystem/paged-directory",
  ];
  for (const vector of vectors) {
    for (const endpoint of endpoints) {
      const { status, text } = await get(`${fixture.url}/${endpoint}?limit=10&path=${vector}`);
      assert.ok(status >= 400, `${endpoint} ${vector} answered ${status}`);
      assert.ok(!text.includes("TOP-SECRET"), `${endpoint} ${vector} leaked`);
      assert.ok(
        !text.includes("test-secret") && !text.includes("demo-pw"),
        `${endpoint} ${vector}`,
      );
      assert.ok(!text.includes(root), `${endpoint} ${vector} revealed the store's location`);
    }
  }
  const nul = await get(
    `${fixture.url}/fileio/download?path=/iplant/home/shared/project/a.csv%00.txt`,
  );
  assert.equal(nul.status, 400);
  assert.equal(nul.json.error_code, "ERR_ILLEGAL_ARGUMENT");
  const nulDisplay = await get(`${fixture.url}/filesystem/display-download?path=/iplant/a%00b`);
  assert.equal(nulDisplay.json.error_code, "ERR_BAD_OR_MISSING_FIELD");
  for (
    const davPath of [
      "/dav-anon/iplant/home/shared/link-out",
      "/dav-anon/iplant/home/shared/project/.a.csv.avus.json",
      "/dav-anon/iplant/home/shared/..%2F..%2F..%2F.terrain%2Fusers.json",
      "/dav-anon/iplant/home/shared/%2e%2e/%2e%2e/%2e%2e/.terrain/users.json",
      "/dav-anon/iplant/home/shared/..%5c..%5c..%5c.terrain%5cusers.json",
      "/dav-anon/iplant/home/alice/private.csv",
    ]
  ) {
    const { status, text } = await get(`${fixture.server.url.replace("/terrain", "")}${davPath}`);
    assert.ok(status >= 400, `${davPath} answered ${status}`);
    assert.ok(!text.includes("TOP-SECRET") && !text.includes("secret\n1"), davPath);
  }
});

Deno.test("dav-anon serves public files plainly, with single byte ranges", async () => {
  await using fixture = await serveStore();
  const origin = fixture.url.replace(/\/terrain$/, "");
  const url = `${origin}/dav-anon/iplant/home/shared/project/caf%C3%A9.csv`;
  const full = await bytesOf(url);
  assert.equal(full.response.status, 200);
  assert.equal(new TextDecoder().decode(full.bytes), "k\n1\n");
  assert.equal(full.response.headers.get("content-type"), "text/csv");
  assert.equal(full.response.headers.get("accept-ranges"), "bytes");
  assert.equal(full.response.headers.get("content-disposition"), null);
  assert.ok(full.response.headers.get("last-modified"));
  const part = await bytesOf(`${origin}/dav-anon/iplant/home/shared/project/a.csv`, {
    range: "bytes=4-6",
  });
  assert.equal(part.response.status, 206);
  assert.equal(part.response.headers.get("content-range"), "bytes 4-6/12");
  assert.equal(new TextDecoder().decode(part.bytes), "1,2");
  const tail = await bytesOf(`${origin}/dav-anon/iplant/home/shared/project/a.csv`, {
    range: "bytes=-4",
  });
  assert.equal(new TextDecoder().decode(tail.bytes), "3,4\n");
  const lenient = await bytesOf(`${origin}/dav-anon/iplant/home/shared/project/a.csv`, {
    range: "Bytes= 4-6",
  });
  assert.equal(lenient.response.status, 206);
  assert.equal(new TextDecoder().decode(lenient.bytes), "1,2");
  const beyond = await bytesOf(`${origin}/dav-anon/iplant/home/shared/project/a.csv`, {
    range: "bytes=99-",
  });
  assert.equal(beyond.response.status, 416);
  assert.equal(beyond.response.headers.get("content-range"), "bytes */12");
  const spaced = await bytesOf(`${origin}/dav-anon/iplant/home/shared/project/space%20name.txt`);
  assert.equal(spaced.response.status, 200);
  for (
    const path of [
      "/iplant/home/shared/project",
      "/iplant/home/shared/nope",
      "/iplant/home/demo/notes.txt",
      "/iplant/home/shared/project/a.csv%2Fx",
    ]
  ) {
    const { status } = await get(`${origin}/dav-anon${path}`);
    assert.equal(status, 404, path);
  }
  const post = await fetch(url, { method: "POST" });
  await post.body?.cancel();
  assert.equal(post.status, 405);
});

Deno.test("a large download streams the right length (memory reported; bench/server.ts bounds it)", async () => {
  const size = 256 * 1024 * 1024;
  await using store = await makeStore({}, fastTempParent());
  const path = `${store.root}/iplant/home/shared/big.bin`;
  await Deno.mkdir(`${store.root}/iplant/home/shared`, { recursive: true });
  const file = await Deno.open(path, { create: true, write: true });
  await file.truncate(size);
  file.close();
  await using server = await startServer({ root: store.root, quiet: true });
  const url = `${server.url}/fileio/download?path=/iplant/home/shared/big.bin`;
  // A HEAD first: the server's one-time cost of tagging files (loading the hash's WebAssembly)
  // is not the download's memory.
  await (await fetch(url, { method: "HEAD" })).body?.cancel();
  const before = Deno.memoryUsage().rss;
  let peak = before;
  const started = performance.now();
  const response = await fetch(url);
  assert.equal(response.headers.get("content-length"), String(size));
  let received = 0;
  for await (const chunk of response.body!) {
    received += chunk.byteLength;
    if (received % (16 * 1024 * 1024) < chunk.byteLength) {
      peak = Math.max(peak, Deno.memoryUsage().rss);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  assert.equal(received, size);
  const growth = (peak - before) / 1024 / 1024;
  console.log(
    `256 MiB download: ${(size / 1024 / 1024 / seconds).toFixed(0)} MiB/s, RSS growth ${
      growth.toFixed(0)
    } MiB`,
  );
  // Reported, not asserted: this process's RSS moves with garbage collection and whatever else
  // runs; the server's peak during a 500 MB download is the server bench's target.
  assert.equal(server.stats().bytesSent, size);
});

/** Replaces `path` the way careful writers do: a new file renamed over the old one. */
async function atomicReplace(path: string, text: string, mtime?: Date): Promise<void> {
  await Deno.writeTextFile(`${path}.tmp`, text);
  if (mtime) await Deno.utime(`${path}.tmp`, mtime, mtime);
  await Deno.rename(`${path}.tmp`, path);
}

Deno.test("dav-anon: a strong ETag that follows the bytes, also across same-size same-second renames", async () => {
  await using fixture = await serveStore();
  const origin = fixture.url.replace(/\/terrain$/, "");
  const url = `${origin}/dav-anon/iplant/home/shared/project/a.csv`;
  const disk = `${fixture.root}/iplant/home/shared/project/a.csv`;
  const first = await bytesOf(url);
  const etag = first.response.headers.get("etag")!;
  assert.match(etag, /^"xxh64-[0-9a-f]{16}-12"$/);
  assert.equal((await bytesOf(url)).response.headers.get("etag"), etag);
  const modified = first.response.headers.get("last-modified")!;
  // Same size, same modification time to the second (kept, as rsync -t or cp -p do).
  await atomicReplace(disk, "x,y\n9,9\n8,8\n", new Date(Date.parse(modified)));
  const second = await bytesOf(url);
  assert.equal(second.response.headers.get("last-modified"), modified);
  assert.notEqual(second.response.headers.get("etag"), etag);
  // Written back to the old bytes: the old tag is valid again.
  await atomicReplace(disk, "x,y\n1,2\n3,4\n", new Date(Date.parse(modified)));
  assert.equal((await bytesOf(url)).response.headers.get("etag"), etag);
});

Deno.test("dav-anon: a resumed download after a change never gets old head + new tail", async () => {
  await using fixture = await serveStore();
  const origin = fixture.url.replace(/\/terrain$/, "");
  const url = `${origin}/dav-anon/iplant/home/shared/project/a.csv`;
  const disk = `${fixture.root}/iplant/home/shared/project/a.csv`;
  const head = await bytesOf(url, { range: "bytes=0-3" });
  assert.equal(head.response.status, 206);
  const etag = head.response.headers.get("etag")!;
  const modified = head.response.headers.get("last-modified")!;
  // Unchanged: If-Range with the tag or the (settled) date resumes with a range.
  const resumed = await bytesOf(url, { range: "bytes=4-", "if-range": etag });
  assert.equal(resumed.response.status, 206);
  assert.equal(new TextDecoder().decode(resumed.bytes), "1,2\n3,4\n");
  // A date set after writing (the change time is later) cannot pin the bytes.
  await Deno.utime(disk, new Date(Date.UTC(2020, 0, 1)), new Date(Date.UTC(2020, 0, 1)));
  const setDate = (await bytesOf(url)).response.headers.get("last-modified")!;
  const byOldDate = await bytesOf(url, { range: "bytes=4-", "if-range": setDate });
  assert.equal(byOldDate.response.status, 200);
  // Written in place, one write sets both times: the date is a strong validator.
  await Deno.writeTextFile(disk, "x,y\n1,2\n3,4\n");
  const written = (await bytesOf(url)).response.headers.get("last-modified")!;
  const byDate = await bytesOf(url, { range: "bytes=4-", "if-range": written });
  assert.equal(byDate.response.status, 206);

  // Dates cannot tell two versions of one second apart (RFC 9110 §13.1.5 has clients send a date
  // only when it is 60 s older than the answer's Date); a replacement in a later second that
  // kept the date is caught by its change time. A change time cannot be set, so the replacement
  // is made until the file system dates it in a later second than `written`.
  do {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await atomicReplace(disk, "x,y\n7,7\n7,7\n", new Date(Date.parse(written)));
  } while ((await Deno.stat(disk)).ctime!.getTime() < Date.parse(written) + 1000);
  assert.equal((await bytesOf(url)).response.headers.get("last-modified"), written);
  for (const validator of [etag, written, modified, `W/${etag}`]) {
    const stale = await bytesOf(url, { range: "bytes=4-", "if-range": validator });
    assert.equal(stale.response.status, 200, validator);
    assert.equal(new TextDecoder().decode(stale.bytes), "x,y\n7,7\n7,7\n", validator);
    assert.equal(stale.response.headers.get("content-range"), null);
  }
  const pinned = await bytesOf(url, { range: "bytes=4-", "if-match": etag });
  assert.equal(pinned.response.status, 412);
  const current = (await bytesOf(url)).response.headers.get("etag")!;
  const fresh = await bytesOf(url, { range: "bytes=4-", "if-match": `"other", ${current}` });
  assert.equal(fresh.response.status, 206);
  assert.equal(new TextDecoder().decode(fresh.bytes), "7,7\n7,7\n");
});

Deno.test("dav-anon and downloads answer conditions in RFC 9110 order", async () => {
  await using fixture = await serveStore();
  const origin = fixture.url.replace(/\/terrain$/, "");
  const dav = `${origin}/dav-anon/iplant/home/shared/project/a.csv`;
  const fileio = `${fixture.url}/fileio/download?path=${encodeURIComponent(`${PROJECT}/a.csv`)}`;
  const display = `${fixture.url}/filesystem/display-download?path=${
    encodeURIComponent(`${PROJECT}/a.csv`)
  }`;
  for (const url of [dav, fileio, display]) {
    const plain = await bytesOf(url);
    const etag = plain.response.headers.get("etag")!;
    const modified = plain.response.headers.get("last-modified")!;
    assert.equal(plain.response.headers.get("etag"), etag, url);
    const earlier = new Date(Date.parse(modified) - 1000).toUTCString();
    const cases: [HeadersInit, number][] = [
      [{ "if-match": etag }, 200],
      [{ "if-match": "*" }, 200],
      [{ "if-match": `W/${etag}` }, 412],
      [{ "if-match": '"nope"' }, 412],
      [{ "if-match": "not a tag" }, 412],
      [{ "if-unmodified-since": modified }, 200],
      [{ "if-unmodified-since": earlier }, 412],
      [{ "if-unmodified-since": "yesterday" }, 200],
      // If-Match decides; If-Unmodified-Since is then ignored.
      [{ "if-match": etag, "if-unmodified-since": earlier }, 200],
      [{ "if-none-match": etag }, 304],
      [{ "if-none-match": `W/${etag}` }, 304],
      [{ "if-none-match": "*" }, 304],
      [{ "if-none-match": '"nope"' }, 200],
      [{ "if-modified-since": modified }, 304],
      [{ "if-modified-since": earlier }, 200],
      // If-None-Match decides; If-Modified-Since is then ignored.
      [{ "if-none-match": '"nope"', "if-modified-since": modified }, 200],
      // A failed If-Match wins over an If-None-Match that would give 304.
      [{ "if-match": '"nope"', "if-none-match": etag }, 412],
    ];
    for (const [headers, status] of cases) {
      const answer = await bytesOf(url, headers);
      assert.equal(answer.response.status, status, `${url} ${JSON.stringify(headers)}`);
      if (status === 304) {
        assert.equal(answer.bytes.length, 0);
        assert.equal(answer.response.headers.get("etag"), etag);
        assert.equal(answer.response.headers.get("content-length"), "12");
      }
      if (status === 200) assert.equal(new TextDecoder().decode(answer.bytes), "x,y\n1,2\n3,4\n");
    }
    const head = await fetch(url, { method: "HEAD", headers: { "if-none-match": etag } });
    assert.equal(head.status, 304);
  }
});
