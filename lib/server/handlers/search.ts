/**
 * `POST /secured/filesystem/search` (and its anonymous variant): the data search. The body is
 * checked as Terrain's schema does (a closed map: `query`, `size`, `from`, `sort`, `scroll`,
 * `scroll_id`), the query compiled as the search service does, and the search run over the
 * store's index. A server started without search answers 403 "Data search is not enabled".
 *
 * @module
 */

import { forbidden, illegalArgument, searchRefused } from "../errors.ts";
import { jsonReply, type Reply } from "../reply.ts";
import { compileQuery } from "../search/query.ts";
import type { SearchRequest } from "../search/searcher.ts";
import { SEARCH_SORT_FIELDS, type SearchSortField } from "../../registry/search_sort_fields.ts";
import { type Call, readJsonBody } from "./call.ts";

const KEYS: ReadonlySet<string> = new Set(["query", "size", "from", "sort", "scroll", "scroll_id"]);
const TIME_UNITS: Record<string, number> = {
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
};

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "nil";
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function keepAlive(value: unknown): number {
  const match = typeof value === "string" ? /^(\d+)(d|h|m|s|ms)$/.exec(value) : null;
  if (!match) {
    throw searchRefused(
      `elastic: Error 400 (Bad Request): failed to parse setting [scroll] with value [${value}] as a time value: unit is missing or unrecognized [type=illegal_argument_exception]`,
    );
  }
  return Number(match[1]) * TIME_UNITS[match[2]];
}

function integer(
  body: Record<string, unknown>,
  key: string,
  fallback: number,
  min: number,
): number {
  const value = body[key];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw illegalArgument({ [key]: `(not (integer? ${shown(value)}))` });
  }
  if (value < min) {
    throw illegalArgument({ [key]: `(not (${min > 0 ? "pos-int?" : "nat-int?"} ${value}))` });
  }
  return value;
}

function sortOf(value: unknown): { field: SearchSortField; order: "ascending" | "descending" }[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw illegalArgument({ sort: `(not (sequential? ${shown(value)}))` });
  return value.map((entry) => {
    const { field, order } = (entry ?? {}) as { field?: unknown; order?: unknown };
    if (!SEARCH_SORT_FIELDS.includes(field as SearchSortField)) {
      throw illegalArgument({
        sort: `(not (#{${SEARCH_SORT_FIELDS.map((name) => `"${name}"`).join(" ")}} ${
          shown(field)
        }))`,
      });
    }
    if (order !== undefined && order !== "ascending" && order !== "descending") {
      throw illegalArgument({ sort: `(not (#{"ascending" "descending"} ${shown(order)}))` });
    }
    return { field: field as SearchSortField, order: order ?? "ascending" };
  });
}

/**
 * Checks a search body and compiles its query.
 *
 * @throws {TerrainError} 400 `ERR_ILLEGAL_ARGUMENT` for a body Terrain's schema refuses (not a
 * JSON object, unknown keys, a bad `size`, `from` or `sort`, an unknown clause type), 400
 * `{"error": ...}` for what the search service refuses.
 */
function parseSearchBody(body: unknown, zone: string): SearchRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw illegalArgument(`(not (map? ${shown(body)}))`);
  }
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!KEYS.has(key)) throw illegalArgument({ [key]: "disallowed-key" });
  }
  if (fields.scroll_id !== undefined) {
    if (typeof fields.scroll_id !== "string" || fields.scroll_id === "") {
      throw illegalArgument({ scroll_id: `(not (non-blank-string? ${shown(fields.scroll_id)}))` });
    }
    return {
      kind: "scroll",
      scrollId: fields.scroll_id,
      scrollMs: keepAlive(fields.scroll ?? "1m"),
    };
  }
  return {
    kind: "query",
    matches: fields.query === undefined ? () => true : compileQuery(fields.query, "query", zone),
    from: integer(fields, "from", 0, 0),
    size: integer(fields, "size", 10, 1),
    sort: sortOf(fields.sort),
    scrollMs: fields.scroll === undefined ? undefined : keepAlive(fields.scroll),
  };
}

/**
 * Answers a search.
 *
 * @example
 * ```ts
 * import { searchHandler } from "./search.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = searchHandler;
 * ```
 */
export async function searchHandler(call: Call): Promise<Reply> {
  if (!call.search) throw forbidden("Data search is not enabled in this deployment");
  const body = await readJsonBody(call);
  const request = parseSearchBody(body, call.store.zone);
  return jsonReply(await call.search.run(call.user, request));
}
