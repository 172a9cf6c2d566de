import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { frameView, setFrameView, view } from "../../lib/frames/view.ts";
import { BadRequestError } from "../../lib/client/errors.ts";
import { exampleStore } from "../../lib/sample/example.ts";
import { checkView } from "../display/_safety.ts";

const ROOT = new URL("../../", import.meta.url).href;

/**
 * Runs `code` in a fresh Deno (nothing of tern loaded), where `isTern(frame)` says whether a
 * frame shows the tern card, and returns the JSON its last line printed.
 */
async function freshProcess(code: string): Promise<Record<string, boolean>> {
  const helper = `const isTern = (frame: unknown) => String(
    (frame as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")]()["text/html"],
  ).includes("t-frame");\n`;
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", helper + code],
    cwd: new URL(ROOT).pathname,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.ok(success, decoder.decode(stderr));
  return JSON.parse(decoder.decode(stdout).trim().split("\n").at(-1)!);
}

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

Deno.test("frameView: Decimal columns (Parquet from Spark, pyarrow) show their exact values", () => {
  const frame = pl.DataFrame({ price: ["1.25", null, "-3.10"], n: [1, 2, 3] })
    .withColumns(pl.col("price").cast(pl.Decimal(10, 2)));
  const shown = frameView(frame);
  assert.deepEqual(shown.columns[0], { name: "price", type: "decimal(10,2)", kind: "number" });
  assert.deepEqual(shown.head.map((row) => row[0].text), ["1.25", "null", "-3.10"]);
  assert.equal(shown.head[1][0].null, true);
  assert.match(String(view(frame)), /-3\.10/);
});

