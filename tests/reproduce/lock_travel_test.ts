/**
 * Locks that travel (issue 33, item 1): a lock written in one process from the README's first
 * cell names the sample store by its id as well as its URL, so in another process, whose sample
 * store listens on another port, `tern lock verify --url` (or `TERRAIN_URL`) checks it there and
 * the cell re-runs with `connect({ url, lock })`; a store reporting another id is refused naming
 * both; a lock without an id (an older one) still works by URL.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, LockError } from "../../mod.ts";
import { lockText, readLock } from "../../lib/reproduce/lock.ts";
import { DEMO_USER } from "../../lib/sample/constants.ts";
import { serveSampleStore } from "../../lib/sample/example.ts";
import { runTern } from "../cli/_cli.ts";
import { firstCell, runScript as runIn } from "../_readme_script.ts";

const runScript = (dir: string, script: string) => runIn(dir, script, 120_000);

const PENGUINS = "/iplant/home/shared/tern_samples/formats/penguins.csv";

Deno.test("a lock from the README's first cell verifies and re-runs in another process, on another port", async (t) => {
  // This process's sample store holds its port, so the cell's (another process) gets another.
  await using here = await serveSampleStore();
  const dir = await Deno.makeTempDir({ prefix: "tern-lock-travel-" });
  try {
    const written = await runScript(
      dir,
      `${firstCell()}
await store.file("${PENGUINS}").dataframe();
await store.provenance.save("tern.lock.json");
console.log(store.options.url);
`,
    );
    const lockFile = join(dir, "tern.lock.json");
    const lock = readLock(lockFile);
    assert.equal(lock.store, written.trim());
    assert.notEqual(lock.store, here.url, "the cell's store listened on another port");
    assert.equal(lock.storeId, here.storeId, "the lock names the sample store by its id");
    assert.ok(lock.storeId !== undefined);
    const env = { TERRAIN_TOKEN: DEMO_USER.token };
    const unchanged = /1 file: 1 unchanged, 0 changed, 0 missing, 0 unverifiable\.\n$/;

    await t.step("tern lock verify --url: checked on this process's sample store", async () => {
      const run = await runTern(["--url", here.url, "lock", "verify", "tern.lock.json"], {
        cwd: dir,
        env,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, unchanged);
      assert.equal(run.stderr, "");
    });

    await t.step("TERRAIN_URL overrides the lock's URL as --url does", async () => {
      const run = await runTern(["lock", "verify", "tern.lock.json"], {
        cwd: dir,
        env: { ...env, TERRAIN_URL: here.url },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, unchanged);
    });

    await t.step("the cell re-runs with connect({ url, lock }) in a third process", async () => {
      const cell = firstCell().replace(
        "token: DEMO_USER.token",
        'token: DEMO_USER.token, lock: "tern.lock.json"',
      );
      const out = await runScript(
        dir,
        `${cell}
const frame = await store.file("${PENGUINS}").dataframe();
console.log(store.options.url, frame.height, store.provenance.reads[0].status);
`,
      );
      const [url, height, status] = out.trim().split(" ");
      assert.notEqual(url, lock.store, "the re-run's store listened on another port");
      assert.equal(height, "344");
      assert.equal(status, "read");
    });

    await t.step("a store with another id is refused, naming both", async () => {
      const other = { ...lock, storeId: "another-store" };
      await Deno.writeTextFile(join(dir, "other.lock.json"), lockText(other));
      for (
        const [args, extra] of [
          [["--url", here.url], {}],
          [[], { TERRAIN_URL: here.url }],
        ] as const
      ) {
        const run = await runTern([...args, "lock", "verify", "other.lock.json"], {
          cwd: dir,
          env: { ...env, ...extra },
        });
        assert.equal(run.code, 1);
        assert.ok(run.stderr.includes(`"another-store"`), run.stderr);
        assert.ok(run.stderr.includes(`the id "${here.storeId}"`), run.stderr);
        assert.match(run.stderr, /LockError: .*\$\.storeId: was written for the store/);
      }
      const store = connect({
        url: here.url,
        token: DEMO_USER.token,
        cacheDir: false,
        lock: other,
      });
      await assert.rejects(store.file(PENGUINS).text(), (error: unknown) => {
        assert.ok(error instanceof LockError, String(error));
        assert.equal(error.field, "$.storeId");
        assert.match(error.message, /with the id "another-store"/);
        assert.ok(error.message.includes(`reports the id "${here.storeId}"`));
        return true;
      });
    });

    await t.step("a lock without a store id (an older one) still works by URL", async () => {
      const { storeId: _id, ...older } = lock;
      await Deno.writeTextFile(
        join(dir, "older.lock.json"),
        lockText({ ...older, store: here.url }),
      );
      const run = await runTern(["lock", "verify", "older.lock.json"], { cwd: dir, env });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, unchanged);
      const store = connect({
        url: here.url,
        token: DEMO_USER.token,
        cacheDir: false,
        lock: join(dir, "older.lock.json"),
      });
      assert.equal((await store.file(PENGUINS).dataframe()).height, 344);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
