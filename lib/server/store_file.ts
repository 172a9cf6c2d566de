/**
 * Reading the store's own JSON files (users, sidecars, saved searches) with a schema, turning
 * every problem into a {@link StoreFileError} that names the file by its store-relative path
 * (never the absolute disk path) and the offending field.
 *
 * @module
 */

import type { z as Z } from "../deps.ts";

/**
 * A store file that is missing a field, has a wrong type, or is not JSON at all.
 *
 * @example
 * ```ts
 * import { StoreFileError } from "./store_file.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new StoreFileError(".terrain/users.json", "users[0].username: required");
 * assert.equal(error.message, "malformed .terrain/users.json: users[0].username: required");
 * ```
 */
export class StoreFileError extends Error {
  /**
   * Creates the error for `file` (as users should see it named) and its `problem`.
   *
   * @example
   * ```ts
   * import { StoreFileError } from "./store_file.ts";
   * import assert from "node:assert/strict";
   * const error = new StoreFileError("/iplant/home/shared/.avus.json", "not JSON");
   * assert.match(error.message, /\/iplant\/home\/shared\/\.avus\.json.*not JSON/);
   * ```
   */
  constructor(
    /** The file, relative to the store (or as a data-store path for sidecars). */
    readonly file: string,
    /** What is wrong with it. */
    readonly problem: string,
  ) {
    super(`malformed ${file}: ${problem}`);
    this.name = "StoreFileError";
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : `${out === "" ? "" : "."}${String(key)}`;
  }
  return out === "" ? "(top level)" : out;
}

/**
 * One line describing the first few schema problems, each prefixed by where it is.
 *
 * @example
 * ```ts
 * import { describeIssues } from "./store_file.ts";
 * import assert from "node:assert/strict";
 *
 * const text = describeIssues([{ path: ["users", 0, "password"], message: "Required" }]);
 * assert.equal(text, "users[0].password: Required");
 * ```
 */
export function describeIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  const shown = issues.slice(0, 3).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : "";
  return shown.join("; ") + more;
}

/**
 * Says where JSON text is broken without quoting it: V8's messages can include a snippet of
 * the input, and a store file may hold passwords.
 */
function describeJsonError(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const where = /line (\d+) column (\d+)/.exec(message);
  if (where) return `not valid JSON (syntax error at line ${where[1]}, column ${where[2]})`;
  if (/Unexpected end of JSON input/.test(message)) return "not valid JSON (it ends too early)";
  if (!(error instanceof SyntaxError)) return "not valid UTF-8";
  return "not valid JSON (syntax error)";
}

/**
 * Parses UTF-8 JSON text, throwing a {@link StoreFileError} that never quotes the content.
 *
 * @example
 * ```ts
 * import { parseJsonBytes } from "./store_file.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseJsonBytes(new TextEncoder().encode("{}"), "x.json"), {});
 * assert.throws(() => parseJsonBytes(new TextEncoder().encode("[ oops"), "x.json"), {
 *   message: "malformed x.json: not valid JSON (syntax error)",
 * });
 * ```
 */
export function parseJsonBytes(bytes: Uint8Array, displayName: string): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new StoreFileError(displayName, describeJsonError(error));
  }
}

/**
 * Validates an already-parsed value with `schema`.
 *
 * @throws {StoreFileError} naming `displayName` and the bad field.
 *
 * @example
 * ```ts
 * import { checkStoreValue } from "./store_file.ts";
 * import { loadZodModule } from "../deps.ts";
 *
 * const { z } = await loadZodModule();
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(checkStoreValue([1], z.array(z.number()), "x.json"), [1]);
 * ```
 */
export function checkStoreValue<T>(
  value: unknown,
  schema: Z.ZodType<T>,
  displayName: string,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new StoreFileError(displayName, describeIssues(result.error.issues));
  return result.data;
}

/**
 * Parses `bytes` as UTF-8 JSON and validates it with `schema`.
 *
 * @throws {StoreFileError} naming `displayName` when the bytes are not JSON or do not fit.
 *
 * @example
 * ```ts
 * import { parseStoreJson } from "./store_file.ts";
 * import { loadZodModule } from "../deps.ts";
 *
 * const { z } = await loadZodModule();
 * import assert from "node:assert/strict";
 *
 * const value = parseStoreJson(new TextEncoder().encode("[1]"), z.array(z.number()), "x.json");
 * assert.deepEqual(value, [1]);
 * ```
 */
export function parseStoreJson<T>(
  bytes: Uint8Array,
  schema: Z.ZodType<T>,
  displayName: string,
): T {
  return checkStoreValue(parseJsonBytes(bytes, displayName), schema, displayName);
}

/**
 * What `reading` gives, or `undefined` when the file is not there (any other failure throws).
 *
 * @example
 * ```ts
 * import { ifPresent } from "./store_file.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await ifPresent(Deno.readTextFile("/no/such/file")), undefined);
 * ```
 */
export async function ifPresent<T>(reading: Promise<T>): Promise<T | undefined> {
  try {
    return await reading;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
