/**
 * Building the sample store: describe it in memory, write it into a temporary sibling
 * directory, then rename it into place, so a half-built store never exists at the target.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { DATASET_SPECS, SAMPLE_DATASETS } from "./catalog.ts";
import { addCommunityFolders } from "./community.ts";
import { SAMPLE_STORE_VERSION, STAMP_FILE } from "./constants.ts";
import { datasetPath, type DatasetSpec } from "./dataset_spec.ts";
import { marketIndices } from "./datasets/market.ts";
import { addHomes, addUsers } from "./homes.ts";
import { renderReadme } from "./readme.ts";
import { avuSidecar, commentSidecar, jsonBytes, utc } from "./sidecars.ts";
import { storeRelative, StoreTree } from "./tree.ts";
import { VegaDatasets } from "./vega.ts";

/**
 * What a build produced.
 *
 * @example
 * ```ts
 * import type { SampleStoreSummary } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * // What `buildSampleStore` (whose example builds one) reports, in the shape of a real build:
 * const summary: SampleStoreSummary = {
 *   dir: "/tmp/store", version: 3, datasets: 12, files: 20_071, bytes: 212_000_000,
 *   sidecars: 61, folders: 58, ms: 1_200,
 * };
 * assert.ok(summary.files > summary.datasets);
 * ```
 */
export interface SampleStoreSummary {
  /** Absolute path of the store. */
  dir: string;
  /** Builder version written to the stamp. */
  version: number;
  /** Published datasets under `curated/` (the deprecated one not counted). */
  datasets: number;
  /** Files visible through the API (sidecars and `.terrain/` not counted). */
  files: number;
  /** Bytes of those files. */
  bytes: number;
  /** AVU and comment sidecar files. */
  sidecars: number;
  /** Directories, including the hidden `.terrain/` ones (the root not counted). */
  folders: number;
  /** Wall-clock build time in milliseconds. */
  ms: number;
}

/**
 * Options for {@linkcode buildSampleStore} and {@linkcode ensureSampleStore}.
 *
 * @example
 * ```ts
 * import { isSampleStoreCurrent, type SampleStoreOptions } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * const options: SampleStoreOptions = {};
 * const empty = await Deno.makeTempDir();
 * assert.equal(await isSampleStoreCurrent(empty, options), false);
 * await Deno.remove(empty);
 * ```
 */
export interface SampleStoreOptions {
  /**
   * Directory of an installed `vega-datasets` package.
   *
   * @default found automatically
   */
  vegaDatasetsDir?: string;
}

/**
 * Raised when a store cannot be built or placed; the message says what and where.
 *
 * @example
 * ```ts
 * import { buildSampleStore, SampleStoreError } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/thesis.tex`, "precious");
 * await assert.rejects(buildSampleStore(dir), SampleStoreError);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class SampleStoreError extends Error {
  /** `SampleStoreError`. */
  override readonly name = "SampleStoreError";
}

const BUILDER = "tern/sample-store";
/** The sample store's id, as `.terrain/store-id` keeps it and its server reports it. */
const SAMPLE_STORE_ID = "tern-sample-store";
const CONFIG_TIME = utc("2024-01-15T12:00:00Z");

/** The stamp identifying a directory as a complete sample store. */
type Stamp = ReturnType<typeof stampFor>;

function stampFor(vega: VegaDatasets) {
  return {
    builder: BUILDER,
    version: SAMPLE_STORE_VERSION,
    source: `vega-datasets@${vega.version}`,
  };
}

async function readStamp(dir: string): Promise<Stamp | null> {
  const value = await Deno.readTextFile(join(dir, STAMP_FILE)).then(JSON.parse).catch(() => null);
  return value && typeof value === "object" && value.builder === BUILDER ? value : null;
}

