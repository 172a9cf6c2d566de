/**
 * Hostile paths: names on disk that are 255 bytes long (ASCII and multi-byte UTF-8), that are
 * not UTF-8 at all, or that carry control and look-alike characters; symlinks that lead out of
 * the store or back into their own folder; and path-escape attempts against the server (`..`,
 * percent-encoded, double-encoded, overlong UTF-8, backslashes, NUL, absolute paths, symlinks),
 * sent both through the public API and as raw HTTP request lines that no URL parser has
 * normalised. Every one gives correct output or a clear typed error, within a deadline; no
 * answer ever carries a byte of a file outside the store or where the store lives on disk.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, type Entry, type Store, TernError } from "../../mod.ts";
import { startServer } from "../../server.ts";
import {
  errorSurfaces,
  report,
  sha256,
  sha256File,
  sortByName,
  tally,
  withDeadline,
} from "./_fixtures.ts";

const DEADLINE_MS = 30_000;
const TOKEN = "hostile.paths-static.T0ken";
const FOLDER = "/iplant/home/shared/names";
/** The content of the file outside the store; no answer may contain it. */
const SECRET = `TOP-SECRET-${crypto.randomUUID()}`;

/** 255 bytes, the longest name most file systems allow. */
const LONG_ASCII = `${"a".repeat(251)}.csv`;
/** 255 bytes of UTF-8 in 130 characters. */
const LONG_UTF8 = `${"é".repeat(125)}x.csv`;
const LONG_FOLDER = "d".repeat(255);

/** Valid UTF-8 names that are awkward anywhere else: each must list, download and save. */
const ODD_NAMES = [
  "tab\there.csv",
  "new\nline.txt",
  'quote"s.csv',
  "percent%2e%2e%2fencoded.txt",
  "..dots..",
  " leading and trailing ",
  "-rf",
  "\u202Egnp.exe",
  "emoji 🐧.csv",
  "ＦＵＬＬＷＩＤＴＨ．ｃｓｖ",
];

/** Names given as shell `printf` escapes: not UTF-8, so never listed or served. */
const NON_UTF8 = ["bad-\\377\\376.csv", "latin1-caf\\351.txt"];

/** `value` as one quoted CSV field. */
function csvField(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

async function hostileStore(parent: string): Promise<string> {
  const root = join(parent, "store");
  const folder = join(root, "iplant/home/shared/names");
  await Deno.mkdir(join(folder, LONG_FOLDER), { recursive: true });
  await Deno.mkdir(join(root, ".terrain"), { recursive: true });
  await Deno.writeTextFile(
    join(root, ".terrain/users.json"),
    JSON.stringify({ users: [{ username: "demo", password: "pw", tokens: [TOKEN] }] }),
  );
  await Deno.mkdir(join(root, "iplant/home/demo"), { recursive: true });
  for (const name of [LONG_ASCII, LONG_UTF8, ...ODD_NAMES]) {
    await Deno.writeTextFile(join(folder, name), `name,bytes\n${csvField(name)},1\n`);
  }
  await Deno.writeTextFile(join(folder, LONG_FOLDER, LONG_ASCII), "inside a long folder\n");
  await Deno.writeTextFile(join(folder, "back\\slash.txt"), "never served\n");
  const made = await new Deno.Command("sh", {
    args: ["-c", NON_UTF8.map((name) => `touch "$(printf '${name}')"`).join(" && ")],
    cwd: folder,
  }).output();
  assert.ok(made.success, "could not create the non-UTF-8 names");
  await Deno.mkdir(join(parent, "outside"));
  await Deno.writeTextFile(join(parent, "outside/secret.txt"), SECRET);
  await Deno.symlink(join(parent, "outside/secret.txt"), join(folder, "escape.txt"));
  await Deno.symlink(join(parent, "outside"), join(folder, "escape-dir"));
  await Deno.symlink(folder, join(folder, "loop"));
  return root;
}

/** Sends one raw HTTP/1.1 GET with `target` exactly as given; returns status and body text. */
async function rawGet(
  port: number,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  using connection = await Deno.connect({ hostname: "127.0.0.1", port });
  const lines = [
    `GET ${target} HTTP/1.1`,
    `host: 127.0.0.1:${port}`,
    "connection: close",
    ...Object.entries(headers).map(([key, value]) => `${key}: ${value}`),
  ];
  await connection.write(new TextEncoder().encode(`${lines.join("\r\n")}\r\n\r\n`));
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const count = await connection.read(buffer);
    if (count === null) break;
    chunks.push(buffer.slice(0, count));
  }
  const text = new TextDecoder().decode(
    chunks.reduce((all, chunk) => new Uint8Array([...all, ...chunk]), new Uint8Array(0)),
  );
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  return { status, text };
}

