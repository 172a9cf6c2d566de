/**
 * `GET /secured/filesystem/{data-id}/metadata` (and its anonymous variant): an item's AVUs
 * from its sidecar, rendered as the metadata service and data-info would.
 *
 * @module
 */

import { doesNotExist, illegalArgument, notReadableById } from "../errors.ts";
import { isUuid } from "../ids.ts";
import { echo } from "../params.ts";
import { jsonReply, type Reply } from "../reply.ts";
import { renderAvus, visibleIrodsAvus } from "../sidecars.ts";
import type { Call } from "./call.ts";

/**
 * Answers the metadata request. A malformed sidecar is reported as a 500
 * `ERR_UNCHECKED_EXCEPTION` naming the sidecar by its data-store path. An item the caller may
 * not read is a 403 naming only its id (see {@link notReadableById}).
 *
 * @example
 * ```ts
 * import { metadataHandler } from "./metadata.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = metadataHandler;
 * ```
 */
export async function metadataHandler(call: Call): Promise<Reply> {
  const { store, user } = call;
  const id = call.pathParams["data-id"];
  if (!isUuid(id)) {
    throw illegalArgument(
      `java.lang.IllegalArgumentException: Invalid UUID string: ${echo(id).slice(1, -1)}`,
    );
  }
  const found = await store.lookupId(id, user);
  if (found.found === "missing") throw doesNotExist("uuid", id);
  if (found.found === "unreadable") throw notReadableById(id, user);
  const item = found.item;
  const metadata = await store.metadata(item, user);
  const itemId = store.idOf(item.path);
  return jsonReply({
    path: item.path,
    "irods-avus": visibleIrodsAvus(metadata.irodsAvus),
    avus: renderAvus(metadata.avus, itemId, store.ownerOf(item.path), metadata.mtime),
  });
}
