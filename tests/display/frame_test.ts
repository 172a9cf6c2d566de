import assert from "node:assert/strict";
import { oneLine } from "../../lib/display/format.ts";
import { type FrameCell, frameText, type FrameView, renderFrame } from "../../lib/display/frame.ts";
import { checkView, HOSTILE, LONG } from "./_safety.ts";

const columns: FrameView["columns"] = [
  { name: "species", type: "str", kind: "text" },
  { name: "mass", type: "f64", kind: "number" },
  { name: "year", type: "i64", kind: "integer" },
];

function row(species: string, mass: FrameCell, year: string): FrameCell[] {
  return [{ text: species }, mass, { text: year }];
}

Deno.test("a DataFrame view: shape, types, rounded numbers with the exact value kept", () => {
  const bundle = renderFrame({
    height: 344,
    width: 3,
    columns,
    head: [row("Adelie", { text: "3733.09", exact: "3733.0882352941176" }, "2007")],
    tail: [row("Gentoo", { text: "null", null: true }, "2009")],
  });
  const { root, text } = checkView(bundle);
  assert.match(text, /344 rows × 3 columns/);
  assert.deepEqual(
    [...root.querySelectorAll(".t-coltype")].map((cell) => cell.textContent),
    ["str", "f64", "i64"],
  );
  const mass = root.querySelector("tbody tr td.t-num");
  assert.equal(mass?.textContent, "3733.09");
  assert.equal(mass?.getAttribute("title"), "3733.0882352941176");
  // Numbers right-aligned (headers too), text left, the null set apart from the text "null".
  assert.equal(root.querySelectorAll("th.t-num").length, 2);
  assert.ok(!root.querySelector("tbody td")?.getAttribute("class"), "text is not right-aligned");
  assert.equal(root.querySelectorAll("td.t-null").length, 1);
  assert.ok(
    root.querySelector("td.t-null")?.getAttribute("class")?.split(" ").includes("t-num"),
    "a null in a number column aligns with its numbers",
  );
  // Head and tail with the hidden rows counted between them.
  const gap = root.querySelector("tr.t-gap td");
  assert.equal(gap?.textContent, "… 342 more rows");
  assert.equal(gap?.getAttribute("colspan"), "3");
  // The table scrolls sideways inside its card.
  assert.equal(root.querySelector(".t-scroll")?.children[0]?.tagName, "TABLE");
  assert.match(bundle["text/plain"], /… 342 more rows/);
});

Deno.test("a DataFrame view escapes every value and bounds long text, keeping it whole in a title", () => {
  const hostile = HOSTILE.map((value) => row(value, { text: "1" }, "2"));
  const bundle = renderFrame({
    height: hostile.length + 1,
    width: 3,
    columns: [{ name: HOSTILE[0], type: HOSTILE[1], kind: "text" }, ...columns.slice(1)],
    head: [...hostile, row(LONG, { text: "1" }, "2")],
    tail: [],
  });
  const { root } = checkView(bundle);
  assert.ok(!bundle["text/html"].includes("<script>"));
  const cells = [...root.querySelectorAll("tbody tr")].map((tr) => tr.querySelector("td")!);
  // Shown as text (one line, control characters visible), cut at 48 characters.
  assert.deepEqual(
    cells.slice(0, HOSTILE.length).map((cell) => cell.textContent),
    HOSTILE.map((value) => {
      const line = [...oneLine(value)];
      return line.length > 48 ? `${line.slice(0, 47).join("")}…` : line.join("");
    }),
  );
  const long = cells.at(-1)!;
  assert.equal(long.textContent, `${LONG.slice(0, 47)}…`);
  // The tooltip keeps the value whole up to 2,000 characters, so the output stays bounded.
  assert.equal(long.getAttribute("title"), `${LONG.slice(0, 1999)}…`);
  assert.ok(bundle["text/html"].length < 40_000);
  const paragraph = "word ".repeat(300).trim();
  const whole = renderFrame({
    height: 1,
    width: 1,
    columns: columns.slice(0, 1),
    head: [[{ text: paragraph }]],
    tail: [],
  });
  assert.ok(whole["text/html"].includes(`title="${paragraph}"`));
});

