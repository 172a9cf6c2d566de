/**
 * Where `tern get` writes: the destination given with `-o` (a folder, or for a single file a
 * file name), and the local path of each remote file under it. Remote names are checked before
 * they become local paths: a hostile or broken server could send names that would climb out of
 * the destination (`..`, separators, NUL); those are refused, never rewritten.
 *
 * @module
 */

import { resolve } from "node:path";
import { BadRequestError, type Entry } from "../../mod.ts";
import { UsageError } from "./args.ts";
import { quoteInput } from "../client/errors.ts";
import { isSafeLocalName } from "../client/paths.ts";

/**
 * Where downloads go: a folder, or (for a single file) a file path.
 *
 * @example
 * ```ts
 * import type { Destination } from "./targets.ts";
 *
 * const here: Destination = { path: Deno.cwd(), isFolder: true };
 * ```
 */
export interface Destination {
  /** Absolute local path. */
  path: string;
  /** Whether files go inside `path` (else `path` is the file to write). */
  isFolder: boolean;
}

/**
 * Reads `-o DEST` (relative to `cwd`, by default the process's working folder): absent means
 * the current folder; an existing folder, or a path ending in
 * `/`, is a folder; anything else names the file when exactly one file is downloaded, and a
 * folder to create otherwise.
 *
 * @throws {UsageError} when several files would go to one existing file.
 *
 * @example
 * ```ts
 * import { destinationOf } from "./targets.ts";
 * import assert from "node:assert/strict";
 *
 * const destination = await destinationOf("data/", false);
 * assert.ok(destination.isFolder);
 * ```
 */
export async function destinationOf(
  output: string | undefined,
  singleFile: boolean,
  cwd: string = Deno.cwd(),
): Promise<Destination> {
  if (output === undefined) return { path: cwd, isFolder: true };
  const path = resolve(cwd, output);
  const existing = await Deno.stat(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (existing?.isDirectory || output.endsWith("/")) return { path, isFolder: true };
  if (singleFile) return { path, isFolder: false };
  if (existing !== undefined) {
    throw new UsageError(
      `-o ${quoteInput(output)} is a file, but several files are downloaded: give a folder`,
    );
  }
  return { path, isFolder: true };
}

/**
 * The local path for a file downloaded on its own.
 *
 * @throws {BadRequestError} when its name is not a safe local file name.
 *
 * @example
 * ```ts
 * import { BadRequestError } from "../../mod.ts";
 * import { fileTarget } from "./targets.ts";
 * import assert from "node:assert/strict";
 *
 * const folder = { path: "/tmp/data", isFolder: true };
 * assert.equal(fileTarget(folder, { name: "penguins.csv" }), "/tmp/data/penguins.csv");
 * assert.equal(
 *   fileTarget({ path: "/tmp/birds.csv", isFolder: false }, { name: "penguins.csv" }),
 *   "/tmp/birds.csv",
 * );
 * assert.throws(() => fileTarget(folder, { name: ".." }), BadRequestError);
 * ```
 */
export function fileTarget(destination: Destination, entry: Pick<Entry, "name">): string {
  return destination.isFolder ? resolve(destination.path, localName(entry.name)) : destination.path;
}

/**
 * The local folder for a remote folder downloaded with everything under it:
 * `DEST/<folder name>`.
 *
 * @throws {BadRequestError} when its name is not a safe local file name.
 *
 * @example
 * ```ts
 * import { folderTarget } from "./targets.ts";
 * import assert from "node:assert/strict";
 *
 * const folder = { name: "formats" };
 * assert.equal(folderTarget({ path: "/tmp/data", isFolder: true }, folder), "/tmp/data/formats");
 * ```
 */
export function folderTarget(destination: Destination, folder: Pick<Entry, "name">): string {
  return resolve(destination.path, localName(folder.name));
}

/**
 * The local path of `entry`, found by walking `folder`, under the local folder `base`: its path
 * relative to `folder`, every segment checked.
 *
 * @throws {BadRequestError} when the entry is not under the folder, or a segment is not a safe
 * local file name.
 *
 * @example
 * ```ts
 * import { targetUnder } from "./targets.ts";
 * import assert from "node:assert/strict";
 *
 * const target = targetUnder("/tmp/data/formats", { path: "/iplant/home/shared/formats" }, {
 *   path: "/iplant/home/shared/formats/raw/a.csv",
 * });
 * assert.equal(target, "/tmp/data/formats/raw/a.csv");
 * ```
 */
export function targetUnder(
  base: string,
  folder: Pick<Entry, "path">,
  entry: Pick<Entry, "path">,
): string {
  const prefix = `${folder.path}/`;
  if (!entry.path.startsWith(prefix)) {
    throw new BadRequestError(
      `The server listed ${quoteInput(entry.path)} under ${quoteInput(folder.path)}; ` +
        "refusing to save it.",
      { path: entry.path },
    );
  }
  return resolve(base, ...entry.path.slice(prefix.length).split("/").map(localName));
}

/**
 * A remote name as a local file name, unchanged when safe.
 *
 * @throws {BadRequestError} for `""`, `.`, `..`, a name with `/`, `\` or NUL, or one starting
 * with a drive letter (`C:`); see {@linkcode isSafeLocalName}.
 *
 * @example
 * ```ts
 * import { localName } from "./targets.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(localName("données météo.csv"), "données météo.csv");
 * ```
 */
export function localName(name: string): string {
  if (!isSafeLocalName(name)) {
    throw new BadRequestError(
      `Refusing to save an entry named ${quoteInput(name)}: not a safe local file name.`,
    );
  }
  return name;
}
