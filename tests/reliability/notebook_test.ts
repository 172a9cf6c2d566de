/**
 * A notebook that never hangs and never dies: mixes of every kind of read on one store at
 * concurrency 1 and 2, aborts and early exits mid-body, all against the embedded server over
 * loopback. Every mix runs under a watchdog that only turns a hang into a failure (it asserts no
 * speed), and every test fails on an unhandled rejection, which kills a Jupyter kernel.
 *
 * @module
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import pl from "../../polars.ts";
import { BadRequestError, FileChangedError, search, type Store, TernError } from "../../mod.ts";
import { DATA, dataStore, generatedCsv } from "../data/_store.ts";
import { frontProxy } from "../data/_proxy.ts";
import { fullDiskAfter } from "../cache/_full_disk.ts";
import { filesBelow, report, tally, until, withDeadline } from "./_fixtures.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";

/** Far above what any mix takes on a busy machine: it only turns a hang into a failure. */
const DEADLINE_MS = 120_000;
const TABLES = `${DATA}/tables`;
const NAMES = ["a", "b", "c", "d"].map((name) => `${name}.csv`);
const BIG = `${DATA}/big.csv`;

/** The tables of the store: four small CSVs, one large one and a Parquet copy of `a`. */
async function tables(): Promise<Record<string, string | Uint8Array>> {
  const tree: Record<string, string | Uint8Array> = {};
  NAMES.forEach((name, i) => tree[`${TABLES}/${name}`] = generatedCsv(50 + 40 * i));
  tree[BIG] = generatedCsv(60_000);
  const parquet = await Deno.makeTempFile({ suffix: ".parquet" });
  try {
    pl.readCSV(tree[`${TABLES}/a.csv`] as string).writeParquet(parquet);
    tree[`${DATA}/a.parquet`] = await Deno.readFile(parquet);
  } finally {
    await Deno.remove(parquet);
  }
  return tree;
}

/**
 * Runs `body` with a listener for unhandled rejections, and fails if one came, even when
 * `body` passed: such a rejection kills a Deno Jupyter kernel.
 */
