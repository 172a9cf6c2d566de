/**
 * {@linkcode fetchStoreId}: the identity a store reports, which a lock records beside the URL so
 * that the same store is recognised at another address (tern's embedded server on a new port).
 *
 * @module
 */

import { ProtocolError, quoteInput } from "./errors.ts";
import type { Transport } from "./transport.ts";

/**
 * The header of the health answer (`GET <base>/`) that names the store: tern's embedded server
 * sends it, the real Terrain does not (its URL is then its identity).
 *
 * @example
 * ```ts
 * import { STORE_ID_HEADER } from "./store_id.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(STORE_ID_HEADER, "tern-store-id");
 * ```
 */
export const STORE_ID_HEADER = "tern-store-id";

/**
 * What a store id is: 1 to 128 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or
 * digit.
 *
 * @example
 * ```ts
 * import { STORE_ID } from "./store_id.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(STORE_ID.test("tern-sample-store"));
 * assert.ok(!STORE_ID.test("a b"));
 * ```
 */
export const STORE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * The id the store behind `transport` reports, or `undefined` when it reports none. One GET of
 * the gateway's health answer, which needs no sign-in, so it carries no credentials.
 *
 * @throws {ProtocolError} when the id the store sends is not one ({@linkcode STORE_ID}).
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { fetchStoreId } from "./store_id.ts";
 * import { Transport } from "./transport.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const id = await fetchStoreId(new Transport({ url: store.options.url }));
 * assert.ok(id !== undefined && id.length > 0);
 * ```
 */
export async function fetchStoreId(
  transport: Transport,
  options: { signal?: AbortSignal } = {},
): Promise<string | undefined> {
  const { headers, body } = await transport.stream({
    path: "/",
    endpoint: "health",
    authenticate: false,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  await body.cancel();
  const id = headers.get(STORE_ID_HEADER);
  if (id === null) return undefined;
  if (!STORE_ID.test(id)) {
    throw new ProtocolError(
      `The store's health answer names it ${quoteInput(id)} in ${STORE_ID_HEADER}, which is not ` +
        'a store id (1 to 128 letters, digits, ".", "_", ":" or "-").',
      { endpoint: "health" },
    );
  }
  return id;
}
