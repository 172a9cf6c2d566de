/**
 * nodejs-polars, the very version tern reads files into, for notebooks and scripts that build
 * their own expressions (`pl.col`, `pl.lit`) on tern's frames with no import map of their own.
 *
 * Importing this entry loads the native addon at once (needs `--allow-ffi`, included in `-A`);
 * `mod.ts` alone loads it only when a frame is first made.
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

/** The nodejs-polars namespace (`pl`), loaded once. */
const pl: PolarsModule["default"] = (await loadPolarsModule()).default;

export default pl;
export type { DataFrame, DataType, Expr, LazyDataFrame, Series } from "./lib/deps.ts";
