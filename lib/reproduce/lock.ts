/**
 * The lock file: which versions of which files a notebook read, from which store, with the
 * datasets they belong to and what citing them needs. {@linkcode lockText} writes it (JSON, keys
 * in a fixed order, entries sorted, so the same reads give the same bytes); {@linkcode parseLock}
 * and {@linkcode readLock} read one back, checking every field; {@linkcode DataChangedError} is
 * what a locked read raises when the store changed.
 *
 * @module
 */

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { dirname } from "node:path";
import { loadZodModule } from "../deps.ts";
import { STORE_CHECKSUM } from "../client/checksum.ts";
import { BadRequestError, quoteInput, TernError } from "../client/errors.ts";
import { STORE_ID } from "../client/store_id.ts";
import { valueAt } from "../client/value_at.ts";
import { definedOf } from "../client/defined.ts";
import {
  describeVersion,
  type FileVersion,
  READ_OPERATIONS,
  type ReadOperation,
} from "../client/file_version.ts";
import { normalizeArk } from "../metadata/ark.ts";
import { normalizeDoi } from "../metadata/doi.ts";
import { normalizeOrcid } from "../metadata/names.ts";
import { normalizePath } from "../client/paths.ts";
import type { CrateDataset } from "../ld/crate.ts";
import { crateRecord, isCrate } from "../ld/crate_lock.ts";

// connect({ lock }) checks a lock before it returns, so zod loads with this module (that is, with
// tern) rather than with the first answer, as the response schemas do.
const { z } = await loadZodModule();

/** The lock format this tern writes and reads. */
export const LOCK_FORMAT = 1;

/** The marker of a tern lock (its first key), so a stray JSON file is told apart. */
export const LOCK_KIND = "tern lock";

/**
 * One file version in a lock.
 *
 * @example
 * ```ts
 * import type { LockedFile } from "./lock.ts";
 *
 * const file: LockedFile = {
 *   path: "/iplant/home/shared/a.csv", id: "6a1b2c3d", size: 2048,
 *   modified: "2016-07-28T09:33:22.000Z", operations: ["dataframe"],
 * };
 * ```
 */
export interface LockedFile {
  /** Data-store path when it was read. */
  readonly path: string;
  /** Item id. */
  readonly id: string;
  /** Size in bytes. */
  readonly size: number;
  /** Date-modified, ISO 8601 (UTC, milliseconds). */
  readonly modified: string;
  /**
   * The store's own checksum of the bytes (`md5:<32 hex>` or `sha2:<base64>`), when the store
   * had one: what `tern lock verify` and `connect({ lock })` compare without downloading.
   */
  readonly checksum?: string;
  /** Content hash `<algorithm>:<hex>`, when tern had one. */
  readonly hash?: string;
  /** The path of the dataset it belongs to, when it is in one. */
  readonly dataset?: string;
  /** How it was read (`dataframe`, `text`, …), sorted. */
  readonly operations: readonly ReadOperation[];
}

/**
 * A dataset in a lock: what citing it needs, and nothing else (no abstract, no raw AVUs) — the
 * same fields a crate gives each dataset, so a crate turns back into a lock.
 *
 * @example
 * ```ts
 * import type { LockedDataset } from "./lock.ts";
 *
 * const dataset: LockedDataset = {
 *   path: "/iplant/home/shared/commons_repo/curated/Barley", title: "Barley yields",
 *   creators: [{ name: "Immer, F. R.", family: "Immer", given: "F. R." }],
 *   publicationYear: 1934, doi: "10.7946/P2C35G",
 * };
 * ```
 */
export type LockedDataset = CrateDataset;

/**
 * A lock: the tern version that wrote it, the store (its URL, never with credentials), the
 * datasets and the file versions.
 *
 * @example
 * ```ts
 * import type { Lock } from "./lock.ts";
 *
 * const lock: Lock = {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "https://de.cyverse.org/terrain",
 *   datasets: [], files: [],
 * };
 * ```
 */
