import { createHash } from "node:crypto";
import assert from "node:assert/strict";
import { connect, DataChangedError, LockError } from "../../mod.ts";
import { connectIn } from "../../lib/handles/connect.ts";
import {
  type Lock,
  lockText,
  MAX_LOCK_BYTES,
  parseLock,
  readLock,
  writeLock,
} from "../../lib/reproduce/lock.ts";
import { serveCapture } from "../_capture.ts";
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
      "storeId",
      "datasets",
      "files",
    ]);
    const files = JSON.parse(text).files;
    assert.deepEqual(Object.keys(files[0]), [
      "path",
      "id",
      "size",
      "modified",
      "checksum",
      "dataset",
      "operations",
    ]);
    // Each file carries the store's own checksum of its bytes (the server's MD5).
    const md5 = (text: string) => `md5:${createHash("md5").update(text).digest("hex")}`;
    assert.deepEqual(files.map((file: { checksum: string }) => file.checksum), [
      md5("species,mass\nAdelie,3750\nGentoo,5000\n"),
      md5("hour,speed\n0,3.5\n1,4.0\n"),
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
    ...[
      "0cc175b9c0f1b6a831c399e269772661", // no algorithm
      "md5:0CC175B9C0F1B6A831C399E269772661", // not lowercase
      "md5:0cc175b9", // too short
      "sha2:not base64!",
      "sha256:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=",
      "",
    ].map((checksum): [unknown, string, RegExp] => [
      { ...GOOD, files: [{ ...GOOD.files[0], checksum }] },
      "$.files[0].checksum",
      /must be md5:<32 lowercase hex digits> or sha2:<base64 of a SHA-256 digest>/,
    ]),
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
  for (
    const checksum of [
      "md5:0cc175b9c0f1b6a831c399e269772661",
      "sha2:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=",
    ]
  ) {
    const withChecksum = { ...GOOD, files: [{ ...GOOD.files[0], checksum }] };
    assert.equal(parseLock(structuredClone(withChecksum)).files[0].checksum, checksum);
  }
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
    // No store named (the default gateway): a lock for another stays refused.
    assert.throws(
      () => connectIn(() => undefined, { anonymous: true, cacheDir: false, lock: path }),
      (error: unknown) =>
        error instanceof LockError && error.field === "$.store" &&
        /written for the store "http:\/\/127\.0\.0\.1:8080\/terrain", not this one \("https:\/\/de\.cyverse\.org\/terrain"\)/
          .test(error.message),
    );
    // A store named by url stands in for a lock without a store id, with a note.
    const notes: string[] = [];
    const warn = console.warn;
    console.warn = (line: string) => notes.push(line);
    try {
      connect({ ...options, url: "http://127.0.0.1:9/terrain", lock: path });
    } finally {
      console.warn = warn;
    }
    assert.deepEqual(notes, [
      'tern: the lock was written for the store "http://127.0.0.1:8080/terrain" and records no ' +
      'store id to compare; using the store you named, "http://127.0.0.1:9/terrain", in its ' +
      "place (its files are checked against the lock as usual).",
    ]);
    // A first run has no lock yet: the error says what writes one.
    assert.throws(() => connect({ ...options, lock: `${folder}/none.json` }), {
      name: "LockError",
      message: `${folder}/none.json: cannot be read (no such file; a notebook's first run ` +
        "writes its lock with store.provenance.save(…))",
    });
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

Deno.test("connect({ lock, offline }): a store named at another URL stands in for a lock with a store id, with a note that says the id went unchecked", async () => {
  const notes: string[] = [];
  const warn = console.warn;
  console.warn = (line: string) => notes.push(line);
  const cacheDir = await tempDir();
  try {
    const lock = { ...GOOD, storeId: "tern-sample-store" };
    const url = "http://127.0.0.1:9/terrain";
    await connect({ url, offline: true, anonymous: true, cacheDir, lock }).close();
  } finally {
    console.warn = warn;
    await Deno.remove(cacheDir, { recursive: true });
  }
  // Older code said the lock "records no store id to compare", of a lock that records one.
  assert.deepEqual(notes, [
    'tern: the lock was written for the store "http://127.0.0.1:8080/terrain" (id ' +
    '"tern-sample-store"), which an offline store cannot be asked to confirm; using the store ' +
    'you named, "http://127.0.0.1:9/terrain", in its place (its files are checked against the ' +
    "lock as usual).",
  ]);
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

Deno.test("lock: a DOI with the sentence end an older tern kept (before DOIs lost it) still reads", () => {
  const dataset = GOOD.datasets[0];
  for (const doi of ["10.1234/abc.", "10.1234/abc).", "10.1234/x(1)"]) {
    const lock = parseLock({ ...GOOD, datasets: [{ ...dataset, doi }] });
    assert.equal(lock.datasets[0].doi, doi);
  }
  // Any other form is still refused, with the canonical one named.
  assert.throws(
    () => parseLock({ ...GOOD, datasets: [{ ...dataset, doi: "doi:10.1234/abc." }] }),
    /must be a DOI in the form tern writes: "10\.1234\/abc"/,
  );
});

Deno.test("lock: hostile field values are LockErrors naming the field and the value, escaped (issue 29)", () => {
  const dataset = GOOD.datasets[0];
  const file = GOOD.files[0];
  const cases: [unknown, string, RegExp][] = [
    [
      { ...GOOD, datasets: [{ ...dataset, doi: "javascript:alert(1)" }] },
      "$.datasets[0].doi",
      /must be a DOI \(10\.<registrant>\/<suffix>\) \(got "javascript:alert\(1\)"\)/,
    ],
    [
      { ...GOOD, datasets: [{ ...dataset, doi: "10.1234/ab\ncd" }] },
      "$.datasets[0].doi",
      /must be a DOI .*\(got "10\.1234\/ab\\ncd"\)/,
    ],
    [
      { ...GOOD, datasets: [{ ...dataset, doi: " 10.1234/AB " }] },
      "$.datasets[0].doi",
      /must be a DOI in the form tern writes: "10\.1234\/AB"/,
    ],
    [
      { ...GOOD, datasets: [{ ...dataset, ark: "ark:/87946/x\u001b[31m" }] },
      "$.datasets[0].ark",
      /must be an ARK .*\(got "ark:\/87946\/x\\u001b\[31m"\)/,
    ],
    [
      { ...GOOD, datasets: [{ ...dataset, ark: "ark:/87946/a/../b" }] },
      "$.datasets[0].ark",
      /must be an ARK/,
    ],
    [
      { ...GOOD, datasets: [{ ...dataset, ark: "https://n2t.net/ark:/87946/x" }] },
      "$.datasets[0].ark",
      /in the form tern writes: "ark:\/87946\/x"/,
    ],
    [
      { ...GOOD, datasets: [{ ...dataset, creators: [{ name: "A", orcid: "javascript:x" }] }] },
      "$.datasets[0].creators[0].orcid",
      /must be an ORCID iD/,
    ],
    [
      { ...GOOD, datasets: [{ ...dataset, path: "/iplant/home/shared/../../../etc" }] },
      "$.datasets[0].path",
      /must not contain "\." or "\.\." segments \(got "\/iplant\/home\/shared\/\.\.\/\.\.\/\.\.\/etc"\)/,
    ],
    [
      { ...GOOD, files: [{ ...file, path: "/iplant/home/shared/x/../../alice/a.csv" }] },
      "$.files[0].path",
      /"\." or "\.\."/,
    ],
    [
      { ...GOOD, files: [{ ...file, path: "/iplant/./home/a.csv" }] },
      "$.files[0].path",
      /"\." or "\.\."/,
    ],
    [
      { ...GOOD, files: [{ ...file, path: "/iplant//home/a.csv" }] },
      "$.files[0].path",
      /must be normalised/,
    ],
    [
      { ...GOOD, files: [{ ...file, path: "/iplant/home/" }] },
      "$.files[0].path",
      /must be normalised/,
    ],
    [{ ...GOOD, files: [{ ...file, path: "../a.csv" }] }, "$.files[0].path", /absolute/],
    [
      { ...GOOD, files: [{ ...file, path: "/iplant/a\u0000b" }] },
      "$.files[0].path",
      /control characters \(got "\/iplant\/a\\u0000b"\)/,
    ],
    [
      { ...GOOD, files: [{ ...file, path: "/iplant/a\nb.csv" }] },
      "$.files[0].path",
      /control characters/,
    ],
    [
      { ...GOOD, files: [{ ...file, dataset: "/iplant/home/shared/x/.." }] },
      "$.files[0].dataset",
      /"\." or "\.\."/,
    ],
    [
      { ...GOOD, store: "http://127.0.0.1:8080/terrain?token=x" },
      "$.store",
      /without a query or fragment/,
    ],
  ];
  for (const [value, field, message] of cases) {
    assert.throws(
      () => parseLock(value, "supplement.lock.json"),
      (error: unknown) => {
        if (!(error instanceof LockError)) throw error;
        assert.equal(error.field, field);
        assert.match(error.message, message);
        assert.ok(error.message.startsWith(`supplement.lock.json: ${field}: `), error.message);
        assert.doesNotMatch(error.message, /\p{Cc}/u, "control characters are shown escaped");
        return true;
      },
      `${field}: ${message}`,
    );
  }
  // What tern writes still reads: canonical identifiers and paths.
  const fine = {
    ...GOOD,
    datasets: [{
      ...dataset,
      doi: "10.25739/9k2v-7q4m",
      ark: "ark:/87946/p3w1n2",
      creators: [{ name: "A", orcid: "0000-0002-1825-0097" }],
    }],
  };
  assert.deepEqual(parseLock(fine), fine);
  assert.equal(
    parseLock({ ...GOOD, files: [{ ...file, path: "/a b/ü…/x.csv" }] }).files[0].path,
    "/a b/ü…/x.csv",
  );
});

Deno.test("readLock: devices, folders and oversized files are refused before they are read (issue 29)", async () => {
  const folder = await tempDir();
  try {
    const refused = (path: string, message: RegExp) =>
      assert.throws(
        () => readLock(path),
        (error: unknown) =>
          error instanceof LockError && error.source === path &&
          message.test(error.message),
        path,
      );
    // /dev/zero never ends: read whole it took gigabytes before failing. Refused as a device,
    // it was not read (the process's RSS, shared with every test beside this one, would say
    // nothing more).
    refused("/dev/zero", /^\/dev\/zero: is not a regular file \(it is a device\)$/);
    refused(folder, /is not a regular file \(it is a folder\)$/);
    // A sparse file one byte over the cap: refused by its size, not read.
    const large = `${folder}/large.lock.json`;
    await Deno.writeTextFile(large, lockText(GOOD));
    await Deno.truncate(large, MAX_LOCK_BYTES + 1);
    refused(
      large,
      new RegExp(`is ${MAX_LOCK_BYTES + 1} bytes, more than the ${MAX_LOCK_BYTES} a lock may be`),
    );
    assert.throws(() => connect({ anonymous: true, cacheDir: false, lock: large }), LockError);
    // Not UTF-8: a LockError, not a decoded guess.
    const binary = `${folder}/binary.lock.json`;
    await Deno.writeFile(binary, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    refused(binary, /is not JSON \(not UTF-8 text\)/);
    // A lock one byte under the cap reads (it is not valid JSON here, which says it was read).
    await Deno.truncate(large, MAX_LOCK_BYTES);
    refused(large, /is not JSON/);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("writeLock: tern never writes a lock it would refuse", async () => {
  const folder = await tempDir();
  try {
    const path = `${folder}/tern.lock.json`;
    const bad = { ...GOOD, files: [{ ...GOOD.files[0], path: "/iplant/a\u001bb" }] };
    await assert.rejects(
      writeLock(path, bad),
      (error: unknown) => error instanceof LockError && error.field === "$.files[0].path",
    );
    const many = Array.from({ length: 50_000 }, (_, index) => ({
      ...GOOD.files[0],
      path: `/iplant/home/shared/many_files/${"long-name-".repeat(20)}${index}.csv`,
    }));
    await assert.rejects(
      writeLock(path, { ...GOOD, files: many }),
      /would be \d+ bytes, more than the 16777216 a lock may be/,
    );
    assert.deepEqual([...Deno.readDirSync(folder)], [], "nothing was written");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("provenance.save(): a folder that is not there, or a folder at the path, is a LockError saying what to do", async () => {
  await using served = await serveProvenanceStore();
  const folder = await tempDir();
  try {
    const store = served.demo();
    await store.file(FILES.penguins).text();
    const missing = `${folder}/no/such/tern.lock.json`;
    await assert.rejects(store.provenance.save(missing), (error: unknown) => {
      assert.ok(error instanceof LockError, String(error));
      assert.equal(error.source, missing);
      assert.equal(
        error.message,
        `${missing}: cannot be written: there is no folder "${folder}/no/such" (create it, or ` +
          "save the lock in a folder that exists)",
      );
      return true;
    });
    await assert.rejects(store.provenance.save(folder), (error: unknown) => {
      assert.ok(error instanceof LockError, String(error));
      assert.equal(
        error.message,
        `${folder}: cannot be written: it is a folder (name the lock file in it)`,
      );
      return true;
    });
    assert.deepEqual([...Deno.readDirSync(folder)], [], "nothing was left behind");
    await store.close();
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("connect({ lock }): the lock's store never gets the caller's credentials (issue 29)", async (t) => {
  await using served = await serveProvenanceStore();
  await using capture = serveCapture(served.url);
  const folder = await tempDir();
  try {
    const store = served.demo();
    await gatedRead(store, FILES.penguins, "text");
    const path = `${folder}/supplement.lock.json`;
    await Deno.writeTextFile(
      path,
      lockText({ ...await store.provenance.lock(), store: capture.url }),
    );
    const before = served.server.stats().requests;

    await t.step("no store named: a LockError naming both, nothing sent", () => {
      // No url: the environment's store (here the default gateway) is the configured one.
      const open = () =>
        connectIn((name) => ({ TERRAIN_TOKEN: DEMO.token } as Record<string, string>)[name], {
          cacheDir: false,
          lock: path,
        });
      assert.throws(open, (error: unknown) => {
        assert.ok(error instanceof LockError, String(error));
        assert.equal(error.field, "$.store");
        assert.match(error.message, /nothing was sent to either/);
        assert.ok(error.message.includes(`connect({ url: "${capture.url}", lock })`));
        return true;
      });
      assert.equal(capture.requests.length, 0);
      assert.equal(served.server.stats().requests, before);
    });

    await t.step(
      "another store named, with the lock's id: it stands in, the lock's store sees nothing",
      async () => {
        for (
          const credentials of [
            { token: DEMO.token },
            { username: DEMO.username, password: DEMO.password },
          ]
        ) {
          const named = connect({
            url: served.url,
            ...credentials,
            cacheDir: false,
            progress: false,
            lock: path,
          });
          assert.equal(
            await named.file(FILES.penguins).text(),
            "species,mass\nAdelie,3750\nGentoo,5000\n",
          );
        }
        assert.equal(capture.requests.length, 0);
      },
    );

    await t.step("the lock's store configured: the credentials go there", async () => {
      const locked = connect({
        url: `${capture.url}/`,
        token: DEMO.token,
        cacheDir: false,
        progress: false,
        lock: path,
      });
      assert.equal(
        await locked.file(FILES.penguins).text(),
        "species,mass\nAdelie,3750\nGentoo,5000\n",
      );
      assert.ok(capture.authorizations().length > 0);
      assert.ok(capture.authorizations().every((header) => header === `Bearer ${DEMO.token}`));
    });
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
