import assert from "node:assert/strict";
import { BadRequestError } from "../../lib/client/errors.ts";
import {
  BATCH_OPTIONS,
  COPY_OPTIONS,
  DATAFRAME_OPTIONS,
  MANY_OPTIONS,
  SCAN_MANY_OPTIONS,
  SCAN_OPTIONS,
} from "../../lib/data/options.ts";
import { loadPolars } from "../../lib/data/polars.ts";

/** Every reader option at once, as the schema that has it parses it. */
function parse(options: Record<string, unknown>): unknown {
  const [name] = Object.keys(options);
  const schema = name === "rows"
    ? BATCH_OPTIONS
    : name === "source"
    ? MANY_OPTIONS
    : name === "remote"
    ? SCAN_OPTIONS
    : DATAFRAME_OPTIONS;
  return schema.parse("file.read()", options);
}

Deno.test("every reader option is checked: the error names the call, the option, what was given and what it must be", () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ format: "xls" }, /^format must be one of "csv", .*"parquet".*, got "xls"\.$/],
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
    assert.throws(() => parse(options), (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.ok(error.message.startsWith("file.read(): "), error.message);
      assert.match(error.message.slice("file.read(): ".length), message);
      return true;
    }, JSON.stringify(options));
  }
  for (const options of [null, [], "sep", 3]) {
    assert.throws(() => DATAFRAME_OPTIONS.parse("file.dataframe()", options), {
      name: "BadRequestError",
      message: /^file\.dataframe\(\) takes an options object, got /,
    });
  }
  // A long value is shown shortened, not whole.
  assert.throws(() => parse({ sep: "x".repeat(10_000) }), (error: unknown) => {
    assert.ok((error as Error).message.length < 200, (error as Error).message);
    return true;
  });
});

Deno.test("an option a reader does not take is refused, with the nearest name", () => {
  const cases: [() => unknown, string][] = [
    [
      () => DATAFRAME_OPTIONS.parse("file.dataframe()", { seperator: ";" }),
      'file.dataframe(): unknown option "seperator": did you mean "sep"?',
    ],
    [
      () => DATAFRAME_OPTIONS.parse("file.dataframe()", { n_rows: 5 }),
      'file.dataframe(): unknown option "n_rows": did you mean "nRows"?',
    ],
    [
      // batches' own option is not a dataframe option, and the other way round.
      () => DATAFRAME_OPTIONS.parse("file.dataframe()", { rows: 5 }),
      'file.dataframe(): unknown option "rows": did you mean "nRows"?',
    ],
    // pandas' read_csv and read_json names, as a pandas user types them.
    ...([
      ["usecols", "columns"],
      ["na_values", "nullValues"],
      ["parse_dates", "tryParseDates"],
      ["delimiter", "sep"],
      ["orient", "jsonLayout"],
      ["decimal", "decimalComma"],
    ] as const).map(([pandas, tern]): [() => unknown, string] => [
      () => DATAFRAME_OPTIONS.parse("file.dataframe()", { [pandas]: 1 }),
      `file.dataframe(): unknown option "${pandas}": did you mean "${tern}"?`,
    ]),
    [
      () => SCAN_OPTIONS.parse("file.scan()", { nRows: 5 }),
      'file.scan(): unknown option "nRows"; the options are format, encoding, sep, quoteChar, ' +
      "skipRows, commentPrefix, columns, dtypes, sheet, jsonLayout, hasHeader, decimalComma, " +
      "tryParseDates, " +
      "nullValues, inferSchemaLength, remote, onProgress, progress, signal.",
    ],
    [
      () => SCAN_MANY_OPTIONS.parse("listing.scan()", { nullValues: 0 }),
      "listing.scan(): nullValues must be a string, an array of strings, or an object of column " +
      "name to string, got 0.",
    ],
    [
      () => SCAN_MANY_OPTIONS.parse("listing.scan()", { sources: "file" }),
      'listing.scan(): unknown option "sources": did you mean "source"?',
    ],
    [
      () => COPY_OPTIONS.parse("file.downloadTo()", { cache: false }),
      'file.downloadTo(): unknown option "cache"; the options are onProgress, progress, signal.',
    ],
  ];
  for (const [run, message] of cases) {
    assert.throws(run, (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.equal(error.message, message);
      return true;
    });
  }
});

