/**
 * The options of `folder.list()` and `folder.walk()`, their schemas, and their translation to
 * Terrain's terms. Each call parses its options once with its schema, so a mistake is a
 * {@linkcode BadRequestError} naming the option before any request is sent; nothing below checks
 * them again.
 *
 * @module
 */

import { loadPicomatch } from "../deps.ts";
import { BadRequestError, quoteInput } from "../client/errors.ts";
import type { EntityType, SortColumn, SortDirection } from "../client/endpoints.ts";
import {
  abortSignal,
  count,
  defineOptions,
  isFilled,
  oneOf,
  type OptionRules,
  type OptionsSchema,
  rule,
} from "../client/options.ts";

/**
 * What a listing is sorted by: `name`, `path`, `size`, `created` or `modified`.
 *
 * @example
 * ```ts
 * import type { SortKey } from "./options.ts";
 *
 * const newest: SortKey = "modified";
 * ```
 */
export type SortKey = "name" | "path" | "size" | "created" | "modified";

/**
 * Sort direction: `asc` (default) or `desc`.
 *
 * @example
 * ```ts
 * import type { SortOrder } from "./options.ts";
 *
 * const biggestFirst: SortOrder = "desc";
 * ```
 */
export type SortOrder = "asc" | "desc";

/**
 * Options of `folder.list()`.
 *
 * @example
 * ```ts
 * import type { ListOptions } from "./options.ts";
 *
 * const biggestCsvFiles: ListOptions = { type: "file", infoType: "csv", sort: "size", order: "desc" };
 * ```
 */
export interface ListOptions {
  /**
   * Only files, only folders, or both. Filtered by the server.
   *
   * @default "any"
   */
  type?: "file" | "folder" | "any";
  /**
   * Sort column, applied by the server. Folders always come before files: that is how Terrain
   * pages a folder.
   *
   * @default "name"
   */
  sort?: SortKey;
  /**
   * Sort direction.
   *
   * @default "asc"
   */
  order?: SortOrder;
  /**
   * Keep only files of these Terrain info types (`csv`, `tsv`, `unknown`, …). Filtered by the
   * server; like Terrain, it does not remove folders unless `type` is `file`.
   *
   * @default every info type
   */
  infoType?: string | readonly string[];
  /**
   * Entries per request (Terrain sets no maximum).
   *
   * @default 1000
   */
  pageSize?: number;
  /**
   * A glob over paths relative to the listed folder (`*.csv`, `raw/*.tif`; `**` crosses folders), matched on the
   * client with picomatch. Dotfiles match like any other name.
   *
   * @default every entry
   */
  glob?: string;
  /** Aborts the listing (in addition to the store's own signal). */
  signal?: AbortSignal;
}

/**
 * Options of `folder.walk()`: those of {@linkcode ListOptions} plus depth and concurrency.
 * `sort` and `order` apply within each folder.
 *
 * @example
 * ```ts
 * import type { WalkOptions } from "./options.ts";
 *
 * const csvFilesInRaw: WalkOptions = { glob: "raw/*.csv", maxDepth: 2, type: "file" };
 * ```
 */
export interface WalkOptions extends ListOptions {
  /**
   * How deep to go: 1 lists the folder's own entries (like `list()`), 2 adds those of its
   * sub-folders, and so on.
   *
   * @default Infinity
   */
  maxDepth?: number;
  /**
   * Folders listed at once.
   *
   * @default the store's `concurrency`
   */
  concurrency?: number;
}

/**
 * Options after checking, in Terrain's terms.
 *
 * @example
 * ```ts
 * import { resolveListOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const resolved = resolveListOptions({ sort: "modified", order: "desc" });
 * assert.equal(resolved.sortCol, "datemodified");
 * assert.equal(resolved.sortDir, "DESC");
 * assert.equal(resolved.pageSize, 1000);
 * ```
 */