Deno.test("frameView: a datetime column with a zone shows that zone's clock, as its type says", () => {
  const utc = pl.col("at").cast(pl.Datetime("us")).dt.replaceTimeZone("UTC");
  const frame = pl.DataFrame({
    at: [new Date("2020-01-01T10:00:00Z"), new Date("2020-06-01T10:30:00Z"), null],
  }).select(utc.dt.convertTimeZone("Europe/Paris").alias("paris"), utc.alias("utc"));
  const shown = frameView(frame);
  assert.deepEqual(shown.columns.map((column) => column.type), [
    "datetime[us, Europe/Paris]",
    "datetime[us, UTC]",
  ]);
  assert.deepEqual(shown.head.map((row) => row.map((cell) => cell.text)), [
    ["2020-01-01 11:00", "2020-01-01 10:00"], // CET
    ["2020-06-01 12:30", "2020-06-01 10:30"], // CEST
    ["null", "null"],
  ]);
  assert.equal(shown.head[0][0].exact, "2020-01-01T10:00:00.000Z", "the instant on hover");
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
  // console.log(view(df)) in a script prints the table, not the object's two functions.
  assert.equal(Deno.inspect(shown), String(shown));
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

/** The bundle a notebook gets for `value` (what Deno's kernel calls first). */
function shown(value: unknown): Record<string, unknown> {
  const display = (value as Record<symbol, () => Record<string, unknown>>)[JUPYTER_DISPLAY];
  assert.equal(typeof display, "function");
  return display.call(value);
}

function isTernCard(bundle: object): boolean {
  const fields = bundle as Record<string, unknown>;
  return Object.keys(fields).sort().join() === "text/html,text/plain" &&
    String(fields["text/html"]).includes('<table class="t-table t-frame">');
}

Deno.test("every frame of tern's pl, derived or not, shows the tern card; setFrameView('polars') gives Polars' own", async () => {
  const left = pl.DataFrame({ species: ["Adelie", "Adelie", "Gentoo"], mass: [3.9, 4.04, 5.1] });
  const right = pl.DataFrame({ species: ["Adelie", "Gentoo"], island: ["Biscoe", "Dream"] });
  const frames = {
    made: left,
    filtered: left.filter(pl.col("mass").gt(4)),
    grouped: left.groupBy("species").agg(pl.col("mass").mean()).sort("species"),
    joined: left.join(right, { on: "species" }),
    selected: left.select("mass"),
    read: pl.readCSV("a,b\n1,x\n"),
    collected: await left.lazy().filter(pl.col("mass").lt(5)).collect(),
    concatenated: pl.concat([left, left]),
  };
  for (const [how, frame] of Object.entries(frames)) assert.ok(isTernCard(shown(frame)), how);
  // No 16-digit floats: (3.9 + 4.04) / 2 is 3.9699999999999998 in float64, shown rounded.
  const mean = shown(frames.grouped);
  assert.match(String(mean["text/plain"]), /Adelie\s+3\.97\n/);
  assert.ok(String(mean["text/html"]).includes('title="3.9699999999999998"'));

  const previous = setFrameView("polars");
  try {
    assert.equal(previous, "tern");
    for (const [how, frame] of Object.entries(frames)) {
      const bundle = shown(frame);
      assert.ok("application/vnd.dataresource+json" in bundle, how);
      assert.match(String(bundle["text/html"]), /^<table>/, how);
    }
    // The frames tern returns follow the same switch.
    await using store = await exampleStore();
    const csv = await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv")
      .dataframe();
    assert.ok("application/vnd.dataresource+json" in shown(csv));
    // view() is explicit, so it stays the tern card.
    assert.ok(isTernCard(view(csv)[JUPYTER_DISPLAY]()));
  } finally {
    setFrameView("tern");
  }
  assert.ok(isTernCard(shown(frames.joined)));
  assert.throws(() => setFrameView("html" as never), BadRequestError);
});

Deno.test("a frame tern returned and the frames derived from it show the tern card", async () => {
  await using store = await exampleStore();
  const penguins = await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv")
    .dataframe();
  const means = penguins.filter(pl.col("Body Mass (g)").isNotNull())
    .groupBy("Species")
    .agg(pl.col("Body Mass (g)").mean().alias("mass"), pl.col("Island").first());
  const bundle = shown(means);
  assert.ok(isTernCard(bundle));
  const { root } = checkView(bundle as { "text/html": string; "text/plain": string });
  for (const cell of root.querySelectorAll("td.t-num")) {
    assert.ok((cell.textContent ?? "").length <= 10, `rounded: ${cell.textContent}`);
  }
});

Deno.test("view(frame, options): rows, columns and precision", () => {
  const frame = pl.DataFrame({
    a: [3.9699999999999998, 4, 1e-7],
    b: [1, 2, 3],
    c: ["x", "y", "z"],
  }).withColumns(pl.col("b").cast(pl.Int64));
  const text = String(view(frame, { precision: 2, rows: 2, columns: 2 }));
  const lines = text.split("\n");
  assert.equal(lines[0], "DataFrame 3 rows × 3 columns");
  assert.deepEqual(lines.slice(1).map((line) => line.trim().split(/\s+/)), [
    ["a", "b"],
    ["f64", "i64"],
    ["3.97", "1"],
    ["…", "1", "more", "row"],
    ["1.00e-7", "3"],
    ["…", "1", "more", "columns", "not", "shown"],
  ]);
  assert.equal(frameView(frame, { precision: 0 }).head[1][0].text, "4");
  for (const precision of [-1, 1.5, 16, Number.NaN]) {
    assert.throws(() => view(frame, { precision }).toString(), BadRequestError);
  }
});

Deno.test("loading Polars installs no view: derived frames show the tern card once an entry point installs it", async () => {
  const found = await freshProcess(`
import { loadPolars } from "${ROOT}lib/data/polars.ts";
const pl = await loadPolars();
const derived = () => pl.DataFrame({ a: [1, 2] }).filter(pl.col("a").gt(1));
const before = isTern(derived());
await import("${ROOT}mod.ts");
console.log(JSON.stringify({ before, after: isTern(derived()) }));
`);
  assert.deepEqual(found, { before: false, after: true });
});

Deno.test("importing mod.ts before Polars is loaded: the view is in place when Polars loads", async () => {
  const found = await freshProcess(`
import { connect } from "${ROOT}mod.ts";
import { loadPolars } from "${ROOT}lib/data/polars.ts";
const loaded = typeof connect === "function";
const pl = await loadPolars();
const derived = pl.DataFrame({ a: [1, 2] }).groupBy("a").agg(pl.col("a").count().alias("n"));
console.log(JSON.stringify({ loaded, derived: isTern(derived) }));
`);
  assert.deepEqual(found, { loaded: true, derived: true });
});
