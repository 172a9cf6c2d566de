import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import pl from "../../polars.ts";
import {
  columnsOf,
  csvToArrow,
  csvToParquet,
  gzip,
  toDelimited,
  toNdjson,
} from "../../lib/sample/conversions.ts";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("toDelimited quotes what needs quoting and leaves missing values empty", () => {
  const rows = [
    { name: 'Adelie "A"', note: "a,b", n: 1, extra: null },
    { name: "line\nbreak", n: 2.5, obj: { k: 1 } },
  ];
  assert.deepEqual(columnsOf(rows), ["name", "note", "n", "extra", "obj"]);
  assert.equal(
    text(toDelimited(rows)),
    'name,note,n,extra,obj\n"Adelie ""A""","a,b",1,,\n"line\nbreak",,2.5,,"{""k"":1}"\n',
  );
  assert.equal(text(toDelimited([{ a: "x\ty", b: "p,q" }], "\t")), 'a\tb\n"x\ty"\tp,q\n');
});

Deno.test("toNdjson writes one compact value per line", () => {
  assert.equal(text(toNdjson([{ a: 1 }, [2], "s"])), '{"a":1}\n[2]\n"s"\n');
});

Deno.test("gzip output is repeatable and decompresses to the input", async () => {
  const input = new TextEncoder().encode("year,yield\n1931,27\n".repeat(100));
  const once = await gzip(input);
  assert.deepEqual(await gzip(input), once);
  assert.deepEqual([...once.subarray(0, 2)], [0x1f, 0x8b]);
  const back = new Blob([once as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("gzip"));
  assert.deepEqual(new Uint8Array(await new Response(back).arrayBuffer()), input);
});

Deno.test("csvToParquet and csvToArrow keep rows and infer typed columns", async () => {
  const csv = new TextEncoder().encode(
    "day,rain_mm,site\n2012-01-01,0.5,Seattle\n2012-01-02,,NYC\n",
  );
  const parquet = pl.readParquet(Buffer.from(await csvToParquet(csv, { parseDates: true })));
  assert.deepEqual(parquet.dtypes.map(String), [
    "DataType(Date)",
    "DataType(Float64)",
    "DataType(String)",
  ]);
  assert.deepEqual(parquet.getColumn("rain_mm").toArray(), [0.5, null]);
  const arrow = pl.readIPC(Buffer.from(await csvToArrow(csv)));
  assert.equal(arrow.height, 2);
  assert.deepEqual(arrow.getColumn("site").toArray(), ["Seattle", "NYC"]);
  assert.deepEqual(await csvToParquet(csv), await csvToParquet(csv), "repeatable bytes");
});
