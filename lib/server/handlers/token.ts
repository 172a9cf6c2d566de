/**
 * `GET /terrain/token/keycloak` and `GET /terrain/token`: exchanges HTTP Basic credentials for
 * a signed access token, answering with Keycloak's token body.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { basicCredentials } from "../auth.ts";
import { TerrainError } from "../errors.ts";
import { jsonReply, type Reply } from "../reply.ts";
import { mintToken } from "../tokens.ts";
import { passwordMatches } from "../users.ts";
import type { Call } from "./call.ts";

/** Keycloak's default refresh-token lifetime, in seconds. */
const REFRESH_LIFETIME_SECONDS = 1800;

/**
 * Answers the token request: 401 with an empty body for a missing or garbled `Basic` header,
 * 401 `invalid_grant` for an unknown user or a wrong password.
 *
 * @example
 * ```ts
 * import { tokenHandler } from "./token.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = tokenHandler;
 * ```
 */
export async function tokenHandler(call: Call): Promise<Reply> {
  const credentials = basicCredentials(call.headers.get("authorization"));
  if (!credentials) throw new TerrainError(401, null);
  const table = await call.users.current();
  const user = table.users.get(credentials.username);
  if (!passwordMatches(user, credentials.password) || !user) {
    throw new TerrainError(401, {
      error: "invalid_grant",
      error_description: "Invalid user credentials",
    });
  }
  const lifetime = table.tokenLifetimeSeconds;
  const now = call.users.clock();
  const refreshLifetime = Math.max(lifetime, REFRESH_LIFETIME_SECONDS);
  return jsonReply(
    {
      access_token: mintToken(user, table.secret, lifetime, "access", now),
      expires_in: lifetime,
      refresh_expires_in: refreshLifetime,
      refresh_token: mintToken(user, table.secret, refreshLifetime, "refresh", now),
      token_type: "Bearer",
      "not-before-policy": 0,
      session_state: randomUUID(),
      scope: "profile email",
    },
    200,
    "application/json",
  );
}
