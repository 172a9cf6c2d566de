import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { frameView, view } from "../../lib/data/view.ts";
import { exampleStore } from "../../lib/sample/example.ts";
import { checkView } from "../display/_safety.ts";

Deno.test("frameView: numbers rounded per column with the exact value kept, integers as integers", () => {
  const frame = pl.DataFrame({
    mass: [3733.0882352941176, 39.1, null],
    year: [2020, 2021, null], // floats because of the null, but whole: shown without ".0"
    tiny: [0.00001234, 1e20, Number.NaN],
  }).withColumns(pl.lit(7).cast(pl.Int64).alias("count"));
  const view = frameView(frame);
  assert.deepEqual(view.columns.map((column) => [column.type, column.kind]), [
    ["f64", "number"],
    ["f64", "number"],
    ["f64", "number"],
    ["i64", "integer"],
  ]);
  const cells = view.head.map((row) => row.map((cell) => cell.text));
  assert.deepEqual(cells, [
    ["3733.09", "2020", "1.234e-5", "7"],
    ["39.10", "2021", "1.000e+20", "7"],
    ["null", "null", "NaN", "7"],
  ]);
  assert.equal(view.head[0][0].exact, "3733.0882352941176");
  assert.equal(view.head[0][1].exact, undefined, "nothing to add when the text is exact");
  assert.equal(view.head[2][0].null, true);
});

Deno.test("frameView: dates as dates, datetimes to the precision they carry, text whole", () => {
  const frame = pl.DataFrame({
    when: [new Date(Date.UTC(2023, 6, 23, 21, 19)), new Date(Date.UTC(2023, 6, 24))],
    label: ["a < b", null],
  }).withColumns(pl.col("when").cast(pl.Date).alias("day"));
  const view = frameView(frame);
  assert.deepEqual(view.columns.map((column) => column.type), ["datetime[ms]", "str", "date"]);
  assert.deepEqual(view.head[0].map((cell) => cell.text), [
    "2023-07-23 21:19",
    "a < b",
    "2023-07-23",
  ]);
  assert.equal(view.head[0][0].exact, "2023-07-23T21:19:00.000Z");
  assert.deepEqual(view.head[1][1], { text: "null", null: true });
});

Deno.test("frameView: a long frame shows its head and tail; a wide one its first columns", () => {
  const frame = pl.DataFrame(
    Object.fromEntries(
      Array.from({ length: 40 }, (_, c) => [`c${c}`, Array.from({ length: 1000 }, (_, r) => r)]),
    ),
  );
  const view = frameView(frame, { rows: 12, columns: 5 });
  assert.equal(view.height, 1000);
  assert.equal(view.width, 40);
  assert.equal(view.columns.length, 5);
  assert.deepEqual(view.head.map((row) => row[0].text), ["0", "1", "2", "3", "4", "5", "6"]);
  assert.deepEqual(view.tail.map((row) => row[0].text), ["995", "996", "997", "998", "999"]);
  assert.ok(view.head.every((row) => row.length === 5));
});

Deno.test("view(df): a safe, bounded tern card in notebooks and a fitted table as text", () => {
  const frame = pl.DataFrame({
    title: ["<img src=x onerror=alert(1)>", "x".repeat(10_000)],
    value: [1.23456789, 2],
  });
  const shown = view(frame, { width: 40 });
  const bundle = shown[JUPYTER_DISPLAY]();
  const { root } = checkView(bundle);
  assert.equal(root.querySelectorAll("img").length, 0);
  assert.ok(bundle["text/html"].length < 30_000);
  const value = root.querySelector("td.t-num");
  assert.deepEqual([value?.textContent, value?.getAttribute("title")], ["1.2346", "1.23456789"]);
  for (const line of String(shown).split("\n")) assert.ok(line.length <= 40, line);
});

Deno.test("frames tern returns carry the tern card; walk() dates are Polars datetimes", async () => {
  await using store = await exampleStore();
  const frame = await store.folder("/iplant/home/demo").walk({ type: "file" }).toDataFrame();
  assert.equal(String(frame.getColumn("modified").dtype), "DataType(Datetime(ms,UTC))");
  const display =
    (frame as unknown as Record<symbol, () => { "text/html": string }>)[JUPYTER_DISPLAY];
  const html = display.call(frame)["text/html"];
  assert.match(html, /<div class="t-coltype">datetime\[ms, UTC\]<\/div>/);
  const csv = await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").dataframe();
  const bundle = (csv as unknown as Record<symbol, () => { "text/plain": string }>)
    [JUPYTER_DISPLAY]();
  assert.match(bundle["text/plain"], /^DataFrame 344 rows × \d+ columns — penguins\.csv/);
});
