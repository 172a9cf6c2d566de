import assert from "node:assert/strict";
import { UnsupportedFormatError } from "../../lib/data/errors.ts";
import { detectFormat, innerFormat } from "../../lib/data/formats.ts";

const text = (value: string) => new TextEncoder().encode(value);
const bytes = (...values: number[]) => new Uint8Array(values);

Deno.test("names and info types choose the text format and separator", () => {
  const csv = text("a,b\n1,2\n");
  assert.deepEqual(detectFormat({ path: "/x/t.csv", head: csv }), {
    format: "csv",
    gzip: false,
    sep: ",",
  });
  assert.deepEqual(detectFormat({ path: "/x/t.tsv", head: text("a\tb\n") }), {
    format: "csv",
    gzip: false,
    sep: "\t",
  });
  assert.deepEqual(detectFormat({ path: "/x/t.tab", head: text("a\tb\n") }).sep, "\t");
  assert.equal(detectFormat({ path: "/x/t.jsonl", head: text('{"a":1}\n') }).format, "ndjson");
  assert.equal(detectFormat({ path: "/x/t.json", head: text('[{"a":1}]') }).format, "json");
  assert.equal(detectFormat({ path: "/x/t", infoType: "tsv", head: text("a\tb\n") }).sep, "\t");
  assert.equal(detectFormat({ path: "/x/t.dat", infoType: "csv", head: csv }).format, "csv");
});

Deno.test("a .csv with semicolons and a .json of JSON Lines are read as what they hold", () => {
  assert.equal(detectFormat({ path: "/x/eu.csv", head: text("a;b\n1,5;2\n3;4\n") }).sep, ";");
  // A header with a comma: semicolons when the lines agree on them and not on commas.
  const eu = (head: string) => detectFormat({ path: "/x/eu.csv", head: text(head) }).sep;
  assert.equal(eu("Temp, °C;Rain, mm\n3,5;1\n4;0,5\n"), ";");
  assert.equal(eu("id;0,5\n1;1\n2;2\n"), ";");
  // Lines that agree on commas and on semicolons too: the commas are decimal marks, as many to a
  // line as the header has (a spectrum's wavelengths, units after a comma).
  assert.equal(eu("nm;350,5\n1;0,25\n2;0,5\n"), ";");
  assert.equal(eu("Temp, °C;Rain, mm\n1,5;2,5\n3,0;4,5\n"), ";");
  assert.equal(eu("a,b;c\n1,2;3\n4,5;6\n"), ";");
  // Blank lines hold no delimiter: they neither break an agreement nor stand for the header.
  assert.equal(eu("a;b\n1;2\n\n3;4\n"), ";");
  assert.equal(eu("\r\nnm;350,5\r\n1;0,25\r\n"), ";");
  // Commas where only they agree, or once quoted text is left out, or with one line only.
  assert.equal(eu("a,b;c\n1,2\n4,5;6\n"), ",");
  assert.equal(eu("name,notes\nA,x;y\nB,p;q\n"), ",");
  assert.equal(eu('id,note\n1,"a; b, c"\n2,"d; e"\n'), ",");
  assert.equal(eu("id;0,5\n"), ",");
  assert.equal(
    detectFormat({ path: "/x/events.json", head: text('{"a":1}\n{"a":2}\n{"a":3}\n') }).format,
    "ndjson",
  );
});

Deno.test("signatures win over names for binary formats", () => {
  assert.deepEqual(detectFormat({ path: "/x/data.csv", head: text("PAR1....") }), {
    format: "parquet",
    gzip: false,
  });
  assert.deepEqual(detectFormat({ path: "/x/t.bin", head: text("ARROW1\0\0") }), {
    format: "arrow",
    gzip: false,
  });
  assert.deepEqual(
    detectFormat({ path: "/x/t.arrows", head: bytes(0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0) }),
    { format: "arrow", gzip: false, arrowStream: true },
  );
  const gz = detectFormat({ path: "/x/t.tsv.gz", head: bytes(0x1f, 0x8b, 8, 0) });
  assert.deepEqual(gz, { format: "csv", gzip: true, sep: "\t" });
});

Deno.test("the format inside gzip comes from the name without .gz and the decompressed bytes", () => {
  assert.deepEqual(innerFormat({ path: "/x/t.csv.gz", head: text("a;b\n1;2\n") }), {
    format: "csv",
    gzip: true,
    sep: ";",
  });
  assert.deepEqual(innerFormat({ path: "/x/log.gz", head: text('{"a":1}\n{"a":2}\n') }), {
    format: "ndjson",
    gzip: true,
  });
  assert.throws(
    () => innerFormat({ path: "/x/t.gz", head: text("PAR1xxxx") }),
    /holds parquet, not text/,
  );
});

Deno.test("text with an uninformative name is sniffed; prose is refused", () => {
  assert.deepEqual(detectFormat({ path: "/x/table.txt", head: text("a|b|c\n1|2|3\n4|5|6\n") }), {
    format: "csv",
    gzip: false,
    sep: "|",
  });
  assert.equal(detectFormat({ path: "/x/data", head: text("[1,2]") }).format, "json");
  assert.throws(
    () => detectFormat({ path: "/x/README.txt", head: text("Read me first.\nThen, the rest.\n") }),
    (error: unknown) => {
      assert.ok(error instanceof UnsupportedFormatError);
      assert.equal(error.path, "/x/README.txt");
      assert.match(error.message, /looks like plain text/);
      assert.match(error.message, /Supported formats: CSV \(\.csv\), TSV \(\.tsv \.tab\)/);
      assert.match(error.message, /format: "csv"/);
      return true;
    },
  );
});

Deno.test("unsupported and contradictory files get errors that say what they are", () => {
  const cases: [string, Uint8Array, RegExp][] = [
    ["/x/plot.png", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a), /it is a PNG image/],
    ["/x/a.zip", bytes(0x50, 0x4b, 0x03, 0x04), /ZIP archive/],
    ["/x/a.csv.bz2", bytes(0x42, 0x5a, 0x68, 0x39), /only gzip is decompressed/],
    ["/x/blob.bin", bytes(0, 1, 2, 3, 0xfe), /binary, not text/],
    ["/x/t.parquet", text("a,b\n1,2\n"), /Parquet's signature/],
    ["/x/t.feather", text("a,b\n"), /Arrow IPC file signature/],
    ["/x/t.docx", text("a,b\n1,2\n"), /\(\.docx\) does not say it is a table/],
    ["/x/t.xlsx", text("a,b\n1,2\n"), /not an Excel workbook \(\.xlsx\), which is a zip/],
    ["/x/t.xls", bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1), /save it as \.xlsx/],
  ];
  for (const [path, head, message] of cases) {
    assert.throws(() => detectFormat({ path, head }), (error: unknown) => {
      assert.ok(error instanceof UnsupportedFormatError, `${path}: ${error}`);
      assert.match(error.message, message);
      assert.ok(error.message.includes(path));
      return true;
    });
  }
});

Deno.test("an explicit format overrides the name but not a contradicting signature", () => {
  assert.equal(
    detectFormat({ path: "/x/README.txt", head: text("one line"), format: "csv" }).format,
    "csv",
  );
  assert.equal(
    detectFormat({ path: "/x/a.csv", head: text('{"a":1}\n'), format: "ndjson" }).format,
    "ndjson",
  );
  assert.equal(
    detectFormat({ path: "/x/a.txt", head: text("PAR1"), format: "csv" }).format,
    "parquet",
  );
  assert.throws(
    () => detectFormat({ path: "/x/a.txt", head: text("a,b"), format: "parquet" }),
    /PAR1/,
  );
});
