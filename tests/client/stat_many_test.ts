import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { STAT_BATCH, statItems } from "../../lib/client/endpoints.ts";
import {
  BadRequestError,
  NotFoundError,
  PermissionError,
  ProtocolError,
  RequestTooLargeError,
  SignInRequiredError,
} from "../../lib/client/errors.ts";
import { statPaths } from "../../lib/client/stat_many.ts";
import { Transport } from "../../lib/client/transport.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { connect } from "../../mod.ts";
import { serveDouble } from "./_double.ts";
import { DEMO, generatedName, PAGED_FILES, PATHS, serve, TABLE_CSV } from "../handles/_store.ts";

const md5 = (text: string) => `md5:${createHash("md5").update(text).digest("hex")}`;

Deno.test("statItems: files with the store's checksum and folders, by path and by id, on both routes", async () => {
  await using served = await serve();
  const anonymous = new Transport({ url: served.url });
  const demo = new Transport({ url: served.url, token: DEMO.token });
  const answer = await statItems(anonymous, { paths: [PATHS.table, PATHS.public] });
  const table = answer.paths[PATHS.table];
  assert.ok(table.type === "file");
  assert.equal(`md5:${table.md5}`, md5(TABLE_CSV));
  assert.equal(table["file-size"], TABLE_CSV.length);
  assert.equal(answer.paths[PATHS.public].type, "dir");
  assert.equal(anonymous.requests, 1);
  const byId = await statItems(demo, { ids: [table.id], paths: [PATHS.notes] });
  assert.deepEqual(byId.ids[table.id], table);
  assert.equal(byId.paths[PATHS.notes].permission, "own");
  assert.deepEqual(await statItems(demo, {}), { paths: {}, ids: {} });
});

Deno.test("statItems: every stat error is typed, naming every item the server named", async (t) => {
  await using served = await serve();
  const anonymous = new Transport({ url: served.url });
  const demo = new Transport({ url: served.url, token: DEMO.token, retries: 0 });
  const missing = [`${PATHS.public}/none.csv`, `${PATHS.public}/gone.csv`];

  await t.step("missing paths and ids: NotFoundError", async () => {
    await assert.rejects(statItems(demo, { paths: [PATHS.table, ...missing] }), (error) => {
      assert.ok(error instanceof NotFoundError, String(error));
      assert.equal(error.code, "ERR_DOES_NOT_EXIST");
      assert.deepEqual(error.items, missing);
      assert.equal(error.path, missing[0]);
      assert.match(
        error.message,
        /"\/iplant\/home\/shared\/public\/none\.csv" \(and 1 more\) do not exist/,
      );
      return true;
    });
    const id = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";
    await assert.rejects(statItems(demo, { ids: [id] }), (error) => {
      assert.ok(error instanceof NotFoundError);
      assert.deepEqual(error.items, [id]);
      return true;
    });
  });

  await t.step("unreadable: PermissionError naming the paths and the user", async () => {
    await assert.rejects(statItems(demo, { paths: [PATHS.alicePrivate, PATHS.table] }), (error) => {
      assert.ok(error instanceof PermissionError, String(error));
      assert.deepEqual(error.items, [PATHS.alicePrivate]);
      assert.match(error.message, /User "demo" is not allowed to read/);
      return true;
    });
  });

  await t.step("anonymous by id or outside the community: SignInRequiredError", async () => {
    const id = (await statItems(anonymous, { paths: [PATHS.table] })).paths[PATHS.table].id;
    await assert.rejects(statItems(anonymous, { ids: [id] }), SignInRequiredError);
    await assert.rejects(statItems(anonymous, { paths: [PATHS.notes] }), SignInRequiredError);
  });

  await t.step(
    "more than 1,000 items: refused before sending, and typed from the server",
    async () => {
      const before = demo.requests;
      await assert.rejects(
        statItems(demo, { paths: Array(STAT_BATCH + 1).fill(PATHS.table) }),
        (error) =>
          error instanceof BadRequestError &&
          /at most 1000 items at once, got 1001/.test(error.message),
      );
      assert.equal(demo.requests, before, "nothing sent");
      // A server asked for more anyway answers ERR_TOO_MANY_RESULTS.
      await assert.rejects(
        demo.json({
          path: "/secured/filesystem/stat",
          endpoint: "filesystem/stat",
          json: { paths: Array(1001).fill(PATHS.table) },
        }),
        (error) => {
          assert.ok(error instanceof RequestTooLargeError, String(error));
          assert.equal(error.code, "ERR_TOO_MANY_RESULTS");
          assert.match(error.message, /at most 1000 items at once and was asked for 1001/);
          return true;
        },
      );
    },
  );

  await t.step("bad arguments: BadRequestError before sending", async () => {
    const before = demo.requests;
    await assert.rejects(statItems(demo, { paths: ["relative/a.csv"] }), BadRequestError);
    await assert.rejects(statItems(demo, { ids: ["not-an-id"] }), BadRequestError);
    await assert.rejects(statItems(demo, { paths: "/a" as never }), BadRequestError);
    assert.equal(demo.requests, before);
  });

  await t.step("a malformed answer: ProtocolError naming the field (test double)", async () => {
    await using double = serveDouble(() =>
      Response.json({ paths: { "/a": { type: "file", path: "/a", md5: 5 } }, ids: {} })
    );
    await assert.rejects(
      statItems(new Transport({ url: double.url }), { paths: ["/a"] }),
      (error) => error instanceof ProtocolError && /at "paths\.\/a\.id"/.test(error.message),
    );
  });
});

