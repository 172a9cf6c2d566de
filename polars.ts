/**
 * nodejs-polars, the very version tern reads files into, for notebooks and scripts that build
 * their own expressions (`pl.col`, `pl.lit`) on tern's frames with no import map of their own.
 *
 * Importing this entry loads the native addon at once (needs `--allow-ffi` and `--allow-sys`,
 * both in `-A`);
 * `mod.ts` alone loads it only when a frame is first made. Every frame this `pl` makes — and
 * every frame derived from one (`filter`, `groupBy`, `join`, `select`, …) — shows the tern view
 * in notebooks; `setFrameView("polars")` (from `mod.ts`) brings back Polars' own table, and
 * `view(frame, options)` shows one frame with options (rows, columns, precision), also a frame
 * of another Polars.
 *
 * @example A derived frame shows the tern view
 * ```ts
 * import pl from "./polars.ts";
 * import assert from "node:assert/strict";
 *
 * const means = pl.DataFrame({ species: ["Adelie", "Adelie"], mass: [3.9, 4.04] })
 *   .groupBy("species").agg(pl.col("mass").mean());
 * const bundle = (means as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")]();
 * assert.match(bundle["text/plain"], / 3\.97$/m); // rounded for display (Polars shows 3.9699999999999998)
 * assert.ok(bundle["text/html"].includes('title="3.9699999999999998"')); // exact on hover
 * ```
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

import type { PolarsModule } from "./lib/deps.ts";
import { loadPolars } from "./lib/data/polars.ts";
import { installFrameView } from "./lib/frames/view.ts";

// Every frame this `pl` makes, derived ones included, shows the tern view in notebooks.
installFrameView();

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
const pl: Polars = await loadPolars();

export default pl;
export type { DataFrame, DataType, Expr, LazyDataFrame, PolarsModule, Series } from "./lib/deps.ts";
