/**
 * Handles: {@linkcode connect} opens a {@linkcode Store}, which makes lazy {@linkcode Folder},
 * {@linkcode Dataset} and {@linkcode File} handles for paths, ids and listing entries.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { connect } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * await using sample = await exampleStore();
 * const store = connect({ url: sample.options.url, anonymous: true, cacheDir: false });
 * const formats = store.folder("/iplant/home/shared/tern_samples/formats");
 * const files = await formats.list({ type: "file" }).take(2);
 * assert.deepEqual(files.map((entry) => entry.name), ["README.txt", "penguin_body_mass.png"]);
 * assert.equal((await formats.file("penguins.csv").head(3)).height, 3);
 * ```
 *
 * @module
 */

export { connect, type ConnectOptions } from "./connect.ts";
export { ContentError, File, type FileManifest, type InlineFile, type SavedFile } from "./file.ts";
export { Dataset, Folder } from "./folder.ts";
export {
  type Avu,
  type Comment,
  Handle,
  type IrodsAvu,
  type Location,
  type RawMetadata,
  type StatOptions,
} from "./handle.ts";
export {
  baseName,
  isId,
  joinPath,
  normalizePath,
  normalizeRelative,
  parentPath,
  parseRef,
  type Ref,
} from "./paths.ts";
export {
  AmbiguousNameError,
  DATA_COMMONS_DATASETS,
  type DataName,
  datasetsWith,
  isDatasetPath,
  parseDataName,
} from "./resolve.ts";
export { kindOf, statFile, statFolder } from "./stat.ts";
export { type Roots, type SearchDocumentation, Store, type StoreSettings } from "./store.ts";
