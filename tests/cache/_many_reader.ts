/**
 * Child process of the shared-cache tests: reads `f0.csv` … `f<count - 1>.csv` of a folder one
 * after another through one store with the given cache folder, printing one line per file as it
 * is done: `ok <name>`, `wrong <name>` (not {@linkcode manyCsv}'s rows) or `failed <name>: <error>`.
 *
 * @module
 */

import { connect } from "../../mod.ts";
import { manyCsv } from "./_many.ts";

const [url, cacheDir, folder, count] = Deno.args;
const store = connect({ url, anonymous: true, cacheDir, progress: false });
for (let i = 0; i < Number(count); i++) {
  const name = `f${i}.csv`;
  try {
    const frame = await store.file(`${folder}/${name}`).dataframe();
    console.log(`${frame.writeCSV().toString() === manyCsv(i) ? "ok" : "wrong"} ${name}`);
  } catch (error) {
    console.log(
      `failed ${name}: ${error instanceof Error ? `${error.name}: ${error.message}` : error}`,
    );
  }
}
