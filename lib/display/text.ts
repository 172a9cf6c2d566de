/**
 * Plain-text building blocks for the `text/plain` side of every view: aligned tables and
 * indented key/value lines, with values made single-line and cut to a width.
 *
 * @module
 */

import { clipCell, oneLine } from "./format.ts";

/**
 * A column of {@linkcode textTable}: its heading, and whether numbers align right.
 *
 * @example
 * ```ts
 * import type { TextColumn } from "./text.ts";
 *
 * const size: TextColumn = { heading: "size", right: true };
 * ```
 */
export interface TextColumn {
  /** Heading shown above the column. */
  heading: string;
  /** Align right (numbers, sizes). */
  right?: boolean;
  /**
   * Widest the column may get, in characters (default 48); longer cells are cut with `…` (URLs
   * and paths in the middle).
   */
  max?: number;
}

/**
 * An aligned plain-text table, indented by two spaces, every cell on one line.
 *
 * @example
 * ```ts
 * import { textTable } from "./text.ts";
 * import assert from "node:assert/strict";
 *
 * const table = textTable(
 *   [{ heading: "name" }, { heading: "size", right: true }],
 *   [["a.csv", "1.2 kB"], ["b.csv", "980 B"]],
 * );
 * assert.deepEqual(table.split("\n"), [
 *   "  name     size",
 *   "  a.csv  1.2 kB",
 *   "  b.csv   980 B",
 * ]);
 * ```
 */
export function textTable(columns: readonly TextColumn[], rows: readonly string[][]): string {
  const cells = rows.map((row) =>
    columns.map((column, index) => clipCell(oneLine(row[index] ?? ""), column.max ?? 48).text)
  );
  const widths = columns.map((column, index) =>
    Math.max(width(column.heading), ...cells.map((row) => width(row[index])))
  );
  const line = (row: string[]) =>
    "  " + row.map((cell, index) => {
      const pad = " ".repeat(widths[index] - width(cell));
      return columns[index].right ? pad + cell : cell + pad;
    }).join("  ").trimEnd();
  return [line(columns.map((column) => column.heading)), ...cells.map(line)].join("\n");
}

/**
 * `  key: value` lines with the keys aligned; entries whose value is `undefined` are left out.
 *
 * @example
 * ```ts
 * import { textPairs } from "./text.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   textPairs([["title", "Barley"], ["doi", undefined], ["year", "1934"]]),
 *   "  title: Barley\n  year:  1934",
 * );
 * ```
 */
export function textPairs(pairs: readonly (readonly [string, string | undefined])[]): string {
  const shown = pairs.filter((pair): pair is readonly [string, string] => pair[1] !== undefined);
  const keyWidth = Math.max(0, ...shown.map(([key]) => width(key)));
  return shown.map(([key, value]) =>
    `  ${key}:${" ".repeat(keyWidth - width(key) + 1)}${oneLine(value)}`
  ).join("\n");
}

/** Width in code points (close enough for the names and numbers shown here). */
function width(text: string): number {
  return Array.from(text).length;
}
