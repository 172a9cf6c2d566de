/**
 * Child process for the concurrency test: ensures a sample store in the directory given as
 * the only argument, then prints its path and the store directory's inode as JSON.
 *
 * @module
 */

import { ensureSampleStore } from "../../lib/sample/mod.ts";

const path = await ensureSampleStore(Deno.args[0]);
console.log(JSON.stringify({ path, ino: Deno.statSync(path).ino }));
