/**
 * Where the cache lives by default: `$XDG_CACHE_HOME/tern`, else `~/.cache/tern`; and the
 * prompt-free environment reader that decision (and `connect`'s credentials) rely on.
 *
 * @module
 */

import { isAbsolute, join } from "node:path";

/**
 * The default cache folder, or `undefined` when neither `XDG_CACHE_HOME` nor `HOME` can be read
 * (no `--allow-env`, or unset): the store then works without a cache. `read` reads the
 * variables (the process's by default; the command line passes its own environment's).
 *
 * @example
 * ```ts
 * import { defaultCacheDir } from "./dir.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(defaultCacheDir()!, /\/tern$/); // e.g. "/home/me/.cache/tern"
 * const env: Record<string, string> = { HOME: "/home/me" };
 * assert.equal(defaultCacheDir((name) => env[name]), "/home/me/.cache/tern");
 * ```
 */
export function defaultCacheDir(
  read: (name: string) => string | undefined = readEnv,
): string | undefined {
  const xdg = read("XDG_CACHE_HOME");
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "tern");
  const home = read("HOME") ?? read("USERPROFILE");
  return home === undefined ? undefined : join(home, ".cache", "tern");
}

/**
 * An environment variable, or `undefined` when unset, blank, or not readable. The permission is
 * queried rather than requested, so a notebook without `--allow-env` never stops on a prompt.
 *
 * @example
 * ```ts
 * import { readEnv } from "./dir.ts";
 * import assert from "node:assert/strict";
 *
 * const url = readEnv("TERRAIN_URL") ?? "https://de.cyverse.org/terrain";
 * assert.equal(readEnv("TERN_EXAMPLE_NEVER_SET"), undefined);
 * ```
 */
export function readEnv(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined;
    }
    const value = Deno.env.get(name);
    return value === undefined || value.trim() === "" ? undefined : value;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return undefined;
    }
    throw error;
  }
}
