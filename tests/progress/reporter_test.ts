import assert from "node:assert/strict";
import type { ProgressEvent } from "../../lib/progress/events.ts";
import {
  notebookSink,
  progressFor,
  progressReporter,
  type ProgressSink,
  SHOW_AFTER_MS,
  terminalSink,
  viewOf,
} from "../../lib/progress/reporter.ts";
import type { ProgressView } from "../../lib/display/progress.ts";
import { onTerminal, PTY } from "./_pty.ts";

function event(kind: ProgressEvent["kind"], elapsedMs: number, extra: Partial<ProgressEvent> = {}) {
  return {
    kind,
    bytes: 0,
    totalBytes: 1000,
    files: 0,
    totalFiles: 1,
    cachedFiles: 0,
    rate: 0,
    elapsedMs,
    ...extra,
  } satisfies ProgressEvent;
}

function recorder(): ProgressSink & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    draw: (view: ProgressView) => log.push(`draw ${view.state} ${view.bytes}`),
    finish: (view: ProgressView) => log.push(`finish ${view.state} ${view.bytes}`),
  };
}

Deno.test("progress: false shows nothing and costs nothing", () => {
  assert.equal(progressReporter({ setting: false, label: "x" }), undefined);
});

Deno.test("quick reads show nothing; long ones draw, then finish once", () => {
  const quick = recorder();
  const report = progressReporter({ label: "a.csv", sink: quick })!;
  report(event("start", 0));
  report(event("bytes", 100, { bytes: 500 }));
  report(event("done", 200, { bytes: 1000, ok: true }));
  assert.deepEqual(quick.log, []);

  const slow = recorder();
  const reportSlow = progressReporter({ label: "b.csv", sink: slow })!;
  reportSlow(event("start", 0));
  reportSlow(event("bytes", SHOW_AFTER_MS - 1, { bytes: 100 }));
  reportSlow(event("bytes", SHOW_AFTER_MS + 1, { bytes: 200 }));
  // Throttled: a redraw right after the first is skipped.
  reportSlow(event("bytes", SHOW_AFTER_MS + 2, { bytes: 300 }));
  reportSlow(event("done", SHOW_AFTER_MS + 3, { bytes: 1000, ok: false }));
  reportSlow(event("bytes", SHOW_AFTER_MS + 4, { bytes: 2000 }));
  assert.deepEqual(slow.log, ["draw running 200", "finish failed 1000"]);
});

Deno.test("a read that ends just after the delay still leaves its final line", () => {
  const sink = recorder();
  const report = progressReporter({ label: "c.csv", sink })!;
  report(event("start", 0));
  report(event("done", SHOW_AFTER_MS + 50, { bytes: 1000, ok: true }));
  assert.deepEqual(sink.log, ["finish done 1000"]);
});

Deno.test("a function setting receives the read's events instead of a display", () => {
  const seen: string[] = [];
  const report = progressReporter({ label: "x", setting: (e) => seen.push(e.kind) })!;
  report(event("start", 0));
  report({ kind: "bytes", entries: 3, folders: 1, elapsedMs: 5 });
  report(event("done", 10, { ok: true }));
  assert.deepEqual(seen, ["start", "done"]);
});

Deno.test("progressFor calls the caller's onProgress whatever the display does", () => {
  const own: string[] = [];
  const sinkless = progressFor(false, { onProgress: (e) => own.push(e.kind) }, "x")!;
  sinkless(event("start", 0));
  assert.deepEqual(own, ["start"]);
  assert.equal(progressFor(false, {}, "x"), undefined);
  assert.equal(progressFor(true, { progress: false }, "x"), undefined);
  const calls: string[] = [];
  const both = progressFor((e) => calls.push(`store ${e.kind}`), {
    onProgress: (e) => calls.push(`call ${e.kind}`),
  }, "x")!;
  both(event("start", 0));
  assert.deepEqual(calls, ["call start", "store start"]);
});

Deno.test("the notebook sink shows one display and then updates it in place", async () => {
  const sent: { bundle: Record<string, string>; options: Record<string, unknown> }[] = [];
  const sink = notebookSink((bundle, options) => {
    sent.push({ bundle, options });
    return Promise.reject(new Error("a broken front end must not break the read"));
  });
  const view = viewOf("many_files", event("bytes", 500, { bytes: 250 }));
  sink.draw(view);
  sink.draw({ ...view, bytes: 500 });
  sink.finish({ ...view, state: "done", bytes: 1000 });
  await new Promise((done) => setTimeout(done, 0));
  assert.equal(sent.length, 3);
  const id = sent[0].options.display_id;
  assert.match(String(id), /^tern-progress-/);
  assert.deepEqual(sent.map((s) => s.options), [
    { raw: true, display_id: id },
    { raw: true, update: true, display_id: id },
    { raw: true, update: true, display_id: id },
  ]);
  assert.deepEqual(Object.keys(sent[2].bundle).sort(), ["text/html", "text/plain"]);
  assert.match(sent[2].bundle["text/plain"], /^✓ many_files · 1\.00 kB in 500 ms/);
  const throwing = notebookSink(() => {
    throw new Error("sync failure");
  });
  throwing.draw(view);
});

Deno.test("the terminal sink redraws one line and ends it with a line break", () => {
  let screen = "";
  const sink = terminalSink((text) => screen += text, 60);
  const view = viewOf("slow.csv", event("bytes", 1000, { bytes: 500, rate: 500 }));
  sink.draw(view);
  sink.finish({ ...view, state: "done", bytes: 1000 });
  const lines = screen.split("\r\x1b[2K").filter((line) => line !== "");
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^\[#{10}·{10}\] 50% slow\.csv/);
  assert.ok(Array.from(lines[0]).length <= 59);
  assert.match(lines[1], /^\[#{20}\] ✓ slow\.csv .*\n$/);
  const broken = terminalSink(() => {
    throw new Error("stderr closed");
  });
  broken.draw(view);
});

Deno.test({
  name: "on a real terminal, a slow read draws a bar on stderr; in a pipe, nothing",
  ignore: !PTY,
  async fn() {
    const child = new URL("./_terminal_child.ts", import.meta.url).pathname;
    const seen = await onTerminal(`${Deno.execPath()} run --no-prompt ${child}`);
    assert.match(seen, /reporter: yes/);
    assert.match(seen, /⟲\[#+·*\] \d+% slow\.csv/);
    assert.match(seen, /⟲\[#{20}\] ✓ slow\.csv · 1\.00 MB in 1\.\d s/);

    const piped = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", child],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(piped.stdout).trim(), "reporter: none");
    assert.equal(new TextDecoder().decode(piped.stderr), "");
  },
});
