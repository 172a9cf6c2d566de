/**
 * What every test store has in common, whichever folder's tests use it: files written under a
 * temporary root with their parent folders, and the embedded server started quietly over that
 * root on 127.0.0.1:0, stopped before the root is removed. Each folder's `_store.ts` adds its
 * own users, paths and contents.
 *
 * @module
 */

import { type ServerOptions, startServer, type TerrainServer } from "../server.ts";

/**
 * A file tree: data-store-relative path → content (string or bytes), `null` for a folder.
 *
 * @example
 * ```ts
 * import type { Tree } from "./_store.ts";
 * const tree: Tree = { "iplant/home/shared/a.csv": "x\n1\n", "iplant/home/shared/empty": null };
 * ```
 */
export type Tree = Record<string, string | Uint8Array | null>;

/**
 * Writes a file, creating its folders.
 *
 * @example
 * ```ts
 * import { writeFile } from "./_store.ts";
 * const root = await Deno.makeTempDir();
 * await writeFile(`${root}/iplant/home/shared/a.txt`, "hi");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function writeFile(path: string, content: string | Uint8Array): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  if (typeof content === "string") await Deno.writeTextFile(path, content);
  else await Deno.writeFile(path, content);
}

/**
 * Writes `tree` under `root`, creating parent folders.
 *
 * @example
 * ```ts
 * import { writeTree } from "./_store.ts";
 * const root = await Deno.makeTempDir();
 * await writeTree(root, { "iplant/home/shared/a.txt": "hi" });
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, content] of Object.entries(tree)) {
    if (content === null) await Deno.mkdir(`${root}/${path}`, { recursive: true });
    else await writeFile(`${root}/${path}`, content);
  }
}

/**
 * The embedded server over a store folder; `close` stops it, then cleans the folder up.
 *
 * @example
 * ```ts
 * import type { ServedRoot } from "./_store.ts";
 * const describe = (served: ServedRoot) => `${served.url} over ${served.root}`;
 * ```
 */
export interface ServedRoot extends AsyncDisposable {
  /** Base URL, e.g. `http://127.0.0.1:PORT/terrain`. */
  url: string;
  /** The store folder on disk. */
  root: string;
  /** The running server (for `stats()`). */
  server: TerrainServer;
  /** Stops the server, then runs the cleanup it was given. */
  close(): Promise<void>;
}

/**
 * Starts a quiet server over `root` on 127.0.0.1:0 (unless `options` say otherwise). `cleanup`
 * runs when the server fails to start, and on close after the server has stopped.
 *
 * @example
 * ```ts
 * import { serveRoot, writeTree } from "./_store.ts";
 * const root = await Deno.makeTempDir();
 * await writeTree(root, { "iplant/home/shared/a.txt": "hi" });
 * await using served = await serveRoot(root, {}, () => Deno.remove(root, { recursive: true }));
 * ```
 */
export async function serveRoot(
  root: string,
  options: Omit<ServerOptions, "root">,
  cleanup: () => PromiseLike<void>,
): Promise<ServedRoot> {
  let server: TerrainServer;
  try {
    server = await startServer({ quiet: true, port: 0, ...options, root });
  } catch (error) {
    await cleanup();
    throw error;
  }
  const close = async () => {
    await server.close();
    await cleanup();
  };
  return { url: server.url, root, server, close, [Symbol.asyncDispose]: close };
}

/**
 * The demo user of the test stores: owns /iplant/home/demo and has a long-lived static token
 * (its "Secret" lets leak checks find it anywhere it must not be).
 *
 * @example
 * ```ts
 * import { DEMO } from "./_store.ts";
 *
 * console.log(DEMO.username); // demo
 * ```
 */
export const DEMO = {
  username: "demo",
  password: "pw-demo-Secret!",
  token: "static.demo.token-Secret",
} as const;

/**
 * A second user of the test stores, whose home demo cannot read.
 *
 * @example
 * ```ts
 * import { ALICE } from "./_store.ts";
 *
 * console.log(ALICE.username); // alice
 * ```
 */
export const ALICE = { username: "alice", password: "pw-alice-Secret!" } as const;

/**
 * `size` deterministic pseudo-random bytes (a linear congruential generator from `seed`), so
 * downloads can be compared byte for byte.
 *
 * @example
 * ```ts
 * import { pseudoRandomBytes } from "./_store.ts";
 *
 * console.log(pseudoRandomBytes(4, 1).length); // 4
 * ```
 */
export function pseudoRandomBytes(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = seed;
  for (let index = 0; index < bytes.length; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

/**
 * The `users.json` of the test stores: the demo user with a static token, and a second user
 * whose home demo cannot read.
 *
 * @example
 * ```ts
 * import { usersFile } from "./_store.ts";
 *
 * const text = usersFile({ username: "demo", password: "pw", token: "a.b.c" },
 *   { username: "alice", password: "pw2" }, 300);
 * console.log(JSON.parse(text).users.length); // 2
 * ```
 */
export function usersFile(
  demo: { username: string; password: string; token: string },
  alice: { username: string; password: string },
  tokenLifetimeSeconds: number,
): string {
  return JSON.stringify(
    {
      tokenLifetimeSeconds,
      users: [
        {
          username: demo.username,
          password: demo.password,
          email: "demo@example.org",
          firstName: "Demo",
          lastName: "User",
          tokens: [demo.token],
        },
        {
          username: alice.username,
          password: alice.password,
          email: "alice@example.org",
          firstName: "Alice",
          lastName: "Liddell",
          tokens: [],
        },
      ],
    },
    null,
    2,
  );
}
