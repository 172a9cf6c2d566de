/**
 * Test fixtures for the server: small temporary stores on disk, a running server over them,
 * and assertions for the exact JSON shapes Terrain answers with.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ServerOptions } from "../../lib/server/options.ts";
import { type ServedRoot, serveRoot, type Tree, writeTree } from "../_store.ts";

export { type Tree, writeTree };

/**
 * Accounts of the standard store.
 *
 * @example
 * ```ts
 * import { DEMO } from "./_store.ts";
 * console.log(DEMO.username);
 * ```
 */
export const DEMO = { username: "demo", password: "demo-pw", token: "static.demo.token-1" };

/**
 * A second account whose home `demo` cannot read.
 *
 * @example
 * ```ts
 * import { ALICE } from "./_store.ts";
 * console.log(ALICE.username);
 * ```
 */
export const ALICE = { username: "alice", password: "alice-pw", token: "static.alice.token-2" };

/** A fixed date for files whose dates tests compare (2021-06-01T00:00:00Z). */
export const FIXED_MTIME = new Date(Date.UTC(2021, 5, 1));

/**
 * The standard store: two users, a community project with typed files, sidecars, a private
 * home, saved searches.
 *
 * @example
 * ```ts
 * import { standardTree } from "./_store.ts";
 * console.log(Object.keys(standardTree()).length);
 * ```
 */
export function standardTree(): Tree {
  const users = {
    secret: "test-secret",
    tokenLifetimeSeconds: 300,
    users: [
      {
        username: DEMO.username,
        password: DEMO.password,
        email: "demo@example.org",
        firstName: "Demo",
        lastName: "User",
        tokens: [DEMO.token],
      },
      { username: ALICE.username, password: ALICE.password, tokens: [ALICE.token] },
    ],
  };
  const project = "iplant/home/shared/project";
  return {
    ".terrain/users.json": JSON.stringify(users),
    ".terrain/saved-searches/demo.json": '[ {"label": "fastq", "fileQuery": "*.fastq"} ]\n',
    [`${project}/a.csv`]: "x,y\n1,2\n3,4\n",
    [`${project}/b.tsv`]: "x\ty\n1\t2\n",
    [`${project}/c.fastq`]: "@r1\nACGT\n+\nIIII\n",
    [`${project}/README`]: "Read me first.\n",
    [`${project}/image.png`]: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
    [`${project}/space name.txt`]: "spaces\n",
    [`${project}/café.csv`]: "k\n1\n",
    [`${project}/.hidden`]: "an ordinary dotfile\n",
    [`${project}/sub1`]: null,
    [`${project}/sub2/inner.txt`]: "inner\n",
    [`${project}/.avus.json`]: JSON.stringify([
      { attr: "title", value: "Project", unit: "" },
      {
        attr: "creator",
        value: "Ada Lovelace",
        unit: "",
        avus: [{ attr: "affiliation", value: "Analytical Engines", unit: "" }],
      },
      { attr: "subject", value: "maths", unit: "", created_by: "editor", created_on: 1000 },
    ]),
    [`${project}/.a.csv.avus.json`]: JSON.stringify({
      avus: [{ attr: "description", value: "A small table", unit: "" }],
      "irods-avus": [
        { attr: "ipc_UUID", value: "ignored", unit: "" },
        { attr: "source", value: "lab", unit: "ipc-reserved-unit" },
      ],
    }),
    [`${project}/.README.avus.json`]: JSON.stringify({
      "irods-avus": [{ attr: "ipc-filetype", value: "fasta", unit: "" }],
    }),
    [`${project}/.a.csv.comments.json`]: JSON.stringify([
      {
        id: "b04f5e2d-2b3c-11ee-8f44-0242ac120002",
        comment: "Later, retracted.",
        commenter: "alice",
        post_time: 2000,
        retracted: true,
      },
      {
        id: "9e1d7c1a-2b3c-11ee-8f44-0242ac120002",
        comment: "First!",
        commenter: "demo",
        post_time: 1000,
        retracted: false,
      },
    ]),
    [`${project}/.comments.json`]: "[]",
    "iplant/home/demo/notes.txt": "demo's notes\n",
    "iplant/home/demo/data": null,
    "iplant/home/alice/private.csv": "secret\n1\n",
    "iplant/home/shared/other": null,
  };
}

/**
 * A temporary store removed on disposal.
 *
 * @example
 * ```ts
 * import { makeStore } from "./_store.ts";
 * await using store = await makeStore({ "iplant/home/shared/a.txt": "hi" });
 * console.log(store.root);
 * ```
 */
export interface TempStore extends AsyncDisposable {
  root: string;
}

/**
 * Creates a temporary store holding `tree` (the standard one by default). `dir` picks the
 * parent folder (tests that create many files use a memory-backed one when available).
 *
 * @example
 * ```ts
 * import { makeStore } from "./_store.ts";
 * await using store = await makeStore();
 * ```
 */
