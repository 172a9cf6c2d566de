/**
 * How the command line shows things: sizes, dates, entries as text lines or JSON objects, and
 * names made safe for a terminal. Pure functions, so every command prints the same way.
 *
 * @module
 */

import type { Entry } from "../../mod.ts";
import { visibleText } from "../display/format.ts";
import { formatOfFileName } from "../registry/file_formats.ts";
import { visibleJson } from "../registry/visible_text.ts";

/**
 * Text styles for one output stream; each is the identity when colour is off (not a terminal,
 * or `NO_COLOR` set), so callers never branch on it.
 *
 * @example
 * ```ts
 * import { styles } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * const plain = styles(false);
 * assert.equal(plain.bold("tern"), "tern");
 * ```
 */
export interface Styles {
  /** Bold. */
  bold(text: string): string;
  /** Dimmed, for secondary details. */
  dim(text: string): string;
  /** Folders. */
  folder(text: string): string;
  /** Errors. */
  error(text: string): string;
  /** Warnings and notes. */
  warn(text: string): string;
  /** Success. */
  ok(text: string): string;
}

/**
 * The styles for a stream: ANSI colours when `color` is true, plain text otherwise.
 *
 * @example
 * ```ts
 * import { styles } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(JSON.stringify(styles(true).bold("x")), '"\\u001b[1mx\\u001b[22m"');
 * ```
 */
export function styles(color: boolean): Styles {
  const wrap = (open: number | string, close: number) => (text: string) =>
    color ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    folder: wrap("1;34", 0),
    error: wrap("1;31", 0),
    warn: wrap(33, 39),
    ok: wrap(32, 39),
  };
}

/**
 * A name or value made safe to print on a terminal: control characters (which could move the
 * cursor, recolour or retitle the terminal), bidirectional overrides and other invisible
 * characters become visible escapes such as `\n`, `\x1b` or `\u{202e}`; everything else is
 * unchanged. The same escaping as every `text/plain` view ({@linkcode visibleText}). For display
 * only: `--json` output has the exact names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { safeText } from "./format.ts";
 *
 * // control characters come out escaped, so they are inert in a terminal
 * assert.equal(safeText("evil\x1b]0;pwned\x07.csv"), "evil\\x1b]0;pwned\\x07.csv");
 * assert.equal(safeText("plain name.csv"), "plain name.csv");
 * ```
 */
export const safeText: (text: string) => string = visibleText;

const UNITS = ["B", "kB", "MB", "GB", "TB", "PB"];

/**
 * A byte count for people, in SI units: `512 B`, `13.5 kB`, `25.1 MB`, `120 GB`.
 *
 * @example
 * ```ts
 * import { humanSize } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(humanSize(13487), "13.5 kB");
 * assert.equal(humanSize(999), "999 B");
 * assert.equal(humanSize(25_100_000), "25.1 MB");
 * ```
 */
