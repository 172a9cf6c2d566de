/**
 * Saved searches: the Discovery Environment's query templates (terrain-api.md §4.13), typed, and
 * {@linkcode savedSearchQuery}, which turns one into the query DSL the way the DE's query builder
 * (`DataSearchQueryBuilder.getFullQuery`) did.
 *
 * @module
 */

import { loadZodModule, type z as Z } from "../deps.ts";
import { BadRequestError, quoteInput } from "./errors.ts";
import type { SearchClause, SearchQuery } from "./search_query.ts";

const { z } = await loadZodModule();

/**
 * A date range of a saved search template: milliseconds since 1970, as the Discovery Environment
 * stored them (strings or numbers), with the label it showed.
 *
 * @example
 * ```ts
 * import type { TemplateRange } from "./saved_search.ts";
 *
 * const lastYear: TemplateRange = { label: "2024", from: "1704067200000", to: "1735689599999" };
 * ```
 */
export interface TemplateRange {
  /** What the Discovery Environment showed ("Last 30 days"); a range without one it ignored. */
  label?: string | null;
  /** Start, in milliseconds since 1970. */
  from?: string | number | null;
  /** End, in milliseconds since 1970. */
  to?: string | number | null;
  /** Fields tern does not know, kept as they came. */
  [field: string]: unknown;
}

/**
 * A size unit of a saved search template: `{ unit, label }`, or the label alone.
 *
 * @example
 * ```ts
 * import type { TemplateUnit } from "./saved_search.ts";
 *
 * const mb: TemplateUnit = { unit: "MB", label: "MB" };
 * ```
 */
export type TemplateUnit =
  | { unit?: string | null; label: string; [field: string]: unknown }
  | string;

/**
 * A saved search template, as parsed: the fields the Discovery Environment wrote, and any other
 * field as it came.
 *
 * @example
 * ```ts
 * import type { SavedSearch } from "./saved_search.ts";
 *
 * const name = (saved: SavedSearch) => saved.label;
 * ```
 */
export interface SavedSearch {
  /** The search's name. */
  label: string;
  /** Name pattern. */
  fileQuery?: string | null;
  /** Name pattern to leave out. */
  negatedFileQuery?: string | null;
  /** Owner's username. */
  ownedBy?: string | null;
  /** A user it is shared with. */
  sharedWith?: string | null;
  /** Metadata attribute. */
  metadataAttributeQuery?: string | null;
  /** Metadata value. */
  metadataValueQuery?: string | null;
  /** Tag ids. */
  tagQuery?: string | string[] | null;
  /** Creation range. */
  createdWithin?: TemplateRange | null;
  /** Modification range. */
  modifiedWithin?: TemplateRange | null;
  /** Size range. */
  fileSizeRange?: {
    min?: number | null;
    max?: number | null;
    minUnit?: TemplateUnit | null;
    maxUnit?: TemplateUnit | null;
    [field: string]: unknown;
  } | null;
  /** Whether trash is searched too. */
  includeTrashItems?: boolean | null;
  /** Unused by the DE's query builder. */
  pathPrefix?: string | null;
  /** Fields tern does not know, as they came. */
  [field: string]: unknown;
}

/**
 * The schema of one saved search template, built on the first call (only `store.savedSearches()`
 * reads templates). Unknown fields are kept as they came.
 *
 * @example
 * ```ts
 * import { savedSearchSchema } from "./saved_search.ts";
 * import assert from "node:assert/strict";
 *
 * const saved = savedSearchSchema().parse({ label: "csv", fileQuery: "*.csv", colour: "blue" });
 * assert.equal(saved.colour, "blue");
 * assert.equal(savedSearchSchema(), savedSearchSchema());
 * ```
 */
export function savedSearchSchema(): Z.ZodType<SavedSearch> {
  return savedSearchMemo ??= buildSchema();
}

/** The template schema, built on first use: a lazily built immutable singleton. */
let savedSearchMemo: Z.ZodType<SavedSearch> | undefined;

function buildSchema(): Z.ZodType<SavedSearch> {
  const millisText = z.union([z.string(), z.number()]);
  const dateRange = z.looseObject({
    label: z.string().nullish(),
    from: millisText.nullish(),
    to: millisText.nullish(),
  });
  const unit = z.union([
    z.looseObject({ unit: z.string().nullish(), label: z.string() }),
    z.string(),
  ]);
  return z.looseObject({
    label: z.string(),
    fileQuery: z.string().nullish(),
    negatedFileQuery: z.string().nullish(),
    ownedBy: z.string().nullish(),
    sharedWith: z.string().nullish(),
    metadataAttributeQuery: z.string().nullish(),
    metadataValueQuery: z.string().nullish(),
    tagQuery: z.union([z.string(), z.array(z.string())]).nullish(),
    createdWithin: dateRange.nullish(),
    modifiedWithin: dateRange.nullish(),
    fileSizeRange: z.looseObject({
      min: z.number().nullish(),
      max: z.number().nullish(),
      minUnit: unit.nullish(),
      maxUnit: unit.nullish(),
    }).nullish(),
    includeTrashItems: z.boolean().nullish(),
    pathPrefix: z.string().nullish(),
  });
}

