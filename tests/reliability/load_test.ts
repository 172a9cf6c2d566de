/**
 * Load: 200 clients — separate `connect()` stores, each with its own HTTP connection pool,
 * half of them signing in with a password first — list folders and download files from one
 * embedded server at the same time. Zero errors, zero retries, every listing equal to the disk
 * and every download byte-exact; p50 and p99 latency are printed, not bounded: how long the
 * answers take depends on what else the machine runs, and the point is that every client gets
 * them, right and without a retry.
 *
 * @module
 */

import assert from "node:assert/strict";
import { connect, type Store } from "../../mod.ts";
import { startServer } from "../../server.ts";
import {
  CURATED_PATH,
  DEMO_USER,
  ensureSampleStore,
  FORMATS_PATH,
  MANY_FILES_PATH,
} from "../../lib/sample/mod.ts";
import {
  type DiskItem,
  diskListing,
  ms,
  onDisk,
  patientServer,
  percentile,
  report,
  sha256,
  sha256File,
  sortByName,
  withDeadline,
} from "./_fixtures.ts";

const CLIENTS = 200;
/** Listings per client, one after the other. */
const LISTINGS = 2;
/** Downloads per client, all at once (the store's own limiter queues them). */
const DOWNLOADS = 6;
/** Every Nth client also lists the 20,003-entry folder in full. */
const LARGE_EVERY = 25;
/** Files larger than this stay out of the mix (a load test, not a bandwidth test). */
const MAX_FILE_BYTES = 400_000;
/**
 * Catches a hang only, minutes above what the test takes beside the rest of the suite on a busy
 * machine; also the clients' wait for headers and the server's timeouts
 * ({@linkcode patientServer}), so that a starved machine slows answers down without turning them
 * into retries.
 */
const DEADLINE_MS = 600_000;

interface Timing {
  op: "list" | "download";
  ms: number;
}

Deno.test("load: 200 concurrent clients listing and downloading from one server get zero errors and exact data", async () => {
  const root = await ensureSampleStore();
  await using server = await startServer({
    root,
    port: 0,
    quiet: true,
    ...patientServer(DEADLINE_MS),
  });
  const clients: Deno.HttpClient[] = [];
  try {
    await withDeadline(DEADLINE_MS, "the load test", async (signal) => {
      const datasets = (await diskListing(onDisk(root, CURATED_PATH)))
        .filter((item) => item.type === "folder")
        .map((item) => `${CURATED_PATH}/${item.name}`);
      const folders = [FORMATS_PATH, ...datasets];
      const truth = new Map<string, DiskItem[]>();
      const files: string[] = [];
      const digests = new Map<string, string>();
      truth.set(MANY_FILES_PATH, await diskListing(onDisk(root, MANY_FILES_PATH)));
      for (const folder of folders) {
        const items = await diskListing(onDisk(root, folder));
        truth.set(folder, items);
        for (const item of items) {
          if (item.type !== "file" || item.size > MAX_FILE_BYTES) continue;
          const path = `${folder}/${item.name}`;
          files.push(path);
          digests.set(path, await sha256File(onDisk(root, path)));
        }
      }

      const stores: Store[] = [];
      const timings: Timing[] = [];
      const errors: string[] = [];
      let bytes = 0;
      let entries = 0;
      const timed = async <T>(op: Timing["op"], body: () => Promise<T>): Promise<T> => {
        const started = performance.now();
        const result = await body();
        timings.push({ op, ms: performance.now() - started });
        return result;
      };

      const listing = async (store: Store, folder: string) => {
        const listed = await timed("list", () => store.folder(folder).list({ signal }).toArray());
        const items = sortByName(listed.map((entry) => ({
          name: entry.name,
          type: entry.type,
          size: entry.type === "file" ? entry.size : 0,
        })));
        assert.deepEqual(items, truth.get(folder), `listing of ${folder}`);
        entries += listed.length;
      };
      const download = async (store: Store, path: string) => {
        const body = await timed("download", () => store.file(path).bytes({ signal }));
        assert.equal(sha256(body), digests.get(path), `download of ${path}`);
        bytes += body.byteLength;
      };

      const client = async (c: number) => {
        // Its own connection pool, so 200 clients really are 200 sets of connections.
        const http = Deno.createHttpClient({});
        clients.push(http);
        // Every other client signs in, so token exchanges happen under the same load.
        const credentials = c % 2 === 1
          ? { username: DEMO_USER.username, password: DEMO_USER.password }
          : { anonymous: true };
        const store = connect({
          url: server.url,
          ...credentials,
          cacheDir: false,
          signal,
          timeoutMs: DEADLINE_MS,
          fetch: (input, init) => fetch(input, { ...init, client: http }),
        });
        stores.push(store);
        try {
          for (let l = 0; l < LISTINGS; l++) {
            await listing(store, folders[(c * LISTINGS + l) % folders.length]);
          }
          if (c % LARGE_EVERY === 0) await listing(store, MANY_FILES_PATH);
          await Promise.all(
            Array.from(
              { length: DOWNLOADS },
              (_, d) => download(store, files[(c * DOWNLOADS + d) % files.length]),
            ),
          );
        } catch (error) {
          errors.push(`client ${c}: ${error instanceof Error ? error.message : error}`);
        }
      };

      const started = performance.now();
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
      const elapsed = performance.now() - started;

      assert.deepEqual(errors, [], `${errors.length} clients failed`);
      const retries = stores.reduce((sum, store) => sum + store.stats.retries, 0);
      const requests = stores.reduce((sum, store) => sum + store.stats.requests, 0);
      const peak = Math.max(...stores.map((store) => store.stats.peakInFlight));
      const exchanges = stores.reduce((sum, store) => sum + store.stats.tokenExchanges, 0);
      assert.equal(exchanges, CLIENTS / 2, "one token exchange per signed-in client");
      assert.equal(retries, 0, "requests had to be retried under load");
      assert.equal(server.stats().requests, requests, "every request reached the server once");
      assert.equal(
        timings.length,
        CLIENTS * (LISTINGS + DOWNLOADS) + Math.ceil(CLIENTS / LARGE_EVERY),
      );
      const all = timings.map((t) => t.ms);
      const of = (op: Timing["op"]) => timings.filter((t) => t.op === op).map((t) => t.ms);
      report("load", {
        clients: CLIENTS,
        requests,
        errors: errors.length,
        retries,
        tokenExchanges: exchanges,
        entriesVerified: entries,
        bytesVerified: bytes,
        p50: ms(percentile(all, 50)),
        p99: ms(percentile(all, 99)),
        listP50: ms(percentile(of("list"), 50)),
        listP99: ms(percentile(of("list"), 99)),
        downloadP50: ms(percentile(of("download"), 50)),
        downloadP99: ms(percentile(of("download"), 99)),
        peakInFlightPerClient: peak,
        elapsed: ms(elapsed),
        throughput: `${(requests / (elapsed / 1000)).toFixed(0)} req/s`,
      });
    });
  } finally {
    for (const http of clients) http.close();
  }
});
