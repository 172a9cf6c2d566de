/**
 * A listing's manifest: one row per file with its path, id, size, date, the store's checksum,
 * table format, URL and how to read that URL — what another engine (Dask, DuckDB, Polars on
 * another machine) needs to read the same files without tern. A public file's URL is the
 * anonymous one the server's manifest endpoint gives; a private file's is Terrain's download
 * URL, read with the caller's token. No credential is ever written into a manifest.
 *
 * @module
 */

import type { DataFrame, DataType } from "../deps.ts";
import { loadPolars } from "../polars/adapter.ts";
import { type CallOptions, getManifest, readUrlOf } from "../client/endpoints.ts";
import { BadRequestError, SignInRequiredError } from "../client/errors.ts";
import { mapConcurrent } from "../client/map_concurrent.ts";
import { statPaths } from "../client/stat_many.ts";
import type { Transport } from "../client/transport.ts";
import { formatOfName } from "../registry/format_detection.ts";
import type { Entry } from "../client/entry.ts";

/**
 * The columns of a manifest, in order: `path`, `id`, `size` (bytes), `modified` (UTC datetime),
 * `checksum` (the store's own, `md5:<hex>` or `sha2:<base64>`; null where the store has none
 * yet, or an anonymous caller may not stat the file), `format` (the table format the name
 * promises, null for other files), `contentType` (the media type the server detected), `url`
 * (where another engine reads the file: the anonymous `dav-anon` URL of a public file,
 * Terrain's `fileio/download` URL of a private one) and `access` (`public`: read the URL with
 * no credentials; `token`: send the caller's access token as an `Authorization: Bearer`
 * header). The manifest's frame is built from this list.
 *
 * @example
 * ```ts
 * import { MANIFEST_COLUMNS } from "./manifest.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   MANIFEST_COLUMNS.join(","),
 *   "path,id,size,modified,checksum,format,contentType,url,access",
 * );
 * ```
 */
export const MANIFEST_COLUMNS = Object.freeze(
  ["path", "id", "size", "modified", "checksum", "format", "contentType", "url", "access"] as const,
);

/**
 * The manifest of `entries` (folders are skipped), in their order: one `file/manifest` request
 * per file, as many at a time as the store allows, and the store's checksums from one
 * `filesystem/stat` per 1,000 files. The first failure cancels the rest and is thrown.
 *
 * @example
 * ```ts
 * import { fileManifest } from "./manifest.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const folder = store.folder("/iplant/home/shared/tern_samples/formats");
 * const entries = await folder.list({ glob: "*.parquet" }).toArray();
 * const manifest = await fileManifest(store[STORE_CONTEXT].transport, entries);
 * assert.equal(manifest.getColumn("format").get(0), "parquet");
 * assert.ok(manifest.getColumn("url").get(0).includes("/dav-anon/"));
 * assert.match(manifest.getColumn("checksum").get(0), /^md5:[0-9a-f]{32}$/);
 * ```
 */
export async function fileManifest(
  transport: Transport,
  entries: readonly Entry[],
  options: CallOptions = {},
): Promise<DataFrame> {
  const files = entries.filter((entry) => entry.type === "file");
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal].filter((s) => s !== undefined));
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    stop.abort();
  };
  const [answers, stats] = await Promise.all([
    mapConcurrent(files, transport.policy.concurrency, async ({ path }, _, signal) => {
      const answer = await getManifest(transport, path, { signal });
      return { contentType: answer["content-type"], ...readUrlOf(transport, path, answer) };
    }, { signal }).catch((error) => {
      fail(error);
      return [];
    }),
    // The store's checksums: a path missing or unreadable by now has none (its file/manifest
    // request says what became of it); an anonymous caller may stat only community paths, so
    // outside them there are none.
    statPaths(transport, files.map((entry) => entry.path), { signal }).catch((error) => {
      if (!(error instanceof SignInRequiredError)) fail(error);
      return undefined;
    }),
  ]);
  if (failure !== undefined) throw failure.error;
  const pl = await loadPolars();
  // Each column's values and type, keyed by its name, so the frame has MANIFEST_COLUMNS' order.
  const columns: { [K in (typeof MANIFEST_COLUMNS)[number]]: [unknown[], DataType] } = {
    path: [files.map((entry) => entry.path), pl.Utf8],
    id: [files.map((entry) => entry.id), pl.Utf8],
    size: [files.map((entry) => entry.size), pl.Int64],
    modified: [files.map((entry) => entry.modified), pl.Datetime("ms", "UTC")],
    checksum: [files.map((entry) => stats?.entries.get(entry.path)?.checksum ?? null), pl.Utf8],
    format: [files.map((entry) => formatOfName(entry.name) ?? null), pl.Utf8],
    contentType: [answers.map((answer) => answer.contentType), pl.Utf8],
    url: [answers.map((answer) => answer.url), pl.Utf8],
    access: [answers.map((answer) => answer.access), pl.Utf8],
  };
  return pl.DataFrame(MANIFEST_COLUMNS.map((name) => pl.Series(name, ...columns[name])));
}

/**
 * Writes a manifest to `localPath` in the format its extension names — `.parquet` and `.csv`
 * with Polars' writers, `.json` as an array of row objects (dates as ISO 8601 strings) —
 * atomically: into a temporary file beside it, renamed over it once complete.
 *
 * @throws {BadRequestError} for another extension.
 *
 * @example
 * ```ts
 * import { writeManifest } from "./manifest.ts";
 * import pl from "../../polars.ts";
 * import assert from "node:assert/strict";
 *
 * const folder = await Deno.makeTempDir();
 * const frame = pl.DataFrame({ path: ["/a"], url: ["http://x/dav-anon/a"] });
 * await writeManifest(frame, `${folder}/manifest.parquet`);
 * assert.deepEqual(pl.readParquet(`${folder}/manifest.parquet`).toRecords(), frame.toRecords());
 * await writeManifest(frame, `${folder}/manifest.json`);
 * assert.deepEqual(JSON.parse(await Deno.readTextFile(`${folder}/manifest.json`)), frame.toRecords());
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function writeManifest(frame: DataFrame, localPath: string): Promise<void> {
  const kind = manifestFormatOf(localPath);
  if (kind === undefined) {
    throw new BadRequestError(
      `A manifest is written as .parquet, .csv or .json; got ${JSON.stringify(localPath)}.`,
    );
  }
  const temporary = `${localPath}.${crypto.randomUUID().slice(0, 8)}.tern-partial`;
  try {
    if (kind === "parquet") frame.writeParquet(temporary);
    else if (kind === "csv") frame.writeCSV(temporary);
    else {
      // One row per line: readable, and diffs of two manifests line up.
      const rows = frame.toRecords().map((row) => JSON.stringify(row));
      await Deno.writeTextFile(temporary, `[\n${rows.join(",\n")}\n]\n`);
    }
    await Deno.rename(temporary, localPath);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

/**
 * The manifest format a file name's extension names, `undefined` for another.
 *
 * @example
 * ```ts
 * import { manifestFormatOf } from "./manifest.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(manifestFormatOf("flights.CSV"), "csv");
 * assert.equal(manifestFormatOf("flights.txt"), undefined);
 * ```
 */
export function manifestFormatOf(localPath: string): "parquet" | "csv" | "json" | undefined {
  const kind = /\.(parquet|csv|json)$/i.exec(localPath)?.[1].toLowerCase();
  return kind as "parquet" | "csv" | "json" | undefined;
}
