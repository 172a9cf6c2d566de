/**
 * nodejs-polars, loaded on first use (`loadPolars`, from `lib/polars/adapter.ts`). It is a native
 * addon, so importing tern does not need `--allow-ffi` until a frame is made. Its readers take a node `Buffer` (a `Uint8Array` is read
 * as a path or as inline text), so bytes are always wrapped without copying.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { loadPolars, type Polars } from "../polars/adapter.ts";

export { loadPolars, type Polars };

/**
 * nodejs-polars, loading from the start of a read while the file's stat and bytes are on their
 * way (a fresh process spends tens of milliseconds loading it), to be awaited only to parse. A
 * read that fails before then leaves a failed load unreported; the next read tries again.
 *
 * @example
 * ```ts
 * import { polarsLoading } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const loading = polarsLoading(); // starts now
 * const pl = await loading; // awaited where a frame is made
 * assert.equal(pl.DataFrame({ a: [1] }).height, 1);
 * ```
 */
export function polarsLoading(): Promise<Polars> {
  const loading = loadPolars();
  loading.catch(() => {});
  return loading;
}

/**
 * A node `Buffer` over the same memory as `bytes` (no copy), as the Polars readers require.
 *
 * @example
 * ```ts
 * import { asBuffer } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode("a,b\n1,2\n");
 * assert.ok(asBuffer(bytes).length === bytes.length);
 * ```
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Options of `pl.readCSV`.
 *
 * @example
 * ```ts
 * import type { CsvOptions } from "./polars.ts";
 *
 * const options: CsvOptions = { sep: ";", hasHeader: true, nullValues: "NA" };
 * ```
 */
export type CsvOptions = NonNullable<Parameters<Polars["readCSV"]>[1]>;

/**
 * `fields` without the ones that are `undefined`: Polars takes a key that is present as a
 * value given, so an option not given must be left out, not set to `undefined`.
 *
 * @example
 * ```ts
 * import { defined } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(defined({ nRows: 10, columns: undefined }), { nRows: 10 });
 * ```
 */
export function defined<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
