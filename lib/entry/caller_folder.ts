/**
 * `deno task` (like npm) runs every task in the project folder and names the folder the user
 * typed the command in as `INIT_CWD`. Entry points that take paths (`deno task tern`,
 * `deno task serve --root ./store`, `deno task sample-store ./store`, `deno task screenshots
 * --out ./shots`) go back there first, so a relative path means what the user meant.
 *
 * @module
 */

/**
 * Changes the working folder to `INIT_CWD` when `deno task` set it to another existing folder;
 * returns the folder now current. Without permission to read it, or with a folder that is gone,
 * stays where it is.
 *
 * @example
 * ```ts
 * import { returnToCallerFolder } from "./caller_folder.ts";
 * import assert from "node:assert/strict";
 *
 * const here = Deno.cwd();
 * const elsewhere = await Deno.realPath(await Deno.makeTempDir());
 * // Set and restored with no await between: the folder and environment are the process's.
 * Deno.env.set("INIT_CWD", elsewhere);
 * let moved: string;
 * try {
 *   moved = returnToCallerFolder();
 * } finally {
 *   Deno.chdir(here);
 *   Deno.env.delete("INIT_CWD");
 * }
 * assert.equal(moved, elsewhere);
 * await Deno.remove(elsewhere);
 * ```
 */
export function returnToCallerFolder(): string {
  try {
    const caller = Deno.env.get("INIT_CWD");
    if (caller !== undefined && caller !== Deno.cwd() && Deno.statSync(caller).isDirectory) {
      Deno.chdir(caller);
    }
  } catch {
    // Stay where we are.
  }
  return Deno.cwd();
}
