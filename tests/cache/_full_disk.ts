/**
 * A full disk where no small one can be mounted: the cache's temporary files (`/.tmp-` in their
 * path) refuse writes past a number of bytes with the error a full disk gives. Everything else is
 * real.
 *
 * @module
 */

/**
 * Makes the cache's temporary files refuse writes past `bytes` (ENOSPC) until disposed.
 *
 * @example
 * ```ts
 * import { fullDiskAfter } from "./_full_disk.ts";
 * import assert from "node:assert/strict";
 *
 * const open = Deno.open;
 * {
 *   using _ = fullDiskAfter(256 * 1024);
 *   assert.notEqual(Deno.open, open);
 * }
 * assert.equal(Deno.open, open);
 * ```
 */
export function fullDiskAfter(bytes: number): Disposable {
  const realOpen = Deno.open;
  Deno.open = async (path, options) => {
    const file = await realOpen(path, options);
    if (!String(path).includes("/.tmp-")) return file;
    const write = file.write.bind(file);
    let written = 0;
    file.write = (chunk: Uint8Array) => {
      written += chunk.byteLength;
      if (written <= bytes) return write(chunk);
      return Promise.reject(
        Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" }),
      );
    };
    return file;
  };
  return { [Symbol.dispose]: () => void (Deno.open = realOpen) };
}
