/**
 * Text in other encodings than UTF-8 (lib/data/encoding.ts and the `encoding` option): latin-1,
 * windows-1252 and UTF-16 CSVs read with the right text through `dataframe()` (downloaded and
 * cached), `batches()` and `head()`; text that is not UTF-8 read without the option is an error
 * naming the option and the first bad byte; `format: "csv"` reads text whatever its bytes.
 *
 * @module
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import type { DataFrame } from "../../polars.ts";
import { ParseError } from "../../lib/data/errors.ts";
import { BadRequestError } from "../../lib/client/errors.ts";
import { type Encoding, invalidUtf8At, toUtf8 } from "../../lib/data/encoding.ts";
import type { Store } from "../../mod.ts";
import { DATA, dataStore } from "./_store.ts";

/** Names in latin-1's range, and prices with the signs windows-1252 keeps at 0x80–0x9F. */
const LATIN1_ROWS = [["Café Zürich", "5"], ["Señor Müller", "7"], ["Straße", "9"]];
const CP1252_ROWS = [["“Grüße” – 2 €", "5"], ["‘naïve’ … Œuvre", "7"], ["Café", "9"]];

/** Windows-1252's characters at 0x80–0x9F that are not there in Unicode. */
const CP1252_HIGH: Record<string, number> = {
  "€": 0x80,
  "…": 0x85,
  "Œ": 0x8c,
  "‘": 0x91,
  "’": 0x92,
  "“": 0x93,
  "”": 0x94,
  "–": 0x96,
};

function csvOf(rows: string[][]): string {
  return `name,n\n${rows.map((row) => row.join(",")).join("\n")}\n`;
}

function singleByte(text: string): Uint8Array {
  return Uint8Array.from([...text], (char) => {
    const code = CP1252_HIGH[char] ?? char.codePointAt(0)!;
    assert.ok(code < 0x100, `${char} has no single byte`);
    return code;
  });
}

function utf16(text: string, big: boolean): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xfeff, !big);
  for (let i = 0; i < text.length; i++) view.setUint16(2 + 2 * i, text.charCodeAt(i), !big);
  return bytes;
}

const CASES: { name: string; encoding: Encoding; rows: string[][]; bytes: Uint8Array }[] = [
  {
    name: "latin1.csv",
    encoding: "latin-1",
    rows: LATIN1_ROWS,
    bytes: singleByte(csvOf(LATIN1_ROWS)),
  },
  {
    name: "iso.csv",
    encoding: "iso-8859-1",
    rows: LATIN1_ROWS,
    bytes: singleByte(csvOf(LATIN1_ROWS)),
  },
  {
    name: "cp1252.csv",
    encoding: "windows-1252",
    rows: CP1252_ROWS,
    bytes: singleByte(csvOf(CP1252_ROWS)),
  },
  {
    name: "utf16le.csv",
    encoding: "utf-16",
    rows: CP1252_ROWS,
    bytes: utf16(csvOf(CP1252_ROWS), false),
  },
  {
    name: "utf16be.csv",
    encoding: "utf-16",
    rows: CP1252_ROWS,
    bytes: utf16(csvOf(CP1252_ROWS), true),
  },
  {
    name: "utf16be-named.tsv",
    encoding: "utf-16be",
    rows: CP1252_ROWS,
    bytes: utf16(csvOf(CP1252_ROWS).replaceAll(",", "\t"), true),
  },
];

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const names = (frame: DataFrame) => frame.getColumn("name").toArray() as string[];

async function batchesOf(store: Store, path: string, encoding: Encoding): Promise<string[]> {
  const read: string[] = [];
  for await (const batch of store.file(path).batches({ encoding, rows: 2, progress: false })) {
    read.push(...names(batch));
  }
  return read;
}

Deno.test("latin-1, windows-1252 and UTF-16 (LE and BE, with BOM) CSVs read with the right text", async () => {
  const files = Object.fromEntries(CASES.map((c) => [`${DATA}/${c.name}`, c.bytes]));
  for (const c of CASES) files[`${DATA}/${c.name}.gz`] = await gzip(c.bytes);
  await using served = await dataStore(files);
  const store = served.connect({ progress: false });
  for (const c of CASES) {
    for (const path of [`${DATA}/${c.name}`, `${DATA}/${c.name}.gz`]) {
      const want = c.rows.map(([name]) => name);
      const what = `${path} (${c.encoding})`;
      const file = store.file(path);
      const downloaded = await file.dataframe({ encoding: c.encoding });
      assert.deepEqual(names(downloaded), want, `${what}: dataframe()`);
      assert.deepEqual(downloaded.getColumn("n").toArray(), [5, 7, 9], what);
      const cached = await file.dataframe({ encoding: c.encoding });
      assert.deepEqual(names(cached), want, `${what}: dataframe() from the cache`);
      const uncached = await file.dataframe({ encoding: c.encoding, cache: false });
      assert.deepEqual(names(uncached), want, `${what}: dataframe() without the cache`);
      assert.deepEqual(await batchesOf(store, path, c.encoding), want, `${what}: batches()`);
      const head = await file.head(2, { encoding: c.encoding, cache: false });
      assert.deepEqual(names(head), want.slice(0, 2), `${what}: head()`);
    }
  }
});

