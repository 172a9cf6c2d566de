/**
 * `deno task test` runs the suite as two `deno test` runs (tests/run.ts); its last line must sum
 * both in Deno's summary format, which CI's `.ci/run` reads.
 */

import assert from "node:assert/strict";
import { combinedSummary, parseSummary } from "./run.ts";

const ESC = "\x1b";

Deno.test("a Deno summary line is read with or without colours, steps and extra counts", () => {
  const coloured = `running 1 test\n\n${ESC}[0m${ESC}[32mok${ESC}[0m | 1675 passed (133 steps) | ` +
    `0 failed ${ESC}[0m${ESC}[38;5;245m(3m50s)${ESC}[0m\n\n`;
  assert.deepEqual(parseSummary(coloured), {
    passed: { tests: 1675, steps: 133 },
    failed: { tests: 0, steps: 0 },
  });
  assert.deepEqual(
    parseSummary(
      "FAILED | 12 passed (1 step) | 2 failed (3 steps) | 1 ignored | 4 filtered out (5s)",
    ),
    {
      passed: { tests: 12, steps: 1 },
      failed: { tests: 2, steps: 3 },
      ignored: { tests: 1, steps: 0 },
      "filtered out": { tests: 4, steps: 0 },
    },
  );
  assert.equal(parseSummary("error: Type checking failed.\n"), undefined);
});

Deno.test("the combined line sums every run, fails if one failed, and counts a crash", () => {
  const ok = combinedSummary([
    { ok: true, counts: parseSummary("ok | 1675 passed (133 steps) | 0 failed (3m50s)") },
    { ok: true, counts: parseSummary("ok | 125 passed (54 steps) | 0 failed | 1 ignored (1m26s)") },
  ], 316_000);
  assert.equal(ok, "ok | 1800 passed (187 steps) | 0 failed | 1 ignored (5m16s)");
  // What .ci/run greps for and takes the counts from.
  assert.match(ok, /^(ok|FAILED) \| [0-9]+ passed/);

  const failed = combinedSummary([
    { ok: false, counts: parseSummary("FAILED | 10 passed | 2 failed (1 step) (1s)") },
    { ok: true, counts: parseSummary("ok | 5 passed | 0 failed (1s)") },
  ], 2_000);
  assert.equal(failed, "FAILED | 15 passed | 2 failed (1 step) (2s)");

  const crashed = combinedSummary([
    { ok: true, counts: parseSummary("ok | 10 passed | 0 failed (1s)") },
    { ok: false },
  ], 1_000);
  assert.equal(crashed, "FAILED | 10 passed | 1 failed (1s)");
});
