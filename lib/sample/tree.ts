/**
 * An in-memory file tree that is written to disk with fixed modification times.
 *
 * The builder first describes the whole store here, then writes it in one pass. Holding the
 * description in memory is what lets every directory get a deterministic mtime: a directory's
 * time is only known once all of its children are known.
 *
 * @module
 */

import { join } from "node:path";
import { baseName } from "../server/zone_path.ts";

/**
 * What a file in the store is for; only `data` files are visible through the API.
 *
 * @example
 * ```ts
 * import { type EntryKind, StoreTree } from "./tree.ts";
 * import assert from "node:assert/strict";
 *
 * const kind: EntryKind = "sidecar";
 * const tree = new StoreTree();
 * tree.addFile("ds/.avus.json", new TextEncoder().encode("[]"), new Date(0), kind);
 * assert.equal(tree.counts().sidecars, 1);
 * ```
 */
export type EntryKind = "data" | "sidecar" | "config";

/**
 * Counts over a tree, as reported by the builder.
 *
 * @example
 * ```ts
 * import { StoreTree, type TreeCounts } from "./tree.ts";
 * import assert from "node:assert/strict";
 *
 * const tree = new StoreTree();
 * tree.addFile("x/a.csv", new Uint8Array(3), new Date(0));
 * const counts: TreeCounts = tree.counts();
 * assert.deepEqual(counts, { files: 1, bytes: 3, sidecars: 0, folders: 1 });
 * ```
 */
export interface TreeCounts {
  /** Files visible through the API (excludes sidecars and `.terrain/` configuration). */
  files: number;
  /** Bytes of the visible files. */
  bytes: number;
  /** AVU and comment sidecar files. */
  sidecars: number;
  /** Directories, excluding the root. */
  folders: number;
}

/** Directory mtime used when a directory has no children and no explicit time. */
const EMPTY_DIR_TIME = new Date(Date.UTC(2015, 0, 1));

/**
 * Converts a data-store path such as `/iplant/home/demo/x.csv` to a path relative to the
 * store root (`iplant/home/demo/x.csv`).
 *
 * @example
 * ```ts
 * import { storeRelative } from "./tree.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(storeRelative("/iplant/home/demo"), "iplant/home/demo");
 * ```
 */
export function storeRelative(storePath: string): string {
  if (!storePath.startsWith("/") || storePath.includes("//") || storePath.endsWith("/")) {
    throw new TypeError(`Not an absolute data-store path: ${JSON.stringify(storePath)}`);
  }
  const parts = storePath.slice(1).split("/");
  if (parts.some((p) => p === "." || p === "..")) {
    throw new TypeError(`Data-store path must not contain "." or "..": ${storePath}`);
  }
  return parts.join("/");
}

function parentOf(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}