async function noUnhandled(body: () => Promise<void>): Promise<void> {
  const unhandled: unknown[] = [];
  const listener = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", listener);
  try {
    await body();
    // Rejections are reported after a turn of the event loop; give them a few.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    globalThis.removeEventListener("unhandledrejection", listener);
  }
  assert.deepEqual(unhandled.map(String), [], "no unhandled rejection");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every kind of read at once on `tern`; resolves with one label per read that settled. */
function mix(tern: Store, signal: AbortSignal): Promise<string>[] {
  const file = (name: string) => tern.file(`${TABLES}/${name}`);
  const reads: [string, () => Promise<unknown>][] = [
    ["dataframe", () => file("a.csv").dataframe({ signal })],
    ["bytes", () => file("b.csv").bytes({ signal })],
    ["head", () => file("c.csv").head(5, { signal })],
    ["batches slowly", async () => {
      let rows = 0;
      for await (const batch of tern.file(BIG).batches({ rows: 5_000, signal })) {
        rows += batch.height;
        await sleep(10);
      }
      assert.equal(rows, 60_000);
    }],
    ["walk dataframes", async () => {
      const frame = await tern.folder(TABLES).walk({ glob: "*.csv" }).dataframes({ signal });
      assert.equal(frame.height, 50 + 90 + 130 + 170);
    }],
    ["list paging", async () => {
      const names = (await tern.folder(TABLES).list({ pageSize: 1, signal }).toArray())
        .map((entry) => entry.name);
      assert.deepEqual(names, NAMES);
    }],
    ["metadata", () => file("d.csv").metadata({ signal })],
    ["search", async () => {
      const hits = await tern.search(search.under(`${TABLES}/`).name("*.csv"), { signal })
        .toArray();
      assert.equal(hits.length, 4);
    }],
    ["scan collect", async () => {
      const lazy = await tern.file(`${DATA}/a.parquet`).scan({ signal });
      assert.equal((await lazy.collect()).height, 50);
    }],
    ["cachedPath", () => file("d.csv").cachedPath({ signal })],
    ["lock", () => tern.provenance.lock({ signal })],
    ...Array.from({ length: 50 }, (_, i): [string, () => Promise<unknown>] => [
      `same file ${i}`,
      async () => assert.equal((await file("c.csv").dataframe({ signal })).height, 130),
    ]),
  ];
  return reads.map(async ([label, read]) => {
    await read();
    return label;
  });
}

for (const concurrency of [1, 2]) {
  Deno.test(`notebook: every kind of read at once at concurrency ${concurrency}, cold cache, settles with no slot held and no unhandled rejection`, async () => {
    await using store = await dataStore(await tables());
    await noUnhandled(async () => {
      const tern = store.connect({
        cacheDir: `${store.cacheDir}/${concurrency}`,
        concurrency,
        progress: false,
      });
      const settled = await withDeadline(
        DEADLINE_MS,
        `the mix at concurrency ${concurrency}`,
        (signal) => Promise.allSettled(mix(tern, signal)),
      );
      const failed = settled.flatMap((result) =>
        result.status === "rejected" ? [String(result.reason)] : []
      );
      assert.deepEqual(failed, []);
      assert.equal(tern.stats.inFlight, 0, "every request slot was given back");
      await tern.close();
    });
  });
}

/** Reads of the large file that each go through its body. */
const BODY_READS: [string, (tern: Store, signal: AbortSignal) => Promise<unknown>][] = [
  ["dataframe", (tern, signal) => tern.file(BIG).dataframe({ signal })],
  ["uncached dataframe", (tern, signal) => tern.file(BIG).dataframe({ signal, cache: false })],
  ["bytes", (tern, signal) => tern.file(BIG).bytes({ signal })],
  ["text", (tern, signal) => tern.file(BIG).text({ signal })],
  [
    "stream",
    async (tern, signal) => await new Response(await tern.file(BIG).stream({ signal })).bytes(),
  ],
  ["head", (tern, signal) => tern.file(BIG).head(59_000, { signal })],
  ["batches", async (tern, signal) => {
    for await (const _ of tern.file(BIG).batches({ rows: 1_000, signal })) { /* read on */ }
  }],
  ["cachedPath", (tern, signal) => tern.file(BIG).cachedPath({ signal })],
  ["downloadTo", async (tern, signal) => {
    const dir = await Deno.makeTempDir();
    try {
      await tern.file(BIG).downloadTo(`${dir}/big.csv`, { signal });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }],
  [
    "walk dataframes",
    (tern, signal) => tern.folder(DATA).walk({ glob: "big.csv" }).dataframes({ signal }),
  ],
];

Deno.test("notebook: aborting each kind of read mid-body ends it with an AbortError, no slot held, nothing open, no unhandled rejection", async () => {
  // A slow body: the abort lands while it is being sent.
  await using store = await dataStore(await tables(), { bandwidth: 200_000 });
  await noUnhandled(async () => {
    const tern = store.connect({ concurrency: 2, progress: false });
    for (const [label, read] of BODY_READS) {
      const controller = new AbortController();
      const before = store.server.stats().bytesSent;
      const reading = read(tern, controller.signal);
      reading.catch(() => {});
      await withDeadline(DEADLINE_MS, `${label}: the body starting`, async () => {
        while (store.server.stats().bytesSent < before + 50_000) await sleep(5);
      });
      controller.abort();
      const error = await withDeadline(
        DEADLINE_MS,
        `${label}: the abort`,
        () => reading.then(() => undefined, (error) => error),
      );
      assert.equal((error as Error)?.name, "AbortError", `${label}: ${error}`);
      await withDeadline(DEADLINE_MS, `${label}: slots given back`, async () => {
        while (tern.stats.inFlight > 0) await sleep(5);
      });
    }
  });
});

Deno.test("notebook: breaking out of batches() and list() mid-way holds no slot and leaves nothing open", async () => {
  await using store = await dataStore(await tables(), { bandwidth: 200_000 });
  await noUnhandled(async () => {
    // Without a cache batches() parses the body as it arrives: leaving must cancel it.
    const tern = store.connect({ cacheDir: false, concurrency: 1, progress: false });
    await withDeadline(DEADLINE_MS, "breaking out", async () => {
      for await (const batch of tern.file(BIG).batches({ rows: 1_000 })) {
        assert.equal(batch.height, 1_000);
        break;
      }
      for await (const entry of tern.folder(TABLES).list({ pageSize: 1 })) {
        assert.equal(entry.name, "a.csv");
        break;
      }
      // The one slot is free: a read after both settles.
      assert.equal((await tern.file(`${TABLES}/a.csv`).dataframe()).height, 50);
    });
    assert.equal(tern.stats.inFlight, 0);
  });
});

Deno.test("notebook: closing the store while reads run lets every read settle, no unhandled rejection", async () => {
  await using store = await dataStore(await tables(), { bandwidth: 4_000_000 });
  await noUnhandled(async () => {
    const tern = store.connect({ concurrency: 2, progress: false });
    const settled = await withDeadline(DEADLINE_MS, "reads beside close", async (signal) => {
      const reads = [
        ...BODY_READS.map(([, read]) => read(tern, signal)),
        tern.file(`${DATA}/a.parquet`).scan({ signal }).then((lazy) => lazy.collect()),
      ];
      await sleep(50);
      await tern.close();
      return await Promise.allSettled(reads);
    });
    const odd = settled.flatMap((result) =>
      result.status === "rejected" &&
        !["AbortError", "BadRequestError"].includes(result.reason?.name)
        ? [String(result.reason)]
        : []
    );
    assert.deepEqual(odd, []);
    assert.equal(tern.stats.inFlight, 0);
  });
});

Deno.test("notebook: bursts of 503 with Retry-After are waited out as documented; every read of the mix settles", async () => {
  await using store = await dataStore(await tables());
  let refused = 0;
  // Every third request in a burst of 10 is refused, told to come back in a second.
  let count = 0;
  await using front = frontProxy(store.server.url, {
    instead: () => {
      if (++count % 3 !== 0 || refused >= 10) return undefined;
      refused++;
      return new Response("busy", {
        status: count % 2 === 0 ? 503 : 500,
        headers: { "retry-after": "1" },
      });
    },
  });
  await noUnhandled(async () => {
    const tern = store.connect({
      url: front.url,
      concurrency: 2,
      progress: false,
      retries: 4,
    });
    const settled = await withDeadline(
      DEADLINE_MS,
      "the mix through bursts",
      (signal) => Promise.allSettled(mix(tern, signal).slice(0, 20)),
    );
    const failed = settled.flatMap((r) => r.status === "rejected" ? [String(r.reason)] : []);
    assert.deepEqual(failed, []);
    assert.ok(tern.stats.retries >= 1, `${tern.stats.retries} retries`);
    assert.equal(tern.stats.inFlight, 0);
  });
});

Deno.test("notebook: a body that stops mid-way with the connection left open ends in a clear error, never a hang", async () => {
  await using store = await dataStore(await tables());
  const held = Promise.withResolvers<void>();
  let downloads = 0;
  await using front = frontProxy(store.server.url, {
    instead: (request) => {
      if (!new URL(request.url).pathname.endsWith("/fileio/download")) return undefined;
      downloads++;
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("id,value\n1,2\n"));
          await held.promise;
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/csv" } });
    },
  });
  try {
    await noUnhandled(async () => {
      const tern = store.connect({
        url: front.url,
        cacheDir: false,
        progress: false,
        idleTimeoutMs: 500,
        retries: 1,
        retryBaseMs: 1,
      });
      const error = await withDeadline(
        DEADLINE_MS,
        "a stalled body",
        () => tern.file(`${TABLES}/a.csv`).bytes().then(() => undefined, (e) => e),
      );
      assert.ok(error instanceof TernError, String(error));
      assert.match(error.message, /stopped sending/);
      assert.equal(downloads, 2, "the stalled attempt was retried once");
      assert.equal(tern.stats.inFlight, 0);
    });
  } finally {
    held.resolve();
  }
});

Deno.test("notebook: a server that resets every connection is a clear NetworkError after the retries", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const conn of listener) conn.close();
  })().catch(() => {});
  try {
    const { connect } = await import("../../mod.ts");
    await noUnhandled(async () => {
      const tern = connect({
        url: `http://127.0.0.1:${listener.addr.port}/terrain`,
        anonymous: true,
        cacheDir: false,
        progress: false,
        retries: 2,
        retryBaseMs: 1,
      });
      const error = await withDeadline(
        DEADLINE_MS,
        "reset connections",
        () => tern.file("/iplant/home/shared/a.csv").dataframe().then(() => undefined, (e) => e),
      );
      console.log(String(error));
      assert.equal((error as Error)?.name, "NetworkError");
      assert.equal(tern.stats.inFlight, 0);
    });
  } finally {
    listener.close();
    await serving;
  }
});

