/**
 * Credentials against the real server: unknown, opaque, expired and foreign tokens, wrong
 * passwords and users, a token the server stops accepting mid-session (its signing key changes,
 * which refuses the token as expiry does, at a moment the test chooses rather than the clock),
 * anonymous calls where sign-in is needed,
 * another user's files, and credentials in the URL. Each gives a clear typed error (or, for the
 * short-lived tokens, keeps working), and no message, stack, inspection, JSON form or notebook
 * view ever shows a token, a password or the Basic header made from them.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, type ConnectOptions, TernError } from "../../mod.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { mintToken } from "../../lib/server/tokens.ts";
import { startServer } from "../../server.ts";
import { assertNoSecret, errorSurfaces, report, tally, withDeadline } from "./_fixtures.ts";
import { assertSafeHtml, viewOf } from "./_html.ts";

const SIGNING_KEY = "reliability-signing-key-0f3a9c";
const STATIC_TOKEN = "reliability.static-demo.T0ken";
const PASSWORD = "demo-Passw0rd!reliability";
const ALICE_PASSWORD = "alice-Passw0rd!reliability";
const DEMO = { username: "demo", email: "demo@example.org", firstName: "Demo", lastName: "User" };
const HOME = "/iplant/home/demo";
const ALICE_FILE = "/iplant/home/alice/private.csv";
const SHARED_FILE = "/iplant/home/shared/open.csv";
/** Catches a hang only: far above what a step takes on a busy machine. */
const STEP_DEADLINE_MS = 60_000;

/** Tokens the server would accept but for one flaw each. */
const EXPIRED = mintToken(DEMO, SIGNING_KEY, 60, "access", Date.now() - 3_600_000);
const FOREIGN = mintToken(DEMO, "some-other-server-key", 3_600);
const UNKNOWN_JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.bm90LWEtcmVhbC1zaWduYXR1cmU";
const OPAQUE = "opaque-token-value-that-is-no-jwt";

const SECRETS = [
  STATIC_TOKEN,
  PASSWORD,
  ALICE_PASSWORD,
  EXPIRED,
  FOREIGN,
  UNKNOWN_JWT,
  OPAQUE,
  btoa(`demo:${PASSWORD}`),
  btoa(`demo:wrong-${PASSWORD}`),
  `wrong-${PASSWORD}`,
];

async function credentialStore(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "tern-reliability-credentials-" });
  const write = async (path: string, text: string) => {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  };
  await write(".terrain/users.json", usersJson(SIGNING_KEY));
  await write(`${HOME}/notes.csv`, "a,b\n1,2\n");
  await write(ALICE_FILE, "secret,1\n");
  await write(SHARED_FILE, "open,1\n");
  return root;
}

/** The store's users.json, its tokens signed with `secret`. */
function usersJson(secret: string): string {
  return JSON.stringify({
    secret,
    users: [
      { ...DEMO, password: PASSWORD, tokens: [STATIC_TOKEN] },
      { username: "alice", password: ALICE_PASSWORD },
    ],
  });
}

/**
 * Gives the store a new signing key, so that every token minted before is refused. Written
 * beside and renamed over users.json: the server sees a new file (a new inode) on its next
 * request, whatever the file system's timestamp resolution.
 */
async function changeSigningKey(root: string, secret: string): Promise<void> {
  const file = join(root, ".terrain/users.json");
  await Deno.writeTextFile(`${file}.new`, usersJson(secret));
  await Deno.rename(`${file}.new`, file);
}

interface Case {
  name: string;
  connect: ConnectOptions;
  run: (store: ReturnType<typeof connect>, signal: AbortSignal) => Promise<unknown>;
  /** The typed error's class name, or `"ok"` when the call must succeed. */
  expect: string;
  mentions?: RegExp;
}

const CASES: Case[] = [
  {
    name: "an unknown token shaped like a JWT",
    connect: { token: UNKNOWN_JWT },
    run: (store, signal) => store.root({ signal }),
    expect: "AuthError",
  },
  {
    name: "an opaque token that is not a JWT",
    connect: { token: OPAQUE },
    run: (store, signal) => store.root({ signal }),
    expect: "AuthError",
    mentions: /not an access token/,
  },
  {
    name: "an expired token",
    connect: { token: EXPIRED },
    run: (store, signal) => store.folder(HOME).list({ signal }).toArray(),
    expect: "AuthError",
    mentions: /expired/i,
  },
  {
    name: "a token signed by another server",
    connect: { token: FOREIGN },
    run: (store, signal) => store.file(SHARED_FILE).bytes({ signal }),
    expect: "AuthError",
  },
  {
    name: "a wrong password",
    connect: { username: "demo", password: `wrong-${PASSWORD}` },
    run: (store, signal) => store.folder(HOME).list({ signal }).toArray(),
    expect: "AuthError",
  },
  {
    name: "an unknown user",
    connect: { username: "nobody", password: PASSWORD },
    run: (store, signal) => store.root({ signal }),
    expect: "AuthError",
  },
  {
    name: "anonymous saved searches",
    connect: { anonymous: true },
    run: (store, signal) => store.savedSearches({ signal }),
    expect: "SignInRequiredError",
  },
  {
    name: "anonymous comments",
    connect: { anonymous: true },
    run: (store, signal) => store.file(SHARED_FILE).comments({ signal }),
    expect: "SignInRequiredError",
  },
  {
    name: "another user's private file",
    connect: { token: STATIC_TOKEN },
    run: (store, signal) => store.file(ALICE_FILE).bytes({ signal }),
    expect: "PermissionError|NotFoundError",
  },
  {
    name: "the right password",
    connect: { username: "demo", password: PASSWORD },
    run: (store, signal) => store.file(`${HOME}/notes.csv`).text({ signal }),
    expect: "ok",
  },
];

