import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { serveHttp } from "../../lib/server/http.ts";
import { startServer } from "../../lib/server/mod.ts";
import { until } from "../reliability/_fixtures.ts";
import { makeStore, spawnServe } from "./_store.ts";

const HEALTH = "The infinite is attainable with Terrain!\n";

/**
 * Idle and head timeouts far beyond {@linkcode HANG_MS}: a connection closed before then was
 * closed by what the test checks, not by a timeout, however slowly a busy machine runs it.
 */
const PATIENT = { idleTimeoutMs: 600_000, headersTimeoutMs: 600_000 };
/** How long a connection the server should close may take: catches a hang only. */
const HANG_MS = 60_000;

/** Whether the server closed `conn` within `ms` (a read gives end of stream or fails). */
async function closedWithin(conn: Deno.Conn, ms: number): Promise<boolean> {
  const timer = setTimeout(() => {
    try {
      conn.close();
    } catch {
      // Closed meanwhile.
    }
  }, ms);
  let closedByServer = false;
  try {
    closedByServer = (await conn.read(new Uint8Array(1024))) === null;
  } catch (error) {
    closedByServer = !(error instanceof Deno.errors.BadResource) &&
      !(error instanceof Deno.errors.Interrupted);
  } finally {
    clearTimeout(timer);
  }
  try {
    conn.close();
  } catch {
    // Closed by the timer.
  }
  return closedByServer;
}

async function openIdle(port: number, count: number): Promise<Deno.Conn[]> {
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < count; i++) conns.push(await Deno.connect({ hostname: "127.0.0.1", port }));
  return conns;
}

/**
 * The first bytes the server sends on `conn` (empty when it closes without any, or sends nothing
 * within a generous hang guard).
 */
async function readSome(conn: Deno.Conn, guardMs = 20_000): Promise<Uint8Array> {
  const reply = new Uint8Array(4096);
  const guard = setTimeout(() => {
    try {
      conn.close();
    } catch {
      // Closed meanwhile.
    }
  }, guardMs);
  try {
    const count = await conn.read(reply);
    return reply.subarray(0, count ?? 0);
  } catch {
    return new Uint8Array();
  } finally {
    clearTimeout(guard);
  }
}

/** A connection that asked for the API root once and got its answer, kept alive. */
async function answeredConnection(port: number): Promise<Deno.Conn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode("GET /terrain/ HTTP/1.1\r\nhost: x\r\n\r\n"));
  assert.match(new TextDecoder().decode(await readSome(conn)), /^HTTP\/1\.1 200 OK/);
  return conn;
}

function closeAll(conns: Deno.Conn[]): void {
  for (const conn of conns) {
    try {
      conn.close();
    } catch {
      // Closed by the server.
    }
  }
}

/**
 * Asks for the health text on a fresh connection, retrying while the server sheds load (a pause
 * between tries keeps the loop from spinning); only a hang, {@linkcode HANG_MS}, fails it.
 */
