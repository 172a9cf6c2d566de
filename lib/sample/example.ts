/**
 * A store to run examples against: the sample store, served by the embedded server on a free
 * loopback port, connected as its demo user, with a cache folder of its own. Disposing of it
 * closes the store, stops the server and removes the cache, so an example leaves nothing behind.
 *
 * @example
 * ```ts
 * import { exampleStore } from "./example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const root = await store.folder("/iplant/home/shared/tern_samples").list().toArray();
 * assert.deepEqual(root.map((entry) => entry.name), ["formats", "many_files", "README.txt"]);
 * ```
 *
 * @module
 */

import { connect, type ConnectOptions } from "../handles/connect.ts";
import type { Store } from "../handles/store.ts";
import { type ServerOptions, startServer, type TerrainServer } from "../server/mod.ts";
import { ensureSampleStore, SampleStoreError } from "./build.ts";
import { DEMO_USER } from "./constants.ts";

/**
 * Where {@linkcode serveSampleStore} keeps the sample store, and what it passes on to the
 * embedded server (its `root` is the sample store's folder, `dir`).
 *
 * @example
 * ```ts
 * import type { ServeSampleStoreOptions } from "./example.ts";
 *
 * const options: ServeSampleStoreOptions = { dir: "/scratch/tern-sample-store", latencyMs: 20 };
 * ```
 */
export interface ServeSampleStoreOptions extends Omit<Partial<ServerOptions>, "root"> {
  /**
   * The sample store's folder: built there when it holds no up-to-date sample store (a folder
   * holding anything else is refused), reused otherwise.
   * @default {the `TERN_SAMPLE_STORE` environment variable, else `$XDG_CACHE_HOME/tern/sample-store`, else `~/.cache/tern/sample-store`}
   */
  dir?: string;
}

/**
 * Builds the sample store when `dir` holds no up-to-date one (by default the one named by
 * `TERN_SAMPLE_STORE`, else the one in the user's cache folder, shared by every process of the
 * user) and serves it with the embedded server, by default on a free 127.0.0.1 port and without a request log. Sign in as
 * {@linkcode DEMO_USER}.
 *
 * The server does not keep the process alive (see `TerrainServer.unref`): a script ends after
 * its last line, and a notebook's kernel keeps it serving. `await using` (or `close()`) stops it
 * sooner; `server.ref()` keeps a script serving until it is closed.
 *
 * @throws {SampleStoreError} when `dir` is not a folder name, or holds something else than a
 * sample store.
 *
 * @example Serve it and connect as the demo user
 * ```ts
 * import { serveSampleStore } from "./example.ts";
 * import { DEMO_USER } from "./constants.ts";
 * import { connect } from "../handles/connect.ts";
 * import assert from "node:assert/strict";
 *
 * await using server = await serveSampleStore();
 * const store = connect({ url: server.url, token: DEMO_USER.token, progress: false });
 * const formats = await store.folder("/iplant/home/shared/tern_samples/formats").list().count();
 * assert.ok(formats > 0);
 * ```
 *
 * @example A folder that is no sample store is refused, and left as it was
 * ```ts
 * import { serveSampleStore } from "./example.ts";
 * import { SampleStoreError } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/thesis.tex`, "mine");
 * await assert.rejects(serveSampleStore({ dir }), SampleStoreError);
 * assert.equal(await Deno.readTextFile(`${dir}/thesis.tex`), "mine");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function serveSampleStore(
  options: ServeSampleStoreOptions = {},
): Promise<TerrainServer> {
  const { dir, ...serverOptions } = options;
  if (dir !== undefined && (typeof dir !== "string" || dir.trim() === "")) {
    throw new SampleStoreError(
      `serveSampleStore's "dir" must name a folder (got ${JSON.stringify(dir)}).`,
    );
  }
  const root = await ensureSampleStore(dir);
  const server = await startServer({ ...serverOptions, root });
  server.unref();
  return server;
}

/**
 * What {@linkcode exampleStore} may pass on to `connect()`; the URL and credentials are its own.
 *
 * @example
 * ```ts
 * import type { ExampleStoreOptions } from "./example.ts";
 *
 * const options: ExampleStoreOptions = { concurrency: 2, anonymous: true };
 * ```
 */
export type ExampleStoreOptions = Omit<
  ConnectOptions,
  "url" | "token" | "username" | "password" | "cacheDir"
>;

/**
 * The environment variable naming an already running sample-store server (its Terrain URL) for
 * {@linkcode exampleStore} to connect to instead of starting its own: `deno task test` serves
 * the sample store once and sets it for every documentation example.
 *
 * @example
 * ```ts
 * import { EXAMPLE_SERVER_ENV } from "./example.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(EXAMPLE_SERVER_ENV, "TERN_EXAMPLE_SERVER");
 * ```
 */
export const EXAMPLE_SERVER_ENV = "TERN_EXAMPLE_SERVER";

/** The shared server's URL when one is set and may be read. */
function sharedServerUrl(): string | undefined {
  const permission = Deno.permissions.querySync({ name: "env", variable: EXAMPLE_SERVER_ENV });
  if (permission.state !== "granted") return undefined;
  return Deno.env.get(EXAMPLE_SERVER_ENV) || undefined;
}

/**
 * Builds the sample store (once, in the default sample-store folder), serves it on
 * 127.0.0.1 (or uses the server named by {@linkcode EXAMPLE_SERVER_ENV}) and returns a store connected to it as the demo user (or anonymously with
 * `anonymous: true`). Progress displays are off unless asked for.
 *
 * @example
 * ```ts
 * import { exampleStore } from "./example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const penguins = await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").head(3);
 * assert.equal(penguins.height, 3);
 * ```
 */
export async function exampleStore(
  options: ExampleStoreOptions = {},
): Promise<Store & AsyncDisposable> {
  // The test run serves the sample store once for every example (they only read it); an example
  // run on its own serves it itself.
  const shared = sharedServerUrl();
  const server = shared === undefined ? await serveSampleStore() : undefined;
  const cacheDir = await Deno.makeTempDir({ prefix: "tern-example-cache-" });
  let store: Store | undefined;
  const close = async () => {
    await store?.close();
    await server?.close();
    await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
  };
  try {
    store = connect({
      progress: false,
      ...options,
      url: server?.url ?? shared!,
      cacheDir,
      ...(options.anonymous ? {} : { token: DEMO_USER.token }),
    });
    return Object.assign(store, { [Symbol.asyncDispose]: close });
  } catch (error) {
    await close();
    throw error;
  }
}