async function addDataset(tree: StoreTree, spec: DatasetSpec, vega: VegaDatasets): Promise<void> {
  const dir = storeRelative(datasetPath(spec));
  const deposited = utc(spec.deposited).getTime();
  const curated = utc(spec.curated);
  // The AVU and comment sidecars of a file or the folder, where it has any.
  const addSidecars = (rel: string, kind: "file" | "folder", of: Annotated) => {
    if (of.avus) tree.addFile(avuSidecar(rel, kind), jsonBytes(of.avus), curated, "sidecar");
    if (of.comments?.length) {
      const latest = new Date(Math.max(...of.comments.map((c) => c.post_time)));
      tree.addFile(commentSidecar(rel, kind), jsonBytes(of.comments), latest, "sidecar");
    }
  };
  const listed = [];
  for (const [i, file] of spec.files.entries()) {
    const rel = `${dir}/${file.path}`;
    const bytes = await ("produce" in file ? file.produce(vega) : vega.bytes(file.source));
    tree.addFile(rel, bytes, new Date(deposited + (i + 1) * 60_000));
    listed.push({ path: file.path, size: bytes.byteLength, note: file.note, source: file.source });
    addSidecars(rel, "file", file);
  }
  tree.addFile(`${dir}/README.txt`, renderReadme(spec, listed, vega), new Date(deposited));
  addSidecars(dir, "folder", spec);
}

type Annotated = Partial<Pick<DatasetSpec, "avus" | "comments">>;

/**
 * Describes the whole sample store in memory (nothing is written).
 *
 * @example
 * ```ts
 * import { describeSampleStore } from "./build.ts";
 * import { VegaDatasets } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * const tree = await describeSampleStore(await VegaDatasets.open());
 * assert.ok(tree.hasFile(".terrain/users.json"));
 * ```
 */
export async function describeSampleStore(vega: VegaDatasets): Promise<StoreTree> {
  const tree = new StoreTree();
  addUsers(tree);
  for (const spec of [...DATASET_SPECS, marketIndices]) await addDataset(tree, spec, vega);
  await addHomes(tree, vega);
  await addCommunityFolders(tree, vega);
  // One id for every sample store: each is built byte for byte the same, so a lock written
  // against one (another process, another machine, after a reset) is the same store's.
  tree.addFile(".terrain/store-id", `${SAMPLE_STORE_ID}\n`, CONFIG_TIME, "config");
  tree.addFile(STAMP_FILE, jsonBytes(stampFor(vega)), CONFIG_TIME, "config");
  return tree;
}

/** Throws unless `dir` is absent, an empty directory, or an existing sample store. */
async function assertReplaceable(dir: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw new SampleStoreError(`Cannot inspect ${dir}: ${(e as Error).message}`, { cause: e });
  }
  if (!info.isDirectory) {
    throw new SampleStoreError(`${dir} exists and is not a directory; choose another path.`);
  }
  for await (const _ of Deno.readDir(dir)) {
    if (await readStamp(dir)) return;
    throw new SampleStoreError(
      `${dir} is not empty and is not a tern sample store (no ${STAMP_FILE}); refusing to ` +
        "replace it. Choose a new or empty directory.",
    );
  }
}

function isNotEmpty(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return e instanceof Deno.errors.AlreadyExists || code === "ENOTEMPTY" || code === "EEXIST";
}

/** Moves the finished `tmp` to `target`, replacing an older store there. */
async function swapIn(tmp: string, target: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await Deno.rename(tmp, target); // atomic; also replaces an empty directory
      return;
    } catch (e) {
      if (!isNotEmpty(e)) throw e;
    }
    await assertReplaceable(target);
    const old = `${target}.old-${crypto.randomUUID().slice(0, 8)}`;
    try {
      await Deno.rename(target, old);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) continue; // someone else moved it; retry
      throw e;
    }
    try {
      await Deno.rename(tmp, target);
      return;
    } catch (e) {
      if (!isNotEmpty(e)) throw e; // another builder got there first; try again
    } finally {
      await Deno.remove(old, { recursive: true }).catch(() => {});
    }
  }
  throw new SampleStoreError(`Could not move the new sample store into ${target}`);
}

/** `dir` made absolute; a blank one is refused (it would resolve to the current folder). */
function targetOf(dir: string): string {
  if (typeof dir !== "string" || dir.trim() === "") {
    throw new SampleStoreError("The sample store directory must be a non-empty path.");
  }
  return resolve(dir);
}

