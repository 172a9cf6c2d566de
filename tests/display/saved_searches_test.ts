import assert from "node:assert/strict";
import { renderSavedSearches } from "../../lib/display/saved_searches.ts";
import { checkView, HOSTILE } from "./_safety.ts";

Deno.test("a list of query templates becomes a table of the fields people know", () => {
  const bundle = renderSavedSearches([
    { label: "my fastq files", fileQuery: "*.fastq", ownedBy: "jdoe", files: [], folders: [] },
    { label: "csv", fileQuery: "*.csv", fileSizeRange: { min: 1, minUnit: "MB" } },
  ]);
  const { root, text } = checkView(bundle);
  const headings = [...root.querySelectorAll("thead th")].map((cell) => cell.textContent);
  assert.deepEqual(headings, ["label", "fileQuery", "ownedBy", "fileSizeRange"]);
  assert.match(text, /\{"min":1,"minUnit":"MB"\}/);
  assert.match(bundle["text/plain"], /^Saved searches — 2 searches/);
});

Deno.test("{} means none; any other JSON is shown as JSON", () => {
  assert.match(checkView(renderSavedSearches({})).text, /No saved searches/);
  assert.equal(renderSavedSearches({})["text/plain"], "Saved searches — none");
  const odd = checkView(renderSavedSearches({ version: 2, items: "x" }));
  assert.match(odd.text, /"version": 2/);
  checkView(renderSavedSearches("just a string"));
  checkView(renderSavedSearches(null));
});

Deno.test("hostile saved searches stay text", () => {
  const searches = HOSTILE.map((value) => ({ label: value, fileQuery: value, [value]: value }));
  const bundle = renderSavedSearches(searches);
  const { text } = checkView(bundle);
  for (const value of HOSTILE) assert.ok(text.includes(value), value);
  const cyclic: Record<string, unknown> = { label: HOSTILE[0] };
  cyclic.self = cyclic;
  checkView(renderSavedSearches([cyclic]));
  checkView(renderSavedSearches({ big: 10n, [HOSTILE[1]]: HOSTILE }));
});