Deno.test("notebook: a script that reads every way and never closes its store exits by itself (issue 33)", async () => {
  await using store = await dataStore(await tables());
  const dir = await Deno.makeTempDir({ prefix: "tern-ends-" });
  try {
    const mod = new URL("../../mod.ts", import.meta.url).href;
    const script = `${dir}/reads.ts`;
    await Deno.writeTextFile(
      script,
      `import { connect } from ${JSON.stringify(mod)};
const tern = connect({ url: ${JSON.stringify(store.url)}, anonymous: true, cacheDir: ${
        JSON.stringify(`${dir}/cache`)
      }, progress: false });
const file = tern.file(${JSON.stringify(`${TABLES}/a.csv`)});
await file.dataframe();
await file.head(3);
for await (const _ of tern.file(${JSON.stringify(BIG)}).batches({ rows: 10_000 })) break;
await tern.folder(${JSON.stringify(TABLES)}).list({ pageSize: 1 }).toArray();
const lazy = await tern.file(${JSON.stringify(`${DATA}/a.parquet`)}).scan();
await lazy.collect();
await tern.provenance.lock();
console.log("read");
`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", script],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = await withDeadline(DEADLINE_MS, "the script exiting by itself", async () => {
      try {
        return await child.output();
      } catch (error) {
        child.kill("SIGKILL");
        throw error;
      }
    }).catch(async (error) => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.status;
      throw error;
    });
    const text = new TextDecoder();
    assert.equal(output.code, 0, text.decode(output.stderr));
    assert.equal(text.decode(output.stdout).trim(), "read");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Every read of the cache path, each checked for its rows or bytes. */
async function cacheReads(tern: Store): Promise<string[]> {
  const file = tern.file(`${TABLES}/b.csv`);
  const settled = await Promise.allSettled([
    file.dataframe().then((frame) => assert.equal(frame.height, 90)),
    file.head(3).then((frame) => assert.equal(frame.height, 3)),
    file.bytes().then((bytes) => assert.ok(bytes.byteLength > 0)),
    (async () => {
      let rows = 0;
      for await (const batch of tern.file(BIG).batches({ rows: 20_000 })) rows += batch.height;
      assert.equal(rows, 60_000);
    })(),
    tern.file(BIG).dataframe().then((frame) => assert.equal(frame.height, 60_000)),
  ]);
  return settled.flatMap((r) => r.status === "rejected" ? [String(r.reason)] : []);
}

Deno.test("notebook: a cache folder where no file can be created reads from the server all the same", async () => {
  await using store = await dataStore(await tables());
  // Root may write anywhere: a folder below a plain file is one no one can create.
  const blocker = `${store.cacheDir}/plain-file`;
  await Deno.writeTextFile(blocker, "");
  await noUnhandled(async () => {
    for (const cacheDir of [`${blocker}/cache`]) {
      const tern = store.connect({ cacheDir, progress: false });
      const failed = await withDeadline(
        DEADLINE_MS,
        "reads without a usable cache",
        () => cacheReads(tern),
      );
      assert.deepEqual(failed, []);
      const refused = await tern.file(`${TABLES}/b.csv`).cachedPath().then(
        () => undefined,
        (error) => error,
      );
      assert.ok(refused instanceof BadRequestError, String(refused));
      assert.match(refused.message, /its folder .*plain-file\/cache.* cannot be written/);
    }
    // A file over the cap is refused for that reason alone.
    const small = store.connect({ cacheMaxBytes: 10, progress: false });
    await assert.rejects(
      small.file(`${TABLES}/b.csv`).cachedPath(),
      (error: Error) =>
        error instanceof BadRequestError &&
        /cache's cap of 10 \(cacheMaxBytes\)/.test(error.message),
    );
    // A cache folder whose downloads/ is a plain file.
    const cacheDir = `${store.cacheDir}/downloads-is-a-file`;
    await Deno.mkdir(cacheDir);
    await Deno.writeTextFile(`${cacheDir}/downloads`, "");
    const tern = store.connect({ cacheDir, progress: false });
    assert.deepEqual(
      await withDeadline(DEADLINE_MS, "reads without downloads/", () => cacheReads(tern)),
      [],
    );
  });
});

Deno.test("notebook: a cache folder removed while reads run leaves them reading right", async () => {
  await using store = await dataStore(await tables(), { bandwidth: 4_000_000 });
  await noUnhandled(async () => {
    const cacheDir = `${store.cacheDir}/removed`;
    const tern = store.connect({ cacheDir, progress: false });
    assert.deepEqual(await cacheReads(tern), []);
    const reads = withDeadline(DEADLINE_MS, "reads beside the removal", () => cacheReads(tern));
    await sleep(20);
    await Deno.remove(cacheDir, { recursive: true });
    assert.deepEqual(await reads, []);
    await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
    assert.deepEqual(
      await withDeadline(DEADLINE_MS, "reads after the removal", () => cacheReads(tern)),
      [],
    );
    await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
    await tern.cache.clear();
    assert.deepEqual(
      await withDeadline(DEADLINE_MS, "reads after clear", () => cacheReads(tern)),
      [],
    );
  });
});

Deno.test("notebook: two processes reading, evicting and clearing the same copies in one cache folder read every file right", async () => {
  const tree = await tables();
  const sizes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const text = generatedCsv(30_000 + 1_000 * i);
    tree[`${DATA}/large${i}.csv`] = text;
    sizes.push(new TextEncoder().encode(text).byteLength);
  }
  await using store = await dataStore(tree);
  const dir = await Deno.makeTempDir({ prefix: "tern-two-" });
  try {
    const mod = new URL("../../mod.ts", import.meta.url).href;
    const script = `${dir}/reader.ts`;
    // A cap of about two copies: each read evicts another's copy; every other round clears.
    await Deno.writeTextFile(
      script,
      `import { connect } from ${JSON.stringify(mod)};
const tern = connect({ url: ${JSON.stringify(store.url)}, anonymous: true, cacheDir: ${
        JSON.stringify(`${dir}/cache`)
      }, cacheMaxBytes: ${Math.max(...sizes) * 2 + 1}, progress: false });
const sizes = ${JSON.stringify(sizes)};
const failures = [];
for (let round = 0; round < 6; round++) {
  await Promise.all(sizes.map(async (size, i) => {
    const file = tern.file(${JSON.stringify(DATA)} + "/large" + i + ".csv");
    try {
      const [frame, bytes] = await Promise.all([file.dataframe(), file.bytes()]);
      if (frame.height !== 30_000 + 1_000 * i) failures.push("rows " + i);
      if (bytes.byteLength !== size) failures.push("bytes " + i);
      let rows = 0;
      for await (const batch of file.batches({ rows: 7_000 })) rows += batch.height;
      if (rows !== 30_000 + 1_000 * i) failures.push("batches " + i);
    } catch (error) {
      failures.push(String(error));
    }
  }));
  if (round % 2 === 1) await tern.cache.clear();
}
console.log(JSON.stringify(failures));
`,
    );
    const run = () =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", script],
        stdout: "piped",
        stderr: "piped",
      }).output();
    const outputs = await withDeadline(
      DEADLINE_MS,
      "two processes sharing a cache",
      () => Promise.all([run(), run()]),
    );
    for (const output of outputs) {
      const text = new TextDecoder();
      assert.equal(output.code, 0, text.decode(output.stderr));
      assert.equal(text.decode(output.stdout).trim(), "[]", text.decode(output.stderr));
      console.log(text.decode(output.stderr));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// With a cache or without, the body is read ahead of the parser, so a paused loop holds no slot.
for (const [cache, concurrency] of [[true, 1], [false, 1], [false, 2]] as const) {
  Deno.test(`notebook: a batches() loop paused mid-file (cache: ${cache}) holds nothing other reads of that file need, at concurrency ${concurrency}`, async () => {
    await using store = await dataStore(await tables());
    await noUnhandled(async () => {
      const tern = store.connect({
        cacheDir: cache ? `${store.cacheDir}/paused` : false,
        concurrency,
        progress: false,
      });
      await withDeadline(DEADLINE_MS, "reads beside a paused batches() loop", async () => {
        const batches = tern.file(BIG).batches({ rows: 1_000 })[Symbol.asyncIterator]();
        assert.equal((await batches.next()).value?.height, 1_000);
        // The loop waits for these before it goes on, as a notebook cell between two batches.
        const [frame, bytes, head, listed] = await Promise.all([
          tern.file(BIG).dataframe(),
          tern.file(BIG).bytes(),
          tern.file(BIG).head(5),
          tern.folder(DATA).list().toArray(),
        ]);
        assert.equal(frame.height, 60_000);
        assert.ok(bytes.byteLength > 1_000_000);
        assert.equal(head.height, 5);
        assert.ok(listed.length > 0);
        let rows = 1_000;
        for (let next = await batches.next(); !next.done; next = await batches.next()) {
          rows += next.value.height;
        }
        assert.equal(rows, 60_000);
      });
      assert.equal(tern.stats.inFlight, 0);
    });
  });
}

Deno.test("notebook: batches() whose cache folder is removed while it downloads into it reads every row all the same", async () => {
  // A slow body: the folder goes while the copy is being written.
  await using store = await dataStore(await tables(), { bandwidth: 1_000_000 });
  await noUnhandled(async () => {
    const cacheDir = `${store.cacheDir}/gone`;
    const tern = store.connect({ cacheDir, progress: false, concurrency: 1 });
    const rows = await withDeadline(DEADLINE_MS, "batches beside the removal", async () => {
      const reading = (async () => {
        let rows = 0;
        for await (const batch of tern.file(BIG).batches({ rows: 7_000 })) rows += batch.height;
        return rows;
      })();
      // Once the copy is being written (its temporary file is there), the folder goes.
      const writing = async () =>
        (await filesBelow(cacheDir)).some((name) => name.startsWith("downloads/.tmp-"));
      while (!await writing()) await sleep(5);
      await Deno.remove(cacheDir, { recursive: true });
      return await reading;
    });
    assert.equal(rows, 60_000);
    assert.equal(tern.stats.inFlight, 0);
  });
});

Deno.test("notebook: aborting paging, searches, walks, metadata and a remote scan mid-way ends each with an AbortError, no slot held", async () => {
  // Every answer waits: the abort lands while a request is out.
  await using store = await dataStore(await tables(), { latencyMs: 300 });
  await noUnhandled(async () => {
    const tern = store.connect({ concurrency: 1, cacheDir: false, progress: false });
    const reads: [string, (signal: AbortSignal) => Promise<unknown>][] = [
      ["list", (signal) => tern.folder(TABLES).list({ pageSize: 1, signal }).toArray()],
      ["walk", (signal) => tern.folder(DATA).walk({ signal }).toArray()],
      [
        "search",
        (signal) => tern.search(search.under(`${DATA}/`), { pageSize: 1, signal }).toArray(),
      ],
      ["metadata", (signal) => tern.file(`${TABLES}/a.csv`).metadata({ signal })],
      ["scan", async (signal) => {
        const lazy = await tern.file(`${DATA}/a.parquet`).scan({ signal });
        return await lazy.collect();
      }],
    ];
    for (const [label, read] of reads) {
      const controller = new AbortController();
      const before = store.server.stats().requests;
      const reading = read(controller.signal).then(() => undefined, (error) => error);
      await withDeadline(DEADLINE_MS, `${label}: a request out`, async () => {
        while (store.server.stats().requests === before) await sleep(5);
      });
      controller.abort();
      const error = await withDeadline(DEADLINE_MS, `${label}: the abort`, () => reading);
      assert.equal((error as Error)?.name, "AbortError", `${label}: ${error}`);
      await withDeadline(DEADLINE_MS, `${label}: slots given back`, async () => {
        while (tern.stats.inFlight > 0) await sleep(5);
      });
    }
    await tern.close();
  });
});

Deno.test("notebook: a batches() loop paused past what waits in memory reads the rest from the cache copy, holding no slot", async () => {
  // More than the 16 MiB a lagging parser keeps in memory.
  const rows = 450_000;
  const path = `${DATA}/huge.csv`;
  await using store = await dataStore({
    [path]: generatedCsv(rows),
    [`${TABLES}/a.csv`]: "x\n1\n",
  });
  await noUnhandled(async () => {
    const tern = store.connect({
      cacheDir: `${store.cacheDir}/huge`,
      concurrency: 1,
      progress: false,
    });
    const routes: (string | undefined)[] = [];
    tern[STORE_CONTEXT].events.subscribe((event) =>
      void (event.kind === "done" && event.version.path === path && routes.push(event.route))
    );
    await withDeadline(DEADLINE_MS, "a loop paused past the memory bound", async () => {
      const batches = tern.file(path).batches({ rows: 1_000 })[Symbol.asyncIterator]();
      assert.equal((await batches.next()).value?.height, 1_000);
      // Inside the loop, another read: it needs the one slot, which the download gives back
      // once the body is in the copy.
      assert.equal((await tern.file(`${TABLES}/a.csv`).dataframe()).height, 1);
      let seen = 1_000;
      for (let next = await batches.next(); !next.done; next = await batches.next()) {
        seen += next.value.height;
      }
      assert.equal(seen, rows);
    });
    // The batches past the memory bound came from the copy.
    assert.deepEqual(routes, ["file"]);
    assert.equal(tern.stats.inFlight, 0);
  });
});

/**
 * A loop over `path` at `concurrency: 1` without a cache, paused past what waits in memory while
 * the cell reads another file and runs `inside`; how many rows it read and downloads it sent.
 */
async function pausedPastMemory(
  store: Awaited<ReturnType<typeof dataStore>>,
  path: string,
  inside: () => Promise<void> = async () => {},
): Promise<{ rows: number; downloads: number }> {
  let downloads = 0;
  const counted: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.includes("fileio/download") && url.includes("huge")) downloads++;
    return fetch(input, init);
  };
  const tern = store.connect({ cacheDir: false, concurrency: 1, progress: false, fetch: counted });
  try {
    return await withDeadline(
      DEADLINE_MS,
      "a loop without a cache paused past memory",
      async () => {
        const batches = tern.file(path).batches({ rows: 1_000 })[Symbol.asyncIterator]();
        try {
          let rows = (await batches.next()).value?.height ?? 0;
          // The one slot is free once more than 16 MiB wait: the download was ended.
          assert.equal((await tern.file(`${TABLES}/a.csv`).dataframe()).height, 1);
          await inside();
          for (let next = await batches.next(); !next.done; next = await batches.next()) {
            rows += next.value.height;
          }
          return { rows, downloads };
        } finally {
          await batches.return?.();
          assert.equal(tern.stats.inFlight, 0);
        }
      },
    );
  } finally {
    await tern.close();
  }
}