Deno.test("the plain-text table fits its width: text columns narrow first, then columns drop", () => {
  const many: FrameView = {
    height: 1,
    width: 12,
    columns: Array.from({ length: 12 }, (_, index) => ({
      name: `column ${index}`,
      type: "str",
      kind: "text" as const,
    })),
    head: [Array.from({ length: 12 }, () => ({ text: "Palmer Archipelago (Antarctica)" }))],
    tail: [],
  };
  for (const width of [40, 80]) {
    const text = frameText(many, width);
    for (const line of text.split("\n")) assert.ok(line.length <= width, `${width}: ${line}`);
    assert.match(text, /more columns not shown/);
  }
  const narrow = frameText({
    height: 1,
    width: 2,
    columns: columns.slice(1),
    head: [[{ text: "5076.02" }, { text: "2020" }]],
    tail: [],
  }, 30);
  assert.deepEqual(narrow.split("\n").slice(1), [
    "     mass  year",
    "      f64   i64",
    "  5076.02  2020",
  ]);
});

Deno.test("text aligns left and numbers right, in notebooks that right-align every cell", () => {
  const bundle = renderFrame({
    height: 1,
    width: 3,
    columns,
    head: [row("Adelie", { text: "3733.09", exact: "3733.0882352941176" }, "2007")],
    tail: [],
  });
  const { root } = checkView(bundle);
  const [species, mass, year] = [...root.querySelectorAll("tbody td")];
  assert.equal(species.getAttribute("class") ?? "", "");
  assert.equal(mass.getAttribute("class"), "t-num");
  assert.equal(year.getAttribute("class"), "t-num");
  // JupyterLab's own `td { text-align: right }` loses to the view's more specific rules.
  const css = root.querySelector("style")!.textContent ?? "";
  assert.ok(css.includes(".tern .t-table th,.tern .t-table td{text-align:left;"));
  assert.ok(css.includes(".tern .t-table .t-num{text-align:right;"));
});

Deno.test("long URLs and paths are cut in the middle, whole (escaped) on hover; phrases at the end", () => {
  const url = `https://data.example.org/dav-anon/iplant/home/shared/a&b/"quoted"/<deep>/${
    "x".repeat(40)
  }/flights_3m.parquet`;
  const path = `/iplant/home/shared/commons_repo/curated/${
    "Long_Dataset_Name_".repeat(4)
  }/data.csv`;
  const phrase = "a phrase of words that goes on and on past forty-eight characters";
  const bundle = renderFrame({
    height: 3,
    width: 1,
    columns: columns.slice(0, 1),
    head: [[{ text: url }], [{ text: path }], [{ text: phrase }]],
    tail: [],
  });
  const { root } = checkView(bundle);
  const cells = [...root.querySelectorAll("tbody td")];
  const middle = (value: string) => `${value.slice(0, 23)}…${value.slice(-24)}`;
  assert.deepEqual(cells.map((cell) => cell.textContent), [
    middle(url),
    middle(path),
    `${phrase.slice(0, 47)}…`,
  ]);
  assert.ok(cells[0].textContent!.endsWith("/flights_3m.parquet"));
  assert.deepEqual(cells.map((cell) => cell.getAttribute("title")), [url, path, phrase]);
  assert.ok(bundle["text/html"].includes("a&amp;b/&quot;quoted&quot;/&lt;deep&gt;"));
  assert.ok(!bundle["text/html"].includes("<deep>"));
  // The plain-text table cuts the same way.
  const text = frameText({
    height: 1,
    width: 1,
    columns: columns.slice(0, 1),
    head: [[{ text: path }]],
    tail: [],
  });
  assert.equal(text.split("\n").at(-1), "  /iplant/home/sh…t_Name_/data.csv");
});