/** Data-store paths that try to leave the store. */
const ESCAPES = [
  "/iplant/home/shared/../../../../etc/passwd",
  "/iplant/home/shared/names/../../../../../outside/secret.txt",
  "/iplant/home/shared/names/%2e%2e/%2e%2e/%2e%2e/%2e%2e/outside/secret.txt",
  "/iplant/home/shared/names/%252e%252e%252f%252e%252e%252foutside%252fsecret.txt",
  "/iplant/home/shared/names/%c0%ae%c0%ae/%c0%ae%c0%ae/outside/secret.txt",
  "/iplant/home/shared/names/..\\..\\..\\..\\outside\\secret.txt",
  "/iplant/home/shared/names/escape.txt\u0000.csv",
  "/iplant/home/shared/names/escape.txt",
  "/iplant/home/shared/names/escape-dir/secret.txt",
  "/iplant/home/shared/names/\u2025/\u2025/outside/secret.txt",
  "/etc/passwd",
  "//etc/passwd",
  "/iplant/../../etc/passwd",
];

/** Request targets sent raw, where dot segments and encodings reach the server unchanged. */
const RAW_TARGETS = [
  "/dav-anon/iplant/home/shared/names/../../../../../outside/secret.txt",
  "/dav-anon/iplant/home/shared/names/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/outside/secret.txt",
  "/dav-anon/iplant/home/shared/names/%252e%252e/%252e%252e/outside/secret.txt",
  "/dav-anon/iplant/home/shared/names/..%2f..%2f..%2f..%2f..%2foutside%2fsecret.txt",
  "/dav-anon/iplant/home/shared/names/escape.txt",
  "/dav-anon/iplant/home/shared/names/escape-dir/secret.txt",
  "/dav-anon/iplant/home/shared/names/escape.txt%00.csv",
  "/dav-anon/../../../../etc/passwd",
  "/terrain/filesystem/..%2F..%2F..%2Fetc%2Fpasswd/metadata",
  "/terrain/secured/filesystem/entry/..%2F..%2Fetc/comments",
  "/terrain/../../../../etc/passwd",
  "/terrain/fileio/download?path=/iplant/home/shared/names/../../../../../outside/secret.txt",
  "/terrain/fileio/download?path=%2Fiplant%2Fhome%2Fshared%2Fnames%2Fescape.txt",
  "/terrain/filesystem/paged-directory?limit=10&path=/iplant/home/shared/names/escape-dir",
];

/** Terrain endpoints that take a data-store path as a query parameter. */
const PATH_ENDPOINTS = [
  "/fileio/download?path=",
  "/filesystem/display-download?attachment=0&path=",
  "/filesystem/file/manifest?path=",
  "/filesystem/paged-directory?limit=10&path=",
  "/secured/filesystem/directory?path=",
];

