/**
 * Numbers, sizes, dates and durations as people read them, identically in HTML and plain text,
 * and independent of the machine's locale and time zone (dates are UTC), so that a notebook
 * shows the same on every machine.
 *
 * @module
 */

import { visibleText } from "../registry/visible_text.ts";

const UNITS = ["B", "kB", "MB", "GB", "TB", "PB"] as const;

/**
 * A byte count in SI units (`1.2 MB`, `980 B`), three significant digits.
 *
 * @example
 * ```ts
 * import { formatBytes } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatBytes(0), "0 B");
 * assert.equal(formatBytes(1234), "1.23 kB");
 * assert.equal(formatBytes(3_456_789_012), "3.46 GB");
 * ```
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/**
 * An integer with thousands separators (`20,000`), the same on every machine.
 *
 * @example
 * ```ts
 * import { formatCount } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatCount(20000), "20,000");
 * ```
 */
export function formatCount(count: number): string {
  return Number.isFinite(count) ? Math.round(count).toLocaleString("en-US") : "—";
}

/**
 * `1 file`, `2 files`: a count and its noun, pluralised with `s` or the given plural.
 *
 * @example
 * ```ts
 * import { plural } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(plural(1, "entry", "entries"), "1 entry");
 * assert.equal(plural(20000, "file"), "20,000 files");
 * ```
 */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : nouns}`;
}

/**
 * A date and time in UTC to the minute (`2024-03-05 14:22`); `—` for no date or an invalid one.
 *
 * @example
 * ```ts
 * import { formatDateTime } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatDateTime(new Date(Date.UTC(2024, 2, 5, 14, 22, 9))), "2024-03-05 14:22");
 * ```
 */
export function formatDateTime(date: Date | undefined | null): string {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) return "—";
  return date.toISOString().slice(0, 16).replace("T", " ");
}

/**
 * A date in UTC (`2024-03-05`); `—` for no date or an invalid one.
 *
 * @example
 * ```ts
 * import { formatDate } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatDate(new Date(Date.UTC(2019, 5, 1))), "2019-06-01");
 * ```
 */
export function formatDate(date: Date | undefined | null): string {
  return formatDateTime(date).slice(0, 10);
}

/**
 * A duration, short: `850 ms`, `4.2 s`, `3 min 05 s`, `2 h 04 min`.
 *
 * @example
 * ```ts
 * import { formatDuration } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatDuration(850), "850 ms");
 * assert.equal(formatDuration(4200), "4.2 s");
 * assert.equal(formatDuration(185_000), "3 min 05 s");
 * ```
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  if (whole < 3600) {
    return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`;
  }
  const minutes = Math.round(whole / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/**
 * A transfer rate (`12.4 MB/s`).
 *
 * @example
 * ```ts
 * import { formatRate } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatRate(12_400_000), "12.4 MB/s");
 * ```
 */
export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/**
 * Text cut to at most `max` characters (counted in code points, so an emoji is never split),
 * with how much was cut: `{ text: "abc…", cut: 12 }`.
 *
 * @example
 * ```ts
 * import { clip } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(clip("abcdefgh", 4), { text: "abc…", cut: 5 });
 * assert.deepEqual(clip("short", 10), { text: "short", cut: 0 });
 * ```
 */
export function clip(text: string, max: number): { text: string; cut: number } {
  const points = Array.from(text);
  if (points.length <= max) return { text, cut: 0 };
  const kept = Math.max(0, max - 1);
  return { text: `${points.slice(0, kept).join("")}…`, cut: points.length - kept };
}

/**
 * A cell's text cut to at most `max` characters: a URL or a path (one word holding `/` or `\\`)
 * loses its middle, so both the host or root and the file name stay readable; other text is cut
 * at its end ({@linkcode clip}).
 *
 * @example
 * ```ts
 * import { clipCell } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * const url = "https://data.cyverse.org/dav-anon/iplant/home/shared/flights/flights_3m.parquet";
 * assert.equal(clipCell(url, 40).text, "https://data.cyvers…s/flights_3m.parquet");
 * assert.equal(clipCell("a long phrase of words", 10).text, "a long ph…");
 * ```
 */
export function clipCell(text: string, max: number): { text: string; cut: number } {
  const clipped = clip(text, max);
  if (clipped.cut === 0 || !isLocation(text)) return clipped;
  const points = Array.from(text);
  // The end (a file name) usually says more than the middle of a host or a root.
  const head = Math.floor((points.length - clipped.cut) / 2);
  const tail = points.length - clipped.cut - head;
  const end = tail > 0 ? points.slice(-tail).join("") : "";
  return { text: `${points.slice(0, head).join("")}…${end}`, cut: clipped.cut };
}

/**
 * One word holding a slash or backslash: a URL, a data-store path, a local path. Two tests, not
 * one `^\S*[/\\]\S*$`, whose backtracking is quadratic in a long word of slashes.
 */
function isLocation(text: string): boolean {
  return !/\s/.test(text) && /[/\\]/.test(text);
}

export { visibleText };

/**
 * Text made safe for one line of plain output: line breaks become `↵`, tabs spaces, and every
 * other invisible or control character a visible escape ({@linkcode visibleText}).
 *
 * @example
 * ```ts
 * import { oneLine } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(oneLine("a\nb\u001b[31mc"), "a↵b\\x1b[31mc");
 * ```
 */
export function oneLine(text: string): string {
  return visibleText(text.replace(/\r\n|\r|\n|\u2028|\u2029/g, "↵").replace(/\t/g, " "));
}

/**
 * Text made safe for multi-line plain output: like {@linkcode oneLine} but keeping line breaks.
 *
 * @example
 * ```ts
 * import { plainText } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(plainText("line 1\nline\u001b2"), "line 1\nline\\x1b2");
 * ```
 */
export function plainText(text: string): string {
  return text.replace(/\r\n|\r|\u2028|\u2029/g, "\n").split("\n").map(oneLine).join("\n");
}

/**
 * Text whose layout is its content (a BibTeX or RIS citation) made safe for plain output: line
 * breaks and tabs are kept as they are, every other invisible or control character becomes a
 * visible escape ({@linkcode visibleText}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { layoutText } from "./format.ts";
 *
 * assert.equal(layoutText("@misc{x,\n\ttitle = {\u202Eabc}\n}"), "@misc{x,\n\ttitle = {\\u{202e}abc}\n}");
 * ```
 */
export function layoutText(text: string): string {
  return text.split(/(\r?\n|\t)/).map((part, index) => index % 2 === 1 ? part : visibleText(part))
    .join("");
}
