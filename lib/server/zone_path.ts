/**
 * Data-store paths (`/iplant/home/...`) and their place on disk. Every request path goes
 * through {@link parseZonePath} before it touches the file system; it is the first of the two
 * guards that keep requests inside the store (the second is the real-path containment check in
 * the store).
 *
 * @module
 */

/**
 * True for the names of sidecar files (`.avus.json`, `.x.avus.json`, `.comments.json`,
 * `.x.comments.json`), which carry metadata and are never listed, counted or served.
 *
 * @example
 * ```ts
 * import { isSidecarName } from "./zone_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isSidecarName(".data.csv.avus.json"));
 * assert.ok(isSidecarName(".comments.json"));
 * assert.ok(!isSidecarName(".bashrc"));
 * ```
 */
export function isSidecarName(name: string): boolean {
  return /^\.(?:.*\.)?(?:avus|comments)\.json$/s.test(name);
}

const IS_WINDOWS = Deno.build.os === "windows";

/**
 * True when a single path segment (a file or folder name) can be served safely: not empty,
 * not `.`/`..`, free of separators, NUL and backslash, not a lossy decoding of a name that is
 * not UTF-8 (U+FFFD), and not a sidecar.
 *
 * @example
 * ```ts
 * import { isServableName } from "./zone_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isServableName("data.csv"));
 * assert.ok(!isServableName(".."));
 * assert.ok(!isServableName("..\\..\\etc"));
 * ```
 */
