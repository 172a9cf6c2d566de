import assert from "node:assert/strict";
import {
  AuthError,
  BadRequestError,
  NetworkError,
  NotFoundError,
  ProtocolError,
  RequestTooLargeError,
  ResponseTooLargeError,
  ServerError,
  TlsError,
} from "../../lib/client/errors.ts";
import { Transport, type TransportOptions } from "../../lib/client/transport.ts";
import { VERSION } from "../../lib/client/version.ts";
import { download, getManifest, getPagedDirectory } from "../../lib/client/endpoints.ts";
import { serveDouble, shortResponse, stallingResponse } from "./_double.ts";
import { serveCapture } from "../_capture.ts";
import { bigBytes, PATHS, serveStore, TABLE_CSV } from "./_store.ts";
import { connect } from "../../mod.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { until, withDeadline } from "../reliability/_fixtures.ts";

/** Catches a hang only: far above what any case here takes on a busy machine. */
const HANG_MS = 30_000;

/**
 * An answer held until the test releases it: a double that never answers on its own, so only
 * the client (its timeout, its abort) can end the request, however slow the machine. Release it
 * before the double closes, which waits for its answers.
 */
function held(): { answer: () => Promise<Response>; release: () => void } {
  const { promise, resolve } = Promise.withResolvers<void>();
  return { answer: () => promise.then(() => Response.json({ late: true })), release: resolve };
}

/** Fast retry timing for tests; each test states the policy it relies on. */
function transport(url: string, options: Partial<TransportOptions> = {}): Transport {
  return new Transport({ url, retryBaseMs: 1, retryMaxMs: 5, ...options });
}

const spec = { path: "/filesystem/x", endpoint: "filesystem/x", subject: "/iplant/home/shared" };

Deno.test("Transport (double): sends the identifying User-Agent, credentials and repeated keys", async () => {
  await using double = serveDouble(() => Response.json({ ok: true }));
  const t = transport(double.url, { token: "aaa.bbb.ccc", userAgent: "lab/1" });
  const body = await t.json({
    ...spec,
    query: { path: "/iplant/home/a b", "info-type": ["csv", "tsv"], limit: 5, skip: undefined },
  });
  assert.deepEqual(body, { ok: true });
  const [request] = double.seen;
  assert.equal(request.url.pathname, "/terrain/filesystem/x");
  assert.deepEqual(request.url.searchParams.getAll("info-type"), ["csv", "tsv"]);
  assert.equal(request.url.searchParams.get("path"), "/iplant/home/a b");
  assert.equal(request.url.searchParams.get("limit"), "5");
  assert.equal(request.url.searchParams.has("skip"), false);
  assert.equal(
    request.headers.get("user-agent"),
    `lab/1 tern/${VERSION} (Deno/${Deno.version.deno})`,
  );
  assert.equal(request.headers.get("authorization"), "Bearer aaa.bbb.ccc");
  assert.equal(t.requests, 1);
  assert.equal(t.retries, 0);
});

Deno.test("Transport (double): streamUrl sends to its own URL without credentials, retried, answered statuses handed back", async () => {
  const answers = [
    new Response("busy", { status: 503 }),
    new Response("abc", { status: 206, headers: { "content-range": "bytes 0-2/9" } }),
    new Response(null, { status: 412, headers: { etag: '"new"' } }),
    new Response("gone", { status: 404 }),
  ];
  await using double = serveDouble((_request, index) => answers[index]);
  const t = transport(double.url, { token: "aaa.bbb.ccc", userAgent: "lab/1" });
  const url = double.url.replace("/terrain", "/dav-anon/iplant/home/shared/a.bin");
  const request = { url, endpoint: "dav-anon", subject: "/iplant/home/shared/a.bin" };
  const ok = await t.streamUrl({ ...request, headers: { range: "bytes=0-2" }, answered: [412] });
  assert.equal(ok.status, 206);
  assert.equal(await new Response(ok.body).text(), "abc");
  const changed = await t.streamUrl({ ...request, answered: [412] });
  assert.equal(changed.status, 412);
  assert.equal(changed.headers.get("etag"), '"new"');
  await changed.body.cancel();
  // A 404 of its own URL says the item is missing, not that the gateway's base URL is wrong.
  await assert.rejects(() => t.streamUrl(request), (error: unknown) => {
    assert.ok(error instanceof NotFoundError, String(error));
    assert.equal(
      error.message,
      '"/iplant/home/shared/a.bin" was not found at its URL (dav-anon, HTTP 404).',
    );
    return true;
  });
  assert.deepEqual(
    double.seen.map((seen) => seen.url.pathname),
    Array(4).fill("/dav-anon/iplant/home/shared/a.bin"),
  );
  for (const seen of double.seen) {
    assert.equal(seen.headers.get("authorization"), null);
    assert.equal(
      seen.headers.get("user-agent"),
      `lab/1 tern/${VERSION} (Deno/${Deno.version.deno})`,
    );
  }
  assert.equal(double.seen[1].headers.get("range"), "bytes=0-2");
  assert.equal(t.stats.retries, 1);
  assert.equal(t.stats.inFlight, 0);
  assert.throws(
    () => t.streamUrl({ ...request, url: "ftp://demo:hunter2@host/a.bin" }),
    (error: unknown) => {
      assert.ok(error instanceof BadRequestError);
      assert.match(
        error.message,
        /needs an absolute http\(s\) URL, got "ftp:\/\/\*\*\*@host\/a\.bin"/,
      );
      return true;
    },
  );
});

