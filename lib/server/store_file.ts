/**
 * Reading the store's own JSON files (users, sidecars, saved searches) with a schema, turning
 * every problem into a {@link StoreFileError} that names the file by its store-relative path
 * (never the absolute disk path) and the offending field.
 *
 * @module
 */

import type { z } from "zod";

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
  /** The file, relative to the store (or as a data-store path for sidecars). */
  readonly file: string;
  /** What is wrong with it. */
  readonly problem: string;

  /**
   * @example
   * ```ts
   * import { StoreFileError } from "./store_file.ts";
   * const error = new StoreFileError("/iplant/home/shared/.avus.json", "not JSON");
   * ```
   */
  constructor(file: string, problem: string) {
    super(`malformed ${file}: ${problem}`);
    this.name = "StoreFileError";
    this.file = file;
    this.problem = problem;
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
 * Parses `bytes` as UTF-8 JSON and validates it with `schema`.
 *
 * @throws {StoreFileError} naming `displayName` when the bytes are not JSON or do not fit.
 *
 * @example
 * ```ts
 * import { parseStoreJson } from "./store_file.ts";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const value = parseStoreJson(new TextEncoder().encode("[1]"), z.array(z.number()), "x.json");
 * assert.deepEqual(value, [1]);
 * ```
 */
export function parseStoreJson<S extends z.ZodType>(
  bytes: Uint8Array,
  schema: S,
  displayName: string,
): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    const why = error instanceof SyntaxError ? error.message : "not valid UTF-8";
    throw new StoreFileError(displayName, `not valid JSON (${why})`);
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new StoreFileError(displayName, describeIssues(result.error.issues));
  return result.data;
}