export interface Lock {
  /** Always `tern lock`. */
  readonly lock: "tern lock";
  /** The format, {@linkcode LOCK_FORMAT}. */
  readonly format: 1;
  /** The tern version that wrote it. */
  readonly tern: string;
  /** The store's base URL, without credentials. */
  readonly store: string;
  /**
   * The store's identity as it reported it (tern's embedded server does, the real Terrain does
   * not): how the store is recognised at another URL, say a sample store on a new port. Locks
   * without it (older ones, or a store that reports none) are known by their URL.
   */
  readonly storeId?: string;
  /** The datasets the files belong to, by path. */
  readonly datasets: readonly LockedDataset[];
  /** One entry per file version, by path then date-modified. */
  readonly files: readonly LockedFile[];
}

/**
 * A lock that cannot be used: not JSON, a field missing or wrong (named by its JSON path, as
 * `$.files[3].size`), written for another store, or in a newer format.
 *
 * @example
 * ```ts
 * import { LockError } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new LockError("size must be a number", { field: "$.files[0].size", source: "tern.lock.json" });
 * assert.equal(error.field, "$.files[0].size");
 * assert.ok(error.message.startsWith("tern.lock.json: $.files[0].size: "));
 * ```
 */
export class LockError extends BadRequestError {
  /** The JSON path of the field at fault, when one is. */
  readonly field?: string;
  /** Where the lock came from (its file), when it came from a file. */
  readonly source?: string;

  /**
   * Creates the error; the message starts with the lock's file and the field, where known.
   *
   * @param problem What is wrong.
   * @param where The field (JSON path) and the lock's file.
   *
   * @example
   * ```ts
   * import { LockError } from "./lock.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new LockError("not JSON").message, "The lock: not JSON");
   * ```
   */
  constructor(problem: string, where: { field?: string; source?: string } = {}) {
    const prefix = [where.source ?? "The lock", where.field].filter((part) => part !== undefined)
      .join(": ");
    super(`${prefix}: ${problem}`, { code: "ERR_BAD_LOCK" });
    Object.assign(this, definedOf(where, ["field", "source"]));
  }
}

/**
 * A read of a locked file found another version on the store than the lock's (and the store
 * was not told to read the locked one, or the cache no longer holds it). Names the path, both
 * versions (size, date-modified, hash when known) and how to update the lock.
 *
 * @example
 * ```ts
 * import { DataChangedError } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const locked = { store: "s", path: "/p/a.csv", id: "i", size: 10, modified: 0 };
 * const error = new DataChangedError(locked, { ...locked, size: 12, modified: 1000 });
 * assert.equal(error.path, "/p/a.csv");
 * assert.match(error.message, /locked: 10 bytes, modified 1970-01-01T00:00:00\.000Z/);
 * assert.match(error.message, /now: 12 bytes, modified 1970-01-01T00:00:01\.000Z/);
 * ```
 */
export class DataChangedError extends TernError {
  /** The version the lock names. */
  readonly locked: FileVersion;
  /** The version on the store now. */
  readonly current: FileVersion;

  /**
   * Creates the error, naming the path, both versions and how to update the lock.
   *
   * @param locked The lock's version.
   * @param current The store's version now.
   * @param reason Why the locked version could not be read instead, when that was asked for.
   *
   * @example
   * ```ts
   * import { DataChangedError } from "./lock.ts";
   * import assert from "node:assert/strict";
   *
   * const locked = { store: "s", path: "/p", id: "i", size: 1, modified: 0 };
   * const error = new DataChangedError(locked, { ...locked, size: 2 }, "it is not in the cache");
   * assert.match(error.message, /it is not in the cache/);
   * ```
   */
  constructor(locked: FileVersion, current: FileVersion, reason?: string) {
    const renamed = locked.path === current.path ? "" : ` (locked as ${locked.path})`;
    super(
      `${current.path}${renamed} changed since the lock was written — locked: ${
        describeVersion(locked)
      }; now: ${describeVersion(current)}.${
        reason === undefined ? "" : ` The locked version cannot be read: ${reason}.`
      } To use the new version, connect without the lock (or with onChange: "warn"), rerun, ` +
        `and save a new lock with store.provenance.save(…); to keep the locked version, use ` +
        `onChange: "locked" while the local cache still holds it.`,
      { path: current.path, code: "ERR_DATA_CHANGED" },
    );
    this.locked = locked;
    this.current = current;
  }
}