Deno.test("Transport (double): retries 502/503/504 and code-less 500, then succeeds", async () => {
  const failures = [502, 503, 504, 500];
  await using double = serveDouble((_request, index) =>
    index < failures.length
      ? new Response("upstream trouble", { status: failures[index] })
      : Response.json({ ok: index })
  );
  const t = transport(double.url, { retries: 4 });
  assert.deepEqual(await t.json(spec), { ok: 4 });
  assert.equal(t.requests, 5);
  assert.equal(t.retries, 4);
});

Deno.test("Transport (double): gives up after the retries with a ServerError", async () => {
  await using double = serveDouble(() => new Response("", { status: 503 }));
  const t = transport(double.url, { retries: 2 });
  await assert.rejects(t.json(spec), (error: unknown) => {
    assert.ok(error instanceof ServerError);
    assert.equal(error.status, 503);
    assert.match(error.message, /after 3 attempts/);
    return true;
  });
  assert.equal(double.seen.length, 3);
  assert.equal(t.retries, 2);
});

Deno.test("Transport (double): never retries a 500 with an error_code or a 4xx", async () => {
  await using double = serveDouble((request) =>
    new URL(request.url).pathname.endsWith("/gone")
      ? Response.json({ reason: "unrecognized service path" }, { status: 404 })
      : Response.json({ error_code: "ERR_DOES_NOT_EXIST", path: "/iplant/home/x" }, {
        status: 500,
      })
  );
  const t = transport(double.url);
  await assert.rejects(t.json(spec), NotFoundError);
  await assert.rejects(t.json({ ...spec, path: "/gone" }), NotFoundError);
  assert.equal(double.seen.length, 2);
  assert.equal(t.retries, 0);
});

Deno.test("Transport (double): 429 honours Retry-After in seconds", async () => {
  await using double = serveDouble((_request, index) =>
    index === 0
      ? new Response("slow down", { status: 429, headers: { "retry-after": "1" } })
      : Response.json({ ok: true })
  );
  // A zero backoff shows that the wait came from Retry-After.
  const t = new Transport({ url: double.url, retryBaseMs: 0, retryMaxMs: 0 });
  const started = performance.now();
  assert.deepEqual(await t.json(spec), { ok: true });
  assert.ok(performance.now() - started >= 950, "waited about a second");
  assert.equal(t.retries, 1);
});

Deno.test("Transport (double): 503 honours Retry-After as an HTTP date", async () => {
  // HTTP dates have whole seconds: ask for the first whole second at least 500 ms away.
  let until = 0;
  await using double = serveDouble((_request, index) => {
    if (index > 0) return Response.json({ ok: true });
    until = Math.ceil((Date.now() + 500) / 1000) * 1000;
    return new Response("", {
      status: 503,
      headers: { "retry-after": new Date(until).toUTCString() },
    });
  });
  // A zero backoff shows that the wait came from Retry-After.
  const t = new Transport({ url: double.url, retryBaseMs: 0, retryMaxMs: 0 });
  assert.deepEqual(await t.json(spec), { ok: true });
  const early = until - Date.now();
  // Timers may round by a millisecond; not waiting would be at least 500 ms early.
  assert.ok(early <= 5, `retried ${early} ms before the date`);
  assert.equal(t.retries, 1);
});

Deno.test("Transport (double): a Retry-After beyond a minute fails at once", async () => {
  await using double = serveDouble(() =>
    new Response("", { status: 429, headers: { "retry-after": "3600" } })
  );
  const t = transport(double.url);
  // Waiting out the hour would be a hang.
  await withDeadline(HANG_MS, "a Retry-After of an hour", async () => {
    await assert.rejects(t.json(spec), /asked to wait 3600 s/);
  });
  assert.equal(double.seen.length, 1);
  assert.equal(t.retries, 0);
});

Deno.test("Transport (double): a 429 that never clears is a ServerError after the retries", async () => {
  await using double = serveDouble(() =>
    new Response("", { status: 429, headers: { "retry-after": "0" } })
  );
  const t = transport(double.url, { retries: 2 });
  await assert.rejects(t.json(spec), (error: unknown) => {
    assert.ok(error instanceof ServerError);
    assert.equal(error.status, 429);
    return true;
  });
  assert.equal(double.seen.length, 3);
});

