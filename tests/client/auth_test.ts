import assert from "node:assert/strict";
import { basicAuthorization, Credentials, REDACTED, requestToken } from "../../lib/client/auth.ts";
import { AuthError, ProtocolError } from "../../lib/client/errors.ts";
import { Transport } from "../../lib/client/transport.ts";
import { serveDouble } from "./_double.ts";

const PASSWORD = "pässword-Secret-42";

/** A Terrain double with a token endpoint handing out tok-1, tok-2, … and a data route. */
function authDouble(options: {
  expiresIn?: number;
  tokenDelayMs?: number;
  accept?: (token: string) => boolean;
}) {
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
      if (options.tokenDelayMs) {
        await new Promise((resolve) => setTimeout(resolve, options.tokenDelayMs));
      }
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
  return { double, tokenCalls, dataCalls };
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
  const { double, tokenCalls, dataCalls } = authDouble({ tokenDelayMs: 50 });
  await using _ = double;
  const t = new Transport({ url: double.url, username: "demo", password: PASSWORD });
  const answers = await Promise.all(Array.from({ length: 8 }, () => t.json(spec)));
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
  const { double, tokenCalls, dataCalls } = authDouble({ expiresIn: 1 });
  await using _ = double;
  const t = new Transport({ url: double.url, username: "demo", password: PASSWORD });
  await t.json(spec);
  await t.json(spec);
  assert.equal(tokenCalls.length, 1, "a fresh token is reused");
  // Renewal is due a quarter of the lifetime early: at 0.75 s for a 1 s token.
  await new Promise((resolve) => setTimeout(resolve, 800));
  await t.json(spec);
  assert.equal(tokenCalls.length, 2);
  assert.deepEqual(dataCalls, ["head.tok-1.sig", "head.tok-1.sig", "head.tok-2.sig"]);
});

Deno.test("auth (double): one caller's abort does not cancel the shared exchange", async () => {
  const { double, tokenCalls } = authDouble({ tokenDelayMs: 80 });
  await using _ = double;
  const t = new Transport({ url: double.url, username: "demo", password: PASSWORD });
  const controller = new AbortController();
  const aborted = t.json({ ...spec, signal: controller.signal });
  const other = t.json(spec);
  setTimeout(() => controller.abort(), 10);
  await assert.rejects(aborted, { name: "AbortError" });
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