/**
 * Where a search that skips trash looks (the DE's `includeTrashItems: false`).
 *
 * @example
 * ```ts
 * import { HOME_PREFIX } from "./saved_search.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(HOME_PREFIX, "/iplant/home");
 * ```
 */
export const HOME_PREFIX = "/iplant/home";

/**
 * The query the Discovery Environment ran for a template: `ownedBy` → `owner`; `sharedWith` →
 * `permissions`; `createdWithin` / `modifiedWithin` (only with a `label`, as the DE did) →
 * `created` / `modified`; `fileQuery` → `label`; `negatedFileQuery` → a `label` in `none`;
 * `fileSizeRange` → `size` (`"<n><unit label>"`); the metadata attribute and value → one
 * `metadata` clause; `tagQuery` → `tag`; `includeTrashItems` true → a `path` under the trash in
 * `any`, otherwise a `path` under `/iplant/home` in `all`. `pathPrefix` was unused, and is.
 *
 * @param trash The store's trash base path (for `includeTrashItems`).
 * @throws {BadRequestError} naming the field of a template that cannot be translated (a size
 * without a unit, a date that is not milliseconds, a template with no criteria).
 *
 * @example
 * ```ts
 * import { savedSearchQuery } from "./saved_search.ts";
 * import assert from "node:assert/strict";
 *
 * const query = savedSearchQuery({
 *   label: "maize",
 *   metadataAttributeQuery: "subject",
 *   metadataValueQuery: "maize",
 *   includeTrashItems: false,
 * }, "/iplant/trash/home/de-irods");
 * assert.deepEqual(query, {
 *   all: [
 *     { type: "metadata", args: { attribute: "subject", value: "maize" } },
 *     { type: "path", args: { prefix: "/iplant/home" } },
 *   ],
 * });
 * ```
 */
export function savedSearchQuery(saved: SavedSearch, trash: string): SearchQuery {
  const name = saved.label;
  const fail = (field: string, why: string): never => {
    throw new BadRequestError(
      `The saved search ${quoteInput(name)} cannot be run: its ${field} ${why}.`,
    );
  };
  const all: SearchClause[] = [];
  const none: SearchClause[] = [];
  const any: SearchClause[] = [];
  if (saved.ownedBy) all.push({ type: "owner", args: { owner: saved.ownedBy } });
  if (saved.sharedWith) {
    all.push({ type: "permissions", args: { users: [saved.sharedWith], permission: "read" } });
  }
  for (const field of ["createdWithin", "modifiedWithin"] as const) {
    const range = saved[field];
    if (!range?.label) continue;
    const bound = (value: string | number | null | undefined, end: string) => {
      if (value === null || value === undefined || value === "") return {};
      if (!/^\d+$/.test(String(value))) {
        fail(`${field}.${end}`, `is ${quoteInput(value)}, not milliseconds`);
      }
      return { [end]: String(value) };
    };
    const args = { ...bound(range.from, "from"), ...bound(range.to, "to") };
    if (Object.keys(args).length === 0) fail(field, "has neither from nor to");
    all.push({ type: field === "createdWithin" ? "created" : "modified", args });
  }
  if (saved.fileQuery) all.push({ type: "label", args: { label: saved.fileQuery } });
  if (saved.negatedFileQuery) none.push({ type: "label", args: { label: saved.negatedFileQuery } });
  const sizes = saved.fileSizeRange;
  if (sizes) {
    const size = (value: number | null | undefined, u: unknown, end: "min" | "max") => {
      if (value === null || value === undefined) return undefined;
      const label = typeof u === "string" ? u : (u as { label?: string } | null)?.label;
      if (!label) fail(`fileSizeRange.${end}Unit`, "is missing (a size needs its unit)");
      if (!/^(B|KB|MB|GB|TB)$/i.test(label!)) {
        fail(`fileSizeRange.${end}Unit`, `is ${quoteInput(label)}, not B, KB, MB, GB or TB`);
      }
      return `${value.toFixed(1)}${label}`;
    };
    const from = size(sizes.min, sizes.minUnit, "min");
    const to = size(sizes.max, sizes.maxUnit, "max");
    if (from !== undefined || to !== undefined) {
      all.push({
        type: "size",
        args: { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) },
      });
    }
  }
  const attribute = saved.metadataAttributeQuery || undefined;
  const value = saved.metadataValueQuery || undefined;
  if (attribute !== undefined || value !== undefined) {
    all.push({
      type: "metadata",
      args: {
        ...(attribute === undefined ? {} : { attribute }),
        ...(value === undefined ? {} : { value }),
      },
    });
  }
  const tags = typeof saved.tagQuery === "string" ? [saved.tagQuery] : saved.tagQuery ?? [];
  if (tags.length > 0) all.push({ type: "tag", args: { tags } });
  if (all.length + none.length === 0) {
    fail("fields", "hold no criteria (no fileQuery, ownedBy, metadata, dates, size or tags)");
  }
  if (saved.includeTrashItems) any.push({ type: "path", args: { prefix: trash } });
  else all.push({ type: "path", args: { prefix: HOME_PREFIX } });
  return {
    ...(all.length > 0 ? { all } : {}),
    ...(any.length > 0 ? { any: [...any, { type: "path", args: { prefix: HOME_PREFIX } }] } : {}),
    ...(none.length > 0 ? { none } : {}),
  };
}
