import assert from "node:assert/strict";
import { connect, DataChangedError, LockError } from "../../mod.ts";
import { type Lock, lockText, parseLock, readLock } from "../../lib/handles/lock.ts";
import { DEMO, FILES, gatedRead, PENGUINS, serveProvenanceStore } from "./_provenance.ts";

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "tern-lock-test-" });
}

Deno.test("lock: a round trip gives the same bytes; keys in a fixed order; no credentials", async () => {
  await using served = await serveProvenanceStore();
  const folder = await tempDir();
  try {
    // Signed in with a username and password: neither may reach the lock.
    const store = served.demo({
      token: undefined,
      username: DEMO.username,
      password: DEMO.password,
    });
    await gatedRead(store, FILES.wind, "text");
    await gatedRead(store, FILES.penguins, "dataframe");
    await gatedRead(store, FILES.penguins, "head");
    const path = `${folder}/tern.lock.json`;
    const saved = await store.provenance.save(path);
    const text = await Deno.readTextFile(path);
    assert.equal(text, lockText(saved));
    assert.equal(lockText(readLock(path)), text, "read back and written again: same bytes");
    assert.ok(!text.includes(DEMO.password) && !text.includes("Secret"), "no credentials");
    assert.deepEqual(Object.keys(JSON.parse(text)), [
      "lock",
      "format",
      "tern",
      "store",
      "datasets",
      "files",
    ]);
    const files = JSON.parse(text).files;
    assert.deepEqual(Object.keys(files[0]), [
      "path",
      "id",
      "size",
      "modified",
      "dataset",
      "operations",
    ]);
    assert.deepEqual(files.map((file: { path: string }) => file.path), [
      FILES.penguins,
      FILES.wind,
    ]);
    assert.deepEqual(files[0].operations, ["dataframe", "head"]);
    assert.equal(files[0].dataset, PENGUINS);
    assert.equal(files[0].modified, "2020-07-16T17:43:00.000Z");
    assert.equal(JSON.parse(text).store, served.url);
    // A second save of the same reads: the same file, byte for byte.
    await store.provenance.save(path);
    assert.equal(await Deno.readTextFile(path), text);
    assert.deepEqual([...Deno.readDirSync(folder)].map((e) => e.name), ["tern.lock.json"]);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

const GOOD: Lock = {
  lock: "tern lock",
  format: 1,
  tern: "0.1.0",
  store: "http://127.0.0.1:8080/terrain",
  datasets: [{ path: "/iplant/home/shared/x", creators: [{ name: "Gapminder Foundation" }] }],
  files: [{
    path: "/iplant/home/shared/x/a.csv",
    id: "i",
    size: 3,
    modified: "2020-01-01T00:00:00.000Z",
    hash: "xxh64:00ff",
    dataset: "/iplant/home/shared/x",
    operations: ["text"],
  }],
};

Deno.test("lock: a malformed lock is a LockError naming the field by its JSON path", () => {
  const cases: [unknown, string, RegExp][] = [
    [[], "$", /not a JSON object/],
    [{ ...GOOD, lock: "npm" }, "$.lock", /tern lock/],
    [{ ...GOOD, format: 2 }, "$.format", /format 2; this tern reads format 1: update tern/],
    [{ ...GOOD, files: undefined }, "$.files", /expected array/],
    [{ ...GOOD, files: [{ ...GOOD.files[0], size: "3" }] }, "$.files[0].size", /got "3"/],
    [{ ...GOOD, files: [{ ...GOOD.files[0], size: -1 }] }, "$.files[0].size", />=0/],
    [
      { ...GOOD, files: [{ ...GOOD.files[0], modified: "yesterday" }] },
      "$.files[0].modified",
      /datetime/,
    ],
    [{ ...GOOD, files: [{ ...GOOD.files[0], hash: "XXH:zz" }] }, "$.files[0].hash", /algorithm/],
    [
      { ...GOOD, files: [{ ...GOOD.files[0], operations: ["eat"] }] },
      "$.files[0].operations[0]",
      /dataframe/,
    ],
    [{ ...GOOD, datasets: [{ path: "x", creators: [] }] }, "$.datasets[0].path", /"\/"/],
    [{ ...GOOD, store: "ftp://x/terrain" }, "$.store", /URL/i],
  ];
  for (const [value, field, message] of cases) {
    assert.throws(
      () => parseLock(value, "my.lock.json"),
      (error: unknown) => {
        if (!(error instanceof LockError)) throw error;
        assert.equal(error.field === undefined ? "$" : error.field, field);
        assert.match(error.message, message);
        assert.ok(error.message.startsWith(`my.lock.json: ${field === "$" ? "" : `${field}: `}`));
        return true;
      },
      field,
    );
  }
  assert.deepEqual(parseLock(structuredClone(GOOD)), GOOD);
});

Deno.test("lock: a store URL with a username and password is refused without showing them", () => {
  const lock = { ...GOOD, store: "https://demo:pw-demo-Secret!@de.cyverse.org/terrain" };
  assert.throws(() => parseLock(lock), (error: unknown) => {
    assert.ok(error instanceof LockError);
    assert.equal(error.field, "$.store");
    assert.match(error.message, /must not contain a username or password/);
    assert.ok(!error.message.includes("Secret") && !error.message.includes("demo:"));
    return true;
  });
});

Deno.test("connect({ lock }): a path or the object; another store's lock, a missing or broken file are LockErrors", async () => {
  const folder = await tempDir();
  try {
    const path = `${folder}/tern.lock.json`;
    await Deno.writeTextFile(path, lockText(GOOD));
    const options = { url: GOOD.store, anonymous: true, cacheDir: false } as const;
    assert.equal(connect({ ...options, lock: path }).provenance.size, 0);
    assert.equal(connect({ ...options, lock: GOOD }).provenance.size, 0);
    assert.throws(
      () => connect({ ...options, url: "http://127.0.0.1:9/terrain", lock: path }),
      (error: unknown) =>
        error instanceof LockError && error.field === "$.store" &&
        /written for the store http:\/\/127\.0\.0\.1:8080\/terrain, and this store is http:\/\/127\.0\.0\.1:9\/terrain/
          .test(error.message),
    );
    assert.throws(() => connect({ ...options, lock: `${folder}/none.json` }), /no such file/);
    await Deno.writeTextFile(path, "{ not json");
    assert.throws(
      () => connect({ ...options, lock: path }),
      (error: unknown) =>
        error instanceof LockError && error.source === path && /is not JSON/.test(error.message),
    );
    assert.throws(
      () => connect({ ...options, lock: { ...GOOD, tern: 1 } as never }),
      (error: unknown) => error instanceof LockError && error.field === "$.tern",
    );
    assert.throws(
      () => connect({ ...options, onChange: "ignore" as never }),
      { message: 'connect(): onChange must be one of "error", "warn", "locked", got "ignore".' },
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("DataChangedError names the path, both versions with hashes, and how to update the lock", () => {
  const locked = {
    store: "s",
    path: "/iplant/home/shared/a.csv",
    id: "i",
    size: 2048,
    modified: 0,
    hash: "xxh64:00ff",
  };
  const error = new DataChangedError(locked, {
    ...locked,
    size: 4096,
    modified: 86_400_000,
    hash: "xxh64:0a0b",
  });
  assert.equal(error.code, "ERR_DATA_CHANGED");
  assert.match(error.message, /^\/iplant\/home\/shared\/a\.csv changed since the lock was written/);
  assert.match(
    error.message,
    /locked: 2,048 bytes, modified 1970-01-01T00:00:00\.000Z, xxh64:00ff/,
  );
  assert.match(error.message, /now: 4,096 bytes, modified 1970-01-02T00:00:00\.000Z, xxh64:0a0b/);
  assert.match(error.message, /store\.provenance\.save/);
  assert.equal(error.locked, locked);
});
