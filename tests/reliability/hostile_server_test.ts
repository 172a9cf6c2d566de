/**
 * Hostile answers from a server, served by a small `Deno.serve` test double on 127.0.0.1:0 (the
 * embedded server never sends them): malformed JSON, wrong types, missing and extra fields,
 * HTML instead of JSON, absurd nesting, lying totals, entries that point outside their
 * folder, cut and stalled bodies, endless waits, error bodies that echo the credentials back,
 * and redirects to another origin. Each must end — within a deadline — in a typed `TernError`
 * with a clear message and a safe notebook view, or in correct output; never an untyped crash,
 * a hang, a write outside the target folder, or a credential in any text.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  connect,
  type ConnectOptions,
  isAbortError,
  search,
  type Store,
  TernError,
} from "../../mod.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import {
  assertNoSecret,
  errorSurfaces,
  filesBelow,
  ms,
  report,
  tally,
  withDeadline,
} from "./_fixtures.ts";
import { assertSafeHtml, viewOf } from "./_html.ts";
import { DATA, dataStore } from "../data/_store.ts";
import { frontProxy } from "../data/_proxy.ts";

const TOKEN = "hostile.server-double.T0ken_value";
const PASSWORD = "hostile-double-Passw0rd!";
const SECRETS = [TOKEN, PASSWORD, btoa(`demo:${PASSWORD}`)];
const CASE_DEADLINE_MS = 8_000;
const FOLDER = "/iplant/home/shared/hostile";
const ID = "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364";

/** Answers one request; `closing` aborts when the double shuts down, ending endless answers. */
type Handler = (request: Request, closing: AbortSignal) => Response | Promise<Response>;

interface Double extends AsyncDisposable {
  url: string;
  /** Authorization headers received, in order. */
  authorizations: (string | null)[];
}

