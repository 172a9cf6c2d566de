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
      frame: {
        height: 2,
        width: 2,
        columns: [
          { name: "species", type: "str", kind: "text" },
          { name: "mass", type: "f64", kind: "number" },
        ],
        head: [
          [{ text: "Adelie" }, { text: "3750.12", exact: "3750.1234" }],
          [{ text: "Gentoo" }, { text: "null", null: true }],
        ],
        tail: [],
      },
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
  assert.deepEqual(cells, [["Adelie", "3750.12"], ["Gentoo", "null"]]);
  assert.equal(root.querySelector("td.t-num")?.getAttribute("title"), "3750.1234");
  assert.match(
    bundle["text/plain"],
    /^File \/iplant\/home\/shared\/tern_samples\/formats\/penguins\.csv — 13\.5 kB, csv/,
  );
  assert.match(bundle["text/plain"], /species\s+mass\n\s+str\s+f64\n\s+Adelie\s+3750\.12/);
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
      frame: {
        height: 2,
        width: HOSTILE.length,
        columns: HOSTILE.map((name) => ({ name, type: HOSTILE[4], kind: "text" as const })),
        head: [HOSTILE.map((text) => ({ text })), HOSTILE.map(() => ({ text: LONG }))],
        tail: [],
      },
      more: false,
    },
  });
  const { root, text } = checkView(bundle);
  for (const value of [HOSTILE[0], HOSTILE[1], HOSTILE[2]]) assert.ok(text.includes(value), value);
  // Every cell's whole value is kept in its title, as text.
  const titles = [...root.querySelectorAll("tbody tr")][1].querySelectorAll("td");
  assert.ok(
    [...titles].every((cell) => cell.getAttribute("title")?.startsWith(LONG.slice(0, 1999))),
  );
  assert.ok(bundle["text/html"].length < 50_000);
});
