/**
 * Rich notebook views of tern's objects: pure functions from plain data to a MIME bundle with
 * `text/html` (self-contained, scoped under `.tern`, escaped, without scripts) and `text/plain`.
 * The classes' `[Symbol.for("Jupyter.display")]()` methods gather the data and call these;
 * nothing here sends a request or touches `Deno.jupyter`.
 *
 * @example
 * ```ts
 * import { renderError } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const bundle = renderError({ name: "NotFoundError", message: "Nothing at /x.", path: "/x" });
 * assert.deepEqual(Object.keys(bundle), ["text/plain", "text/html"]);
 * ```
 *
 * @module
 */

export { withDisplay } from "./attach.ts";
export { bundle, JUPYTER_DISPLAY, type MediaBundle } from "./bundle.ts";
export { type CacheRow, type CacheView, renderCache } from "./cache.ts";
export { type CitationView, renderCitation } from "./citation.ts";
export { type CommentRow, type CommentsView, renderComments } from "./comments.ts";
export { type CroissantView, renderCroissant } from "./croissant.ts";
export {
  type DatasetCardView,
  type DatasetFields,
  licenseBadge,
  renderDataset,
} from "./dataset.ts";
export { type DatasetRow, type DatasetsView, renderDatasets } from "./datasets.ts";
export { errorHtml, errorText, type ErrorView, renderError } from "./error.ts";
export { type FileView, previewTable, renderFile, type TablePreview } from "./file.ts";
export * from "./format.ts";
export {
  type ColumnKind,
  type FrameCell,
  type FrameColumn,
  frameText,
  type FrameView,
  renderFrame,
} from "./frame.ts";
export {
  escapeHtml,
  Html,
  type HtmlValue,
  link,
  type LinkOptions,
  markup,
  safeUrl,
} from "./html.ts";
export {
  type EntryRow,
  listingTable,
  type ListingView,
  renderListing,
  typeLabel,
} from "./listing.ts";
export { type ManifestView, renderManifest } from "./manifest.ts";
export {
  type MetadataView,
  type RawMetadataView,
  renderMetadata,
  renderRawMetadata,
} from "./metadata.ts";
export {
  fraction,
  type ProgressCounts,
  progressLine,
  type ProgressView,
  remainingMs,
  renderProgress,
  textBar,
} from "./progress.ts";
export { renderRoots, type RootRow, type RootsView } from "./roots.ts";
export { renderSavedSearches } from "./saved_searches.ts";
export { renderSearchDocs, type SearchDocsView } from "./search_docs.ts";
export { renderStore, type StoreView } from "./store_view.ts";
export { STYLESHEET } from "./style.ts";