Deno.test("statPaths splits more than 1,000 paths into batches, several in flight, and sets missing and unreadable paths aside", async () => {
  await using served = await serve();
  const sent: { paths: string[] }[] = [];
  let running = 0;
  let most = 0;
  let secondSent = () => {};
  const second = new Promise<void>((resolve) => secondSent = resolve);
  // A counting fetch: every stat request, with the paths it carried. The first one waits for a
  // second to be sent (a generous watchdog ends the wait if none comes), so requests in flight
  // together are seen whatever the timing.
  const counting: typeof fetch = async (input, init) => {
    most = Math.max(most, ++running);
    try {
      if (init?.method === "POST") {
        sent.push(JSON.parse(String(init.body)));
        if (sent.length === 2) secondSent();
        if (sent.length === 1) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([
            second,
            new Promise((resolve) => timer = setTimeout(resolve, 30_000)),
          ]);
          clearTimeout(timer);
        }
      }
      return await fetch(input, init);
    } finally {
      running--;
    }
  };
  const store = connect({
    url: served.url,
    token: DEMO.token,
    fetch: counting,
    cacheDir: false,
    progress: false,
  });
  const { transport } = store[STORE_CONTEXT];
  const paths = Array.from({ length: PAGED_FILES }, (_, i) => `${PATHS.paged}/${generatedName(i)}`);

  const all = await statPaths(transport, [...paths, paths[0]]);
  assert.equal(all.entries.size, PAGED_FILES);
  assert.ok([...all.entries.values()].every((entry) => /^md5:[0-9a-f]{32}$/.test(entry.checksum!)));
  assert.deepEqual(sent.map((request) => request.paths.length).sort(), [1000, 1000, 345]);
  assert.deepEqual(new Set(sent.flatMap((request) => request.paths)), new Set(paths));
  assert.ok(most > 1 && most <= transport.policy.concurrency, `${most} requests at once`);

  // Missing and unreadable paths: their batch is asked again without them (three requests).
  sent.length = 0;
  const gone = `${PATHS.paged}/gone.txt`;
  const mixed = await statPaths(transport, [PATHS.table, gone, PATHS.alicePrivate, PATHS.notes]);
  assert.deepEqual([...mixed.entries.keys()], [PATHS.table, PATHS.notes]);
  assert.deepEqual(mixed.missing, [gone]);
  assert.deepEqual(mixed.unreadable, [PATHS.alicePrivate]);
  assert.deepEqual(sent.map((request) => request.paths.length), [4, 3, 2]);
  assert.equal(store.stats.inFlight, 0);
});
