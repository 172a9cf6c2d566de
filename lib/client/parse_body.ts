/**
 * The check of a Terrain answer against its schema, with the error that names what was wrong and
 * where: apart from the schemas themselves, so that an answer checks without loading them all.
 *
 * @module
 */

import type { z as Z } from "../deps.ts";
import { valueAt } from "./value_at.ts";
import { ProtocolError, truncate } from "./errors.ts";

/**
 * Where a body came from, for {@linkcode parseBody}'s error messages.
 *
 * @example
 * ```ts
 * import type { BodyContext } from "./parse_body.ts";
 *
 * const context: BodyContext = { endpoint: "filesystem/paged-directory", subject: "/iplant/home/shared" };
 * ```
 */
export interface BodyContext {
  /** Endpoint name, for example `filesystem/root`. */
  endpoint: string;
  /** Path or id the request concerned. */
  subject?: string;
  /** Leave received values out of messages (for bodies that carry secrets). */
  redactValues?: boolean;
}

/**
 * Checks `body` against `schema` and returns the parsed value, or throws a
 * {@linkcode ProtocolError} naming the endpoint, the first bad field's path and what arrived.
 *
 * @example
 * ```ts
 * import { parseBody } from "./parse_body.ts";
 * import { Manifest } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const body = { "content-type": 7, infoType: "csv", urls: [] };
 * assert.throws(() => parseBody(Manifest, body, { endpoint: "filesystem/file/manifest" }), {
 *   message: "filesystem/file/manifest answered an unexpected body: " +
 *     'at "content-type": expected string, got 7.',
 * });
 * ```
 */
export function parseBody<T>(
  schema: Z.ZodType<T, unknown>,
  body: unknown,
  context: BodyContext,
): T {
  const about = context.subject === undefined ? "" : ` for ${JSON.stringify(context.subject)}`;
  let result: Z.ZodSafeParseResult<T>;
  try {
    result = schema.safeParse(body);
  } catch (error) {
    // The check recurses with the body: one nested deeper than the stack (AVUs of AVUs a
    // thousand deep, from a hostile server) overflows it.
    if (!(error instanceof RangeError)) throw error;
    throw new ProtocolError(
      `${context.endpoint} answered a body nested too deeply to check${about}.`,
      { endpoint: context.endpoint, path: context.subject },
    );
  }
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const fieldPath = formatPath(issue.path);
  const received = context.redactValues ? "[redacted]" : describe(valueAt(body, issue.path));
  const others = result.error.issues.length - 1;
  const message = `${context.endpoint} answered an unexpected body${about}: ` +
    `at ${JSON.stringify(fieldPath)}: ${expectation(issue)}, got ${received}` +
    (others > 0 ? ` (and ${others} more problem${others > 1 ? "s" : ""})` : "") + ".";
  throw new ProtocolError(message, { endpoint: context.endpoint, path: context.subject });
}

function expectation(issue: Z.core.$ZodIssue): string {
  if (issue.code === "invalid_type") return `expected ${issue.expected}`;
  if (issue.code === "invalid_value") {
    return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return issue.message.replace(/^Invalid input: /, "").toLowerCase();
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(the whole body)";
  return path.map((key, index) =>
    typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`
  ).join("");
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing (the field is missing)";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return truncate(text, 80);
}
