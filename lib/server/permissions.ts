/**
 * Who may read what, and the per-caller presentation of folders (labels, `badName`). The rules
 * mirror the data store's default ACLs: users own their home and trash, the community folder is
 * readable by everyone, other homes are private.
 *
 * @module
 */

import { baseName } from "./zone_path.ts";

/**
 * The iRODS user name requests without credentials run as.
 *
 * @example
 * ```ts
 * import { ANONYMOUS } from "./permissions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(ANONYMOUS, "anonymous");
 * ```
 */
export const ANONYMOUS = "anonymous";

/**
 * A permission level as Terrain reports it, or `"none"` for items the caller cannot see.
 *
 * @example
 * ```ts
 * import type { Permission } from "./permissions.ts";
 * const level: Permission = "read";
 * ```
 */
export type Permission = "own" | "write" | "read" | "none";

const RANK: Record<Permission, number> = { none: 0, read: 1, write: 2, own: 3 };

/**
 * The weaker of two permissions (used when a symlink crosses from one area into another).
 *
 * @example
 * ```ts
 * import { weakest } from "./permissions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(weakest("own", "read"), "read");
 * ```
 */
export function weakest(a: Permission, b: Permission): Permission {
  return RANK[a] <= RANK[b] ? a : b;
}

/**
 * The well-known paths of a zone.
 *
 * @example
 * ```ts
 * import { ZonePaths } from "./permissions.ts";
 * import assert from "node:assert/strict";
 *
 * const paths = new ZonePaths("iplant");
 * assert.equal(paths.home("demo"), "/iplant/home/demo");
 * assert.equal(paths.trash("demo"), "/iplant/trash/home/de-irods/demo");
 * ```
 */
export class ZonePaths {
  /** `/<zone>`. */
  readonly zoneRoot: string;
  /** `/<zone>/home`, the "Shared With Me" root. */
  readonly homeRoot: string;
  /** `/<zone>/home/shared`, the community data root. */
  readonly community: string;
  /** `/<zone>/trash/home/de-irods`, the parent of every user's trash. */
  readonly trashBase: string;

  /**
   * Computes the well-known paths of `zone`.
   *
   * @example
   * ```ts
   * import { ZonePaths } from "./permissions.ts";
   * import assert from "node:assert/strict";
   * const paths = new ZonePaths("iplant");
   * assert.equal(paths.home("demo"), "/iplant/home/demo");
   * assert.equal(paths.community, "/iplant/home/shared");
   * ```
   */
  constructor(readonly zone: string) {
    this.zoneRoot = `/${zone}`;
    this.homeRoot = `/${zone}/home`;
    this.community = `/${zone}/home/shared`;
    this.trashBase = `/${zone}/trash/home/de-irods`;
  }

  /**
   * A user's home folder.
   *
   * @example
   * ```ts
   * import { ZonePaths } from "./permissions.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new ZonePaths("z").home("ann"), "/z/home/ann");
   * ```
   */
  home(user: string): string {
    return `${this.homeRoot}/${user}`;
  }

  /**
   * A user's trash folder.
   *
   * @example
   * ```ts
   * import { ZonePaths } from "./permissions.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new ZonePaths("z").trash("ann"), "/z/trash/home/de-irods/ann");
   * ```
   */
  trash(user: string): string {
    return `${this.trashBase}/${user}`;
  }
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/**
 * What `user` may do with the item at `zonePath` (already validated). The zone root and
 * `/<zone>/home` are readable by all so that their readable children can be listed.
 *
 * @example
 * ```ts
 * import { permissionFor, ZonePaths } from "./permissions.ts";
 * import assert from "node:assert/strict";
 *
 * const paths = new ZonePaths("iplant");
 * assert.equal(permissionFor(paths, "demo", "/iplant/home/demo/x.csv"), "own");
 * assert.equal(permissionFor(paths, "anonymous", "/iplant/home/shared/x.csv"), "read");
 * assert.equal(permissionFor(paths, "demo", "/iplant/home/alice"), "none");
 * ```
 */
export function permissionFor(paths: ZonePaths, user: string, zonePath: string): Permission {
  if (zonePath === paths.zoneRoot || zonePath === paths.homeRoot) return "read";
  if (within(zonePath, paths.community)) return "read";
  if (user === ANONYMOUS) return "none";
  if (within(zonePath, paths.home(user)) || within(zonePath, paths.trash(user))) return "own";
  return "none";
}

/**
 * True when every child of `folder` has the folder's own permission, so a listing need not
 * check them one by one (everything below a home, a trash folder or the community root).
 *
 * @example
 * ```ts
 * import { childrenInherit, ZonePaths } from "./permissions.ts";
 * import assert from "node:assert/strict";
 *
 * const paths = new ZonePaths("iplant");
 * assert.ok(childrenInherit(paths, "/iplant/home/shared/data"));
 * assert.ok(!childrenInherit(paths, "/iplant/home"));
 * ```
 */
export function childrenInherit(paths: ZonePaths, folder: string): boolean {
  // The community root is a folder of the home root too.
  return folder.startsWith(`${paths.homeRoot}/`) || folder.startsWith(`${paths.trashBase}/`);
}

/**
 * The label Terrain shows for a folder: the special names of the roots ("Community Data",
 * "Shared With Me", "Trash"), else the base name. Anonymous callers get base names except for
 * the community root.
 *
 * @example
 * ```ts
 * import { folderLabel, ZonePaths } from "./permissions.ts";
 * import assert from "node:assert/strict";
 *
 * const paths = new ZonePaths("iplant");
 * assert.equal(folderLabel(paths, "demo", "/iplant/home/shared"), "Community Data");
 * assert.equal(folderLabel(paths, "demo", "/iplant/trash/home/de-irods/demo"), "Trash");
 * assert.equal(folderLabel(paths, "demo", "/iplant/home/demo/data"), "data");
 * ```
 */
export function folderLabel(paths: ZonePaths, user: string, zonePath: string): string {
  if (zonePath === paths.community) return "Community Data";
  if (user !== ANONYMOUS) {
    if (zonePath === paths.homeRoot) return "Shared With Me";
    if (zonePath === paths.trash(user)) return "Trash";
  }
  return baseName(zonePath);
}

/** Names the Discovery Environment refuses to treat as ordinary folders. */
const BAD_NAMES: ReadonlySet<string> = new Set(["cacheServiceTempDir"]);

/**
 * Terrain's `badName` flag: the item is one of the protected roots (community data, the
 * caller's home, `/<zone>/home/public`), a reserved name, or its name holds a backtick,
 * apostrophe, newline or tab.
 *
 * @example
 * ```ts
 * import { isBadName, ZonePaths } from "./permissions.ts";
 * import assert from "node:assert/strict";
 *
 * const paths = new ZonePaths("iplant");
 * assert.ok(isBadName(paths, "demo", "/iplant/home/demo"));
 * assert.ok(isBadName(paths, "demo", "/iplant/home/demo/it's.csv"));
 * assert.ok(!isBadName(paths, "demo", "/iplant/home/demo/data.csv"));
 * ```
 */
export function isBadName(paths: ZonePaths, user: string, zonePath: string): boolean {
  if (
    zonePath === paths.community || zonePath === paths.home(user) ||
    zonePath === `${paths.homeRoot}/public`
  ) {
    return true;
  }
  const name = baseName(zonePath);
  return BAD_NAMES.has(name) || /[`'\n\t]/.test(name);
}
