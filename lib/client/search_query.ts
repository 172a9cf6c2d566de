/**
 * The search service's query DSL (Terrain's `filesystem/search`, terrain-api.md §4.12) as types
 * and zod schemas, and {@linkcode checkSearchQuery}, which refuses a bad query before it is sent,
 * naming each bad clause by its JSON path (`query.all[1].args.prefix`).
 *
 * @module
 */

import { loadZodModule, type z as Z } from "../deps.ts";
import { BadRequestError, quoteInput } from "./errors.ts";
import { valueAt } from "./value_at.ts";

const { z } = await loadZodModule();

/**
 * The arguments of each clause type (dates as milliseconds, `YYYY-MM-DD` or ISO date-times;
 * sizes as bytes or `"10 MB"`).
 *
 * @example
 * ```ts
 * import type { ClauseArgs } from "./search_query.ts";
 *
 * const args: ClauseArgs["size"] = { from: "10 MB" };
 * ```
 */
export interface ClauseArgs {
  /** Name: each word anywhere (wildcards `*`, `?`), or whole with `exact`. */
  label: { label: string; exact?: boolean };
  /** Path prefix. */
  path: { prefix: string };
  /** Owner's username. */
  owner: { owner: string };
  /** Creation date range, bounds included. */
  created: { from?: string; to?: string };
  /** Modification date range, bounds included. */
  modified: { from?: string; to?: string };
  /** Size range, bounds included. */
  size: { from?: string; to?: string };
  /** One AVU matching every part given. */
  metadata: {
    attribute?: string;
    value?: string;
    unit?: string;
    metadata_types?: ("irods" | "cyverse")[];
    attribute_exact?: boolean;
    value_exact?: boolean;
    unit_exact?: boolean;
  };
  /** Tag ids. */
  tag: { tags: string[] };
  /** Who holds which permission. */
  permissions: {
    users?: string[];
    permission?: "read" | "write" | "own";
    permission_recurse?: boolean;
    exact?: boolean;
  };
}

/**
 * The arguments of each clause type, as the search service documents them: zod schemas, built on
 * the first call rather than when tern loads, since only a search checks them.
 *
 * @example
 * ```ts
 * import { clauseArgs } from "./search_query.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(Object.keys(clauseArgs()).sort(), [
 *   "created", "label", "metadata", "modified", "owner", "path", "permissions", "size", "tag",
 * ]);
 * assert.equal(clauseArgs().path.safeParse({ prefix: "/iplant/home" }).success, true);
 * assert.equal(clauseArgs(), clauseArgs());
 * ```
 */
export function clauseArgs(): { readonly [T in keyof ClauseArgs]: Z.ZodType<ClauseArgs[T]> } {
  return clauseArgsMemo ??= buildClauseArgs();
}

/** The clause schemas, built on first use: a lazily built immutable singleton. */
let clauseArgsMemo: ReturnType<typeof buildClauseArgs> | undefined;

/**
 * Bytes, or a number with KB, MB, GB or TB (powers of 1024), as the service reads sizes; tested
 * on the trimmed text, as two runs of spaces side by side would make the test quadratic.
 */
const SIZE = /^\d+(\.\d+)?\s*(B|KB|MB|GB|TB)?$/i;
/** Milliseconds, `YYYY-MM-DD` or an ISO date-time. */
const DATE = /^\s*(\d+|\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?)\s*$/;

function buildClauseArgs(): { readonly [T in keyof ClauseArgs]: Z.ZodType<ClauseArgs[T]> } {
  const text = z.string().min(1, "must be a non-empty string");
  const flag = z.boolean();
  const names = z.array(text);
  const size = z.string().refine(
    (value) => SIZE.test(value.trim()),
    'must be bytes or a number with a unit, such as "10 MB"',
  );
  const date = z.string().regex(DATE, "must be milliseconds, YYYY-MM-DD or an ISO date-time");
  const range = <T extends Z.ZodType>(bound: T) =>
    z.strictObject({ from: bound.optional(), to: bound.optional() }).refine(
      (args) => args.from !== undefined || args.to !== undefined,
      "needs from, to or both",
    );
  return {
    label: z.strictObject({ label: text, exact: flag.optional() }),
    path: z.strictObject({ prefix: text }),
    owner: z.strictObject({ owner: text }),
    created: range(date),
    modified: range(date),
    size: range(size),
    metadata: z.strictObject({
      attribute: text.optional(),
      value: text.optional(),
      unit: text.optional(),
      metadata_types: z.array(z.enum(["irods", "cyverse"])).optional(),
      attribute_exact: flag.optional(),
      value_exact: flag.optional(),
      unit_exact: flag.optional(),
    }).refine(
      (args) => args.attribute !== undefined || args.value !== undefined || args.unit !== undefined,
      "needs at least one of attribute, value or unit",
    ),
    tag: z.strictObject({ tags: names.min(1, "must name at least one tag") }),
    permissions: z.strictObject({
      users: names.optional(),
      permission: z.enum(["read", "write", "own"]).optional(),
      permission_recurse: flag.optional(),
      exact: flag.optional(),
    }),
  };
}

/**
 * A clause type of the query DSL.
 *
 * @example
 * ```ts
 * import type { ClauseType } from "./search_query.ts";
 *
 * const type: ClauseType = "metadata";
 * ```
 */
