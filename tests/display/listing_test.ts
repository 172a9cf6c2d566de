import assert from "node:assert/strict";
import { type EntryRow, renderListing, typeLabel } from "../../lib/display/listing.ts";
import { checkView, HOSTILE, LONG } from "./_safety.ts";

const when = new Date(Date.UTC(2023, 6, 23, 21, 19));

function file(name: string, size = 1234, infoType: string | null = "csv"): EntryRow {
  return { name, type: "file", size, modified: when, infoType };
}

Deno.test("a listing shows its first entries and says how many there are in all", () => {
  const entries = [
    { name: "archive", type: "folder" as const, size: 0, modified: when, infoType: null },
    ...Array.from({ length: 24 }, (_, index) => file(`part-${index}.csv`)),
  ];
  const bundle = renderListing({
    kind: "Folder",
    title: "many_files",
    path: "/iplant/home/shared/tern_samples/many_files",
    entries,
    total: 20_003,
    more: true,
    hint: "iterate folder.list() for every entry",
  });
  const { root, text } = checkView(bundle);
  assert.equal(root.querySelectorAll("tbody tr").length, 25);
  assert.match(text, /showing 25 of 20,003 entries/);
  assert.match(text, /19,978 more entries — iterate folder\.list\(\) for every entry/);
  assert.match(text, /archive\//);
  assert.match(
    bundle["text/plain"],
    /^Folder \/iplant\/home\/shared\/tern_samples\/many_files — showing 25 of 20,003 entries/,
  );
  assert.match(bundle["text/plain"], /part-0\.csv\s+csv\s+1\.23 kB\s+2023-07-23 21:19/);
  assert.match(bundle["text/plain"], /… 19,978 more — iterate folder\.list\(\)/);
});

Deno.test("a complete listing says so, and an empty one says it is empty", () => {
  const full = checkView(renderListing({
    kind: "Listing",
    title: "x",
    entries: [file("a.csv")],
    total: 1,
    more: false,
  }));
  assert.match(full.text, /1 entry/);
  assert.doesNotMatch(full.text, /more/);
  const empty = checkView(
    renderListing({ kind: "Folder", title: "e", entries: [], total: 0, more: false }),
  );
  assert.match(empty.text, /No entries\./);
});

Deno.test("a walk without a total still never cuts silently", () => {
  const { text } = checkView(renderListing({
    kind: "Walk",
    title: "tree",
    entries: [file("a/b.csv")],
    more: true,
    hint: "iterate the listing",
  }));
  assert.match(text, /showing the first 1 entries/);
  assert.match(text, /more entries — iterate the listing/);
});

Deno.test("hostile names are shown as text, exactly, and long ones are cut", () => {
  const bundle = renderListing({
    kind: "Folder",
    title: HOSTILE[0],
    path: `/iplant/home/${HOSTILE[1]}`,
    description: HOSTILE[3],
    facts: [HOSTILE[4]],
    entries: [...HOSTILE.map((name) => file(name, 1, HOSTILE[2])), file(LONG)],
    total: HOSTILE.length + 1,
    more: false,
  });
  const { root, text } = checkView(bundle);
  for (const name of HOSTILE) assert.ok(text.includes(name), name);
  const cells = [...root.querySelectorAll("td.t-name bdi")].map((cell) => cell.textContent);
  assert.deepEqual(cells.slice(0, HOSTILE.length), HOSTILE.map((name) => name));
  assert.ok(bundle["text/html"].length < 40_000, `${bundle["text/html"].length} bytes`);
  assert.match(text, /more characters/);
  assert.ok(!bundle["text/plain"].includes("\u001b"), "ANSI escapes reach text/plain");
});

Deno.test("the type column falls back from Terrain's unknown to the extension", () => {
  assert.equal(typeLabel(file("README.txt", 1, "unknown")), "txt");
  assert.equal(typeLabel(file("penguins.csv", 1, "csv")), "csv");
  assert.equal(typeLabel(file("Makefile", 1, "unknown")), "file");
  assert.equal(typeLabel(file(".hidden", 1, null)), "file");
  assert.equal(typeLabel({ name: "x", type: "folder", infoType: null }), "folder");
});