Deno.test("hostile paths: long, non-UTF-8 and odd names work or are hidden, and no escape attempt reads outside the store", async (t) => {
  const parent = await Deno.makeTempDir({ prefix: "tern-reliability-paths-" });
  const root = await hostileStore(parent);
  const folder = join(root, "iplant/home/shared/names");
  const leaks = (text: string) =>
    text.includes(SECRET) || text.includes(parent) || /root:x:0:0:/.test(text);
  const outcomes: string[] = [];
  const statuses: string[] = [];
  let attempts = 0;
  let bytesVerified = 0;
  let listed: Entry[] = [];
  try {
    await using server = await startServer({ root, port: 0, quiet: true });
    const port = Number(new URL(server.url).port);
    const step = (name: string, body: (store: Store, signal: AbortSignal) => Promise<void>) =>
      t.step(name, () =>
        withDeadline(DEADLINE_MS, name, (signal) =>
          body(
            connect({ url: server.url, anonymous: true, cacheDir: join(parent, "cache"), signal }),
            signal,
          )));

    await step(
      "the listing holds every servable name and hides the others",
      async (store, signal) => {
        // Names that are not UTF-8, hold a backslash, or are symlinks out of the store are left
        // out, never garbled.
        listed = await store.folder(FOLDER).list({ signal }).toArray();
        const expected = [LONG_ASCII, LONG_UTF8, LONG_FOLDER, "loop", ...ODD_NAMES];
        assert.deepEqual(
          sortByName(listed.map((entry) => ({ name: entry.name }))).map((entry) => entry.name),
          sortByName(expected.map((name) => ({ name }))).map((entry) => entry.name),
        );
        const inLong = await store.folder(`${FOLDER}/${LONG_FOLDER}`).list({ signal }).toArray();
        assert.deepEqual(inLong.map((entry) => entry.name), [LONG_ASCII]);
      },
    );

    await step("every listed file downloads byte-exact and parses", async (store, signal) => {
      for (const entry of listed.filter((entry) => entry.type === "file")) {
        const disk = await sha256File(join(folder, entry.name));
        const bytes = await store.file(entry).bytes({ signal });
        assert.equal(sha256(bytes), disk, `bytes of ${JSON.stringify(entry.name)}`);
        const frame = await store.file(entry).dataframe({ signal, format: "csv" });
        assert.equal(frame.getColumn("name").get(0), entry.name);
        bytesVerified += bytes.byteLength;
      }
    });

    await step(
      "every listed file saves under its own name with downloadTo",
      async (store, signal) => {
        const saveDir = join(parent, "saved");
        const unsaved: string[] = [];
        for (const entry of listed.filter((entry) => entry.type === "file")) {
          try {
            const saved = await store.file(entry).downloadTo(`${saveDir}/`, { signal });
            assert.equal(saved.path, join(saveDir, entry.name));
            assert.equal(await sha256File(saved.path), await sha256File(join(folder, entry.name)));
            outcomes.push("saved");
          } catch (error) {
            const name = `${JSON.stringify(entry.name.slice(0, 12))}… (${entry.name.length} chars)`;
            unsaved.push(`${name}: ${error instanceof Error ? error.name : ""} ${error}`);
          }
        }
        assert.deepEqual(unsaved, [], "downloadTo(folder/) failed for valid names");
      },
    );

    await step("names that are not UTF-8 cannot be asked for", async (store, signal) => {
      // Their lossy decoding names nothing; a backslash is refused like a separator.
      for (const name of ["bad-\uFFFD\uFFFD.csv", "latin1-caf\uFFFD.txt", "back\\slash.txt"]) {
        const error = await store.file(`${FOLDER}/${name}`).bytes({ signal }).catch((e) => e);
        assert.ok(error instanceof TernError, `${JSON.stringify(name)}: ${error}`);
        outcomes.push(error.name);
      }
    });

    await step("a walk through a symlink back into its own folder ends", async (store, signal) => {
      const walked = await store.folder(FOLDER).walk({ signal }).toArray().then(
        (entries) => `${entries.length}-entries`,
        (error: unknown) => {
          assert.ok(error instanceof TernError, `the walk ended with ${error}`);
          return error.name;
        },
      );
      outcomes.push(`walk:${walked}`);
    });

    await step("escapes through the public API are typed errors", async (store, signal) => {
      for (const path of ESCAPES) {
        for (const read of ["bytes", "list", "manifest"] as const) {
          attempts++;
          const what = `${read} ${JSON.stringify(path)}`;
          // Handles check their path when made, so even that is inside the promise.
          const outcome = await (async () => {
            if (read === "bytes") {
              return new TextDecoder().decode(await store.file(path).bytes({ signal }));
            }
            if (read === "list") {
              return JSON.stringify(await store.folder(path).list({ signal }).toArray());
            }
            return JSON.stringify(await store.file(path).manifest({ signal }));
          })().catch((error: unknown) => error);
          if (typeof outcome === "string") {
            assert.ok(!leaks(outcome), `${what} leaked: ${outcome}`);
            outcomes.push("answered");
            continue;
          }
          assert.ok(outcome instanceof TernError, `${what}: ${outcome}`);
          for (const text of errorSurfaces(outcome)) {
            assert.ok(!leaks(text), `${what}: the error leaks ${text}`);
          }
          outcomes.push(outcome.name);
        }
      }
    });

    // Straight at the server, with and without credentials: an error status, and no secret,
    // no location on disk, no stack trace in the answer.
    const check = (what: string, status: number, text: string) => {
      attempts++;
      assert.ok(status >= 400 && status < 600, `${what} answered ${status}: ${text}`);
      assert.ok(!leaks(text), `${what} leaked: ${text}`);
      assert.doesNotMatch(text, /\n\s+at .*\.ts:\d+/, `${what} shows a stack trace`);
      statuses.push(String(status));
    };

    await step("escapes in query parameters get error answers", async (_store, signal) => {
      const control = await fetch(
        `${server.url}/fileio/download?path=${encodeURIComponent(`${FOLDER}/${ODD_NAMES[6]}`)}`,
        { signal },
      );
      assert.equal(control.status, 200, "a plain download works on this channel");
      await control.body?.cancel();
      for (const path of ESCAPES) {
        for (const endpoint of PATH_ENDPOINTS) {
          for (const signedIn of [false, true]) {
            const headers: Record<string, string> = signedIn
              ? { authorization: `Bearer ${TOKEN}` }
              : {};
            const prefix = signedIn && !endpoint.startsWith("/secured") ? "/secured" : "";
            const url = `${server.url}${prefix}${endpoint}${encodeURIComponent(path)}`;
            const response = await fetch(url, { headers, signal });
            check(`${prefix}${endpoint}${path}`, response.status, await response.text());
          }
        }
      }
    });

    await step("escapes in raw request lines get error answers", async () => {
      // The same channel reaches a real file, so the refusals below are the server's doing.
      const control = await rawGet(port, `/dav-anon${FOLDER}/${encodeURIComponent(ODD_NAMES[6])}`);
      assert.equal(control.status, 200, control.text);
      assert.ok(control.text.endsWith(`${csvField(ODD_NAMES[6])},1\n`), control.text);
      const signedIn: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
      for (const target of RAW_TARGETS) {
        for (const headers of [{}, signedIn]) {
          const { status, text } = await rawGet(port, target, headers);
          check(`raw ${target}`, status, text);
        }
      }
    });

    await step("the server still serves afterwards", async (store, signal) => {
      const health = await fetch(`${server.url}/`, { signal });
      assert.equal(health.status, 200);
      await health.body?.cancel();
      const bytes = await store.file(`${FOLDER}/${ODD_NAMES[0]}`).bytes({ signal });
      assert.equal(sha256(bytes), await sha256File(join(folder, ODD_NAMES[0])));
    });

    report("hostile paths", {
      namesListed: listed.length,
      namesHidden: NON_UTF8.length + 3,
      bytesVerified,
      escapeAttempts: attempts,
      escapeStatuses: tally(statuses),
      apiOutcomes: tally(outcomes),
      secretLeaks: 0,
      requests: server.stats().requests,
    });
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