Deno.test("Transport (double): a web page where JSON was due says the base URL may lack /terrain", async () => {
  // https://de.cyverse.org without /terrain answers the Discovery Environment's pages.
  await using double = serveDouble(() =>
    new Response("<!DOCTYPE html><html><title>Discovery Environment</title></html>", {
      headers: { "content-type": "text/html" },
    })
  );
  await assert.rejects(transport(double.url).json(spec), (error: unknown) => {
    assert.ok(error instanceof ProtocolError);
    assert.match(error.message, /filesystem\/x answered with a web page, not JSON/);
    assert.ok(error.message.includes(`Check the base URL ("${double.url}")`), error.message);
    assert.match(error.message, /Terrain's ends in \/terrain/);
    return true;
  });
});

Deno.test("Transport (double): malformed JSON is a ProtocolError and is not retried", async () => {
  await using double = serveDouble(() =>
    new Response('{"roots": [', { headers: { "content-type": "application/json" } })
  );
  const t = transport(double.url);
  await assert.rejects(t.json(spec), (error: unknown) => {
    assert.ok(error instanceof ProtocolError);
    assert.match(error.message, /filesystem\/x answered with something that is not JSON/);
    assert.match(error.message, /\{\\"roots\\": \[/);
    return true;
  });
  assert.equal(double.seen.length, 1);
  assert.equal(t.limiter.active, 0, "the slot came back");
});

Deno.test("Transport (double): a truncated JSON body is retried and the retry succeeds", async () => {
  await using double = serveDouble((_request, index) =>
    index === 0 ? shortResponse('{"ok": tr', 12) : Response.json({ ok: true })
  );
  const t = transport(double.url);
  assert.deepEqual(await t.json(spec), { ok: true });
  assert.equal(t.retries, 1);
});

Deno.test("Transport (double): a body stalling mid-way is a NetworkError after the idle time", async () => {
  await using double = serveDouble(() => stallingResponse(5, 100));
  const t = transport(double.url, { idleTimeoutMs: 100, retries: 1 });
  // The body never ends: without the idle timeout this would hang.
  await withDeadline(HANG_MS, "a stalled body", async () => {
    await assert.rejects(t.json(spec), (error: unknown) => {
      assert.ok(error instanceof NetworkError);
      assert.match(error.message, /no data for 100 ms after 5 bytes.*gave up after 2 attempts/);
      return true;
    });
  });
  assert.equal(double.seen.length, 2, "JSON bodies are retried");
  assert.equal(t.limiter.active, 0);

  const stream = await t.stream(spec);
  await assert.rejects(new Response(stream.body).arrayBuffer(), /no data for 100 ms/);
  assert.equal(t.limiter.active, 0);
});

Deno.test("Transport (double): headers slower than timeoutMs are a NetworkError", async () => {
  const late = held();
  await using double = serveDouble(late.answer);
  const t = transport(double.url, { timeoutMs: 50, retries: 1 });
  // The double answers only once released: an ignored timeout hangs until the guard fails it.
  try {
    await withDeadline(HANG_MS, "unanswered requests", async () => {
      await assert.rejects(t.json(spec), /No answer from 127\.0\.0\.1:\d+ .* within 50 ms/);
    });
  } finally {
    late.release();
  }
  // Counted by the client: a starved machine may time an attempt out before it reaches the double.
  assert.equal(t.requests, 2);
});

Deno.test("Transport: connection refused is a NetworkError after the retries", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const t = transport(`http://127.0.0.1:${port}/terrain`, { retries: 2 });
  await assert.rejects(t.json(spec), (error: unknown) => {
    assert.ok(error instanceof NetworkError);
    assert.match(error.message, /Could not reach 127\.0\.0\.1:\d+ for filesystem\/x/);
    assert.match(error.message, /gave up after 3 attempts/);
    assert.ok(error.cause instanceof Error);
    return true;
  });
  assert.equal(t.requests, 3);
});

Deno.test("Transport: https:// to a plain-HTTP server is a TlsError at once, never retried", async () => {
  // Any plain HTTP server answers a ClientHello with a plain 400, which TLS cannot read.
  await using plain = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("{}"),
  );
  const t = transport(`https://127.0.0.1:${plain.addr.port}/terrain`, { retries: 4 });
  await assert.rejects(t.json(spec), (error: unknown) => {
    assert.ok(error instanceof TlsError);
    assert.ok(error instanceof NetworkError);
    assert.match(
      error.message,
      /^127\.0\.0\.1:\d+ answered the TLS handshake for filesystem\/x "\/iplant\/home\/shared" in plain HTTP: the server speaks http:\/\/, not https:\/\/\. Use http:\/\/127\.0\.0\.1:\d+\/terrain\.$/,
    );
    return true;
  });
  assert.equal(t.requests, 1);
  assert.equal(t.retries, 0);
});

Deno.test("Transport (injected fetch): a body longer than Content-Length is a NetworkError", async () => {
  // Deno's own HTTP stack stops reading at Content-Length, so only an injected fetch can deliver
  // the extra bytes this guard exists for.
  const t = transport("http://127.0.0.1:9/terrain", {
    fetch: () =>
      Promise.resolve(new Response("0123456789ABCDEF", { headers: { "content-length": "10" } })),
  });
  const { body, size } = await t.stream(spec);
  assert.equal(size, 10);
  await assert.rejects(new Response(body).arrayBuffer(), /more than the 10 bytes/);
  assert.equal(t.limiter.active, 0);
});

Deno.test("Transport (injected fetch): a JSON body longer than Content-Length is retried, then a NetworkError", async () => {
  let calls = 0;
  const t = transport("http://127.0.0.1:9/terrain", {
    retries: 1,
    fetch: () => {
      calls++;
      return Promise.resolve(
        new Response('{"ok":true}   ', { headers: { "content-length": "11" } }),
      );
    },
  });
  await assert.rejects(t.json(spec), /more than the 11 bytes .*gave up after 2 attempts/);
  assert.equal(calls, 2);
  assert.equal(t.limiter.active, 0);
});

Deno.test("Transport (double): abort before sending sends nothing", async () => {
  await using double = serveDouble(() => Response.json({}));
  const t = transport(double.url);
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(t.json({ ...spec, signal: controller.signal }), { name: "AbortError" });
  assert.equal(double.seen.length, 0);
});

Deno.test("Transport (double): abort while waiting for headers is not retried", async () => {
  const late = held();
  await using double = serveDouble(late.answer);
  // A timeout beyond the hang guard: only the abort can end the request.
  const t = transport(double.url, { timeoutMs: 2 * HANG_MS });
  const controller = new AbortController();
  const call = t.json({ ...spec, signal: controller.signal });
  try {
    await until(() => double.seen.length === 1, "the request reaching the double");
    controller.abort();
    await withDeadline(HANG_MS, "the aborted request", async () => {
      await assert.rejects(call, (error: unknown) => {
        assert.ok(error instanceof DOMException);
        assert.equal(error.name, "AbortError");
        return true;
      });
    });
  } finally {
    late.release();
  }
  assert.equal(double.seen.length, 1);
  assert.equal(t.retries, 0);
  assert.equal(t.limiter.active, 0);
});

Deno.test("Transport (double): abort during the backoff wait ends it at once", async () => {
  // A wait of 59 s, longer than the hang deadline: only the abort can end it before that.
  await using double = serveDouble(() =>
    new Response("", { status: 503, headers: { "retry-after": "59" } })
  );
  const t = transport(double.url);
  const controller = new AbortController();
  const call = t.json({ ...spec, signal: controller.signal });
  // The retry is counted just before its wait starts.
  await until(() => t.retries === 1, "the first retry's wait");
  controller.abort();
  await withDeadline(HANG_MS, "the aborted wait", async () => {
    await assert.rejects(call, { name: "AbortError" });
  });
  assert.equal(double.seen.length, 1);
});

Deno.test("Transport (double): abort while queued for a slot leaves the queue", async () => {
  await using double = serveDouble(() => new Response("body"));
  const t = transport(double.url, { concurrency: 1 });
  const holder = await t.stream(spec);
  const controller = new AbortController();
  const queued = t.json({ ...spec, signal: controller.signal });
  await until(() => t.limiter.pending === 1, "the request queued for the slot");
  controller.abort();
  await assert.rejects(queued, { name: "AbortError" });
  assert.equal(t.limiter.pending, 0);
  assert.equal(double.seen.length, 1, "the queued request was never sent");
  await holder.body.cancel();
  assert.equal(t.limiter.active, 0);
});

Deno.test("Transport (double): abort during a streamed body errors it and frees the slot", async () => {
  await using double = serveDouble(() => stallingResponse(5, 100));
  const t = transport(double.url, { concurrency: 1 });
  const controller = new AbortController();
  const { body } = await t.stream({ ...spec, signal: controller.signal });
  assert.equal(t.limiter.active, 1, "the slot is held while the body is open");
  const reader = body.getReader();
  assert.equal((await reader.read()).value?.length, 5);
  const pending = reader.read();
  controller.abort();
  await assert.rejects(pending, { name: "AbortError" });
  assert.equal(t.limiter.active, 0);
});

Deno.test("Transport (double): the transport-wide signal aborts every request", async () => {
  await using double = serveDouble(() => stallingResponse(1, 10));
  const closing = new AbortController();
  const t = transport(double.url, { signal: closing.signal });
  const call = new AbortController();
  const first = await t.stream(spec);
  const second = await t.stream({ ...spec, signal: call.signal });
  closing.abort();
  await assert.rejects(new Response(first.body).arrayBuffer(), { name: "AbortError" });
  await assert.rejects(new Response(second.body).arrayBuffer(), { name: "AbortError" });
  await assert.rejects(t.json(spec), { name: "AbortError" });
  assert.equal(t.limiter.active, 0);
});

Deno.test("Transport (double): never more than `concurrency` requests in flight", async () => {
  let inside = 0;
  let most = 0;
  // The double holds every answer until the gate opens: the first requests stay inside
  // together however slowly they arrive.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => open = resolve);
  await using double = serveDouble(async () => {
    inside++;
    most = Math.max(most, inside);
    await gate;
    inside--;
    return Response.json({ ok: true });
  });
  const t = transport(double.url, { concurrency: 3 });
  const calls = Promise.all(Array.from({ length: 12 }, () => t.json(spec)));
  try {
    await until(() => inside >= 3, "three requests at the double");
    assert.equal(t.limiter.pending, 9, "the rest wait for a slot, unsent");
  } finally {
    open();
    await calls;
  }
  assert.equal(double.seen.length, 12);
  assert.equal(most, 3);
  assert.equal(t.stats.peakInFlight, 3);
  assert.equal(t.stats.inFlight, 0);
});

Deno.test("Transport (double): an open download holds its slot until read or cancelled", async () => {
  await using double = serveDouble(() => new Response("0123456789"));
  const t = transport(double.url, { concurrency: 1 });
  const first = await t.stream(spec);
  let secondStarted = false;
  const second = t.stream(spec).then((answer) => {
    secondStarted = true;
    return answer;
  });
  // Either the second queues for the slot, or (a slot freed too early) it starts.
  await until(() => t.limiter.pending === 1 || secondStarted, "the second request");
  assert.equal(secondStarted, false, "the second request waits for the first body");
  assert.equal(t.limiter.pending, 1);
  assert.equal(double.seen.length, 1);
  assert.equal(
    new TextDecoder().decode(await new Response(first.body).arrayBuffer()),
    "0123456789",
  );
  const answer = await second;
  assert.equal(answer.size, 10);
  await answer.body.cancel();
  assert.equal(t.limiter.active, 0);
});

Deno.test("Transport: a small body's failures are typed errors in its body, and free its slot", async (t) => {
  await t.step("short: a NetworkError", async () => {
    // Deno's HTTP stack reports a short body as a broken connection (the last step): only an
    // injected fetch ends one early without an error.
    const client = transport("http://127.0.0.1:9/terrain", {
      fetch: () => Promise.resolve(new Response("abc", { headers: { "content-length": "12" } })),
    });
    const { body, size } = await client.stream(spec);
    assert.equal(size, 12);
    await assert.rejects(new Response(body).arrayBuffer(), (error: unknown) => {
      assert.ok(error instanceof NetworkError);
      assert.match(error.message, /closed the body of "\/iplant\/home\/shared".*3 of 12 bytes/);
      return true;
    });
    assert.equal(client.limiter.active, 0);
  });
  await t.step("aborted while read: an AbortError, never the bytes", async () => {
    await using double = serveDouble(() => stallingResponse(5, 100));
    // An idle time beyond the hang guard: only the abort can end the read.
    const client = transport(double.url, { concurrency: 1, idleTimeoutMs: 2 * HANG_MS });
    const controller = new AbortController();
    const answer = client.stream({ ...spec, signal: controller.signal });
    await until(() => double.seen.length === 1, "the request at the double");
    controller.abort();
    await withDeadline(HANG_MS, "the aborted read", async () => {
      await assert.rejects(
        answer.then(({ body }) => new Response(body).arrayBuffer()),
        { name: "AbortError" },
      );
    });
    assert.equal(client.limiter.active, 0);
  });
  await t.step("connection broken: a NetworkError naming the file, others exact", async () => {
    await using served = await serveStore({ dropRate: 0.5, seed: 3 });
    const client = transport(served.url);
    let dropped = 0;
    for (let attempt = 0; attempt < 12; attempt++) {
      const file = await download(client, PATHS.publicCsv);
      try {
        assert.equal(await new Response(file.body).text(), TABLE_CSV);
      } catch (error) {
        assert.ok(error instanceof NetworkError, String(error));
        assert.equal(error.path, PATHS.publicCsv);
        dropped++;
      }
    }
    assert.ok(dropped > 0 && dropped < 12, `dropped ${dropped}`);
    assert.equal(dropped, served.server.stats().bodiesDropped);
    assert.equal(client.limiter.active, 0);
  });
});

Deno.test("Transport (double): secrets never appear in errors, even when a server echoes them", async () => {
  const token = "header.payload.signature-very-secret";
  await using double = serveDouble((request) =>
    Response.json({
      error_code: "ERR_UNCHECKED_EXCEPTION",
      reason: `bad header ${request.headers.get("authorization")}`,
    }, { status: 500 })
  );
  const t = transport(double.url, { token });
  const error = await t.json(spec).catch((caught) => caught);
  assert.ok(error instanceof ServerError);
  assert.match(error.message, /bad header Bearer \[redacted\]/);
  for (
    const text of [error.message, error.stack ?? "", JSON.stringify(error), Deno.inspect(error)]
  ) {
    assert.ok(!text.includes(token), text);
  }
});

Deno.test("Transport: Deno.inspect, JSON and String show no credentials", () => {
  const password = "correct horse battery staple";
  const token = "tok.en.secret";
  const withPassword = new Transport({
    url: "http://127.0.0.1:1/terrain",
    username: "demo",
    password,
  });
  const withToken = new Transport({ url: "http://127.0.0.1:1/terrain", token });
  for (const t of [withPassword, withToken]) {
    for (const text of [Deno.inspect(t), JSON.stringify(t), String(t), Deno.inspect({ t })]) {
      assert.ok(!text.includes(password) && !text.includes(token), text);
      assert.match(text, /\[redacted\]/);
    }
  }
  assert.match(Deno.inspect(withPassword), /username: "demo"/);
  assert.equal(withPassword.authMode, "password");
  assert.equal(withToken.anonymous, false);
});

Deno.test("Transport: rejects unusable options with clear errors", () => {
  const url = "http://127.0.0.1:1/terrain";
  assert.throws(() => new Transport({ url: "" }), /url is required/);
  assert.throws(() => new Transport({ url: "ftp://x/terrain" }), /http:\/\/ or https:\/\//);
  assert.throws(() => new Transport({ url: "not a url" }), BadRequestError);
  assert.throws(
    () => new Transport({ url: "http://demo:s3cret@127.0.0.1/terrain" }),
    (error: unknown) => error instanceof BadRequestError && !error.message.includes("s3cret"),
  );
  assert.throws(() => new Transport({ url, token: "a.b.c", username: "demo" }), /either token/);
  assert.throws(() => new Transport({ url, username: "demo" }), /without password/);
  assert.throws(() => new Transport({ url, password: "pw" }), /without username/);
  assert.throws(() => new Transport({ url, token: " " }), AuthError);
  const t = new Transport({ url: "https://de.cyverse.org/terrain/" });
  assert.equal(t.url, "https://de.cyverse.org/terrain");
  assert.deepEqual(t.policy, {
    concurrency: 4,
    retries: 4,
    timeoutMs: 30_000,
    idleTimeoutMs: 60_000,
    retryBaseMs: 250,
    retryMaxMs: 10_000,
    maxJsonBytes: 64 * 1024 * 1024,
  });
  assert.ok(Object.isFrozen(t.policy));
});

// Against the embedded server's traffic shaping.

Deno.test("Transport (server): under failRate every answer is right and every fault retried", async () => {
  await using served = await serveStore({ failRate: 0.3, seed: 7 });
  await using clean = await serveStore();
  const expected = await getPagedDirectory(new Transport({ url: clean.url }), {
    path: PATHS.many,
    limit: 10,
  });
  const t = transport(served.url, { retries: 8 });
  const pages = await Promise.all(
    Array.from({ length: 40 }, () => getPagedDirectory(t, { path: PATHS.many, limit: 10 })),
  );
  const labels = (page: typeof expected) => [...page.folders, ...page.files].map((e) => e.label);
  for (const page of pages) assert.deepEqual(labels(page), labels(expected));
  const { faultsInjected } = served.server.stats();
  assert.ok(faultsInjected > 0, "the server injected faults");
  assert.equal(t.retries, faultsInjected, "each injected fault cost exactly one retry");
  assert.equal(t.requests, 40 + faultsInjected);
});

Deno.test("Transport (server): dropped download bodies fail as NetworkError, others are exact", async () => {
  await using served = await serveStore({ dropRate: 0.5, seed: 3 });
  const t = transport(served.url);
  const original = bigBytes();
  let dropped = 0;
  let complete = 0;
  for (let attempt = 0; attempt < 12; attempt++) {
    const file = await download(t, PATHS.publicBig);
    try {
      const bytes = new Uint8Array(await new Response(file.body).arrayBuffer());
      assert.deepEqual(bytes, original);
      complete++;
    } catch (error) {
      assert.ok(error instanceof NetworkError, String(error));
      assert.equal(error.path, PATHS.publicBig);
      dropped++;
    }
  }
  assert.ok(dropped > 0 && complete > 0, `dropped ${dropped}, complete ${complete}`);
  assert.equal(dropped, served.server.stats().bodiesDropped);
  assert.equal(t.limiter.active, 0);
});

Deno.test("Transport (server): latency beyond timeoutMs is a NetworkError after the retries", async () => {
  await using served = await serveStore({ latencyMs: 500 });
  const t = transport(served.url, { timeoutMs: 100, retries: 1 });
  // An ignored timeout would get the answer (500 ms later) instead of the error: the client's
  // timer starts first and is shorter, so it fires first however busy the machine.
  await assert.rejects(
    getPagedDirectory(t, { path: PATHS.public, limit: 5 }),
    (error: unknown) => {
      assert.ok(error instanceof NetworkError);
      assert.match(error.message, /within 100 ms \(gave up after 2 attempts\)/);
      return true;
    },
  );
  assert.equal(served.server.stats().requests, 2);
  // The default timeout (30 s) waits the latency out.
  const patient = transport(served.url);
  assert.equal(
    (await getPagedDirectory(patient, { path: PATHS.public, limit: 5 })).path,
    PATHS.public,
  );
});

Deno.test("Transport (server): abort before and in the middle of a throttled download", async () => {
  await using served = await serveStore({ bandwidth: 64 * 1024 });
  const t = transport(served.url, { concurrency: 1 });
  const early = new AbortController();
  const unread = await download(t, PATHS.publicBig, { signal: early.signal });
  early.abort();
  assert.equal(t.limiter.active, 0, "aborting an unread body frees the slot");
  await assert.rejects(new Response(unread.body).arrayBuffer(), { name: "AbortError" });

  const controller = new AbortController();
  const file = await download(t, PATHS.publicBig, { signal: controller.signal });
  const reader = file.body.getReader();
  const first = await reader.read();
  assert.ok(first.value !== undefined && first.value.length > 0);
  controller.abort();
  // Not aborted, the next read would bring the next throttled piece.
  await assert.rejects(reader.read(), { name: "AbortError" });
  assert.equal(t.limiter.active, 0, "the slot is free again");
  // The freed slot serves the next request at once.
  assert.equal((await getManifest(t, PATHS.publicCsv)).infoType, "csv");
});

Deno.test("Transport (server): never more than `concurrency` requests reach the server at once", async () => {
  await using served = await serveStore({ latencyMs: 30 });
  let open = 0;
  let most = 0;
  const counting: typeof fetch = async (input, init) => {
    open++;
    most = Math.max(most, open);
    try {
      const response = await fetch(input, init);
      await response.clone().arrayBuffer(); // the slot covers the body too
      return response;
    } finally {
      open--;
    }
  };
  const t = transport(served.url, { concurrency: 2, fetch: counting });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, () => getPagedDirectory(t, { path: PATHS.public, limit: 5 })),
  );
  assert.equal(most, 2);
  assert.equal(t.stats.peakInFlight, 2);
  // Ten 30 ms answers two at a time take at least five rounds.
  assert.ok(performance.now() - started >= 140);
  assert.equal(served.server.stats().requests, 10);
});

