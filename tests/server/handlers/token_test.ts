import assert from "node:assert/strict";
import { assertShape, bearer, DEMO, get, serveStore } from "../_store.ts";

const basic = (user: string, password: string) => ({
  authorization: `Basic ${btoa(`${user}:${password}`)}`,
});

Deno.test("both token routes answer Keycloak's body, and the token works", async () => {
  await using fixture = await serveStore();
  for (const path of ["/token/keycloak", "/token", "/terrain/token"]) {
    const base = path.startsWith("/terrain") ? fixture.url.replace(/\/terrain$/, "") : fixture.url;
    const { status, json } = await get(`${base}${path}`, basic(DEMO.username, DEMO.password));
    assert.equal(status, 200, path);
    assertShape(json, {
      access_token: "string",
      expires_in: "integer",
      refresh_expires_in: "integer",
      refresh_token: "string",
      token_type: "string",
      "not-before-policy": "integer",
      session_state: "string",
      scope: "string",
    });
    assert.equal(json.expires_in, 300);
    assert.equal(json.token_type, "Bearer");
    assert.match(json.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const root = await get(`${fixture.url}/secured/filesystem/root`, bearer(json.access_token));
    assert.equal(root.status, 200);
    assert.equal(root.json.roots[0].path, "/iplant/home/demo");
    const refresh = await get(`${fixture.url}/secured/filesystem/root`, bearer(json.refresh_token));
    assert.equal(refresh.status, 403, "a refresh token is not an access token");
  }
});

Deno.test("token failures: empty 401 for no or garbled Basic, invalid_grant for bad credentials", async () => {
  await using fixture = await serveStore();
  for (
    const headers of [{}, { authorization: "basic ZGVtbzpkZW1vLXB3" }, {
      authorization: "Basic %%%",
    }, bearer(DEMO.token)]
  ) {
    const response = await fetch(`${fixture.url}/token`, { headers });
    assert.equal(response.status, 401, JSON.stringify(headers));
    assert.equal(await response.text(), "");
  }
  for (const [user, password] of [[DEMO.username, "wrong"], ["nobody", "x"]]) {
    const { status, json } = await get(`${fixture.url}/token/keycloak`, basic(user, password));
    assert.equal(status, 401);
    assert.deepEqual(json, {
      error: "invalid_grant",
      error_description: "Invalid user credentials",
    });
  }
});

Deno.test("minted tokens expire after tokenLifetimeSeconds with Terrain's 403", async () => {
  // The server's clock is stepped, not waited for: the token's fate depends on it alone.
  let now = Date.UTC(2026, 0, 1);
  await using fixture = await serveStore(undefined, { tokenLifetimeSeconds: 60, clock: () => now });
  const { json } = await get(`${fixture.url}/token`, basic(DEMO.username, DEMO.password));
  assert.equal(json.expires_in, 60);
  const root = () => get(`${fixture.url}/secured/filesystem/root`, bearer(json.access_token));
  now += 60_000;
  assert.equal((await root()).status, 200, "valid to the last second of its lifetime");
  now += 1_000;
  const expired = await root();
  assert.equal(expired.status, 403);
  assert.equal(expired.json.reason, `Token is expired (${Date.UTC(2026, 0, 1) / 1000 + 60})`);
  assert.equal(expired.json.error_code, "ERR_FORBIDDEN");
  const optional = await get(
    `${fixture.url}/filesystem/paged-directory?path=/iplant/home/shared&limit=1`,
    bearer(json.access_token),
  );
  assert.equal(optional.status, 403, "optional routes reject bad credentials too");
  assert.ok(!expired.text.includes(json.access_token));
  // Minted by the same clock, a new token is valid where the old one is not.
  const renewed = await get(`${fixture.url}/token`, basic(DEMO.username, DEMO.password));
  const again = await get(
    `${fixture.url}/secured/filesystem/root`,
    bearer(renewed.json.access_token),
  );
  assert.equal(again.status, 200);
});

Deno.test("unknown tokens are forbidden; bearer values that are not JWT-shaped are ignored", async () => {
  await using fixture = await serveStore();
  const unknown = await get(`${fixture.url}/secured/filesystem/root`, bearer("eyJ.unknown.token"));
  assert.equal(unknown.status, 403);
  assert.deepEqual(unknown.json, {
    error_code: "ERR_FORBIDDEN",
    reason: "Untrusted JWT signature.",
  });
  const opaque = await get(`${fixture.url}/secured/filesystem/root`, bearer("opaque-token"));
  assert.equal(opaque.status, 401, "treated as no credentials");
  const anonymous = await get(
    `${fixture.url}/filesystem/paged-directory?path=/iplant/home/shared&limit=1`,
    bearer("opaque-token"),
  );
  assert.equal(anonymous.status, 200);
  assert.equal(
    (await get(`${fixture.url}/secured/filesystem/root`, { authorization: `bearer ${DEMO.token}` }))
      .status,
    200,
  );
});
