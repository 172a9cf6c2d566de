import assert from "node:assert/strict";
import { BadRequestError, connect, SignInRequiredError } from "../../mod.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { DEMO, PATHS, serve } from "./_store.ts";

/** A fetch that counts the requests it sends and keeps their `User-Agent`. */
function countingFetch(): typeof fetch & { requests: number; agents: (string | null)[] } {
  const counted = Object.assign(
    (input: RequestInfo | URL, init?: RequestInit) => {
      counted.requests++;
      counted.agents.push(new Headers(init?.headers).get("user-agent"));
      return fetch(input, init);
    },
    { requests: 0, agents: [] as (string | null)[] },
  );
  return counted;
}

/** The message of the BadRequestError `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof BadRequestError, String(error));
    return error.message;
  }
  assert.fail("no error");
}

const ENV_NAMES = ["TERRAIN_URL", "TERRAIN_TOKEN", "TERRAIN_USERNAME", "TERRAIN_PASSWORD"];

/** Runs `body` with the given Terrain variables set (others unset), then restores them. */
async function withEnv<T>(values: Record<string, string>, body: () => Promise<T> | T): Promise<T> {
  const saved = new Map(ENV_NAMES.map((name) => [name, Deno.env.get(name)]));
  for (const name of ENV_NAMES) Deno.env.delete(name);
  for (const [name, value] of Object.entries(values)) Deno.env.set(name, value);
  try {
    return await body();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
}

Deno.test("connect sends nothing: handles and listings are free until used", async () => {
  await using served = await serve();
  const store = served.demo();
  const folder = store.folder(PATHS.public);
  folder.list({ type: "file" });
  folder.walk({ glob: "*.csv" });
  folder.file("table.csv");
  store.file("0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804");
  assert.equal(store.stats.requests, 0);
  assert.equal(served.server.stats().requests, 0);
  assert.equal((await folder.list().toArray()).length, 5);
  assert.ok(served.server.stats().requests > 0);
});

Deno.test("connect keeps resolved settings: cache folder, cap, offline, progress", () => {
  const store = connect({
    url: "http://127.0.0.1:9/terrain/",
    token: DEMO.token,
    concurrency: 2,
    retries: 1,
    timeoutMs: 500,
    cacheDir: "/tmp/tern-cache",
    cacheMaxBytes: 1_000_000,
    progress: false,
  });
  assert.deepEqual(store.options, {
    url: "http://127.0.0.1:9/terrain",
    auth: "token",
    credentialsFrom: "options",
    concurrency: 2,
    retries: 1,
    timeoutMs: 500,
    cacheDir: "/tmp/tern-cache",
    cacheMaxBytes: 1_000_000,
    offline: false,
    progress: false,
  });
  assert.ok(Object.isFrozen(store.options));
  assert.equal(store.cache.dir, "/tmp/tern-cache");
  const none = connect({ url: "http://127.0.0.1:9/terrain", anonymous: true, cacheDir: false });
  assert.deepEqual([none.options.cacheDir, none.cache.enabled], [false, false]);
});

Deno.test("the cache folder defaults to XDG_CACHE_HOME/tern, else ~/.cache/tern", () => {
  const saved = { xdg: Deno.env.get("XDG_CACHE_HOME"), home: Deno.env.get("HOME") };
  try {
    Deno.env.set("XDG_CACHE_HOME", "/var/cache/me");
    assert.equal(connect({ anonymous: true }).options.cacheDir, "/var/cache/me/tern");
    Deno.env.set("XDG_CACHE_HOME", "relative/ignored");
    Deno.env.set("HOME", "/home/me");
    assert.equal(connect({ anonymous: true }).options.cacheDir, "/home/me/.cache/tern");
    assert.equal(
      connect({ anonymous: true, cacheDir: "rel" }).options.cacheDir,
      `${Deno.cwd()}/rel`,
    );
  } finally {
    for (const [name, value] of [["XDG_CACHE_HOME", saved.xdg], ["HOME", saved.home]] as const) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
});

Deno.test("connect reads TERRAIN_URL and TERRAIN_TOKEN only when the options are absent", async () => {
  await using served = await serve();
  await withEnv({ TERRAIN_URL: served.url, TERRAIN_TOKEN: DEMO.token }, async () => {
    const fromEnv = connect();
    assert.equal(fromEnv.options.url, served.url);
    assert.equal(fromEnv.options.auth, "token");
    assert.equal(fromEnv.options.credentialsFrom, "environment");
    assert.equal((await fromEnv.root()).home.path, PATHS.home);

    const explicit = connect({ url: served.url, username: DEMO.username, password: DEMO.password });
    assert.equal(explicit.options.auth, "password");
    assert.equal(explicit.options.credentialsFrom, "options");

    const anonymous = connect({ anonymous: true });
    assert.equal(anonymous.options.auth, "anonymous");
    assert.equal(anonymous.options.url, served.url);
    await assert.rejects(anonymous.root(), SignInRequiredError);
  });
});

Deno.test("connect exchanges TERRAIN_USERNAME and TERRAIN_PASSWORD for a token when first needed", async () => {
  await using served = await serve();
  await withEnv(
    { TERRAIN_URL: served.url, TERRAIN_USERNAME: DEMO.username, TERRAIN_PASSWORD: DEMO.password },
    async () => {
      const store = connect();
      assert.equal(store.options.auth, "password");
      assert.equal(store.options.username, DEMO.username);
      assert.equal(store.stats.tokenExchanges, 0);
      assert.equal((await store.root()).home.path, PATHS.home);
      assert.equal(store.stats.tokenExchanges, 1);
    },
  );
});

Deno.test("connect refuses half-given credentials and contradictory options", async () => {
  await withEnv({ TERRAIN_USERNAME: "demo" }, () => {
    assert.throws(() => connect(), /TERRAIN_USERNAME is set but TERRAIN_PASSWORD is not/);
  });
  await withEnv({ TERRAIN_PASSWORD: "x" }, () => {
    assert.throws(() => connect(), /TERRAIN_PASSWORD is set but TERRAIN_USERNAME is not/);
  });
  await withEnv({}, () => {
    const url = "http://127.0.0.1:9/terrain";
    assert.throws(() => connect({ url, username: "demo" }), /without password/);
    assert.throws(() => connect({ url, token: "a.b.c", password: "x" }), /either token/);
    assert.throws(() => connect({ url, token: "a.b.c", anonymous: true }), /anonymous: true/);
    assert.throws(() => connect({ url, concurrency: 0 }), /concurrency must be an integer/);
    assert.throws(() => connect({ url: "ftp://x" }), /http:\/\/ or https:\/\//);
    assert.throws(() => connect({ url, cacheDir: 7 as unknown as string }), /cacheDir/);
    assert.throws(() => connect({ url, cacheMaxBytes: -1 }), /cacheMaxBytes/);
    assert.throws(() => connect({ url, offline: "yes" as unknown as boolean }), /offline must/);
    assert.throws(
      () => connect({ url, offline: true, cacheDir: false }),
      /offline: true needs a cache/,
    );
    assert.throws(() => connect({ url, progress: "yes" as unknown as boolean }), /progress/);
    assert.throws(() => connect(null as unknown as object), BadRequestError);
    assert.throws(() => connect({ url, retryBaseMs: -1 }), /retryBaseMs/);
  });
});

Deno.test("connect refuses a userAgent that is not a product token, saying what it got", () => {
  const url = "http://127.0.0.1:9/terrain";
  const bad: [unknown, RegExp][] = [
    [42, /got 42\.$/],
    ["", /got ""\.$/],
    ["   ", /got " {3}"\.$/],
    ["my app\n/1.0", /got "my app\\n\/1\.0"\.$/],
    ["café/1.0", /got "café\/1\.0"\.$/],
  ];
  for (const [userAgent, shown] of bad) {
    assert.throws(() => connect({ url, userAgent: userAgent as string }), (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.match(
        error.message,
        /^connect\(\): userAgent must be a product token such as "myapp\/1\.0"/,
      );
      assert.match(error.message, shown);
      return true;
    });
  }
  const store = connect({ url, userAgent: "myapp/1.0 (lab notebook)" });
  assert.match(store[STORE_CONTEXT].transport.userAgent, /^myapp\/1\.0 \(lab notebook\) tern\//);
});

Deno.test("connect defaults to the public CyVerse gateway and anonymous access", async () => {
  await withEnv({}, () => {
    const store = connect();
    assert.equal(store.options.url, "https://de.cyverse.org/terrain");
    assert.equal(store.options.auth, "anonymous");
    assert.equal(store.options.credentialsFrom, "none");
  });
});

Deno.test("a store never shows its token or password (inspect, String, JSON)", () => {
  const url = "http://127.0.0.1:9/terrain";
  const withToken = connect({ url, token: DEMO.token });
  const withPassword = connect({ url, username: DEMO.username, password: DEMO.password });
  for (const store of [withToken, withPassword]) {
    const shown = [
      Deno.inspect(store),
      String(store),
      JSON.stringify(store),
      Deno.inspect(store.options),
      Deno.inspect(store.stats),
      Deno.inspect(store.folder("/iplant/home/demo")),
      Deno.inspect(store.folder("/iplant/home/demo").list()),
    ].join("\n");
    assert.ok(!shown.includes(DEMO.token), shown);
    assert.ok(!shown.includes(DEMO.password), shown);
  }
  assert.equal(String(withPassword), `Store(${url}, password demo)`);
});

Deno.test("connect without --allow-env treats the variables as unset instead of failing", async () => {
  const script = `
    import { connect } from ${JSON.stringify(new URL("../../mod.ts", import.meta.url).href)};
    const store = connect();
    console.log(JSON.stringify(store.options));
  `;
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(file, script);
  const root = new URL("../..", import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--no-check", "--config", `${root}deno.json`, file],
    env: { TERRAIN_TOKEN: DEMO.token, TERRAIN_URL: "http://127.0.0.1:9/terrain" },
    stdout: "piped",
    stderr: "piped",
    cwd: root,
  }).output().finally(() => Deno.remove(file));
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const options = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.equal(options.auth, "anonymous");
  assert.equal(options.url, "https://de.cyverse.org/terrain");
});

Deno.test("connect refuses a misspelt option before any request, naming it and the nearest name", async () => {
  await using served = await serve();
  const fetch = countingFetch();
  const url = served.url;
  const misspelt: [Record<string, unknown>, string | RegExp][] = [
    [{ cachedir: "x" }, 'connect(): unknown option "cachedir": did you mean "cacheDir"?'],
    [{ tokn: DEMO.token }, 'connect(): unknown option "tokn": did you mean "token"?'],
    [{ timeout: 5 }, 'connect(): unknown option "timeout": did you mean "timeoutMs"?'],
    [{ retires: 2 }, 'connect(): unknown option "retires": did you mean "retries"?'],
    [{ user_agent: "lab/1" }, 'connect(): unknown option "user_agent": did you mean "userAgent"?'],
    [{ proxy: "http://p" }, /^connect\(\): unknown option "proxy"; the options are url, token, /],
  ];
  for (const [extra, message] of misspelt) {
    const text = refusal(() => connect({ url, token: DEMO.token, fetch, ...extra }));
    if (typeof message === "string") assert.equal(text, message);
    else assert.match(text, message);
    assert.ok(!text.includes(DEMO.token), text);
  }
  assert.equal(fetch.requests, 0);
  assert.equal(served.server.stats().requests, 0);
});

Deno.test("connect names a bad value and what it must be, never showing a credential", () => {
  const url = "http://127.0.0.1:9/terrain";
  const cases: [Record<string, unknown>, string][] = [
    [{ concurrency: "4" }, 'connect(): concurrency must be an integer ≥ 1, got "4".'],
    [{ retries: -1 }, "connect(): retries must be an integer ≥ 0, got -1."],
    [{ timeoutMs: 0.5 }, "connect(): timeoutMs must be an integer ≥ 1, got 0.5."],
    [{ cacheDir: 7 }, "connect(): cacheDir must be a folder path, or false for no cache, got 7."],
    [
      { cacheDir: " " },
      'connect(): cacheDir must be a folder path, or false for no cache, got " ".',
    ],
    [{ offline: "yes" }, 'connect(): offline must be true or false, got "yes".'],
    [
      { onChange: "ignore" },
      'connect(): onChange must be one of "error", "warn", "locked", got "ignore".',
    ],
    [
      { userAgent: "" },
      'connect(): userAgent must be a product token such as "myapp/1.0" (printable ASCII words, not empty), got "".',
    ],
    [{ fetch: "curl" }, 'connect(): fetch must be a function like the global fetch, got "curl".'],
    [
      { token: { value: DEMO.token } },
      "connect(): token must be a string (an access token), got an object.",
    ],
    [{ password: 1234 }, "connect(): password must be a string, got a number."],
    [
      { url: new URL(`http://demo:${DEMO.password}@127.0.0.1:9/terrain`) },
      "connect(): url must be the gateway's base URL as a string, e.g. https://de.cyverse.org/terrain, got a URL.",
    ],
    [
      { url: "de.cyverse.org/terrain" },
      'url is not a valid URL: "de.cyverse.org/terrain"; it starts with http:// or https://, ' +
      "e.g. https://de.cyverse.org/terrain.",
    ],
  ];
  for (const [options, message] of cases) {
    const text = refusal(() => connect({ url, ...options }));
    assert.equal(text, message);
    assert.ok(!text.includes(DEMO.token) && !text.includes(DEMO.password), text);
  }
});

Deno.test("every connect option still works", async () => {
  await using served = await serve();
  const fetch = countingFetch();
  const events: string[] = [];
  const cacheDir = await Deno.makeTempDir({ prefix: "tern-connect-options-" });
  try {
    const store = connect({
      url: served.url,
      token: DEMO.token,
      anonymous: false,
      concurrency: 2,
      retries: 1,
      retryBaseMs: 5,
      timeoutMs: 20_000,
      maxJsonBytes: 1_000_000,
      signal: new AbortController().signal,
      fetch,
      userAgent: "lab-notebook/2.1",
      cacheDir,
      cacheMaxBytes: 10_000_000,
      offline: false,
      progress: (event) => events.push(event.kind),
      onChange: "warn",
    });
    assert.deepEqual(
      { ...store.options, progress: typeof store.options.progress },
      {
        url: served.url,
        auth: "token",
        credentialsFrom: "options",
        concurrency: 2,
        retries: 1,
        timeoutMs: 20_000,
        cacheDir,
        cacheMaxBytes: 10_000_000,
        offline: false,
        progress: "function",
      },
    );
    assert.equal((await store.file(PATHS.table).dataframe()).height, 3);
    assert.ok(fetch.requests > 0 && fetch.requests === served.server.stats().requests);
    assert.ok(fetch.agents.every((agent) => agent?.startsWith("lab-notebook/2.1 tern/")));
    assert.ok(events.includes("done"), events.join());
    assert.equal((await store.cache.info()).height, 1);
    const lock = await store.provenance.lock();
    const offline = connect({ url: served.url, anonymous: true, cacheDir, offline: true, lock });
    assert.equal((await offline.file(PATHS.table).dataframe({ progress: false })).height, 3);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("a token read from an unset variable leaves the store anonymous, and the sign-in error names the variables", async () => {
  await using served = await serve();
  await withEnv({}, async () => {
    // The README's `connect({ token: Deno.env.get("TERRAIN_TOKEN") })` with the variable unset.
    const store = connect({ url: served.url, token: Deno.env.get("TERRAIN_TOKEN") });
    assert.equal(store.options.auth, "anonymous");
    for (const call of [() => store.folder(PATHS.home).list().toArray(), () => store.root()]) {
      await assert.rejects(call, (error: unknown) => {
        assert.ok(error instanceof SignInRequiredError, String(error));
        assert.match(
          error.message,
          /Pass a token or a username and password \(when none is given, tern reads TERRAIN_TOKEN, or TERRAIN_USERNAME and TERRAIN_PASSWORD\)\.$/,
        );
        return true;
      });
    }
    await store.close();
  });
});
