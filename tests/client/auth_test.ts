import assert from "node:assert/strict";
import {
  basicAuthorization,
  Credentials,
  REDACTED,
  requestToken,
  type SendJson,
} from "../../lib/client/auth.ts";
import { getPagedDirectory, getRoot } from "../../lib/client/endpoints.ts";
import { AuthError, ProtocolError, SignInRequiredError } from "../../lib/client/errors.ts";
import { Transport } from "../../lib/client/transport.ts";
import { serveDouble } from "./_double.ts";
import { DEMO, PATHS, serveStore } from "./_store.ts";

const PASSWORD = "pässword-Secret-42";

/** A Terrain double with a token endpoint handing out tok-1, tok-2, … and a data route. */
function authDouble(options: {
  expiresIn?: number;
  /** The token endpoint answers only once this settles (after `tokenAsked` has). */
  tokenGate?: Promise<unknown>;
  accept?: (token: string) => boolean;
}) {
  const asked = Promise.withResolvers<void>();
  let issued = 0;
  const tokenCalls: string[] = [];
  const dataCalls: string[] = [];
  const double = serveDouble(async (request) => {
    const url = new URL(request.url);
    const authorization = request.headers.get("authorization") ?? "";
    if (url.pathname === "/terrain/token/keycloak") {
      tokenCalls.push(authorization);
      if (authorization !== basicAuthorization("demo", PASSWORD)) {
        return Response.json({
          error: "invalid_grant",
          error_description: "Invalid user credentials",
        }, { status: 401 });
      }
      asked.resolve();
      await options.tokenGate;
      issued++;
      return Response.json({
        access_token: `head.tok-${issued}.sig`,
        expires_in: options.expiresIn ?? 300,
        token_type: "Bearer",
      });
    }
    const token = authorization.replace(/^Bearer /, "");
    dataCalls.push(token);
    if (!(options.accept ?? (() => true))(token)) {
      return Response.json(
        { error_code: "ERR_FORBIDDEN", reason: "Token is expired (1700000000)" },
        { status: 403 },
      );
    }
    return Response.json({ token });
  });
  return { double, tokenCalls, dataCalls, tokenAsked: asked.promise };
}

const spec = { path: "/secured/filesystem/root", endpoint: "filesystem/root" };

Deno.test("Credentials: modes, and no secret in inspect, JSON or String", () => {
  const anonymous = Credentials.anonymous();
  const token = Credentials.fromToken("  head.body.sig  ");
  const password = Credentials.fromPassword("demo", PASSWORD);
  assert.deepEqual(
    [anonymous.mode, token.mode, password.mode],
    ["anonymous", "token", "password"],
  );
  assert.equal(anonymous.renewable, false);
  assert.equal(token.renewable, false);
  assert.equal(password.renewable, true);
  for (const credentials of [token, password]) {
    for (
      const text of [
        Deno.inspect(credentials),
        Deno.inspect({ nested: [credentials] }),
        JSON.stringify(credentials),
        String(credentials),
        `${credentials}`,
      ]
    ) {
      assert.ok(!text.includes(PASSWORD) && !text.includes("head.body.sig"), text);
      assert.ok(text.includes(REDACTED), text);
    }
  }
  assert.equal(JSON.stringify(anonymous), '{"mode":"anonymous"}');
  assert.equal(String(password), "Credentials(password, demo, [redacted])");
});

Deno.test("Credentials: scrub removes the password, its Basic form and tokens", () => {
  const credentials = Credentials.fromPassword("demo", PASSWORD);
  const basic = basicAuthorization("demo", PASSWORD);
  assert.equal(credentials.scrub(`x ${PASSWORD} y ${basic}`), `x ${REDACTED} y Basic ${REDACTED}`);
  assert.equal(
    Credentials.fromToken("a.b.c-token").scrub("Bearer a.b.c-token"),
    "Bearer [redacted]",
  );
});

