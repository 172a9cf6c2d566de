/**
 * {@linkcode search}: a small fluent way to write the common search queries
 * (`search.metadata("subject", "maize").under("/iplant/home/shared")`). Each call returns a new
 * builder with one more clause that must match; `store.search()` takes a builder or the query DSL
 * object itself.
 *
 * @module
 */

import { definedOf } from "./defined.ts";
import type { SearchClause, SearchQuery } from "./search_query.ts";

/**
 * A date bound of a search: a `Date`, milliseconds since 1970, `YYYY-MM-DD` or an ISO date-time.
 *
 * @example
 * ```ts
 * import type { DateBound } from "./search_builder.ts";
 *
 * const bounds: DateBound[] = [new Date("2024-01-01"), 1704067200000, "2024-01-01"];
 * ```
 */
export type DateBound = Date | number | string;

/**
 * How {@linkcode SearchBuilder.metadata} matches.
 *
 * @example
 * ```ts
 * import type { MetadataMatch } from "./search_builder.ts";
 *
 * const exactly: MetadataMatch = { exact: true, types: ["cyverse"] };
 * ```
 */
export interface MetadataMatch {
  /**
   * Match attribute and value whole (case included) rather than each word anywhere.
   * @default false
   */
  exact?: boolean;
  /** Unit the AVU must have. */
  unit?: string;
  /**
   * Which metadata to look in: the metadata service's (`cyverse`), iRODS's (`irods`).
   * @default ["irods", "cyverse"]
   */
  types?: readonly ("irods" | "cyverse")[];
}

/**
 * An immutable query under construction: every clause added must match (the DSL's `all`).
 *
 * @example
 * ```ts
 * import { search } from "./search_builder.ts";
 * import assert from "node:assert/strict";
 *
 * const query = search.metadata("subject", "maize").under("/iplant/home/shared").toJSON();
 * assert.deepEqual(query, {
 *   all: [
 *     { type: "metadata", args: { attribute: "subject", value: "maize" } },
 *     { type: "path", args: { prefix: "/iplant/home/shared" } },
 *   ],
 * });
 * ```
 */
export class SearchBuilder {
  readonly #all: readonly (SearchClause | SearchQuery)[];
  readonly #none: readonly (SearchClause | SearchQuery)[];

  /**
   * A builder holding these parts; start from {@linkcode search} instead.
   *
   * @example
   * ```ts
   * import { SearchBuilder } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(new SearchBuilder().toJSON(), { all: [] });
   * ```
   */
  constructor(
    all: readonly (SearchClause | SearchQuery)[] = [],
    none: readonly (SearchClause | SearchQuery)[] = [],
  ) {
    this.#all = all;
    this.#none = none;
  }

  /**
   * Entries under a folder (a path prefix).
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(search.under("/iplant/home/demo").toJSON().all, [
   *   { type: "path", args: { prefix: "/iplant/home/demo" } },
   * ]);
   * ```
   */
  under(prefix: string): SearchBuilder {
    return this.#with({ type: "path", args: { prefix } });
  }

  /**
   * Entries whose name matches: each word anywhere, `*` and `?` as wildcards, or the whole name
   * with `exact`.
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(search.name("*.csv").toJSON().all, [{ type: "label", args: { label: "*.csv" } }]);
   * ```
   */
  name(label: string, options: { exact?: boolean } = {}): SearchBuilder {
    const exact = options.exact === undefined ? {} : { exact: options.exact };
    return this.#with({ type: "label", args: { label, ...exact } });
  }

