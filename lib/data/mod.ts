/**
 * Data-store files into nodejs-polars DataFrames: format detection (name, Terrain info type,
 * signature), every read pinned to one file version, whole files read once from their cache
 * copy, batches and row limits parsed while the body arrives, integrity checks with bounded
 * re-downloads, many files into one frame, and progress events. This entry holds what the
 * public API re-exports; the readers themselves are in `read.ts`, `many.ts` and `scan.ts`.
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

export {
  ChecksumMismatchError,
  FileChangedError,
  IntegrityError,
  ParseError,
  UnsupportedFormatError,
} from "./errors.ts";
export { SUPPORTED_FORMATS, type TableFormat } from "../registry/file_formats.ts";
export type { ScanOptions } from "./scan.ts";
export { type Encoding, ENCODINGS } from "./encoding.ts";
export { JSON_LAYOUTS, type JsonLayout } from "./json_layout.ts";
export type {
  BatchOptions,
  CopyOptions,
  DataFrameOptions,
  ManyOptions,
  ScanManyOptions,
  TableOptions,
} from "./options.ts";
export { ProgressChannel } from "../progress/channel.ts";
export type { ProgressEvent } from "../progress/events.ts";
export { readDataFrame } from "./read.ts";