const HASH = /^[a-z0-9]+:[0-9a-f]+$/;

/**
 * The largest lock tern reads or writes: 16 MiB, about 40,000 locked files. A lock is read whole
 * before it is checked, so the cap bounds what a hostile file (`/dev/zero`, a huge download) can
 * make tern hold.
 *
 * @example
 * ```ts
 * import { MAX_LOCK_BYTES } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MAX_LOCK_BYTES, 16 * 1024 * 1024);
 * ```
 */
export const MAX_LOCK_BYTES = 16 * 1024 * 1024;

const CONTROL = /\p{Cc}/u;

/**
 * What is wrong with a data-store path in a lock, or `undefined` when it is one tern writes:
 * absolute and normalised (no `.`, `..` or empty segments, no trailing slash), no control
 * characters. A lock is input like any other: it may come from someone else.
 */
function pathProblem(path: string): string | undefined {
  if (CONTROL.test(path)) return "must not contain control characters";
  let normal: string;
  try {
    normal = normalizePath(path);
  } catch {
    return path.startsWith("/")
      ? 'must not contain "." or ".." segments'
      : 'must be an absolute data-store path (starting with "/")';
  }
  return normal === path ? undefined : `must be normalised (no empty segments or trailing "/")`;
}

/**
 * The DOI as a lock may hold it: its canonical form, or the form a tern before 2026-11 wrote,
 * which kept the punctuation of a sentence after it (`10.1234/abc.`), so that its locks still
 * read.
 */
function lockedDoi(value: string): string | undefined {
  const canonical = normalizeDoi(value);
  return canonical !== undefined && value.startsWith(canonical) &&
      /^[.,;:)\]]+$/.test(value.slice(canonical.length))
    ? value
    : canonical;
}

