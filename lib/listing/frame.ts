/**
 * Entries as a nodejs-polars DataFrame. nodejs-polars is a native addon, so it is loaded on
 * first use: importing tern does not need `--allow-ffi` unless a frame is built.
 *
 * @module
 */

import type { DataFrame, DataType } from "../deps.ts";
import type { Entry } from "../client/entry.ts";
import { loadPolars } from "../polars/adapter.ts";

/**
 * The columns of {@linkcode entriesToDataFrame}, in order.
 *
 * @example
 * ```ts
 * import { ENTRY_COLUMNS } from "./frame.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   ENTRY_COLUMNS.join(", "),
 *   "path, name, type, size, created, modified, infoType, id, permission",
 * );
 * ```
 */
export const ENTRY_COLUMNS: readonly (keyof Entry)[] = Object.freeze([
  "path",
  "name",
  "type",
  "size",
  "created",
  "modified",
  "infoType",
  "id",
  "permission",
]);

/**
 * Builds a DataFrame with one row per entry: `path`, `name`, `type`, `permission`, `id` and
 * `infoType` (null for folders) as strings, `size` as Int64, `created` and `modified` as UTC
 * millisecond datetimes. An empty input gives an empty frame with the same schema. Entries are
 * read straight into columns, so a listing is never held twice.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { entriesToDataFrame } from "./frame.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const listing = store.folder("/iplant/home/shared/tern_samples/formats").list();
 * const frame = await entriesToDataFrame(listing);
 * assert.deepEqual(frame.shape, { height: 9, width: 9 });
 * ```
 */
export async function entriesToDataFrame(
  entries: Iterable<Entry> | AsyncIterable<Entry>,
): Promise<DataFrame> {
  const pl = await loadPolars();
  const columns = ENTRY_COLUMNS.map(() => [] as unknown[]);
  for await (const entry of entries) {
    for (let i = 0; i < columns.length; i++) columns[i].push(entry[ENTRY_COLUMNS[i]]);
  }
  const datetime = pl.Datetime("ms", "UTC");
  const types: Partial<Record<keyof Entry, DataType>> = {
    size: pl.Int64,
    created: datetime,
    modified: datetime,
  };
  return pl.DataFrame(
    ENTRY_COLUMNS.map((name, i) => pl.Series(name, columns[i], types[name] ?? pl.Utf8)),
  );
}
