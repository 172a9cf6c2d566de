import assert from "node:assert/strict";
import {
  clip,
  formatBytes,
  formatCount,
  formatDate,
  formatDateTime,
  formatDuration,
  formatRate,
  layoutText,
  oneLine,
  plainText,
  plural,
  visibleText,
} from "../../lib/display/format.ts";
import { renderCitation } from "../../lib/display/citation.ts";
import { renderComments } from "../../lib/display/comments.ts";
import { renderListing } from "../../lib/display/listing.ts";
import { safeText } from "../../lib/cli/format.ts";

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

Deno.test("bidirectional and invisible characters are escaped in every text/plain view and the CLI (issue 12)", () => {
  const spoof = "invoice\u202Efdp.exe";
  const shown = "invoice\\u{202e}fdp.exe";
  for (const hidden of ["\u202E", "\u2066", "\u200F", "\u061C", "\u200B", "\u2028", "\uFEFF"]) {
    assert.ok(!oneLine(`a${hidden}b`).includes(hidden), JSON.stringify(hidden));
    assert.ok(!plainText(`a${hidden}b`).includes(hidden), JSON.stringify(hidden));
  }
  assert.equal(oneLine(spoof), shown);
  assert.equal(plainText(`${spoof}\nline 2`), `${shown}\nline 2`);
  // One helper: the CLI escapes exactly as the views do.
  assert.equal(safeText, visibleText);
  assert.equal(safeText(spoof), shown);

  const comments = renderComments({
    path: `/iplant/home/shared/${spoof}`,
    comments: [{ author: `ev\u202Eil`, posted: new Date(0), retracted: false, text: spoof }],
  })["text/plain"];
  const citation =
    renderCitation({ style: "bibtex", text: `@misc{x,\n\ttitle = {${spoof}}\n}`, others: [] })[
      "text/plain"
    ];
  assert.equal(citation, `@misc{x,\n\ttitle = {${shown}}\n}`);
  assert.equal(layoutText(spoof), shown);
  const listing = renderListing({
    kind: "Folder",
    title: spoof,
    path: `/iplant/home/shared/${spoof}`,
    entries: [{ name: spoof, type: "file", size: 1, infoType: "csv", modified: new Date(0) }],
    total: 1,
    more: false,
  })["text/plain"];
  for (const text of [comments, citation, listing]) {
    assert.ok(!/[\u202A-\u202E\u2066-\u2069]/.test(text), text);
    assert.ok(text.includes(shown), text);
  }
});
