/**
 * tern: explore a CyVerse data store (or anything speaking the read API of CyVerse's Terrain
 * gateway) from Deno notebooks and scripts.
 *
 * {@linkcode connect} opens a {@linkcode Store}; the store makes lazy handles —
 * {@linkcode Folder}, {@linkcode Dataset}, {@linkcode File} — for data-store paths, item ids or
 * listing entries. Folders list their entries as a {@linkcode Listing}: an async iterable of
 * {@linkcode Entry} that pages invisibly, prefetches, and never stops short without an error.
 * Failures are typed ({@linkcode NotFoundError}, {@linkcode SignInRequiredError}, …) and never
 * show credentials.
 *
 * @example Connecting makes no request; handles do work only when asked
 * ```ts
 * import { connect } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const store = connect(); // TERRAIN_URL / TERRAIN_TOKEN from the environment, else anonymous
 * const penguins = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
 * assert.equal(penguins.name, "penguins.csv");
 * assert.equal(store.stats.requests, 0);
 * ```
 *
 * @example The common path, one line each (against the embedded sample store)
 * ```ts
 * import { exampleStore } from "./lib/sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
 * const files = await formats.list({ type: "file" }).toArray();
 * const readme = await formats.file("README.txt").text();
 * const frame = await formats.file("penguins.csv").dataframe();
 * const meta = await store.dataset("/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020").metadata();
 * assert.equal(files.length, 9);
 * assert.equal(frame.height, 344);
 * assert.match(readme, /^One table, every format/);
 * assert.equal(meta.doi, "10.25739/9k2v-7q4m");
 * ```
 *
 * @module
 */

import { installFrameView } from "./lib/frames/view.ts";

// The one step importing tern takes: every frame Polars makes, derived ones included, shows the
// tern view in notebooks (put in place when Polars loads; nothing is loaded here).
installFrameView();