export function isServableName(name: string): boolean {
  if (name === "" || name === "." || name === "..") return false;
  for (const forbidden of ["/", "\\", "\0", "\uFFFD"]) {
    if (name.includes(forbidden)) return false;
  }
  // On Windows ":" opens alternate data streams and device names alias; refuse both forms.
  if (IS_WINDOWS && /[:<>|?*"]|[. ]$/.test(name)) return false;
  return !isSidecarName(name);
}

/**
 * Splits a data-store path into its segments, or returns `undefined` when the path cannot name
 * an item of `zone`: not absolute, in another zone, containing `.`/`..`, backslashes, NUL bytes
 * or sidecar names. Empty segments (doubled or trailing slashes) are dropped, as iRODS does.
 * The result is never decoded again, so percent-encoded or double-encoded input stays literal.
 *
 * @example
 * ```ts
 * import { parseZonePath } from "./zone_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseZonePath("/iplant/home/shared/", "iplant"), ["iplant", "home", "shared"]);
 * assert.equal(parseZonePath("/iplant/home/../../etc", "iplant"), undefined);
 * assert.equal(parseZonePath("/etc/passwd", "iplant"), undefined);
 * ```
 */
export function parseZonePath(raw: string, zone: string): string[] | undefined {
  if (!raw.startsWith("/")) return undefined;
  const segments = raw.split("/").filter((segment) => segment !== "");
  if (segments.length === 0 || segments[0] !== zone) return undefined;
  return segments.every(isServableName) ? segments : undefined;
}

/**
 * Joins segments back into a data-store path.
 *
 * @example
 * ```ts
 * import { formatZonePath } from "./zone_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatZonePath(["iplant", "home"]), "/iplant/home");
 * ```
 */
export function formatZonePath(segments: readonly string[]): string {
  return `/${segments.join("/")}`;
}

/**
 * The last segment of a data-store path (its label in listings).
 *
 * @example
 * ```ts
 * import { baseName } from "./zone_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(baseName("/iplant/home/shared/a.csv"), "a.csv");
 * ```
 */
export function baseName(zonePath: string): string {
  return zonePath.slice(zonePath.lastIndexOf("/") + 1);
}

/**
 * The parent of a data-store path (`/iplant` for `/iplant/home`).
 *
 * @example
 * ```ts
 * import { parentPath } from "./zone_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parentPath("/iplant/home/shared"), "/iplant/home");
 * ```
 */
export function parentPath(zonePath: string): string {
  const cut = zonePath.lastIndexOf("/");
  return cut <= 0 ? "/" : zonePath.slice(0, cut);
}

/**
 * Maps between data-store paths and absolute paths under the folder on disk that serves them:
 * the zone folder (`ROOT/<zone>` served as `/<zone>`), or a plain folder served as a path
 * deeper down (`/iplant/home/shared`). Built from the folder's real path, so containment
 * checks compare like with like.
 *
 * @example
 * ```ts
 * import { DiskLayout } from "./zone_path.ts";
 * import assert from "node:assert/strict";
 *
 * const layout = new DiskLayout("/srv/store/iplant", "/iplant");
 * assert.equal(layout.toDisk(["iplant", "home", "x.csv"]), "/srv/store/iplant/home/x.csv");
 * assert.equal(layout.toZonePath("/srv/store/iplant/home"), "/iplant/home");
 * assert.equal(layout.toZonePath("/etc/passwd"), undefined);
 * const plain = new DiskLayout("/data/flat", "/iplant/home/shared");
 * assert.equal(plain.toDisk(["iplant", "home", "shared", "a.csv"]), "/data/flat/a.csv");
 * assert.equal(plain.toDisk(["iplant", "home"]), undefined); // above the folder: not on disk
 * ```
 */
export class DiskLayout {
  readonly #dir: string;
  readonly #base: readonly string[];
  readonly #separator: string;

  /**
   * Creates a layout for the folder at `dir`, served as the data-store path `base`.
   *
   * @param dir the real (symlink-free) absolute path of the folder.
   * @param base the data-store path it is served as (`/<zone>` for a store's zone folder).
   *
   * @example
   * ```ts
   * import { DiskLayout } from "./zone_path.ts";
   * import assert from "node:assert/strict";
   * const layout = new DiskLayout("/srv/store/iplant/", "/iplant"); // a trailing separator is dropped
   * assert.equal(layout.toDisk(["iplant", "home", "shared"]), "/srv/store/iplant/home/shared");
   * ```
   */
  constructor(dir: string, base: string) {
    this.#separator = IS_WINDOWS ? "\\" : "/";
    this.#dir = dir.endsWith(this.#separator) ? dir.slice(0, -1) : dir;
    this.#base = base.split("/").filter((segment) => segment !== "");
  }

  /**
   * The absolute disk path for already-validated segments (from {@link parseZonePath}), or
   * `undefined` when they name no place at or under the folder.
   *
   * @example
   * ```ts
   * import { DiskLayout } from "./zone_path.ts";
   * import assert from "node:assert/strict";
   *
   * const layout = new DiskLayout("/srv/store/iplant", "/iplant");
   * assert.equal(layout.toDisk(["iplant"]), "/srv/store/iplant");
   * assert.equal(layout.toDisk(["other", "x"]), undefined);
   * ```
   */
  toDisk(segments: readonly string[]): string | undefined {
    if (segments.length < this.#base.length) return undefined;
    if (this.#base.some((segment, i) => segments[i] !== segment)) return undefined;
    return [this.#dir, ...segments.slice(this.#base.length)].join(this.#separator);
  }

  /**
   * The data-store path of a real disk path, or `undefined` when it lies outside the folder
   * (a symlink pointing elsewhere).
   *
   * @example
   * ```ts
   * import { DiskLayout } from "./zone_path.ts";
   * import assert from "node:assert/strict";
   *
   * const layout = new DiskLayout("/srv/store/iplant", "/iplant");
   * assert.equal(layout.toZonePath("/srv/store/iplantX/a"), undefined);
   * ```
   */
  toZonePath(realPath: string): string | undefined {
    if (realPath === this.#dir) return formatZonePath(this.#base);
    if (!realPath.startsWith(this.#dir + this.#separator)) return undefined;
    const rest = realPath.slice(this.#dir.length + 1).split(this.#separator);
    if (!rest.every(isServableName)) return undefined;
    return formatZonePath([...this.#base, ...rest]);
  }
}