Deno.test("credentials: unknown, expired and foreign tokens, wrong passwords and anonymous calls give typed errors that never show a secret", async (t) => {
  const root = await credentialStore();
  const outcomes: string[] = [];
  let surfaces = 0;
  let renewals = 0;
  try {
    await using server = await startServer({ root, port: 0, quiet: true });

    for (const test of CASES) {
      await t.step(test.name, () =>
        withDeadline(STEP_DEADLINE_MS, test.name, async (signal) => {
          // A credential refused on sight (a token that is no JWT) fails connect() itself.
          let store: ReturnType<typeof connect> | undefined;
          const result = await Promise.try(() => {
            store = connect({ url: server.url, cacheDir: false, signal, ...test.connect });
            return test.run(store, signal);
          }).then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error }),
          );
          const texts = store === undefined
            ? []
            : [String(store), Deno.inspect(store, { depth: 8 }), JSON.stringify(store)];
          if (test.expect === "ok") {
            if (!result.ok) throw result.error;
            assertNoSecret([...texts, Deno.inspect(result.value)], SECRETS, test.name);
            outcomes.push("ok");
            surfaces += texts.length + 1;
            return;
          }
          if (result.ok) assert.fail(`expected ${test.expect}, got ${Deno.inspect(result.value)}`);
          const error = result.error;
          assert.ok(error instanceof TernError, `an untyped error: ${error}`);
          assert.match(error.name, new RegExp(`^(${test.expect})$`), error.message);
          if (test.mentions) assert.match(error.message, test.mentions);
          const view = error[JUPYTER_DISPLAY]();
          assertSafeHtml(view["text/html"], `${test.name}: error view`);
          const all = [...texts, ...errorSurfaces(error), view["text/plain"], view["text/html"]];
          assertNoSecret(all, SECRETS, test.name);
          surfaces += all.length;
          outcomes.push(error.name);
        }));
    }

    // The last step on `server`: it changes the store's signing key.
    await t.step(
      "a password sign-in keeps working when the server stops accepting its token",
      () =>
        withDeadline(STEP_DEADLINE_MS, "a refused token", async (signal) => {
          const store = connect({
            url: server.url,
            username: "demo",
            password: PASSWORD,
            cacheDir: false,
            signal,
          });
          for (let round = 0; round < 2; round++) {
            // The first token, still in the store's hands, is refused from here on.
            if (round > 0) await changeSigningKey(root, `${SIGNING_KEY}-renewed`);
            const entries = await store.folder(HOME).list({ signal }).toArray();
            assert.deepEqual(entries.map((entry) => entry.name), ["notes.csv"]);
          }
          // One sign-in, and one more when the server refused the first token (401).
          assert.equal(store.stats.tokenExchanges, 2);
          const view = await viewOf(store.folder(HOME));
          const texts = [String(store), Deno.inspect(store, { depth: 8 }), JSON.stringify(store)];
          if (view !== undefined) texts.push(view["text/plain"], view["text/html"]);
          assertNoSecret(texts, SECRETS, "a password store's text forms");
          surfaces += texts.length;
          outcomes.push("renewed");
          renewals = store.stats.tokenExchanges;
        }),
    );

    await t.step("credentials in the URL are refused without being echoed", () => {
      const error = (() => {
        try {
          connect({ url: `http://demo:${encodeURIComponent(PASSWORD)}@127.0.0.1:1/terrain` });
        } catch (error) {
          return error;
        }
      })();
      assert.ok(error instanceof TernError && error.name === "BadRequestError", `${error}`);
      assertNoSecret(errorSurfaces(error), [PASSWORD, encodeURIComponent(PASSWORD)], "url check");
      outcomes.push(error.name);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  report("credentials", {
    cases: CASES.length + 2,
    outcomes: tally(outcomes),
    tokenExchangesWithRefusal: renewals,
    textsSearched: surfaces,
    secretsSearchedFor: SECRETS.length,
    credentialLeaks: 0,
  });
});
