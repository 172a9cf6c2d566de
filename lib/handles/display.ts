/**
 * What the handles' notebook views show, fetched through the handles' transport with as few
 * requests as possible, and handed to the pure renderers of `lib/display` as plain data. Kept
 * apart from the handle classes so that they only gain their display methods.
 *
 * The client's errors and the metadata's records render in notebooks too, but their layers do
 * not import `lib/display` (see docs/architecture.md): this module, loaded with every handle,
 * gives {@linkcode TernError}, {@linkcode DatasetMetadata} and {@linkcode Citation} their
 * notebook views, turning each into the renderer's plain view data.
 *
 * @module
 */

import { type CallOptions, getMetadata, getPagedDirectory } from "../client/endpoints.ts";
import { TernError } from "../client/errors.ts";
import { definedOf } from "../client/defined.ts";
import {
  extensionOf,
  formatOfExtension,
  formatOfInfoType,
  type TableFormat,
} from "../registry/file_formats.ts";
import type { DataFrameOptions } from "../data/options.ts";
import { DECIMAL_COMMA_NUMBER } from "../data/records.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderCitation } from "../display/citation.ts";
import { renderError } from "../display/error.ts";
import { renderEngines, withEngines } from "../display/engines.ts";
import { withDisplay } from "../display/attach.ts";
import { renderMetadata } from "../display/metadata.ts";
import { CITATION_STYLES, resolverLinks } from "../metadata/citation.ts";
import { Citation } from "../metadata/cite.ts";
import { frameView } from "../frames/view.ts";
import { columnsOfType } from "../polars/adapter.ts";
import type { DataFrame } from "../deps.ts";
import type { Transport } from "../client/transport.ts";
import type { DatasetCardView } from "../display/dataset.ts";
import type { DatasetRow } from "../display/datasets.ts";
import type { FileView, TablePreview } from "../display/file.ts";
import { formatBytes, formatDateTime } from "../display/format.ts";
import { type EntryRow, type ListingView, renderListing } from "../display/listing.ts";
import { type Entry, entryFromItem, folderEntry } from "../client/entry.ts";
import { type CatalogFailure, titleKey } from "../metadata/catalog.ts";
import { DatasetMetadata } from "../metadata/dataset_metadata.ts";
import { normalizeMetadata } from "../metadata/normalize.ts";
import { baseName, parentPath } from "../client/paths.ts";
import { engineSnippets, snippetPlan, TOKEN_VARIABLE } from "../listing/engines.ts";

declare module "../client/errors.ts" {
  interface TernError {
    /**
     * The notebook view: the error's type, what failed and where, its path, Terrain's code, the
     * HTTP status and endpoint, and what usually fixes it; never the stack or the cause.
     */
    [JUPYTER_DISPLAY](): MediaBundle;
  }
}

declare module "../metadata/dataset_metadata.ts" {
  interface DatasetMetadata {
    /**
     * The notebook view: each normalised field beside the attribute it came from, what a
     * citation still lacks, the normaliser's notes, and the AVUs as served.
     */
    [JUPYTER_DISPLAY](): MediaBundle;
  }
}

declare module "../metadata/cite.ts" {
  interface Citation {
    /**
     * The notebook view: the citation in a box of selectable text, the other styles collapsed
     * below it; `text/plain` is the citation alone.
     */
    [JUPYTER_DISPLAY](): MediaBundle;
  }
}

/** Gives every instance of `type` a notebook view drawn by `render`. */
function showInNotebooks<T>(
  type: { prototype: T },
  render: (value: T) => MediaBundle,
): void {
  Object.defineProperty(type.prototype, JUPYTER_DISPLAY, {
    value(this: T): MediaBundle {
      return render(this);
    },
    enumerable: false,
    writable: true,
    configurable: true,
  });
}

showInNotebooks(
  TernError,
  (error) =>
    renderError(definedOf(error, ["name", "message", "path", "code", "status", "endpoint"])),
);

showInNotebooks(
  DatasetMetadata,
  (metadata) => renderMetadata({ ...metadata, ...resolverLinks(metadata) }),
);

showInNotebooks(Citation, (citation) =>
  renderCitation({
    ...definedOf(citation, ["style", "text", "title", "url"]),
    others: CITATION_STYLES.filter((each) => each !== citation.style)
      .map((each) => [each, citation.formats[each]] as const),
  }));

/** Rows a folder view shows: enough to recognise a folder, few enough to keep a notebook light. */
const FOLDER_ROWS = 25;

/** Entries of a dataset read for its file summary (one request). */
const DATASET_ENTRIES = 100;

