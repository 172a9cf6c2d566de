import assert from "node:assert/strict";
import { cellText, jsonText } from "../../lib/display/value.ts";
import { textPairs, textTable } from "../../lib/display/text.ts";

Deno.test("cell text never throws, whatever the value", () => {
  assert.deepEqual(
    [null, undefined, "a", 1.5, true, 10n, new Date(Date.UTC(2020, 0, 1)), new Date(NaN), [1, "b"]]
      .map(cellText),
    [
      "null",
      "null",
      "a",
      "1.5",
      "true",
      "10",
      "2020-01-01T00:00:00.000Z",
      "Invalid Date",
      '[1,"b"]',
    ],
  );
});

Deno.test("JSON text marks cycles but not shared values, and is bounded", () => {
  const shared = { x: 1 };
  assert.equal(jsonText({ a: shared, b: shared }, 0), '{"a":{"x":1},"b":{"x":1}}');
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  assert.equal(jsonText(cyclic, 0), '{"a":1,"self":"[cycle]"}');
  assert.equal(jsonText("x".repeat(100), 0, 10), `"${"x".repeat(8)}…`);
  let deep: unknown = "bottom";
  for (let i = 0; i < 100; i++) deep = [deep];
  assert.match(jsonText(deep, 0), /"\[…\]"/);
});

Deno.test("plain tables align, cut long cells and keep to one line per row", () => {
  assert.equal(
    textTable([{ heading: "name", max: 6 }, { heading: "size", right: true }], [
      ["a.csv", "1 B"],
      ["a\nvery long name", "10 kB"],
    ]),
    "  name     size\n  a.csv     1 B\n  a↵ver…  10 kB",
  );
  assert.equal(textPairs([["a", "1"], ["bb", undefined], ["ccc", "x\ny"]]), "  a:   1\n  ccc: x↵y");
});
