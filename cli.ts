/**
 * `tern`: the command line. Lists, walks, describes, cites, previews and downloads data in a
 * CyVerse data store (or any Terrain-compatible server), and runs the embedded server.
 *
 * ```sh
 * deno task tern ls -l /iplant/home/shared/commons_repo/curated
 * deno install -g -A -n tern --config deno.json cli.ts     # then: tern --help
 * ```
 *
 * @example Run the command line from code
 * ```ts ignore
 * import { runCli } from "./cli.ts";
 *
 * const status = await runCli(["stat", "--json", "/iplant/home/shared"]);
 * ```
 *
 * @module
 */

import { main } from "./lib/cli/main.ts";

export { runCli } from "./lib/cli/main.ts";
export { type CliIo, Output } from "./lib/cli/io.ts";
export type { Styles } from "./lib/cli/format.ts";

if (import.meta.main) await main();
