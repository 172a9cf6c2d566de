/**
 * `GET /secured/saved-searches` and `GET /saved-searches`: the caller's saved searches from
 * `ROOT/.terrain/saved-searches/USER.json`, returned byte for byte (`{}` when there are none).
 *
 * @module
 */

import { uncheckedException } from "../errors.ts";
import { bytesReply, JSON_TYPE, type Reply } from "../reply.ts";
import { ifPresent, parseJsonBytes } from "../store_file.ts";
import type { Call } from "./call.ts";

const EMPTY = new TextEncoder().encode("{}");
const SAFE_USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/**
 * Answers the saved searches. The stored file must be JSON (it is checked, not rewritten);
 * a malformed one is a 500 `ERR_UNCHECKED_EXCEPTION` naming the file.
 *
 * @example
 * ```ts
 * import { savedSearchesHandler } from "./saved_searches.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = savedSearchesHandler;
 * ```
 */
export async function savedSearchesHandler(call: Call): Promise<Reply> {
  const relative = `.terrain/saved-searches/${call.user}.json`;
  if (!SAFE_USERNAME.test(call.user)) return bytesReply(200, EMPTY, JSON_TYPE);
  const real = await ifPresent(Deno.realPath(`${call.store.root}/${relative}`));
  if (real !== undefined && !real.startsWith(`${call.store.root}/`)) {
    throw uncheckedException(`${relative} leads out of the store`);
  }
  const bytes = real === undefined ? undefined : await ifPresent(Deno.readFile(real));
  if (bytes === undefined) return bytesReply(200, EMPTY, JSON_TYPE);
  parseJsonBytes(bytes, relative);
  return bytesReply(200, bytes, JSON_TYPE);
}