Deno.test("Transport (server): a 400 from the server is a BadRequestError naming the parameter", async () => {
  await using served = await serveStore();
  const t = transport(served.url);
  await assert.rejects(
    t.json({
      path: "/filesystem/paged-directory",
      query: { path: PATHS.public },
      endpoint: "filesystem/paged-directory",
      subject: PATHS.public,
    }),
    (error: unknown) => {
      assert.ok(error instanceof BadRequestError);
      assert.equal(error.status, 400);
      assert.equal(error.code, "ERR_ILLEGAL_ARGUMENT");
      assert.match(error.message, /limit: missing-required-key/);
      return true;
    },
  );
  assert.equal(t.retries, 0);
});

Deno.test("Transport: a password in the URL never appears in an error, valid URL or not (issue 12)", () => {
  const urls = [
    "http://demo:hunter2@127.0.0.1:99999/terrain", // invalid port
    "http://demo:hunter2@[::1/terrain", // unparsable
    "  http://demo:hunter2@127.0.0.1:8080/terrain", // valid, with userinfo
    "http:demo:hunter2@127.0.0.1/terrain", // no slashes
    "http://demo:hun@ter2@127.0.0.1/terrain", // "@" in the password
    "http://hunter2@127.0.0.1/terrain", // a token as the username
    "ftp://demo:hunter2@127.0.0.1/terrain",
    "http://demo:hunter2@127.0.0.1/terrain?access_token=hunter2",
    "http://127.0.0.1/terrain?access_token=hunter2",
  ];
  for (const url of urls) {
    for (const make of [() => new Transport({ url }), () => connect({ url, cacheDir: false })]) {
      assert.throws(make, (error: unknown) => {
        assert.ok(error instanceof BadRequestError, `${url}: ${error}`);
        const shown = [
          error.message,
          error.stack ?? "",
          JSON.stringify(error),
          Deno.inspect(error),
          String(error),
          ...Object.values(error[JUPYTER_DISPLAY]()),
        ].join("\n");
        assert.ok(!/hun.?ter2/.test(shown), `${url} leaked in: ${error.message}`);
        // The redacted URL is shown, so the user sees which value was refused.
        if (url.includes("@")) assert.match(error.message, /\*\*\*@/, url);
        return true;
      });
    }
  }
});

