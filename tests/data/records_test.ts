import assert from "node:assert/strict";
import fc from "fast-check";
import { countByte, LineFilter, RecordSplitter } from "../../lib/data/records.ts";
import { asBuffer, loadPolars } from "../../lib/data/polars.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Feeds `bytes` in chunks of the given sizes and collects every batch and the rest. */
function split(
  bytes: Uint8Array,
  sizes: number[],
  options: ConstructorParameters<typeof RecordSplitter>,
) {
  const splitter = new RecordSplitter(...options);
  const batches: Uint8Array[] = [];
  let offset = 0;
  let turn = 0;
  while (offset < bytes.length) {
    const size = sizes[turn++ % sizes.length];
    // Copies, because a batch is only valid until the next push.
    const batch = splitter.push(bytes.subarray(offset, offset + size));
    if (batch !== undefined) batches.push(batch.slice());
    offset += size;
  }
  for (
    let batch = splitter.push(new Uint8Array(0));
    batch;
    batch = splitter.push(new Uint8Array(0))
  ) {
    batches.push(batch.slice());
  }
  const rest = splitter.finish();
  return { batches, rest: rest?.slice() };
}

function quotesOutside(text: string): boolean {
  return ((text.match(/"/g) ?? []).length & 1) === 0;
}

/** CSV fields that exercise quoting: plain words, or quoted text with commas, quotes, newlines. */
const field = fc.oneof(
  fc.stringMatching(/^[a-z0-9.]{0,6}$/),
  fc.array(fc.constantFrom("a", ",", '""', "\n", "\r\n", " ", "é"), { maxLength: 8 })
    .map((parts) => `"${parts.join("")}"`),
);
const csv = fc.array(fc.array(field, { minLength: 3, maxLength: 3 }), {
  minLength: 1,
  maxLength: 60,
})
  .map((rows) => ["a,b,c", ...rows.map((row) => row.join(","))].join("\n") + "\n");

Deno.test("countByte counts exactly, whatever the alignment and length", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 300 }),
      fc.nat(40),
      fc.nat(40),
      fc.constantFrom(0x22, 0x27, 0x00, 0xff),
      (bytes, cutStart, cutEnd, quote) => {
        const start = Math.min(cutStart, bytes.length);
        const end = Math.max(start, bytes.length - cutEnd);
        let expected = 0;
        for (let i = start; i < end; i++) if (bytes[i] === quote) expected++;
        // A view that starts at an odd offset exercises the unaligned head.
        const view = new Uint8Array(bytes.length + 3);
        view.set(bytes, 3);
        assert.equal(countByte(view.subarray(3), quote, start, end), expected);
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("batches concatenate back to the input and end outside quotes", () => {
  fc.assert(
    fc.property(
      csv,
      fc.array(fc.integer({ min: 1, max: 37 }), { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 1, max: 64 }),
      (text, sizes, batchBytes) => {
        const bytes = encoder.encode(text);
        const { batches, rest } = split(bytes, sizes, [
          '"',
          Math.max(1, batchBytes >> 2),
          batchBytes,
        ]);
        const joined = [...batches, ...(rest ? [rest] : [])].map((b) => decoder.decode(b)).join("");
        assert.equal(joined, text);
        for (const batch of batches) {
          const piece = decoder.decode(batch);
          assert.ok(piece.endsWith("\n"), `batch ${JSON.stringify(piece)} ends inside a record`);
          assert.ok(quotesOutside(piece), `batch ${JSON.stringify(piece)} ends inside quotes`);
        }
      },
    ),
    { numRuns: 400 },
  );
});

Deno.test("without a quote character every line feed ends a record (JSON Lines)", () => {
  const { batches, rest } = split(encoder.encode('{"a":"x\\"\\n"}\n{"a":2}\n{"a":3}'), [5], [
    undefined,
    10,
    10,
  ]);
  assert.deepEqual(batches.map((b) => decoder.decode(b)), ['{"a":"x\\"\\n"}\n', '{"a":2}\n']);
  assert.equal(decoder.decode(rest), '{"a":3}');
});

Deno.test("a record longer than the batch size waits for its end instead of being cut", () => {
  const long = `"${"x\n".repeat(100)}"`;
  const text = `h\n${long}\nnext\n`;
  const { batches, rest } = split(encoder.encode(text), [7], ['"', 8, 8]);
  assert.ok(batches.length >= 1);
  for (const batch of batches) assert.ok(quotesOutside(decoder.decode(batch)));
  assert.equal([...batches, ...(rest ? [rest] : [])].map((b) => decoder.decode(b)).join(""), text);
});

Deno.test("batches grow from the first batch size to the batch size", () => {
  const line = "0123456789abcde\n"; // 16 bytes
  const bytes = encoder.encode(line.repeat(4096)); // 64 KiB
  const { batches } = split(bytes, [1024], [undefined, 256, 16384]);
  const sizes = batches.map((b) => b.length);
  assert.ok(sizes[0] >= 256 && sizes[0] < 1024 + 256, `first batch ${sizes[0]}`);
  assert.ok(sizes[1] >= 1024 && sizes[1] < 4096, `second batch ${sizes[1]}`);
  assert.ok(sizes.slice(3).every((size) => size >= 16384 && size < 16384 + 1024), String(sizes));
});

Deno.test("batches parsed one by one with the first batch's schema equal one whole parse", async () => {
  const pl = await loadPolars();
  fc.assert(
    fc.property(csv, fc.integer({ min: 8, max: 200 }), (text, batchBytes) => {
      const whole = pl.readCSV(asBuffer(encoder.encode(text)), { inferSchemaLength: 0 });
      const { batches, rest } = split(encoder.encode(text), [13], ['"', batchBytes, batchBytes]);
      const parts = [...batches, ...(rest ? [rest] : [])];
      let schema: Record<string, unknown> | undefined;
      const frames = parts.map((part, index) => {
        if (index === 0) {
          const first = pl.readCSV(asBuffer(part), { inferSchemaLength: 0 });
          schema = first.schema;
          return first;
        }
        // deno-lint-ignore no-explicit-any
        return pl.readCSV(asBuffer(part), { hasHeader: false, schema: schema as any });
      });
      const stacked = frames.reduce((a, b) => a.vstack(b));
      assert.deepEqual(stacked.toRecords(), whole.toRecords());
    }),
    { numRuns: 60 },
  );
});

/** What LineFilter keeps, line by line: the lines after the first `skipRows`, but comments. */
function keptLines(text: string, skipRows: number, prefix: string | undefined, end: string) {
  const lines = text.split(end).map((line, i, all) => i < all.length - 1 ? line + end : line);
  let quoted = false;
  return lines.slice(skipRows).filter((line) => {
    if (!quoted && prefix !== undefined && line.startsWith(prefix)) return false;
    quoted = quoted !== (line.split('"').length % 2 === 0);
    return true;
  }).join("");
}

Deno.test("LineFilter keeps the lines after the preamble but comments, whatever the chunks", () => {
  const piece = fc.constantFrom("a", ",", '"', "#", "\n", "\r\n", "é", "//");
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 60 }).map((parts) => parts.join("")),
      fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
      fc.record({
        skipRows: fc.nat(3),
        commentPrefix: fc.constantFrom(undefined, "#", "//"),
        lineEnd: fc.constantFrom("\n" as const, "\r" as const),
      }),
      (text, sizes, dropping) => {
        const bytes = encoder.encode(text);
        const filter = new LineFilter(dropping);
        const kept: number[] = [];
        for (let at = 0, turn = 0; at < bytes.length; at += sizes[turn++ % sizes.length]) {
          kept.push(...filter.push(bytes.subarray(at, at + sizes[turn % sizes.length])));
        }
        kept.push(...filter.push(new Uint8Array(0), true));
        const { skipRows, commentPrefix, lineEnd } = dropping;
        const expected = keptLines(text, skipRows, commentPrefix, lineEnd);
        assert.equal(decoder.decode(new Uint8Array(kept)), expected);
        assert.equal(decoder.decode(new LineFilter(dropping).push(bytes, true)), expected);
      },
    ),
    { numRuns: 300 },
  );
});
