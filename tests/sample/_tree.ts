/**
 * Test helpers: snapshot a directory tree on disk and read sample-store sidecars.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";

/** One entry of a tree snapshot. */
export interface SnapshotEntry {
  /** `file` or `dir`. */
  type: "file" | "dir";
  /** Size in bytes (0 for directories). */
  size: number;
  /** Modification time, ms. */
  mtime: number;
  /** SHA-256 of the contents (empty for directories). */
  sha256: string;
}

/**
 * Every entry under `root` (and `root` itself as `""`), keyed by `/`-separated relative path.
 *
 * @example
 * ```ts
 * import { snapshot } from "./_tree.ts";
 *
 * const empty = await Deno.makeTempDir();
 * console.log(snapshot(empty).get("")?.type); // "dir"
 * await Deno.remove(empty);
 * ```
 */
export function snapshot(root: string): Map<string, SnapshotEntry> {
  const out = new Map<string, SnapshotEntry>();
  const visit = (rel: string) => {
    const abs = rel === "" ? root : join(root, rel);
    const info = Deno.lstatSync(abs);
    if (info.isDirectory) {
      out.set(rel, { type: "dir", size: 0, mtime: info.mtime!.getTime(), sha256: "" });
      for (const e of Deno.readDirSync(abs)) visit(rel === "" ? e.name : `${rel}/${e.name}`);
    } else {
      const bytes = Deno.readFileSync(abs);
      out.set(rel, {
        type: "file",
        size: bytes.byteLength,
        mtime: info.mtime!.getTime(),
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
    }
  };
  visit("");
  return out;
}

/** A sidecar AVU as read back from disk. */
export interface DiskAvu {
  attr: string;
  value: string;
  unit: string;
  avus?: DiskAvu[];
  [key: string]: unknown;
}

/**
 * Reads a JSON file of the store (`rel` relative to `root`).
 *
 * @example
 * ```ts ignore
 * import { readJson } from "./_tree.ts";
 *
 * const users = readJson<{ users: unknown[] }>("/tmp/store", ".terrain/users.json");
 * ```
 */
export function readJson<T>(root: string, rel: string): T {
  return JSON.parse(Deno.readTextFileSync(join(root, rel))) as T;
}

/**
 * Every AVU in `avus`, depth first, with the chain of parent attributes.
 *
 * @example
 * ```ts
 * import { flatten } from "./_tree.ts";
 *
 * const all = flatten([{ attr: "a", value: "", unit: "", avus: [{ attr: "b", value: "", unit: "" }] }]);
 * console.log(all.map((x) => x.path.join(">"))); // ["a", "a>b"]
 * ```
 */
export function flatten(avus: DiskAvu[], parents: string[] = []): {
  path: string[];
  avu: DiskAvu;
}[] {
  return avus.flatMap((a) => [
    { path: [...parents, a.attr], avu: a },
    ...flatten(a.avus ?? [], [...parents, a.attr]),
  ]);
}
