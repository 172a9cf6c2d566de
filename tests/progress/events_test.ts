import assert from "node:assert/strict";
import { type ProgressEvent, ProgressTracker } from "../../lib/progress/events.ts";

Deno.test("the tracker throttles byte events, reports every file and one done", () => {
  const events: ProgressEvent[] = [];
  // A stepped clock: the 100 calls come within one instant however slowly the machine runs.
  let now = 0;
  const tracker = new ProgressTracker((event) => events.push(event), 2, 1000, {
    clock: () => now,
  });
  for (let i = 0; i < 100; i++) tracker.bytes(5);
  now += 99;
  tracker.bytes(0);
  now += 11;
  tracker.bytes(500);
  tracker.fileDone("/a.csv", true);
  tracker.done(true);
  tracker.done(false);
  assert.deepEqual(events.map((event) => event.kind), ["start", "bytes", "bytes", "file", "done"]);
  assert.deepEqual(events.slice(1, 3).map((event) => event.bytes), [5, 1000]);
  const last = events.at(-1)!;
  assert.deepEqual(
    [last.bytes, last.totalBytes, last.files, last.totalFiles, last.cachedFiles, last.ok],
    [1000, 1000, 1, 2, 1, true],
  );
  assert.equal(events[3].path, "/a.csv");
  assert.equal(last.rate, 1000 / 0.11);
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