export { connect, type ConnectOptions } from "./lib/handles/connect.ts";
export {
  ContentError,
  File,
  type FileManifest,
  type InlineFile,
  LocalFileError,
  type SavedFile,
} from "./lib/handles/file.ts";
export { type Croissant, type CroissantOptions } from "./lib/handles/croissant.ts";
export type {
  CroissantColumn,
  CroissantDocument,
  CroissantFile,
  CroissantNode,
  CroissantTable,
} from "./lib/ld/croissant.ts";
export {
  DataChangedError,
  type Lock,
  type LockedDataset,
  type LockedFile,
  LockError,
  lockText,
  parseLock,
  readLock,
} from "./lib/reproduce/lock.ts";
export {
  Provenance,
  type ProvenanceDataset,
  type ProvenanceRead,
  type ReadStatus,
} from "./lib/reproduce/provenance.ts";
export {
  Bibliography,
  type BibliographyEntry,
  type CitedBy,
  makeBibliography,
} from "./lib/reproduce/bibliography.ts";
export type { OnChange } from "./lib/reproduce/store_gate.ts";
export {
  type CrateCallOptions,
  type CrateInputs,
  lockCrate,
  type ProvenanceCrate,
} from "./lib/reproduce/crate.ts";
export type {
  CrateAgent,
  CrateDataset,
  CrateEntity,
  CrateFile,
  CrateRecord,
  RoCrate,
} from "./lib/ld/crate.ts";
export {
  type LockCheck,
  type LockComparison,
  type LockStatus,
  type VerifyLockOptions,
} from "./lib/reproduce/lock_verify.ts";
export { verifyLock } from "./lib/handles/verify_lock.ts";
export { Dataset, Folder } from "./lib/handles/folder.ts";
export { AmbiguousNameError, OtherStoreError } from "./lib/handles/resolve.ts";
export {
  type CatalogOptions,
  type DatasetListing,
  type DatasetListOptions,
  type ListedDataset,
} from "./lib/handles/dataset_listing.ts";
export {
  type ArkOptions,
  arkUrl,
  type AvuLike,
  type Citable,
  CITATION_STYLES,
  type CitationStyle,
  type Contributor,
  type Creator,
  DatasetMetadata,
  doiUrl,
  type Funding,
  joinCitations,
  type License,
  type LicenseConfidence,
  type MetadataField,
  type MetadataInput,
  type NameHints,
  namesDataset,
  normalizeArk,
  normalizeDoi,
  normalizeMetadata,
  type NormalizeOptions,
  normalizeOrcid,
  type ParsedName,
  parseName,
  type RawDatasetMetadata,
  type RelatedIdentifier,
} from "./lib/metadata/mod.ts";
export {
  type Avu,
  type Comment,
  Handle,
  type IrodsAvu,
  type RawMetadata,
  type StatOptions,
} from "./lib/handles/handle.ts";
export {
  type IdentifierName,
  type Roots,
  type SearchDocumentation,
  Store,
  type StoreReading,
  type StoreSettings,
} from "./lib/handles/store.ts";
export { type Entry, type EntryType, type Permission } from "./lib/client/entry.ts";
export { ListingChangedError } from "./lib/listing/errors.ts";
export { Listing } from "./lib/handles/listing.ts";
export { SearchListing, type SearchOptions } from "./lib/handles/search_listing.ts";
export {
  type DateBound,
  type MetadataMatch,
  search,
  SearchBuilder,
} from "./lib/client/search_builder.ts";
export {
  checkSearchQuery,
  type ClauseArgs,
  type ClauseType,
  type SearchClause,
  type SearchQuery,
} from "./lib/client/search_query.ts";
export {
  type SavedSearch,
  savedSearchQuery,
  type TemplateRange,
  type TemplateUnit,
} from "./lib/client/saved_search.ts";
export type { HitAvu, SearchEntry, SearchPage } from "./lib/listing/search_pager.ts";
export { SEARCH_SORT_FIELDS, type SearchSort } from "./lib/client/endpoints.ts";
export { manifestFormatOf, writeManifest } from "./lib/listing/manifest.ts";
export {
  type Engine,
  type EngineSnippet,
  engineSnippets,
  type SnippetPlan,
  snippetPlan,
  type SnippetPlanOptions,
} from "./lib/listing/engines.ts";
export {
  type ListOptions,
  type SortKey,
  type SortOrder,
  type WalkOptions,
} from "./lib/listing/options.ts";
export { type Page } from "./lib/listing/pager.ts";
export {
  AuthError,
  BadRequestError,
  isAbortError,
  NetworkError,
  NotFoundError,
  PermissionError,
  ProtocolError,
  RequestTooLargeError,
  ResponseTooLargeError,
  SearchDisabledError,
  ServerError,
  SignInRequiredError,
  TernError,
  type TernErrorDetails,
  TlsError,
} from "./lib/client/errors.ts";
export type { Access, CallOptions } from "./lib/client/endpoints.ts";
export type { AuthMode } from "./lib/client/auth.ts";
export type { TransportStats } from "./lib/client/transport.ts";
export { VERSION } from "./lib/client/version.ts";
export {
  type BatchOptions,
  ChecksumMismatchError,
  type CopyOptions,
  type DataFrameOptions,
  type Encoding,
  ENCODINGS,
  FileChangedError,
  IntegrityError,
  JSON_LAYOUTS,
  type JsonLayout,
  type ManyOptions,
  ParseError,
  ProgressChannel,
  type ProgressEvent,
  type ScanManyOptions,
  type ScanOptions,
  SUPPORTED_FORMATS,
  type TableFormat,
  type TableOptions,
  UnsupportedFormatError,
} from "./lib/data/mod.ts";
export {
  type FrameDisplay,
  type FrameViewMode,
  setFrameView,
  view,
  type ViewOptions,
} from "./lib/frames/view.ts";
export { type Chart, loadPlot, type NotebookPlot } from "./lib/frames/chart.ts";
export { CITATION_STYLE_LIST } from "./lib/registry/citation_styles.ts";
export { TABLE_FORMAT_ENTRIES } from "./lib/registry/file_formats.ts";
export {
  CacheMissError,
  type CacheUsage,
  type ClearResult,
  CorruptCopyError,
  type VerifyResult,
} from "./lib/cache/mod.ts";
export type { StoreCache } from "./lib/handles/store_cache.ts";
export { Citation, type CitationSource } from "./lib/metadata/cite.ts";
export { JUPYTER_DISPLAY, type MediaBundle } from "./lib/display/bundle.ts";
// Deno.jupyter.html interpolates values unescaped: notebooks wrapping store values need this.
export { escapeHtml } from "./lib/display/html.ts";
export type { ProgressSetting } from "./lib/progress/reporter.ts";
export type { ProgressCounts } from "./lib/display/progress.ts";
export type { DataFrame, DataType, PlotModule } from "./lib/deps.ts";
export {
  describeVersion,
  type FileVersion,
  READ_OPERATIONS,
  type ReadOperation,
  sameVersion,
} from "./lib/client/file_version.ts";
