/**
 * The table format of a file, as the readers need it: the registry's detection
 * (`lib/registry/format_detection.ts`), with a file that is no table raised as an
 * {@linkcode UnsupportedFormatError}. Text read with `skipRows` or `commentPrefix` is judged by
 * its first lines without those it drops: an instrument's preamble would hide its separator.
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
import { type LineDropping, LineFilter } from "./records.ts";

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
 * const logger = new TextEncoder().encode("# Station: Tucson, AZ\na;b\n1;2\n");
 * assert.equal(detectFormat({ path: "/x/log.dat", head: logger }, { commentPrefix: "#" }).sep, ";");
 * ```
 */
export function detectFormat(clues: FormatClues, dropping: LineDropping = {}): DetectedFormat {
  return supported(clues.path, withoutDropped(detectTableFormat, clues, dropping));
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
export function innerFormat(clues: FormatClues, dropping: LineDropping = {}): DetectedFormat {
  return supported(clues.path, withoutDropped(innerTableFormat, clues, dropping));
}

/**
 * What `detect` finds, and when that is delimited text or no table and lines are dropped, what
 * it finds in the head without them, if that is delimited text.
 */
function withoutDropped(
  detect: (clues: FormatClues) => DetectedFormat | UnsupportedFormat,
  clues: FormatClues,
  { skipRows, commentPrefix, quoteChar }: LineDropping,
): DetectedFormat | UnsupportedFormat {
  const found = detect(clues);
  if (!skipRows && commentPrefix === undefined) return found;
  if (!("unsupported" in found) && found.format !== "csv") return found;
  const { head } = clues;
  const lineEnd = head.includes(0x0a) || !head.includes(0x0d) ? "\n" : "\r";
  const filter = new LineFilter({ skipRows, commentPrefix, quoteChar, lineEnd });
  const text = detect({ ...clues, head: filter.push(head, true) });
  return !("unsupported" in text) && text.format === "csv" ? text : found;
}

function supported(path: string, found: DetectedFormat | UnsupportedFormat): DetectedFormat {
  if ("unsupported" in found) throw new UnsupportedFormatError(path, found.unsupported, found.hint);
  return found;
}
