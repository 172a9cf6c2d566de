/**
 * The Polars adapter (lib/polars/adapter.ts): each nodejs-polars internal it reaches still has
 * the shape it relies on (so an upgrade that moves one fails here first, naming it), what it
 * builds on them works, and no other module of lib/ reaches into Polars.
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type DataFrame, polarsEntryUrl } from "../../lib/deps.ts";
import {
  columnsOfType,
  exactDates,
  type FrameHook,
  frameHook,
  hookFrames,
  isLazyFrame,
  loadPolars,
  typedLiterals,
} from "../../lib/polars/adapter.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const pl = await loadPolars();

/** What an upgrade that fails a check here means, to say in its message. */
const UPGRADE = "nodejs-polars moved an internal tern's adapter (lib/polars/adapter.ts) uses";

/** Every frame the loaded Polars makes, as the adapter's hook hands them on. */
class Recorder implements FrameHook {
  readonly seen = new Set<DataFrame>();

  wrapFrame(frame: DataFrame): DataFrame {
    this.seen.add(frame);
    return frame;
  }
}

// Set once for this file (a hook stays for the process): the hook tests below read it.
const recorder = hookFrames(new Recorder());

Deno.test("internal: bin/dataframe.js's _DataFrame is the factory every frame is made by", () => {
  const factory = createRequire(polarsEntryUrl())("./dataframe") as { _DataFrame?: unknown };
  assert.equal(
    typeof factory._DataFrame,
    "function",
    `${UPGRADE}: bin/dataframe.js exports no _DataFrame, through which hookFrames sees every frame`,
  );
  const native = (pl.DataFrame({ a: [1, 2] }) as unknown as { _df?: unknown })._df;
  assert.ok(native !== undefined, `${UPGRADE}: a DataFrame holds no native _df`);
  const made = (factory._DataFrame as (native: unknown) => DataFrame)(native);
  assert.deepEqual(made.getColumn("a").toArray(), [1, 2], `${UPGRADE}: _DataFrame(native)`);
});

Deno.test("the frame hook sees every frame: made, read, derived, collected, concatenated", async () => {
  const frame = pl.DataFrame({ species: ["Adelie", "Gentoo"], mass: [3700, 5076] });
  const made = {
    made: frame,
    read: pl.readCSV("a,b\n1,x\n"),
    filtered: frame.filter(pl.col("mass").gt(4000)),
    grouped: frame.groupBy("species").agg(pl.col("mass").mean()),
    joined: frame.join(frame, { on: "species" }),
    selected: frame.select("mass"),
    collected: await frame.lazy().filter(pl.col("mass").lt(5000)).collect(),
    concatenated: pl.concat([frame, frame]),
  };
  for (const [how, each] of Object.entries(made)) {
    assert.ok(recorder.seen.has(each), `${UPGRADE}: a ${how} frame did not pass the frame hook`);
  }
});

Deno.test("hookFrames is idempotent, and refuses a second hook of another kind", () => {
  assert.equal(frameHook(), recorder);
  assert.equal(hookFrames(new Recorder()), recorder);
  class Other implements FrameHook {
    wrapFrame(frame: DataFrame): DataFrame {
      return frame;
    }
  }
  assert.throws(() => hookFrames(new Other()), /already passes through a Recorder; a Other/);
  assert.equal(frameHook(), recorder);
});

Deno.test("internal: a native expression's strToDate and strToDatetime, and pl.Expr wrapping one", () => {
  const native = (pl.col("at") as unknown as { _expr?: Record<string, unknown> })._expr;
  assert.ok(native !== undefined, `${UPGRADE}: an Expr holds no native _expr`);
  for (const method of ["strToDate", "strToDatetime"]) {
    assert.equal(typeof native[method], "function", `${UPGRADE}: _expr.${method} is gone`);
  }
  assert.equal(
    typeof pl.Expr,
    "function",
    `${UPGRADE}: pl.Expr no longer wraps a native expression`,
  );
});

