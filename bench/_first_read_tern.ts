/**
 * The tern contender of the first-read suite: the script a researcher writes, run as a fresh
 * process. With arguments it reads one file into a DataFrame through a store with its own cache
 * folder (`none`: without a cache) and prints `{ "rows": N, "columns": N }` (a fourth argument
 * `text` keeps dates as text, as the naive path reads them); without, it only imports tern
 * (`mod.ts`).
 *
 * ```sh
 * deno run -A bench/_first_read_tern.ts http://127.0.0.1:PORT/terrain \
 *   /iplant/home/shared/tern_samples/formats/penguins.csv /tmp/empty-cache
 * ```
 *
 * @module
 */

import { connect } from "../mod.ts";

const [url, path, cacheDir, dates] = Deno.args;
if (url !== undefined) {
  const cache = cacheDir === "none" ? false : cacheDir;
  const frame = await connect({ url, anonymous: true, cacheDir: cache }).file(path).dataframe({
    tryParseDates: dates !== "text",
  });
  console.log(JSON.stringify({ rows: frame.height, columns: frame.width }));
}
