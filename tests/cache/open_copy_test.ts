/**
 * {@linkcode OpenCopy} on its own: a copy held open is read by path while its name holds it,
 * and through its handle once another process removed or replaced the name.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type CopyWriter, DiskCache, type LocalCopy, OpenCopy } from "../../lib/cache/mod.ts";

Deno.test("an open copy is read through its handle once its name was removed or replaced", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new DiskCache({ dir });
    const put = async (path: string) => {
      const version = { store: "http://x/terrain", path, id: "i", size: 4, modified: 1 };
      const writer = await cache.open(version) as CopyWriter;
      await writer.write(new TextEncoder().encode("a\n1\n"));
      // Without the bytes a small copy comes with: handed over by path, as a large one is (a
      // copy this small lives in the index, so it is given a file first).
      const committed = (await writer.commit())!;
      await cache.fileOf(committed);
      const { bytes: _, ...copy } = committed;
      return copy;
    };
    const paths: string[] = [];
    /** Reads the copy as Polars would, failing on any bytes but the copy's. */
    const parse = async (local: LocalCopy) => {
      if (local.file !== undefined) paths.push(local.file);
      const text = new TextDecoder().decode(local.bytes ?? await Deno.readFile(local.file!));
      if (text !== "a\n1\n") throw new Error(`not the copy: ${JSON.stringify(text)}`);
      return text;
    };

    const kept = await put("/a/kept.csv");
    await using open = (await OpenCopy.open(kept))!;
    assert.equal(await open.read(parse), "a\n1\n");
    assert.deepEqual(paths, [kept.file], "read by path while the name holds it");
    await assert.rejects(open.read(() => Promise.reject(new Error("bad CSV"))), /bad CSV/);

    const removed = await put("/a/removed.csv");
    await using held = (await OpenCopy.open(removed))!;
    await Deno.remove(removed.file);
    assert.equal(await OpenCopy.open(removed), undefined, "a removed name cannot be opened");
    assert.equal(new TextDecoder().decode(await held.head(2)), "a\n");
    assert.equal(await held.read(parse), "a\n1\n");

    const replaced = await put("/a/replaced.csv");
    await using first = (await OpenCopy.open(replaced))!;
    const other = join(dir, "other.csv");
    await Deno.writeTextFile(other, "a\n2\n");
    await Deno.rename(other, replaced.file);
    assert.equal(await first.read(parse), "a\n1\n", "the bytes it opened");
    assert.deepEqual(paths.slice(1), [removed.file, replaced.file], "tried by path first");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