Deno.test("exactDates: the whole value must fit the format; dates, microsecond datetimes, offsets as UTC", () => {
  const text = pl.DataFrame({
    day: ["2012-01-31", "2012-01-31 and more", "31/01/2012"],
    at: ["2012-01-31 10:00:00.123456", "2012-01-31 10:00:00", null],
    utc: ["2012-01-31T10:00:00+02:00", "2012-01-31T10:00:00Z", "2012-01-31T10:00:00-0130"],
  });
  const dated = text.select(
    exactDates(pl, { column: "day", format: "%Y-%m-%d", to: "date" }),
    exactDates(pl, { column: "at", format: "%Y-%m-%d %H:%M:%S%.f", to: "datetime" }),
    exactDates(pl, { column: "utc", format: "%Y-%m-%dT%H:%M:%S%#z", to: "datetime" }),
  );
  assert.equal(String(dated.getColumn("day").dtype), String(pl.Date), `${UPGRADE}: strToDate`);
  assert.equal(
    String(dated.getColumn("at").dtype),
    String(pl.Datetime("us")),
    `${UPGRADE}: strToDatetime's time unit`,
  );
  assert.equal(String(dated.getColumn("utc").dtype), String(pl.Datetime("us", "UTC")));
  const iso = (name: string) =>
    (dated.getColumn(name).toArray() as unknown as (Date | null)[]).map((date) =>
      date?.toISOString() ?? null
    );
  // Only the first day fits whole: matching the format anywhere would take the second too.
  assert.deepEqual(iso("day"), ["2012-01-31T00:00:00.000Z", null, null], `${UPGRADE}: exact`);
  assert.deepEqual(iso("at"), ["2012-01-31T10:00:00.123Z", "2012-01-31T10:00:00.000Z", null]);
  assert.deepEqual(iso("utc"), [
    "2012-01-31T08:00:00.000Z",
    "2012-01-31T10:00:00.000Z",
    "2012-01-31T11:30:00.000Z",
  ]);
  // Microseconds are kept (the Date above shows milliseconds only).
  const micros = dated.select(pl.col("at").cast(pl.Int64)).getColumn("at").toArray();
  assert.equal(Number(micros[0]) % 1_000_000, 123456, `${UPGRADE}: strToDatetime's "us"`);
});

Deno.test("internal: a frame's inner() has its columns and dtypes() in serde form (columnsOfType)", () => {
  const frame = pl.readCSV("s,i,f,d\nx,1,1.5,2012-01-01\n", { dtypes: { d: pl.Date } })
    .withColumns(pl.col("f").cast(pl.Datetime("us", "UTC")).alias("t"));
  const native = (frame as unknown as { inner?: () => { columns?: unknown; dtypes?: unknown } })
    .inner?.();
  assert.deepEqual(native?.columns, ["s", "i", "f", "d", "t"], `${UPGRADE}: inner().columns`);
  assert.equal(typeof native?.dtypes, "function", `${UPGRADE}: inner().dtypes()`);
  assert.deepEqual(
    (native!.dtypes as () => unknown[])().slice(0, 4),
    ["String", "Int64", "Float64", "Date"],
    `${UPGRADE}: inner().dtypes() gives variant names`,
  );
  assert.deepEqual(
    (native!.dtypes as () => unknown[])()[4],
    { variant: "Datetime", inner: ["us", "UTC"] },
    `${UPGRADE}: inner().dtypes() gives a parameterised type as { variant, inner }`,
  );
  assert.deepEqual(columnsOfType(frame, ["String"]), ["s"]);
  assert.deepEqual(columnsOfType(frame, ["Date", "Datetime"]), ["d", "t"]);
  assert.deepEqual(columnsOfType(pl.DataFrame({ n: [1] }), ["String"]), []);
});

Deno.test("internal: a LazyDataFrame holds its native _ldf (isLazyFrame)", async () => {
  const frame = pl.DataFrame({ a: [1, 2] });
  assert.ok("_ldf" in frame.lazy(), `${UPGRADE}: a LazyDataFrame holds no native _ldf`);
  assert.equal(isLazyFrame(frame.lazy().filter(pl.col("a").gt(1))), true);
  const path = await Deno.makeTempFile({ suffix: ".csv" });
  try {
    await Deno.writeTextFile(path, "a\n1\n");
    assert.equal(isLazyFrame(pl.scanCSV(path)), true);
  } finally {
    await Deno.remove(path);
  }
  for (const other of [frame, frame.lazy().groupBy("a"), pl.col("a"), null, "_ldf"]) {
    assert.equal(isLazyFrame(other), false, String(other));
  }
});

