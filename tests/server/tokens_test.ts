import assert from "node:assert/strict";
import { mintToken, verifyToken } from "../../lib/server/tokens.ts";
import { isJwtShaped } from "../../lib/registry/jwt_shape.ts";

const subject = { username: "demo", email: "d@example.org", firstName: "Demo", lastName: "User" };

function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split(".")[1].replaceAll("-", "+").replaceAll("_", "/");
  return JSON.parse(atob(payload));
}

Deno.test("minted tokens are JWT-shaped HS256 tokens with Terrain's required claims", () => {
  const token = mintToken(subject, "k", 300, "access", 1_700_000_000_000);
  assert.ok(isJwtShaped(token));
  const header = JSON.parse(atob(token.split(".")[0].replaceAll("-", "+").replaceAll("_", "/")));
  assert.deepEqual(header, { alg: "HS256", typ: "JWT" });
  const claims = claimsOf(token);
  assert.equal(claims.preferred_username, "demo");
  assert.equal(claims.email, "d@example.org");
  assert.equal(claims.given_name, "Demo");
  assert.equal(claims.family_name, "User");
  assert.equal(claims.name, "Demo User");
  assert.deepEqual(claims.entitlement, []);
  assert.equal(claims.iat, 1_700_000_000);
  assert.equal(claims.exp, 1_700_000_300);
});

Deno.test("verifyToken accepts good tokens and gives Terrain's reasons otherwise", () => {
  const now = Date.now();
  const token = mintToken(subject, "k", 300, "access", now);
  const good = verifyToken(token, "k", now);
  assert.ok(good.ok && good.claims.preferred_username === "demo");
  assert.deepEqual(verifyToken(token, "other", now), {
    ok: false,
    reason: "Untrusted JWT signature.",
  });
  const [h, p, s] = token.split(".");
  const flipped = s.startsWith("A") ? `B${s.slice(1)}` : `A${s.slice(1)}`;
  assert.equal(verifyToken(`${h}.${p}.${flipped}`, "k", now).ok, false);
  const expired = verifyToken(token, "k", now + 301_000);
  assert.deepEqual(expired, { ok: false, reason: `Token is expired (${claimsOf(token).exp})` });
  const refresh = mintToken(subject, "k", 300, "refresh", now);
  assert.equal(verifyToken(refresh, "k", now).ok, false, "refresh tokens are not access tokens");
  assert.equal(verifyToken("a.b.c", "k").ok, false);
  assert.equal(verifyToken("not-a-jwt", "k").ok, false);
});

Deno.test("isJwtShaped", () => {
  assert.ok(isJwtShaped("static.demo.token-1"));
  assert.ok(!isJwtShaped("a.b"));
  assert.ok(!isJwtShaped("a.b.c.d"));
  assert.ok(!isJwtShaped("a..c"));
  assert.ok(!isJwtShaped("a.b.c="));
  assert.ok(!isJwtShaped("a b.c.d"));
});
