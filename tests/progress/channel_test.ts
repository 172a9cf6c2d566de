import assert from "node:assert/strict";
import { ProgressChannel } from "../../lib/progress/channel.ts";

Deno.test("the channel yields events in order, collapses queued byte events, and ends at done", async () => {
  const channel = new ProgressChannel();
  const base = {
    bytes: 0,
    totalBytes: 9,
    files: 0,
    totalFiles: 1,
    cachedFiles: 0,
    rate: 0,
    elapsedMs: 0,
  };
  channel.report({ ...base, kind: "start" });
  channel.report({ ...base, kind: "bytes", bytes: 3 });
  channel.report({ ...base, kind: "bytes", bytes: 6 });
  const seen: string[] = [];
  // Resolved once the reader has taken what was queued; it then waits for the next report.
  const drained = Promise.withResolvers<void>();
  const reading = (async () => {
    for await (const event of channel) {
      seen.push(`${event.kind}:${event.bytes}`);
      if (seen.length === 2) drained.resolve();
    }
  })();
  await drained.promise;
  channel.report({ ...base, kind: "file", bytes: 9, files: 1 });
  channel.report({ ...base, kind: "done", bytes: 9, files: 1, ok: true });
  channel.report({ ...base, kind: "bytes", bytes: 99 });
  await reading;
  assert.deepEqual(seen, ["start:0", "bytes:6", "file:9", "done:9"]);
});