/** A listing that never ends (until `limit` bytes, so that a client without a cap finishes). */
function endlessListing(limit: number): { response: () => Response; sent: () => number } {
  const entry = `{"id":"x","path":"/iplant/home/shared/${"a".repeat(200)}"},`;
  const piece = new TextEncoder().encode(entry.repeat(Math.ceil(65536 / entry.length)));
  let sent = 0;
  return {
    sent: () => sent,
    response: () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"total":1,"files":['));
          },
          pull(controller) {
            if (sent >= limit) return controller.close();
            // About 64 KiB per pull: the server makes bytes only as fast as the client takes them.
            controller.enqueue(piece);
            sent += piece.byteLength;
          },
        }, { highWaterMark: 0 }),
        { headers: { "content-type": "application/json" } },
      ),
  };
}

Deno.test("Transport (double): an endless JSON answer stops at maxJsonBytes with a typed error (issue 12)", async () => {
  const hostile = endlessListing(400 * 1024 * 1024);
  await using double = serveDouble(hostile.response);
  const t = transport(double.url);
  await assert.rejects(t.json(spec), (error: unknown) => {
    assert.ok(error instanceof ResponseTooLargeError, String(error));
    assert.equal(error.endpoint, "filesystem/x");
    assert.match(error.message, /filesystem\/x answered with more than 67108864 bytes of JSON/);
    return true;
  });
  // Reading stopped at the cap (plus what was in flight): not the 400 MB the server had. The
  // client holds no more than it read, so this bounds its memory too (the process's RSS,
  // shared by every test running beside this one, would say nothing of it).
  assert.ok(hostile.sent() < 80 * 1024 * 1024, `${hostile.sent()} bytes were sent`);
  assert.equal(double.seen.length, 1, "not retried");
  assert.equal(t.stats.inFlight, 0, "the slot came back");
});

