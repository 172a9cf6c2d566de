/**
 * Child process for the cache test: reads one file through a store with the given cache folder
 * and prints its row count.
 *
 * @module
 */

import { connect } from "../../mod.ts";

const [url, cacheDir, path] = Deno.args;
const frame = await connect({ url, anonymous: true, cacheDir }).file(path).dataframe();
console.log(frame.height);
