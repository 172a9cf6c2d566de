import assert from "node:assert/strict";
import { lockText, readLock } from "../../../lib/reproduce/lock.ts";
import { CITATION_STYLE_LIST } from "../../../mod.ts";
import {
  DEMO,
  FILES,
  gatedRead,
  NOTES,
  PENGUINS,
  serveProvenanceStore,
  WIND,
} from "../../reproduce/_provenance.ts";
import { type Run, runTern, ternCommand } from "../_cli.ts";
import { serveCapture } from "../../_capture.ts";

Deno.test("tern lock verify and tern cite --lock against a store changed on disk", async (t) => {
  await using served = await serveProvenanceStore();
  const dir = await Deno.makeTempDir({ prefix: "tern-cli-lock-" });
  try {
    const store = served.demo();
    for (const path of [FILES.penguins, FILES.wind, FILES.notes, FILES.loose]) {
      await gatedRead(store, path, "text");
    }
    const lockFile = `${dir}/tern.lock.json`;
    await store.provenance.save(lockFile);
    // Signed in through the environment, with a password, for the lock's store: it never shows.
    const env = {
      TERRAIN_URL: served.url,
      TERRAIN_USERNAME: DEMO.username,
      TERRAIN_PASSWORD: DEMO.password,
    };
    const tern = (args: string[]): Promise<Run> =>
      runTern(["--no-cache", ...args], { cwd: dir, env, secrets: [DEMO.password, DEMO.token] });

    await t.step("all unchanged: exit 0, the store URL taken from the lock", async () => {
      const run = await tern(["lock", "verify", lockFile]);
      assert.equal(run.code, 0, run.stderr);
      const rows = run.stdout.trim().split("\n");
      assert.match(rows[0], /^status\s+path\s+compared by\s+what differs$/);
      assert.equal(rows.filter((row) => /^unchanged .* checksum\s*$/.test(row)).length, 4);
      assert.equal(rows.at(-1), "4 files: 4 unchanged, 0 changed, 0 missing, 0 unverifiable.");
    });

    await t.step("changed and missing files: a table and exit 1", async () => {
      await served.change(FILES.wind, "hour,speed\n0,1\n");
      await Deno.remove(`${served.root}${FILES.loose}`);
      const run = await tern(["lock", "verify", lockFile]);
      assert.equal(run.code, 1, run.stderr);
      const row = (path: string) => run.stdout.split("\n").find((line) => line.includes(path));
      assert.match(
        row(FILES.wind)!,
        /^changed\s+.*checksum\s+size 23 → 15; modified 2020-07-16T17:43:00\.000Z → 2024-03-01T12:00:00\.000Z; checksum md5:[0-9a-f]{32} → md5:[0-9a-f]{32}$/,
      );
      assert.match(row(FILES.loose)!, /^missing\s+.*—\s+not on the store$/);
      assert.match(row(FILES.penguins)!, /^unchanged /);
      assert.match(run.stdout, /4 files: 2 unchanged, 1 changed, 1 missing, 0 unverifiable\.\n$/);
    });

    await t.step("errors: no action, no file, a broken lock", async () => {
      const none = await tern(["lock"]);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /tern lock needs an action: verify FILE/);
      const missing = await tern(["lock", "verify", `${dir}/nope.json`]);
      assert.notEqual(missing.code, 0);
      assert.match(missing.stderr, /nope\.json: cannot be read \(no such file; /);
      await Deno.writeTextFile(
        `${dir}/bad.json`,
        JSON.stringify({ ...readLock(lockFile), files: [{ path: "/a" }] }),
      );
      const bad = await tern(["lock", "verify", `${dir}/bad.json`]);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /bad\.json: \$\.files\[0\]\.id: /);
    });

    await t.step(
      "tern cite --lock: the lock's bibliography in every style, without the store",
      async () => {
        for (const { id: style } of CITATION_STYLE_LIST) {
          const run = await runTern(["cite", "--lock", lockFile, "--style", style], {
            cwd: dir,
            env: { TERRAIN_URL: "http://127.0.0.1:9/terrain" }, // nothing listens there
          });
          assert.equal(run.code, 0, run.stderr);
          assert.ok(run.stdout.includes("9k2v-7q4m"), style);
          assert.ok(run.stdout.includes("p3w1n2"), style);
          assert.match(run.stderr, /note: Wind speeds has no DOI; it is cited by its ARK/);
          assert.match(
            run.stderr,
            /note: Lab notes has no DOI; it is cited by its data-store path/,
          );
        }
        const bibtex = await runTern(["cite", "--lock", lockFile, "-s", "bibtex"], {
          cwd: dir,
          env: {},
        });
        assert.equal(bibtex.stdout.match(/^@misc\{/gm)?.length, 3);
        assert.ok(bibtex.stdout.startsWith("@misc{Gorman2020Palmer,"));
        const lockOnly = await runTern(["cite", "--lock", lockFile, PENGUINS], {
          cwd: dir,
          env: {},
        });
        assert.equal(lockOnly.code, 2);
        assert.match(lockOnly.stderr, /takes no PATH/);
        assert.ok(
          [WIND, NOTES].every((path) => readLock(lockFile).datasets.some((d) => d.path === path)),
        );
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tern lock verify checks by stat alone: a same-size, same-date rewrite exits 1 with no content sent; an uncomputed checksum verifies by size and date; --download hashes only those files", async (t) => {
  await using served = await serveProvenanceStore();
  // The lock names this proxy of the store, which records every request that reaches it.
  await using capture = serveCapture(served.url);
  const dir = await Deno.makeTempDir({ prefix: "tern-cli-lock-checksum-" });
  try {
    const store = served.demo();
    for (const path of [FILES.penguins, FILES.wind, FILES.loose]) {
      await gatedRead(store, path, "text");
    }
    const lockFile = `${dir}/tern.lock.json`;
    await Deno.writeTextFile(
      lockFile,
      lockText({ ...await store.provenance.lock(), store: capture.url }),
    );
    const env = { TERRAIN_URL: capture.url, TERRAIN_TOKEN: DEMO.token };
    const verify = async (...flags: string[]) => {
      capture.clear();
      const run = await runTern(["--no-cache", "lock", "verify", ...flags, lockFile], {
        cwd: dir,
        env,
      });
      const row = (path: string) => run.stdout.split("\n").find((line) => line.includes(path));
      const downloads = capture.requests.filter((request) =>
        /\/(fileio\/download|display-download)|^\/dav-anon\//.test(request.path)
      );
      return { ...run, row, downloads, requests: capture.requests };
    };
    const old = new Date("2020-07-16T17:43:00Z");

    await t.step(
      "unchanged: exit 0, compared by the store's checksum, one stat request",
      async () => {
        const run = await verify();
        assert.equal(run.code, 0, run.stdout + run.stderr);
        assert.match(run.row(FILES.penguins)!, /^unchanged\s+.*\schecksum\s*$/);
        assert.deepEqual(
          run.requests.map((request) => `${request.method} ${request.path}`),
          ["POST /terrain/secured/filesystem/stat"],
        );
      },
    );

    await t.step(
      "a rewrite that kept the size and the date: exit 1 naming it, no content sent",
      async () => {
        await served.change(FILES.penguins, "species,mass\nAdelie,3751\nGentoo,5000\n", old);
        const run = await verify();
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.match(
          run.row(FILES.penguins)!,
          /^changed\s+.*\schecksum\s+checksum md5:[0-9a-f]{32} → md5:[0-9a-f]{32}$/,
        );
        assert.match(run.stdout, /3 files: 2 unchanged, 1 changed, 0 missing, 0 unverifiable\.\n$/);
        assert.deepEqual(run.downloads, [], "no file content was asked for");
        assert.equal(run.requests.length, 1);
        await served.change(FILES.penguins, "species,mass\nAdelie,3750\nGentoo,5000\n", old);
        assert.equal((await verify()).code, 0, "the same bytes again: unchanged");
      },
    );

    await t.step("a file the store has not checksummed yet verifies by size and date", async () => {
      await Deno.writeTextFile(
        `${served.root}/iplant/home/shared/lab/.loose.csv.avus.json`,
        JSON.stringify({ "irods-avus": [{ attr: "ipc-checksum", value: "", unit: "" }] }),
      );
      const run = await verify();
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.row(FILES.loose)!, /^unchanged\s+.*\ssize and date\s*$/);
      assert.deepEqual(run.downloads, []);
    });

    await t.step(
      "--download: only files without a store checksum are downloaded and hashed",
      async () => {
        await served.change(FILES.loose, "x\n2\n", old);
        const statOnly = await verify();
        assert.equal(statOnly.code, 0, "size and date cannot see it");
        const run = await verify("--download");
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.match(
          run.row(FILES.loose)!,
          /^changed\s+.*\sbytes\s+checksum md5:[0-9a-f]{32} → md5:[0-9a-f]{32}$/,
        );
        assert.match(run.row(FILES.penguins)!, /^unchanged\s+.*\schecksum\s*$/);
        assert.equal(run.downloads.length, 1);
        assert.ok(run.downloads[0].path.includes(encodeURIComponent(FILES.loose)));
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tern lock verify: credentials go only to the store they are for, never to a lock's (issue 29)", async (t) => {
  await using served = await serveProvenanceStore();
  // The lock's store: answers like Terrain (it passes requests on to the served store) and
  // records what reached it.
  await using capture = serveCapture(served.url);
  const dir = await Deno.makeTempDir({ prefix: "tern-cli-lock-creds-" });
  try {
    const store = served.demo();
    for (const path of [FILES.penguins, FILES.wind, FILES.loose]) {
      await gatedRead(store, path, "text");
    }
    const lock = { ...await store.provenance.lock(), store: capture.url };
    const lockFile = `${dir}/supplement.lock.json`;
    await Deno.writeTextFile(lockFile, lockText(lock));
    const secrets = [DEMO.password, DEMO.token, btoa(`${DEMO.username}:${DEMO.password}`)];
    const verify = async (flags: string[], env: Record<string, string>): Promise<Run> => {
      capture.clear();
      return await runTern(["--no-cache", ...flags, "lock", "verify", lockFile], {
        cwd: dir,
        env,
        secrets,
      });
    };
    const token = { TERRAIN_TOKEN: DEMO.token };
    const password = { TERRAIN_USERNAME: DEMO.username, TERRAIN_PASSWORD: DEMO.password };

    const withheld: [string, string[], Record<string, string>][] = [
      ["TERRAIN_TOKEN, no TERRAIN_URL (the default store)", [], token],
      ["--username", ["--username", DEMO.username], { TERRAIN_PASSWORD: DEMO.password }],
    ];
    // TERRAIN_URL names the user's own store, which reports the lock's store id: it stands in
    // for the lock's URL, which gets no request at all.
    const standIns: [string, string[], Record<string, string>][] = [
      ["TERRAIN_TOKEN for the user's own store", [], { ...token, TERRAIN_URL: served.url }],
      ["--token", ["--token", DEMO.token], { TERRAIN_URL: served.url }],
      ["TERRAIN_USERNAME and TERRAIN_PASSWORD", [], { ...password, TERRAIN_URL: served.url }],
    ];
    for (const [name, flags, env] of standIns) {
      await t.step(`${name}: that store stands in, the lock's store sees nothing`, async () => {
        const run = await verify(flags, env);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /3 files: 3 unchanged, 0 changed, 0 missing, 0 unverifiable\.\n$/);
        assert.equal(run.stderr, "");
        assert.deepEqual(capture.requests, []);
      });
    }
    for (const [name, flags, env] of withheld) {
      await t.step(`${name}: the lock's store sees no credentials`, async () => {
        const run = await verify(flags, env);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /3 files: 3 unchanged, 0 changed, 0 missing, 0 unverifiable\.\n$/);
        assert.deepEqual(
          capture.requests.map((request) => `${request.method} ${request.path}`),
          ["POST /terrain/filesystem/stat"],
          "the public files were checked there, in one stat",
        );
        assert.deepEqual(capture.authorizations(), []);
        assert.deepEqual(capture.tokenRequests(), []);
        assert.match(
          run.stderr,
          /^note: the lock ".*supplement\.lock\.json" names the store http:\/\/127\.0\.0\.1:\d+\/terrain, not the one your credentials are for \(.*\): reading it anonymously \(public data only\)\. To sign in there, pass --url http:\/\/127\.0\.0\.1:\d+\/terrain\.$/m,
        );
      });
    }

    await t.step("no credentials at all: checked anonymously, without a note", async () => {
      const run = await verify([], {});
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, "");
      assert.deepEqual(capture.authorizations(), []);
    });

    await t.step("TERRAIN_URL names the lock's store: the token is used there", async () => {
      const run = await verify([], { ...token, TERRAIN_URL: `${capture.url}/` });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, "");
      assert.equal(capture.authorizations().length, 1);
      assert.ok(capture.authorizations().every((header) => header === `Bearer ${DEMO.token}`));
    });

    await t.step("--url names the lock's store: the password is exchanged there", async () => {
      const run = await verify(["--url", capture.url], { ...password, TERRAIN_URL: served.url });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, "");
      assert.equal(capture.tokenRequests().length, 1);
      assert.equal(
        capture.tokenRequests()[0].authorization,
        `Basic ${btoa(`${DEMO.username}:${DEMO.password}`)}`,
      );
      assert.ok(capture.authorizations().slice(1).every((header) => header.startsWith("Bearer ")));
    });

    await t.step(
      "--url names a store with another id: refused naming both, nothing checked",
      async () => {
        const other = `${dir}/other.lock.json`;
        await Deno.writeTextFile(other, lockText({ ...lock, storeId: "another-store" }));
        const before = served.server.stats().requests;
        capture.clear();
        const run = await runTern(["--no-cache", "--url", served.url, "lock", "verify", other], {
          cwd: dir,
          env: token,
          secrets,
        });
        assert.equal(run.code, 1);
        assert.match(
          run.stderr,
          new RegExp(
            `\\$\\.storeId: was written for the store "${capture.url}" with the id "another-store", ` +
              `and the store at "${served.url}" is another one: it reports the id ` +
              `"${served.server.storeId}", not "another-store"`,
          ),
        );
        assert.equal(capture.requests.length, 0);
        assert.equal(served.server.stats().requests, before + 1, "its id alone was asked");
      },
    );

    await t.step("--url and a lock without a store id: checked there, with a note", async () => {
      const older = `${dir}/older.lock.json`;
      const { storeId: _id, ...withoutId } = lock;
      await Deno.writeTextFile(older, lockText(withoutId));
      capture.clear();
      const run = await runTern(["--no-cache", "--url", served.url, "lock", "verify", older], {
        cwd: dir,
        env: token,
        secrets,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stderr,
        /^note: the lock was written for the store "http:\/\/127\.0\.0\.1:\d+\/terrain" and records no store id to compare; using the store you named/,
      );
      assert.equal(capture.requests.length, 0);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tern cite --lock and tern lock verify: a hostile lock is a LockError, never an internal error (issue 29)", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "tern-cli-lock-hostile-" });
  try {
    const dataset = { path: PENGUINS, creators: [{ name: "Gorman, K. B." }], title: "Penguins" };
    const file = {
      path: FILES.penguins,
      id: "i",
      size: 3,
      modified: "2020-01-01T00:00:00.000Z",
      operations: ["text"],
    };
    const lock = {
      lock: "tern lock",
      format: 1,
      tern: "0.1.0",
      store: "http://127.0.0.1:9/terrain",
    };
    const cases: [string, unknown, string, RegExp][] = [
      [
        "a javascript: DOI",
        { ...lock, datasets: [{ ...dataset, doi: "javascript:alert(1)" }], files: [] },
        "$.datasets[0].doi",
        /must be a DOI \(10\.<registrant>\/<suffix>\) \(got "javascript:alert\(1\)"\)/,
      ],
      [
        "a DOI with a newline",
        { ...lock, datasets: [{ ...dataset, doi: "10.25739/9k2v\n-7q4m" }], files: [] },
        "$.datasets[0].doi",
        /\(got "10\.25739\/9k2v\\n-7q4m"\)/,
      ],
      [
        "a DOI at another resolver",
        {
          ...lock,
          datasets: [{ ...dataset, doi: "https://evil.example/10.25739/9k2v-7q4m" }],
          files: [],
        },
        "$.datasets[0].doi",
        /must be a DOI .*\(got "https:\/\/evil\.example\/10\.25739\/9k2v-7q4m"\)/,
      ],
      [
        "an ARK with ESC",
        { ...lock, datasets: [{ ...dataset, ark: "ark:/87946/p3\u001b[2Jw1n2" }], files: [] },
        "$.datasets[0].ark",
        /must be an ARK \(ark:\/<NAAN>\/<name>\) \(got "ark:\/87946\/p3\\u001b\[2Jw1n2"\)/,
      ],
      [
        "an ARK URL with a script",
        { ...lock, datasets: [{ ...dataset, ark: "javascript:ark:/87946/x" }], files: [] },
        "$.datasets[0].ark",
        /must be an ARK/,
      ],
      [
        "a ../ dataset path",
        { ...lock, datasets: [{ ...dataset, path: "/iplant/home/shared/../alice" }], files: [] },
        "$.datasets[0].path",
        /must not contain "\." or "\.\." segments/,
      ],
      [
        "a ../ file path",
        {
          ...lock,
          datasets: [],
          files: [{ ...file, path: "/iplant/home/shared/../../etc/passwd" }],
        },
        "$.files[0].path",
        /must not contain "\." or "\.\." segments/,
      ],
      [
        "a path with a newline",
        { ...lock, datasets: [], files: [{ ...file, path: "/iplant/home/shared/a\nb.csv" }] },
        "$.files[0].path",
        /must not contain control characters/,
      ],
    ];
    for (const [name, value, field, message] of cases) {
      await t.step(name, async () => {
        const path = `${dir}/hostile.lock.json`;
        await Deno.writeTextFile(path, JSON.stringify(value));
        for (const args of [["cite", "--lock", path], ["lock", "verify", path]]) {
          const run = await runTern(["--no-cache", ...args], { cwd: dir, env: {} });
          assert.equal(run.code, 1, run.stderr);
          assert.equal(run.stdout, "");
          assert.doesNotMatch(run.stderr, /internal error|bug in tern/);
          assert.ok(run.stderr.startsWith(`error: LockError: ${path}: ${field}: `), run.stderr);
          assert.match(run.stderr, message);
          // Line ends only: every control character of the value is shown escaped.
          assert.doesNotMatch(run.stderr.replaceAll("\n", ""), /\p{Cc}/u);
        }
      });
    }

    await t.step(
      "/dev/zero, a folder and an oversized lock are refused without being read",
      async () => {
        const large = `${dir}/large.lock.json`;
        await Deno.writeTextFile(large, "{}");
        await Deno.truncate(large, 16 * 1024 * 1024 + 1);
        const refusals: [string, RegExp][] = [
          [
            "/dev/zero",
            /^error: LockError: \/dev\/zero: is not a regular file \(it is a device\)$/m,
          ],
          [dir, /is not a regular file \(it is a folder\)$/m],
          [large, /is 16777217 bytes, more than the 16777216 a lock may be$/m],
        ];
        for (const [path, message] of refusals) {
          for (const args of [["cite", "--lock", path], ["lock", "verify", path]]) {
            const run = await runTern(["--no-cache", ...args], { cwd: dir, env: {} });
            assert.equal(run.code, 1, run.stderr);
            assert.match(run.stderr, message);
          }
        }
      },
    );

    await t.step(
      "a FIFO is refused at once, by the real program (a watchdog catches a hang)",
      async () => {
        const fifo = `${dir}/lock.fifo`;
        const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
        assert.ok(made.success, "mkfifo");
        for (const args of [["cite", "--lock", fifo], ["lock", "verify", fifo]]) {
          const child = ternCommand(["--no-cache", ...args], { cwd: dir, env: {} }).spawn();
          // Generous: only a hang (the read blocking for a writer that never comes) reaches it.
          let hung = false;
          const watchdog = setTimeout(() => {
            hung = true;
            child.kill("SIGKILL");
          }, 120_000);
          const output = await child.output();
          clearTimeout(watchdog);
          assert.ok(!hung, `tern ${args.join(" ")} hung on a FIFO`);
          assert.equal(output.code, 1);
          assert.match(
            new TextDecoder().decode(output.stderr),
            /^error: LockError: .*lock\.fifo: is not a regular file \(it is a FIFO\)$/m,
          );
        }
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
