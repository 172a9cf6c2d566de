import assert from "node:assert/strict";
import { basicCredentials, bearerToken, identify } from "../../lib/server/auth.ts";
import { TerrainError } from "../../lib/server/errors.ts";
import { mintToken } from "../../lib/server/tokens.ts";
import type { UserTable } from "../../lib/server/users.ts";

const table: UserTable = {
  users: new Map(),
  staticTokens: new Map([["st.at.ic", "demo"]]),
  secret: "s",
  tokenLifetimeSeconds: 300,
};

Deno.test("bearerToken: case-insensitive scheme, JWT-shaped values only", () => {
  const headers = (value: string) => new Headers({ authorization: value });
  assert.equal(bearerToken(headers("Bearer a.b.c")), "a.b.c");
  assert.equal(bearerToken(headers("BEARER   a.b.c  ")), "a.b.c");
  assert.equal(bearerToken(headers("Bearer opaque")), undefined);
  assert.equal(bearerToken(headers("Basic a.b.c")), undefined);
  assert.equal(bearerToken(new Headers()), undefined);
});

Deno.test("identify: static tokens, minted tokens, and 403 for anything else", () => {
  const subject = { username: "alice", email: "a@x", firstName: "A", lastName: "L" };
  assert.equal(identify(new Headers({ authorization: "Bearer st.at.ic" }), table), "demo");
  const minted = mintToken(subject, "s", 300);
  assert.equal(identify(new Headers({ authorization: `Bearer ${minted}` }), table), "alice");
  assert.throws(
    () => identify(new Headers({ authorization: "Bearer un.kno.wn" }), table),
    (error: unknown) =>
      error instanceof TerrainError && error.status === 403 &&
      (error.body as { reason: string }).reason === "Untrusted JWT signature.",
  );
  const expired = mintToken(subject, "s", 1, "access", Date.now() - 5000);
  assert.throws(
    () => identify(new Headers({ authorization: `Bearer ${expired}` }), table),
    (error: unknown) =>
      error instanceof TerrainError &&
      /^Token is expired \(\d+\)$/.test((error.body as { reason: string }).reason),
  );
  assert.equal(identify(new Headers({ authorization: "Bearer opaque" }), table), undefined);
});

Deno.test("basicCredentials: exact scheme word, valid base64, a colon", () => {
  const basic = (text: string) => `Basic ${btoa(text)}`;
  assert.deepEqual(basicCredentials(basic("demo:pw")), { username: "demo", password: "pw" });
  assert.deepEqual(basicCredentials(basic("demo:")), { username: "demo", password: "" });
  const utf8 = btoa(String.fromCharCode(...new TextEncoder().encode("zoë:pässword")));
  assert.deepEqual(basicCredentials(`Basic ${utf8}`), { username: "zoë", password: "pässword" });
  assert.equal(basicCredentials(null), undefined);
  assert.equal(basicCredentials(`basic ${btoa("demo:pw")}`), undefined);
  assert.equal(basicCredentials(`BASIC ${btoa("demo:pw")}`), undefined);
  assert.equal(basicCredentials(basic("no-colon")), undefined);
  assert.equal(basicCredentials(basic(":pw")), undefined);
  assert.equal(basicCredentials("Basic !!!"), undefined);
  assert.equal(basicCredentials(`Basic ${btoa("\xff\xfe:x")}`), undefined);
});