// Built at the first lock read, not with the module: most sessions never read a lock, and building
// zod schemas is a noticeable part of importing tern.
function buildLockSchema() {
  /** A string `problem` finds nothing wrong with. */
  const checked = (problem: (value: string) => string | undefined) =>
    z.string().superRefine((value, context) => {
      const message = problem(value);
      if (message !== undefined) context.addIssue({ code: "custom", message });
    });
  const storePath = checked(pathProblem);
  /**
   * An optional identifier in the canonical form tern writes (what `normalize` gives back); a
   * value that is the identifier in another form is told its canonical one.
   */
  const identifier = (
    normalize: (value: string) => string | undefined,
    kind: string,
    form: string,
  ) =>
    checked((value) => {
      const canonical = normalize(value);
      if (canonical === value) return undefined;
      return canonical === undefined
        ? `must be ${kind} (${form})`
        : `must be ${kind} in the form tern writes: ${quoteInput(canonical)}`;
    }).optional();

  const creatorSchema = z.object({
    name: z.string().min(1),
    given: z.string().optional(),
    family: z.string().optional(),
    suffix: z.string().optional(),
    affiliation: z.string().optional(),
    orcid: identifier(normalizeOrcid, "an ORCID iD", "0000-0000-0000-0000"),
  });

  const datasetSchema = z.object({
    path: storePath,
    title: z.string().optional(),
    creators: z.array(creatorSchema),
    publicationYear: z.number().int().optional(),
    publisher: z.string().optional(),
    version: z.string().optional(),
    doi: identifier(lockedDoi, "a DOI", "10.<registrant>/<suffix>"),
    ark: identifier(normalizeArk, "an ARK", "ark:/<NAAN>/<name>"),
    resourceTypeGeneral: z.string().optional(),
    license: z.object({
      id: z.string().optional(),
      name: z.string(),
      url: z.string().optional(),
      confidence: z.enum(["exact", "alias", "guess", "unknown"]),
    }).optional(),
  });

  const fileSchema = z.object({
    path: storePath,
    id: z.string().min(1),
    size: z.number().int().nonnegative(),
    modified: z.iso.datetime({ offset: true }),
    checksum: z.string().regex(
      STORE_CHECKSUM,
      "must be md5:<32 lowercase hex digits> or sha2:<base64 of a SHA-256 digest>",
    ).optional(),
    hash: z.string().regex(HASH, "must be <algorithm>:<lowercase hex>").optional(),
    dataset: storePath.optional(),
    operations: z.array(z.enum(READ_OPERATIONS)).min(1),
  });

  return z.object({
    lock: z.literal(LOCK_KIND),
    format: z.literal(LOCK_FORMAT),
    tern: z.string().min(1),
    store: z.url({ protocol: /^https?$/ }).refine(
      (url) => !hasCredentials(url),
      "must not contain a username or password",
    ).refine(
      (url) => !/[?#]/.test(url),
      "must be the gateway's base URL, without a query or fragment",
    ),
    storeId: z.string().regex(
      STORE_ID,
      'must be a store id: 1 to 128 letters, digits, ".", "_", ":" or "-"',
    ).optional(),
    datasets: z.array(datasetSchema),
    files: z.array(fileSchema),
  });
}

/** The lock file's schema, built on first use: a lazily built immutable singleton. */
let lockSchemaMemo: ReturnType<typeof buildLockSchema> | undefined;

/**
 * Checks a parsed lock and returns it in tern's own shape (keys in order, entries sorted). An
 * RO-Crate tern wrote (`store.provenance.crate()`, told apart by its `@graph`) gives the lock of
 * its pins, each file read by `bytes`.
 *
 * @param value The parsed JSON.
 * @param source Where it came from, for messages.
 * @throws {LockError} naming the first field at fault by its JSON path.
 *
 * @example
 * ```ts
 * import { LockError, parseLock } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const lock = parseLock({
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "http://127.0.0.1:8080/terrain",
 *   datasets: [],
 *   files: [{ path: "/a.csv", id: "i", size: 3, modified: "2020-01-01T00:00:00.000Z", operations: ["text"] }],
 * });
 * assert.equal(lock.files[0].size, 3);
 * assert.throws(
 *   () => parseLock({ ...lock, files: [{ ...lock.files[0], size: "3" }] }),
 *   (error: unknown) => error instanceof LockError && error.field === "$.files[0].size",
 * );
 * ```
 */
export function parseLock(value: unknown, source?: string): Lock {
  const where = source === undefined ? {} : { source };
  if (isCrate(value)) value = lockOfCrate(value, where);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new LockError("is not a JSON object", where);
  }
  const { lock: kind, format } = value as { lock?: unknown; format?: unknown };
  if (kind === LOCK_KIND && typeof format === "number" && format > LOCK_FORMAT) {
    throw new LockError(
      `is in lock format ${format}; this tern reads format ${LOCK_FORMAT}: update tern`,
      { ...where, field: "$.format" },
    );
  }
  const parsed = (lockSchemaMemo ??= buildLockSchema()).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = jsonPath(issue.path);
    const got = issue.path.length === 0 ? undefined : valueAt(value, issue.path);
    // A URL with credentials is never echoed.
    const shown = field === "$.store" || got === undefined ? "" : ` (got ${quoteInput(got, 60)})`;
    throw new LockError(`${issue.message}${shown}`, { ...where, field });
  }
  return orderedLock(parsed.data as Lock);
}

/**
 * The lock of a crate tern wrote (`store.provenance.crate()`): its pins, every file as read by
 * `bytes` (a crate does not say how each file was read).
 */
function lockOfCrate(
  crate: { readonly "@graph": readonly unknown[] },
  where: { source?: string },
): unknown {
  const record = crateRecord(crate, (problem, field) => {
    throw new LockError(`is an RO-Crate tern cannot turn into a lock: ${problem}`, {
      ...where,
      ...(field === undefined ? {} : { field }),
    });
  });
  const { startTime: _start, endTime: _end, ...pins } = record;
  return {
    lock: LOCK_KIND,
    format: LOCK_FORMAT,
    ...pins,
    files: pins.files.map((file) => ({ ...file, operations: ["bytes"] })),
  };
}