Deno.test("Transport (double): maxJsonBytes is an option; an announced length past it reads nothing (issue 12)", async () => {
  const big = JSON.stringify({
    files: Array.from({ length: 2000 }, (_, i) => ({ id: String(i) })),
  });
  await using double = serveDouble(() =>
    new Response(big, { headers: { "content-type": "application/json" } })
  );
  await assert.rejects(
    transport(double.url, { maxJsonBytes: 1000 }).json(spec),
    ResponseTooLargeError,
  );
  assert.deepEqual(
    Object.keys(await transport(double.url, { maxJsonBytes: big.length }).json(spec) as object),
    ["files"],
  );
  assert.throws(
    () => connect({ url: double.url, maxJsonBytes: 0 }),
    { message: "connect(): maxJsonBytes must be an integer ≥ 1, got 0." },
  );
  // Through connect(): a listing page larger than the cap names its endpoint.
  const store = connect({ url: double.url, anonymous: true, cacheDir: false, maxJsonBytes: 1000 });
  await assert.rejects(store.folder("/iplant/home/shared").stat(), (error: unknown) => {
    assert.ok(error instanceof ResponseTooLargeError, String(error));
    assert.ok(error.endpoint !== undefined && error.message.startsWith(error.endpoint));
    return true;
  });
});

