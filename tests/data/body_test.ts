/**
 * The verified body: truncated, overlong, cut and changed downloads never reach a parser as a
 * complete file. The embedded server cuts bodies under `dropRate`; a small double serves what
 * the real service does and the embedded server cannot (no Content-Length, broken streams).
 */

import assert from "node:assert/strict";
import { NetworkError } from "../../lib/client/errors.ts";
import { download } from "../../lib/client/endpoints.ts";
import { Transport } from "../../lib/client/transport.ts";
import { connect } from "../../mod.ts";
import {
  type EarlyAnswer,
  earlyDownload,
  READ_AHEAD_BYTES,
  verifiedBody,
} from "../../lib/data/body.ts";
import type { Entry } from "../../lib/client/entry.ts";
import { FileChangedError, IntegrityError } from "../../lib/data/errors.ts";
import { DATA, dataStore, generatedCsv } from "./_store.ts";
import { frontProxy } from "./_proxy.ts";
import { withDeadline } from "../reliability/_fixtures.ts";

const PATH = "/iplant/home/shared/x.bin";

/** The version of `PATH` a read pinned. */
const v = (size: number, modified = 1) => ({ store: "s", path: PATH, id: ID, size, modified });
const ID = "00000000-0000-4000-8000-000000000001";

function payload(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + 3) & 0xff;
  return bytes;
}

async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: number[] = [];
  for await (const chunk of chunks) parts.push(...chunk);
  return new Uint8Array(parts);
}

/**
 * Serves `fileio/download` with chunked bodies (no Content-Length, as Terrain does): the n-th
 * request (from 0) gets `plan(n)`: the bytes to send, and whether to break the connection after.
 */