/** Most sibling datasets whose titles a dataset card compares with its own. */
const MAX_SIBLINGS = 24;

/**
 * A handle's notebook view, or, when making it fails with a tern error, that error's card: a
 * cell showing a handle never fails for a problem tern can explain (a missing file, no access).
 *
 * @example
 * ```ts
 * import { NotFoundError } from "../client/errors.ts";
 * import { viewOrError } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const card = await viewOrError(() => Promise.reject(new NotFoundError("gone")));
 * assert.match(card["text/plain"], /gone/);
 * await assert.rejects(() => viewOrError(() => Promise.reject(new TypeError("a bug"))), TypeError);
 * ```
 */
export async function viewOrError(view: () => Promise<MediaBundle>): Promise<MediaBundle> {
  try {
    return await view();
  } catch (error) {
    if (error instanceof TernError) return error[JUPYTER_DISPLAY]();
    throw error;
  }
}

/**
 * A listing entry as a table row.
 *
 * @example
 * ```ts
 * import { entryRow } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const row = entryRow({
 *   id: "x", path: "/a/b.csv", name: "b.csv", type: "file", size: 3, created: new Date(0),
 *   modified: new Date(0), infoType: "csv", permission: "read",
 * });
 * assert.equal(row.name, "b.csv");
 * assert.equal(row.size, 3);
 * ```
 */
export function entryRow(entry: Entry, name: string = entry.name): EntryRow {
  const { type, size, modified, infoType } = entry;
  return { name, type, size, modified, infoType };
}

/** Entries an array's view shows; the rest are counted. */
const ARRAY_ROWS = 25;

/**
 * `entries` (what a listing's or a search's `take(n)` or `toArray()` gives) unchanged, a plain
 * array, with a notebook view: the listing view of its first 25 entries under `kind` and
 * `title`, each named by `name`, and how many there are. Without it a notebook shows the array as
 * a dump of objects.
 *
 * @example
 * ```ts
 * import { withEntriesView } from "./display.ts";
 * import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = {
 *   id: "x", path: "/a/b.csv", name: "b.csv", type: "file", size: 3, created: new Date(0),
 *   modified: new Date(0), infoType: "csv", permission: "read",
 * } as const;
 * const entries = withEntriesView([entry], "Entries", "list /a");
 * assert.deepEqual(entries, [entry]);
 * const view = (entries as unknown as { [JUPYTER_DISPLAY](): MediaBundle })[JUPYTER_DISPLAY]();
 * assert.equal(view["text/plain"].split("\n")[0], "Entries list /a — 1 entry");
 * ```
 */
export function withEntriesView<T extends Entry>(
  entries: T[],
  kind: string,
  title: string,
  name: (entry: T) => string = (entry) => entry.name,
): T[] {
  return withDisplay(entries, () =>
    renderListing({
      kind,
      title,
      entries: entries.slice(0, ARRAY_ROWS).map((entry) => entryRow(entry, name(entry))),
      total: entries.length,
      more: entries.length > ARRAY_ROWS,
      hint: "index the array for every entry",
    }));
}

/** The folder's own entry and its first entries, from one paged-listing request. */
async function firstPage(
  transport: Transport,
  path: string,
  limit: number,
  options: CallOptions = {},
): Promise<{ folder: Entry; entries: Entry[]; total: number }> {
  const page = await getPagedDirectory(
    transport,
    { path, limit, sortCol: "name", sortDir: "ASC" },
    options,
  );
  const entries = [
    ...page.folders.map((item) => entryFromItem(item, "folder")),
    ...page.files.map((item) => entryFromItem(item, "file")),
  ];
  return { folder: folderEntry(page), entries, total: page.total ?? entries.length };
}

/**
 * The folder view: the folder's first entries by name, its total and its own dates, from one
 * request.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { folderView } from "./display.ts";
 * import { STORE_CONTEXT } from "./store_context.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats";
 * const view = await folderView(store[STORE_CONTEXT].transport, path);
 * assert.equal(view.total, 9);
 * assert.equal(view.entries[0].name, "README.txt");
 * ```
 */
export async function folderView(transport: Transport, path: string): Promise<ListingView> {
  const { folder, entries, total } = await firstPage(transport, path, FOLDER_ROWS);
  return {
    kind: "Folder",
    title: baseName(path),
    path,
    facts: [`modified ${formatDateTime(folder.modified)} UTC`, folder.permission],
    entries: entries.map((entry) => entryRow(entry)),
    total,
    more: entries.length < total,
    hint: "iterate folder.list() for every entry",
  };
}

