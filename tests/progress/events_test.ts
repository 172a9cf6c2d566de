import assert from "node:assert/strict";
import { type ProgressEvent, ProgressTracker } from "../../lib/progress/events.ts";

Deno.test("the tracker throttles byte events, reports every file and one done", async () => {
  const events: ProgressEvent[] = [];
  const tracker = new ProgressTracker((event) => events.push(event), 2, 1000);
  for (let i = 0; i < 100; i++) tracker.bytes(5);
  await new Promise((resolve) => setTimeout(resolve, 110));
  tracker.bytes(500);
  tracker.fileDone("/a.csv", true);
  tracker.done(true);
  tracker.done(false);
  assert.deepEqual(events.map((event) => event.kind), ["start", "bytes", "bytes", "file", "done"]);
  const last = events.at(-1)!;
  assert.deepEqual(
    [last.bytes, last.totalBytes, last.files, last.totalFiles, last.cachedFiles, last.ok],
    [1000, 1000, 1, 2, 1, true],
  );
  assert.equal(events[3].path, "/a.csv");
  assert.ok(last.rate > 0 && last.rate < 1000 / 0.1, String(last.rate));
});

Deno.test("a throwing progress callback does not break the read", () => {
  const tracker = new ProgressTracker(
    () => {
      throw new Error("display broke");
    },
    1,
    10,
  );
  tracker.bytes(10);
  tracker.done(true);
  assert.equal(tracker.received, 10);
});
