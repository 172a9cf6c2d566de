/**
 * Every download is checked against the store's checksum as it streams: a body with one byte
 * changed (same size, same date, same ETag) is refused by every read after one more read from
 * the network, and nothing of it is cached; a cached copy is served only to a read of the
 * checksum it recorded; a file the store has not checksummed reads as before.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  CacheMissError,
  ChecksumMismatchError,
  connect,
  IntegrityError,
  type Store,
} from "../../mod.ts";
import { corruptingProxy } from "./_proxy.ts";
import { DATA, dataStore, generatedCsv } from "./_store.ts";

const PATH = `${DATA}/a.csv`;
const LOOSE = `${DATA}/loose.csv`;
const CSV = generatedCsv(300);
const md5 = (bytes: Uint8Array) => `md5:${createHash("md5").update(bytes).digest("hex")}`;

/** The bytes the proxy sends: the last digit changed, as `corruptingProxy` does. */
function corrupted(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  bytes[bytes.findLastIndex((byte) => byte >= 0x30 && byte <= 0x39)] ^= 1;
  return bytes;
}

Deno.test("a body with one byte changed is refused by every read after one more download, and never cached", async (t) => {
  await using store = await dataStore({ [PATH]: CSV });
  await using proxy = corruptingProxy(store.url, "a.csv");
  const good = md5(new TextEncoder().encode(CSV));
  const bad = md5(corrupted(CSV));
  const size = new TextEncoder().encode(CSV).byteLength;
  // Inside the cache folder, which the store's close removes whatever a step left.
  const work = join(store.cacheDir, "saved");
  await Deno.mkdir(work);
  const reads: [string, (tern: Store) => Promise<unknown>][] = [
    ["dataframe()", (tern) => tern.file(PATH).dataframe()],
    ["bytes()", (tern) => tern.file(PATH).bytes()],
    ["text()", (tern) => tern.file(PATH).text()],
    ["batches()", async (tern) => {
      for await (const _ of tern.file(PATH).batches()) { /* read to the end */ }
    }],
    ["downloadTo()", (tern) => tern.file(PATH).downloadTo(join(work, "x.csv"))],
  ];
  for (const [name, read] of reads) {
    await t.step(name, async () => {
      const tern = connect({ url: proxy.url, anonymous: true, cacheDir: store.cacheDir });
      const before = proxy.downloads;
      const error = await read(tern).then(() => undefined, (error) => error);
      assert.ok(error instanceof IntegrityError, String(error));
      assert.ok(error instanceof ChecksumMismatchError);
      assert.equal(error.path, PATH);
      assert.deepEqual([error.expected, error.actual, error.size], [good, bad, size]);
      for (const part of [PATH, good, bad, size.toLocaleString("en-US")]) {
        assert.ok(error.message.includes(part), `${error.message} names ${part}`);
      }
      assert.equal(proxy.downloads - before, 2, "read once more from the network, not more");
      await tern.close();
      const offline = connect({
        url: store.url,
        anonymous: true,
        cacheDir: store.cacheDir,
        offline: true,
      });
      await assert.rejects(offline.file(PATH).bytes(), CacheMissError, "nothing was cached");
      await offline.close();
    });
  }
  await t.step("downloadTo() left nothing at the target", () => {
    assert.deepEqual([...Deno.readDirSync(work)], []);
  });
  await t.step(
    "once the bytes arrive whole, the read succeeds and records the checksum",
    async () => {
      proxy.corrupting = false;
      const tern = connect({ url: proxy.url, anonymous: true, cacheDir: store.cacheDir });
      assert.equal(await tern.file(PATH).text(), CSV);
      assert.equal(tern.provenance.reads[0].checksum, good);
      await tern.close();
    },
  );
});

Deno.test("a cached copy is served only to a read of the checksum it recorded", async () => {
  await using store = await dataStore({ [PATH]: CSV });
  const tern = store.connect();
  assert.equal((await tern.file(PATH).dataframe()).height, 300);
  // The store now gives another checksum for the same size, date and id: the copy, checked
  // against the old one, is not that version's, so the read downloads (and refuses the bytes).
  const other = `md5:${"0".repeat(32)}`;
  await Deno.writeTextFile(
    `${store.root}${DATA}/.a.csv.avus.json`,
    JSON.stringify({ "irods-avus": [{ attr: "ipc-checksum", value: other.slice(4), unit: "" }] }),
  );
  const sent = store.server.stats().bytesSent;
  const fresh = store.connect();
  await assert.rejects(fresh.file(PATH).dataframe(), ChecksumMismatchError);
  assert.ok(store.server.stats().bytesSent - sent >= 2 * CSV.length, "downloaded, twice");
});

Deno.test("a file the store has not checksummed reads as before, its checksum unknown", async () => {
  await using store = await dataStore({
    [LOOSE]: CSV,
    [`${DATA}/.loose.csv.avus.json`]: JSON.stringify({
      "irods-avus": [{ attr: "ipc-checksum", value: "", unit: "" }],
    }),
  });
  const tern = store.connect();
  const file = tern.file(LOOSE);
  assert.equal((await file.stat()).checksum, undefined);
  assert.equal((await file.dataframe()).height, 300);
  assert.equal(await file.text(), CSV);
  assert.equal(tern.provenance.reads.length, 1);
  assert.equal(tern.provenance.reads[0].checksum, undefined);
  assert.ok(tern.provenance.reads[0].hash, "verified by size, date and tern's own hash");
});