/**
 * The dataset card's data: the normalised metadata (given), the citation, the first entries for
 * the file summary, and the sibling datasets that carry the same title.
 *
 * Siblings: when the parent folder has at most 24 other sub-folders, all of them are compared;
 * otherwise those whose name starts like this one's (`NOAA_…`, after any `_deprecated_`
 * prefix), at most 24 — a bounded check, so that a card in a folder of hundreds of datasets
 * still costs a handful of requests. A sibling that cannot be read is skipped.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { datasetView } from "./display.ts";
 * import { STORE_CONTEXT } from "./store_context.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const curated = "/iplant/home/shared/commons_repo/curated";
 * const dataset = store.dataset(`${curated}/NOAA_SeattleWeather_Daily_2016`);
 * const view = await datasetView(store[STORE_CONTEXT].transport, await dataset.metadata());
 * assert.deepEqual(
 *   view.duplicates.map((sibling) => sibling.name),
 *   ["NOAA_SeattleWeather_Daily_Jun2019"],
 * );
 * ```
 */
export async function datasetView(
  transport: Transport,
  metadata: DatasetMetadata,
): Promise<DatasetCardView> {
  const path = metadata.path;
  const [contents, citation, duplicates] = await Promise.all([
    firstPage(transport, path, DATASET_ENTRIES),
    metadata.citation("datacite"),
    metadata.title === undefined
      ? Promise.resolve([])
      : sameTitleSiblings(transport, path, metadata.title),
  ]);
  return {
    path,
    name: baseName(path),
    metadata: { ...metadata, ...resolverLinks(metadata) },
    hasMetadata: metadata.raw.avus.length + metadata.raw.irodsAvus.length > 0,
    citation,
    contents: {
      entries: contents.entries.map((entry) => entryRow(entry)),
      total: contents.total,
    },
    duplicates,
  };
}

/** The leading word of a dataset folder name, which Data Commons names `Author_Topic_Date`. */
function stem(name: string): string {
  return name.replace(/^_deprecated_/i, "").split(/[_\s-]/)[0].toLowerCase();
}

async function sameTitleSiblings(
  transport: Transport,
  path: string,
  title: string,
): Promise<{ path: string; name: string }[]> {
  const parent = parentPath(path);
  if (parent === "/") return [];
  const page = await getPagedDirectory(transport, {
    path: parent,
    limit: 1000,
    entityType: "folder",
    sortCol: "name",
    sortDir: "ASC",
  }).catch(() => undefined);
  // The card can do without the check; it never claims a title is unique.
  if (page === undefined) return [];
  const siblings = page.folders.filter((folder) => folder.path !== path);
  const key = stem(baseName(path));
  const candidates =
    (siblings.length <= MAX_SIBLINGS
      ? siblings
      : siblings.filter((folder) => stem(baseName(folder.path)) === key)).slice(0, MAX_SIBLINGS);
  const wanted = titleKey(title);
  const found = await Promise.all(candidates.map(async (folder) => {
    try {
      const raw = await getMetadata(transport, folder.id);
      const record = await normalizeMetadata({
        path: raw.path,
        avus: raw.avus,
        irodsAvus: raw["irods-avus"],
      });
      return record.title !== undefined && titleKey(record.title) === wanted
        ? { path: folder.path, name: baseName(folder.path) }
        : undefined;
    } catch {
      return undefined;
    }
  }));
  return found.filter((item) => item !== undefined);
}

/**
 * A dataset list's row from a catalog record (or a failure to read one).
 *
 * @example
 * ```ts
 * import { normalizeMetadata } from "../metadata/normalize.ts";
 * import { datasetRow, sharedTitles } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const avus = [{ attr: "title", value: "Penguins" }];
 * const penguins = await normalizeMetadata({ path: "/d/Gorman_Penguins_2020", avus });
 * const records = [penguins, { path: "/d/Locked_2021", error: "not readable" }];
 * const rows = records.map((record) => datasetRow(record, sharedTitles(records)));
 * assert.deepEqual(rows.map((row) => row.title ?? row.error), ["Penguins", "not readable"]);
 * ```
 */
export function datasetRow(
  record: DatasetMetadata | CatalogFailure,
  duplicates: ReadonlySet<string>,
): DatasetRow {
  const name = baseName(record.path);
  if ("error" in record) {
    return { name, deprecated: false, duplicateTitle: false, missing: [], error: record.error };
  }
  return {
    name,
    ...definedOf(record, ["title"]),
    ...(record.publicationYear === undefined ? {} : { year: record.publicationYear }),
    ...definedOf(record, ["doi", "ark"]),
    ...resolverLinks(record),
    ...(record.license === undefined ? {} : { license: record.license.id ?? record.license.name }),
    deprecated: record.deprecated,
    duplicateTitle: record.title !== undefined && duplicates.has(titleKey(record.title)),
    missing: record.missing,
  };
}

