/**
 * A remote scan's range reads go through the store's transport (issue 29 item 3, issue 30 item
 * 2): its timeout, retries, signal and closing. Each case stalls or fails a `dav-anon` front end
 * after `scan()` has read the footer, so that only `collect()` meets it.
 *
 * @module
 */

import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { BadRequestError, connect, NetworkError, Store } from "../../mod.ts";
import { Transport } from "../../lib/client/transport.ts";
import { isAbortError } from "../../lib/client/errors.ts";
import { SAMPLE_CASES } from "../../lib/sample/catalog.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { withDeadline } from "../reliability/_fixtures.ts";
import { dataStore } from "./_store.ts";
import { frontProxy, stallingProxy } from "./_proxy.ts";

const FLIGHTS = SAMPLE_CASES.parquetLarge;
/** Far above any bound these cases have: it only turns a hang into a failure. */
const WATCHDOG_MS = 60_000;

Deno.test("scan: a range server that stops answering fails collect() with the transport's timeout, not a hang", async () => {
  // Older code: collect() stayed pending for ever (no timeout on the proxy's global fetch).
  await using served = await dataStore("sample");
  await using proxy = stallingProxy(served.url);
  // The transport's timeouts run on a clock the test steps: each held read times out when the
  // proxy holds it, not 5 s later, and the stat before the stall never times out however busy
  // the machine is.
  const armed = new Set<() => void>();
  const timer = (run: () => void) => {
    armed.add(run);
    return () => armed.delete(run);
  };
  const transport = new Transport({
    url: proxy.url,
    timeoutMs: 5_000,
    retries: 1,
    retryBaseMs: 1,
    timer,
  });
  await using store = new Store(transport, {
    url: transport.url,
    auth: "anonymous",
    credentialsFrom: "none",
    ...transport.policy,
    cacheDir: served.cacheDir,
  });
  const lazy = await store.file(FLIGHTS).scan();
  proxy.stalling = true;
  let settled = false;
  const collected = lazy.select("origin").head(1000).collect().then(
    () => undefined,
    (error) => error,
  ).finally(() => settled = true);
  // Each read the proxy holds has its timeout stepped past; the retry is held in turn.
  const stepping = (async () => {
    while (!settled) {
      await Promise.race([proxy.nextHeld(), collected]);
      for (const run of [...armed]) {
        armed.delete(run);
        run();
      }
    }
  })();
  const outcome = await withDeadline(WATCHDOG_MS, "collect() of a stalled scan", () => collected);
  await stepping;
  assert.ok(outcome instanceof NetworkError, String(outcome));
  assert.match(
    outcome.message,
    /^No answer from 127\.0\.0\.1:\d+ for dav-anon ".*flights_3m\.parquet" within 5 s \(gave up after 2 attempts\)\.$/,
  );
  // The range read that failed was tried twice (retries: 1, as the message says). How many
  // others Polars had sent, and how far their retries got before collect() gave up, is timing.
  assert.ok(proxy.held >= 2 && store.stats.retries >= 1, `${proxy.held} held`);
});

Deno.test("scan: a range read answered 503 is retried by the transport with the same If-Match", async () => {
  // Older code: the 503 reached Polars as an IntegrityError ("status 503 instead of 206").
  await using served = await dataStore("sample");
  const validators: (string | null)[] = [];
  let failing = 0;
  await using proxy = frontProxy(served.url, {
    async answer(request, answer) {
      if (!request.headers.has("range")) return undefined;
      validators.push(request.headers.get("if-match"));
      if (failing === 0) return undefined;
      failing--;
      await answer.body?.cancel();
      return new Response("busy\n", { status: 503 });
    },
  });
  await using store = connect({
    url: proxy.url,
    anonymous: true,
    cacheDir: served.cacheDir,
    retries: 2,
    retryBaseMs: 1,
  });
  const lazy = await store.file(FLIGHTS).scan();
  const before = validators.length;
  failing = 2;
  const frame = await lazy.select("origin").head(1000).collect();
  assert.equal(frame.height, 1000);
  assert.equal(failing, 0);
  assert.equal(store.stats.retries, 2);
  // Every range of collect(), retries included, asked for the version the footer was read from.
  const asked = validators.slice(before);
  assert.ok(asked.length >= 3, `${asked.length} range reads`);
  assert.equal(new Set(asked).size, 1);
  assert.match(asked[0] ?? "", /^"[^"]+"$/);
  const direct = await fetch((await store.file(FLIGHTS).manifest()).publicUrl!, { method: "HEAD" });
  assert.equal(asked[0], direct.headers.get("etag"));
});

