/**
 * An embedded server that speaks the read API of CyVerse's Terrain gateway over a local folder,
 * serving it exactly as the real service serves the data store: listings, downloads,
 * metadata, comments, saved searches and tokens, with Terrain's status codes, error bodies and
 * quirks. Optional traffic shaping (latency, bandwidth, injected failures, cut downloads)
 * makes client retry logic testable.
 *
 * @example Serve a folder and list the community data anonymously
 * ```ts
 * import { startServer } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * {
 *   await using server = await startServer({ root, quiet: true });
 *   const response = await fetch(
 *     `${server.url}/filesystem/paged-directory?path=/iplant/home/shared&limit=100`,
 *   );
 *   const listing = await response.json();
 *   assert.equal(listing.label, "Community Data");
 *   assert.equal(listing.total, null); // an empty page: Terrain sends no count (a quirk kept)
 * }
 * await Deno.remove(root, { recursive: true });
 * ```
 *
 * @module
 */

import { type HttpServer, serveHttp } from "./http.ts";
import { resolveOptions, type ServerOptions, ServerOptionsError } from "./options.ts";
import { Prng } from "./prng.ts";
import { createRouter } from "./router.ts";
import { Searcher } from "./search/searcher.ts";
import { type ServerStats, Shaper } from "./shaping.ts";
import { DiskStore } from "./disk_store.ts";
import { StoreFileError } from "./store_file.ts";
import { storeIdOf } from "./store_id.ts";
import { UserDirectory } from "./users.ts";

export { type ServerOptions, ServerOptionsError } from "./options.ts";
export type { ServerStats } from "./shaping.ts";

/**
 * A running server.
 *
 * @example
 * ```ts
 * import { startServer, type TerrainServer } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const server: TerrainServer = await startServer({ root, quiet: true });
 * assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
 * assert.equal(server.stats().requests, 0);
 * // Shown in a notebook or printed: one line, not the object's functions.
 * assert.equal(Deno.inspect(server), `TerrainServer ${server.url} (store id ${server.storeId})`);
 * server.unref(); // the process may now end while it serves
 * assert.equal(await (await fetch(`${server.url}/`)).text(), "The infinite is attainable with Terrain!\n");
 * await server.close();
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export interface TerrainServer extends AsyncDisposable {
  /** Base URL of the Terrain API, e.g. `http://127.0.0.1:PORT/terrain`. */
  readonly url: string;
  /**
   * The data-store path the root folder is served as when it is a plain folder
   * (`/iplant/home/shared` unless the `mount` option said); `undefined` for a store's folder.
   */
  readonly mount: string | undefined;
  /**
   * The store's id (kept in `ROOT/.terrain/store-id`, made once), which the health answer
   * carries so that a lock recognises the store at another address; `undefined` for a plain
   * folder, known by its URL alone.
   */
  readonly storeId: string | undefined;
  /** A snapshot of the request and traffic counters. */
  stats(): ServerStats;
  /** Stops listening, cuts bodies still being sent, and waits for the server to finish. */
  close(): Promise<void>;
  /**
   * Lets the process end while the server runs, as `Deno.serve`'s `unref()`: its listener,
   * connections and timers no longer keep the event loop alive, so a script whose last line has
   * run exits (a notebook's kernel keeps running, and the server with it). A request from the
   * same process still gets its answer, since the client waits for it.
   */
  unref(): void;
  /** Undoes {@linkcode TerrainServer.unref}: the server keeps the process alive (the default). */
  ref(): void;
  /** `TerrainServer <url> (store id <id>)`, or `(a plain folder as <mount>)`. */
  toString(): string;
}

function urlHost(hostname: string): string {
  if (hostname === "0.0.0.0") return "127.0.0.1";
  if (hostname === "::") return "[::1]";
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}

/**
 * Where a plain folder is served (see `ServerOptions.root`), or `undefined` for a store's
 * folder: one holding `<zone>/`, or nothing but `.terrain/` (accounts, before any data), or
 * nothing at all (the store's folders are then created in it).
 */