/** Where Polars is reached into: its private fields, its files, its module loaded around tern. */
const INTERNALS =
  /\._(?:expr|df|ldf|DataFrame)\b|["']_(?:expr|df|ldf|DataFrame)["']|createRequire|loadPolarsModule\(/;

Deno.test("no module of lib/ but the adapter reaches into Polars or loads it itself", async () => {
  const found: string[] = [];
  const visit = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await visit(path);
      else if (entry.name.endsWith(".ts")) {
        const name = relative(ROOT, path).replaceAll("\\", "/");
        if (name === "lib/polars/adapter.ts" || name === "lib/deps.ts") continue;
        // JSDoc examples may show anything; the code may not.
        const code = (await Deno.readTextFile(path)).replace(/\/\*\*[\s\S]*?\*\//g, "");
        const match = INTERNALS.exec(code);
        if (match !== null) found.push(`${name}: ${match[0]}`);
      }
    }
  };
  await visit(join(ROOT, "lib"));
  assert.deepEqual(found, [], "Polars internals belong in lib/polars/adapter.ts");
});

Deno.test("internal: an expression's JSON form has the nodes typedLiterals rewrites", () => {
  const tree = JSON.parse(pl.col("year").eq(2024).serialize("json").toString());
  assert.deepEqual(
    tree,
    {
      BinaryExpr: {
        left: { Column: "year" },
        op: "Eq",
        right: { Literal: { Scalar: { Float64: 2024 } } },
      },
    },
    `${UPGRADE}: a comparison with a plain number no longer serializes as typedLiterals reads it`,
  );
  const typed = pl.Expr.deserialize(
    Buffer.from(JSON.stringify({ Literal: { Scalar: { Int32: 2024 } } })),
    "json",
  );
  const frame = pl.DataFrame({}).select(typed.alias("y"));
  assert.equal(String(frame.getColumn("y").dtype), String(pl.Int32), `${UPGRADE}: a typed literal`);
});

Deno.test("typedLiterals: each comparison with an integer column gets the column's type, others stay", () => {
  const schema = { year: pl.Int32, small: pl.UInt8, x: pl.Float64 };
  const frame = pl.DataFrame({
    year: pl.Series("year", [2023, 2024, 2025], pl.Int32),
    small: pl.Series("small", [1, 2, 255], pl.UInt8),
    x: [0.5, 1.5, 2.5],
  });
  const plan = (predicate: ReturnType<typeof pl.col>) =>
    frame.lazy().filter(typedLiterals(predicate, schema)).describeOptimizedPlan();
  for (
    const predicate of [
      pl.col("year").eq(2024),
      pl.col("year").neq(2024),
      pl.col("year").lt(2024),
      pl.col("year").ltEq(2024),
      pl.col("year").gt(2024),
      pl.col("year").gtEq(2024),
      pl.lit(2024).lt(pl.col("year")),
      pl.col("x").gt(1).or(pl.col("year").eq(2024)),
    ]
  ) {
    assert.doesNotMatch(plan(predicate), /cast/, String(predicate));
    assert.deepEqual(
      frame.filter(typedLiterals(predicate, schema)).toRecords(),
      frame.filter(predicate).toRecords(),
      String(predicate),
    );
  }
  // Numbers the type does not hold exactly, and columns that are not integers, stay as written.
  for (
    const predicate of [
      pl.col("year").eq(2024.5),
      pl.col("small").lt(256),
      pl.col("small").gt(-1),
      pl.col("year").eq(2 ** 53),
      pl.col("x").eq(1),
      pl.col("other").eq(1),
    ]
  ) {
    assert.equal(typedLiterals(predicate, schema), predicate, String(predicate));
  }
});