Deno.test("text that is not UTF-8, read without encoding, is an error naming the option and the first bad byte", async () => {
  const latin1 = singleByte(csvOf(LATIN1_ROWS));
  const at = csvOf(LATIN1_ROWS).indexOf("é");
  await using served = await dataStore({
    [`${DATA}/latin1.csv`]: latin1,
    [`${DATA}/latin1.dat`]: latin1,
  });
  const store = served.connect({ progress: false });
  const file = store.file(`${DATA}/latin1.csv`);
  const notUtf8 = (error: unknown) => {
    assert.ok(error instanceof ParseError, String(error));
    assert.match(error.message, new RegExp(`byte ${at} of the file \\(0xE9\\) is not valid UTF-8`));
    assert.match(error.message, /encoding: "latin-1"/);
    return true;
  };
  await assert.rejects(file.dataframe(), notUtf8);
  await assert.rejects(file.dataframe({ cache: false }), notUtf8);
  await assert.rejects(file.head(2), notUtf8);
  await assert.rejects(store.file(`${DATA}/latin1.dat`).dataframe({ format: "csv" }), notUtf8);
  // format: "csv" forces CSV: with the encoding, a name that says nothing reads.
  const forced = await store.file(`${DATA}/latin1.dat`)
    .dataframe({ format: "csv", encoding: "latin-1" });
  assert.deepEqual(names(forced), LATIN1_ROWS.map(([name]) => name));
  // UTF-16 without the option: a byte-order mark says which encoding to pass.
  await using utf16Store = await dataStore({ [`${DATA}/u.csv`]: utf16(csvOf(CP1252_ROWS), false) });
  await assert.rejects(
    utf16Store.connect({ progress: false }).file(`${DATA}/u.csv`).dataframe(),
    /UTF-16 text .*encoding: "utf-16"/,
  );
});

Deno.test("encoding is checked with the other options", async () => {
  await using served = await dataStore({ [`${DATA}/a.csv`]: "a\n1\n" });
  await assert.rejects(
    served.connect().file(`${DATA}/a.csv`).dataframe({ encoding: "ascii" as Encoding }),
    (error: unknown) =>
      error instanceof BadRequestError && /encoding must be one of "utf-8", "utf-16"/.test(
        error.message,
      ),
  );
});

Deno.test("property: text decoded in chunks of any size equals the text", async () => {
  const encodings = ["utf-16", "utf-16le", "utf-16be", "windows-1252"] as const;
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: fc.constantFrom("a", ",", "\n", "é", "€", "“", "Œ", "ß") }),
      fc.constantFrom(...encodings),
      fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1 }),
      async (text, encoding, sizes) => {
        const bytes = encoding === "windows-1252"
          ? singleByte(text)
          : utf16(text, encoding === "utf-16be");
        const chunks: Uint8Array[] = [];
        for (let at = 0, i = 0; at < bytes.length; at += sizes[i++ % sizes.length]) {
          chunks.push(bytes.slice(at, at + sizes[i % sizes.length]));
        }
        // Each chunk is whole characters of UTF-8.
        const fatal = new TextDecoder("utf-8", { fatal: true });
        const out: string[] = [];
        for await (const chunk of toUtf8(chunks, encoding)) out.push(fatal.decode(chunk));
        assert.equal(out.join(""), text);
      },
    ),
  );
});

Deno.test("property: the first invalid UTF-8 byte is where TextDecoder first fails", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
      const at = invalidUtf8At(bytes);
      const valid = (end: number) => {
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end));
          return true;
        } catch {
          return false;
        }
      };
      if (at === undefined) assert.ok(valid(bytes.length));
      else {
        assert.ok(valid(at), "valid before it");
        assert.ok(!valid(bytes.length));
      }
    }),
  );
});
