/**
 * Numbers written with a decimal comma, as spreadsheets export them where the comma is the
 * decimal mark (`;` between fields, a byte-order mark, CRLF): text by default, numbers with
 * `decimalComma: true` on every route (whole, head, batches, scan, several files), read over
 * loopback from the embedded server.
 *
 * @module
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import pl from "../../polars.ts";
import { BadRequestError } from "../../lib/client/errors.ts";
import { ParseError } from "../../lib/data/errors.ts";
import { decimalPoints } from "../../lib/data/records.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { DATA, dataStore } from "./_store.ts";

// As Excel saves "CSV (semicolon delimited)" in a German or French locale.
const EXPORT = "\ufeffStation;Temp °C;Rain mm;Note\r\nBern;3,14;0,5;Bern, BE\r\n" +
  'Genève;-1,5;12;"1,5 km"\r\nZürich;;"1,25e1";\r\n';

Deno.test("a decimal-comma export is text by default and numbers with decimalComma, on every route", async () => {
  // Integers for more than the first parse batch (64 KiB), then a decimal comma: the column is
  // widened, as it is for a decimal point.
  const late = "id;0,5\n" + Array.from({ length: 20_000 }, (_, i) => `${i};${i}`).join("\n") +
    "\n20000;0,5\n";
  await using served = await dataStore({
    [`${DATA}/eu/export.csv`]: EXPORT,
    [`${DATA}/eu/late.csv`]: late,
  });
  const store = served.connect();
  const file = store.file(`${DATA}/eu/export.csv`);

  // Read as text, the card says why and which option reads the numbers; a decimal comma met by
  // an integer column says so too.
  const plain = await file.dataframe();
  assert.deepEqual(plain.getColumn("Temp °C").toArray(), ["3,14", "-1,5", null]);
  const card = (plain as unknown as Record<symbol, () => { "text/plain": string }>)
    [JUPYTER_DISPLAY]()["text/plain"];
  assert.match(
    card,
    /\n {2}numbers with a decimal comma read as text: Temp °C \(decimalComma: true reads them/,
  );
  await assert.rejects(store.file(`${DATA}/eu/late.csv`).dataframe(), {
    name: ParseError.name,
    message: /could not parse `0,5` as dtype `i64`.* decimal comma: decimalComma: true reads/s,
  });

  const o = { decimalComma: true };
  const batches = [];
  for await (const batch of file.batches(o)) batches.push(batch);
  const reads = {
    whole: await file.dataframe(o),
    head: await file.head(10, o),
    batches: pl.concat(batches),
    scan: await (await file.scan(o)).collect(),
    many: await store.folder(`${DATA}/eu`).walk({ glob: "export.csv" }).dataframes({
      ...o,
      source: false,
    }),
  };
  for (const [route, frame] of Object.entries(reads)) {
    assert.deepEqual(frame.columns, ["Station", "Temp °C", "Rain mm", "Note"], route);
    assert.deepEqual(frame.dtypes, [pl.String, pl.Float64, pl.Float64, pl.String], route);
    assert.deepEqual(frame.getColumn("Temp °C").toArray(), [3.14, -1.5, null], route);
    assert.deepEqual(frame.getColumn("Rain mm").toArray(), [0.5, 12, 12.5], route);
    // Text with a comma in it is text as written.
    assert.deepEqual(frame.getColumn("Note").toArray(), ["Bern, BE", "1,5 km", null], route);
  }

  const widened = await store.file(`${DATA}/eu/late.csv`).dataframe(o);
  // A header is left as written (a spectrum names columns by wavelength so), as pandas leaves it.
  assert.deepEqual(widened.columns, ["id", "0,5"]);
  assert.deepEqual(widened.dtypes, [pl.Int64, pl.Float64]);
  assert.equal(widened.getColumn("0,5").toArray().at(-1), 0.5);

  await assert.rejects(file.dataframe({ decimalComma: "yes" as unknown as boolean }), {
    name: BadRequestError.name,
    message: 'file.dataframe(): decimalComma must be true or false, got "yes".',
  });
});

Deno.test("decimalPoints changes only fields that are decimal-comma numbers, whatever the quotes", () => {
  const text = new TextEncoder();
  const run = (csv: string, sep = ",", eolChar = "\n", header = false) =>
    new TextDecoder().decode(decimalPoints(text.encode(csv), { sep, eolChar }, header));
  assert.equal(run('"3,14","a,b",1,"1,2,3",",5"\n'), '"3.14","a,b",1,"1,2,3",".5"\n');
  assert.equal(
    run("1.234,5;12,25;1,;+2,5E-3;x1,5;1,5x\r\n", ";"),
    "1.234,5;12.25;1,;+2.5E-3;x1,5;1,5x\r\n",
  );
  // A doubled quote, text after a closing quote, a line break inside quotes, a lone CR ending.
  assert.equal(run('"1,""5";"2,5"x;"3,5\n";4,5', ";"), '"1,""5";"2,5"x;"3,5\n";4.5');
  assert.equal(run("a;1,5\r2,5;b\r", ";", "\r"), "a;1.5\r2.5;b\r");
  // A quoted number last on a CRLF line, as Excel quotes; a CR inside a field is text.
  assert.equal(run('a;"1,5"\r\n', ";"), 'a;"1.5"\r\n');
  assert.equal(run("1,5\r;2,5\r", ";"), "1,5\r;2.5\r");
  // A header is left as written, as pandas leaves it: a spectrum names its columns so.
  assert.equal(run("nm;350,5\r\n1;0,25\r\n", ";", "\n", true), "nm;350,5\r\n1;0.25\r\n");
  // Unchanged text is handed back as it is, not copied.
  const same = text.encode("a;b\n1;2\n");
  assert.equal(decimalPoints(same, { sep: ";", eolChar: "\n" }), same);
});

Deno.test("property: decimalPoints changes exactly the commas of fields that are whole numbers", () => {
  // The reference: fields split where a separator or line feed stands outside quotes (quote
  // parity, as records are cut), each field judged whole by a regular expression.
  const NUMBER = /^(?:[+-]?\d*,\d+(?:[eE][+-]?\d+)?|"[+-]?\d*,\d+(?:[eE][+-]?\d+)?")$/;
  const reference = (text: string) => {
    const out = [...text];
    let [start, quoted] = [0, false];
    for (let i = 0; i <= text.length; i++) {
      const char = text[i] ?? "\n";
      if (char === '"') quoted = !quoted;
      else if (!quoted && (char === ";" || char === "\n")) {
        // A CR before a line feed (or the end) ends the line, not the field's text.
        const field = text.slice(start, char === "\n" && text[i - 1] === "\r" ? i - 1 : i);
        if (NUMBER.test(field)) out[start + field.indexOf(",")] = ".";
        start = i + 1;
      }
    }
    return out.join("");
  };
  // Fields that are numbers, quoted or not, beside noise of the same bytes, quotes included.
  const number = fc.tuple(
    fc.constantFrom("", "-", "+"),
    fc.stringMatching(/^\d{0,3}$/),
    fc.stringMatching(/^\d{1,3}$/),
    fc.constantFrom("", "e3", "E-2", "e"),
  ).map(([sign, whole, fraction, exponent]) => `${sign}${whole},${fraction}${exponent}`);
  const noise = fc.array(fc.constantFrom("1", ",", ";", '"', "a", "-", "e", "\r", " "), {
    maxLength: 6,
  }).map((chars) => chars.join(""));
  const field = fc.oneof(number, number.map((n) => `"${n}"`), noise);
  const joiner = fc.constantFrom(";", "\n", "\r\n", "");
  const texts = fc.array(fc.tuple(field, joiner), { maxLength: 12 })
    .map((parts) => parts.map(([f, j]) => f + j).join(""));
  fc.assert(
    fc.property(texts, (text) => {
      const bytes = new TextEncoder().encode(text);
      const got = new TextDecoder().decode(decimalPoints(bytes, { sep: ";", eolChar: "\n" }));
      assert.equal(got, reference(text), JSON.stringify(text));
    }),
    { numRuns: 2000 },
  );
});