/**
 * The title keys that more than one record carries.
 *
 * @example
 * ```ts
 * import { normalizeMetadata } from "../metadata/normalize.ts";
 * import { sharedTitles } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const a = await normalizeMetadata([{ attr: "title", value: "Weather" }]);
 * const b = await normalizeMetadata([{ attr: "datacite.title", value: "weather." }]);
 * assert.equal(sharedTitles([a, b]).size, 1);
 * ```
 */
export function sharedTitles(records: readonly (DatasetMetadata | CatalogFailure)[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const record of records) {
    if ("error" in record || record.title === undefined) continue;
    const key = titleKey(record.title);
    if (seen.has(key)) shared.add(key);
    seen.add(key);
  }
  return shared;
}

/** Rows of a file preview. */
const PREVIEW_ROWS = 5;

/** Largest whole-read file a preview downloads. */
const MAX_WHOLE_PREVIEW_BYTES = 16 * 1024 * 1024;

/**
 * What a file view needs from a file handle (its public methods).
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import type { PreviewableFile } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const file: PreviewableFile = store.file(path);
 * assert.equal((await file.stat()).size, 13487);
 * ```
 */
export interface PreviewableFile {
  /** The path, when known. */
  readonly path: string | undefined;
  /** The entry. */
  stat(): Promise<Entry>;
  /** Media type, info type and URLs. */
  manifest(): Promise<{ contentType: string; infoType: string; publicUrl?: string }>;
  /** The first rows. */
  head(
    n: number,
    options: { progress?: boolean; cache?: boolean },
  ): Promise<DataFrame>;
}

/**
 * The file view: the entry (size, type, dates), the manifest (media type, public URL) and, for
 * tables, the first rows — read by downloading only what they need for streamed formats, and
 * only for files up to 16 MB for formats that must be read whole. A preview that fails says why
 * instead of failing the view.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { fileView } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const view = await fileView(store.file("/iplant/home/shared/tern_samples/formats/penguins.csv"));
 * assert.equal(view.preview?.frame.columns[0].name, "Species");
 * assert.equal(view.preview?.frame.height, 5);
 * ```
 */
export async function fileView(file: PreviewableFile): Promise<FileView> {
  const entry = await file.stat();
  const [manifest, preview] = await Promise.all([
    file.manifest().catch(() => undefined),
    previewOf(file, entry),
  ]);
  return {
    ...entry,
    ...(manifest === undefined ? {} : { contentType: manifest.contentType }),
    ...(manifest?.publicUrl === undefined ? {} : { publicUrl: manifest.publicUrl }),
    ...preview,
  };
}

async function previewOf(
  file: PreviewableFile,
  entry: Entry,
): Promise<{ preview?: TablePreview; previewNote?: string }> {
  const name = entry.name.toLowerCase().replace(/\.gz$/, "");
  const extension = extensionOf(name);
  // Streamed formats show their first rows without reading the rest; whole ones only when small.
  const table = formatOfExtension(extension)?.table ??
    (entry.infoType === null ? undefined : formatOfInfoType(entry.infoType)?.table);
  if (table === undefined) return {};
  if (!table.streamed && entry.size > MAX_WHOLE_PREVIEW_BYTES) {
    return {
      previewNote: `No preview: ${extension} files are read whole, and this one is ` +
        `${formatBytes(entry.size)}; file.head() reads its first rows.`,
    };
  }
  try {
    // One row more than shown says whether there are more; nothing partial is cached.
    const frame = await file.head(PREVIEW_ROWS + 1, { progress: false });
    return {
      preview: {
        frame: frameView(frame.head(PREVIEW_ROWS), { rows: PREVIEW_ROWS, columns: 20 }),
        more: frame.height > PREVIEW_ROWS,
        format: extension || (entry.infoType ?? undefined),
      },
    };
  } catch (error) {
    if (error instanceof TernError) return { previewNote: `No preview: ${error.message}` };
    throw error;
  }
}

