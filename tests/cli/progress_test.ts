import assert from "node:assert/strict";
import { Output } from "../../lib/cli/io.ts";
import { TransferProgress } from "../../lib/cli/progress.ts";
import { SHOW_AFTER_MS } from "../../lib/progress/reporter.ts";

/** The terminal's "clear line" sequence, spelt out so expectations can be regular expressions. */
const cleared = (text: string) => text.replaceAll("\x1b[2K", "<clear>");

function screen(terminal: boolean): { out: Output; text: () => string } {
  let text = "";
  const decoder = new TextDecoder();
  const out = new Output(
    {
      write: (bytes) => {
        text += decoder.decode(bytes);
        return Promise.resolve(bytes.length);
      },
    },
    terminal,
    false,
  );
  return { out, text: () => text };
}

Deno.test("on a terminal: notes above one bar, which only shows for slow transfers", async () => {
  const { out, text } = screen(true);
  // The transfer's clock is stepped, so a busy machine cannot make the quick part slow.
  let now = 0;
  const progress = new TransferProgress(out, "formats", 2, 2000, { clock: () => now });
  progress.bytes(500);
  progress.note("downloaded  a.csv");
  await out.flush();
  // Quick transfers draw no bar: only the note, written over any bar line.
  assert.equal(text(), "\r\x1b[2Kdownloaded  a.csv\n");
  now += SHOW_AFTER_MS + 50;
  progress.bytes(500);
  await out.flush();
  assert.match(cleared(text()), /<clear>\[#+·+\] 50% formats · 1\.00 kB of 2\.00 kB/);
  progress.fileDone("/a.csv", false);
  progress.bytes(1000);
  progress.fileDone("/b.csv", true);
  await progress.finish(true);
  assert.ok(text().endsWith("\n"));
  assert.match(
    cleared(text().split("\r").at(-1)!),
    /^<clear>\[#{20}\] ✓ formats · 2 files · 2\.00 kB in /,
  );
});

Deno.test("elsewhere: plain note lines and no bar at all", async () => {
  const { out, text } = screen(false);
  let now = 0;
  const progress = new TransferProgress(out, "formats", 1, 1000, { clock: () => now });
  now += SHOW_AFTER_MS + 50; // slow enough for a bar, were stderr a terminal
  progress.bytes(1000);
  progress.note("downloaded  a.csv");
  progress.fileDone("/a.csv", false);
  await progress.finish(true);
  assert.equal(text(), "downloaded  a.csv\n");
});
