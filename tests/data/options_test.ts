import assert from "node:assert/strict";
import { BadRequestError } from "../../lib/client/errors.ts";
import { checkOptions } from "../../lib/data/options.ts";
import { loadPolars } from "../../lib/data/polars.ts";

Deno.test("every reader option is checked: the error names it, what was given and what it must be", () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ format: "xlsx" }, /^format must be one of csv, .*parquet.*, got "xlsx"\.$/],
    [{ sep: ";;" }, /^sep must be one ASCII character, not a line break, got ";;"\.$/],
    [{ sep: "\n" }, /^sep must be .*not a line break, got "\\n"\.$/],
    [{ sep: 59 }, /^sep must be one ASCII character.*, got 59\.$/],
    [{ quoteChar: "«" }, /^quoteChar must be one ASCII character, got "«"\.$/],
    [{ columns: [] }, /^columns must be a non-empty array of column names, got \[\]\.$/],
    [{ columns: ["a", 1] }, /^columns must be a non-empty array .*, got \[ "a", 1 \]\.$/],
    [{ dtypes: ["a"] }, /^dtypes must be an object of column name to Polars type/],
    [{ hasHeader: "yes" }, /^hasHeader must be true or false, got "yes"\.$/],
    [{ tryParseDates: 1 }, /^tryParseDates must be true or false, got 1\.$/],
    [{ cache: null }, /^cache must be true or false, got null\.$/],
    [{ progress: "no" }, /^progress must be true or false/],
    [{ remote: 0 }, /^remote must be true or false/],
    [{ nullValues: 0 }, /^nullValues must be a string, an array of strings, or an object/],
    [{ nullValues: ["NA", 0] }, /^nullValues must be/],
    [{ nullValues: { a: 0 } }, /^nullValues must be/],
    [{ nRows: -1 }, /^nRows must be an integer ≥ 0, got -1\.$/],
    [{ nRows: 2.5 }, /^nRows must be an integer ≥ 0, got 2\.5\.$/],
    [{ nRows: 2 ** 60 }, /^nRows must be an integer ≥ 0/],
    [{ inferSchemaLength: 0 }, /^inferSchemaLength must be an integer ≥ 1, got 0\.$/],
    [{ rows: "10" }, /^rows must be an integer ≥ 1, got "10"\.$/],
    [{ onProgress: true }, /^onProgress must be a function, got true\.$/],
    [{ signal: {} }, /^signal must be an AbortSignal, got \{\}\.$/],
    [{ source: "" }, /^source must be a column name, or false for no source column, got ""\.$/],
    [{ source: true }, /^source must be a column name, or false/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => checkOptions(options), (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.match(error.message, message);
      return true;
    }, JSON.stringify(options));
  }
  for (const options of [null, [], "sep", 3]) {
    assert.throws(() => checkOptions(options), {
      name: "BadRequestError",
      message: /^Reader options must be an object/,
    });
  }
  // A long value is shown shortened, not whole.
  assert.throws(() => checkOptions({ sep: "x".repeat(10_000) }), (error: unknown) => {
    assert.ok((error as Error).message.length < 200, (error as Error).message);
    return true;
  });
});

Deno.test("every well-formed reader option passes", async () => {
  const pl = await loadPolars();
  checkOptions({});
  checkOptions({
    format: "tsv",
    sep: "\t",
    quoteChar: "'",
    columns: ["a"],
    dtypes: { a: pl.Utf8 },
    hasHeader: false,
    tryParseDates: false,
    cache: false,
    progress: true,
    remote: false,
    nullValues: { a: "NA" },
    nRows: 0,
    inferSchemaLength: 1,
    rows: 1,
    onProgress: () => {},
    signal: new AbortController().signal,
    source: false,
    sources: "unknown options are left to the reader that takes them",
  });
  for (const nullValues of ["NA", ["NA", ""]]) checkOptions({ nullValues });
  checkOptions({ source: "file", sep: undefined });
});
