/**
 * Handles: {@linkcode connect} opens a {@linkcode Store}, which makes lazy {@linkcode Folder},
 * {@linkcode Dataset} and {@linkcode File} handles for paths, ids and listing entries.
 *
 * @example
 * ```ts ignore
 * import { connect } from "./mod.ts";
 *
 * const store = connect();
 * const files = await store.folder("/iplant/home/shared").list({ type: "file" }).take(10);
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
export { kindOf, statFile, statFolder } from "./stat.ts";
export { type Roots, type SearchDocumentation, Store, type StoreSettings } from "./store.ts";
