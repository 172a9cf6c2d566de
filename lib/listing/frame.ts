/**
 * Entries as a nodejs-polars DataFrame. nodejs-polars is a native addon, so it is loaded on
 * first use: importing tern does not need `--allow-ffi` unless a frame is built.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
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
export const ENTRY_COLUMNS: readonly string[] = Object.freeze([
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
  const columns = {
    path: [] as string[],
    name: [] as string[],
    type: [] as string[],
    size: [] as number[],
    created: [] as Date[],
    modified: [] as Date[],
    infoType: [] as (string | null)[],
    id: [] as string[],
    permission: [] as string[],
  };
  for await (const entry of entries) {
    columns.path.push(entry.path);
    columns.name.push(entry.name);
    columns.type.push(entry.type);
    columns.size.push(entry.size);
    columns.created.push(entry.created);
    columns.modified.push(entry.modified);
    columns.infoType.push(entry.infoType);
    columns.id.push(entry.id);
    columns.permission.push(entry.permission);
  }
  const datetime = pl.Datetime("ms", "UTC");
  return pl.DataFrame([
    pl.Series("path", columns.path, pl.Utf8),
    pl.Series("name", columns.name, pl.Utf8),
    pl.Series("type", columns.type, pl.Utf8),
    pl.Series("size", columns.size, pl.Int64),
    pl.Series("created", columns.created, datetime),
    pl.Series("modified", columns.modified, datetime),
    pl.Series("infoType", columns.infoType, pl.Utf8),
    pl.Series("id", columns.id, pl.Utf8),
    pl.Series("permission", columns.permission, pl.Utf8),
  ]);
}
