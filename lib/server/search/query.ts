/**
 * The search service's query DSL (cyverse-de/querydsl) turned into a test of one indexed entry:
 * `{all|any|none: [clause | nested query, ...]}` with the nine clause types, each checked and
 * worded as the service words its refusals (400 `{"error": ...}`), an unknown clause type as
 * Terrain's 400 `ERR_ILLEGAL_ARGUMENT`.
 *
 * @module
 */

import { illegalArgument, searchRefused, type TerrainError } from "../errors.ts";
import type { Permission } from "../permissions.ts";
import { CLAUSE_TYPES } from "../search_documentation.ts";

/**
 * One searchable entry, as the index keeps it.
 *
 * @example
 * ```ts
 * import type { SearchDoc } from "./query.ts";
 * const doc: SearchDoc = {
 *   path: "/iplant/home/shared/a.csv", label: "a.csv", kind: "file", size: 3, created: 0,
 *   modified: 0, owner: "curator", avus: [], permissions: [{ user: "curator", permission: "own" }],
 * };
 * ```
 */
export interface SearchDoc {
  /** Data-store path. */
  path: string;
  /** Base name. */
  label: string;
  /** File or folder. */
  kind: "file" | "folder";
  /** Bytes (0 for folders). */
  size: number;
  /** Creation time, ms. */
  created: number;
  /** Modification time, ms. */
  modified: number;
  /** Owner's username. */
  owner: string;
  /** Top-level AVUs, metadata-service (`cyverse`) and iRODS (`irods`) ones. */
  avus: readonly SearchAvu[];
  /** Who holds which permission (usernames without the zone). */
  permissions: readonly { user: string; permission: Exclude<Permission, "none"> }[];
}

/**
 * An AVU as the metadata clause sees it.
 *
 * @example
 * ```ts
 * import type { SearchAvu } from "./query.ts";
 * const avu: SearchAvu = { type: "cyverse", attr: "subject", value: "maize", unit: "" };
 * ```
 */
export interface SearchAvu {
  /** Which metadata it is: the metadata service's or iRODS's. */
  type: "irods" | "cyverse";
  /** Attribute. */
  attr: string;
  /** Value. */
  value: string;
  /** Unit. */
  unit: string;
}

/**
 * A compiled query: whether an entry matches.
 *
 * @example
 * ```ts
 * import type { Matcher } from "./query.ts";
 * const everything: Matcher = () => true;
 * ```
 */
export type Matcher = (doc: SearchDoc) => boolean;

const RANK: Record<string, number> = { read: 1, write: 2, own: 3 };
const UNITS: Record<string, number> = { B: 1, KB: 2 ** 10, MB: 2 ** 20, GB: 2 ** 30, TB: 2 ** 40 };

function goType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

/** Go's JSON decoder's complaint about a field of the wrong type. */
function wrongType(field: string, value: unknown, wanted: string): TerrainError {
  return searchRefused(
    `json: cannot unmarshal ${goType(value)} into Go value of type ${wanted} (${field})`,
  );
}

type Args = Record<string, unknown>;

function text(args: Args, key: string, where: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw wrongType(`${where}.${key}`, value, "string");
  return value;
}