/**
 * Reads and checks a lock file: a regular file (a FIFO, a device or a folder is refused without
 * being read, so nothing blocks) of at most {@linkcode MAX_LOCK_BYTES}, UTF-8 JSON, every field
 * as {@linkcode parseLock} checks it.
 *
 * @throws {LockError} when the file is missing, not a regular file, too large, not JSON or not a
 * lock. A folder holding an `ro-crate-metadata.json` (a crate tern wrote) is read as that file.
 *
 * @example
 * ```ts
 * import { LockError, readLock } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const file = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(file, "{ not json");
 * assert.throws(() => readLock(file), LockError);
 * await Deno.remove(file);
 * assert.throws(() => readLock("/dev/zero"), /not a regular file/);
 * ```
 */
export function readLock(path: string): Lock {
  const crate = `${path.replace(/(?<!\/)\/+$/, "")}/ro-crate-metadata.json`;
  if (statOf(path)?.isDirectory && statOf(crate)?.isFile) path = crate;
  const bytes = readLockBytes(path);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : "not UTF-8 text";
    throw new LockError(`is not JSON (${reason})`, { source: path });
  }
  return parseLock(value, path);
}

function statOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/** The bytes of a lock file, refusing what is not a regular file of at most the cap. */
function readLockBytes(path: string): Uint8Array {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, for ever, and
    // a blocked synchronous call keeps even Ctrl-C's handler from running.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = code === "ENOENT"
      ? "no such file; a notebook's first run writes its lock with store.provenance.save(…)"
      : code === "EACCES"
      ? "permission denied"
      : String(error);
    throw new LockError(`cannot be read (${reason})`, { source: path });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const kind = stat.isDirectory()
        ? "a folder"
        : stat.isFIFO()
        ? "a FIFO"
        : stat.isCharacterDevice() || stat.isBlockDevice()
        ? "a device"
        : "a special file";
      throw new LockError(`is not a regular file (it is ${kind})`, { source: path });
    }
    if (stat.size > MAX_LOCK_BYTES) {
      throw new LockError(
        `is ${stat.size} bytes, more than the ${MAX_LOCK_BYTES} a lock may be`,
        { source: path },
      );
    }
    // One byte more than its size tells a file that grew since fstat (and so past any check).
    const buffer = new Uint8Array(stat.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > stat.size) throw new LockError("grew while it was read", { source: path });
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * The lock as text: JSON with two-space indents, keys in a fixed order, datasets by path, files
 * by path then date-modified, a final newline. The same lock gives the same bytes.
 *
 * @example
 * ```ts
 * import { lockText, parseLock } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const text = lockText({
 *   files: [{ operations: ["text"], modified: "2020-01-01T00:00:00.000Z", size: 3, id: "i", path: "/a" }],
 *   datasets: [], store: "http://127.0.0.1:8080/terrain", tern: "0.1.0", format: 1, lock: "tern lock",
 * });
 * assert.ok(text.startsWith('{\n  "lock": "tern lock",\n  "format": 1,'));
 * assert.equal(lockText(parseLock(JSON.parse(text))), text);
 * ```
 */
export function lockText(lock: Lock): string {
  return `${JSON.stringify(orderedLock(lock), null, 2)}\n`;
}

/**
 * Writes a lock atomically: into a temporary file beside `path`, renamed over it once complete,
 * so a reader never sees half a lock. The lock is checked first as {@linkcode readLock} will
 * check it (fields, {@linkcode MAX_LOCK_BYTES}): tern never writes a lock it would refuse.
 *
 * @throws {LockError} naming the field at fault, when the lock is too large, or when it cannot
 * be written there (no such folder, no permission, a folder at `path`).
 *
 * @example
 * ```ts
 * import { readLock, writeLock } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const folder = await Deno.makeTempDir();
 * const lock = {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "http://127.0.0.1:8080/terrain",
 *   datasets: [], files: [],
 * } as const;
 * await writeLock(`${folder}/tern.lock.json`, lock);
 * assert.deepEqual(readLock(`${folder}/tern.lock.json`), lock);
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function writeLock(path: string, lock: Lock): Promise<void> {
  const text = lockText(parseLock(lock, path));
  const size = new TextEncoder().encode(text).length;
  if (size > MAX_LOCK_BYTES) {
    throw new LockError(
      `would be ${size} bytes, more than the ${MAX_LOCK_BYTES} a lock may be: save the ` +
        "provenance of fewer files",
      { source: path },
    );
  }
  const temporary = `${path}.${crypto.randomUUID().slice(0, 8)}.tern-partial`;
  try {
    await Deno.writeTextFile(temporary, text);
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    const folder = dirname(path);
    if (error instanceof Deno.errors.NotFound) {
      throw new LockError(
        `cannot be written: there is no folder ${quoteInput(folder)} (create it, or save the ` +
          "lock in a folder that exists)",
        { source: path },
      );
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      throw new LockError("cannot be written (permission denied)", { source: path });
    }
    if ((await Deno.stat(path).catch(() => undefined))?.isDirectory) {
      throw new LockError("cannot be written: it is a folder (name the lock file in it)", {
        source: path,
      });
    }
    throw error;
  }
}

/**
 * The {@linkcode FileVersion} a lock entry names.
 *
 * @example
 * ```ts
 * import { lockedVersion } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const version = lockedVersion("http://x/terrain", {
 *   path: "/a", id: "i", size: 3, modified: "1970-01-01T00:00:01.000Z", operations: ["text"],
 * });
 * assert.equal(version.modified, 1000);
 * ```
 */