/**
 * Builds the sample store in `dir` and returns a summary. The store is written to
 * `dir + ".tmp-XXXXXXXX"` first and renamed into place, so `dir` is never half-built. An
 * existing sample store in `dir` is replaced; any other non-empty directory is refused.
 *
 * The output is deterministic: the same builder version and vega-datasets version give the
 * same paths, bytes and modification times.
 *
 * @example Build into a folder (20,000 files; tests/sample/mod_test.ts builds and checks one)
 * ```ts ignore
 * import { buildSampleStore } from "./build.ts";
 *
 * const summary = await buildSampleStore("./store");
 * console.log(summary.datasets, summary.files); // 12 20077
 * ```
 *
 * @example A folder that holds anything else is refused and left as it was
 * ```ts
 * import { buildSampleStore, SampleStoreError } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * const parent = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${parent}/notes.txt`, "mine");
 * await assert.rejects(buildSampleStore(parent), (error) =>
 *   error instanceof SampleStoreError && /is not empty and is not a tern sample store/.test(error.message));
 * assert.equal(await Deno.readTextFile(`${parent}/notes.txt`), "mine");
 * assert.deepEqual([...Deno.readDirSync(parent)].map((entry) => entry.name), ["notes.txt"]);
 * await Deno.remove(parent, { recursive: true });
 * ```
 */
