import assert from "node:assert/strict";
import fc from "fast-check";
import type { Entry } from "../../mod.ts";
import {
  entryJson,
  fields,
  humanSize,
  jsonLine,
  longLine,
  safeText,
  shortDate,
  styles,
} from "../../lib/cli/format.ts";

/** Controls, bidirectional controls and other invisible characters, by code point. */
function hasUnsafe(text: string): boolean {
  return [...text].some((char) => {
    const code = char.codePointAt(0)!;
    return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0xad || code === 0x61c ||
      code === 0x180e || code === 0x200b || code === 0x200e || code === 0x200f ||
      (code >= 0x2028 && code <= 0x202e) || (code >= 0x2060 && code <= 0x2064) ||
      (code >= 0x2066 && code <= 0x206f) || code === 0xfeff ||
      (code >= 0xe0000 && code <= 0xe007f) ||
      // Every other control or format character (U+0600, U+FFF9, …), joiners excepted: the
      // property test draws from all of Unicode, so the list above alone would fail by chance.
      (/[\p{Cc}\p{Cf}]/u.test(char) && code !== 0x200c && code !== 0x200d);
  });
}

function entry(overrides: Partial<Entry> = {}): Entry {
  return {
    id: "5fd7deff-dc59-52aa-86bf-4ccace6f7a31",
    path: "/iplant/home/shared/a.csv",
    name: "a.csv",
    type: "file",
    size: 13487,
    created: new Date("2024-01-10T09:00:00Z"),
    modified: new Date("2024-01-10T09:00:59Z"),
    infoType: "csv",
    permission: "read",
    ...overrides,
  };
}

Deno.test("safeText escapes what could drive a terminal and nothing else", () => {
  assert.equal(safeText("plain \\ name (2024).csv"), "plain \\ name (2024).csv");
  assert.equal(safeText("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  assert.equal(safeText("\x1b[2J\x07\x7f\x9b"), "\\x1b[2J\\x07\\x7f\\x9b");
  assert.equal(safeText("abc\u202Egnp.exe"), "abc\\u{202e}gnp.exe");
  assert.equal(safeText("données météo ✓.csv"), "données météo ✓.csv");
  // Invisible characters beyond the bidirectional overrides (issue 12).
  assert.equal(safeText("a\u2067b\u200Bc\uFEFFd\u00ADe"), "a\\u{2067}b\\u{200b}c\\u{feff}d\\xade");
  assert.equal(safeText("👩‍🔬 زمین‌شناسی"), "👩‍🔬 زمین‌شناسی", "joiners are kept");
  // The tag block, unassigned code points included (found by the property below).
  assert.equal(safeText("a\u{E0002}b\u{E0041}"), "a\\u{e0002}b\\u{e0041}");
  fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
    const safe = safeText(text);
    assert.equal(hasUnsafe(safe), false);
    if (!hasUnsafe(text)) assert.equal(safe, text);
  }));
});

Deno.test("humanSize uses SI units with one decimal below 100", () => {
  assert.equal(humanSize(0), "0 B");
  assert.equal(humanSize(999), "999 B");
  assert.equal(humanSize(1000), "1.0 kB");
  assert.equal(humanSize(13487), "13.5 kB");
  assert.equal(humanSize(99_949), "99.9 kB");
  assert.equal(humanSize(99_950), "100 kB");
  assert.equal(humanSize(999_499), "999 kB");
  assert.equal(humanSize(999_500), "1.0 MB");
  assert.equal(humanSize(13_493_022), "13.5 MB");
  assert.equal(humanSize(5e12), "5.0 TB");
});

Deno.test("dates are shown to the minute in UTC; bad dates do not throw", () => {
  assert.equal(shortDate(new Date("2024-01-10T09:00:59Z")), "2024-01-10 09:00");
  assert.equal(shortDate(new Date(Number.NaN)), "????-??-?? ??:??");
  assert.equal(entryJson(entry({ modified: new Date(Number.NaN) })).modified, null);
});

Deno.test("long lines keep their columns whatever the size", () => {
  const plain = styles(false);
  const options = { bytes: false, fullPath: false };
  const small = longLine(entry({ size: 5 }), plain, options);
  const large = longLine(entry({ size: 5e12, name: "b.csv" }), plain, options);
  assert.equal(small.indexOf("2024"), large.indexOf("2024"));
  assert.equal(small, "-      5 B  2024-01-10 09:00  csv       a.csv");
  const folder = longLine(entry({ type: "folder", size: 0, infoType: null, name: "raw" }), plain, {
    bytes: true,
    fullPath: false,
  });
  assert.equal(folder, "d             -  2024-01-10 09:00  -         raw/");
});

Deno.test("entryJson has a fixed key order and appends extras", () => {
  assert.deepEqual(Object.keys(entryJson(entry(), { depth: 2 })), [
    "path",
    "name",
    "type",
    "size",
    "modified",
    "created",
    "infoType",
    "permission",
    "id",
    "depth",
  ]);
});

Deno.test("jsonLine writes 64-bit integers as numbers when exact, else as strings", () => {
  assert.equal(
    jsonLine({ a: 1n, b: 2n ** 63n, c: -(2n ** 60n) }),
    '{"a":1,"b":"9223372036854775808","c":"-1152921504606846976"}',
  );
});

Deno.test("fields align keys, skip absent values and indent continuation lines", () => {
  assert.equal(
    fields([["path", "/x"], ["skipped", undefined], ["creators", "A\nB"]]),
    "path      /x\ncreators  A\n          B",
  );
});

Deno.test("colour is only added when asked for", () => {
  assert.equal(styles(false).folder("raw"), "raw");
  assert.equal(styles(true).folder("raw"), "\x1b[1;34mraw\x1b[0m");
});
