/**
 * Faults: the embedded server over the sample store answers 20% of requests with an injected
 * 500/503 and cuts 20% of download bodies short, after a few ms of latency. 500 downloads and
 * 200 full listings through the public API must each come back byte-exact (SHA-256 against the
 * files on disk; listings against the folders on disk) or fail with a typed `TernError` after
 * bounded retries; afterwards neither the cache folders nor the `downloadTo` folders may hold
 * anything partial.
 *
 * @module
 */

import assert from "node:assert/strict";
import { basename, join } from "node:path";
import type { DataFrame } from "../../lib/deps.ts";
import { connect, type Entry, type Store, TernError } from "../../mod.ts";
import { DiskCache } from "../../lib/cache/mod.ts";
import { startServer } from "../../server.ts";
import {
  COMMUNITY_PATH,
  ensureSampleStore,
  MANY_FILES_COUNT,
  MANY_FILES_PATH,
  MANY_FILES_SUBFOLDERS,
  partName,
} from "../../lib/sample/mod.ts";
import {
  type DiskItem,
  diskListing,
  filesBelow,
  ms,
  onDisk,
  patientServer,
  percentile,
  report,
  sha256,
  sha256File,
  sortByName,
  tally,
  withDeadline,
} from "./_fixtures.ts";

const FAIL_RATE = 0.2;
const DROP_RATE = 0.2;
const LATENCY_MS = 3;
const SEED = 20240715;
/** Clients working at the same time, each with its own cache folder. */
const SESSIONS = 25;
const DOWNLOADS_PER_SESSION = 20;
const LISTINGS_PER_SESSION = 8;
/** Larger files are left out of the mix to keep the suite fast (the largest is 13 MB). */
const MAX_FILE_BYTES = 2_000_000;
/** Parts of the 20,000-file folder added to the mix: small CSV files in a huge folder. */
const PARTS = 60;
/** Rows `head()` asks for. */
const HEAD_ROWS = 7;
/** Every Nth listing is of the 20,003-entry folder, in pages of `LARGE_PAGE`. */
const LARGE_EVERY = 50;
const LARGE_PAGE = 4000;
/** Listing pages a `Listing` may have in flight, hence aborted when one page gives up. */
const PAGES_IN_FLIGHT = 4;
/**
 * Catches a hang only, minutes above what the test takes beside the rest of the suite on a busy
 * machine; also the clients' wait for headers and the server's timeouts
 * ({@linkcode patientServer}), so that a starved machine slows answers down without adding
 * timeouts to the faults the server injects (whose counts the test checks).
 */
const DEADLINE_MS = 600_000;
/** What a fault may end in: retries exhausted, a body cut, bytes that never matched. */
const FAULT_ERRORS = new Set(["ServerError", "NetworkError", "IntegrityError"]);
const TABULAR = /\.(csv|tsv|parquet|arrow|ndjson|csv\.gz)$/;

type Kind = "bytes" | "downloadTo" | "dataframe" | "head" | "list";

interface Outcome {
  session: number;
  kind: Kind;
  what: string;
  ok: boolean;
  /** The error's class name, for failures. */
  error?: string;
  /** For successful `downloadTo`: the file written. */
  target?: string;
  /** Bytes checked by SHA-256 (downloads) or entries checked (listings). */
  count: number;
  ms: number;
}

/** Files under `folder` on disk up to the size cap (the 20,000-file folder left out). */
async function storeFiles(root: string, folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const item of await diskListing(onDisk(root, folder))) {
    const path = `${folder}/${item.name}`;
    if (path === MANY_FILES_PATH) continue;
    if (item.type === "folder") found.push(...await storeFiles(root, path));
    else if (item.size <= MAX_FILE_BYTES) found.push(path);
  }
  return found;
}

/** Folders under `folder` on disk, `folder` included (the 20,000-file folder left out). */
async function storeFolders(root: string, folder: string): Promise<string[]> {
  const found = [folder];
  for (const item of await diskListing(onDisk(root, folder))) {
    const path = `${folder}/${item.name}`;
    if (item.type === "folder" && path !== MANY_FILES_PATH) {
      found.push(...await storeFolders(root, path));
    }
  }
  return found;
}