Deno.test("Credentials: empty secrets are refused", () => {
  assert.throws(() => Credentials.fromToken(""), AuthError);
  assert.throws(() => Credentials.fromPassword("", "x"), /username is empty/);
  assert.throws(() => Credentials.fromPassword("demo", ""), /password for "demo" is empty/);
});

Deno.test("basicAuthorization: UTF-8 user:password in base64", () => {
  assert.equal(basicAuthorization("demo", "pw"), "Basic ZGVtbzpwdw==");
  assert.equal(basicAuthorization("é", "ü"), `Basic ${btoa("\xc3\xa9:\xc3\xbc")}`);
});

Deno.test("auth (double): concurrent first requests share one token exchange", async () => {
  const gate = Promise.withResolvers<void>();
  const { double, tokenCalls, dataCalls, tokenAsked } = authDouble({ tokenGate: gate.promise });
  await using _ = double;
  const t = new Transport({ url: double.url, username: "demo", password: PASSWORD });
  const all = Promise.all(Array.from({ length: 8 }, () => t.json(spec)));
  await tokenAsked;
  gate.resolve();
  const answers = await all;
  assert.equal(tokenCalls.length, 1);
  assert.equal(t.stats.tokenExchanges, 1);
  assert.deepEqual(answers, Array(8).fill({ token: "head.tok-1.sig" }));
  assert.equal(dataCalls.length, 8);
});

Deno.test("auth (double): a rejected token is exchanged again once, then the call succeeds", async () => {
  const { double, tokenCalls, dataCalls } = authDouble({
    accept: (token) => token !== "head.tok-1.sig",
  });
  await using _ = double;
  const t = new Transport({ url: double.url, username: "demo", password: PASSWORD });
  assert.deepEqual(await t.json(spec), { token: "head.tok-2.sig" });
  assert.equal(tokenCalls.length, 2);
  assert.deepEqual(dataCalls, ["head.tok-1.sig", "head.tok-2.sig"]);
  assert.equal(t.retries, 0, "a renewal is not a retry");
});

Deno.test("auth (double): renewal happens once per request, then AuthError", async () => {
  const { double, tokenCalls, dataCalls } = authDouble({ accept: () => false });
  await using _ = double;
  const t = new Transport({ url: double.url, username: "demo", password: PASSWORD });
  const error = await t.json(spec).catch((caught) => caught);
  assert.ok(error instanceof AuthError);
  assert.equal(error.status, 403);
  assert.match(error.message, /access token was rejected .*Token is expired/);
  assert.equal(tokenCalls.length, 2);
  assert.equal(dataCalls.length, 2);
});

Deno.test("auth (double): a fixed token that is rejected is an AuthError without renewal", async () => {
  const { double, tokenCalls, dataCalls } = authDouble({ accept: () => false });
  await using _ = double;
  const t = new Transport({ url: double.url, token: "fixed.token.value" });
  const error = await t.json(spec).catch((caught) => caught);
  assert.ok(error instanceof AuthError);
  assert.ok(!error.message.includes("fixed.token.value"));
  assert.equal(tokenCalls.length, 0);
  assert.equal(dataCalls.length, 1);
});

Deno.test("auth (double): a wrong password is an AuthError that never shows the password", async () => {
  const { double, tokenCalls } = authDouble({});
  await using _ = double;
  const wrong = "wrong-Secret-99";
  const t = new Transport({ url: double.url, username: "demo", password: wrong });
  const error = await t.json(spec).catch((caught) => caught);
  assert.ok(error instanceof AuthError);
  assert.match(
    error.message,
    /Sign-in as "demo" failed: the server rejected the username or password/,
  );
  const basic = basicAuthorization("demo", wrong).slice(6);
  for (
    const text of [error.message, error.stack ?? "", JSON.stringify(error), Deno.inspect(error)]
  ) {
    assert.ok(!text.includes(wrong) && !text.includes(basic), text);
  }
  assert.equal(tokenCalls.length, 1, "a refused sign-in is not retried");
});