function flag(args: Args, key: string, where: string): boolean {
  const value = args[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw wrongType(`${where}.${key}`, value, "bool");
  return value;
}

function texts(args: Args, key: string, where: string): string[] {
  const value = args[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw wrongType(`${where}.${key}`, value, "[]string");
  }
  return value;
}

/**
 * Whether `text` matches the glob `pattern` (`*` any run, `?` any one character), both already
 * lower-cased. A regular expression of the glob would backtrack: `*a*a*a*a*a*b` took it
 * polynomial time in the stars on a short name, so one request could hold the server. This
 * walk goes back only to the last `*`, so it takes at most length × length steps.
 */
function globMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === "?" || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

/** Elasticsearch's bound on the clauses of one query: a word of a text argument is one. */
const MAX_CLAUSES = 1024;

/**
 * A matcher of analysed text as the service builds it: every whitespace-separated word must
 * match, a word without `*` or `?` anywhere in the text (the service's implicit `*word*`),
 * case-insensitively; `exact` compares the whole text as given. Each word is tested once, its
 * runs of `*` as one, so the cost of a test grows with the entry's text, not the query's.
 *
 * @throws {TerrainError} 400 past {@linkcode MAX_CLAUSES} words, as Elasticsearch refuses them.
 */
function textMatcher(query: string, exact: boolean): (value: string) => boolean {
  if (exact) return (value) => value === query;
  const words = [
    ...new Set(
      query.toLowerCase().split(/\s+/).filter((word) => word !== "")
        .map((word) => /[*?]/.test(word) ? word.replace(/\*+/g, "*") : `*${word}*`),
    ),
  ];
  if (words.length > MAX_CLAUSES) {
    throw searchRefused(`too_many_clauses: maxClauseCount is set to ${MAX_CLAUSES}`);
  }
  return (value) => {
    const lower = value.toLowerCase();
    return words.every((word) => globMatches(word, lower));
  };
}

/**
 * Bytes described by a size argument: a number of bytes, or a number with `B`, `KB`, `MB`,
 * `GB` or `TB` (powers of 1024), with or without a space.
 *
 * @example
 * ```ts
 * import { parseFileSize } from "./query.ts";
 * import assert from "node:assert/strict";
 * assert.equal(parseFileSize("10 MB"), 10 * 1024 * 1024);
 * assert.equal(parseFileSize("1.5KB"), 1536);
 * assert.equal(parseFileSize("big"), undefined);
 * ```
 */
export function parseFileSize(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([KMGT]?B)?$/i.exec(value.trim());
  if (!match) return undefined;
  return Math.floor(Number(match[1]) * UNITS[(match[2] ?? "B").toUpperCase()]);
}

/**
 * The instant a date argument names, ms: milliseconds since the epoch, `YYYY-MM-DD` or an ISO
 * date-time. A bare date as an upper bound means the end of that day (Elasticsearch fills the
 * missing parts of an inclusive upper bound with their largest values).
 *
 * @example
 * ```ts
 * import { parseDate } from "./query.ts";
 * import assert from "node:assert/strict";
 * assert.equal(parseDate("1000", "from"), 1000);
 * assert.equal(parseDate("1970-01-01", "to"), 86_399_999);
 * assert.equal(parseDate("soon", "from"), undefined);
 * ```
 */
export function parseDate(value: string, end: "from" | "to"): number | undefined {
  const trimmed = value.trim();
  if (/^-?\d+$/.test(trimmed)) return Number(trimmed);
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
    const day = Date.parse(`${trimmed}T00:00:00Z`);
    if (Number.isNaN(day)) return undefined;
    return end === "to" ? day + 86_400_000 - 1 : day;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) return undefined;
  const instant = Date.parse(trimmed);
  return Number.isNaN(instant) ? undefined : instant;
}

function rangeClause(
  args: Args,
  where: string,
  parse: (value: string, end: "from" | "to") => number | undefined,
  describe: string,
  pick: (doc: SearchDoc) => number,
): Matcher {
  const from = text(args, "from", where);
  const to = text(args, "to", where);
  if (!from && !to) throw searchRefused("Must provide at least one of from or to");
  const bound = (value: string | undefined, end: "from" | "to") => {
    if (!value) return undefined;
    const parsed = parse(value, end);
    if (parsed === undefined) {
      throw searchRefused(`Provided string "${value}" does not describe a ${describe}`);
    }
    return parsed;
  };
  const low = bound(from, "from") ?? -Infinity;
  const high = bound(to, "to") ?? Infinity;
  return (doc) => pick(doc) >= low && pick(doc) <= high;
}

