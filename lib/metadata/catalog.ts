/**
 * Catalogs: one row per dataset, built from normalised records, with datasets that share a
 * title flagged (never merged: identity is the folder's id and path). nodejs-polars is loaded
 * only when a frame is built.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import type { DatasetMetadata } from "./dataset_metadata.ts";
import { loadPolars } from "../polars/adapter.ts";

/**
 * One catalog row.
 *
 * @example
 * ```ts
 * import type { CatalogRow } from "./catalog.ts";
 *
 * const describe = (row: CatalogRow) => `${row.title ?? "(untitled)"} — ${row.doi ?? row.path}`;
 * ```
 */
export interface CatalogRow {
  /** The dataset folder's path. */
  path: string;
  /** The folder's id (null when unknown). */
  id: string | null;
  /** Title. */
  title: string | null;
  /** Creator names, in citation order. */
  creators: string[];
  /** Publication year. */
  year: number | null;
  /** DOI, canonical. */
  doi: string | null;
  /** ARK, canonical. */
  ark: string | null;
  /** SPDX licence id or expression. */
  license: string | null;
  /** How the licence id was reached (`exact`, `alias`, `guess`, `unknown`). */
  licenseConfidence: string | null;
  /** Subjects. */
  subjects: string[];
  /** Last modification. */
  dateModified: Date | null;
  /** True when another dataset in the catalog has the same title (case and spacing aside). */
  duplicateTitle: boolean;
  /** Marked deprecated. */
  deprecated: boolean;
  /** What a complete citation still lacks. */
  missing: string[];
  /** Why the dataset's metadata could not be read (the other fields are then empty). */
  error: string | null;
}

/**
 * A dataset whose metadata could not be read, for a row that says so instead of a gap.
 *
 * @example
 * ```ts
 * import type { CatalogFailure } from "./catalog.ts";
 *
 * const failure: CatalogFailure = { path: "/iplant/home/shared/x", error: "not readable" };
 * ```
 */
export interface CatalogFailure {
  /** The dataset folder's path. */
  path: string;
  /** Its id, when known. */
  id?: string;
  /** What went wrong. */
  error: string;
}

/**
 * The comparison key of a title: case-folded, whitespace collapsed, trailing punctuation
 * dropped, so `Daily weather.` and `daily  weather` count as the same title.
 *
 * @example
 * ```ts
 * import { titleKey } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(titleKey(" Daily  Weather. "), titleKey("daily weather"));
 * ```
 */
export function titleKey(title: string): string {
  return title.normalize("NFKC").toLocaleLowerCase("en-US").replace(/\s+/g, " ").trim()
    .replace(/(?<![\s.;:,!])[\s.;:,!]+$/, "");
}

/**
 * Catalog rows for records (and failures), in the given order, with `duplicateTitle` set on
 * every record whose title another record shares.
 *
 * @example
 * ```ts
 * import { catalogRows } from "./catalog.ts";
 * import { normalizeMetadata } from "./normalize.ts";
 * import assert from "node:assert/strict";
 *
 * const a = await normalizeMetadata({ path: "/d/a", avus: [{ attr: "title", value: "Weather" }] });
 * const b = await normalizeMetadata({ path: "/d/b", avus: [{ attr: "datacite.title", value: "weather" }] });
 * const rows = catalogRows([a, b, { path: "/d/c", error: "not readable" }]);
 * assert.deepEqual(rows.map((row) => row.duplicateTitle), [true, true, false]);
 * ```
 */
export function catalogRows(
  items: readonly (DatasetMetadata | CatalogFailure)[],
): CatalogRow[] {
  const titles = items.flatMap((item) => isFailure(item) ? [] : [titleKey(item.title ?? "")]);
  const counts = Map.groupBy(titles.filter((key) => key !== ""), (key) => key);
  return items.map((item) => {
    if (isFailure(item)) {
      return { ...emptyRow(), path: item.path, id: item.id ?? null, error: item.error };
    }
    return {
      path: item.path,
      id: item.id ?? null,
      title: item.title ?? null,
      creators: item.creators.map((creator) => creator.name),
      year: item.publicationYear ?? null,
      doi: item.doi ?? null,
      ark: item.ark ?? null,
      license: item.license?.id ?? null,
      licenseConfidence: item.license?.confidence ?? null,
      subjects: [...item.subjects],
      dateModified: item.dateModified ?? null,
      duplicateTitle: item.title !== undefined &&
        (counts.get(titleKey(item.title))?.length ?? 0) > 1,
      deprecated: item.deprecated,
      missing: [...item.missing],
      error: null,
    };
  });
}

/** A row of nothing, with lists of its own. */
const emptyRow = (): CatalogRow => ({
  path: "",
  id: null,
  title: null,
  creators: [],
  year: null,
  doi: null,
  ark: null,
  license: null,
  licenseConfidence: null,
  subjects: [],
  dateModified: null,
  duplicateTitle: false,
  deprecated: false,
  missing: [],
  error: null,
});

/**
 * Catalog rows as a nodejs-polars DataFrame: strings as Utf8 (null when absent), `creators`,
 * `subjects` and `missing` as lists of strings, `year` as Int32, `dateModified` as a UTC
 * millisecond datetime, the flags as booleans. Zero rows give an empty frame with the same
 * schema.
 *
 * @example
 * ```ts
 * import { catalogFrame } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * const frame = await catalogFrame([]);
 * assert.equal(frame.height, 0);
 * assert.equal(frame.columns.length, 15);
 * ```
 */
export async function catalogFrame(rows: readonly CatalogRow[]): Promise<DataFrame> {
  const pl = await loadPolars();
  const text = (name: keyof CatalogRow) =>
    pl.Series(name, rows.map((row) => row[name] as string | null), pl.Utf8);
  const list = (name: "creators" | "subjects" | "missing") =>
    // An all-empty list column would be typed List(Null); cast it to List(Utf8).
    pl.Series(name, rows.map((row) => row[name]), pl.List(pl.Utf8)).cast(pl.List(pl.Utf8));
  const flag = (name: "duplicateTitle" | "deprecated") =>
    pl.Series(name, rows.map((row) => row[name]), pl.Bool);
  if (rows.length === 0) {
    const one = await catalogFrame([{
      ...emptyRow(),
      creators: [""],
      subjects: [""],
      missing: [""],
    }]);
    return one.head(0);
  }
  return pl.DataFrame([
    text("path"),
    text("id"),
    text("title"),
    list("creators"),
    // Int32 with nulls reads nulls as 0 in nodejs-polars 0.25; go through Float64.
    pl.Series("year", rows.map((row) => row.year), pl.Float64).cast(pl.Int32),
    text("doi"),
    text("ark"),
    text("license"),
    text("licenseConfidence"),
    list("subjects"),
    pl.Series("dateModified", rows.map((row) => row.dateModified), pl.Datetime("ms", "UTC")),
    flag("duplicateTitle"),
    flag("deprecated"),
    list("missing"),
    text("error"),
  ]);
}

function isFailure(item: DatasetMetadata | CatalogFailure): item is CatalogFailure {
  return typeof (item as CatalogFailure).error === "string";
}
