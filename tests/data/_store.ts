/**
 * A temporary store of generated data files, served by the embedded server on 127.0.0.1:0,
 * with a temporary cache folder; and the sample store, served the same way.
 *
 * @module
 */

import { connect, type ConnectOptions, Store } from "../../mod.ts";
import { Transport } from "../../lib/client/transport.ts";
import { type ServerOptions, startServer, type TerrainServer } from "../../server.ts";
import { ensureSampleStore } from "../../lib/sample/mod.ts";

/** Where generated files live in the store. */
export const DATA = "/iplant/home/shared/data";

/** A served store with its own cache folder. */
export interface DataStore extends AsyncDisposable {
  /** Base URL of the server. */
  url: string;
  /** The store folder on disk. */
  root: string;
  /** A cache folder for this store's tests. */
  cacheDir: string;
  /** The running server (its `stats()` count bytes sent). */
  server: TerrainServer;
  /** An anonymous store using `cacheDir` unless the options say otherwise; closed by `close`. */
  connect(options?: ConnectOptions): Store;
  /** Like `connect`, but retrying after 1-5 ms instead of 250 ms and more, for failure tests. */
  impatient(retries: number): Store;
  /** Writes (or replaces) a file in the store, creating folders. */
  write(path: string, content: string | Uint8Array): Promise<void>;
  /** Closes the stores it made, stops the server and removes the folders (not the sample store's). */
  close(): Promise<void>;
}

/**
 * Serves `files` (data-store path → content) from a new temporary store, or the sample store
 * when `files` is `"sample"`.
 */
export async function dataStore(
  files: Record<string, string | Uint8Array> | "sample",
  options: Omit<ServerOptions, "root" | "port" | "quiet"> = {},
): Promise<DataStore> {
  const owned = files !== "sample";
  const root = owned
    ? await Deno.makeTempDir({ prefix: "tern-data-store-" })
    : await ensureSampleStore();
  const cacheDir = await Deno.makeTempDir({ prefix: "tern-data-cache-" });
  const write = async (path: string, content: string | Uint8Array) => {
    const local = `${root}${path}`;
    await Deno.mkdir(local.slice(0, local.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(local, content);
    else await Deno.writeFile(local, content);
  };
  if (owned) {
    await Deno.mkdir(`${root}${DATA}`, { recursive: true });
    for (const [path, content] of Object.entries(files)) await write(path, content);
  }
  const server = await startServer({ ...options, root, port: 0, quiet: true });
  const stores: Store[] = [];
  const opened = (store: Store) => (stores.push(store), store);
  const close = async () => {
    for (const store of stores) await store.close();
    await server.close();
    await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
    if (owned) await Deno.remove(root, { recursive: true });
  };
  return {
    url: server.url,
    root,
    cacheDir,
    server,
    connect: (more = {}) =>
      opened(connect({ url: server.url, anonymous: true, cacheDir, ...more })),
    impatient: (retries) => {
      const transport = new Transport({ url: server.url, retries, retryBaseMs: 1, retryMaxMs: 5 });
      return opened(
        new Store(transport, {
          url: transport.url,
          auth: "anonymous",
          credentialsFrom: "none",
          ...transport.policy,
          cacheDir,
        }),
      );
    },
    write,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * A deterministic CSV of `rows` rows: an integer id, a float, a short label, a quoted note that
 * holds commas, doubled quotes and (every 7th row) a line break, and a date.
 */
export function generatedCsv(rows: number, sep = ","): string {
  const lines = [["id", "value", "label", "note", "day"].join(sep)];
  for (let i = 0; i < rows; i++) {
    const note = i % 7 === 0 ? `"line one\nline ""two"" ${i}"` : `"plain, ${i}"`;
    const day = `2024-${String((i % 12) + 1).padStart(2, "0")}-${
      String((i % 28) + 1).padStart(2, "0")
    }`;
    lines.push([i, (i * 0.25).toFixed(2), `L${i % 13}`, note, day].join(sep));
  }
  return lines.join("\n") + "\n";
}

/** JSON Lines of `rows` records with the columns of {@linkcode generatedCsv} (no note). */
export function generatedNdjson(rows: number): string {
  let text = "";
  for (let i = 0; i < rows; i++) {
    text += JSON.stringify({ id: i, value: i * 0.25, label: `L${i % 13}` }) + "\n";
  }
  return text;
}

/** gzip of a string. */
export async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