/** The calls that take `encoding` and `format`, each with its schema. */
const READERS = [["file.dataframe()", DATAFRAME_OPTIONS], ["file.scan()", SCAN_OPTIONS]] as const;

Deno.test("an encoding spelt as pandas (Python) spells it is refused naming tern's spelling", () => {
  const cases = [
    ["latin1", "latin-1"],
    ["utf8", "utf-8"],
    ["UTF-8", "utf-8"],
    ["ISO-8859-1", "iso-8859-1"],
    ["cp1252", "windows-1252"],
    ["CP1252", "windows-1252"],
    ["windows1252", "windows-1252"],
    ["utf-8-sig", "utf-8"],
    ["utf_16_le", "utf-16le"],
  ];
  for (const [given, meant] of cases) {
    for (const [call, schema] of READERS) {
      assert.throws(() => schema.parse(call, { encoding: given }), {
        name: "BadRequestError",
        message: `${call}: encoding must be one of "utf-8", "utf-16", "utf-16le", "utf-16be", ` +
          `"latin-1", "iso-8859-1", "windows-1252", got "${given}". Did you mean "${meant}"?`,
      });
    }
  }
  // Nothing near: the list alone.
  assert.throws(() => DATAFRAME_OPTIONS.parse("file.dataframe()", { encoding: "mac-roman" }), {
    message: /, got "mac-roman"\.$/,
  });
});

Deno.test("a format named by its file extension is refused naming the format, never a near miss", () => {
  const cases = [
    ["xlsx", "excel"],
    ["XLSX", "excel"],
    ["jsonl", "ndjson"],
    ["feather", "arrow"],
    ["pq", "parquet"],
    ["tab", "tsv"],
    ["CSV", "csv"],
  ];
  for (const [given, meant] of cases) {
    for (const [call, schema] of READERS) {
      assert.throws(() => schema.parse(call, { format: given }), {
        name: "BadRequestError",
        message: new RegExp(
          `^${
            call.replace(/[().]/g, "\\$&")
          }: format must be one of "csv", .*, got "${given}"\\. Did you mean "${meant}"\\?$`,
        ),
      });
    }
  }
});

Deno.test("every well-formed reader option passes, and comes back as given", async () => {
  const pl = await loadPolars();
  assert.deepEqual(DATAFRAME_OPTIONS.parse("file.dataframe()", {}), {});
  const signal = new AbortController().signal;
  const onProgress = () => {};
  const every = {
    format: "tsv",
    sep: "\t",
    quoteChar: "'",
    columns: ["a"],
    dtypes: { a: pl.Utf8 },
    hasHeader: false,
    decimalComma: true,
    tryParseDates: false,
    cache: false,
    progress: true,
    nullValues: { a: "NA" },
    nRows: 0,
    inferSchemaLength: 1,
    onProgress,
    signal,
  } as const;
  const parsed = DATAFRAME_OPTIONS.parse("file.dataframe()", every);
  assert.deepEqual(parsed, every);
  assert.equal(parsed.signal, signal);
  assert.equal(parsed.dtypes?.a, pl.Utf8);
  assert.deepEqual(BATCH_OPTIONS.parse("file.batches()", { ...every, rows: 1 }), {
    ...every,
    rows: 1,
  });
  assert.deepEqual(MANY_OPTIONS.parse("listing.dataframes()", { ...every, source: false }), {
    ...every,
    source: false,
  });
  for (const nullValues of ["NA", ["NA", ""]]) {
    assert.deepEqual(DATAFRAME_OPTIONS.parse("file.dataframe()", { nullValues }), { nullValues });
  }
  assert.deepEqual(MANY_OPTIONS.parse("listing.dataframes()", { source: "file", sep: undefined }), {
    source: "file",
    sep: undefined,
  });
  // A scan takes dataframe()'s options of how bytes become a table, but not nRows or cache.
  const { nRows: _nRows, cache: _cache, ...table } = every;
  const scan = { ...table, sheet: 1, remote: false, onProgress, progress: false, signal } as const;
  assert.deepEqual(SCAN_OPTIONS.parse("file.scan()", scan), scan);
  assert.deepEqual(SCAN_MANY_OPTIONS.parse("listing.scan()", { ...scan, source: "f" }), {
    ...scan,
    source: "f",
  });
  assert.deepEqual(
    COPY_OPTIONS.parse("file.cachedPath()", { onProgress, progress: false, signal }),
    {
      onProgress,
      progress: false,
      signal,
    },
  );
});