function asItems(entries: Entry[]): DiskItem[] {
  return sortByName(entries.map((entry) => ({
    name: entry.name,
    type: entry.type,
    size: entry.type === "file" ? entry.size : 0,
  })));
}

/** Download kinds in a cycle of ten: 4 bytes(), 3 downloadTo(), 2 dataframe(), 1 head(). */
function kindOf(k: number): Kind {
  const slot = k % 10;
  return slot < 4 ? "bytes" : slot < 7 ? "downloadTo" : slot < 9 ? "dataframe" : "head";
}

Deno.test("faults: 500 downloads and 200 listings under 20% failed requests and 20% cut bodies are exact or typed errors, leaving nothing partial", async () => {
  const root = await ensureSampleStore();
  const work = await Deno.makeTempDir({ prefix: "tern-reliability-faults-" });
  await using server = await startServer({
    root,
    port: 0,
    quiet: true,
    failRate: FAIL_RATE,
    dropRate: DROP_RATE,
    latencyMs: LATENCY_MS,
    seed: SEED,
    ...patientServer(DEADLINE_MS),
  });
  await using clean = await startServer({ root, port: 0, quiet: true });
  try {
    await withDeadline(DEADLINE_MS, "the faults test", async (signal) => {
      const files = [
        ...await storeFiles(root, COMMUNITY_PATH),
        ...Array.from({ length: PARTS }, (_, i) => `${MANY_FILES_PATH}/${partName(1 + i * 331)}`),
      ];
      const tables = files.filter((path) => TABULAR.test(path));
      const folders = await storeFolders(root, COMMUNITY_PATH);
      const digests = new Map<string, string>();
      for (const path of files) digests.set(path, await sha256File(onDisk(root, path)));
      const truth = new Map<string, DiskItem[]>();
      for (const path of [...folders, MANY_FILES_PATH]) {
        truth.set(path, await diskListing(onDisk(root, path)));
      }
      assert.equal(
        truth.get(MANY_FILES_PATH)!.length,
        MANY_FILES_COUNT + MANY_FILES_SUBFOLDERS.length,
      );
      // Each table as the fault-free server gives it: every read under faults must equal it.
      const reference = connect({ url: clean.url, anonymous: true, cacheDir: false, signal });
      const frames = new Map<string, DataFrame>();
      for (const path of tables) {
        frames.set(path, await reference.file(path).dataframe({ signal }));
      }

      const timed = async (
        session: number,
        kind: Kind,
        what: string,
        body: () => Promise<{ count: number; target?: string }>,
      ): Promise<Outcome> => {
        const started = performance.now();
        try {
          const { count, target } = await body();
          return { session, kind, what, ok: true, count, target, ms: performance.now() - started };
        } catch (error) {
          // An untyped failure (an AbortError from the deadline, a TypeError) fails the test.
          if (!(error instanceof TernError)) {
            throw new Error(`${what} failed with an untyped error: ${error}`, { cause: error });
          }
          const elapsed = performance.now() - started;
          return { session, kind, what, ok: false, error: error.name, count: 0, ms: elapsed };
        }
      };

      const download = (store: Store, s: number, kind: Kind, path: string, target: string) =>
        timed(s, kind, `${kind} ${path}`, async () => {
          const file = store.file(path);
          if (kind === "bytes") {
            const bytes = await file.bytes({ signal });
            assert.equal(sha256(bytes), digests.get(path), `bytes() of ${path}`);
            return { count: bytes.byteLength };
          }
          if (kind === "downloadTo") {
            try {
              const saved = await file.downloadTo(target, { signal });
              assert.equal(saved.path, target);
              assert.equal(await sha256File(target), digests.get(path), `downloadTo ${path}`);
              return { count: saved.size, target };
            } catch (error) {
              await assert.rejects(Deno.stat(target), Deno.errors.NotFound, `${target} exists`);
              throw error;
            }
          }
          if (kind === "head") {
            const head = await file.head(HEAD_ROWS, { signal });
            assert.ok(head.frameEqual(frames.get(path)!.head(HEAD_ROWS), true), `head ${path}`);
            return { count: 0 };
          }
          const frame = await file.dataframe({ signal });
          assert.ok(frame.frameEqual(frames.get(path)!, true), `dataframe() of ${path}`);
          return { count: 0 };
        });

      const list = (store: Store, s: number, path: string, pageSize: number) =>
        timed(s, "list", `list ${path} in pages of ${pageSize}`, async () => {
          const entries = await store.folder(path).list({ pageSize, signal }).toArray();
          assert.deepEqual(asItems(entries), truth.get(path), `listing of ${path}`);
          for (const entry of entries) assert.equal(entry.path, `${path}/${entry.name}`);
          return { count: entries.length };
        });

      const stores: Store[] = [];
      // Requests the client abandoned in flight (a download sent beside a stat that is dropped,
      // the pages ahead of a listing that gave up): a fault injected into one is never retried.
      let abandoned = 0;
      const counting: typeof fetch = async (input, init) => {
        try {
          return await fetch(input, init);
        } catch (error) {
          if (init?.signal?.aborted || (input instanceof Request && input.signal.aborted)) {
            abandoned++;
          }
          throw error;
        }
      };
      const session = async (s: number) => {
        const cacheDir = join(work, `cache-${s}`);
        const outDir = join(work, `out-${s}`);
        // Short retry waits: the faults are injected at random, not load to back off from.
        const store = connect({
          url: server.url,
          anonymous: true,
          cacheDir,
          signal,
          retryBaseMs: 25,
          timeoutMs: DEADLINE_MS,
          fetch: counting,
        });
        stores.push(store);
        const ops: (() => Promise<Outcome>)[] = [];
        let table = 0;
        for (let j = 0; j < DOWNLOADS_PER_SESSION; j++) {
          const k = s * DOWNLOADS_PER_SESSION + j;
          const kind = kindOf(k);
          // A session reads each table once, so every table read goes to the network.
          const path = kind === "dataframe" || kind === "head"
            ? tables[(s * 7 + table++) % tables.length]
            : files[(k * 7) % files.length];
          const target = join(outDir, `${j}-${basename(path)}`);
          ops.push(() => download(store, s, kind, path, target));
        }
        for (let l = 0; l < LISTINGS_PER_SESSION; l++) {
          const k = s * LISTINGS_PER_SESSION + l;
          const large = k % LARGE_EVERY === LARGE_EVERY - 1;
          const path = large ? MANY_FILES_PATH : folders[k % folders.length];
          const pageSize = large ? LARGE_PAGE : 1 + (k % 7);
          ops.splice(l * 3 + 1, 0, () => list(store, s, path, pageSize));
        }
        const outcomes: Outcome[] = [];
        for (const op of ops) outcomes.push(await op());
        return { store, cacheDir, outDir, outcomes };
      };

      const started = performance.now();
      const sessions = await Promise.all(Array.from({ length: SESSIONS }, (_, s) => session(s)));
      const elapsed = performance.now() - started;
      const outcomes = sessions.flatMap((s) => s.outcomes);

      // Nothing partial: a cache folder holds its index and complete, exact copies only; a
      // download folder holds exactly the files whose downloads succeeded.
      let cacheCopies = 0;
      let cacheBytes = 0;
      for (const { store, cacheDir, outDir, outcomes: done } of sessions) {
        // A copy kept in the index (up to 1 KiB) is written to a file from its checked bytes.
        const cache = new DiskCache({ dir: cacheDir });
        const entries = await cache.entries();
        assert.equal(entries.length, (await store.cache.info()).height);
        const copies: string[] = [];
        for (const { version } of entries) {
          const copy = await cache.fileOf((await cache.lookup(version))!);
          assert.equal((await Deno.stat(copy)).size, version.size, `size of ${copy}`);
          assert.equal(await sha256File(copy), digests.get(version.path), `copy ${version.path}`);
          cacheBytes += version.size;
          copies.push(copy);
        }
        cacheCopies += copies.length;
        const kept = copies.length === 0 ? [] : ["index.jsonl", ...copies.map((c) => basename(c))];
        assert.deepEqual(
          (await filesBelow(cacheDir)).sort(),
          kept.map((name) => `downloads/${name}`).sort(),
          `only the index and complete copies in ${cacheDir}`,
        );
        const saved = done.filter((o) => o.target !== undefined).map((o) => basename(o.target!));
        assert.deepEqual(
          (await filesBelow(outDir)).sort(),
          saved.sort(),
          `only saved files in ${outDir}`,
        );
      }

      const downloads = outcomes.filter((o) => o.kind !== "list");
      const listings = outcomes.filter((o) => o.kind === "list");
      assert.equal(downloads.length, SESSIONS * DOWNLOADS_PER_SESSION);
      assert.equal(listings.length, SESSIONS * LISTINGS_PER_SESSION);
      const failures = outcomes.filter((o) => !o.ok);
      for (const failure of failures) {
        assert.ok(FAULT_ERRORS.has(failure.error!), `${failure.what}: ${failure.error}`);
      }

      const stats = server.stats();
      const clientRequests = stores.reduce((sum, store) => sum + store.stats.requests, 0);
      const retries = stores.reduce((sum, store) => sum + store.stats.retries, 0);
      const gaveUp = failures.filter((o) => o.error === "ServerError").length;
      // Faults were really injected and bodies really cut.
      assert.ok(stats.faultsInjected > 200, `only ${stats.faultsInjected} faults injected`);
      assert.ok(stats.bodiesDropped > 50, `only ${stats.bodiesDropped} bodies cut`);
      // Every request reached the server, and every injected fault was retried unless it was
      // the last of the 5 attempts of a request that then failed: retries are caused and
      // bounded. Only a listing that gave up aborts the pages it had in flight.
      const slack = PAGES_IN_FLIGHT * listings.filter((o) => !o.ok).length;
      assert.ok(Math.abs(clientRequests - stats.requests) <= slack, "requests lost");
      assert.ok(
        Math.abs(stats.faultsInjected - gaveUp - retries) <= slack + abandoned,
        `${stats.faultsInjected} faults, ${gaveUp} requests gave up, ${abandoned} abandoned, ` +
          `but ${retries} retries`,
      );
      // Reads that resume cut bodies (dataframe, head) and listings nearly always succeed;
      // bytes() and downloadTo() fail when their one body is cut, and only then.
      const resuming = outcomes.filter((o) => o.kind !== "bytes" && o.kind !== "downloadTo");
      const resumed = resuming.filter((o) => o.ok).length;
      assert.ok(resumed >= resuming.length * 0.98, `${resumed}/${resuming.length} succeeded`);
      const plain = downloads.filter((o) => o.kind === "bytes" || o.kind === "downloadTo");
      const plainCut = plain.filter((o) => o.error === "NetworkError").length;
      assert.ok(
        plainCut <= stats.bodiesDropped,
        `${plainCut} failures, ${stats.bodiesDropped} cuts`,
      );
      assert.ok(plain.filter((o) => o.ok).length >= plain.length * 0.6, "too few plain downloads");

      const durations = outcomes.map((o) => o.ms);
      const okOf = (kind: Kind) => {
        const all = outcomes.filter((o) => o.kind === kind);
        return `${all.filter((o) => o.ok).length}/${all.length}`;
      };
      report("faults", {
        requests: stats.requests,
        faultsInjected: stats.faultsInjected,
        bodiesCut: stats.bodiesDropped,
        retries,
        downloadsOk: `${downloads.filter((o) => o.ok).length}/${downloads.length}`,
        bytes: okOf("bytes"),
        downloadTo: okOf("downloadTo"),
        dataframe: okOf("dataframe"),
        head: okOf("head"),
        listingsOk: okOf("list"),
        entriesVerified: listings.reduce((sum, o) => sum + o.count, 0),
        typedFailures: tally(failures.map((o) => o.error!)),
        bytesVerified: downloads.reduce((sum, o) => sum + o.count, 0) + cacheBytes,
        cacheCopiesVerified: cacheCopies,
        p50: ms(percentile(durations, 50)),
        p99: ms(percentile(durations, 99)),
        slowest: ms(Math.max(...durations)),
        elapsed: ms(elapsed),
      });
    });
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
