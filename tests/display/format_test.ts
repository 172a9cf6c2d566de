import assert from "node:assert/strict";
import {
  clip,
  formatBytes,
  formatCount,
  formatDate,
  formatDateTime,
  formatDuration,
  formatRate,
  oneLine,
  plainText,
  plural,
} from "../../lib/display/format.ts";

Deno.test("formatBytes uses SI units with three significant digits", () => {
  assert.deepEqual(
    [0, 999, 1000, 1234, 999_499, 999_600, 13_478, 3_456_789_012, -1, NaN].map(formatBytes),
    ["0 B", "999 B", "1.00 kB", "1.23 kB", "999 kB", "1.00 MB", "13.5 kB", "3.46 GB", "—", "—"],
  );
  assert.equal(formatRate(2_500_000), "2.50 MB/s");
});

Deno.test("counts and plurals do not depend on the machine's locale", () => {
  assert.equal(formatCount(20000), "20,000");
  assert.equal(plural(1, "entry", "entries"), "1 entry");
  assert.equal(plural(20000, "file"), "20,000 files");
});

Deno.test("dates are UTC to the minute; invalid dates are a dash", () => {
  const date = new Date(Date.UTC(2024, 2, 5, 14, 22, 59));
  assert.equal(formatDateTime(date), "2024-03-05 14:22");
  assert.equal(formatDate(date), "2024-03-05");
  assert.equal(formatDateTime(new Date(NaN)), "—");
  assert.equal(formatDate(undefined), "—");
});

Deno.test("durations read naturally at every scale", () => {
  assert.deepEqual(
    [0, 850, 4200, 42_000, 185_000, 7_440_000].map(formatDuration),
    ["0 ms", "850 ms", "4.2 s", "42 s", "3 min 05 s", "2 h 04 min"],
  );
});

Deno.test("clip counts code points and never splits an emoji", () => {
  assert.deepEqual(clip("🐧🐧🐧🐧", 3), { text: "🐧🐧…", cut: 2 });
  assert.deepEqual(clip("abc", 3), { text: "abc", cut: 0 });
});

Deno.test("plain text shows control characters instead of obeying them", () => {
  assert.equal(oneLine("a\r\nb\u001b[31mc\u0000"), "a↵b\\x1b[31mc\\x00");
  assert.equal(plainText("one\u001b\ntwo"), "one\\x1b\ntwo");
});
