/**
 * Arbitrary values (table cells, opaque JSON from the service) as text, without ever throwing:
 * BigInts, cycles and huge nested objects all come out as bounded text.
 *
 * @module
 */

/**
 * A value as one short line: strings as they are, numbers and booleans as written, dates in
 * ISO form, `null` for nothing, anything else as compact JSON.
 *
 * @example
 * ```ts
 * import { cellText } from "./value.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(cellText("a"), "a");
 * assert.equal(cellText(1.5), "1.5");
 * assert.equal(cellText(null), "null");
 * assert.equal(cellText(10n), "10");
 * assert.equal(cellText([1, "b"]), '[1,"b"]');
 * ```
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  }
  return jsonText(value, 0);
}

/**
 * A value as JSON text, indented by `indent` spaces (0: one line), at most `max` characters
 * (cut with `…`). A value that contains itself shows `"[cycle]"` there; BigInts become their
 * digits; nesting deeper than 40 levels shows `"[…]"`.
 *
 * @example
 * ```ts
 * import { jsonText } from "./value.ts";
 * import assert from "node:assert/strict";
 *
 * const cyclic: Record<string, unknown> = { a: 1 };
 * cyclic.self = cyclic;
 * assert.equal(jsonText(cyclic, 0), '{"a":1,"self":"[cycle]"}');
 * ```
 */
export function jsonText(value: unknown, indent = 2, max = 200_000): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(plain(value, [], 0), null, indent === 0 ? undefined : indent);
  } catch (error) {
    text = `[not JSON: ${(error as Error).message}]`;
  }
  text ??= String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A JSON-safe copy: cycles (an object inside itself) and deep nesting replaced by markers. */
function plain(value: unknown, ancestors: object[], depth: number): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Date) return cellText(value);
  if (ancestors.includes(value)) return "[cycle]";
  if (depth >= 40) return "[…]";
  const inner = [...ancestors, value];
  if (Array.isArray(value)) return value.map((item) => plain(item, inner, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = plain(item, inner, depth + 1);
  return copy;
}