/**
 * A file tree described in memory and written to disk with fixed times.
 *
 * Directory times default to the newest time among their visible (non-dot) children, so a
 * folder looks "last modified" when its newest file was added, as it would on a real store.
 *
 * @example Describe and write a tiny tree
 * ```ts
 * import { StoreTree } from "./tree.ts";
 * import assert from "node:assert/strict";
 *
 * const tree = new StoreTree();
 * tree.addFile("iplant/home/demo/a.txt", "hi\n", new Date(0));
 * const root = await Deno.makeTempDir();
 * await tree.writeTo(root);
 * assert.equal(await Deno.readTextFile(`${root}/iplant/home/demo/a.txt`), "hi\n");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export class StoreTree {
  // Each file's contents, the time written to disk as its modification and access time, and role.
  #files = new Map<string, { bytes: Uint8Array; mtime: Date; kind: EntryKind }>();
  #dirs = new Map<string, Date | undefined>();

  /**
   * Adds a file at `rel` (relative to the root, `/`-separated) holding `content` (text is
   * written as UTF-8). Duplicate paths are an error.
   */
  addFile(rel: string, content: Uint8Array | string, mtime: Date, kind: EntryKind = "data"): void {
    if (rel === "" || rel.startsWith("/") || rel.split("/").some((p) => p === "" || p === "..")) {
      throw new TypeError(`Invalid relative path in sample tree: ${JSON.stringify(rel)}`);
    }
    if (this.#files.has(rel) || this.#dirs.has(rel)) {
      throw new Error(`Sample tree already has an entry at ${rel}`);
    }
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    this.#files.set(rel, { bytes, mtime, kind });
    this.#ensureDir(parentOf(rel));
  }

  /** Declares a directory (possibly empty), optionally with an explicit mtime. */
  addDir(rel: string, mtime?: Date): void {
    this.#ensureDir(rel); // refuses a path that holds a file
    if (mtime) this.#dirs.set(rel, mtime);
  }

  /** True if a file exists at `rel`. */
  hasFile(rel: string): boolean {
    return this.#files.has(rel);
  }

  /** Counts of visible files, their bytes, sidecars and folders. */
  counts(): TreeCounts {
    const { data = [], sidecar = [] } = Object.groupBy(this.#files.values(), (f) => f.kind);
    const bytes = data.reduce((sum, f) => sum + f.bytes.byteLength, 0);
    return { files: data.length, bytes, sidecars: sidecar.length, folders: this.#dirs.size - 1 };
  }

  #ensureDir(rel: string): void {
    while (!this.#dirs.has(rel)) {
      if (this.#files.has(rel)) throw new Error(`Sample tree has a file at ${rel}`);
      this.#dirs.set(rel, undefined);
      if (rel === "") break;
      rel = parentOf(rel);
    }
  }

  /** Resolved directory times: explicit ones, else newest visible child, else newest child. */
  #dirTimes(): Map<string, Date> {
    const visible = new Map<string, number>();
    const any = new Map<string, number>();
    // A child's time counts towards its parent's newest; a hidden child's only towards `any`.
    const bump = (rel: string, t: number) => {
      const parent = parentOf(rel);
      for (const map of baseName(rel).startsWith(".") ? [any] : [any, visible]) {
        if ((map.get(parent) ?? -Infinity) < t) map.set(parent, t);
      }
    };
    for (const [rel, f] of this.#files) bump(rel, f.mtime.getTime());
    const out = new Map<string, Date>();
    const deepestFirst = [...this.#dirs.keys()].sort((a, b) => depth(b) - depth(a));
    for (const dir of deepestFirst) {
      const newest = visible.get(dir) ?? any.get(dir);
      const t = this.#dirs.get(dir) ?? (newest === undefined ? EMPTY_DIR_TIME : new Date(newest));
      out.set(dir, t);
      if (dir !== "") bump(dir, t.getTime());
    }
    return out;
  }

  /**
   * Writes the tree under `root` (which must exist and be empty), then sets every file and
   * directory time, deepest directories first and `root` itself last.
   */
  writeTo(root: string): Promise<void> {
    // Synchronous calls on purpose: for tens of thousands of tiny files they are several
    // times faster than async ones, whose per-call thread-pool hop dominates.
    // Sorted, a folder comes before everything in it.
    for (const dir of [...this.#dirs.keys()].sort()) {
      if (dir !== "") Deno.mkdirSync(join(root, dir));
    }
    for (const rel of [...this.#files.keys()].sort()) {
      const f = this.#files.get(rel)!;
      const abs = join(root, rel);
      Deno.writeFileSync(abs, f.bytes);
      Deno.utimeSync(abs, f.mtime, f.mtime);
    }
    // Only now are directory contents final; setting a child's time does not touch its parent.
    for (const [dir, t] of this.#dirTimes()) {
      Deno.utimeSync(dir === "" ? root : join(root, dir), t, t);
    }
    return Promise.resolve();
  }
}

function depth(rel: string): number {
  return rel === "" ? 0 : rel.split("/").length;
}