Deno.test("a request too large is a RequestTooLargeError, whether the server answers 431 or fetch cannot send it", async () => {
  await using served = await serveStore();
  const transport = new Transport({ url: served.url, retries: 2, retryBaseMs: 1 });
  // Short enough for fetch, longer than the server's 64 KiB request head: the server says 431.
  const long = `/iplant/home/shared/${"a".repeat(65_400)}`;
  const answered = await getManifest(transport, long).catch((error) => error);
  assert.ok(answered instanceof RequestTooLargeError, String(answered));
  assert.ok(answered instanceof BadRequestError);
  assert.equal(answered.status, 431);
  assert.match(answered.message, /too large/);
  assert.ok(answered.message.length < 600, "the path is quoted, not echoed whole");
  assert.equal(transport.stats.requests, 1, "not retried");
  // Longer than any URL fetch sends: refused before sending, not "Could not reach".
  const longer = `/iplant/home/shared/${"é".repeat(35_000)}`;
  const unsent = await getManifest(transport, longer).catch((error) => error);
  assert.ok(unsent instanceof RequestTooLargeError, String(unsent));
  assert.match(unsent.message, /was not sent/);
  assert.ok(unsent.message.length < 600);
  assert.equal(transport.stats.requests, 1, "nothing sent");
});

