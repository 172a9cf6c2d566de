/**
 * A listing's manifest: one row per file with its path, id, size, date, table format and public
 * URL — what another engine (DuckDB, Spark, Dask, Polars on another machine) needs to read the
 * same files without tern. The URLs are the ones the server's manifest endpoint gives.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import { loadPolarsModule } from "../deps.ts";
import { type CallOptions, getManifest, publicUrlOf } from "../client/endpoints.ts";
import { BadRequestError, isAbortError } from "../client/errors.ts";
import type { Transport } from "../client/transport.ts";
import { formatOfName } from "../data/formats.ts";
import type { Entry } from "../client/entry.ts";

/**
 * The columns of a manifest, in order: `path`, `id`, `size` (bytes), `modified` (UTC datetime),
 * `format` (the table format the name promises, null for other files), `contentType` (the media
 * type the server detected) and `url` (the anonymous URL, null for a file only its owner and
 * those it is shared with may read).
 *
 * @example
 * ```ts
 * import { MANIFEST_COLUMNS } from "./manifest.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MANIFEST_COLUMNS.join(","), "path,id,size,modified,format,contentType,url");
 * ```
 */
export const MANIFEST_COLUMNS: readonly string[] = Object.freeze([
  "path",
  "id",
  "size",
  "modified",
  "format",
  "contentType",
  "url",
]);

/**
 * The manifest of `entries` (folders are skipped), in their order: one `file/manifest` request
 * per file, `concurrency` at a time (default: the store's). The first failure cancels the rest
 * and is thrown.
 *
 * @throws {BadRequestError} when `concurrency` is not an integer ≥ 1.
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
 * ```
 */
export async function fileManifest(
  transport: Transport,
  entries: readonly Entry[],
  options: CallOptions & { concurrency?: number } = {},
): Promise<DataFrame> {
  const concurrency = options.concurrency ?? transport.policy.concurrency;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new BadRequestError(`concurrency must be an integer ≥ 1, got ${String(concurrency)}.`);
  }
  const files = entries.filter((entry) => entry.type === "file");
  const answers: { contentType: string; url: string | null }[] = new Array(files.length);
  const stop = new AbortController();
  const signal = options.signal === undefined
    ? stop.signal
    : AbortSignal.any([options.signal, stop.signal]);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < files.length && failure === undefined) {
      const index = next++;
      try {
        const answer = await getManifest(transport, files[index].path, { signal });
        answers[index] = {
          contentType: answer["content-type"],
          url: publicUrlOf(answer) ?? null,
        };
      } catch (error) {
        if (failure === undefined && !(isAbortError(error) && stop.signal.aborted)) {
          failure = { error };
          stop.abort();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  if (failure !== undefined) throw failure.error;
  const { default: pl } = await loadPolarsModule();
  return pl.DataFrame([
    pl.Series("path", files.map((entry) => entry.path), pl.Utf8),
    pl.Series("id", files.map((entry) => entry.id), pl.Utf8),
    pl.Series("size", files.map((entry) => entry.size), pl.Int64),
    pl.Series("modified", files.map((entry) => entry.modified), pl.Datetime("ms", "UTC")),
    pl.Series("format", files.map((entry) => formatOfName(entry.name) ?? null), pl.Utf8),
    pl.Series("contentType", answers.map((answer) => answer.contentType), pl.Utf8),
    pl.Series("url", answers.map((answer) => answer.url), pl.Utf8),
  ]);
}

/**
 * Writes a manifest to `localPath` with Polars' writer for its extension (`.parquet` or `.csv`),
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
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function writeManifest(frame: DataFrame, localPath: string): Promise<void> {
  const kind = /\.(parquet|csv)$/i.exec(localPath)?.[1].toLowerCase();
  if (kind === undefined) {
    throw new BadRequestError(
      `A manifest is written as .parquet or .csv; got ${JSON.stringify(localPath)}.`,
    );
  }
  const temporary = `${localPath}.${crypto.randomUUID().slice(0, 8)}.tern-partial`;
  try {
    if (kind === "parquet") frame.writeParquet(temporary);
    else frame.writeCSV(temporary);
    await Deno.rename(temporary, localPath);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}
