import assert from "node:assert/strict";
import {
  fileValidators,
  parseEntityTags,
  parseHttpDate,
  preconditions,
  rangeAllowed,
  type Validators,
} from "../../lib/server/conditional.ts";
import { FileHashes, SETTLED_MS } from "../../lib/server/file_hashes.ts";

Deno.test("an in-place same-size edit keeping the modification time changes the tag", async () => {
  const path = await Deno.makeTempFile();
  try {
    const when = new Date(Date.UTC(2021, 5, 1));
    await Deno.writeTextFile(path, "aaaa");
    await Deno.utime(path, when, when);
    const hashes = new FileHashes();
    const before = await (async () => {
      using file = await Deno.open(path);
      return await fileValidators(file, hashes);
    })();
    await Deno.writeTextFile(path, "bbbb");
    await Deno.utime(path, when, when);
    using file = await Deno.open(path);
    const after = await fileValidators(file, hashes);
    assert.equal(after.lastModified, before.lastModified);
    assert.notEqual(after.etag, before.etag);
    // The descriptor is left at the start, ready to serve.
    const head = new Uint8Array(4);
    assert.equal(await file.read(head), 4);
    assert.equal(new TextDecoder().decode(head), "bbbb");
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("entity-tag lists and HTTP-dates parse strictly", () => {
  assert.deepEqual(parseEntityTags('"a","b"'), ['"a"', '"b"']);
  assert.deepEqual(parseEntityTags('"a" , W/"b"'), ['"a"', 'W/"b"']);
  assert.deepEqual(parseEntityTags(""), []);
  assert.deepEqual(parseEntityTags('"a'), []);
  assert.deepEqual(parseEntityTags('"a" "b"'), []);
  assert.equal(parseHttpDate("Sun, 06 Nov 1994 08:49:37 UTC"), undefined);
  assert.equal(parseHttpDate("Sun, 32 Nov 1994 08:49:37 GMT"), undefined);
  assert.equal(parseHttpDate(" Sun, 06 Nov 1994 08:49:37 GMT "), 784111777);
});

Deno.test("If-Range with a date holds only for a file unchanged after that second", () => {
  const settled: Validators = {
    etag: '"t"',
    lastModified: "Sun, 06 Nov 1994 08:49:37 GMT",
    modifiedSeconds: 784111777,
    changedSeconds: 784111777,
    size: 1,
  };
  const date = { "if-range": settled.lastModified };
  assert.ok(rangeAllowed(new Headers(date), settled));
  assert.ok(!rangeAllowed(new Headers(date), { ...settled, changedSeconds: 784111778 }));
  assert.ok(!rangeAllowed(new Headers({ "if-range": "Sun, 06 Nov 1994 08:49:38 GMT" }), settled));
  assert.ok(!rangeAllowed(new Headers({ "if-range": "garbage" }), settled));
  // Dates are compared in whole seconds, as Last-Modified has no finer grain.
  const later = { "if-unmodified-since": "Sun, 06 Nov 1994 08:49:36 GMT" };
  assert.equal(preconditions(new Headers(later), settled), "failed");
});

Deno.test("a settled file over 1 GiB is tagged by its identity, which a same-size rename changes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const make = async (name: string) => {
      using file = await Deno.open(`${dir}/${name}`, { write: true, create: true });
      await file.truncate(1024 * 1024 * 1024 + 1); // sparse: nothing is written
    };
    // Both identities must have stood still for SETTLED_MS before they are trusted: the hashes'
    // clock is stepped past that instead of waiting for it.
    let now = 0;
    const hashes = new FileHashes({ clock: () => now });
    const tagOf = async () => {
      using file = await Deno.open(`${dir}/big.bin`);
      return (await fileValidators(file, hashes)).etag;
    };
    await make("big.bin");
    await make("next.bin");
    now = Date.now() + SETTLED_MS;
    const first = await tagOf();
    assert.match(first, /^"f-[0-9a-z-]+"$/);
    assert.equal(await tagOf(), first);
    await Deno.rename(`${dir}/next.bin`, `${dir}/big.bin`);
    // Renaming moved the change time; once settled again (else it would be hashed, 1 GiB).
    now = Date.now() + SETTLED_MS;
    const second = await tagOf();
    assert.match(second, /^"f-/);
    assert.notEqual(second, first);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("each FileHashes (each served store) remembers settled files' hashes apart, bounded", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const names = ["a", "b", "c"];
    for (const name of names) await Deno.writeTextFile(`${dir}/${name}`, name);
    // Hashes are remembered only once a file's identity has stood still for SETTLED_MS: both
    // stores' clock is that far on.
    const settled = Date.now() + SETTLED_MS;
    const clock = () => settled;
    const tagsWith = async (hashes: FileHashes) => {
      const tags = [];
      for (const name of names) {
        using file = await Deno.open(`${dir}/${name}`);
        tags.push((await fileValidators(file, hashes)).etag);
      }
      return tags;
    };
    const first = new FileHashes({ max: 2, clock });
    const second = new FileHashes({ clock });
    const tags = await tagsWith(first);
    assert.equal(first.size, 2, "the least recently used is forgotten past the bound");
    assert.equal(second.size, 0, "another store's hashes are its own");
    assert.deepEqual(await tagsWith(second), tags);
    assert.equal(second.size, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
