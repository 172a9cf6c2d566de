import assert from "node:assert/strict";
import { basicCredentials, bearerToken, identify } from "../../lib/server/auth.ts";
import { TerrainError } from "../../lib/server/errors.ts";
import { mintToken } from "../../lib/server/tokens.ts";
import type { UserTable } from "../../lib/server/users.ts";
import { ALICE, bearer, DEMO, serveStore } from "./_store.ts";

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
  const now = Date.UTC(2026, 0, 1);
  const as = (token: string, at = now) =>
    identify(new Headers({ authorization: `Bearer ${token}` }), table, at);
  assert.equal(as("st.at.ic"), "demo");
  assert.equal(as("st.at.ic", now + 1e12), "demo", "a static token never expires");
  const minted = mintToken(subject, "s", 300, "access", now);
  assert.equal(as(minted), "alice");
  assert.equal(as(minted, now + 300_000), "alice");
  assert.throws(
    () => as("un.kno.wn"),
    (error: unknown) =>
      error instanceof TerrainError && error.status === 403 &&
      (error.body as { reason: string }).reason === "Untrusted JWT signature.",
  );
  assert.throws(
    () => as(minted, now + 301_000),
    (error: unknown) =>
      error instanceof TerrainError &&
      (error.body as { reason: string }).reason === `Token is expired (${now / 1000 + 300})`,
  );
  assert.equal(as("opaque"), undefined);
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

Deno.test("the de-access-token cookie signs a request in where no Bearer token does", async () => {
  await using fixture = await serveStore();
  const root = (headers: HeadersInit) =>
    fetch(`${fixture.url}/secured/filesystem/root`, { headers });
  const byCookie = await root({ cookie: `theme=dark; de-access-token=${DEMO.token}` });
  assert.equal(byCookie.status, 200);
  assert.equal((await byCookie.json())["base-paths"].user_home_path, "/iplant/home/demo");
  // The Authorization header comes first; one Terrain ignores (not a JWT) leaves the cookie.
  const [both, opaque, bad] = await Promise.all([
    root({ ...bearer(ALICE.token), cookie: `de-access-token=${DEMO.token}` }),
    root({ authorization: "Bearer opaque", cookie: `de-access-token=${DEMO.token}` }),
    root({ cookie: "de-access-token=un.kno.wn" }),
  ]);
  assert.equal((await both.json())["base-paths"].user_home_path, "/iplant/home/alice");
  assert.equal((await opaque.json())["base-paths"].user_home_path, "/iplant/home/demo");
  assert.equal(bad.status, 403);
  assert.deepEqual(await bad.json(), {
    error_code: "ERR_FORBIDDEN",
    reason: "Untrusted JWT signature.",
  });
});
