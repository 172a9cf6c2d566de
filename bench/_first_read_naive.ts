/**
 * The baseline of the first-read suite: what a script does without tern, run as a fresh
 * process. With a URL it fetches the file, then parses the bytes with nodejs-polars and prints
 * `{ "rows": N, "columns": N }`; without, it only imports nodejs-polars. A second argument
 * `import-tern` imports tern's `mod.ts` first (and uses nothing of it): the least time a tern
 * read could take, whatever it does after loading its modules.
 *
 * ```sh
 * deno run -A bench/_first_read_naive.ts \
 *   "http://127.0.0.1:PORT/terrain/fileio/download?path=/iplant/home/shared/bench/data/weather.csv"
 * ```
 *
 * @module
 */

import { Buffer } from "node:buffer";
// deno-lint-ignore no-import-prefix -- a script written without tern, pinned as lib/deps.ts pins it
import pl from "npm:nodejs-polars@0.25.2";

const [url, tern] = Deno.args;
// The bound of tern's first read: tern's modules loaded (not used), then the naive read.
if (tern === "import-tern") await import("../mod.ts");
if (url !== undefined) {
  const bytes = await (await fetch(url)).arrayBuffer();
  const frame = pl.readCSV(Buffer.from(bytes));
  console.log(JSON.stringify({ rows: frame.height, columns: frame.width }));
}