/** Past the 16 MiB a lagging parser keeps in memory, in rows that parse quickly. */
const WIDE_ROWS = 24_000;
const WIDE = `v\n${`${"x".repeat(999)}\n`.repeat(WIDE_ROWS)}`;

Deno.test("notebook: a batches() loop without a cache paused past what waits in memory ends its download and reads the rest from a new one", async () => {
  const path = `${DATA}/huge.csv`;
  await using store = await dataStore({ [path]: WIDE, [`${TABLES}/a.csv`]: "x\n1\n" });
  await noUnhandled(async () => {
    // The download sent beside the stat (given up past its read-ahead), the one after the
    // stat, ended during the pause, and the one that read the rest.
    const rows = WIDE_ROWS;
    assert.deepEqual(await pausedPastMemory(store, path), { rows, downloads: 3 });
  });
});

Deno.test("notebook: a file rewritten between the downloads of a paused batches() loop without a cache ends it with a FileChangedError", async () => {
  const path = `${DATA}/huge.csv`;
  // A file the store has not checksummed yet: only tern's own hash can see the change.
  const unchecked = { "irods-avus": [{ attr: "ipc-checksum", value: "", unit: "" }] };
  await using store = await dataStore({
    [path]: WIDE,
    [`${DATA}/.huge.csv.avus.json`]: JSON.stringify(unchecked),
    [`${TABLES}/a.csv`]: "x\n1\n",
  });
  await noUnhandled(async () => {
    // Same size and date, one byte changed early in the file: only the bytes tell them apart.
    const local = `${store.root}${path}`;
    const { mtime } = await Deno.stat(local);
    const rewrite = async () => {
      await Deno.writeTextFile(local, `v\ny${WIDE.slice(3)}`);
      await Deno.utime(local, mtime!, mtime!);
    };
    await assert.rejects(pausedPastMemory(store, path, rewrite), FileChangedError);
  });
});

