/**
 * `GET /secured/filesystem/entry/{entry-id}/comments`: the comments on an item, oldest first.
 *
 * @module
 */

import { illegalArgument, notFoundById } from "../errors.ts";
import { isUuid } from "../ids.ts";
import { echo } from "../params.ts";
import { jsonReply, type Reply } from "../reply.ts";
import type { Call } from "./call.ts";

/**
 * Answers the comments request. An item the caller cannot see, or that does not exist, gives
 * Terrain's 500 `ERR_NOT_FOUND` with the id.
 *
 * @example
 * ```ts
 * import { commentsHandler } from "./comments.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = commentsHandler;
 * ```
 */
export async function commentsHandler(call: Call): Promise<Reply> {
  const id = call.pathParams["entry-id"];
  if (!isUuid(id)) {
    throw illegalArgument({ "entry-id": `(not (instance? java.util.UUID ${echo(id)}))` });
  }
  const found = await call.store.lookupId(id, call.user);
  if (found.found !== "item") throw notFoundById(id);
  return jsonReply({ comments: await call.store.comments(found.item, call.user) });
}
