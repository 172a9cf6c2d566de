/**
 * Where downloads land on the local disk, without following symlinks that happen to be there
 * (`tern get -r` and `File.downloadTo()`; see docs/security.md, "Local destinations").
 *
 * The destination the user names is theirs: if it is a symlink to a folder, files go where it
 * points. Below it, tern never follows a symlink, as rsync does without `--keep-dirlinks` (`-K`):
 * a symlink where a folder belongs is replaced by a real folder (only the link is removed, never
 * anything it points to), a symlink where a file belongs is replaced by the file (renamed over it,
 * never written through), and an existing file is "up to date" only when it is a regular file
 * itself (`lstat`), not a link to one of the same size and date.
 *
 * @module
 */

import { dirname, join, relative, resolve, sep } from "node:path";

/**
 * Makes `folder` and every folder between `root` and it real folders: missing ones are created,
 * symlinks are replaced by empty folders; `root` itself is created if missing and followed if it
 * is a symlink. Returns the symlinks replaced.
 *
 * @throws {RangeError} when `folder` is not `root` or below it.
 * @throws {Deno.errors.AlreadyExists} when a file (not a folder) stands where a folder belongs.
 *
 * @example
 * ```ts
 * import { realFolders } from "./destination.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const elsewhere = await Deno.makeTempDir();
 * await Deno.symlink(elsewhere, `${root}/data`);
 * assert.deepEqual(await realFolders(root, `${root}/data/2024`), [`${root}/data`]);
 * assert.ok((await Deno.lstat(`${root}/data`)).isDirectory);
 * assert.deepEqual([...Deno.readDirSync(elsewhere)], []); // nothing landed outside
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(elsewhere);
 * ```
 */
export async function realFolders(root: string, folder: string): Promise<string[]> {
  const base = resolve(root);
  const inner = resolve(folder);
  if (inner !== base && !inner.startsWith(base + sep)) {
    throw new RangeError(`${inner} is not inside the destination ${base}`);
  }
  await Deno.mkdir(base, { recursive: true });
  const replaced: string[] = [];
  let current = base;
  for (const part of relative(base, inner).split(sep).filter((part) => part !== "")) {
    current = join(current, part);
    // Saves run side by side: another may create or replace the same folder meanwhile.
    for (let attempt = 0;; attempt++) {
      const info = await Deno.lstat(current).catch((error) => {
        if (error instanceof Deno.errors.NotFound) return undefined;
        throw error;
      });
      if (info?.isDirectory) break;
      if (info?.isSymlink) {
        await Deno.remove(current).catch((error) => {
          if (!(error instanceof Deno.errors.NotFound)) throw error;
        });
        replaced.push(current);
      }
      try {
        await Deno.mkdir(current);
        break;
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists) || attempt >= 2) throw error;
      }
    }
  }
  return replaced;
}

/**
 * Whether `target` is a regular file (not a symlink to one) of `size` bytes modified within a
 * second of `modified`: a copy a new download may skip.
 *
 * @example
 * ```ts
 * import { upToDate } from "./destination.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const when = new Date(Date.UTC(2021, 5, 1));
 * await Deno.writeTextFile(`${dir}/real.csv`, "a\n1\n");
 * await Deno.utime(`${dir}/real.csv`, when, when);
 * await Deno.symlink(`${dir}/real.csv`, `${dir}/link.csv`);
 * assert.equal(await upToDate(`${dir}/real.csv`, 4, when), true);
 * assert.equal(await upToDate(`${dir}/link.csv`, 4, when), false);
 * assert.equal(await upToDate(`${dir}/missing.csv`, 4, when), false);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function upToDate(target: string, size: number, modified: Date): Promise<boolean> {
  try {
    const local = await Deno.lstat(target);
    return local.isFile && local.size === size && local.mtime !== null &&
      Math.abs(local.mtime.getTime() - modified.getTime()) < 1000;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Puts the finished `temporary` file at `target` (beside it) by renaming: a symlink at `target` is
 * replaced, never written through.
 *
 * @example
 * ```ts
 * import { placeFile } from "./destination.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/elsewhere.csv`, "keep me");
 * await Deno.symlink(`${dir}/elsewhere.csv`, `${dir}/a.csv`);
 * await Deno.writeTextFile(`${dir}/.a.partial`, "new");
 * await placeFile(`${dir}/.a.partial`, `${dir}/a.csv`);
 * assert.equal(await Deno.readTextFile(`${dir}/a.csv`), "new");
 * assert.ok(!(await Deno.lstat(`${dir}/a.csv`)).isSymlink);
 * assert.equal(await Deno.readTextFile(`${dir}/elsewhere.csv`), "keep me");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function placeFile(temporary: string, target: string): Promise<void> {
  if (dirname(resolve(temporary)) !== dirname(resolve(target))) {
    throw new RangeError("a temporary file is renamed within its own folder");
  }
  await Deno.rename(temporary, target);
}