export function humanSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1000) return `${Math.max(0, Math.round(bytes))} B`;
  let value = bytes;
  let unit = 0;
  // Thresholds where the rounded figure would read 1000, so 999,500 B shows as 1.0 MB.
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 99.95 ? value.toFixed(0) : value.toFixed(1)} ${UNITS[unit]}`;
}

// Counts (`20,003`) and counted nouns (`1 file`, `3 files`) read as in the notebook views.
export { formatCount as count, plural } from "../display/format.ts";

/**
 * A date to the minute in UTC, as listings show it: `2024-01-10 09:00`.
 *
 * @example
 * ```ts
 * import { shortDate } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(shortDate(new Date("2024-01-10T09:00:30Z")), "2024-01-10 09:00");
 * ```
 */
export function shortDate(date: Date): string {
  return Number.isNaN(date.getTime())
    ? "????-??-?? ??:??"
    : date.toISOString().slice(0, 16).replace("T", " ");
}

/**
 * An entry as a plain JSON object with a fixed key order and ISO dates: what `--json` prints,
 * one object per line. `extra` fields are appended (the depth in a tree, a file's content type).
 *
 * @example
 * ```ts
 * import { entryJson } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * const json = entryJson({
 *   id: "5fd7deff-dc59-52aa-86bf-4ccace6f7a31", path: "/iplant/home/shared/a.csv", name: "a.csv",
 *   type: "file", size: 10, created: new Date(0), modified: new Date(0), infoType: "csv",
 *   permission: "read",
 * });
 * assert.deepEqual(Object.keys(json).slice(0, 3), ["path", "name", "type"]); // a fixed order
 * assert.equal(json.modified, "1970-01-01T00:00:00.000Z");
 * ```
 */
export function entryJson(
  entry: Entry,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    path: entry.path,
    name: entry.name,
    type: entry.type,
    size: entry.size,
    modified: isoDate(entry.modified),
    created: isoDate(entry.created),
    infoType: entry.infoType,
    permission: entry.permission,
    id: entry.id,
    ...extra,
  };
}

/**
 * A date as ISO 8601, or `null` when the server sent something that is not a date.
 *
 * @example
 * ```ts
 * import { isoDate } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isoDate(new Date(0)), "1970-01-01T00:00:00.000Z");
 * assert.equal(isoDate(new Date(NaN)), null);
 * ```
 */
export function isoDate(date: Date): string | null {
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * How an entry is named in a listing: its name (or full path), escaped for the terminal, with
 * a `/` after folders.
 *
 * @example
 * ```ts
 * import { entryName, styles } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * const folder = { name: "raw", path: "/iplant/home/shared/raw", type: "folder" } as const;
 * assert.equal(entryName(folder, styles(false)), "raw/");
 * ```
 */
export function entryName(
  entry: Pick<Entry, "name" | "path" | "type">,
  style: Styles,
  fullPath = false,
): string {
  const name = safeText(fullPath ? entry.path : entry.name);
  return entry.type === "folder" ? `${style.folder(name)}/` : name;
}

/**
 * Options of {@linkcode longLine}.
 *
 * @example
 * ```ts
 * import type { LongOptions } from "./format.ts";
 *
 * const exact: LongOptions = { bytes: true, fullPath: false };
 * ```
 */
export interface LongOptions {
  /** Exact byte counts instead of `13.5 kB`. */
  bytes: boolean;
  /** The full data-store path instead of the name. */
  fullPath: boolean;
}

/**
 * A file's type as the command line shows it: Terrain's `info-type` when it names one, else
 * the format the name's extension stands for in tern's registry (Terrain types CSV and TSV but
 * calls Parquet, JSON and Arrow files `unknown`), else `unknown`; `-` for a folder.
 *
 * @example
 * ```ts
 * import { fileType } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(fileType({ type: "file", name: "a.parquet", infoType: "unknown" }), "parquet");
 * assert.equal(fileType({ type: "file", name: "a.txt", infoType: "csv" }), "csv");
 * assert.equal(fileType({ type: "file", name: "a.xyz", infoType: "unknown" }), "unknown");
 * assert.equal(fileType({ type: "folder", name: "a", infoType: null }), "-");
 * ```
 */
export function fileType(entry: Pick<Entry, "type" | "name" | "infoType">): string {
  if (entry.type === "folder") return "-";
  const terrain = entry.infoType ?? "unknown";
  return terrain !== "unknown" ? terrain : formatOfFileName(entry.name)?.id ?? terrain;
}

/**
 * An entry as one `ls -l` line: kind (`d` or `-`), size, date modified (UTC), its
 * {@linkcode fileType}, name. Columns have fixed widths, so lines align across pages without buffering.
 *
 * @example
 * ```ts
 * import { longLine, styles } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * const line = longLine({
 *   id: "5fd7deff-dc59-52aa-86bf-4ccace6f7a31", path: "/iplant/home/shared/a.csv", name: "a.csv",
 *   type: "file", size: 13487, created: new Date(0), modified: new Date("2024-01-10T09:00:00Z"),
 *   infoType: "csv", permission: "read",
 * }, styles(false), { bytes: false, fullPath: false });
 * assert.equal(line, "-  13.5 kB  2024-01-10 09:00  csv       a.csv");
 * ```
 */
export function longLine(entry: Entry, style: Styles, options: LongOptions): string {
  const folder = entry.type === "folder";
  const size = folder ? "-" : options.bytes ? String(entry.size) : humanSize(entry.size);
  const width = options.bytes ? 13 : 8;
  const infoType = safeText(fileType(entry)).padEnd(8);
  return `${folder ? "d" : "-"} ${size.padStart(width)}  ${shortDate(entry.modified)}  ` +
    `${infoType}  ${entryName(entry, style, options.fullPath)}`;
}

/**
 * Aligned `key  value` lines for a record, skipping absent values: how `stat` and `meta` print.
 *
 * @example
 * ```ts
 * import { fields } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   fields([["path", "/iplant/home/shared"], ["size", undefined], ["type", "folder"]]),
 *   "path  /iplant/home/shared\ntype  folder",
 * );
 * ```
 */
export function fields(rows: readonly (readonly [string, string | undefined])[]): string {
  const present = rows.filter((row): row is readonly [string, string] => row[1] !== undefined);
  const width = Math.max(0, ...present.map(([key]) => key.length));
  // A value's later lines start where its first does.
  const indent = `\n${" ".repeat(width + 2)}`;
  return present.map(([key, value]) => `${key.padEnd(width)}  ${value.replaceAll("\n", indent)}`)
    .join("\n");
}

/**
 * `JSON.stringify` for one output line: BigInts (Polars' 64-bit integers) become numbers when
 * exact, else strings; dates become ISO strings; NaN and the infinities, which JSON has no number
 * for (`JSON.stringify` writes them as `null`, a missing value), become the strings `"NaN"`,
 * `"Infinity"` and `"-Infinity"`, as Protocol Buffers' JSON mapping writes them; characters that
 * would act on a terminal are `\u` escapes ({@linkcode visibleJson}).
 *
 * @example
 * ```ts
 * import { jsonLine } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   jsonLine({ n: 3n, big: 2n ** 64n, at: new Date(0) }),
 *   '{"n":3,"big":"18446744073709551616","at":"1970-01-01T00:00:00.000Z"}',
 * );
 * assert.equal(
 *   jsonLine({ x: [NaN, Infinity, -Infinity, null] }),
 *   '{"x":["NaN","Infinity","-Infinity",null]}',
 * );
 * ```
 */
export function jsonLine(value: unknown): string {
  return visibleJson(JSON.stringify(value, (_key, item) => {
    if (typeof item === "bigint") {
      return item <= BigInt(Number.MAX_SAFE_INTEGER) && item >= BigInt(Number.MIN_SAFE_INTEGER)
        ? Number(item)
        : item.toString();
    }
    if (typeof item === "number" && !Number.isFinite(item)) return String(item);
    return item;
  }));
}
