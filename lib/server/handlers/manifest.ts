/**
 * `GET /secured/filesystem/file/manifest` (and its anonymous variant): a file's detected media
 * type, infoType, and a public URL when the anonymous user can read it.
 *
 * @module
 */

import { doesNotExist, notAFile, notReadable, uncheckedException } from "../errors.ts";
import { ParamCheck } from "../params.ts";
import { ANONYMOUS } from "../permissions.ts";
import { jsonReply, type Reply } from "../reply.ts";
import type { Call } from "./call.ts";
import { fileMediaType } from "./downloads.ts";

/**
 * The anonymous download URL of a data-store path under this server's `dav-anon` tree (each
 * segment percent-encoded, spaces as `%20`), mirroring production's
 * `https://data.cyverse.org/dav-anon/...`.
 *
 * @example
 * ```ts
 * import { anonymousUrl } from "./manifest.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   anonymousUrl("http://127.0.0.1:8080", "/iplant/home/shared/my data.csv"),
 *   "http://127.0.0.1:8080/dav-anon/iplant/home/shared/my%20data.csv",
 * );
 * ```
 */
export function anonymousUrl(origin: string, path: string): string {
  const encoded = path.split("/").map((segment) => encodeURIComponent(segment.toWellFormed()));
  return `${origin}/dav-anon${encoded.join("/")}`;
}

/**
 * Answers the manifest. A request without `path` fails inside Terrain before reaching the
 * data service, hence the 500 `ERR_UNCHECKED_EXCEPTION`.
 *
 * @example
 * ```ts
 * import { manifestHandler } from "./manifest.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = manifestHandler;
 * ```
 */
export async function manifestHandler(call: Call): Promise<Reply> {
  const { store, user } = call;
  if (!call.params.has("path")) throw uncheckedException("the path parameter is missing");
  const check = new ParamCheck(call.params);
  const path = check.string("path", { required: true, nonBlank: true });
  check.done();
  const found = await store.lookup(path!, user);
  if (found.found === "missing") throw doesNotExist("paths", found.path);
  if (found.found === "unreadable") throw notReadable("paths", found.path, user);
  const item = found.item;
  if (item.kind !== "file") throw notAFile("paths", item.path);
  const publicCopy = await store.lookup(item.path, ANONYMOUS);
  return jsonReply({
    "content-type": await fileMediaType(store, item),
    infoType: await store.infoType(item, user),
    urls: publicCopy.found === "item"
      ? [{ label: "anonymous", url: anonymousUrl(call.origin, item.path) }]
      : [],
  });
}
