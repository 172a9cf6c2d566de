import assert from "node:assert/strict";
import {
  fraction,
  progressLine,
  type ProgressView,
  remainingMs,
  renderProgress,
  textBar,
} from "../../lib/display/progress.ts";
import { checkView, HOSTILE } from "./_safety.ts";

const running: ProgressView = {
  label: "many_files",
  state: "running",
  bytes: 5e6,
  totalBytes: 2e7,
  files: 100,
  totalFiles: 400,
  cachedFiles: 0,
  rate: 2.5e6,
  elapsedMs: 2000,
};

Deno.test("a running read shows bytes and files of the total, the rate and the time left", () => {
  assert.equal(
    progressLine(running),
    "25% many_files · 5.00 MB of 20.0 MB · 100/400 files · 2.50 MB/s · 6.0 s left",
  );
  const { root } = checkView(renderProgress(running));
  assert.equal(root.querySelector(".t-bar span")!.getAttribute("style"), "width:25.0%");
});

Deno.test("a finished read keeps a one-line record; a failed one says how far it got", () => {
  const done = {
    ...running,
    state: "done" as const,
    bytes: 2e7,
    files: 400,
    cachedFiles: 12,
    elapsedMs: 8000,
  };
  assert.equal(
    progressLine(done),
    "✓ many_files · 400 files · 20.0 MB in 8.0 s · 2.50 MB/s · 12 from the cache",
  );
  assert.match(
    checkView(renderProgress(done)).root.querySelector(".t-progress")!.getAttribute("class")!,
    /t-done/,
  );
  assert.equal(
    progressLine({ ...running, state: "failed" }),
    "✗ many_files · 100 of 400 files · 5.00 MB in 2.0 s · 2.50 MB/s",
  );
});

Deno.test("no rate for a read shorter than a second: it would measure start-up, not transfer", () => {
  // A 13.5 kB file read in 0.9 s (mostly loading Polars) is not "15.0 kB/s".
  const small: ProgressView = {
    label: "seattle-weather.csv",
    state: "done",
    bytes: 13_500,
    totalBytes: 13_500,
    files: 1,
    totalFiles: 1,
    cachedFiles: 0,
    rate: 15_000,
    elapsedMs: 900,
  };
  assert.equal(progressLine(small), "✓ seattle-weather.csv · 13.5 kB in 900 ms");
  assert.equal(
    progressLine({ ...small, state: "running", bytes: 6_750 }),
    "50% seattle-weather.csv · 6.75 kB of 13.5 kB · 450 ms left",
  );
  // From a second on, the average rate is shown.
  assert.equal(
    progressLine({ ...small, elapsedMs: 1000, rate: 13_500 }),
    "✓ seattle-weather.csv · 13.5 kB in 1.0 s · 13.5 kB/s",
  );
  assert.equal(
    progressLine({ ...small, state: "running", bytes: 6_750, elapsedMs: 1000, rate: 6_750 }),
    "50% seattle-weather.csv · 6.75 kB of 13.5 kB · 6.75 kB/s · 1.0 s left",
  );
});

Deno.test("a walk counts entries and folders, with no bar until it is done", () => {
  const walk: ProgressView = {
    ...running,
    folders: 12,
    files: 3456,
    totalFiles: 0,
    bytes: 0,
    totalBytes: 0,
    elapsedMs: 1500,
  };
  assert.equal(progressLine(walk), "… many_files · 3,456 entries · 12 folders visited · 1.5 s");
  assert.equal(checkView(renderProgress(walk)).root.querySelectorAll(".t-bar").length, 0);
  assert.equal(
    checkView(renderProgress({ ...walk, state: "done" })).root.querySelectorAll(".t-bar").length,
    1,
  );
});

Deno.test("fraction and time left fall back from bytes to files, and say when unknown", () => {
  assert.equal(fraction({ bytes: 0, totalBytes: 0, files: 1, totalFiles: 4 }), 0.25);
  assert.equal(fraction({ bytes: 0, totalBytes: 0, files: 0, totalFiles: 0 }), 0);
  assert.equal(remainingMs({ ...running, bytes: 0, totalBytes: 0, files: 0 }), undefined);
  assert.equal(remainingMs({ ...running, totalBytes: 0 }), 6000);
  assert.equal(textBar(0.5, 10), "[#####·····]");
  assert.equal(textBar(2, 4), "[####]");
});

Deno.test("a hostile label is text", () => {
  const { text } = checkView(renderProgress({ ...running, label: HOSTILE[0] }));
  assert.ok(text.includes(HOSTILE[0]));
});
