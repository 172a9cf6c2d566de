/**
 * A store to run examples against: the sample store, served by the embedded server on a free
 * loopback port, connected as its demo user, with a cache folder of its own. Disposing of it
 * stops the server and removes the cache, so an example leaves nothing behind.
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
import { startServer } from "../server/mod.ts";
import { ensureSampleStore } from "./build.ts";
import { DEMO_USER } from "./constants.ts";

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
 * Builds the sample store (once, in the default sample-store folder), serves it on
 * 127.0.0.1 and returns a store connected to it as the demo user (or anonymously with
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
  const root = await ensureSampleStore();
  const server = await startServer({ root, port: 0, hostname: "127.0.0.1", quiet: true });
  const cacheDir = await Deno.makeTempDir({ prefix: "tern-example-cache-" });
  const close = async () => {
    await server.close();
    await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
  };
  try {
    const store = connect({
      progress: false,
      ...options,
      url: server.url,
      cacheDir,
      ...(options.anonymous ? {} : { token: DEMO_USER.token }),
    });
    return Object.assign(store, { [Symbol.asyncDispose]: close });
  } catch (error) {
    await close();
    throw error;
  }
}
