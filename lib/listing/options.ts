/**
 * The options of `folder.list()` and `folder.walk()`, checked up front so that a mistake is a
 * {@linkcode BadRequestError} naming the option before any request is sent.
 *
 * @module
 */

import { loadPicomatch } from "../deps.ts";
import { BadRequestError, quoteInput } from "../client/errors.ts";
import type { EntityType, SortColumn, SortDirection } from "../client/endpoints.ts";

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
  /** Only files, only folders, or both (`any`, the default). Filtered by the server. */
  type?: "file" | "folder" | "any";
  /**
   * Sort column (default `name`), applied by the server. Folders always come before files:
   * that is how Terrain pages a folder.
   */
  sort?: SortKey;
  /** Sort direction (default `asc`). */
  order?: SortOrder;
  /**
   * Keep only files of these Terrain info types (`csv`, `tsv`, `unknown`, …). Filtered by the
   * server; like Terrain, it does not remove folders unless `type` is `file`.
   */
  infoType?: string | readonly string[];
  /** Entries per request (default 1000; Terrain sets no maximum). */
  pageSize?: number;
  /**
   * A glob over paths relative to the listed folder (`*.csv`, `raw/*.tif`; `**` crosses folders), matched on the
   * client with picomatch. Dotfiles match like any other name.
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
   * sub-folders, and so on (default: no limit).
   */
  maxDepth?: number;
  /** Folders listed at once (default: the store's `concurrency`). */
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
 * Checks {@linkcode ListOptions} and translates them to Terrain's terms.
 *
 * @throws {BadRequestError} naming the first bad option.
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
  if (typeof options !== "object" || options === null) {
    throw new BadRequestError('Listing options must be an object such as { type: "file" }.');
  }
  const type = choice("type", options.type, ["file", "folder", "any"] as const);
  const sort = choice("sort", options.sort, Object.keys(SORT_COLUMNS) as SortKey[]);
  const order = choice("order", options.order, ["asc", "desc"] as const);
  const resolved: ResolvedListOptions = {
    entityType: type ?? "any",
    type: type === "any" ? undefined : type,
    pageSize: integer("pageSize", options.pageSize, 1) ?? DEFAULT_PAGE_SIZE,
  };
  if (sort !== undefined) resolved.sortCol = SORT_COLUMNS[sort];
  if (order !== undefined) resolved.sortDir = order === "asc" ? "ASC" : "DESC";
  const infoType = infoTypes(options.infoType);
  if (infoType !== undefined) resolved.infoType = infoType;
  if (options.glob !== undefined) resolved.glob = compileGlob(options.glob);
  if (options.signal !== undefined) {
    if (!(options.signal instanceof AbortSignal)) {
      throw new BadRequestError("signal must be an AbortSignal.");
    }
    resolved.signal = options.signal;
  }
  return resolved;
}

/**
 * Checks {@linkcode WalkOptions}; `concurrency` defaults to the store's.
 *
 * @throws {BadRequestError} naming the first bad option.
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
  const maxDepth = options.maxDepth === Infinity
    ? Infinity
    : integer("maxDepth", options.maxDepth, 1) ?? Infinity;
  return {
    ...list,
    // A walk needs the folders to descend into, so only a folders-only walk narrows the
    // server's answer; a files-only walk drops folders on the client.
    entityType: list.type === "folder" ? "folder" : "any",
    maxDepth,
    concurrency: integer("concurrency", options.concurrency, 1) ?? defaultConcurrency,
  };
}

/**
 * A glob over relative paths (picomatch, dotfiles included), checked at once and compiled by
 * its `ready()`.
 *
 * @throws {BadRequestError} for a pattern that is empty or absolute; `ready()` throws one for a
 * pattern that is not a valid glob.
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
export function compileGlob(pattern: unknown): Glob {
  if (typeof pattern !== "string" || pattern.trim() === "") {
    throw new BadRequestError(
      `glob must be a non-empty pattern such as "*.csv" or "**/*.tif", got ${show(pattern)}.`,
    );
  }
  if (pattern.startsWith("/")) {
    throw new BadRequestError(
      `glob matches paths relative to the listed folder (for example "raw/*.csv"), ` +
        `so it cannot start with "/": got ${quoteInput(pattern)}.`,
    );
  }
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

function choice<T extends string>(
  name: string,
  value: unknown,
  choices: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && (choices as readonly string[]).includes(value)) {
    return value as T;
  }
  throw new BadRequestError(
    `${name} must be one of ${choices.map((item) => `"${item}"`).join(", ")}, got ${show(value)}.`,
  );
}

function integer(name: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= min) return value;
  throw new BadRequestError(`${name} must be an integer ≥ ${min}, got ${show(value)}.`);
}

function infoTypes(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const values = typeof value === "string" ? [value] : value;
  if (
    !Array.isArray(values) || values.length === 0 ||
    values.some((item) => typeof item !== "string" || item.trim() === "")
  ) {
    throw new BadRequestError(
      `infoType must be a Terrain file type such as "csv", or a non-empty list of them, ` +
        `got ${show(value)}.`,
    );
  }
  return Object.freeze([...values]);
}

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value == null) {
    return String(value);
  }
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}
