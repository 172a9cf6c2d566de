/**
 * Progress wired through the store: `connect({ progress })` reaches reads, many-file reads and
 * downloads; `progress: false` on a call silences it while `onProgress` still hears every event;
 * a walk draws its own line on a terminal.
 */

import assert from "node:assert/strict";
import { connect, type ProgressEvent } from "../../mod.ts";
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
