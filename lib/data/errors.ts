/**
 * Typed errors of the dataframe readers. Each names the data-store file it is about.
 *
 * @module
 */

import { TernError, type TernErrorDetails } from "../client/errors.ts";
import { describeVersion, type FileVersion } from "../client/file_version.ts";
import { SUPPORTED_FORMATS } from "../registry/file_formats.ts";

/**
 * The file is not in a format the readers support, or its content contradicts its name (a
 * `.parquet` file without Parquet's signature).
 *
 * @example
 * ```ts
 * import { UnsupportedFormatError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new UnsupportedFormatError("/iplant/home/shared/plot.png", "it is a PNG image");
 * assert.ok(error.message.includes("plot.png"));
 * assert.equal(error.path, "/iplant/home/shared/plot.png");
 * ```
 */
export class UnsupportedFormatError extends TernError {
  /**
   * Creates the error for the file at `path`.
   *
   * @param path The data-store path of the file.
   * @param why What was found, completing "Cannot read … as a table: ".
   * @param hint An extra sentence, e.g. how to force a format.
   *
   * @example
   * ```ts
   * import { UnsupportedFormatError } from "./errors.ts";
   * import assert from "node:assert/strict";
   *
   * const error = new UnsupportedFormatError("/a/notes.txt", "it looks like plain text", 'Pass format: "csv".');
   * assert.ok(error.message.endsWith('Pass format: "csv".'));
   * ```
   */
  constructor(path: string, why: string, hint?: string, details: TernErrorDetails = {}) {
    super(
      `Cannot read ${JSON.stringify(path)} as a table: ${why}. Supported formats: ` +
        `${SUPPORTED_FORMATS}.${hint === undefined ? "" : ` ${hint}`}`,
      { ...details, path },
    );
  }
}

/**
 * The bytes that arrived are not the file the listing described: shorter or longer than its
 * listed size. Raised only after the bounded re-downloads also failed; no frame is ever built
 * from such bytes.
 *
 * @example
 * ```ts
 * import { IntegrityError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new IntegrityError('"/a/b.csv" arrived with 10 of 20 bytes.', { path: "/a/b.csv" });
 * assert.equal(error.name, "IntegrityError");
 * ```
 */
export class IntegrityError extends TernError {}

/**
 * The bytes that arrived have the file's size but not the store's checksum of it (a proxy, a
 * broken disk, a body padded back to size): an {@linkcode IntegrityError} naming the path, both
 * checksums and the size. A read raises it only after reading the file once more from the
 * network; nothing of it is kept in the cache.
 *
 * @example
 * ```ts
 * import { ChecksumMismatchError, IntegrityError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const md5 = (digit: string) => `md5:${digit.repeat(32)}`;
 * const error = new ChecksumMismatchError("/a/b.csv", md5("0"), md5("1"), 20);
 * assert.ok(error instanceof IntegrityError);
 * assert.equal(error.expected, md5("0"));
 * assert.match(error.message, /"\/a\/b.csv".*20 bytes.*md5:1{32}.*store's md5:0{32}/);
 * ```
 */
export class ChecksumMismatchError extends IntegrityError {
  /** The store's checksum of the file. */
  readonly expected: string;
  /** The checksum of the bytes that arrived, in the same algorithm. */
  readonly actual: string;
  /** The size in bytes (the same on both sides). */
  readonly size: number;

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { ChecksumMismatchError } from "./errors.ts";
   * import assert from "node:assert/strict";
   *
   * const md5 = (digit: string) => `md5:${digit.repeat(32)}`;
   * assert.equal(new ChecksumMismatchError("/a", md5("0"), md5("1"), 2).size, 2);
   * ```
   */
  constructor(path: string, expected: string, actual: string, size: number) {
    super(
      `${JSON.stringify(path)} arrived with its ${size.toLocaleString("en-US")} bytes but ` +
        `checksum ${actual}, not the store's ${expected}; nothing of it was returned or cached.`,
      { path, endpoint: "fileio/download" },
    );
    this.expected = expected;
    this.actual = actual;
    this.size = size;
  }
}

/**
 * The file is not the version the read pinned: it changed on the server while it was read (its
 * size or date-modified moved), or the version a lock or a cache holds is not the one there now.
 * What was read belongs to neither for sure, so nothing is returned. Names the path and both
 * versions.
 *
 * @example
 * ```ts
 * import { FileChangedError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const expected = { store: "s", path: "/a/b.csv", id: "i", size: 10, modified: 0 };
 * const error = new FileChangedError(expected, { ...expected, size: 12 });
 * assert.equal(error.path, "/a/b.csv");
 * assert.equal(error.actual?.size, 12);
 * assert.match(error.message, /10 bytes.*12 bytes/);
 * ```
 */
export class FileChangedError extends TernError {
  /** The version the read pinned. */
  readonly expected: FileVersion;
  /** The version found instead; `undefined` when the server could no longer say. */
  readonly actual: FileVersion | undefined;

  /**
   * Creates the error; `when` completes "… changed on the server ".
   *
   * @example
   * ```ts
   * import { FileChangedError } from "./errors.ts";
   * import assert from "node:assert/strict";
   *
   * const expected = { store: "s", path: "/a/b.csv", id: "i", size: 10, modified: 0 };
   * const error = new FileChangedError(expected, { ...expected, modified: 1 }, "since it was listed");
   * assert.match(error.message, /changed on the server since it was listed/);
   * ```
   */
  constructor(expected: FileVersion, actual: FileVersion | undefined, when = "while it was read") {
    let now = actual === undefined ? "gone or unreadable" : describeVersion(actual);
    // Versions that read alike differ in what the description leaves out: say which.
    if (actual !== undefined && actual.id !== expected.id) {
      now += ` (item id ${JSON.stringify(actual.id)}, was ${JSON.stringify(expected.id)})`;
    } else if (actual !== undefined && actual.store !== expected.store) {
      now += ` (on ${actual.store}, was ${expected.store})`;
    }
    super(
      `${JSON.stringify(expected.path)} changed on the server ${when}: it was ` +
        `${describeVersion(expected)}, it is now ${now}. Nothing was ` +
        "returned; read it again for the new version.",
      { path: expected.path },
    );
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * Polars could not parse the file with the options given (a value that does not fit the column
 * type fixed by the first rows, a missing column, malformed content). The message names the
 * file, where in it the problem is, and Polars' own explanation.
 *
 * @example
 * ```ts
 * import { ParseError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new ParseError('Could not parse "/a/b.csv" as CSV: bad value.', { path: "/a/b.csv" });
 * assert.equal(error.path, "/a/b.csv");
 * ```
 */
export class ParseError extends TernError {}

/**
 * The first lines of a Polars error message, without its Python-flavoured suggestions.
 *
 * @example
 * ```ts
 * import { polarsReason } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   polarsReason(new Error("could not parse `x` as dtype `i64`\n\nYou might want to try: …")),
 *   "could not parse `x` as dtype `i64`",
 * );
 * ```
 */
export function polarsReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const first = text.split(/\n\s*\n/)[0].replace(/\s+/g, " ").trim();
  return first.length > 400 ? `${first.slice(0, 399)}…` : first;
}