/**
 * Gives a manifest frame (`listing.manifest()`) the engine section below its own view (its
 * table): ready-to-run Dask, DuckDB and Polars code for the manifest written as
 * `manifest.csv`, chosen from its rows' formats and access. The code takes the token from
 * `TERRAIN_TOKEN` and sends it only to `store` (the store the manifest was made for), when
 * `TERRAIN_URL` names it; the section never holds a token. Returns the same frame.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { withEngineSnippets } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const frame = pl.DataFrame({ format: ["csv"], access: ["token"] });
 * const manifest = withEngineSnippets(frame, "https://de.cyverse.org/terrain");
 * const show = (manifest as unknown as Record<symbol, () => Promise<Record<string, string>>>)[
 *   Symbol.for("Jupyter.display")
 * ];
 * const html = (await show())["text/html"];
 * assert.ok(html.includes('dd.read_csv(urls(&quot;token&quot;, &quot;csv&quot;), blocksize=None'));
 * assert.ok(html.includes("STORE = &quot;https://de.cyverse.org/terrain&quot;"));
 * ```
 */
export function withEngineSnippets<T extends DataFrame>(frame: T, store: string): T {
  const table = (frame as unknown as Record<symbol, unknown>)[JUPYTER_DISPLAY];
  return withDisplay(frame, async () => {
    const plan = snippetPlan(frame, { store });
    const view = {
      manifest: plan.manifest,
      tokenVariable: TOKEN_VARIABLE,
      token: plan.token.length > 0,
      snippets: engineSnippets(plan),
    };
    return typeof table === "function"
      ? withEngines(await (table as () => MediaBundle | Promise<MediaBundle>).call(frame), view)
      : renderEngines(view);
  });
}

/**
 * What a frame's card says about numbers written with a decimal comma: the text columns of a
 * delimited-text file read without `decimalComma` whose first value and all of the first 100 are
 * such numbers (`3,14`), and the option that reads them; `undefined` when there are none.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { decimalCommaNote } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const frame = pl.DataFrame({ site: ["Bern", "Genève"], temp: ["3,14", null], n: [1, 2] });
 * assert.equal(
 *   decimalCommaNote(frame, "csv", {}),
 *   "numbers with a decimal comma read as text: temp (decimalComma: true reads them as numbers)",
 * );
 * assert.equal(decimalCommaNote(frame, "csv", { decimalComma: true }), undefined);
 * ```
 */
export function decimalCommaNote(
  frame: DataFrame,
  format: TableFormat | undefined,
  options: Pick<DataFrameOptions, "decimalComma" | "dtypes">,
): string | undefined {
  if (format !== "csv" && format !== "tsv" || options.decimalComma) return undefined;
  const text = columnsOfType(frame, ["String"]).filter((column) =>
    !(options.dtypes !== undefined && Object.hasOwn(options.dtypes, column))
  );
  if (text.length === 0 || frame.height === 0) return undefined;
  // The first row, one call for every column, picks the few to look at further.
  const first = frame.row(0);
  const texts = new Set(text);
  const candidates = frame.columns.filter((name, i) =>
    texts.has(name) && typeof first[i] === "string" && DECIMAL_COMMA_NUMBER.test(first[i])
  );
  if (candidates.length === 0) return undefined;
  const head = frame.head(100);
  const found = candidates.filter((name) =>
    Boolean(head.getColumn(name).str.contains(DECIMAL_COMMA_NUMBER).all())
  );
  if (found.length === 0) return undefined;
  return `numbers with a decimal comma read as text: ${
    found.join(", ")
  } (decimalComma: true reads them as numbers)`;
}

/**
 * What a frame's card says about dates: the columns of a delimited-text file that tern read as
 * dates or datetimes, and how to keep them as text; `undefined` when there are none (or the
 * format has types of its own).
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { datesNote } from "./display.ts";
 * import assert from "node:assert/strict";
 *
 * const frame = pl.DataFrame({ day: [new Date(0)], n: [1] }).withColumns(pl.col("day").cast(pl.Date));
 * assert.equal(datesNote(frame, "csv", {}), "dates parsed from text: day (tryParseDates: false keeps text)");
 * assert.equal(datesNote(frame, "parquet", {}), undefined);
 * ```
 */
export function datesNote(
  frame: DataFrame,
  format: TableFormat | undefined,
  options: Pick<DataFrameOptions, "tryParseDates" | "dtypes">,
): string | undefined {
  if (format !== "csv" && format !== "tsv") return undefined;
  if (options.tryParseDates === false) return undefined;
  // Asked of the native frame at once: a wide frame's `dtypes` and `columns` cost a pass each.
  const parsed = columnsOfType(frame, ["Date", "Datetime"]).filter((column) =>
    !(options.dtypes !== undefined && Object.hasOwn(options.dtypes, column))
  );
  if (parsed.length === 0) return undefined;
  return `dates parsed from text: ${parsed.join(", ")} (tryParseDates: false keeps text)`;
}