function clauseMatcher(type: string, args: Args, where: string, zone: string): Matcher {
  switch (type) {
    case "label": {
      const label = text(args, "label", where);
      if (!label) throw searchRefused("No label was passed, cannot create clause.");
      const test = textMatcher(label, flag(args, "exact", where));
      return (doc) => test(doc.label);
    }
    case "path": {
      const prefix = text(args, "prefix", where);
      if (!prefix) throw searchRefused("No prefix was passed, cannot create clause.");
      return (doc) => doc.path.startsWith(prefix);
    }
    case "owner": {
      const owner = text(args, "owner", where);
      if (!owner) throw searchRefused("No owner was passed, cannot create clause.");
      const name = owner.endsWith(`#${zone}`) ? owner.slice(0, -zone.length - 1) : owner;
      return (doc) => doc.owner === name;
    }
    case "created":
      return rangeClause(args, where, parseDate, "date", (doc) => doc.created);
    case "modified":
      return rangeClause(args, where, parseDate, "date", (doc) => doc.modified);
    case "size":
      return rangeClause(args, where, parseFileSize, "filesize", (doc) => doc.size);
    case "metadata": {
      const parts = (["attribute", "value", "unit"] as const).flatMap((part) => {
        const wanted = text(args, part, where);
        if (!wanted) return [];
        const test = textMatcher(wanted, flag(args, `${part}_exact`, where));
        const key = part === "attribute" ? "attr" : part;
        return [(avu: SearchAvu) => test(avu[key])];
      });
      if (parts.length === 0) {
        throw searchRefused("Must provide at least one of attribute, value, or unit");
      }
      const types = texts(args, "metadata_types", where);
      for (const type of types) {
        if (type !== "irods" && type !== "cyverse") {
          throw searchRefused(`Unknown metadata type "${type}"; use irods or cyverse`);
        }
      }
      const kinds = new Set(types.length > 0 ? types : ["irods", "cyverse"]);
      return (doc) =>
        doc.avus.some((avu) => kinds.has(avu.type) && parts.every((test) => test(avu)));
    }
    case "permissions": {
      const users = texts(args, "users", where);
      if (users.length === 0) throw searchRefused("No users were passed, cannot create clause.");
      const permission = text(args, "permission", where);
      if (permission !== undefined && !(permission in RANK)) {
        throw searchRefused(`Unknown permission "${permission}"; use read, write or own`);
      }
      const recurse = flag(args, "permission_recurse", where);
      const exact = flag(args, "exact", where);
      const names = users.map((user) =>
        textMatcher(user.endsWith(`#${zone}`) ? user.slice(0, -zone.length - 1) : user, exact)
      );
      const level = (held: string) =>
        permission === undefined ||
        (recurse ? RANK[held] >= RANK[permission] : held === permission);
      return (doc) =>
        doc.permissions.some((held) =>
          level(held.permission) && names.some((name) => name(held.user))
        );
    }
    case "tag": {
      const tags = texts(args, "tags", where);
      if (tags.length === 0) throw searchRefused("No tags were passed, cannot create clause.");
      // This store keeps no tags (Terrain keeps them in its metadata database), so a tag
      // clause matches nothing, as a tag nobody attached.
      return () => false;
    }
    default:
      throw illegalArgument(
        `${where}: (not (#{${CLAUSE_TYPES.map((name) => `"${name}"`).join(" ")}} ${
          JSON.stringify(type)
        }))`,
      );
  }
}

/**
 * Compiles a query object (`{all?, any?, none?}`, each a list of clauses or nested queries);
 * `where` names it in refusals (`query`, `query.all[2]`). An empty query matches everything.
 *
 * @throws {TerrainError} 400 with the service's message, or `ERR_ILLEGAL_ARGUMENT` naming an
 * unknown clause type and where it is.
 *
 * @example
 * ```ts
 * import { compileQuery, type SearchDoc } from "./query.ts";
 * import assert from "node:assert/strict";
 *
 * const doc: SearchDoc = {
 *   path: "/iplant/home/shared/maize.csv", label: "maize.csv", kind: "file", size: 2048,
 *   created: 0, modified: 0, owner: "curator", permissions: [],
 *   avus: [{ type: "cyverse", attr: "subject", value: "Maize genetics", unit: "" }],
 * };
 * const matches = compileQuery({
 *   all: [
 *     { type: "metadata", args: { attribute: "subject", value: "maize" } },
 *     { type: "size", args: { from: "1 KB" } },
 *   ],
 *   none: [{ type: "label", args: { label: "*.txt" } }],
 * }, "query", "iplant");
 * assert.equal(matches(doc), true);
 * ```
 */
export function compileQuery(query: unknown, where: string, zone: string): Matcher {
  if (typeof query !== "object" || query === null || Array.isArray(query)) {
    throw wrongType(where, query, "querydsl.Query");
  }
  const groups: Record<string, Matcher[]> = { all: [], any: [], none: [] };
  for (const [key, list] of Object.entries(query)) {
    if (!(key in groups) || list === null) continue;
    if (!Array.isArray(list)) throw wrongType(`${where}.${key}`, list, "[]querydsl.Clause");
    groups[key] = list.map((clause, i) => {
      const at = `${where}.${key}[${i}]`;
      if (typeof clause !== "object" || clause === null || Array.isArray(clause)) {
        throw wrongType(at, clause, "querydsl.Clause");
      }
      if (!("type" in clause)) return compileQuery(clause, at, zone);
      const { type, args } = clause as { type: unknown; args?: unknown };
      if (typeof type !== "string") throw wrongType(`${at}.type`, type, "string");
      if (
        args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))
      ) {
        throw wrongType(`${at}.args`, args, "map[string]interface {}");
      }
      return clauseMatcher(type, (args ?? {}) as Args, at, zone);
    });
  }
  const { all, any, none } = groups;
  return (doc) =>
    all.every((test) => test(doc)) &&
    (any.length === 0 || any.some((test) => test(doc))) &&
    !none.some((test) => test(doc));
}
