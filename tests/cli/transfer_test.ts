import assert from "node:assert/strict";
import { join } from "node:path";
import { connect } from "../../mod.ts";
import { startServer } from "../../server.ts";
import { saveFile } from "../../lib/cli/transfer.ts";

const PATH = "/iplant/home/shared/data/table.csv";
const CONTENT = "id,value\n" + Array.from({ length: 2000 }, (_, i) => `${i},${i * 0.5}`).join("\n");

Deno.test("saveFile: download, up to date, from cache, changed files, abort", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "tern-cli-transfer-" });
  const root = join(dir, "store");
  const file = join(root, PATH);
  await Deno.mkdir(join(root, "iplant/home/shared/data"), { recursive: true });
  await Deno.writeTextFile(file, CONTENT);
  await using server = await startServer({ root, port: 0, quiet: true });
  const cached = connect({
    url: server.url,
    anonymous: true,
    cacheDir: join(dir, "cache"),
    progress: false,
  });
  const direct = connect({ url: server.url, anonymous: true, cacheDir: false, progress: false });
  const out = join(dir, "out");
  const target = join(out, "table.csv");
  const leftovers = async () => {
    const names: string[] = [];
    for await (const item of Deno.readDir(out)) names.push(item.name);
    return names.sort();
  };
  try {
    await t.step(
      "a download writes the bytes and the server's date, counting every byte",
      async () => {
        const entry = await cached.file(PATH).stat();
        let counted = 0;
        const result = await saveFile(cached, entry, target, {
          force: false,
          onBytes: (n) => counted += n,
        });
        assert.equal(result.source, "downloaded");
        assert.equal(await Deno.readTextFile(target), CONTENT);
        assert.equal(counted, entry.size);
        assert.equal((await Deno.stat(target)).mtime!.getTime(), entry.modified.getTime());
      },
    );

    await t.step(
      "a matching local file is skipped; a missing one comes from the cache",
      async () => {
        const entry = await cached.file(PATH).stat();
        const skipped = await saveFile(cached, entry, target, { force: false, onBytes: () => {} });
        assert.equal(skipped.source, "up-to-date");
        await Deno.remove(target);
        const sent = server.stats().bytesSent;
        const copied = await saveFile(cached, entry, target, { force: false, onBytes: () => {} });
        assert.equal(copied.source, "cache");
        assert.equal(server.stats().bytesSent, sent);
        assert.equal(await Deno.readTextFile(target), CONTENT);
      },
    );

    await t.step("a local file of another size is replaced", async () => {
      await Deno.writeTextFile(target, "stale");
      const entry = await cached.file(PATH).stat();
      const result = await saveFile(cached, entry, target, { force: false, onBytes: () => {} });
      assert.notEqual(result.source, "up-to-date");
      assert.equal(await Deno.readTextFile(target), CONTENT);
    });

    await t.step("a file that changed since its listing is saved as it is now", async () => {
      for (const [store, extra] of [[direct, "\n9999,1.5"], [cached, "\n10000,2.5"]] as const) {
        const stale = await store.file(PATH).stat({ refresh: true });
        const changed = `${await Deno.readTextFile(file)}${extra}`;
        await Deno.writeTextFile(file, changed);
        const result = await saveFile(store, stale, target, { force: true, onBytes: () => {} });
        assert.equal(await Deno.readTextFile(target), changed);
        assert.equal(result.size, new TextEncoder().encode(changed).length);
        assert.deepEqual(await leftovers(), ["table.csv"]);
      }
    });

    await t.step("an aborted save leaves the target as it was", async () => {
      await Deno.writeTextFile(target, "keep me");
      const entry = await direct.file(PATH).stat({ refresh: true });
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(
        saveFile(direct, entry, target, {
          force: true,
          onBytes: () => {},
          signal: controller.signal,
        }),
      );
      assert.equal(await Deno.readTextFile(target), "keep me");
      assert.deepEqual(await leftovers(), ["table.csv"]);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
