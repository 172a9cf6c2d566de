import assert from "node:assert/strict";
import { StoreFileError } from "../../lib/server/store_file.ts";
import { passwordMatches, UserDirectory } from "../../lib/server/users.ts";
import { makeStore, writeTree } from "./_store.ts";

Deno.test("UserDirectory reads accounts with defaults, and no file means no accounts", async () => {
  await using store = await makeStore({});
  const empty = await UserDirectory.open(store.root, {});
  assert.equal((await empty.current()).users.size, 0);
  assert.equal((await empty.current()).tokenLifetimeSeconds, 300);

  await writeTree(store.root, {
    ".terrain/users.json": JSON.stringify({
      tokenLifetimeSeconds: 60,
      users: [{ username: "demo", password: "pw", tokens: ["a.b.c"] }],
    }),
  });
  const directory = await UserDirectory.open(store.root, {});
  const table = await directory.current();
  const demo = table.users.get("demo")!;
  assert.equal(demo.email, "demo@example.org");
  assert.equal(demo.firstName, "demo");
  assert.equal(table.staticTokens.get("a.b.c"), "demo");
  assert.equal(table.tokenLifetimeSeconds, 60);
  assert.ok(table.secret.length >= 32, "a random secret when the file sets none");
  assert.ok(passwordMatches(demo, "pw"));
  assert.ok(!passwordMatches(demo, "pw "));

  const overridden = await UserDirectory.open(store.root, { tokenLifetimeSeconds: 2 });
  assert.equal((await overridden.current()).tokenLifetimeSeconds, 2);
  assert.equal(overridden.clock, Date.now, "tokens are timed by the real clock by default");
  const stepped = await UserDirectory.open(store.root, { clock: () => 42_000 });
  assert.equal(stepped.clock(), 42_000);
});

Deno.test("UserDirectory rejects malformed files with the field at fault", async () => {
  await using store = await makeStore({});
  const cases: [unknown, RegExp][] = [
    [{ users: [{ username: "demo" }] }, /users\[0\]\.password/],
    [{ users: [{ username: "../x", password: "p" }] }, /users\[0\]\.username/],
    [{ users: [{ username: "anonymous", password: "p" }] }, /reserved/],
    [{ users: [{ username: "d", password: "p", tokens: ["opaque"] }] }, /JWT-shaped/],
    [
      { users: [{ username: "d", password: "p" }, { username: "d", password: "q" }] },
      /users\[1\]\.username: is repeated/,
    ],
    [{ tokenLifetimeSeconds: -1 }, /tokenLifetimeSeconds/],
  ];
  for (const [content, pattern] of cases) {
    await writeTree(store.root, { ".terrain/users.json": JSON.stringify(content) });
    await assert.rejects(
      UserDirectory.open(store.root, {}),
      (error: unknown) =>
        error instanceof StoreFileError && pattern.test(error.message) &&
        error.message.startsWith("malformed .terrain/users.json") &&
        !error.message.includes(store.root),
    );
  }
  await writeTree(store.root, { ".terrain/users.json": "{ nope" });
  await assert.rejects(UserDirectory.open(store.root, {}), /not valid JSON/);
  for (const broken of ['{"users":[{"password":"hunter2" x', '[ "hunter2" hunter2 ]']) {
    await writeTree(store.root, { ".terrain/users.json": broken });
    await assert.rejects(
      UserDirectory.open(store.root, {}),
      (error: unknown) =>
        error instanceof StoreFileError && /not valid JSON/.test(error.message) &&
        !error.message.includes("hunter2"),
      "a syntax error never quotes the file",
    );
  }
});

Deno.test("UserDirectory picks up edits and keeps the last good table on a bad edit", async () => {
  await using store = await makeStore({
    ".terrain/users.json": JSON.stringify({ users: [{ username: "demo", password: "pw" }] }),
  });
  const warnings: string[] = [];
  const directory = await UserDirectory.open(store.root, { warn: (w) => warnings.push(w) });
  const first = await directory.current();
  await writeTree(store.root, {
    ".terrain/users.json": JSON.stringify({
      users: [{ username: "demo", password: "pw" }, { username: "bob", password: "b" }],
    }),
  });
  assert.ok((await directory.current()).users.has("bob"));
  await writeTree(store.root, { ".terrain/users.json": "{ half-written" });
  const kept = await directory.current();
  assert.ok(kept.users.has("bob"));
  assert.equal(kept.secret, first.secret, "the random secret survives reloads");
  assert.equal(warnings.length, 1);
  await directory.current();
  assert.equal(warnings.length, 1, "one warning per bad edit");
});