Deno.test("notebook: a batches() loop without a cache that resumes from a new download counts each byte once in its progress", async () => {
  const path = `${DATA}/huge.csv`;
  await using store = await dataStore({ [path]: WIDE, [`${TABLES}/a.csv`]: "x\n1\n" });
  const tern = store.connect({ cacheDir: false, concurrency: 1, progress: false });
  const seen: { bytes: number; totalBytes: number }[] = [];
  const onProgress = (event: { bytes: number; totalBytes: number }) => void seen.push(event);
  const batches = tern.file(path).batches({ rows: 1_000, onProgress })[Symbol.asyncIterator]();
  await withDeadline(DEADLINE_MS, "a loop that resumes", async () => {
    try {
      await batches.next();
      // The one slot is free once more than 16 MiB wait: the download was ended.
      assert.equal((await tern.file(`${TABLES}/a.csv`).dataframe()).height, 1);
      while (!(await batches.next()).done);
    } finally {
      await batches.return?.();
    }
  });
  assert.equal(tern.stats.inFlight, 0);
  assert.ok(seen.every((event) => event.bytes <= event.totalBytes));
  assert.equal(seen.at(-1)?.bytes, WIDE.length);
});

/**
 * Reads the first batch of `path` in a loop at the store's one slot, reads another file between
 * two batches (which the loop must let through), runs `rewrite`, then reads on: the rows of the
 * rewritten version (`v` starting with `y`) that reached the loop, and the error it ended with.
 */
