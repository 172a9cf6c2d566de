/**
 * Data-store files into nodejs-polars DataFrames: format detection (name, Terrain info type,
 * signature), every read pinned to one file version, whole files read once from their cache
 * copy, batches and row limits parsed while the body arrives, integrity checks with bounded
 * re-downloads, many files into one frame, and progress events.
 *
 * @example
 * ```ts
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import { readDataFrame } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.parquet";
 * const file = store.file(path);
 * const source = { path, stat: (signal?: AbortSignal) => file.stat({ refresh: true, signal }) };
 * const { frame } = await readDataFrame(store[STORE_CONTEXT], source);
 * assert.deepEqual(frame.shape, { height: 344, width: 7 });
 * ```
 *
 * @module
 */

export { type BodyOptions, checkIsFile, verifiedBody } from "./body.ts";
export { type DataContext, type ReadGate } from "./context.ts";
export {
  FileChangedError,
  IntegrityError,
  ParseError,
  polarsReason,
  SUPPORTED_FORMATS,
  UnsupportedFormatError,
} from "./errors.ts";
export {
  type DetectedFormat,
  detectFormat,
  type FormatClues,
  innerFormat,
  SNIFF_BYTES,
  TABLE_FORMATS,
  type TableFormat,
} from "./formats.ts";
export { readMany } from "./many.ts";
export {
  probeRanges,
  type Scan,
  scanFile,
  scanMany,
  type ScanOptions,
  type ScanRoute,
} from "./scan.ts";
export {
  type BatchOptions,
  checkOptions,
  type DataFrameOptions,
  DEFAULT_BATCH_ROWS,
  type ManyOptions,
} from "./options.ts";
export { BatchParser, combineFrames, limitRows, parseWhole } from "./parse.ts";
export { asBuffer, loadPolars, type Polars, stackFrames } from "./polars.ts";
export { ProgressChannel, type ProgressEvent, ProgressTracker } from "../progress/events.ts";
export {
  cachedCopy,
  type FileSource,
  type Pinned,
  pinVersion,
  readBatches,
  readBytes,
  readDataFrame,
  type ReadRoute,
  streamBytes,
} from "./read.ts";
export { DEFAULT_BATCH_BYTES, RecordSplitter, type SplitterOptions } from "./records.ts";
