import assert from "node:assert/strict";
import {
  formatOfContent,
  formatOfExtension,
  formatOfFileName,
  formatOfInfoType,
  FORMATS,
  INFO_TYPES,
  SUPPORTED_FORMATS,
  TABLE_FORMATS,
  tableFormat,
} from "../../lib/registry/file_formats.ts";

Deno.test("no format is described twice: ids, extensions and info types are unique", () => {
  const ids = FORMATS.map((format) => format.id);
  assert.equal(new Set(ids).size, ids.length);
  const extensions = FORMATS.flatMap((format) => format.extensions);
  assert.equal(new Set(extensions).size, extensions.length, "an extension names two formats");
  const infoTypes = FORMATS.flatMap((format) => format.infoType ?? []);
  assert.equal(new Set(infoTypes).size, infoTypes.length, "an info type names two formats");
  for (const extension of extensions) assert.equal(extension, extension.toLowerCase());
});

Deno.test("no two formats share a signature", () => {
  const magic = FORMATS.flatMap((format) => format.magic ?? []).map((bytes) => bytes.join(","));
  assert.equal(new Set(magic).size, magic.length);
  for (const format of FORMATS) {
    for (const signature of format.magic ?? []) {
      assert.equal(formatOfContent(new Uint8Array([...signature, 0x41])), format, format.id);
    }
  }
});

Deno.test("table formats: readers, streaming and the copies Polars reads by path", () => {
  assert.deepEqual(TABLE_FORMATS, ["csv", "tsv", "json", "ndjson", "parquet", "arrow", "excel"]);
  for (const reader of TABLE_FORMATS) {
    const { table } = tableFormat(reader);
    assert.equal(table.reader, reader);
    assert.match(table.copyExtension, /^\.[a-z]+$/);
  }
  assert.deepEqual(
    TABLE_FORMATS.filter((reader) => tableFormat(reader).table.streamed),
    ["csv", "tsv", "ndjson"],
  );
  assert.deepEqual(
    TABLE_FORMATS.filter((reader) => tableFormat(reader).table.remoteScan),
    ["parquet"],
  );
  assert.equal(formatOfExtension("FEATHER")?.table?.copyExtension, ".ipc");
  assert.equal(formatOfExtension("arrows")?.table?.reader, "arrow");
  assert.equal(formatOfExtension("png")?.table, undefined);
});

Deno.test("names, info types and the sentence listing the table formats", () => {
  assert.equal(formatOfFileName("x.bed.gz")?.infoType, "bedgz");
  assert.equal(formatOfFileName("x.csv.gz")?.mediaType, "application/gzip");
  assert.equal(formatOfFileName(".csv"), undefined);
  assert.equal(formatOfInfoType("csv")?.table?.reader, "csv");
  assert.equal(INFO_TYPES.length, 55);
  assert.ok(Object.isFrozen(INFO_TYPES) && Object.isFrozen(FORMATS));
  for (const reader of TABLE_FORMATS) {
    assert.ok(SUPPORTED_FORMATS.includes(tableFormat(reader).label), reader);
  }
});