/** Serves `handler` on 127.0.0.1 with a free port; close it with `await using`. */
function serveDouble(handler: Handler): Double {
  const authorizations: (string | null)[] = [];
  const closing = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    authorizations.push(request.headers.get("authorization"));
    return handler(request, closing.signal);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/terrain`,
    authorizations,
    [Symbol.asyncDispose]: () => {
      closing.abort();
      return server.shutdown();
    },
  };
}

function item(path: string, type: "file" | "folder", extra: Record<string, unknown> = {}) {
  return {
    id: crypto.randomUUID(),
    path,
    label: path.slice(path.lastIndexOf("/") + 1),
    infoType: type === "file" ? "csv" : null,
    isFavorite: false,
    badName: false,
    permission: "read",
    "date-created": 1_700_000_000_000,
    "date-modified": 1_700_000_000_000,
    "file-size": type === "file" ? 3 : 0,
    ...extra,
  };
}

function page(path: string, folders: unknown[], files: unknown[], total?: number | null) {
  return {
    ...item(path, "folder"),
    hasSubDirs: true,
    total: total === undefined ? folders.length + files.length : total,
    totalBad: 0,
    folders,
    files,
  };
}

const json = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });

/** A streamed body that sends `text` and ends, whatever its headers promised. */
function cutShort(text: string, headers: Record<string, string>): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
  return new Response(body, { headers });
}

/** A body that sends `text` and then nothing more, until the client or the double leaves. */
function stalling(text: string, headers: Record<string, string>, closing: AbortSignal): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      closing.addEventListener("abort", () => controller.close());
    },
  });
  return new Response(body, { headers });
}

interface Case {
  name: string;
  handler: Handler;
  /** Runs the public API against the double; its result is passed to `expect`. */
  run: (store: Store, signal: AbortSignal, double: Double, work: string) => Promise<unknown>;
  /** The typed error's class name (or the names allowed), or a check of a success. */
  expect: string | string[] | ((result: unknown, double: Double) => void | Promise<void>);
  /** Text the error message must contain (a clear message says what and where). */
  mentions?: string;
  /** How the store connects (default: anonymous). */
  connect?: ConnectOptions;
  /** A shorter deadline, for cases that a correct client finishes in milliseconds. */
  deadlineMs?: number;
}

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

const CASES: Case[] = [
  {
    name: "malformed JSON in a listing",
    handler: () => json(`{"id": "x", "path": `),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ProtocolError",
    mentions: "not JSON",
  },
  {
    name: "wrong types in a listing (size as text, date as a word)",
    handler: () =>
      json(JSON.stringify(page(FOLDER, [], [
        item(`${FOLDER}/a.csv`, "file", { "file-size": "12", "date-modified": "yesterday" }),
      ]))),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ProtocolError",
    mentions: "date-modified",
  },
  {
    name: "a negative file size in a listing",
    handler: () =>
      json(
        JSON.stringify(page(FOLDER, [], [item(`${FOLDER}/a.csv`, "file", { "file-size": -5 })])),
      ),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ProtocolError",
    mentions: "file-size",
  },
  {
    name: "a file size past 2^53 bytes in a listing (no exact number)",
    handler: () =>
      json(
        JSON.stringify(page(FOLDER, [], [item(`${FOLDER}/a.csv`, "file")]))
          .replace('"file-size":3', '"file-size":36893488147419103232'),
      ),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ProtocolError",
    mentions: "file-size",
  },
  {
    name: "a date beyond any calendar in a listing (no Invalid Date)",
    handler: () =>
      json(JSON.stringify(page(FOLDER, [], [item(`${FOLDER}/a.csv`, "file", {
        "date-modified": 1e20,
      })]))),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ProtocolError",
    mentions: "date-modified",
  },
  {
    name: "a listing without its files array",
    handler: () => {
      const { files: _files, ...rest } = page(FOLDER, [], []);
      return json(JSON.stringify(rest));
    },
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ProtocolError",
    mentions: "files",
  },
  {
    name: "extra and prototype-polluting fields in a listing are ignored",
    handler: () =>
      json(
        JSON.stringify(page(FOLDER, [], [
          item(`${FOLDER}/a.csv`, "file", { extra: { nested: [1, 2] }, constructor: "x" }),
        ])).replace(/^\{/, `{"__proto__": {"polluted": "yes"}, "unknownTopLevel": [null], `),
      ),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: (result) => {
      const entries = result as { name: string; size: number }[];
      assert.deepEqual(entries.map((e) => [e.name, e.size]), [["a.csv", 3]]);
      assert.equal(({} as Record<string, unknown>).polluted, undefined, "prototype polluted");
    },
  },
  {
    name: "an HTML page with a script instead of JSON",
    handler: () =>
      new Response(`<html><script>alert("tern-xss")</script></html>`, {
        headers: { "content-type": "text/html" },
      }),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ProtocolError",
    mentions: "not JSON",
  },
  {
    name: "JSON null as a listing",
    handler: () => json("null"),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ProtocolError",
  },
  {
    name: "JSON nested 200,000 levels deep",
    handler: () => json(deep(200_000)),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ProtocolError",
  },
  {
    name: "a total that promises more entries than the pages hold",
    handler: (request) => {
      const offset = Number(new URL(request.url).searchParams.get("offset") ?? 0);
      const files = offset === 0 ? [item(`${FOLDER}/a.csv`, "file")] : [];
      return json(JSON.stringify(page(FOLDER, [], files, 1000)));
    },
    run: (store, signal) => store.folder(FOLDER).list({ signal, pageSize: 5 }).toArray(),
    expect: "ProtocolError",
  },
  {
    name: "a folder of a trillion entries whose every page is the same (a paging loop must end)",
    handler: (() => {
      const same = [item(`${FOLDER}/a.csv`, "file"), item(`${FOLDER}/b.csv`, "file")];
      return () => json(JSON.stringify(page(FOLDER, [], same, 1e12)));
    })(),
    run: (store, signal) => store.folder(FOLDER).list({ signal, pageSize: 2 }).toArray(),
    expect: "ListingChangedError",
    mentions: "held only entries already given",
    deadlineMs: 5_000,
  },
  {
    name: "more entries than the page limit",
    handler: () =>
      json(JSON.stringify(page(
        FOLDER,
        [],
        Array.from({ length: 9 }, (_, i) => item(`${FOLDER}/f${i}.csv`, "file")),
      ))),
    run: (store, signal) => store.folder(FOLDER).list({ signal, pageSize: 3 }).toArray(),
    expect: "ProtocolError",
  },
  {
    name: "a folder that lists itself as its own sub-folder (a walk must end)",
    handler: (request) => {
      const path = new URL(request.url).searchParams.get("path")!;
      return json(JSON.stringify(page(path, [item(FOLDER, "folder")], [])));
    },
    run: (store, signal) =>
      store.folder(FOLDER).walk({ signal }).toArray().catch((error: unknown) => {
        if (error instanceof TernError) return error;
        throw error;
      }),
    // Entries, or a typed error saying the folder is inconsistent: either way, it ends.
    expect: (result) => assert.ok(Array.isArray(result) || result instanceof TernError),
    deadlineMs: 3_000,
  },
  {
    name: "a search scroll that sends the same page for ever (a paging loop must end)",
    handler: async (request) => {
      const body = await request.json();
      const hit = (n: number) => {
        const path = `${FOLDER}/hit-${n}.csv`;
        const source = {
          doc_type: "file",
          id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
          path,
          label: `hit-${n}.csv`,
          creator: "curator#iplant",
          fileType: "csv",
          dateCreated: 0,
          dateModified: 0,
          fileSize: 3,
          metadata: { irods: [], cyverse: null },
        };
        return { _id: source.id, _source: source, fields: { permission: ["read"] } };
      };
      // 10,000 hits and more: the first page, then a scroll whose every page is hits 2 and 3.
      const hits = body.scroll_id === undefined && body.scroll === undefined
        ? [hit(0), hit(1)]
        : [hit(2), hit(3)];
      return json(JSON.stringify({
        total: { value: 10_000, relation: "gte" },
        max_score: null,
        hits,
        scroll_id: "same",
      }));
    },
    run: (store, signal) => store.search(search.under(FOLDER), { pageSize: 2, signal }).toArray(),
    expect: "ProtocolError",
    mentions: "twice",
    deadlineMs: 5_000,
  },
  {
    name: 'an entry named ".." saved with downloadTo stays inside the target folder',
    handler: (request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith("/fileio/download")) {
        return new Response("abc", { headers: { "content-type": "application/octet-stream" } });
      }
      return json(JSON.stringify(page(FOLDER, [], [item(`${FOLDER}/..`, "file")])));
    },
    run: async (store, signal, _double, work) => {
      const [entry] = await store.folder(FOLDER).list({ signal }).toArray();
      const target = join(work, "outer", "inner", "target");
      await Deno.mkdir(target, { recursive: true });
      try {
        const saved = await store.file(entry).downloadTo(`${target}/`, { signal }).catch(
          (error: unknown) => {
            if (error instanceof TernError) return error;
            throw error;
          },
        );
        return { saved, target };
      } finally {
        // Whatever happened, nothing was written beside the target folder.
        const beside = (await filesBelow(work)).filter((name) =>
          !name.startsWith("outer/inner/target/")
        );
        assert.deepEqual(beside, [], "downloadTo wrote outside its target folder");
      }
    },
    // A typed refusal, or the file saved inside the target folder under a safe name.
    expect: (result) => {
      const { saved, target } = result as { saved: TernError | { path: string }; target: string };
      if (saved instanceof TernError) return;
      assert.ok(saved.path.startsWith(`${target}/`), `saved as ${saved.path}`);
    },
  },
  {
    name:
      "entries named with backslashes or a drive letter are refused by downloadTo on any system",
    handler: (request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith("/fileio/download")) {
        return new Response("abc", { headers: { "content-type": "application/octet-stream" } });
      }
      const names = ["..\\..\\evil.csv", "C:evil.csv", "d:\\evil.csv"];
      return json(
        JSON.stringify(page(FOLDER, [], names.map((n) => item(`${FOLDER}/${n}`, "file")))),
      );
    },
    run: async (store, signal, _double, work) => {
      const entries = await store.folder(FOLDER).list({ signal }).toArray();
      const target = join(work, "drive", "target");
      await Deno.mkdir(target, { recursive: true });
      const saved = await Promise.all(
        entries.map((entry) =>
          store.file(entry).downloadTo(`${target}/`, { signal }).then(
            (file) => file.path,
            (error: unknown) => error instanceof TernError ? error.name : Promise.reject(error),
          )
        ),
      );
      // Each a typed refusal before anything was written.
      assert.deepEqual(await filesBelow(join(work, "drive")), []);
      return saved;
    },
    expect: (result) =>
      assert.deepEqual(result, ["BadRequestError", "BadRequestError", "BadRequestError"]),
  },
  {
    name: "metadata whose avus field is not a list",
    handler: () => json(JSON.stringify({ path: FOLDER, avus: "many", "irods-avus": [] })),
    run: (store, signal) => store.folder(ID).metadata({ signal }),
    expect: "ProtocolError",
    mentions: "avus",
  },
  {
    name: "comments missing their text",
    handler: () =>
      json(JSON.stringify({
        comments: [{ id: ID, commenter: "x", post_time: 1, retracted: false }],
      })),
    run: (store, signal) => store.file(ID).comments({ signal }),
    expect: "ProtocolError",
    mentions: "comment",
    connect: { token: TOKEN },
  },
  {
    name: "roots without the roots list",
    handler: () => json(JSON.stringify({ "base-paths": {} })),
    run: (store, signal) => store.root({ signal }),
    expect: "ProtocolError",
    connect: { token: TOKEN },
  },
  {
    name: "saved searches that are not JSON",
    handler: () => json(`[{"label": "unterminated`),
    run: (store, signal) => store.savedSearches({ signal }),
    expect: "ProtocolError",
    connect: { token: TOKEN },
  },
  {
    name: "a manifest whose public URL is javascript:",
    handler: () =>
      json(JSON.stringify({
        "content-type": "text/csv",
        infoType: "csv",
        urls: [{ label: "anonymous", url: `javascript:alert("tern-xss")` }],
      })),
    run: (store, signal) => store.file(`${FOLDER}/a.csv`).manifest({ signal }),
    expect: async (result) => {
      const view = await viewOf(result);
      if (view !== undefined) assertSafeHtml(view["text/html"], "manifest view");
    },
  },
  {
    name: "a Content-Disposition naming ../ and control characters gives a bare file name",
    handler: () =>
      new Response("x", {
        headers: {
          "content-type": "image/png",
          "content-disposition":
            `inline; filename="../../.bashrc"; filename*=UTF-8''..%2F..%2Fevil%0D%0A%1B[31m.png`,
        },
      }),
    run: async (store, signal) => {
      const inline = await store.file(`${FOLDER}/a.png`).openInline({ signal });
      await inline.body.cancel();
      return inline.filename;
    },
    expect: (filename) => assert.equal(filename, "evil[31m.png"),
  },
  {
    name: "a download cut short of its Content-Length",
    handler: () => cutShort("abc", { "content-length": "10" }),
    run: (store, signal) => store.file(`${FOLDER}/a.csv`).bytes({ signal }),
    expect: "NetworkError",
    connect: { retries: 1 },
  },
  {
    name: "a chunked download that ends early, of a file listed larger",
    handler: (request) => {
      if (new URL(request.url).pathname.endsWith("/fileio/download")) return cutShort("abc", {});
      return json(JSON.stringify(page(FOLDER, [], [item(`${FOLDER}/a.csv`, "file", {
        "file-size": 10,
      })])));
    },
    run: async (store, signal) => {
      const [entry] = await store.folder(FOLDER).list({ signal }).toArray();
      return await store.file(entry).bytes({ signal });
    },
    // Before a second try the file is asked for again (a stat), which this server answers with
    // a listing: not a stat answer, or another item (a change); either way nothing is returned.
    expect: ["IntegrityError", "NetworkError", "FileChangedError", "ProtocolError"],
  },
  {
    name: "an error body that echoes the credentials back",
    handler: (request) =>
      json(
        JSON.stringify({
          error_code: "ERR_NOT_READABLE",
          path: `${FOLDER}/a.csv`,
          reason: `header was ${request.headers.get("authorization")}`,
          user: request.headers.get("authorization"),
        }),
        500,
      ),
    run: (store, signal) => store.file(`${FOLDER}/a.csv`).bytes({ signal }),
    expect: "PermissionError",
    connect: { token: TOKEN },
  },
  {
    name: "a password sign-in answered with credentials echoed in a 401",
    handler: (request) =>
      json(
        JSON.stringify({
          error: "invalid_grant",
          error_description: `bad ${request.headers.get("authorization")} for ${PASSWORD}`,
        }),
        401,
      ),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "AuthError",
    connect: { username: "demo", password: PASSWORD },
  },
  {
    name: "a 401 whose body is an HTML page with a script",
    handler: () =>
      new Response(`<html><body><script>alert("tern-xss")</script></body></html>`, {
        status: 401,
        headers: { "content-type": "text/html", "www-authenticate": "Custom" },
      }),
    run: (store, signal) => store.root({ signal }),
    expect: "AuthError",
    connect: { token: TOKEN },
  },
  {
    name: "a 5 MB error body",
    handler: () =>
      json(JSON.stringify({ error_code: "ERR_DOES_NOT_EXIST", path: "x".repeat(5_000_000) }), 500),
    run: (store, signal) => store.file(`${FOLDER}/a.csv`).bytes({ signal }),
    // Only the first 64 KB of an error body are read, so its code is lost: a plain 500.
    expect: "ServerError",
  },
  {
    name: "a server that never answers (headers time out)",
    handler: (_request, closing) =>
      new Promise<Response>((resolve) => {
        closing.addEventListener("abort", () => resolve(new Response(null, { status: 503 })));
      }),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "NetworkError",
    mentions: "within",
    connect: { timeoutMs: 300, retries: 1 },
  },
  {
    name: "a download that stalls after its first bytes is ended by the caller's signal",
    handler: (_request, closing) => stalling("abc", { "content-length": "100" }, closing),
    run: (store, signal) =>
      store.file(`${FOLDER}/a.csv`).bytes({
        signal: AbortSignal.any([signal, AbortSignal.timeout(400)]),
      }),
    expect: "AbortError",
  },
  {
    name: "a 429 asking to wait an hour",
    handler: () => json(`{}`, 429, { "retry-after": "3600" }),
    run: (store, signal) => store.folder(FOLDER).list({ signal }).toArray(),
    expect: "ServerError",
  },
  {
    // The double is the other origin; a second double redirects to it.
    name: "a redirect to another origin does not carry the token there",
    handler: () => json(JSON.stringify(page(FOLDER, [], []))),
    run: async (_store, signal, double) => {
      await using redirector = serveDouble((request) => {
        const url = new URL(request.url);
        const location = `${double.url}${url.pathname.slice("/terrain".length)}${url.search}`;
        return new Response(null, { status: 307, headers: { location } });
      });
      const store = connect({ url: redirector.url, token: TOKEN, cacheDir: false, signal });
      return await store.folder(FOLDER).list({ signal }).toArray().catch((error) => error);
    },
    expect: (_result, double) => {
      assert.ok(double.authorizations.length > 0, "the redirect was not followed");
      for (const header of double.authorizations) {
        assert.ok(header === null || !header.includes(TOKEN), "the token crossed origins");
      }
    },
  },
];

/** Runs one case against its own double; returns how it ended (`ok` or the error's name). */
async function runCase(test: Case, work: string): Promise<string> {
  await using double = serveDouble(test.handler);
  return await withDeadline(test.deadlineMs ?? CASE_DEADLINE_MS, test.name, async (signal) => {
    const signedIn = test.connect?.token !== undefined || test.connect?.username !== undefined;
    const store = connect({
      url: double.url,
      anonymous: !signedIn,
      cacheDir: false,
      signal,
      // A double answers the same way every time: every attempt is still made, but waiting
      // between them (a user's choice too) only costs time.
      retryBaseMs: 1,
      ...test.connect,
    });
    const result = await test.run(store, signal, double, work).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (typeof test.expect === "function") {
      if (!result.ok) throw result.error;
      await test.expect(result.value, double);
      return "ok";
    }
    if (result.ok) {
      assert.fail(`expected ${test.expect}, but it gave ${Deno.inspect(result.value)}`);
    }
    const error = result.error;
    if (test.expect === "AbortError") {
      assert.ok(isAbortError(error), `expected an AbortError, got ${error}`);
      return "AbortError";
    }
    assert.ok(error instanceof TernError, `an untyped error: ${Deno.inspect(error)}`);
    const allowed = Array.isArray(test.expect) ? test.expect : [test.expect];
    assert.ok(allowed.includes(error.name), `${error.name}: ${error.message}`);
    if (test.mentions !== undefined) assert.match(error.message, new RegExp(test.mentions));
    // A clear message: bounded, with no stack trace in it.
    assert.ok(error.message.length > 10 && error.message.length < 2_000, error.message);
    assert.doesNotMatch(error.message, /\n\s+at /);
    const view = error[JUPYTER_DISPLAY]();
    assertSafeHtml(view["text/html"], `${test.name}: error view`);
    assertNoSecret(
      [...errorSurfaces(error), view["text/plain"], view["text/html"]],
      SECRETS,
      test.name,
    );
    return error.name;
  });
}

Deno.test("hostile server (test double): malformed, mistyped, incomplete, oversized, lying and stalling answers give typed errors or correct output, never hangs or leaks", async (t) => {
  const outcomes: string[] = [];
  const times: number[] = [];
  const work = await Deno.makeTempDir({ prefix: "tern-reliability-double-" });
  try {
    for (const test of CASES) {
      await t.step(test.name, async () => {
        const started = performance.now();
        try {
          outcomes.push(await runCase(test, work));
        } finally {
          times.push(performance.now() - started);
        }
      });
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
  report("hostile server", {
    cases: CASES.length,
    passed: outcomes.length,
    outcomes: tally(outcomes),
    slowestCase: ms(Math.max(...times)),
    allCases: ms(times.reduce((sum, time) => sum + time, 0)),
    credentialLeaks: 0,
  });
});

Deno.test("hostile server (front proxy): metadata whose AVUs nest 3,000 deep is a ProtocolError, not a stack overflow", async () => {
  await using data = await dataStore({
    [`${DATA}/d/a.csv`]: "a\n1\n",
    [`${DATA}/d/.avus.json`]: JSON.stringify([{ attr: "title", value: "T", unit: "" }]),
  });
  await using proxy = frontProxy(data.url, {
    async instead(request) {
      if (!new URL(request.url).pathname.endsWith("/metadata")) return undefined;
      const upstream = new URL(request.url).pathname.replace(/^.*?\/terrain/, data.url);
      const answer = await (await fetch(upstream, { headers: request.headers })).json();
      // A real AVU, holding one that holds one … 3,000 deep (written as text: a value that deep
      // is past what JSON.stringify itself can walk).
      const { avus: _, ...avu } = answer.avus[0];
      const open = JSON.stringify({ ...avu, avus: "" }).replace(/""\}$/, "[");
      const avus = `${open.repeat(3_000)}${JSON.stringify({ ...avu, avus: [] })}${
        "]}".repeat(3_000)
      }`;
      return json(JSON.stringify({ ...answer, avus: "" }).replace(/"avus":""/, `"avus":[${avus}]`));
    },
  });
  const store = connect({ url: proxy.url, anonymous: true, cacheDir: false });
  try {
    for (
      const read of [
        () => store.folder(`${DATA}/d`).metadata(),
        () => store.dataset(`${DATA}/d`).metadata(),
      ]
    ) {
      await assert.rejects(read, (error: Error) => {
        assert.ok(error instanceof TernError && error.name === "ProtocolError", String(error));
        assert.match(error.message, /nested too deeply/);
        return true;
      });
    }
  } finally {
    await store.close();
  }
});
