/**
 * Where the cache lives by default: `$XDG_CACHE_HOME/tern`, else `~/.cache/tern`.
 *
 * @module
 */

import { isAbsolute, join } from "node:path";

/**
 * The default cache folder, or `undefined` when neither `XDG_CACHE_HOME` nor `HOME` can be read
 * (no `--allow-env`, or unset): the store then works without a cache.
 *
 * @example
 * ```ts
 * import { defaultCacheDir } from "./dir.ts";
 *
 * console.log(defaultCacheDir()); // e.g. "/home/me/.cache/tern"
 * ```
 */
export function defaultCacheDir(): string | undefined {
  const xdg = readEnv("XDG_CACHE_HOME");
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "tern");
  const home = readEnv("HOME") ?? readEnv("USERPROFILE");
  return home === undefined ? undefined : join(home, ".cache", "tern");
}

/** An environment variable, or `undefined` when unset, empty, or not readable (no prompt). */
function readEnv(name: string): string | undefined {
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