Deno.test("Transport (double): a redirect to another origin carries no Authorization; the same origin keeps it (issue 29)", async (t) => {
  // Where redirects lead: answers like Terrain (a token grant, or a JSON body) and records.
  await using away = serveCapture(() =>
    Response.json({ ok: true, access_token: "away.token.value", expires_in: 300 })
  );
  let origin = "";
  await using terrain = serveDouble((request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/terrain/final") return Response.json({ ok: true });
    if (pathname === "/terrain/same") return Response.redirect(`${origin}/terrain/final`, 302);
    // Another origin on the same server: the host name alone differs.
    if (pathname === "/terrain/alias") {
      return Response.redirect(`${origin.replace("127.0.0.1", "localhost")}/terrain/final`, 307);
    }
    return Response.redirect(`${new URL(away.url).origin}${pathname}`, 302);
  });
  origin = new URL(terrain.url).origin;
  const get = (t: Transport, path: string) => t.json({ path, endpoint: path.slice(1) });
  const authorizationAt = (path: string) =>
    terrain.seen.filter((seen) => seen.url.pathname === path)
      .map((seen) => seen.headers.get("authorization"));

  await t.step("a token", async () => {
    const token = transport(terrain.url, { token: "static.token.value-Secret" });
    assert.deepEqual(await get(token, "/away"), {
      ok: true,
      access_token: "away.token.value",
      expires_in: 300,
    });
    assert.deepEqual(authorizationAt("/terrain/away"), ["Bearer static.token.value-Secret"]);
    assert.deepEqual(away.requests.map((request) => request.path), ["/terrain/away"]);
    assert.deepEqual(away.authorizations(), []);

    await get(token, "/same");
    assert.deepEqual(authorizationAt("/terrain/final"), ["Bearer static.token.value-Secret"]);
    await get(token, "/alias");
    assert.deepEqual(authorizationAt("/terrain/final"), ["Bearer static.token.value-Secret", null]);
  });

  await t.step("a password: the Basic header never follows the token route away", async () => {
    away.clear();
    const password = transport(terrain.url, { username: "demo", password: "pw-Secret" });
    await get(password, "/data");
    assert.deepEqual(authorizationAt("/terrain/token/keycloak"), [
      `Basic ${btoa("demo:pw-Secret")}`,
    ]);
    assert.deepEqual(away.requests.map((request) => request.path), [
      "/terrain/token/keycloak",
      "/terrain/data",
    ]);
    assert.deepEqual(away.authorizations(), []);
  });
});
