/**
 * Typed errors of the local cache.
 *
 * @module
 */

import { TernError } from "../client/errors.ts";

/**
 * An offline store (`connect({ offline: true })`) was asked for a file that is not in its local
 * cache, or whose cached copy is incomplete.
 *
 * @example
 * ```ts
 * import { CacheMissError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new CacheMissError('"/a/b.csv" is not in the local cache.', { path: "/a/b.csv" });
 * assert.equal(error.name, "CacheMissError");
 * assert.equal(error.path, "/a/b.csv");
 * ```
 */
export class CacheMissError extends TernError {}

/**
 * A cached copy is not the one tern wrote (its bytes changed, it was replaced, or it is a
 * symlink) and the store is offline, so no good copy can be fetched; the bad copy was removed.
 * A {@linkcode CacheMissError}, so code handling a missing copy handles this one too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CacheMissError, CorruptCopyError } from "./errors.ts";
 *
 * const error = new CorruptCopyError("changed on disk", { path: "/a/b.csv" });
 * assert.ok(error instanceof CacheMissError);
 * assert.equal(error.name, "CorruptCopyError");
 * ```
 */
export class CorruptCopyError extends CacheMissError {}

/**
 * The local cache's index is not a regular file of its own at its name (a FIFO, a hard link to
 * a file elsewhere, or a name swapped since it was opened), even after whatever stood there was
 * moved aside: tern writes nothing through it, and the read goes on without the cache (reported
 * once as a warning).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CacheFolderError } from "./errors.ts";
 * import { TernError } from "../client/errors.ts";
 *
 * const error = new CacheFolderError("the cache's index is not the regular file opened at its name");
 * assert.ok(error instanceof TernError);
 * assert.equal(error.name, "CacheFolderError");
 * ```
 */
export class CacheFolderError extends TernError {}