export type ClauseType = keyof ClauseArgs;

/**
 * One clause: its type and arguments (`{ type: "path", args: { prefix: "/iplant/home" } }`).
 *
 * @example
 * ```ts
 * import type { SearchClause } from "./search_query.ts";
 *
 * const clause: SearchClause = { type: "metadata", args: { attribute: "subject", value: "maize" } };
 * ```
 */
export type SearchClause = {
  [T in ClauseType]: { type: T; args: ClauseArgs[T] };
}[ClauseType];

/**
 * A query: clauses (or nested queries) that must `all` match, of which at least one of `any`
 * must, and of which `none` may.
 *
 * @example
 * ```ts
 * import type { SearchQuery } from "./search_query.ts";
 *
 * const query: SearchQuery = {
 *   all: [{ type: "path", args: { prefix: "/iplant/home/shared" } }],
 *   none: [{ type: "label", args: { label: "*.tmp" } }],
 * };
 * ```
 */
export interface SearchQuery {
  /** Every one must match. */
  all?: readonly (SearchClause | SearchQuery)[];
  /** At least one must match. */
  any?: readonly (SearchClause | SearchQuery)[];
  /** None may match. */
  none?: readonly (SearchClause | SearchQuery)[];
}

const GROUPS = ["all", "any", "none"] as const;

/**
 * Checks a query against the DSL and returns it unchanged.
 *
 * @param where How to name the query in a message (`query`).
 * @throws {BadRequestError} naming the first bad part by its JSON path and saying what it must
 * be: an unknown group or clause type, a missing or mistyped argument, an unknown argument.
 *
 * @example
 * ```ts
 * import { checkSearchQuery } from "./search_query.ts";
 * import assert from "node:assert/strict";
 *
 * const query = { all: [{ type: "path", args: { prefix: "/iplant/home" } }] };
 * assert.equal(checkSearchQuery(query), query);
 * assert.throws(() => checkSearchQuery({ all: [{ type: "path", args: {} }] }), {
 *   name: "BadRequestError",
 *   message: "Bad search query: query.all[0].args.prefix is missing (a path clause needs it).",
 * });
 * ```
 */
export function checkSearchQuery(query: unknown, where = "query"): SearchQuery {
  checkGroup(query, where);
  return query as SearchQuery;
}

/**
 * What a query that is not the DSL at all (a pandas-style `"subject == 'maize'"`, a dict of
 * attributes) was likely meant to be: the builder's calls that write one.
 */
const BUILDER_HINT = '; the builder writes one: search.metadata("subject", "maize"), ' +
  'search.name("*.csv").under("/iplant/home/shared") (import { search } from tern)';

function checkGroup(group: unknown, where: string): void {
  const hint = where === "query" ? BUILDER_HINT : "";
  if (typeof group !== "object" || group === null || Array.isArray(group)) {
    fail(`${where} must be an object with all, any or none, got ${quoteInput(group)}${hint}`);
  }
  for (const [key, nodes] of Object.entries(group)) {
    if (!(GROUPS as readonly string[]).includes(key)) {
      fail(`${where} has ${quoteInput(key)}; a query holds only all, any and none${hint}`);
    }
    if (!Array.isArray(nodes)) fail(`${where}.${key} must be a list, got ${quoteInput(nodes)}`);
    nodes.forEach((node, index) => {
      const path = `${where}.${key}[${index}]`;
      if (typeof node === "object" && node !== null && "type" in node) checkClause(node, path);
      else checkGroup(node, path);
    });
  }
}

function checkClause(clause: object, where: string): void {
  const { type, args, ...rest } = clause as { type: unknown; args?: unknown };
  const extra = Object.keys(rest);
  if (extra.length > 0) {
    fail(`${where} has ${quoteInput(extra[0])}; a clause holds only type and args`);
  }
  const schemas = clauseArgs();
  if (typeof type !== "string" || !Object.hasOwn(schemas, type)) {
    fail(
      `${where}.type ${quoteInput(type)} is not a clause type; the types are ${
        Object.keys(schemas).join(", ")
      }`,
    );
  }
  const checked = schemas[type as ClauseType].safeParse(args);
  if (checked.success) return;
  const [issue] = checked.error.issues;
  const at = [
    `${where}.args`,
    ...issue.path.map((key) => typeof key === "number" ? `[${key}]` : `.${String(key)}`),
  ].join("");
  const value = valueAt(args, issue.path);
  if (issue.code === "invalid_type" && value === undefined && issue.path.length > 0) {
    fail(`${at} is missing (a ${type} clause needs it)`);
  }
  if (issue.code === "unrecognized_keys") {
    fail(`${at} has ${quoteInput(issue.keys[0])}, which a ${type} clause does not take`);
  }
  fail(`${at} ${describe(issue)}${value === undefined ? "" : `, got ${quoteInput(value)}`}`);
}

function describe(issue: Z.core.$ZodIssue): string {
  if (issue.code === "invalid_type") return `must be ${issue.expected}`;
  if (issue.code === "invalid_value") {
    return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
  }
  if (issue.message.startsWith("must") || issue.message.startsWith("needs")) return issue.message;
  return `is wrong: ${issue.message}`;
}

function fail(message: string): never {
  throw new BadRequestError(`Bad search query: ${message}.`, { endpoint: "filesystem/search" });
}