function serveChunked(plan: (attempt: number) => { bytes: Uint8Array; fail?: boolean }) {
  let attempt = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {}, onError }, () => {
    const { bytes, fail } = plan(attempt++);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 1000) {
          controller.enqueue(bytes.slice(offset, offset + 1000));
        }
        if (fail) controller.error(new Error("connection broke"));
        else controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "application/octet-stream" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/terrain`,
    attempts: () => attempt,
    close: () => server.shutdown(),
  };
}

function onError(): Response {
  return new Response(null, { status: 500 });
}

const transport = (url: string, retries = 2) =>
  new Transport({ url, retries, retryBaseMs: 1, retryMaxMs: 5 });

Deno.test("a body shorter than the listed size, without Content-Length, is retried then refused", async () => {
  const bytes = payload(5000);
  const double = serveChunked(() => ({ bytes: bytes.subarray(0, 3000) }));
  try {
    const body = verifiedBody({
      transport: transport(double.url),
      expected: v(5000, 1),
    });
    await assert.rejects(readAll(body), (error: unknown) => {
      assert.ok(error instanceof IntegrityError, String(error));
      assert.match(
        error.message,
        /ended after 3000 of its listed 5000 bytes \(gave up after 3 attempts\)/,
      );
      return true;
    });
    assert.equal(double.attempts(), 3);
  } finally {
    await double.close();
  }
});

Deno.test("a body longer than the listed size is refused", async () => {
  const double = serveChunked(() => ({ bytes: payload(6000) }));
  try {
    const body = verifiedBody({
      transport: transport(double.url, 0),
      expected: v(5000, 1),
    });
    await assert.rejects(readAll(body), /sent more than its listed 5000 bytes/);
  } finally {
    await double.close();
  }
});

Deno.test("a broken transfer resumes by skipping what was delivered: every byte once", async () => {
  const bytes = payload(10_000);
  const double = serveChunked((attempt) =>
    attempt === 0 ? { bytes: bytes.subarray(0, 4000), fail: true } : { bytes }
  );
  try {
    const delivered: number[] = [];
    const body = verifiedBody({
      transport: transport(double.url),
      expected: v(10_000, 1),
      recheck: () => Promise.resolve(entryOf(10_000, 1)),
      onBytes: (count) => delivered.push(count),
    });
    assert.deepEqual(await readAll(body), bytes);
    assert.equal(double.attempts(), 2);
    assert.equal(delivered.reduce((a, b) => a + b, 0), 10_000);
  } finally {
    await double.close();
  }
});

Deno.test("a file that changed between attempts ends the read instead of joining versions", async () => {
  const double = serveChunked((attempt) => ({ bytes: payload(5000), fail: attempt === 0 }));
  try {
    const body = verifiedBody({
      transport: transport(double.url),
      expected: v(5000, 1),
      recheck: () => Promise.resolve(entryOf(5200, 2)),
    });
    await assert.rejects(readAll(body), (error: unknown) => {
      assert.ok(error instanceof FileChangedError, String(error));
      assert.match(
        error.message,
        /changed on the server while it was read: it was 5,000 bytes.*5,200 bytes/,
      );
      assert.deepEqual([error.expected.size, error.actual?.size], [5000, 5200]);
      return true;
    });
  } finally {
    await double.close();
  }
});

Deno.test("under --drop-rate every frame is complete or the read fails: never a short table", async () => {
  const text = generatedCsv(30_000);
  await using flaky = await dataStore({ [`${DATA}/t.csv`]: text }, { dropRate: 0.5, seed: 3 });
  const tern = flaky.impatient(8);
  const rows = [];
  for (let i = 0; i < 4; i++) {
    rows.push((await tern.file(`${DATA}/t.csv`).dataframe({ cache: false })).height);
  }
  assert.deepEqual(rows, [30_000, 30_000, 30_000, 30_000]);
  assert.ok(flaky.server.stats().bodiesDropped > 0, "the server did cut bodies");

  await using broken = await dataStore({ [`${DATA}/t.csv`]: text }, { dropRate: 1 });
  const doomed = broken.impatient(2);
  await assert.rejects(doomed.file(`${DATA}/t.csv`).dataframe(), (error: unknown) => {
    assert.ok(error instanceof NetworkError || error instanceof IntegrityError, String(error));
    assert.match((error as Error).message, /gave up after 3 attempts/);
    return true;
  });
  // Three attempts, each cut; the cold read's early download (asked beside the stat, then let go
  // past its read-ahead) is cut too when the server got to its body before it was let go.
  const dropped = broken.server.stats().bodiesDropped;
  assert.ok(dropped === 3 || dropped === 4, `${dropped} bodies cut`);
  assert.equal((await doomed.cache.info()).height, 0, "nothing partial was cached");
  assert.equal(doomed.stats.inFlight, 0);
});

Deno.test("a file rewritten after it was listed is read again as its new version", async () => {
  await using store = await dataStore({ [`${DATA}/t.csv`]: "a\n1\n2\n" });
  const tern = store.connect();
  const [entry] = await tern.folder(DATA).list({ glob: "t.csv" }).toArray();
  // The listing now describes a 6-byte file; the server will send 12 bytes.
  await store.write(`${DATA}/t.csv`, "a\n1\n2\n3\n4\n5\n");
  await Deno.utime(`${store.root}${DATA}/t.csv`, new Date(2030, 0, 1), new Date(2030, 0, 1));
  const frame = await tern.file(entry).dataframe();
  assert.deepEqual(frame.getColumn("a").toArray(), [1, 2, 3, 4, 5]);
});

Deno.test("a same-size edit within the same second between two attempts is never spliced: If-Match refuses the old tag", async () => {
  const before = payload(20_000);
  const after = before.map((byte) => byte ^ 0xff);
  await using store = await dataStore({
    [`${DATA}/x.bin`]: before,
    // Not checksummed by the store yet (a fresh upload): its stat has no checksum to differ.
    [`${DATA}/.x.bin.avus.json`]: JSON.stringify({
      "irods-avus": [{ attr: "ipc-checksum", value: "", unit: "" }],
    }),
  });
  const local = `${store.root}${DATA}/x.bin`;
  const { mtime } = await Deno.stat(local);
  const downloads: { ifMatch: string | null; status: number }[] = [];
  const broken: string[] = [];
  // The first download breaks after 8,000 bytes, and the file is rewritten right then: same
  // size, same modification time, no store checksum, so a stat cannot tell the versions apart.
  await using proxy = frontProxy(store.url, {
    onError: (error) => broken.push(String(error)),
    answer(request, answer) {
      if (!new URL(request.url).pathname.endsWith("/fileio/download")) {
        return Promise.resolve(undefined);
      }
      downloads.push({ ifMatch: request.headers.get("if-match"), status: answer.status });
      if (downloads.length > 1) return Promise.resolve(undefined);
      const reader = answer.body!.getReader();
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done || sent >= 8000) {
            await reader.cancel();
            await Deno.writeFile(local, after);
            await Deno.utime(local, mtime!, mtime!);
            return controller.error(new Error("connection broke"));
          }
          const piece = value.subarray(0, 8000 - sent);
          sent += piece.byteLength;
          controller.enqueue(piece);
        },
      });
      return Promise.resolve(
        new Response(body, { status: answer.status, headers: answer.headers }),
      );
    },
  });
  const tern = connect({ url: proxy.url, anonymous: true, cacheDir: false, retryBaseMs: 1 });
  // The version changed between attempts, so the read starts over and returns the new version
  // whole; without If-Match the second attempt skipped 8,000 bytes of the new one (a splice).
  assert.deepEqual(await tern.file(`${DATA}/x.bin`).bytes(), after);
  assert.equal(downloads[0].ifMatch, null);
  assert.match(downloads[1].ifMatch ?? "", /^"xxh64-/, "the retry asked for the first bytes' tag");
  assert.equal(downloads[1].status, 412);
  // The break was the proxy's doing, reported to it once (not printed on the run's stderr).
  await proxy[Symbol.asyncDispose]();
  assert.deepEqual(broken, ["Error: connection broke"]);
});

Deno.test("a download sent beside the stat never keeps its slot from the stat: it reads ahead, and gives way past READ_AHEAD_BYTES untaken", async () => {
  const small = payload(5000);
  const large = payload(READ_AHEAD_BYTES + 5000);
  const [L, S, F] = [{ bytes: large }, { bytes: small }, { bytes: small, fail: true }];
  // In the order the requests below are sent; at the end, twice: early, late and another.
  const plans = [L, S, F, S, L, S, S, L, S, S];
  const double = serveChunked((attempt) => plans[attempt]);
  try {
    // One slot, and the download sent first takes it: the next request gets it all the same.
    const t = new Transport({ url: double.url, concurrency: 1, retries: 1, retryBaseMs: 1 });
    const untaken = earlyDownload(t, PATH);
    assert.deepEqual(await readAll((await download(t, PATH)).body), small);
    assert.equal(await untaken.take(), undefined, "given up past the read-ahead");

    // A broken body never fails the read by itself: it is retried, or not used at all.
    const broken = earlyDownload(t, PATH);
    const body = verifiedBody({ transport: t, expected: v(small.length), started: broken.take() });
    assert.deepEqual(await readAll(body), small);
    assert.equal(double.attempts(), 4);

    // Taken before its body arrived (large), or after it was read whole (small: the next
    // request had to wait for its slot): every byte, read plainly or into one reused buffer.
    for (const reuse of [false, true]) {
      const [early, late] = [earlyDownload(t, PATH), earlyDownload(t, PATH)];
      const read = (bytes: Uint8Array, started: Promise<EarlyAnswer | undefined>) =>
        withDeadline(
          60_000,
          `a read with reuse: ${reuse}`,
          () => readAll(verifiedBody({ transport: t, expected: v(bytes.length), started, reuse })),
        );
      assert.deepEqual(await read(large, early.take()), large, `taken early, reuse: ${reuse}`);
      await download(t, "/iplant/home/shared/other.bin").then((answer) => answer.body.cancel());
      assert.deepEqual(await read(small, late.take()), small, `taken late, reuse: ${reuse}`);
      assert.equal(await late.take(), undefined, "taken once");
    }
    assert.equal(double.attempts(), plans.length);
    assert.equal(t.limiter.active, 0);
  } finally {
    await double.close();
  }
});

function entryOf(size: number, modified: number, type: "file" | "folder" = "file"): Entry {
  return {
    id: ID,
    path: PATH,
    name: "x.bin",
    type,
    size,
    created: new Date(0),
    modified: new Date(modified),
    infoType: type === "file" ? "unknown" : null,
    permission: "read",
  };
}