Deno.test("auth (double): a token nearing expiry is exchanged before it is used", async () => {
  const { double, tokenCalls } = authDouble({ expiresIn: 1 });
  await using _ = double;
  let now = 0;
  const credentials = Credentials.fromPassword("demo", PASSWORD, () => now);
  const t = new Transport({ url: double.url });
  const send: SendJson = (request) => t.json(request);
  assert.equal(await credentials.authorization(send), "Bearer head.tok-1.sig");
  // Renewal is due a quarter of the lifetime early: at 750 ms for a 1 s token.
  now = 749;
  assert.equal(await credentials.authorization(send), "Bearer head.tok-1.sig", "still fresh");
  assert.equal(tokenCalls.length, 1);
  now = 750;
  assert.equal(await credentials.authorization(send), "Bearer head.tok-2.sig");
  assert.equal(tokenCalls.length, 2);
  assert.equal(credentials.exchanges, 2);
});

Deno.test("auth (double): one caller's abort does not cancel the shared exchange", async () => {
  const gate = Promise.withResolvers<void>();
  const { double, tokenCalls, tokenAsked } = authDouble({ tokenGate: gate.promise });
  await using _ = double;
  const t = new Transport({ url: double.url, username: "demo", password: PASSWORD });
  const controller = new AbortController();
  const aborted = t.json({ ...spec, signal: controller.signal });
  const other = t.json(spec);
  await tokenAsked;
  controller.abort();
  await assert.rejects(aborted, { name: "AbortError" });
  gate.resolve();
  assert.deepEqual(await other, { token: "head.tok-1.sig" });
  assert.equal(tokenCalls.length, 1);
});

Deno.test("requestToken (double): a malformed grant is a ProtocolError without values", async () => {
  await using double = serveDouble(() =>
    Response.json({ access_token: "leaky.token.value", expires_in: "300" })
  );
  const t = new Transport({ url: double.url });
  const error = await requestToken((request) => t.json(request), "demo", PASSWORD)
    .catch((caught) => caught);
  assert.ok(error instanceof ProtocolError);
  assert.match(error.message, /token\/keycloak answered an unexpected body: at "expires_in"/);
  assert.match(error.message, /got \[redacted\]/);
  assert.ok(!error.message.includes("leaky"));
  assert.equal(double.seen[0].headers.get("authorization"), basicAuthorization("demo", PASSWORD));
});

Deno.test("auth (server): static token, password exchange, untrusted and non-JWT tokens", async () => {
  await using served = await serveStore();
  const home = async (t: Transport) => (await getRoot(t))["base-paths"].user_home_path;
  assert.equal(await home(new Transport({ url: served.url, token: DEMO.token })), PATHS.home);
  const login = new Transport({
    url: served.url,
    username: DEMO.username,
    password: DEMO.password,
  });
  assert.equal(await home(login), PATHS.home);
  assert.equal(await home(login), PATHS.home);
  assert.equal(login.stats.tokenExchanges, 1);

  const untrusted = await getRoot(new Transport({ url: served.url, token: "aaaa.bbbb.cccc" }))
    .catch((error) => error);
  assert.ok(untrusted instanceof AuthError && !(untrusted instanceof SignInRequiredError));
  assert.equal(untrusted.status, 403);
  assert.match(untrusted.message, /access token was rejected .*Untrusted JWT signature/);
  assert.ok(!untrusted.message.includes("aaaa.bbbb.cccc"));
});

Deno.test("auth (server): a token pasted with its scheme word works; one Terrain would ignore is refused at once", async () => {
  await using served = await serveStore();
  const pasted = new Transport({ url: served.url, token: `Bearer ${DEMO.token}` });
  assert.equal((await getRoot(pasted))["base-paths"].user_home_path, PATHS.home);
  // Terrain ignores a Bearer value that is not JWT-shaped as if none was sent, and answers
  // "no user authentication information": never what is wrong, so it is said before sending.
  const before = served.server.stats().requests;
  for (const token of ["not-a-jwt", "two.parts", "has space.b.c", "Bearer"]) {
    assert.throws(
      () => new Transport({ url: served.url, token }),
      (error: unknown) =>
        error instanceof AuthError &&
        /not an access token: Terrain takes a JWT/.test(error.message) &&
        !error.message.includes(token),
    );
  }
  assert.equal(served.server.stats().requests, before);
});

