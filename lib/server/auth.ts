/**
 * Who is calling: Bearer tokens (or the `de-access-token` cookie of Terrain's browser sign-in) for
 * data routes, HTTP Basic for the token endpoint only.
 *
 * @module
 */

import { forbidden } from "./errors.ts";
import { isJwtShaped } from "../registry/jwt_shape.ts";
import { verifyToken } from "./tokens.ts";
import type { UserTable } from "./users.ts";

/**
 * The Bearer token of a request, or `undefined` when there is none or it is not JWT-shaped
 * (Terrain ignores such a header as if it were absent). The scheme word is case-insensitive.
 *
 * @example
 * ```ts
 * import { bearerToken } from "./auth.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(bearerToken(new Headers({ authorization: "bearer a.b.c" })), "a.b.c");
 * assert.equal(bearerToken(new Headers({ authorization: "Bearer opaque" })), undefined);
 * ```
 */
export function bearerToken(headers: Headers): string | undefined {
  const match = /^[ \t]*bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get("authorization") ?? "");
  return match && isJwtShaped(match[1]) ? match[1] : undefined;
}

/**
 * The username behind a request's Bearer token, or else its `de-access-token` cookie (the order
 * Terrain looks in), `undefined` when it sent neither. A minted token is checked against `now`
 * (ms since the epoch, the server's clock).
 *
 * @throws {TerrainError} 403 `ERR_FORBIDDEN` for an unknown, badly signed or expired token.
 *
 * @example
 * ```ts
 * import { identify } from "./auth.ts";
 * import assert from "node:assert/strict";
 *
 * const table = {
 *   users: new Map(), staticTokens: new Map([["st.at.ic", "demo"]]),
 *   secret: "s", tokenLifetimeSeconds: 300,
 * };
 * assert.equal(identify(new Headers({ authorization: "Bearer st.at.ic" }), table, 0), "demo");
 * assert.equal(identify(new Headers(), table, 0), undefined);
 * ```
 */
export function identify(headers: Headers, table: UserTable, now: number): string | undefined {
  const token = bearerToken(headers) ?? cookieToken(headers);
  if (token === undefined) return undefined;
  const staticUser = table.staticTokens.get(token);
  if (staticUser !== undefined) return staticUser;
  const check = verifyToken(token, table.secret, now);
  if (!check.ok) throw forbidden(check.reason);
  return check.claims.preferred_username;
}

/** The `de-access-token` cookie, which Terrain's browser sign-in (`/terrain/oidc/*`) sets. */
function cookieToken(headers: Headers): string | undefined {
  for (const pair of (headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = pair.split("=");
    if (name.trim() === "de-access-token" && value.join("=").trim() !== "") {
      return value.join("=").trim();
    }
  }
  return undefined;
}

/**
 * Username and password from an `Authorization: Basic ...` header, or `undefined` when the
 * header is absent or garbled. `Basic` must be spelled exactly so (Terrain is case-sensitive).
 *
 * @example
 * ```ts
 * import { basicCredentials } from "./auth.ts";
 * import assert from "node:assert/strict";
 *
 * const header = `Basic ${btoa("demo:s3cret:x")}`;
 * assert.deepEqual(basicCredentials(header), { username: "demo", password: "s3cret:x" });
 * assert.equal(basicCredentials(`basic ${btoa("demo:pw")}`), undefined);
 * ```
 */
export function basicCredentials(
  header: string | null,
): { username: string; password: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/.exec(header?.trim() ?? "");
  if (!match) return undefined;
  let decoded: string;
  try {
    const binary = atob(match[1]);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