export async function makeStore(tree: Tree = standardTree(), dir?: string): Promise<TempStore> {
  const root = await Deno.makeTempDir({ prefix: "tern-server-test-", dir });
  await writeTree(root, tree);
  return {
    root,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/**
 * A store and a server over it, both cleaned up on disposal.
 *
 * @example
 * ```ts
 * import { serveStore } from "./_store.ts";
 * await using fixture = await serveStore();
 * console.log(fixture.server.url);
 * ```
 */
export type Fixture = ServedRoot;

/**
 * Starts a quiet server over a fresh store.
 *
 * @example
 * ```ts
 * import { serveStore } from "./_store.ts";
 * await using fixture = await serveStore(undefined, { failRate: 0 });
 * ```
 */
export async function serveStore(
  tree: Tree = standardTree(),
  options: Omit<ServerOptions, "root"> = {},
): Promise<Fixture> {
  const store = await makeStore(tree);
  return await serveRoot(store.root, options, () => store[Symbol.asyncDispose]());
}

/**
 * Headers carrying a Bearer token.
 *
 * @example
 * ```ts
 * import { bearer, DEMO } from "./_store.ts";
 * const headers = bearer(DEMO.token);
 * ```
 */
export function bearer(token: string): HeadersInit {
  return { authorization: `Bearer ${token}` };
}

/**
 * A GET whose body is read completely: status, headers, text and (when it parses) JSON.
 *
 * @example
 * ```ts
 * import { get, serveStore } from "./_store.ts";
 * await using fixture = await serveStore();
 * const { status } = await get(`${fixture.url}/`);
 * ```
 */
export async function get(
  url: string,
  headers: HeadersInit = {},
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * Expected JSON type of a field: a `typeof` name, `"null"`, `"array"`, `"integer"`, or a
 * union such as `"integer|null"`.
 *
 * @example
 * ```ts
 * import type { FieldType } from "./_store.ts";
 * const type: FieldType = "integer|null";
 * ```
 */
export type FieldType = string;

function typeName(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") {
    return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  }
  return [typeof value];
}

/**
 * Asserts `value` is an object with exactly `shape`'s keys, in that order, each of the given
 * type.
 *
 * @example
 * ```ts
 * import { assertShape } from "./_store.ts";
 * assertShape({ a: 1, b: null }, { a: "integer", b: "string|null" });
 * ```
 */
export function assertShape(value: unknown, shape: Record<string, FieldType>, where = "value") {
  assert.equal(typeof value, "object", `${where} should be an object`);
  assert.ok(value !== null && !Array.isArray(value), `${where} should be a plain object`);
  const record = value as Record<string, unknown>;
  assert.deepEqual(Object.keys(record), Object.keys(shape), `${where} keys`);
  for (const [key, type] of Object.entries(shape)) {
    const allowed = type.split("|");
    assert.ok(
      typeName(record[key]).some((name) => allowed.includes(name)),
      `${where}.${key} should be ${type}, got ${JSON.stringify(record[key])}`,
    );
  }
}

/**
 * A fast temporary parent folder for tests that create very many files (memory-backed when the
 * machine has one), else the default.
 *
 * @example
 * ```ts
 * import { fastTempParent } from "./_store.ts";
 * console.log(fastTempParent());
 * ```
 */
export function fastTempParent(): string | undefined {
  try {
    return Deno.statSync("/dev/shm").isDirectory ? "/dev/shm" : undefined;
  } catch {
    return undefined;
  }
}

const SERVE_MAIN = new URL("../../lib/server/main.ts", import.meta.url).pathname;

/**
 * Starts the `tern serve` script (lib/server/main.ts) in a child process with `args`, run through
 * `prefix` when given (for example `["prlimit", "--nofile=128"]`), and resolves once the child has
 * printed its base URL. The rest of its stdout (decoded) and its stderr are the caller's to read
 * or cancel.
 *
 * @example
 * ```ts
 * import { makeStore, spawnServe } from "./_store.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await makeStore({});
 * const { child, url, stdout } = await spawnServe(["--root", store.root, "--port", "0", "--quiet"]);
 * assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
 * child.kill("SIGTERM");
 * await child.status;
 * await stdout.cancel();
 * await child.stderr.cancel();
 * ```
 */
export async function spawnServe(
  args: string[],
  prefix: string[] = [],
): Promise<{ child: Deno.ChildProcess; url: string; stdout: ReadableStream<string> }> {
  const command = [...prefix, Deno.execPath(), "run", "-A", SERVE_MAIN, ...args];
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream());
  const reader = stdout.getReader();
  let printed = "";
  while (!printed.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    printed += value;
  }
  reader.releaseLock();
  return { child, url: printed.trim(), stdout };
}