Deno.test("scan: an aborted signal ends a pending collect() and every later one", async () => {
  // Older code: the signal governed scan() only; collect() stayed pending for ever.
  await using served = await dataStore("sample");
  await using proxy = stallingProxy(served.url);
  // A timeout far beyond the watchdog: only the abort can end the collect() in time.
  await using store = connect({
    url: proxy.url,
    anonymous: true,
    cacheDir: served.cacheDir,
    timeoutMs: 10 * WATCHDOG_MS,
  });
  const controller = new AbortController();
  const lazy = await store.file(FLIGHTS).scan({ signal: controller.signal });
  proxy.stalling = true;
  const held = proxy.nextHeld();
  const pending = lazy.select("origin").collect().then(() => undefined, (error) => error);
  await held;
  controller.abort();
  const outcome = await withDeadline(WATCHDOG_MS, "an aborted collect()", () => pending);
  assert.ok(isAbortError(outcome), String(outcome));
  await assert.rejects(() => lazy.select("origin").head(1).collect(), isAbortError);
  assert.equal(store.stats.inFlight, 0);
});

Deno.test("scan: a store closed mid-scan ends collect() and leaves no listener", async () => {
  // Older code: a store had no close(); the process-wide proxy waited for the garbage collector.
  await using served = await dataStore("sample");
  await using proxy = stallingProxy(served.url);
  const store = connect({
    url: proxy.url,
    anonymous: true,
    cacheDir: served.cacheDir,
    timeoutMs: 10 * WATCHDOG_MS,
  });
  const lazy = await store.file(FLIGHTS).scan();
  const port = store[STORE_CONTEXT].scans?.port;
  assert.ok(port !== undefined);
  proxy.stalling = true;
  const held = proxy.nextHeld();
  const pending = lazy.select("origin").collect().then(() => undefined, (error) => error);
  await held;
  await withDeadline(WATCHDOG_MS, "store.close() mid-scan", () => store.close());
  const outcome = await withDeadline(WATCHDOG_MS, "collect() of a closed store", () => pending);
  assert.ok(outcome instanceof BadRequestError, String(outcome));
  assert.match(outcome.message, /store was closed/);
  await assert.rejects(
    () => Deno.connect({ hostname: "127.0.0.1", port }),
    Deno.errors.ConnectionRefused,
  );
  await assert.rejects(() => lazy.collect(), BadRequestError);
  await assert.rejects(() => store.file(FLIGHTS).scan(), BadRequestError);
  // Reads that need no proxy still work.
  assert.equal((await store.folder(SAMPLE_CASES.formats).list().toArray()).length > 0, true);
  await store.close();
});

Deno.test("scan: with one request at a time, a query of many ranges completes through the limiter", async () => {
  await using served = await dataStore("sample");
  await using store = served.connect({ concurrency: 1 });
  const before = served.server.stats().requests;
  const lazy = await store.file(FLIGHTS).scan();
  const frame = await withDeadline(
    WATCHDOG_MS,
    "collect() at concurrency 1",
    () => lazy.filter(pl.col("origin").eq(pl.lit("SEA"))).collect(),
  );
  assert.ok(frame.height > 0);
  assert.equal(store.stats.peakInFlight, 1);
  // Every request the server saw was the transport's.
  assert.equal(store.stats.requests, served.server.stats().requests - before);
});