export interface ResolvedListOptions {
  /** Which entries the server sends (`any` unless `type` says otherwise). */
  entityType: EntityType;
  /** Kind kept on the client (`undefined` keeps both). */
  type: "file" | "folder" | undefined;
  /** Terrain sort column, when one was asked for. */
  sortCol?: SortColumn;
  /** Terrain sort direction, when one was asked for. */
  sortDir?: SortDirection;
  /** Info types, when asked for. */
  infoType?: readonly string[];
  /** Entries per request. */
  pageSize: number;
  /** The compiled glob, when one was given. */
  glob?: Glob;
  /** The caller's signal. */
  signal?: AbortSignal;
}

/**
 * {@linkcode ResolvedListOptions} plus the walk's limits.
 *
 * @example
 * ```ts
 * import { resolveWalkOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(resolveWalkOptions({ maxDepth: 2 }, 4).maxDepth, 2);
 * ```
 */
export interface ResolvedWalkOptions extends ResolvedListOptions {
  /** Deepest level listed (Infinity for no limit). */
  maxDepth: number;
  /** Folders listed at once. */
  concurrency: number;
}

/**
 * A glob: the matcher, plus what it implies about where matches can be, so a walk can skip
 * folders that cannot hold any. The matcher (picomatch) is loaded by `ready()`, which a listing
 * awaits before its first entry: a script that lists without a glob never loads it.
 *
 * @example
 * ```ts
 * import { compileGlob } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const glob = compileGlob("raw/*.csv");
 * await glob.ready();
 * assert.ok(glob.matches("raw/a.csv"));
 * assert.equal(glob.base, "raw");
 * assert.equal(glob.depth, 2);
 * ```
 */
export interface Glob {
  /** The pattern as given. */
  readonly pattern: string;
  /**
   * Loads the matcher; the members below may be used once it resolved.
   *
   * @throws {BadRequestError} for a pattern picomatch cannot compile.
   */
  ready(): Promise<void>;
  /** Whether a relative path matches. */
  matches(relativePath: string): boolean;
  /** Leading literal folders every match lies under (`""` when none). */
  readonly base: string;
  /** Path segments every match has, when fixed (no `**`, braces or extglobs); else Infinity. */
  readonly depth: number;
}

/** Default entries per request: Terrain clients commonly use 1000. */
export const DEFAULT_PAGE_SIZE = 1000;

const SORT_COLUMNS: Record<SortKey, SortColumn> = {
  name: "name",
  path: "path",
  size: "size",
  created: "datecreated",
  modified: "datemodified",
};

/**
 * The rules of {@linkcode ListOptions}, which the listings of datasets share.
 *
 * @example
 * ```ts
 * import { listRules } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(listRules().order.safeParse("up").error?.issues[0].message, 'one of "asc", "desc"');
 * ```
 */
export function listRules() {
  return {
    type: oneOf(["file", "folder", "any"]),
    sort: oneOf(Object.keys(SORT_COLUMNS) as SortKey[]),
    order: oneOf(["asc", "desc"]),
    infoType: rule(
      'a Terrain file type such as "csv", or a non-empty list of them',
      (value): value is string | string[] =>
        isFilled(value) || Array.isArray(value) && value.length > 0 && value.every(isFilled),
    ),
    pageSize: count(1),
    glob: rule(
      'a pattern relative to the listed folder such as "*.csv" or "raw/**/*.tif" ' +
        '(not empty, not starting with "/")',
      (value): value is string => isFilled(value) && !value.startsWith("/"),
    ),
    signal: abortSignal(),
  } satisfies OptionRules<ListOptions>;
}

/**
 * The options of `folder.list()`.
 *
 * @example
 * ```ts
 * import { LIST_OPTIONS } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => LIST_OPTIONS.parse("folder.list()", { sortBy: "size" }), {
 *   name: "BadRequestError",
 *   message: 'folder.list(): unknown option "sortBy": did you mean "sort"?',
 * });
 * ```
 */
export const LIST_OPTIONS: OptionsSchema<ListOptions> = defineOptions(listRules);

/**
 * The options of `folder.walk()`.
 *
 * @example
 * ```ts
 * import { WALK_OPTIONS } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(WALK_OPTIONS.parse("folder.walk()", { maxDepth: Infinity }), { maxDepth: Infinity });
 * assert.throws(() => WALK_OPTIONS.parse("folder.walk()", { maxDepth: 0 }), {
 *   message: "folder.walk(): maxDepth must be an integer ≥ 1, or Infinity, got 0.",
 * });
 * ```
 */