  /**
   * Entries carrying an AVU with this attribute (and value, when given).
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(search.metadata("subject", "Maize", { exact: true }).toJSON().all, [
   *   {
   *     type: "metadata",
   *     args: { attribute: "subject", value: "Maize", attribute_exact: true, value_exact: true },
   *   },
   * ]);
   * ```
   */
  metadata(attribute: string, value?: string, options: MetadataMatch = {}): SearchBuilder {
    const { exact, unit, types } = options;
    return this.#with({
      type: "metadata",
      args: {
        attribute,
        ...definedOf({ value, unit }, ["value", "unit"]),
        ...(types === undefined ? {} : { metadata_types: [...types] }),
        ...(exact === undefined
          ? {}
          : { attribute_exact: exact, ...(value === undefined ? {} : { value_exact: exact }) }),
      },
    });
  }

  /**
   * Entries owned by a user.
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(search.owner("demo").toJSON().all, [{ type: "owner", args: { owner: "demo" } }]);
   * ```
   */
  owner(user: string): SearchBuilder {
    return this.#with({ type: "owner", args: { owner: user } });
  }

  /**
   * Entries created within a range (bounds included; either may be left out).
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(search.created({ from: "2024-01-01" }).toJSON().all, [
   *   { type: "created", args: { from: "2024-01-01" } },
   * ]);
   * ```
   */
  created(range: { from?: DateBound; to?: DateBound }): SearchBuilder {
    return this.#with({ type: "created", args: bounds(range, dateText) });
  }

  /**
   * Entries modified within a range (bounds included; either may be left out).
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * const since = new Date(Date.UTC(2024, 0, 1));
   * assert.deepEqual(search.modified({ from: since }).toJSON().all, [
   *   { type: "modified", args: { from: String(since.getTime()) } },
   * ]);
   * ```
   */
  modified(range: { from?: DateBound; to?: DateBound }): SearchBuilder {
    return this.#with({ type: "modified", args: bounds(range, dateText) });
  }

  /**
   * Files whose size is within a range: bytes, or text such as `"10 MB"` (powers of 1024).
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(search.size({ from: "1 MB" }).toJSON().all, [
   *   { type: "size", args: { from: "1 MB" } },
   * ]);
   * ```
   */
  size(range: { from?: number | string; to?: number | string }): SearchBuilder {
    return this.#with({ type: "size", args: bounds(range, String) });
  }

  /**
   * Entries carrying any of these tags (tag ids).
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(search.tag("t1").toJSON().all, [{ type: "tag", args: { tags: ["t1"] } }]);
   * ```
   */
  tag(...tags: string[]): SearchBuilder {
    return this.#with({ type: "tag", args: { tags } });
  }

  /**
   * Entries that match at least one of these queries.
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * const tables = search.anyOf(search.name("*.csv"), search.name("*.tsv"));
   * assert.deepEqual(tables.toJSON().all, [{
   *   any: [
   *     { all: [{ type: "label", args: { label: "*.csv" } }] },
   *     { all: [{ type: "label", args: { label: "*.tsv" } }] },
   *   ],
   * }]);
   * ```
   */
  anyOf(...queries: (SearchBuilder | SearchQuery)[]): SearchBuilder {
    return this.#with({ any: queries.map(queryOf) });
  }

  /**
   * Leaves out entries that match a query.
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * const kept = search.under("/iplant/home/demo").not(search.name("*.tmp")).toJSON();
   * assert.deepEqual(kept.none, [{ all: [{ type: "label", args: { label: "*.tmp" } }] }]);
   * ```
   */
  not(query: SearchBuilder | SearchQuery): SearchBuilder {
    return new SearchBuilder(this.#all, [...this.#none, queryOf(query)]);
  }

  /**
   * The query DSL object, as `store.search()` sends it.
   *
   * @example
   * ```ts
   * import { search } from "./search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(JSON.stringify(search.owner("demo")), '{"all":[{"type":"owner","args":{"owner":"demo"}}]}');
   * ```
   */
  toJSON(): SearchQuery {
    return this.#none.length === 0 ? { all: this.#all } : { all: this.#all, none: this.#none };
  }

  #with(part: SearchClause | SearchQuery): SearchBuilder {
    return new SearchBuilder([...this.#all, part], this.#none);
  }
}

/**
 * The empty query to build on: `search.metadata("subject", "maize").under(path)`.
 *
 * @example
 * ```ts
 * import { search } from "./search_builder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(search.name("penguins").toJSON(), {
 *   all: [{ type: "label", args: { label: "penguins" } }],
 * });
 * ```
 */
export const search: SearchBuilder = new SearchBuilder();

function queryOf(query: SearchBuilder | SearchQuery): SearchQuery {
  return query instanceof SearchBuilder ? query.toJSON() : query;
}

function bounds<T>(
  range: { from?: T; to?: T },
  show: (value: T) => string,
): { from?: string; to?: string } {
  return {
    ...(range?.from === undefined ? {} : { from: show(range.from) }),
    ...(range?.to === undefined ? {} : { to: show(range.to) }),
  };
}

function dateText(value: DateBound): string {
  return value instanceof Date ? String(value.getTime()) : String(value);
}