async function loopAcrossRewrite(
  tern: Store,
  path: string,
  rewrite: () => Promise<void>,
  what: string,
): Promise<{ rewritten: number; failed: unknown }> {
  const batches = tern.file(path).batches({ rows: 1_000 })[Symbol.asyncIterator]();
  let rewritten = 0;
  const failed = await withDeadline(DEADLINE_MS, what, async () => {
    await batches.next();
    // The one slot is free once more than 16 MiB wait: the download was ended.
    assert.equal((await tern.file(`${TABLES}/a.csv`).dataframe()).height, 1);
    await rewrite();
    for (let next = await batches.next(); !next.done; next = await batches.next()) {
      rewritten += next.value.filter(pl.col("v").str.startsWith("y")).height;
    }
  }).then(() => undefined, (error) => error);
  await batches.return?.();
  return { rewritten, failed };
}

Deno.test("notebook: a file rewritten while a batches() loop without a cache pauses gives no batch of the new version", async () => {
  const path = `${DATA}/huge.csv`;
  await using store = await dataStore({ [path]: WIDE, [`${TABLES}/a.csv`]: "x\n1\n" });
  await noUnhandled(async () => {
    // Same size, a later date: the download that resumes must not hand its rows to the loop.
    const local = `${store.root}${path}`;
    const { mtime } = await Deno.stat(local);
    const rewrite = async () => {
      await Deno.writeTextFile(local, `v\n${`${"y".repeat(999)}\n`.repeat(WIDE_ROWS)}`);
      const later = new Date(mtime!.getTime() + 60_000);
      await Deno.utime(local, later, later);
    };
    const tern = store.connect({ cacheDir: false, concurrency: 1, progress: false });
    const { rewritten, failed } = await loopAcrossRewrite(
      tern,
      path,
      rewrite,
      "a loop whose file was rewritten",
    );
    assert.ok(failed instanceof FileChangedError, String(failed));
    assert.equal(rewritten, 0);
    assert.equal(tern.stats.inFlight, 0);
  });
});