async function plainMount(root: string, zone: string, mount: string | undefined) {
  const names = new Set<string>();
  for await (const entry of Deno.readDir(root)) names.add(entry.name);
  const store = names.has(zone) || [...names].every((name) => name === ".terrain");
  if (mount === undefined && store) return undefined;
  if (names.has(".terrain")) {
    // Served as plain data, the accounts in it would be published to everyone.
    throw new ServerOptionsError(
      "root",
      `holds .terrain/ (a store's accounts) but ${
        mount === undefined ? `no ${zone}/ folder` : "is to be served as a plain folder"
      }: lay its data out as ${zone}/home/..., or move .terrain/ out of it: ${root}`,
    );
  }
  return mount ?? `/${zone}/home/shared`;
}

/**
 * Starts serving the folder `options.root`: a store's folder as the store, a plain folder as
 * `/<zone>/home/shared` (or `options.mount`).
 *
 * @throws {ServerOptionsError} for a bad option, a missing root folder, a malformed
 * `ROOT/.terrain/users.json`, or a plain folder holding `.terrain/`.
 *
 * @example
 * ```ts
 * import { startServer } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * {
 *   await using server = await startServer({ root, port: 0, quiet: true, latencyMs: 10 });
 *   const health = await fetch(`${server.url}/`);
 *   assert.equal(await health.text(), "The infinite is attainable with Terrain!\n");
 * }
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function startServer(options: ServerOptions): Promise<TerrainServer> {
  const resolved = resolveOptions(options);
  const warn = (line: string) => console.error(`[tern-server] ${line}`);
  const log = resolved.quiet ? () => {} : warn;
  const info = await Deno.stat(resolved.root).catch(() => undefined);
  if (!info) throw new ServerOptionsError("root", `names no folder: ${resolved.root}`);
  if (!info.isDirectory) throw new ServerOptionsError("root", `is not a folder: ${resolved.root}`);
  let mount: string | undefined;
  let store: DiskStore;
  let users: UserDirectory;
  try {
    mount = await plainMount(resolved.root, resolved.zone, resolved.mount);
    store = await DiskStore.open(resolved.root, resolved.zone, { mount, clock: resolved.clock });
    // A plain folder has no accounts: its files are all data, `.terrain/` included.
    users = await UserDirectory.open(mount === undefined ? store.root : undefined, {
      tokenLifetimeSeconds: resolved.tokenLifetimeSeconds,
      clock: resolved.clock,
      warn,
    });
  } catch (error) {
    if (error instanceof ServerOptionsError) throw error;
    if (error instanceof StoreFileError) throw new ServerOptionsError("root", error.message);
    throw new ServerOptionsError("root", `cannot be served: ${(error as Error).message}`);
  }
  // A plain folder is the user's own: nothing is written into it, so it is known by its URL.
  const storeId = mount === undefined ? await storeIdOf(store.root, warn) : undefined;
  const shaper = new Shaper(resolved);
  let origin = "";
  const handler = createRouter({
    store,
    search: resolved.search ? new Searcher(store) : undefined,
    users,
    shaper,
    prng: new Prng(resolved.seed, 2),
    origin: () => origin,
    log,
    ...(storeId === undefined ? {} : { storeId }),
  });
  let server: HttpServer;
  try {
    server = serveHttp(
      { hostname: resolved.hostname, port: resolved.port, limits: resolved.limits, log: warn },
      handler,
    );
  } catch (error) {
    await shaper.close();
    throw new Error(
      `cannot listen on ${resolved.hostname}:${resolved.port}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  origin = `http://${urlHost(server.addr.hostname)}:${server.addr.port}`;
  let closing: Promise<void> | undefined;
  // Shaped bodies end with the shaper; the connection layer then cuts whole-file bodies.
  const close = () => {
    closing ??= shaper.close().then(() => server.close());
    return closing;
  };
  const url = `${origin}/terrain`;
  const served = mount === undefined
    ? `store id ${storeId ?? "none"}`
    : `a plain folder as ${mount}`;
  // One line where a notebook or console would otherwise dump the object and its functions.
  const described = () => `TerrainServer ${url} (${served})`;
  return {
    url,
    mount,
    storeId,
    stats: () => shaper.stats(),
    close,
    unref: () => server.unref(),
    ref: () => server.ref(),
    [Symbol.asyncDispose]: close,
    toString: described,
    [Symbol.for("Deno.customInspect")]: described,
  };
}
