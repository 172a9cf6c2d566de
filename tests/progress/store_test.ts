/**
 * Progress wired through the store: `connect({ progress })` reaches reads, many-file reads and
 * downloads; `progress: false` on a call silences it while `onProgress` still hears every event;
 * a walk draws its own line on a terminal.
 */

import assert from "node:assert/strict";
import { connect, ProgressChannel, type ProgressEvent, search } from "../../mod.ts";
import { startServer } from "../../server.ts";
import { DEMO_USER, ensureSampleStore, SAMPLE_CASES } from "../../lib/sample/mod.ts";
import { onTerminal, PTY } from "./_pty.ts";

const root = await ensureSampleStore();

async function served() {
  const server = await startServer({ root, port: 0, quiet: true });
  return { url: server.url, [Symbol.asyncDispose]: () => server.close() };
}

Deno.test("a store's progress function hears reads, many-file reads and downloads", async () => {
  await using server = await served();
  const events: ProgressEvent[] = [];
  const store = connect({
    url: server.url,
    token: DEMO_USER.token,
    cacheDir: false,
    progress: (event) => events.push(event),
  });
  const file = store.file(SAMPLE_CASES.fileWithMetadata);
  const frame = await file.dataframe();
  assert.ok(frame.height > 0);
  assert.equal(events[0].kind, "start");
  assert.equal(events.at(-1)!.kind, "done");
  assert.equal(events.at(-1)!.ok, true);

  events.length = 0;
  const target = await Deno.makeTempDir();
  try {
    const saved = await file.downloadTo(`${target}/`);
    const done = events.at(-1)!;
    assert.deepEqual([events[0].kind, done.kind], ["start", "done"]);
    assert.equal(done.bytes, saved.size);
    assert.equal(done.files, 1);
  } finally {
    await Deno.remove(target, { recursive: true });
  }

  events.length = 0;
  const parts = store.folder(SAMPLE_CASES.manyFiles).list({ glob: "part-0000*.csv" });
  await parts.dataframes();
  const last = events.at(-1)!;
  assert.equal(last.kind, "done");
  assert.equal(last.files, last.totalFiles);
  assert.equal(last.totalFiles, await parts.count());
});

Deno.test("progress: false on a call silences the store's display but not onProgress", async () => {
  await using server = await served();
  const storeEvents: string[] = [];
  const own: string[] = [];
  const store = connect({
    url: server.url,
    anonymous: true,
    cacheDir: false,
    progress: (event) => storeEvents.push(event.kind),
  });
  await store.file(SAMPLE_CASES.fileWithMetadata).dataframe({
    progress: false,
    onProgress: (event) => own.push(event.kind),
  });
  assert.deepEqual(storeEvents, []);
  assert.equal(own[0], "start");
  assert.equal(own.at(-1), "done");
  assert.throws(() => connect({ url: server.url, progress: "yes" as never }), /progress must be/);
});

Deno.test({
  name: "a walk that takes a while draws its progress line on a terminal",
  ignore: !PTY,
  async fn() {
    const child = new URL("./_walk_child.ts", import.meta.url).pathname;
    const seen = await onTerminal(`${Deno.execPath()} run -A ${child}`);
    const walked = Number(seen.match(/walked (\d+)/)?.[1]);
    assert.ok(walked > 0, seen);
    assert.match(seen, /⟲… walk commons_repo · [\d,]+ entries · [\d,]+ folders visited/);
    assert.match(
      seen,
      new RegExp(
        `✓ walk commons_repo · ${walked.toLocaleString("en-US")} entries · [\\d,]+ folders walked`,
      ),
    );
  },
});

Deno.test("a read that fails before it starts still ends its ProgressChannel (a for-await never hangs)", async () => {
  await using server = await served();
  const store = connect({ url: server.url, anonymous: true, cacheDir: false, progress: false });
  const missing = "/iplant/home/shared/tern_samples/formats/no_such.csv";
  const target = await Deno.makeTempDir();
  const reads: [string, (onProgress: (event: ProgressEvent) => void) => Promise<unknown>][] = [
    [
      "file.dataframe() with a misspelt option",
      (onProgress) => store.file(missing).dataframe({ onProgress, colums: ["a"] } as never),
    ],
    ["file.scan() of a missing file", (onProgress) => store.file(missing).scan({ onProgress })],
    [
      "file.cachedPath() without a cache",
      (onProgress) => store.file(missing).cachedPath({ onProgress }),
    ],
    [
      "file.downloadTo() of a missing file",
      (onProgress) => store.file(missing).downloadTo(`${target}/`, { onProgress }),
    ],
    [
      "listing.dataframes() of a missing folder",
      (onProgress) => store.folder(missing).list().dataframes({ onProgress }),
    ],
    [
      "walk().dataframes() of a missing folder",
      (onProgress) => store.folder(missing).walk({ glob: "*.csv" }).dataframes({ onProgress }),
    ],
    [
      "listing.scan() of a missing folder",
      (onProgress) => store.folder(missing).list().scan({ onProgress }),
    ],
    [
      "search.dataframes() with a misspelt option",
      (onProgress) =>
        store.search(search.name("*.csv")).dataframes({ onProgress, colums: ["a"] } as never),
    ],
  ];
  try {
    for (const [name, read] of reads) {
      // As docs/notebooks.md uses it: the read started, the channel iterated, then awaited.
      const progress = new ProgressChannel();
      const reading = read(progress.report);
      reading.catch(() => {});
      // The watchdog only turns a channel that never ends into a failure instead of a hang.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const hung = new Promise<string[]>((resolve) => {
        timer = setTimeout(() => resolve(["never ended"]), 30_000);
      });
      const kinds = await Promise.race([
        Array.fromAsync(progress, (event) => `${event.kind}${event.ok === false ? " failed" : ""}`),
        hung,
      ]).finally(() => clearTimeout(timer));
      assert.deepEqual(kinds, ["start", "done failed"], name);
      await assert.rejects(reading, name);
    }
  } finally {
    await store.close();
    await Deno.remove(target, { recursive: true });
  }
});