Deno.test("notebook: a file rewritten with its size and date kept while a batches() loop without a cache pauses gives no batch of the new version (If-Match)", async () => {
  const path = `${DATA}/huge.csv`;
  // A file the store has not checksummed yet: its stat cannot tell the two versions apart.
  const unchecked = { "irods-avus": [{ attr: "ipc-checksum", value: "", unit: "" }] };
  await using store = await dataStore({
    [path]: WIDE,
    [`${DATA}/.huge.csv.avus.json`]: JSON.stringify(unchecked),
    [`${TABLES}/a.csv`]: "x\n1\n",
  });
  await noUnhandled(async () => {
    const local = `${store.root}${path}`;
    const { mtime } = await Deno.stat(local);
    const rewrite = async () => {
      await Deno.writeTextFile(local, `v\n${`${"y".repeat(999)}\n`.repeat(WIDE_ROWS)}`);
      await Deno.utime(local, mtime!, mtime!);
    };
    // What each download of the file asked for, and the ETag each answer carried.
    const asked: (string | null)[] = [], tags: (string | null)[] = [];
    const watched: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const answer = await fetch(request);
      if (request.url.includes("fileio/download") && request.url.includes("huge")) {
        asked.push(request.headers.get("if-match"));
        tags.push(answer.headers.get("etag"));
      }
      return answer;
    };
    const tern = store.connect({
      cacheDir: false,
      concurrency: 1,
      progress: false,
      fetch: watched,
    });
    const { rewritten, failed } = await loopAcrossRewrite(
      tern,
      path,
      rewrite,
      "a loop whose file was rewritten",
    );
    // The resumed download asked for the first one's bytes: not one row of the new version.
    assert.equal(rewritten, 0);
    assert.ok(failed instanceof FileChangedError, String(failed));
    assert.match(failed.message, /ETag changed/);
    // The download that resumed asked for the bytes of the one before (the first one asked for
    // none: it is the one sent beside the stat).
    assert.equal(asked[0], null);
    assert.ok(tags[0] !== null);
    assert.equal(asked.at(-1), tags[0]);
    assert.equal(tern.stats.inFlight, 0);
  });
});

Deno.test("notebook: a store that sends no ETag: a file rewritten with a later date while a batches() loop without a cache pauses gives no batch of the new version", async () => {
  const path = `${DATA}/huge.csv`;
  await using store = await dataStore({ [path]: WIDE, [`${TABLES}/a.csv`]: "x\n1\n" });
  await noUnhandled(async () => {
    const local = `${store.root}${path}`;
    const { mtime } = await Deno.stat(local);
    const rewrite = async () => {
      await Deno.writeTextFile(local, `v\n${`${"y".repeat(999)}\n`.repeat(WIDE_ROWS)}`);
      const later = new Date(mtime!.getTime() + 60_000);
      await Deno.utime(local, later, later);
    };
    // Terrain's downloads as documented: no ETag (so nothing to send If-Match with).
    const asked: (string | null)[] = [];
    const untagged: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const answer = await fetch(request);
      if (!request.url.includes("fileio/download")) return answer;
      if (request.url.includes("huge")) asked.push(request.headers.get("if-match"));
      const headers = new Headers(answer.headers);
      headers.delete("etag");
      return new Response(answer.body, { status: answer.status, headers });
    };
    const tern = store.connect({
      cacheDir: false,
      concurrency: 1,
      progress: false,
      fetch: untagged,
    });
    const { rewritten, failed } = await loopAcrossRewrite(
      tern,
      path,
      rewrite,
      "a loop whose file was redated",
    );
    // The date, checked before a new download, refused it: no download resumed.
    assert.equal(rewritten, 0);
    assert.ok(failed instanceof FileChangedError, String(failed));
    assert.match(failed.message, /between two downloads of it/);
    assert.ok(asked.every((value) => value === null));
    assert.equal(tern.stats.inFlight, 0);
  });
});

Deno.test("notebook: batches() whose cache copy fails mid-way (a full disk) reads every row from a new download", async () => {
  // Where no small disk can be mounted, the disk fills at the file layer: the cache's temporary
  // file refuses writes past 256 KiB with the error a full disk gives.
  await using store = await dataStore(await tables());
  using _disk = fullDiskAfter(256 * 1024);
  const warn = console.warn;
  console.warn = () => {};
  try {
    await noUnhandled(async () => {
      const tern = store.connect({ cacheDir: `${store.cacheDir}/full`, progress: false });
      const frames = await withDeadline(
        DEADLINE_MS,
        "batches past a full disk",
        () => Array.fromAsync(tern.file(BIG).batches({ rows: 7_000 })),
      );
      const frame = pl.concat(frames);
      assert.equal(frame.height, 60_000);
      assert.deepEqual(frame.getColumn("id").toArray().slice(-2), [59_998, 59_999]);
      assert.equal(tern.stats.inFlight, 0);
    });
  } finally {
    console.warn = warn;
  }
});

Deno.test("notebook: batches() with a cache still parses as the bytes arrive: the first batch comes before the body's end", async () => {
  // A slow body: a first batch parsed only after the last byte would come after all of it.
  await using store = await dataStore(await tables(), { bandwidth: 200_000 });
  await noUnhandled(async () => {
    const tern = store.connect({ cacheDir: `${store.cacheDir}/early`, progress: false });
    const size = (await tern.file(BIG).stat()).size;
    await withDeadline(DEADLINE_MS, "the first batch", async () => {
      for await (const batch of tern.file(BIG).batches({ rows: 1_000 })) {
        assert.equal(batch.height, 1_000);
        const sent = store.server.stats().bytesSent;
        assert.ok(sent < size / 2, `${sent} of ${size} bytes sent before the first batch`);
        break;
      }
    });
    // Leaving the loop ended the download (it did not wait for the body's end) and left no
    // partial copy.
    assert.ok(store.server.stats().bytesSent < size, "the body was cancelled");
    assert.equal(tern.stats.inFlight, 0);
    assert.deepEqual(
      (await filesBelow(`${store.cacheDir}/early`)).filter((name) => name.includes(".tmp-")),
      [],
    );
  });
});

/** Every kind of read the mixes below draw from. */
const MIX_KINDS = [
  "dataframe",
  "bytes",
  "head",
  "batches",
  "batches paused",
  "batches left",
  "cachedPath",
  "scan",
  "list",
  "walk",
  "search",
  "metadata",
] as const;

