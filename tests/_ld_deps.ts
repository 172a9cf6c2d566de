/**
 * The JSON-LD tools the tests check tern's RO-Crate and Croissant documents with: `jsonld`
 * (expansion, with contexts served from local copies, no network) and `ro-crate` (the Language
 * Data Commons RO-Crate library and its validator). Test-only: tern never loads them.
 *
 * The `ro-crate` validator fetches the crate's context with the `fetch` it finds when it loads:
 * before it loads, fetch learns to answer the RO-Crate 1.1 context from the local copy (every
 * other request goes out as before), so nothing reaches the network. That is done here, where
 * the library is loaded, so that no order of imports (several test files share a worker in
 * `deno task test`) can load it first with the plain fetch.
 *
 * @module
 */

import { RO_CRATE_CONTEXT } from "../lib/ld/crate.ts";

export { default as jsonld } from "npm:jsonld@9.0.0";

/** The RO-Crate 1.1 context, from its local copy. */
export const RO_CRATE_1_1 = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/ro-crate-1.1-context.jsonld", import.meta.url)),
);

const realFetch = globalThis.fetch;
globalThis.fetch =
  ((input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === RO_CRATE_CONTEXT
      ? Promise.resolve(Response.json(RO_CRATE_1_1))
      : realFetch(input, init)) as typeof fetch;

/** The `ro-crate` library, loaded once fetch answers its context locally. */
// deno-lint-ignore no-import-prefix -- imported after the line above runs, so not statically
export const roCrate = await import("npm:ro-crate@3.7.2");