Deno.test("auth (server): anonymous reads public data and is told when to sign in", async () => {
  await using served = await serveStore();
  const anonymous = new Transport({ url: served.url });
  const page = await getPagedDirectory(anonymous, { path: PATHS.public, limit: 5 });
  assert.equal(page.path, PATHS.public);
  const error = await getPagedDirectory(anonymous, { path: PATHS.home, limit: 5 })
    .catch((caught) => caught);
  assert.ok(error instanceof SignInRequiredError);
  assert.equal(error.status, 401);
  assert.equal(error.path, PATHS.home);
});

Deno.test("auth (server): an expired token is replaced by a new exchange", async () => {
  // The server's clock is stepped past the token's lifetime; the client's own clock has not
  // moved, so it is the server's refusal that makes it exchange again.
  let now = Date.now();
  await using served = await serveStore({ clock: () => now });
  const login = new Transport({
    url: served.url,
    username: DEMO.username,
    password: DEMO.password,
  });
  await getRoot(login);
  assert.equal(login.stats.tokenExchanges, 1);
  now += 301_000;
  const { roots } = await getRoot(login);
  assert.equal(roots[0].path, PATHS.home);
  assert.equal(login.stats.tokenExchanges, 2);

  // A token given as such is fixed: once expired the server says so and nothing renews it.
  const anonymous = new Transport({ url: served.url });
  const grant = await requestToken(
    (request) => anonymous.json(request),
    DEMO.username,
    DEMO.password,
  );
  assert.equal(grant.expires_in, 300);
  const fixed = new Transport({ url: served.url, token: grant.access_token });
  await getRoot(fixed);
  now += 301_000;
  const expired = await getRoot(fixed).catch((error) => error);
  assert.ok(expired instanceof AuthError);
  assert.match(expired.message, /Token is expired/);
  assert.ok(!expired.message.includes(grant.access_token));
  assert.equal(fixed.stats.tokenExchanges, 0);
});

Deno.test("auth (server): no error of a signed-in transport reveals a secret", async () => {
  await using served = await serveStore();
  const sent = new Set<string>();
  const sniffing: typeof fetch = (input, init) => {
    const authorization = new Headers(init?.headers).get("authorization");
    if (authorization) sent.add(authorization.replace(/^(Bearer|Basic) /, ""));
    return fetch(input, init);
  };
  const login = new Transport({
    url: served.url,
    username: DEMO.username,
    password: DEMO.password,
    fetch: sniffing,
  });
  const failures = await Promise.all([
    getPagedDirectory(login, { path: `${PATHS.home}/missing`, limit: 1 }),
    getPagedDirectory(login, { path: "/iplant/home/alice", limit: 1 }),
    getPagedDirectory(login, { path: PATHS.homeCsv, limit: 1 }),
    getPagedDirectory(login, { path: "relative", limit: 1 }),
    login.json({ path: "/secured/filesystem/paged-directory", endpoint: "raw", query: {} }),
  ].map((call) => call.then(() => assert.fail("expected a failure"), (error) => error)));
  assert.equal(sent.size, 2, "one Basic value and one access token were sent");
  for (const error of failures) {
    const texts = [error.message, error.stack ?? "", JSON.stringify(error), Deno.inspect(error)];
    for (const text of texts) {
      assert.ok(!text.includes(DEMO.password), text);
      for (const secret of sent) assert.ok(!text.includes(secret), text);
    }
  }
  for (const text of [Deno.inspect(login), JSON.stringify(login), String(login)]) {
    for (const secret of [DEMO.password, ...sent]) assert.ok(!text.includes(secret), text);
  }
});
