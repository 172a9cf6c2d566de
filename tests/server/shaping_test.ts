import assert from "node:assert/strict";
import { type Clock, TokenBucket } from "../../lib/server/shaping.ts";
import { withDeadline } from "../reliability/_fixtures.ts";
import { get, serveStore, writeTree } from "./_store.ts";

/** Catches a hang only: far above what any case here takes on a busy machine. */
const HANG_MS = 60_000;

const LISTING = "filesystem/paged-directory?path=/iplant/home/shared&limit=1";

async function statuses(url: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${url}/${LISTING}`);
    const text = await response.text();
    if (response.status >= 500) {
      assert.ok(!text.includes("error_code"), "injected failures carry no error_code");
    }
    out.push(response.status);
  }
  return out;
}

Deno.test("failRate answers about that fraction with retryable 500/503, repeatably per seed", async () => {
  await using first = await serveStore(undefined, { failRate: 0.3, seed: 42 });
  await using second = await serveStore(undefined, { failRate: 0.3, seed: 42 });
  const a = await statuses(first.url, 300);
  const b = await statuses(second.url, 300);
  assert.deepEqual(a, b, "same seed, same faults");
  const failed = a.filter((status) => status >= 500);
  assert.ok(failed.length > 60 && failed.length < 120, `failed ${failed.length} of 300`);
  assert.ok(failed.includes(500) && failed.includes(503));
  assert.ok(a.every((status) => status === 200 || status === 500 || status === 503));
  assert.equal(first.server.stats().faultsInjected, failed.length);
  assert.equal(first.server.stats().requests, 300);
});

Deno.test("failRate never touches the health route", async () => {
  await using fixture = await serveStore(undefined, { failRate: 1 });
  for (let i = 0; i < 20; i++) assert.equal((await get(`${fixture.url}/`)).status, 200);
  assert.equal((await get(`${fixture.url}/${LISTING}`)).status >= 500, true);
  assert.equal(fixture.server.stats().faultsInjected, 1);
});

Deno.test("dropRate cuts download bodies short while Content-Length stays whole", async () => {
  const big = "0123456789".repeat(100_000);
  await using fixture = await serveStore({ "iplant/home/shared/big.txt": big }, {
    dropRate: 1,
    seed: 3,
  });
  for (const path of ["fileio/download", "filesystem/display-download"]) {
    const response = await fetch(`${fixture.url}/${path}?path=/iplant/home/shared/big.txt`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-length"), String(big.length));
    let received = 0;
    await assert.rejects(async () => {
      for await (const chunk of response.body!) received += chunk.byteLength;
    });
    assert.ok(received < big.length, `received ${received}`);
  }
  const listing = await get(`${fixture.url}/${LISTING}`);
  assert.equal(listing.status, 200, "JSON answers are never cut");
  assert.equal(fixture.server.stats().bodiesDropped, 2);
});

Deno.test("dropRate 0.5 cuts some downloads and not others, the same way per seed", async () => {
  const outcomes = async (seed: number) => {
    await using fixture = await serveStore({ "iplant/home/shared/f.bin": "x".repeat(50_000) }, {
      dropRate: 0.5,
      seed,
    });
    const results: boolean[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await fetch(`${fixture.url}/fileio/download?path=/iplant/home/shared/f.bin`);
      try {
        results.push((await response.arrayBuffer()).byteLength === 50_000);
      } catch {
        results.push(false);
      }
    }
    return { results, dropped: fixture.server.stats().bodiesDropped };
  };
  const first = await outcomes(9);
  const second = await outcomes(9);
  assert.deepEqual(first.results, second.results);
  const cut = first.results.filter((whole) => !whole).length;
  assert.ok(cut > 5 && cut < 25, `cut ${cut} of 30`);
  assert.equal(first.dropped, cut);
});

// A lower bound only: a busy machine makes the wait longer, never shorter. (Timers may fire
// a millisecond early, hence the margin.)
Deno.test("latencyMs delays every response", async () => {
  await using fixture = await serveStore(undefined, { latencyMs: 120 });
  const started = performance.now();
  await get(`${fixture.url}/`);
  await get(`${fixture.url}/${LISTING}`);
  assert.ok(performance.now() - started >= 230);
});

// That the waits are the right ones is the TokenBucket test's (on a recording clock); here,
// only that a throttled body takes at least its bytes' worth of time, a bound no load breaks.
Deno.test("bandwidth caps body throughput and bytesSent counts what was sent", async () => {
  const body = "y".repeat(60_000);
  await using fixture = await serveStore({ "iplant/home/shared/f.txt": body }, {
    bandwidth: 100_000,
  });
  const started = performance.now();
  const { text } = await get(`${fixture.url}/fileio/download?path=/iplant/home/shared/f.txt`);
  const seconds = (performance.now() - started) / 1000;
  assert.equal(text, body);
  // 60,000 bytes at 100,000 B/s, less the first 5,000-byte burst: at least 0.55 s.
  assert.ok(seconds > 0.5, `took ${seconds} s`);
  const listing = await get(`${fixture.url}/${LISTING}`);
  assert.equal(
    fixture.server.stats().bytesSent,
    body.length + new TextEncoder().encode(listing.text).length,
  );
});

Deno.test("close() ends a throttled download at once", async () => {
  const fixture = await serveStore({ "iplant/home/shared/f.txt": "z".repeat(200_000) }, {
    bandwidth: 10_000,
  });
  try {
    const response = await fetch(`${fixture.url}/fileio/download?path=/iplant/home/shared/f.txt`);
    const reader = response.body!.getReader();
    await reader.read();
    await fixture.server.close();
    // Unended, the body would go on to its end (20 s at this rate) and read as done.
    await assert.rejects(async () => {
      while (!(await reader.read()).done) { /* drain */ }
    });
  } finally {
    await fixture[Symbol.asyncDispose]();
  }
});

/** A clock whose waits pass at once, recording the delays asked for; `pass` moves it on. */
function recordingClock(): Clock & { waits: number[]; pass(ms: number): void } {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    pass: (ms) => void (now += ms),
    now: () => now,
    sleep(ms, signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

Deno.test("TokenBucket spaces out takers at the configured rate", async () => {
  const clock = recordingClock();
  const bucket = new TokenBucket(20_000, { clock });
  const signal = new AbortController().signal;
  for (let i = 0; i < 10; i++) await bucket.take(bucket.burst, signal);
  // The first burst is in the bucket; each next 1,000 bytes wait 50 ms at 20,000 B/s.
  assert.deepEqual(clock.waits, Array(9).fill(50));
  // Time that passed between takers is credited, up to one burst.
  clock.pass(20);
  await bucket.take(bucket.burst, signal);
  assert.equal(clock.waits.at(-1), 30);
  clock.pass(1000);
  await bucket.take(bucket.burst, signal);
  await bucket.take(bucket.burst / 2, signal);
  assert.deepEqual(clock.waits.slice(-2), [30, 25], "a long pause fills one burst, no more");
  const aborted = new AbortController();
  aborted.abort(new Error("stop"));
  await assert.rejects(bucket.take(bucket.burst, aborted.signal), /stop/);
});

Deno.test("a file that shrinks during a download cuts the connection instead of lying", async () => {
  await using fixture = await serveStore({ "iplant/home/shared/f.txt": "a".repeat(2_000_000) }, {
    bandwidth: 4_000_000,
  });
  const response = await fetch(`${fixture.url}/fileio/download?path=/iplant/home/shared/f.txt`);
  const reader = response.body!.getReader();
  await reader.read();
  await writeTree(fixture.root, { "iplant/home/shared/f.txt": "short" });
  await assert.rejects(async () => {
    while (!(await reader.read()).done) { /* drain */ }
  });
});

Deno.test("clients that disconnect early leave no open files behind, shaped or not", {
  ignore: Deno.build.os !== "linux",
}, async (t) => {
  const settings = {
    "unshaped (latency only)": { latencyMs: 60 },
    "throttled": { bandwidth: 20_000_000 },
    "cut short": { dropRate: 1 },
  };
  for (const [name, options] of Object.entries(settings)) {
    await t.step(name, async () => {
      await using fixture = await serveStore({
        "iplant/home/shared/f.txt": "q".repeat(1_000_000),
      }, options);
      const url = `${fixture.url}/fileio/download?path=/iplant/home/shared/f.txt`;
      await (await fetch(url)).arrayBuffer().catch(() => {});
      const served = Deno.realPathSync(`${fixture.root}/iplant/home/shared/f.txt`);
      await Promise.all(Array.from({ length: 10 }, async () => {
        const abort = new AbortController();
        const pending = fetch(url, { signal: abort.signal });
        setTimeout(() => abort.abort(), 10);
        await pending.catch(() => {});
      }));
      for (let i = 0; i < 10; i++) {
        const reader = (await fetch(url)).body!.getReader();
        await reader.read().catch(() => {});
        await reader.cancel().catch(() => {});
      }
      assert.equal(await openHandlesAfter(served, HANG_MS), 0);
    });
  }
});

/**
 * How many of this process's file descriptors point at `path` once the server has closed them:
 * the count at the first moment it is 0, else at `ms`, a deadline that only catches a leak (a
 * busy server closes them late, never not at all).
 */
async function openHandlesAfter(path: string, ms: number): Promise<number> {
  const deadline = performance.now() + ms;
  let open = openHandles(path);
  while (open > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    open = openHandles(path);
  }
  return open;
}

/** How many of this process's file descriptors point at `path`. */
function openHandles(path: string): number {
  return [...Deno.readDirSync("/proc/self/fd")].filter((fd) => {
    try {
      return Deno.readLinkSync(`/proc/self/fd/${fd.name}`) === path;
    } catch {
      return false;
    }
  }).length;
}

/** Starts an unshaped download of a sparse file and reads its first chunk. */
async function startBigDownload(size: number) {
  const fixture = await serveStore({ "iplant/home/shared/big.bin": "" });
  const path = `${fixture.root}/iplant/home/shared/big.bin`;
  await Deno.truncate(path, size);
  const response = await fetch(`${fixture.url}/fileio/download?path=/iplant/home/shared/big.bin`);
  assert.equal(response.headers.get("content-length"), String(size));
  const reader = response.body!.getReader();
  const first = await reader.read();
  const drain = async () => {
    let received = first.value?.byteLength ?? 0;
    while (true) {
      const { done, value } = await reader.read();
      if (done) return received;
      received += value.byteLength;
    }
  };
  return { fixture, path, drain };
}

Deno.test("an unshaped download of a growing file sends exactly Content-Length bytes", async () => {
  const size = 20_000_000;
  const { fixture, path, drain } = await startBigDownload(size);
  await using _ = fixture;
  await Deno.writeFile(path, new Uint8Array(1_000_000).fill(7), { append: true });
  assert.equal(await drain(), size);
  const next = await get(`${fixture.url}/fileio/download?path=/iplant/home/shared/big.bin`);
  assert.equal(next.status, 200, "the server keeps answering");
});

Deno.test("an unshaped download of a shrinking file cuts the connection", async () => {
  const { fixture, path, drain } = await startBigDownload(20_000_000);
  await using _ = fixture;
  await Deno.truncate(path, 5);
  await assert.rejects(drain());
});

Deno.test("close() cuts an unshaped download whose client stopped reading", async () => {
  const { fixture, path, drain } = await startBigDownload(50_000_000);
  await using _ = fixture;
  // A close() that waited for the client to read 50 MB would wait for ever: a hang.
  await withDeadline(HANG_MS, "close() beside a client that stopped reading", async () => {
    await fixture.server.close();
    await assert.rejects(drain());
  });
  assert.equal(await openHandlesAfter(Deno.realPathSync(path), HANG_MS), 0);
});
