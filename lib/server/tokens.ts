/**
 * JWT-shaped access tokens, signed with HMAC-SHA256 (HS256). The real service checks Keycloak
 * signatures; here the server both mints and checks, so a shared secret is enough.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";

/**
 * The profile a token is minted for.
 *
 * @example
 * ```ts
 * import type { TokenSubject } from "./tokens.ts";
 * const who: TokenSubject = {
 *   username: "demo", email: "demo@example.org", firstName: "Demo", lastName: "User",
 * };
 * ```
 */
export interface TokenSubject {
  /** Username. */
  username: string;
  /** Email address. */
  email: string;
  /** First name. */
  firstName: string;
  /** Last name. */
  lastName: string;
}

const REQUIRED_CLAIMS = [
  "preferred_username",
  "email",
  "given_name",
  "family_name",
  "name",
  "entitlement",
] as const;

function encodeSegment(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

function sign(data: string, key: string): Buffer {
  return createHmac("sha256", key).update(data, "utf8").digest();
}

/**
 * Signs a token with `key`. `kind` separates access tokens from refresh tokens: they use
 * different derived keys, so a refresh token is never accepted as a Bearer token.
 *
 * @example
 * ```ts
 * import { mintToken, verifyToken } from "./tokens.ts";
 * import assert from "node:assert/strict";
 *
 * const subject = { username: "demo", email: "d@example.org", firstName: "D", lastName: "U" };
 * const token = mintToken(subject, "secret", 300);
 * const result = verifyToken(token, "secret");
 * assert.equal(result.ok && result.claims.preferred_username, "demo");
 * ```
 */
export function mintToken(
  subject: TokenSubject,
  key: string,
  lifetimeSeconds: number,
  kind: "access" | "refresh" = "access",
  now = Date.now(),
): string {
  const iat = Math.floor(now / 1000);
  const header = encodeSegment({ alg: "HS256", typ: "JWT" });
  const payload = encodeSegment({
    exp: iat + lifetimeSeconds,
    iat,
    jti: randomUUID(),
    typ: kind === "access" ? "Bearer" : "Refresh",
    azp: "tern",
    scope: "profile email",
    preferred_username: subject.username,
    email: subject.email,
    given_name: subject.firstName,
    family_name: subject.lastName,
    name: `${subject.firstName} ${subject.lastName}`.trim(),
    entitlement: [],
  });
  const signature = sign(`${header}.${payload}`, `${kind}:${key}`).toString("base64url");
  return `${header}.${payload}.${signature}`;
}

/**
 * The outcome of checking a token: its claims (Terrain's required ones all present, the username
 * a string), or the 403 reason Terrain gives.
 *
 * @example
 * ```ts
 * import type { TokenCheck } from "./tokens.ts";
 * const failed: TokenCheck = { ok: false, reason: "Untrusted JWT signature." };
 * ```
 */
export type TokenCheck =
  | { ok: true; claims: Record<string, unknown> & { preferred_username: string } }
  | { ok: false; reason: string };

/**
 * Checks an access token's signature, expiry and required claims.
 *
 * @example
 * ```ts
 * import { mintToken, verifyToken } from "./tokens.ts";
 * import assert from "node:assert/strict";
 *
 * const subject = { username: "demo", email: "d@example.org", firstName: "D", lastName: "U" };
 * const old = mintToken(subject, "secret", 1, "access", Date.now() - 10_000);
 * const result = verifyToken(old, "secret");
 * assert.ok(!result.ok && result.reason.startsWith("Token is expired ("));
 * ```
 */
export function verifyToken(token: string, key: string, now = Date.now()): TokenCheck {
  const untrusted: TokenCheck = { ok: false, reason: "Untrusted JWT signature." };
  const parts = token.split(".");
  if (parts.length !== 3) return untrusted;
  const [header, payload, signature] = parts;
  const expected = sign(`${header}.${payload}`, `access:${key}`);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return untrusted;
  let claims: Record<string, unknown>;
  try {
    const decodedHeader = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
    if (decodedHeader?.alg !== "HS256") return untrusted;
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return untrusted;
  }
  if (typeof claims !== "object" || claims === null) return untrusted;
  if (typeof claims.exp === "number" && now / 1000 > claims.exp) {
    return { ok: false, reason: `Token is expired (${claims.exp})` };
  }
  const missing = REQUIRED_CLAIMS.filter((claim) => claims[claim] === undefined);
  if (missing.length > 0) {
    return {
      ok: false,
      reason: `Missing required JWT claims: [${missing.map((claim) => `:${claim}`).join(" ")}]`,
    };
  }
  if (typeof claims.preferred_username !== "string") return untrusted;
  return { ok: true, claims: claims as Record<string, unknown> & { preferred_username: string } };
}