export const WALK_OPTIONS: OptionsSchema<WalkOptions> = defineOptions(() => ({
  ...listRules(),
  maxDepth: rule(
    "an integer ≥ 1, or Infinity",
    (value): value is number =>
      value === Infinity || Number.isSafeInteger(value) && (value as number) >= 1,
  ),
  concurrency: count(1),
}));

/**
 * Translates parsed {@linkcode ListOptions} to Terrain's terms.
 *
 * @example
 * ```ts
 * import { resolveListOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(resolveListOptions({ type: "file" }).entityType, "file");
 * ```
 */
export function resolveListOptions(options: ListOptions = {}): ResolvedListOptions {
  const { type, sort, order, infoType, glob, signal } = options;
  const resolved: ResolvedListOptions = {
    entityType: type ?? "any",
    type: type === "any" ? undefined : type,
    pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
  };
  if (sort !== undefined) resolved.sortCol = SORT_COLUMNS[sort];
  if (order !== undefined) resolved.sortDir = order === "asc" ? "ASC" : "DESC";
  if (infoType !== undefined) {
    resolved.infoType = Object.freeze(typeof infoType === "string" ? [infoType] : [...infoType]);
  }
  if (glob !== undefined) resolved.glob = compileGlob(glob);
  if (signal !== undefined) resolved.signal = signal;
  return resolved;
}

/**
 * Translates parsed {@linkcode WalkOptions}; `concurrency` defaults to the store's.
 *
 * @example
 * ```ts
 * import { resolveWalkOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const walk = resolveWalkOptions({ type: "file" }, 4);
 * assert.equal(walk.entityType, "any");
 * assert.equal(walk.type, "file");
 * assert.equal(walk.maxDepth, Infinity);
 * ```
 */
export function resolveWalkOptions(
  options: WalkOptions = {},
  defaultConcurrency: number,
): ResolvedWalkOptions {
  const list = resolveListOptions(options);
  return {
    ...list,
    // A walk needs the folders to descend into, so only a folders-only walk narrows the
    // server's answer; a files-only walk drops folders on the client.
    entityType: list.type === "folder" ? "folder" : "any",
    maxDepth: options.maxDepth ?? Infinity,
    concurrency: options.concurrency ?? defaultConcurrency,
  };
}

/**
 * A glob over relative paths (picomatch, dotfiles included), compiled by its `ready()`. The
 * pattern is one {@linkcode LIST_OPTIONS} accepted (not empty, not absolute).
 *
 * @example
 * ```ts
 * import { compileGlob } from "./options.ts";
 * import assert from "node:assert/strict";
 *
 * const glob = compileGlob("20??/**");
 * await glob.ready();
 * assert.ok(glob.matches("2019/july/a.csv"));
 * ```
 */
export function compileGlob(pattern: string): Glob {
  let compiled: Omit<Glob, "pattern" | "ready"> | undefined;
  const loaded = () => {
    if (compiled === undefined) throw new Error(`glob ${quoteInput(pattern)}: await ready() first`);
    return compiled;
  };
  return {
    pattern,
    async ready() {
      if (compiled !== undefined) return;
      const picomatch = await loadPicomatch();
      let matcher: (path: string) => boolean;
      let scan: { base: string; negated: boolean };
      try {
        matcher = picomatch(pattern, { dot: true });
        scan = picomatch.scan(pattern);
      } catch (error) {
        throw new BadRequestError(
          `glob ${quoteInput(pattern)} is not a valid pattern: ${(error as Error).message}.`,
        );
      }
      // A negated pattern matches almost everything, so it says nothing about where matches are.
      const fixedDepth = !scan.negated && !/\*\*|[{}()]/.test(pattern);
      compiled = {
        matches: (path) => matcher(path),
        base: scan.negated ? "" : scan.base,
        depth: fixedDepth ? pattern.split("/").length : Infinity,
      };
    },
    matches: (path) => loaded().matches(path),
    get base() {
      return loaded().base;
    },
    get depth() {
      return loaded().depth;
    },
  };
}