export async function buildSampleStore(
  dir: string,
  options: SampleStoreOptions = {},
): Promise<SampleStoreSummary> {
  const started = performance.now();
  const target = targetOf(dir);
  await assertReplaceable(target);
  await Deno.mkdir(dirname(target), { recursive: true });
  const vega = await VegaDatasets.open(options.vegaDatasetsDir);
  const tree = await describeSampleStore(vega);
  const tmp = `${target}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  await Deno.mkdir(tmp);
  try {
    await tree.writeTo(tmp);
    await swapIn(tmp, target);
  } catch (e) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    if (e instanceof SampleStoreError) throw e;
    throw new SampleStoreError(`Failed to write the sample store to ${target}: ${e}`, {
      cause: e,
    });
  }
  const counts = tree.counts();
  return {
    dir: target,
    version: SAMPLE_STORE_VERSION,
    datasets: SAMPLE_DATASETS.filter((d) => !d.deprecated && !d.staging).length,
    ...counts,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * The environment variable naming the sample store's folder, for {@linkcode defaultSampleStoreDir}
 * (and so `serveSampleStore()`, `exampleStore()` and `tern sample-store --reset`). A relative path
 * is taken from the current folder (the command's, for `tern`).
 *
 * @example
 * ```ts
 * import { SAMPLE_STORE_ENV } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SAMPLE_STORE_ENV, "TERN_SAMPLE_STORE");
 * ```
 */
export const SAMPLE_STORE_ENV = "TERN_SAMPLE_STORE";

/**
 * Where the sample store lives unless a folder is given: `$TERN_SAMPLE_STORE`, else
 * `$XDG_CACHE_HOME/tern/sample-store`, else `~/.cache/tern/sample-store`
 * (`%LOCALAPPDATA%\tern\sample-store` on Windows). Every process of the user shares it. `read`
 * reads the variables (the process's by default; blank ones count as unset). A relative
 * `TERN_SAMPLE_STORE` is returned as it is, for the caller to take from its current folder.
 *
 * @throws {SampleStoreError} when none of the variables is set.
 *
 * @example
 * ```ts
 * import { defaultSampleStoreDir } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(defaultSampleStoreDir().endsWith("sample-store"));
 * const env: Record<string, string> = { HOME: "/home/me", TERN_SAMPLE_STORE: "/scratch/sample" };
 * assert.equal(defaultSampleStoreDir((name) => env[name]), "/scratch/sample");
 * assert.equal(defaultSampleStoreDir((name) => ({ HOME: "/home/me" })[name]), "/home/me/.cache/tern/sample-store");
 * ```
 */
export function defaultSampleStoreDir(
  read: (name: string) => string | undefined = (name) => Deno.env.get(name),
): string {
  const env = (name: string) => {
    const value = read(name);
    return value === undefined || value.trim() === "" ? undefined : value;
  };
  const chosen = env(SAMPLE_STORE_ENV);
  if (chosen !== undefined) return chosen;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg && isAbsolute(xdg)) return join(xdg, "tern", "sample-store");
  const local = Deno.build.os === "windows" ? env("LOCALAPPDATA") : undefined;
  if (local) return join(local, "tern", "sample-store");
  const home = env("HOME") ?? env("USERPROFILE");
  if (!home) {
    throw new SampleStoreError(
      `Cannot choose a default sample store directory: none of ${SAMPLE_STORE_ENV}, ` +
        "XDG_CACHE_HOME and HOME is set. Pass a directory explicitly.",
    );
  }
  return join(home, ".cache", "tern", "sample-store");
}

/** A lock untouched for this long belongs to a crashed process. */
const LOCK_STALE_MS = 30_000;
const LOCK_HEARTBEAT_MS = 5_000;
const LOCK_POLL_MS = 100;
const LOCK_TIMEOUT_MS = 10 * 60_000;

/**
 * Runs `task` holding the lock file beside `target` (waiting for its holder), after making
 * `target`'s parent folder.
 */
async function withLock<T>(target: string, task: () => Promise<T>): Promise<T> {
  await Deno.mkdir(dirname(target), { recursive: true });
  const path = `${target}.lock`;
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  while (true) {
    try {
      await Deno.writeTextFile(path, `${JSON.stringify({ pid: Deno.pid })}\n`, { createNew: true });
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) {
        throw new SampleStoreError(`Cannot create lock file ${path}: ${(e as Error).message}`, {
          cause: e,
        });
      }
      const info = await Deno.stat(path).catch(() => null);
      const age = info?.mtime ? Date.now() - info.mtime.getTime() : 0;
      const pid = age > LOCK_STALE_MS ? await lockHolder(path) : undefined;
      if (age > LOCK_STALE_MS && pid === undefined) {
        // Beside a folder the user named may lie a file of theirs by that name.
        throw new SampleStoreError(
          `${path} is in the way and is not a lock tern wrote; refusing to remove it. Move it, ` +
            "or choose another folder for the sample store.",
        );
      }
      // A live holder gets longer (its pid may also have been reused by another process).
      if (age > 10 * LOCK_STALE_MS || (pid !== undefined && !(await processAlive(pid)))) {
        await Deno.remove(path).catch(() => {});
        continue;
      }
      if (Date.now() > deadline) {
        throw new SampleStoreError(
          `Timed out waiting for ${path}; another process seems stuck building the sample store.`,
        );
      }
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
      continue;
    }
    // Keep the lock fresh while building so waiters never mistake it for a stale one.
    const heartbeat = setInterval(() => {
      const now = new Date();
      Deno.utime(path, now, now).catch(() => {});
    }, LOCK_HEARTBEAT_MS);
    try {
      return await task();
    } finally {
      clearInterval(heartbeat);
      await Deno.remove(path).catch(() => {});
    }
  }
}

/** The process id a lock file of tern's names; undefined for anything else. */
async function lockHolder(path: string): Promise<number | undefined> {
  try {
    const { pid } = JSON.parse(await Deno.readTextFile(path));
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a process still runs, where the system can say (Linux's `/proc`): a build whose
 * heartbeat was held up by a long synchronous step on a busy machine is not mistaken for a
 * crashed one. Elsewhere the heartbeat's age alone decides.
 */
async function processAlive(pid: number): Promise<boolean> {
  try {
    await Deno.stat(`/proc/${pid}`);
    return (await Deno.stat("/proc/self").then(() => true, () => false));
  } catch {
    return false;
  }
}

/**
 * Removes the `X.tmp-XXXXXXXX` / `X.old-XXXXXXXX` folders beside `target` left by crashed builds:
 * only folders named exactly as a build names them, as the user's own files may share the prefix.
 */
async function removeLeftovers(target: string): Promise<void> {
  const prefix = basename(target);
  for await (const entry of Deno.readDir(dirname(target))) {
    const suffix = entry.name.startsWith(prefix) ? entry.name.slice(prefix.length) : "";
    if (!entry.isDirectory || !/^\.(tmp|old)-[0-9a-f]{8}$/.test(suffix)) continue;
    const path = join(dirname(target), entry.name);
    const info = await Deno.lstat(path).catch(() => null);
    // A young one may belong to a concurrent buildSampleStore call that holds no lock.
    if (info?.mtime && Date.now() - info.mtime.getTime() > 10 * LOCK_STALE_MS) {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    }
  }
}

/**
 * True if `dir` holds a complete store made by this builder version from the installed
 * vega-datasets version.
 *
 * @example
 * ```ts
 * import { isSampleStoreCurrent } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * const empty = await Deno.makeTempDir();
 * assert.equal(await isSampleStoreCurrent(empty), false);
 * await Deno.remove(empty);
 * ```
 */
export async function isSampleStoreCurrent(
  dir: string,
  options: SampleStoreOptions = {},
): Promise<boolean> {
  const stamp = await readStamp(resolve(dir));
  if (!stamp) return false;
  const expected = stampFor(await VegaDatasets.open(options.vegaDatasetsDir));
  return stamp.version === expected.version && stamp.source === expected.source;
}

/**
 * Returns the path of an up-to-date sample store, building it only when `dir` has none or an
 * outdated one (its stamp names another builder or vega-datasets version). Safe when several
 * processes call it at once: one builds while the others wait on `dir + ".lock"`.
 *
 * @example Reuse across calls
 * ```ts
 * import { ensureSampleStore } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * const first = await ensureSampleStore(); // the default folder, built once per machine
 * assert.equal(await ensureSampleStore(), first); // no rebuild
 * ```
 */
export async function ensureSampleStore(
  dir: string = defaultSampleStoreDir(),
  options: SampleStoreOptions = {},
): Promise<string> {
  const target = resolve(dir);
  if (await isSampleStoreCurrent(target, options)) return target;
  // Refused before taking the lock or tidying beside it: `dir` may be any folder of the user's.
  await assertReplaceable(target);
  return await withLock(target, async () => {
    if (!(await isSampleStoreCurrent(target, options))) {
      await removeLeftovers(target);
      await buildSampleStore(target, options);
    }
    return target;
  });
}

/**
 * Builds the sample store in `dir` afresh (by default where it lives, see
 * {@linkcode defaultSampleStoreDir}), undoing every edit made to it since it was built, and
 * returns a summary. Like {@linkcode ensureSampleStore} it waits for a build another process is
 * running on `dir`; like {@linkcode buildSampleStore} it refuses a folder holding anything but a
 * sample store, and swaps the new store in whole, so a server still serving `dir` sees either
 * the old store or the new one.
 *
 * @example Edits undone (tests/sample/home_test.ts resets a built one)
 * ```ts ignore
 * import { resetSampleStore } from "./build.ts";
 *
 * const summary = await resetSampleStore(); // where the sample store lives
 * console.log(summary.dir); // e.g. /home/me/.cache/tern/sample-store
 * ```
 *
 * @example A folder that holds anything else is refused and left as it was
 * ```ts
 * import { resetSampleStore, SampleStoreError } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/notes.txt`, "mine");
 * await assert.rejects(resetSampleStore(dir), SampleStoreError);
 * assert.equal(await Deno.readTextFile(`${dir}/notes.txt`), "mine");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function resetSampleStore(
  dir: string = defaultSampleStoreDir(),
  options: SampleStoreOptions = {},
): Promise<SampleStoreSummary> {
  const target = targetOf(dir);
  // Refused before taking the lock, so a wrong folder gets no lock file beside it.
  await assertReplaceable(target);
  return await withLock(target, async () => {
    await removeLeftovers(target);
    return await buildSampleStore(target, options);
  });
}
