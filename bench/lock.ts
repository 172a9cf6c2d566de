/**
 * The lock suite: `tern lock verify` of a 2,000-file lock (10 KB CSV files, as the data suite's
 * many-file read) by stat alone, as issue 31 asks:
 *
 * 1. requests sent per 1,000 files, against the budget of 3 (verifying sent one per file before
 *    batched stats);
 * 2. file content downloaded while verifying, against the lock's total size; target none;
 * 3. its time against `verifyLock(…, { download: true })` of the same number of files the store
 *    has no checksum for (each is downloaded and hashed): what checking bytes costs without the
 *    store's checksums; target ≥ 20× faster.
 *
 * The server runs in this process, over a store written here: one folder of files with checksums,
 * one whose files carry the `ipc-checksum` mark (not checksummed yet). Measurements start once
 * the files' checksums can be remembered (their change time two seconds old), as a store's are
 * computed once, when a file is written.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { connect, type Lock, verifyLock } from "../mod.ts";
import { statPaths } from "../lib/client/stat_many.ts";
import { STORE_CONTEXT } from "../lib/handles/store_context.ts";
import { startServer } from "../server.ts";
import { interleave, record, type Suite, type SuiteContext, wallSeconds } from "./_lib.ts";
import { tempDir } from "./_proc.ts";

/** Bytes per file. */
const FILE_BYTES = 10 * 1024;
/** How long a file's identity must stand still before the server remembers its checksum. */
const SETTLED_MS = 2000;

/** Requests and content bytes a store's fetch sent and received. */
interface Traffic {
  stats: number;
  downloads: number;
  contentBytes: number;
}

/** A fetch that counts stat requests, downloads and the bytes of download bodies. */
function countingFetch(traffic: Traffic): typeof fetch {
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const response = await fetch(input, init);
    if (url.includes("/filesystem/stat")) traffic.stats++;
    if (!/\/(fileio\/download|display-download)|\/dav-anon\//.test(url)) return response;
    traffic.downloads++;
    const counted = response.body?.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          traffic.contentBytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, headers: response.headers });
  };
}

/** Writes `count` files of `FILE_BYTES` under `folder`; their data-store paths and MD5s. */
async function writeFiles(
  root: string,
  folder: string,
  count: number,
  pending: boolean,
): Promise<{ path: string; md5: string }[]> {
  const local = join(root, folder);
  await Deno.mkdir(local, { recursive: true });
  const files = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < count; i++) {
    // A small table: rows of the file's number and a running value, cut at FILE_BYTES.
    let text = "id,value\n";
    for (let row = 0; text.length < FILE_BYTES; row++) text += `${i},${(row * 7919 + i) % 10007}\n`;
    const bytes = encoder.encode(text.slice(0, FILE_BYTES));
    const name = `f-${String(i).padStart(5, "0")}.csv`;
    await Deno.writeFile(join(local, name), bytes);
    if (pending) {
      await Deno.writeTextFile(
        join(local, `.${name}.avus.json`),
        JSON.stringify({ "irods-avus": [{ attr: "ipc-checksum", value: "", unit: "" }] }),
      );
    }
    files.push({
      path: `/${folder}/${name}`,
      md5: `md5:${createHash("md5").update(bytes).digest("hex")}`,
    });
  }
  return files;
}

export const lockSuite: Suite = {
  name: "lock",
  description: "tern lock verify by batched stats against downloading and hashing every file",
  async run(ctx: SuiteContext) {
    const count = ctx.quick ? 200 : 2000;
    const reps = ctx.reps ?? (ctx.quick ? 1 : 5);
    const root = await tempDir(ctx.cleanup, "tern-bench-lock-");
    ctx.log(`lock: writing 2 × ${count} files of ${FILE_BYTES / 1024} KB`);
    const checked = await writeFiles(root, "iplant/home/shared/bench/checked", count, false);
    const pending = await writeFiles(root, "iplant/home/shared/bench/pending", count, true);
    const written = Date.now();
    await new Promise((resolve) => setTimeout(resolve, SETTLED_MS + 200));
    ctx.signal.throwIfAborted();
    ctx.log(`lock: files settled ${Date.now() - written} ms after writing`);

    const server = await startServer({ root, port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const traffic: Traffic = { stats: 0, downloads: 0, contentBytes: 0 };
      const store = connect({
        url: server.url,
        anonymous: true,
        cacheDir: false,
        progress: false,
        fetch: countingFetch(traffic),
      });
      // The locks, as provenance writes them: each file's store checksum where the store had
      // one (for the pending files, as if it had one when the lock was written).
      const lockOf = async (files: { path: string; md5: string }[]): Promise<Lock> => {
        const { entries } = await statPaths(
          store[STORE_CONTEXT].transport,
          files.map((file) => file.path),
        );
        return {
          lock: "tern lock",
          format: 1,
          tern: "0.1.0",
          store: server.url,
          datasets: [],
          files: files.map((file) => {
            const entry = entries.get(file.path)!;
            return {
              path: file.path,
              id: entry.id,
              size: entry.size,
              modified: entry.modified.toISOString(),
              checksum: file.md5,
              operations: ["bytes"],
            };
          }),
        };
      };
      const checkedLock = await lockOf(checked);
      const pendingLock = await lockOf(pending);

      const verify = async (lock: Lock, download: boolean) => {
        const checks = await verifyLock(store, lock, { download });
        const bad = checks.filter((check) => check.status !== "unchanged");
        if (bad.length > 0) throw new Error(`${bad.length} files not unchanged: ${bad[0].detail}`);
        return checks;
      };

      traffic.stats = traffic.downloads = traffic.contentBytes = 0;
      const checks = await verify(checkedLock, false);
      if (!checks.every((check) => check.by === "checksum")) {
        throw new Error("expected every file compared by the store's checksum");
      }
      const counted = records(count, traffic.stats + traffic.downloads, traffic.contentBytes);

      ctx.log(`lock: ${reps} rep(s) of verify (stat) and verify --download (no store checksums)`);
      const stats = await interleave(
        () => wallSeconds(() => verify(checkedLock, false)),
        () => wallSeconds(() => verify(pendingLock, true)),
        { warmup: 1, reps },
      );
      return [
        ...counted,
        record({
          suite: "lock",
          name: `lock verify, ${count.toLocaleString("en-US")}-file lock (10 KB CSV files)`,
          value: stats.ours.median,
          baseline: stats.baseline.median,
          unit: "s",
          against: "verify --download of as many files without a store checksum",
          better: "lower",
          target: 0.05,
          reps,
          valueRange: [stats.ours.min, stats.ours.max],
          baselineRange: [stats.baseline.min, stats.baseline.max],
          note: "server in-process, loopback; the --download baseline downloads and hashes " +
            "every file (MD5), at the store's concurrency (4)",
        }),
      ];
    } finally {
      await server.close();
    }
  },
};

/** The request and content records of one stat-only verify of `count` files. */
function records(count: number, requests: number, contentBytes: number) {
  return [
    record({
      suite: "lock",
      name: `lock verify, ${count.toLocaleString("en-US")}-file lock: requests per 1,000 files`,
      value: (requests * 1000) / count,
      baseline: 3,
      unit: "requests",
      against: "issue 31's budget (one per file before)",
      better: "lower",
      target: 1,
      note: `${requests} requests in all`,
    }),
    record({
      suite: "lock",
      name: `lock verify, ${count.toLocaleString("en-US")}-file lock: content bytes received`,
      value: contentBytes,
      baseline: count * FILE_BYTES,
      unit: "bytes",
      against: "the locked files' total size",
      better: "lower",
      target: 0,
    }),
  ];
}