async function health(url: string): Promise<string> {
  const deadline = performance.now() + HANG_MS;
  let last: unknown;
  while (performance.now() < deadline) {
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(HANG_MS) });
      if (response.status === 200) return await response.text();
      await response.body?.cancel();
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer: ${last}`);
}

/** Runs `tern serve` under a descriptor limit of `nofile`; resolves its URL and child. */
async function serveUnderLimit(root: string, nofile: number, extra: string[] = []) {
  const { child, url } = await spawnServe(["--root", root, ...extra], [
    "prlimit",
    `--nofile=${nofile}`,
  ]);
  const stderr = new Response(child.stderr).text();
  return { child, url, stderr };
}

for (
  const [label, extra] of [
    ["the default connection cap", []],
    ["a cap above the limit, so accept runs out of descriptors", ["--max-connections", "5000"]],
  ] as const
) {
  Deno.test(
    `under a limit of 128 descriptors, 400 idle connections leave the server answering (${label})`,
    {
      ignore: Deno.build.os !== "linux",
    },
    async () => {
      await using store = await makeStore({});
      const { child, url, stderr } = await serveUnderLimit(store.root, 128, [...extra, "--quiet"]);
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
      const port = Number(new URL(url).port);
      const conns = await openIdle(port, 400);
      try {
        assert.equal(await health(url), HEALTH);
        // Still alive: the process did not exit, and it answers again after the flood.
        const exited = await Promise.race([
          child.status.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 300)),
        ]);
        assert.equal(exited, false, "the server exited");
      } finally {
        closeAll(conns);
      }
      assert.equal(await health(url), HEALTH);
      child.kill("SIGTERM");
      assert.equal((await child.status).code, 0);
      const log = await stderr;
      if (extra.length > 0) {
        // Logged once per episode, not once per failed accept.
        assert.ok(log.split("\n").filter((l) => l.includes("accept failed")).length <= 3, log);
      }
    },
  );
}

Deno.test("idle connections, and ones that never finish a request head, are closed after their timeouts", async () => {
  await using store = await makeStore({});
  await using server = await startServer({
    root: store.root,
    idleTimeoutMs: 300,
    headersTimeoutMs: 600,
  });
  const port = Number(new URL(server.url).port);
  const idle = await openIdle(port, 50);
  const slow = await openIdle(port, 5);
  for (const conn of slow) {
    await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\n"));
  }
  const started = performance.now();
  const idleClosed = await Promise.all(idle.map((conn) => closedWithin(conn, HANG_MS)));
  assert.deepEqual(idleClosed, idle.map(() => true));
  const slowClosed = await Promise.all(slow.map((conn) => closedWithin(conn, HANG_MS)));
  assert.deepEqual(slowClosed, slow.map(() => true));
  // Not before the timeouts (a lower bound no load can break); closedWithin catches a hang.
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 200, `closed after ${elapsed.toFixed(0)} ms`);
  // A kept-alive connection is closed too once its client stops asking.
  const conn = await answeredConnection(port);
  assert.equal(await closedWithin(conn, HANG_MS), true);
});

Deno.test("close() closes connections that have not sent a whole request head, not only idle ones", async () => {
  // Timeouts far beyond the guard: only close() can end these connections in time.
  await using store = await makeStore({});
  const server = await startServer({
    root: store.root,
    idleTimeoutMs: 120_000,
    headersTimeoutMs: 120_000,
  });
  const port = Number(new URL(server.url).port);
  const fresh = await openIdle(port, 3);
  const partial = await openIdle(port, 2);
  for (const conn of partial) await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\n"));
  const kept = await answeredConnection(port);
  const closing = server.close();
  const closed = await Promise.all(
    [...fresh, ...partial, kept].map((conn) => closedWithin(conn, 20_000)),
  );
  assert.deepEqual(closed, [true, true, true, true, true, true]);
  await closing;
});

Deno.test("the connection cap: the longest-waiting connection makes room, busy ones are not dropped", async () => {
  await using store = await makeStore({});
  // Patient timeouts: a connection closed was closed to make room.
  await using server = await startServer({ root: store.root, maxConnections: 4, ...PATIENT });
  const port = Number(new URL(server.url).port);
  // The server accepts connections one at a time, in the order they came: the four are its
  // oldest when the fifth arrives, whenever it gets to them.
  const idle = await openIdle(port, 4);
  // A fifth connection is served; the oldest waiting one was closed to make room.
  assert.equal(await health(server.url), HEALTH);
  assert.equal(await closedWithin(idle[0], HANG_MS), true);
  closeAll(idle);
  // Four connections in the middle of a request head (slowloris) do not lock others out: the
  // one whose head started first is closed to make room.
  const slow = await openIdle(port, 4);
  for (const conn of slow) await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\n"));
  assert.equal(await health(server.url), HEALTH);
  assert.equal(await closedWithin(slow[0], HANG_MS), true);
  closeAll(slow);
});

Deno.test("the connection cap: when every connection is being answered, a newcomer gets 503", async () => {
  // Each of the four answers waits for the gate, so they stay being answered however late the
  // newcomer comes (the connection layer alone, with a handler that waits for the test).
  const gate = Promise.withResolvers<void>();
  let arrived = 0;
  const server = serveHttp({
    hostname: "127.0.0.1",
    port: 0,
    log: () => {},
    limits: { maxConnections: 4, ...PATIENT, sendTimeoutMs: 600_000, maxLongAnswers: 4 },
  }, async () => {
    // Only the four wait: a newcomer let in past the cap is answered at once, and fails the test.
    if (++arrived <= 4) await gate.promise;
    return new Response("answered");
  });
  const busy = await openIdle(server.addr.port, 4);
  try {
    for (const conn of busy) {
      await conn.write(new TextEncoder().encode("GET /terrain/ HTTP/1.1\r\nhost: x\r\n\r\n"));
    }
    // All four heads read: their answers are being prepared.
    await until(() => arrived === 4, "the four requests arrived");
    const refused = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(refused.status, 503);
    assert.match(await refused.text(), /too many connections/);
  } finally {
    gate.resolve();
  }
  // The busy ones were not dropped: each gets its answer.
  for (const conn of busy) {
    const reply = new TextDecoder().decode(await readSome(conn));
    assert.match(reply, /^HTTP\/1\.1 200 OK/);
  }
  closeAll(busy);
  await server.close();
});

Deno.test("a malformed or oversized request head gets 400 or 431 and the connection closes", async () => {
  await using store = await makeStore({});
  await using server = await startServer({ root: store.root, ...PATIENT });
  const port = Number(new URL(server.url).port);
  for (
    const [request, status] of [
      ["NOT A REQUEST\r\n\r\n", 400],
      [`GET /terrain/ HTTP/1.1\r\nx: ${"a".repeat(70_000)}\r\n\r\n`, 431],
    ] as const
  ) {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(request)).catch(() => {});
    const reply = new Uint8Array(4096);
    const count = await conn.read(reply);
    assert.match(
      new TextDecoder().decode(reply.subarray(0, count ?? 0)),
      new RegExp(` ${status} `),
    );
    assert.equal(await closedWithin(conn, HANG_MS), true);
  }
});

Deno.test("a TLS handshake (an https:// URL) gets a plain 400 at once, not the headers timeout", async () => {
  await using store = await makeStore({});
  await using server = await startServer({ root: store.root, ...PATIENT });
  const port = Number(new URL(server.url).port);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  // The start of a TLS ClientHello: a handshake record, with no end of request head in sight.
  await conn.write(new Uint8Array([0x16, 0x03, 0x01, 0x00, 0xf4, 0x01, 0x00, 0x00, 0xf0]));
  const reply = new Uint8Array(4096);
  const count = await conn.read(reply);
  assert.match(
    new TextDecoder().decode(reply.subarray(0, count ?? 0)),
    /^HTTP\/1\.1 400 [\s\S]*this server speaks plain HTTP/,
  );
  assert.equal(await closedWithin(conn, HANG_MS), true);
});

Deno.test("a request with bare LF line endings is refused at once, not left to time out", async () => {
  await using store = await makeStore({});
  // Timeouts far beyond the test's own guard: only an immediate answer passes.
  await using server = await startServer({ root: store.root, ...PATIENT });
  const port = Number(new URL(server.url).port);
  for (const request of ["GET / HTTP/1.1\n\n", "GET / HTTP/1.1\r\nhost: x\n\r\n"]) {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(request));
    const reply = new TextDecoder().decode(await readSome(conn));
    assert.match(reply, /^HTTP\/1\.1 400 /, JSON.stringify(request));
    assert.match(reply, /bare LF/);
    assert.equal(await closedWithin(conn, HANG_MS), true);
  }
});

Deno.test("methods the server does not serve get 405 with Allow", async () => {
  await using store = await makeStore({});
  await using server = await startServer({ root: store.root, ...PATIENT });
  const port = Number(new URL(server.url).port);
  for (const method of ["TRACE", "TRACK", "CONNECT", "OPTIONS", "BREW"]) {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(`${method} /terrain/ HTTP/1.1\r\nhost: x\r\n\r\n`));
    const reply = new TextDecoder().decode(await readSome(conn));
    assert.match(reply, /^HTTP\/1\.1 405 Method Not Allowed\r\n/, method);
    assert.match(reply, /\r\nallow: GET, HEAD\r\n/, method);
    assert.equal(await closedWithin(conn, HANG_MS), true);
  }
  // Other methods a fetch client can send are answered through the router.
  const options = await fetch(`${server.url}/`, { method: "OPTIONS" });
  await options.body?.cancel();
  assert.equal(options.status, 405);
  assert.equal(options.headers.get("allow"), "GET, HEAD");
});

Deno.test("a head too large is answered 431 to a client still sending it, not reset", async () => {
  await using store = await makeStore({});
  await using server = await startServer({ root: store.root });
  // (fetch itself refuses URLs much longer than 64 KB, so part of the head is a header.)
  const url = `${server.url}/filesystem/paged-directory?path=/${"a".repeat(60_000)}`;
  for (let i = 0; i < 5; i++) {
    const response = await fetch(url, { headers: { "x-pad": "b".repeat(10_000) } });
    await response.body?.cancel();
    assert.equal(response.status, 431);
  }
});

/** A file much larger than what loopback socket buffers take from a client that never reads. */
const BIG_PATH = "iplant/home/shared/big.bin";
const BIG_BYTES = 24 * 1024 * 1024;

function bigFile(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(BIG_BYTES);
  for (let i = 0; i < bytes.byteLength; i += 4096) bytes[i] = (i / 4096) % 251;
  return bytes;
}

/**
 * A raw connection that asks for the big file, reads the start of its answer (so the server is
 * sending it) and then never reads again.
 */
async function askAndStopReading(port: number): Promise<{ conn: Deno.Conn; received: number }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(
    new TextEncoder().encode(
      `GET /dav-anon/${BIG_PATH} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`,
    ),
  );
  const start = await readSome(conn);
  assert.match(new TextDecoder().decode(start), /^HTTP\/1\.1 200 OK/);
  return { conn, received: start.byteLength };
}

/** All that arrives on a connection asked by {@link askAndStopReading}, read to its end. */
async function received(stuck: { conn: Deno.Conn; received: number }) {
  const rest = await drain(stuck.conn);
  return { bytes: stuck.received + rest.bytes, ended: rest.ended };
}

/**
 * Reads `conn` to its end: how many bytes arrived, and whether the server ended the connection
 * (false only when the hang guard closed it).
 */
async function drain(
  conn: Deno.Conn,
  guardMs = 30_000,
): Promise<{ bytes: number; ended: boolean }> {
  let guarded = false;
  const guard = setTimeout(() => {
    guarded = true;
    try {
      conn.close();
    } catch {
      // Closed meanwhile.
    }
  }, guardMs);
  const buffer = new Uint8Array(256 * 1024);
  let bytes = 0;
  try {
    for (;;) {
      const count = await conn.read(buffer);
      if (count === null) break;
      bytes += count;
    }
  } catch {
    // Reset by the server, or closed by the guard.
  } finally {
    clearTimeout(guard);
  }
  try {
    conn.close();
  } catch {
    // Closed by the guard.
  }
  return { bytes, ended: !guarded };
}

Deno.test("the connection cap: a connection whose client stopped reading its answer makes room, not a 503 (issue 29)", async () => {
  await using store = await makeStore({ [BIG_PATH]: bigFile() });
  await using server = await startServer({ root: store.root, maxConnections: 4 });
  const port = Number(new URL(server.url).port);
  const stuck = [];
  for (let i = 0; i < 4; i++) stuck.push(await askAndStopReading(port));
  // Every slot is busy answering; once those clients have taken nothing for a while, a fifth
  // client is served (until then it gets 503, which health() retries).
  assert.equal(await health(server.url), HEALTH);
  const drained = await Promise.all(stuck.map(received));
  assert.ok(drained.every((d) => d.ended), "a connection neither finished nor cut");
  // One answer was cut to make room (it ends where the socket buffers did, megabytes short);
  // the other three arrive whole once read.
  assert.equal(drained.filter((d) => d.bytes < BIG_BYTES).length, 1, JSON.stringify(drained));
});

Deno.test("a long answer waits for a lane; a client that stopped reading loses its lane, readers keep theirs (issue 29)", async () => {
  const big = bigFile();
  await using store = await makeStore({ [BIG_PATH]: big });
  await using server = await startServer({ root: store.root, maxLongAnswers: 1 });
  const port = Number(new URL(server.url).port);
  const stuck = await askAndStopReading(port);
  // Two readers line up behind it: the first gets the lane the stuck client held, the second
  // the first's once it has read everything.
  const url = new URL(`/dav-anon/${BIG_PATH}`, server.url);
  const read = async () => new Uint8Array(await (await fetch(url)).arrayBuffer());
  const [first, second] = await Promise.all([read(), read()]);
  assert.equal(Buffer.compare(first, big), 0);
  assert.equal(Buffer.compare(second, big), 0);
  const drained = await received(stuck);
  assert.ok(drained.ended && drained.bytes < BIG_BYTES, JSON.stringify(drained));
});

Deno.test("close() ends the answers waiting for a lane and the one holding it (issue 29)", async () => {
  // Bodies that never end, to clients that never read: only close() can end these answers.
  let calls = 0;
  let waiterPulled = false;
  const waiterArrived = Promise.withResolvers<void>();
  const server = serveHttp({
    hostname: "127.0.0.1",
    port: 0,
    log: () => {},
    limits: {
      maxConnections: 8,
      idleTimeoutMs: 600_000,
      headersTimeoutMs: 600_000,
      sendTimeoutMs: 600_000,
      maxLongAnswers: 1,
    },
  }, () => {
    const call = ++calls;
    if (call === 2) waiterArrived.resolve();
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (call === 2) waiterPulled = true;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    }, { highWaterMark: 0 });
    return Promise.resolve(new Response(body));
  });
  const ask = async () => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\n\r\n"));
    return conn;
  };
  const holder = await ask();
  const waiter = await ask();
  await waiterArrived.promise;
  // The waiter's answer goes from its handler to the lane's line without any I/O.
  await new Promise((resolve) => setTimeout(resolve, 0));
  let guard: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    guard = setTimeout(() => reject(new Error("close() hung")), 20_000);
  });
  try {
    await Promise.race([server.close(), hang]);
  } finally {
    clearTimeout(guard);
  }
  const drained = await Promise.all([drain(holder), drain(waiter)]);
  assert.deepEqual(drained.map((d) => d.ended), [true, true]);
  // The waiter's answer never started.
  assert.equal(drained[1].bytes, 0);
  assert.equal(waiterPulled, false);
});
