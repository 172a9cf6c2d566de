/**
 * nodejs-polars, the very version tern reads files into, for notebooks and scripts that build
 * their own expressions (`pl.col`, `pl.lit`) on tern's frames with no import map of their own.
 *
 * Importing this entry loads the native addon at once (needs `--allow-ffi` and `--allow-sys`, both
 * in `-A`); `mod.ts` alone loads it only when a frame is first made.
 *
 * @example Filter a frame tern returned
 * ```ts
 * import pl from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const frame = pl.DataFrame({ species: ["Adelie", "Gentoo"], mass: [3700, 5076] });
 * assert.deepEqual(frame.filter(pl.col("mass").gt(4000)).getColumn("species").toArray(), ["Gentoo"]);
 * ```
 *
 * @module
 */

import { loadPolarsModule, type PolarsModule } from "./lib/deps.ts";

/**
 * The type of the nodejs-polars namespace (`typeof pl`), for code that passes it around.
 *
 * @example
 * ```ts
 * import pl, { type Polars } from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const namespace: Polars = pl;
 * assert.equal(namespace.DataFrame({ a: [1] }).height, 1);
 * ```
 */
export type Polars = PolarsModule["default"];

/**
 * The nodejs-polars namespace (`pl`), loaded once.
 *
 * @example
 * ```ts
 * import pl from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(pl.DataFrame({ a: [1, 2] }).getColumn("a").toArray(), [1, 2]);
 * ```
 */
const pl: Polars = (await loadPolarsModule()).default;

export default pl;
export type { DataFrame, DataType, Expr, LazyDataFrame, PolarsModule, Series } from "./lib/deps.ts";
