import assert from "node:assert/strict";
import { renderFile } from "../../lib/display/file.ts";
import { checkView, HOSTILE, HOSTILE_URLS, LONG } from "./_safety.ts";

const modified = new Date(Date.UTC(2020, 6, 16, 9, 30));

Deno.test("a file shows size, type, dates, its public URL and its first rows", () => {
  const bundle = renderFile({
    path: "/iplant/home/shared/tern_samples/formats/penguins.csv",
    name: "penguins.csv",
    size: 13_478,
    infoType: "csv",
    contentType: "text/csv",
    modified,
    publicUrl:
      "https://data.cyverse.org/dav-anon/iplant/home/shared/tern_samples/formats/penguins.csv",
    preview: {
      columns: [{ name: "species", type: "str" }, { name: "mass", type: "f64" }],
      rows: [["Adelie", 3750], ["Gentoo", null]],
      more: true,
      format: "csv",
    },
  });
  const { root, text, hrefs } = checkView(bundle);
  assert.deepEqual(hrefs, [
    "https://data.cyverse.org/dav-anon/iplant/home/shared/tern_samples/formats/penguins.csv",
  ]);
  assert.match(text, /13\.5 kB/);
  assert.match(text, /First 2 rows \(csv\)/);
  const cells = [...root.querySelectorAll("tbody tr")].map((row) =>
    [...row.querySelectorAll("td")].map((cell) => cell.textContent)
  );
  assert.deepEqual(cells, [["Adelie", "3750"], ["Gentoo", "null"]]);
  assert.match(
    bundle["text/plain"],
    /^File \/iplant\/home\/shared\/tern_samples\/formats\/penguins\.csv — 13\.5 kB, csv/,
  );
  assert.match(bundle["text/plain"], /species\s+mass\n\s+Adelie\s+3750/);
});

Deno.test("without a preview the file says why", () => {
  const { text } = checkView(renderFile({
    path: "/a/b.png",
    name: "b.png",
    size: 10,
    previewNote: "Not a table (png).",
  }));
  assert.match(text, /Not a table \(png\)\./);
});

Deno.test("hostile names, URLs and cell values are inert", () => {
  for (const url of HOSTILE_URLS) {
    const { hrefs } = checkView(renderFile({ path: "/a", name: "a", publicUrl: url }));
    assert.deepEqual(hrefs, [], url);
  }
  const bundle = renderFile({
    path: `/iplant/${HOSTILE[0]}`,
    name: HOSTILE[1],
    infoType: HOSTILE[2],
    contentType: HOSTILE[3],
    preview: {
      columns: HOSTILE.map((name) => ({ name, type: HOSTILE[4] })),
      rows: [HOSTILE.map((value) => value), HOSTILE.map(() => LONG)],
      more: false,
    },
  });
  const { text } = checkView(bundle);
  for (const value of HOSTILE) assert.ok(text.includes(value), value);
  assert.ok(bundle["text/html"].length < 50_000);
});