/** One read of a mix: its kind, on which store, of which file, and aborted after how long. */
type MixRead = {
  kind: typeof MIX_KINDS[number];
  store: number;
  file: number;
  /** How the file's handle is made: from its path, from its folder's, or from a dataset's. */
  handle: "path" | "child" | "dataset";
  abortMs: number | null;
};

const mixesOfReads = fc.record({
  stores: fc.array(
    fc.record({ concurrency: fc.constantFrom(1, 2), cache: fc.boolean() }),
    { minLength: 1, maxLength: 3 },
  ),
  reads: fc.array(
    fc.record({
      kind: fc.constantFrom(...MIX_KINDS),
      store: fc.nat(),
      file: fc.nat(),
      handle: fc.constantFrom("path", "child", "dataset"),
      // One read in four is aborted, at any point from before its first request on.
      abortMs: fc.oneof(
        { arbitrary: fc.constant(null), weight: 3 },
        { arbitrary: fc.integer({ min: 0, max: 30 }), weight: 1 },
      ),
    }),
    { minLength: 1, maxLength: 16 },
  ),
});

/** The files the mixes read, with their rows. */
const MIX_FILES = [
  ...NAMES.map((name, i) => [`${TABLES}/${name}`, 50 + 40 * i] as const),
  [
    BIG,
    60_000,
  ] as const,
];

/** Runs one read of a mix and checks what it gave; an aborted read may end in an AbortError. */
async function mixRead(tern: Store, read: MixRead, cached: boolean): Promise<string> {
  const controller = new AbortController();
  const timer = read.abortMs === null
    ? undefined
    : setTimeout(() => controller.abort(), read.abortMs);
  const { signal } = controller;
  const [path, rows] = MIX_FILES[read.file % MIX_FILES.length];
  const [folder, name] = [
    path.slice(0, path.lastIndexOf("/")),
    path.slice(path.lastIndexOf("/") + 1),
  ];
  const file = read.handle === "path"
    ? tern.file(path)
    : read.handle === "child"
    ? tern.folder(folder).file(name)
    : tern.dataset(folder).file(name);
  const perform = async () => {
    switch (read.kind) {
      case "dataframe":
        return assert.equal((await file.dataframe({ signal })).height, rows);
      case "bytes":
        return assert.equal((await file.bytes({ signal })).byteLength, (await file.stat()).size);
      case "head":
        return assert.equal((await file.head(5, { signal })).height, 5);
      case "batches":
      case "batches paused":
      case "batches left": {
        let seen = 0;
        for await (const batch of file.batches({ rows: 1_000, signal })) {
          seen += batch.height;
          if (read.kind === "batches left") return;
          // A cell that reads another file between two batches, on the same store.
          if (read.kind === "batches paused" && seen === batch.height) {
            assert.equal((await tern.file(`${TABLES}/a.csv`).dataframe({ signal })).height, 50);
          }
        }
        return assert.equal(seen, rows);
      }
      case "cachedPath": {
        if (!cached) return void await assert.rejects(file.cachedPath({ signal }), BadRequestError);
        return assert.ok((await Deno.stat(await file.cachedPath({ signal }))).isFile);
      }
      case "scan": {
        const lazy = await tern.file(`${DATA}/a.parquet`).scan({ signal });
        return assert.equal((await lazy.collect()).height, 50);
      }
      case "list": {
        const listed = await tern.folder(TABLES).list({ pageSize: 1, signal }).toArray();
        return assert.deepEqual(listed.map((entry) => entry.name), NAMES);
      }
      case "walk":
        return assert.equal((await tern.folder(DATA).walk({ signal }).toArray()).length, 7);
      case "search": {
        const query = search.under(`${TABLES}/`).name("*.csv");
        return assert.equal((await tern.search(query, { signal }).toArray()).length, 4);
      }
      case "metadata":
        return void await file.metadata({ signal });
    }
  };
  try {
    await perform();
    return "read";
  } catch (error) {
    if (!(signal.aborted && (error as Error)?.name === "AbortError")) throw error;
    return "aborted";
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("notebook: random mixes of every kind of read on several stores, at concurrency 1 and 2, with and without a cache and with aborts, all settle", async () => {
  await using store = await dataStore(await tables());
  let run = 0;
  const outcomes: string[] = [];
  await noUnhandled(() =>
    fc.assert(
      fc.asyncProperty(mixesOfReads, async ({ stores, reads }) => {
        run++;
        const terns = stores.map(({ concurrency, cache }, i) =>
          store.connect({
            cacheDir: cache ? `${store.cacheDir}/mix-${run}-${i}` : false,
            concurrency,
            progress: false,
          })
        );
        try {
          const settled = await withDeadline(
            DEADLINE_MS,
            `a mix of ${reads.length} reads`,
            () =>
              Promise.allSettled(reads.map((read) => {
                const at = read.store % stores.length;
                return mixRead(terns[at], read, stores[at].cache);
              })),
          );
          const failed = settled.flatMap((result, i) =>
            result.status === "rejected" ? [`${reads[i].kind}: ${result.reason}`] : []
          );
          assert.deepEqual(failed, []);
          settled.forEach((result) => result.status === "fulfilled" && outcomes.push(result.value));
          // An aborted read rejects when its signal fires; its request gives the slot back once
          // fetch has settled, a few turns later: given back soon, never held.
          for (const tern of terns) {
            await until(() => tern.stats.inFlight === 0, "every slot given back", 10_000);
          }
        } finally {
          for (const tern of terns) await tern.close();
        }
      }),
      { numRuns: 12, endOnFailure: true },
    )
  );
  report("notebook mixes", { runs: run, reads: tally(outcomes) });
});
