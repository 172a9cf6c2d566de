/**
 * Data-store paths and ids as handles accept them: absolute paths are normalised, item ids
 * (UUIDs) are recognised, and anything else is refused with a clear error before any request.
 *
 * @module
 */

import { BadRequestError, quoteInput } from "../client/errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a handle was given: a normalised absolute path, or an item id.
 *
 * @example
 * ```ts
 * import { parseRef, type Ref } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * const ref: Ref = parseRef("/iplant/home/shared/");
 * assert.deepEqual(ref, { path: "/iplant/home/shared" });
 * ```
 */
export type Ref = { path: string; id?: undefined } | { id: string; path?: undefined };

/**
 * Whether `value` is an item id (a UUID such as `0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804`).
 *
 * @example
 * ```ts
 * import { isId } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isId("0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804"));
 * assert.equal(isId("/iplant/home"), false);
 * ```
 */
export function isId(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/**
 * Reads a path-or-id argument: a UUID is an id (lower-cased); anything else must be an absolute
 * data-store path, which is normalised by {@linkcode normalizePath}.
 *
 * @param what Names the argument in errors, e.g. `store.folder()`.
 * @throws {BadRequestError} for a relative path, `.`/`..` segments, NUL bytes or a non-string.
 *
 * @example
 * ```ts
 * import { parseRef } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   parseRef("0B8E4F52-7A31-11E5-8F2A-3C4A92E4A804"),
 *   { id: "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804" },
 * );
 * assert.deepEqual(parseRef("//iplant/home//shared/"), { path: "/iplant/home/shared" });
 * ```
 */
export function parseRef(value: unknown, what = "A path"): Ref {
  if (isId(value)) return { id: value.toLowerCase() };
  return { path: normalizePath(value, what) };
}

/**
 * Normalises an absolute data-store path: repeated slashes become one and trailing slashes go.
 * Nothing else is rewritten; in particular `.` and `..` are refused rather than resolved, since
 * a path that climbs is almost always a mistake.
 *
 * @param what Names the argument in errors.
 * @throws {BadRequestError} for anything but an absolute path without `.`/`..` segments or NUL.
 *
 * @example
 * ```ts
 * import { normalizePath } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizePath("/iplant/home/shared/"), "/iplant/home/shared");
 * ```
 */
export function normalizePath(value: unknown, what = "A path"): string {
  if (typeof value !== "string") {
    throw new BadRequestError(
      `${what} must be a data-store path such as "/iplant/home/shared" or an item id, ` +
        `got ${value === null ? "null" : typeof value}.`,
    );
  }
  if (!value.startsWith("/")) {
    throw new BadRequestError(
      `${what} must be an absolute data-store path such as "/iplant/home/shared/data.csv" or an ` +
        `item id (UUID), got ${quoteInput(value)}: relative paths are not supported.`,
      { path: value },
    );
  }
  return `/${joinedSegments(value, what)}`;
}

/**
 * Checks and normalises a path relative to a folder (`data.csv`, `raw/2019/a.tif`).
 *
 * @throws {BadRequestError} for an empty or absolute path, `.`/`..` segments or NUL.
 *
 * @example
 * ```ts
 * import { normalizeRelative } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizeRelative("raw//2019/"), "raw/2019");
 * ```
 */
export function normalizeRelative(value: unknown, what = "A name"): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new BadRequestError(
      `${what} must be a non-empty name such as "data.csv" or "raw/2019", got ${
        typeof value === "string" ? quoteInput(value) : String(value)
      }.`,
    );
  }
  if (value.startsWith("/")) {
    throw new BadRequestError(
      `${what} is relative to the folder, so it cannot start with "/": got ` +
        `${quoteInput(value)}. Use store.folder() or store.file() for absolute paths.`,
      { path: value },
    );
  }
  return joinedSegments(value, what);
}

/**
 * Joins a folder path and a relative path.
 *
 * @example
 * ```ts
 * import { joinPath } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(joinPath("/iplant/home/shared", "a.csv"), "/iplant/home/shared/a.csv");
 * assert.equal(joinPath("/", "iplant"), "/iplant");
 * ```
 */
export function joinPath(folder: string, relative: string): string {
  return folder === "/" ? `/${relative}` : `${folder}/${relative}`;
}

/**
 * The folder holding `path` (`/` for top-level items).
 *
 * @example
 * ```ts
 * import { parentPath } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parentPath("/iplant/home/shared/a.csv"), "/iplant/home/shared");
 * ```
 */
export function parentPath(path: string): string {
  const index = path.lastIndexOf("/");
  return index <= 0 ? "/" : path.slice(0, index);
}

/**
 * The last segment of `path` (`/` for the root).
 *
 * @example
 * ```ts
 * import { baseName } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(baseName("/iplant/home/shared/a.csv"), "a.csv");
 * ```
 */
export function baseName(path: string): string {
  return path === "/" ? "/" : path.slice(path.lastIndexOf("/") + 1);
}

/**
 * Whether a data-store name can be a file's name in a local folder on any system: one plain
 * segment under POSIX and Windows rules alike. Not empty, `.` or `..`; no `/`, `\` or NUL; no
 * drive letter in front (`C:evil.csv` names a place on drive C for Windows, outside any folder).
 * A server may list anything, a lock or crate may come from anyone, and a notebook saved on
 * Linux is run on Windows.
 *
 * @example
 * ```ts
 * import { isSafeLocalName } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isSafeLocalName("données 10:30.csv"));
 * assert.ok(!isSafeLocalName(".."));
 * assert.ok(!isSafeLocalName("..\\..\\evil.csv"));
 * assert.ok(!isSafeLocalName("C:evil.csv"));
 * ```
 */
export function isSafeLocalName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !/[/\\\0]|^[A-Za-z]:/.test(name);
}

/** The path's non-empty segments joined by "/", once it holds no NUL and no "." or "..". */
function joinedSegments(value: string, what: string): string {
  const segments = value.split("/").filter((segment) => segment !== "");
  if (value.includes("\0")) {
    throw new BadRequestError(`${what} must not contain NUL characters.`, { path: value });
  }
  if (segments.some((segment) => segment === "." || segment === "..")) {
    throw new BadRequestError(
      `${what} must not contain "." or ".." segments, got ${quoteInput(value)}; ` +
        "write the path out in full.",
      { path: value },
    );
  }
  return segments.join("/");
}
