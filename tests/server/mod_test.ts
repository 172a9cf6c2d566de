import assert from "node:assert/strict";
import { ServerOptionsError, startServer } from "../../server.ts";
import { get, makeStore, standardTree } from "./_store.ts";

Deno.test("startServer rejects each bad option with a typed error naming it", async () => {
  await using store = await makeStore({});
  const cases: [Record<string, unknown>, string][] = [
    [{ port: -1 }, "port"],
    [{ port: 1.5 }, "port"],
    [{ port: 70000 }, "port"],
    [{ zone: "../x" }, "zone"],
    [{ zone: "" }, "zone"],
    [{ hostname: "" }, "hostname"],
    [{ latencyMs: -5 }, "latencyMs"],
    [{ bandwidth: Number.NaN }, "bandwidth"],
    [{ failRate: 1.5 }, "failRate"],
    [{ dropRate: -0.1 }, "dropRate"],
    [{ seed: 1.5 }, "seed"],
    [{ tokenLifetimeSeconds: 0 }, "tokenLifetimeSeconds"],
    [{ quiet: "yes" }, "quiet"],
    [{ clock: 1_700_000_000_000 }, "clock"],
    [{ maxConnections: 0 }, "maxConnections"],
    [{ idleTimeoutMs: 0 }, "idleTimeoutMs"],
    [{ headersTimeoutMs: 1.5 }, "headersTimeoutMs"],
    [{ sendTimeoutMs: -1 }, "sendTimeoutMs"],
    [{ maxLongAnswers: 0 }, "maxLongAnswers"],
    [{ maxLongAnswers: 2.5 }, "maxLongAnswers"],
  ];
  for (const [extra, option] of cases) {
    await assert.rejects(
      startServer({ root: store.root, quiet: true, ...extra } as never),
      (error: unknown) => error instanceof ServerOptionsError && error.option === option,
      JSON.stringify(extra),
    );
  }
});

Deno.test("startServer refuses a missing root, a file root and a malformed users.json", async () => {
  await using store = await makeStore({
    "file.txt": "x",
    "bad/.terrain/users.json": "{",
  });
  await assert.rejects(startServer({ root: `${store.root}/nope` }), /names no folder/);
  await assert.rejects(startServer({ root: `${store.root}/file.txt` }), /is not a folder/);
  await assert.rejects(
    startServer({ root: `${store.root}/bad`, quiet: true }),
    (error: unknown) =>
      error instanceof ServerOptionsError && /malformed \.terrain\/users\.json/.test(error.message),
  );
});

Deno.test("startServer serves another zone and reports its URL", async () => {
  await using store = await makeStore({ "tempZone/home/shared/a.txt": "hi" });
  await using server = await startServer({ root: store.root, zone: "tempZone", quiet: true });
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
  const { json } = await get(
    `${server.url}/filesystem/paged-directory?path=/tempZone/home/shared&limit=5`,
  );
  assert.equal(json.files[0].path, "/tempZone/home/shared/a.txt");
  const other = await get(
    `${server.url}/filesystem/paged-directory?path=/iplant/home/shared&limit=5`,
  );
  assert.equal(other.status, 401, "not under this zone's community folder");
});

Deno.test("close() is idempotent and stops the listener; asyncDispose closes too", async () => {
  await using store = await makeStore(standardTree());
  const server = await startServer({ root: store.root, quiet: true });
  const url = server.url;
  assert.equal((await get(`${url}/`)).status, 200);
  await Promise.all([server.close(), server.close()]);
  await server.close();
  await assert.rejects(fetch(`${url}/`));
  {
    await using disposable = await startServer({ root: store.root, quiet: true });
    assert.equal((await get(`${disposable.url}/`)).status, 200);
  }
  assert.deepEqual(Object.keys(server.stats()), [
    "requests",
    "faultsInjected",
    "bodiesDropped",
    "bytesSent",
  ]);
});

Deno.test("a port already in use is a clear error", async () => {
  await using store = await makeStore({});
  await using first = await startServer({ root: store.root, quiet: true });
  const port = Number(new URL(first.url).port);
  await assert.rejects(
    startServer({ root: store.root, port, quiet: true }),
    /cannot listen on 127\.0\.0\.1:\d+/,
  );
});
