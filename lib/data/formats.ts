/**
 * The table format of a file, as the readers need it: the registry's detection
 * (`lib/registry/format_detection.ts`), with a file that is no table raised as an
 * {@linkcode UnsupportedFormatError}.
 *
 * @module
 */

import {
  type DetectedFormat,
  detectTableFormat,
  type FormatClues,
  innerTableFormat,
  type UnsupportedFormat,
} from "../registry/format_detection.ts";
import { UnsupportedFormatError } from "./errors.ts";

/**
 * Decides how to read a file (see `detectTableFormat` in the registry).
 *
 * @throws {UnsupportedFormatError} naming the file, what it seems to be, and the supported
 * formats.
 *
 * @example
 * ```ts
 * import { detectFormat } from "./formats.ts";
 * import { UnsupportedFormatError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const head = new TextEncoder().encode("a\tb\n1\t2\n");
 * assert.deepEqual(detectFormat({ path: "/x/table.txt", head }), { gzip: false, format: "csv", sep: "\t" });
 * assert.throws(() => detectFormat({ path: "/x/notes.md", head }), UnsupportedFormatError);
 * ```
 */
export function detectFormat(clues: FormatClues): DetectedFormat {
  return supported(clues.path, detectTableFormat(clues));
}

/**
 * The format inside a gzip file (see `innerTableFormat` in the registry).
 *
 * @throws {UnsupportedFormatError} when the content is not a supported text format.
 *
 * @example
 * ```ts
 * import { innerFormat } from "./formats.ts";
 * import assert from "node:assert/strict";
 *
 * const head = new TextEncoder().encode('{"a":1}\n{"a":2}\n');
 * assert.deepEqual(innerFormat({ path: "/x/events.gz", head }), { gzip: true, format: "ndjson" });
 * ```
 */
export function innerFormat(clues: FormatClues): DetectedFormat {
  return supported(clues.path, innerTableFormat(clues));
}

function supported(path: string, found: DetectedFormat | UnsupportedFormat): DetectedFormat {
  if ("unsupported" in found) throw new UnsupportedFormatError(path, found.unsupported, found.hint);
  return found;
}
