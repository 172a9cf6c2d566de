import assert from "node:assert/strict";
import {
  detectTableFormat,
  innerTableFormat,
  SNIFF_BYTES,
} from "../../lib/registry/format_detection.ts";
import { TABLE_FORMATS } from "../../lib/registry/file_formats.ts";

const text = (value: string) => new TextEncoder().encode(value);

Deno.test("a file that is no table is an answer with a reason, not an exception", () => {
  assert.deepEqual(detectTableFormat({ path: "/x/notes.md", head: text("a,b\n1,2\n") }), {
    unsupported: "its name (.md) does not say it is a table",
    hint: 'Pass format: "csv" (or "tsv", "json", "ndjson") to read it anyway.',
  });
  assert.deepEqual(detectTableFormat({ path: "/x/t.parquet", head: text("a,b\n") }), {
    unsupported: "it does not start with Parquet's signature (PAR1)",
  });
  const binary = detectTableFormat({ path: "/x/t.csv", head: new Uint8Array([0, 1, 2, 0, 0]) });
  assert.equal("unsupported" in binary && binary.unsupported, "its content is binary, not text");
  assert.deepEqual(innerTableFormat({ path: "/x/t.gz", head: new Uint8Array([0x1f, 0x8b, 8]) }), {
    unsupported: "the gzip file holds another gzip file, not text",
  });
});

Deno.test("detection answers every head, name and forced format without throwing", () => {
  // A fixed-seed generator: the same 3,000 cases on every run.
  let seed = 20261126;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pieces = ["PAR1", "ARROW1", "\xff\xff\xff\xff", "\x1f\x8b", "{", "[", "a,b\n", "\t", ";"];
  const names = ["t.csv", "t.tsv", "t.json", "t.parquet", "t.arrow", "t.gz", "t", "t.txt", "t.md"];
  for (let i = 0; i < 3000; i++) {
    const parts = Array.from(
      { length: 1 + Math.floor(next() * 6) },
      () =>
        next() < 0.5
          ? pieces[Math.floor(next() * pieces.length)]
          : String.fromCharCode(Math.floor(next() * 256)),
    );
    const head = Uint8Array.from(parts.join(""), (c) => c.charCodeAt(0)).subarray(0, SNIFF_BYTES);
    const format = next() < 0.3
      ? TABLE_FORMATS[Math.floor(next() * TABLE_FORMATS.length)]
      : undefined;
    const clues = { path: `/x/${names[Math.floor(next() * names.length)]}`, head, format };
    for (const found of [detectTableFormat(clues), innerTableFormat(clues)]) {
      if ("unsupported" in found) assert.ok(found.unsupported.length > 0);
      else assert.ok(TABLE_FORMATS.includes(found.format), JSON.stringify(found));
    }
  }
});