export function lockedVersion(store: string, file: LockedFile): FileVersion {
  return {
    store,
    ...definedOf(file, ["path", "id", "size"]),
    modified: Date.parse(file.modified),
    ...definedOf(file, ["checksum", "hash"]),
  };
}

/**
 * A URL as a lock stores it: no username or password, no trailing slash.
 *
 * @example
 * ```ts
 * import { lockStoreUrl } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lockStoreUrl("https://demo:secret@de.cyverse.org/terrain/"), "https://de.cyverse.org/terrain");
 * ```
 */
export function lockStoreUrl(url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null) return url.replace(/\/\/[^/@]*@/, "//").replace(/(?<!\/)\/+$/, "");
  parsed.username = "";
  parsed.password = "";
  return parsed.href.replace(/(?<!\/)\/+$/, "");
}

/** The same lock with keys in the documented order and entries sorted. */
function orderedLock(lock: Lock): Lock {
  const datasets = [...lock.datasets].map(lockedDataset).sort((a, b) => compare(a.path, b.path));
  const files = [...lock.files].map(orderedFile).sort((a, b) =>
    compare(a.path, b.path) || compare(a.modified, b.modified) || compare(a.id, b.id)
  );
  return {
    lock: LOCK_KIND,
    format: LOCK_FORMAT,
    ...definedOf(lock, ["tern", "store", "storeId"]),
    datasets,
    files,
  };
}

function orderedFile(file: LockedFile): LockedFile {
  return {
    ...definedOf(file, ["path", "id", "size"]),
    modified: new Date(Date.parse(file.modified)).toISOString(),
    ...definedOf(file, ["checksum", "hash", "dataset"]),
    operations: [...new Set(file.operations)].sort(),
  };
}

/**
 * What a lock keeps of a dataset record (a normalised `DatasetMetadata` or a lock's entry): the
 * fields citing it needs, keys in a fixed order, nothing else.
 *
 * @example
 * ```ts
 * import { lockedDataset } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const kept = lockedDataset({ doi: "10.1234/x", path: "/c/x", creators: [], description: "long" } as never);
 * assert.deepEqual(Object.keys(kept), ["path", "creators", "doi"]);
 * ```
 */
export function lockedDataset(dataset: LockedDataset): LockedDataset {
  return {
    ...definedOf(dataset, ["path", "title"]),
    creators: dataset.creators.map((creator) =>
      definedOf(creator, ["name", "family", "given", "suffix", "affiliation", "orcid"])
    ),
    ...definedOf(dataset, [
      "publicationYear",
      "publisher",
      "version",
      "doi",
      "ark",
      "resourceTypeGeneral",
    ]),
    ...(dataset.license === undefined
      ? {}
      : { license: definedOf(dataset.license, ["id", "name", "url", "confidence"]) }),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function hasCredentials(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && (parsed.username !== "" || parsed.password !== "");
}

function jsonPath(path: readonly PropertyKey[]): string {
  return `$${
    path.map((key) =>
      typeof key === "number"
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(key))
        ? `.${String(key)}`
        : `[${JSON.stringify(String(key))}]`
    ).join("")
  }`;
}
