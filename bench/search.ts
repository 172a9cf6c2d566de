/**
 * The search suite (issue 32's targets), over a store of 100 folders of 1,000 empty files (10 of
 * each in quick mode) with a `subject` AVU on one file in ten:
 *
 * 1. `store.search(…)` iterated to the end (10,000 hits, pages of 1,000) against a plain `fetch`
 *    loop posting the same page requests and parsing the JSON; target ≤ 1.1×; beside it the CPU
 *    this process spent on each (the client's work alone: the server is another process, and on
 *    a loaded machine its work makes the wall times noisy); the same pair again over a link with
 *    50 ms of latency per request (no target: what a real link leaves of the difference);
 * 2. the server's answer to a warm metadata query (first page of 10 hits) against the issue's
 *    budget of 50 ms; target ≤ 1.
 *
 * Each server is its own process (lib/server/main.ts), over loopback.
 *
 * @module
 */

import { join } from "node:path";
import process from "node:process";
import { connect, search } from "../mod.ts";
import {
  interleave,
  record,
  repeat,
  type Suite,
  type SuiteContext,
  summarize,
  wallSeconds,
} from "./_lib.ts";
import { Cleanup, tempDir } from "./_proc.ts";
import { startServer } from "./data.ts";

const FILES_PER_FOLDER = 1000;
const PAGE = 1000;
const QUERY = search.metadata("subject", "maize").toJSON();

/** A realistic link to a remote store: what every request pays on top of the server's work. */
const LINK_LATENCY_MS = 50;

async function post(url: string, body: unknown): Promise<{ hits: unknown[] }> {
  const response = await fetch(`${url}/filesystem/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`search answered ${response.status}`);
  return await response.json();
}

/** `store.search()` iterated to the end, and the plain loop fetching the same pages. */
function iteration(url: string, hits: number) {
  const store = connect({ url, anonymous: true, cacheDir: false, progress: false });
  return {
    ours: async () => {
      let seen = 0;
      for await (const _ of store.search(QUERY, { pageSize: PAGE })) seen++;
      if (seen !== hits) throw new Error(`store.search gave ${seen} hits, not ${hits}`);
    },
    plain: async () => {
      let seen = 0;
      for (let from = 0; from < hits; from += PAGE) {
        const body = { query: QUERY, size: PAGE, ...(from ? { from } : {}) };
        seen += (await post(url, body)).hits.length;
      }
      if (seen !== hits) throw new Error(`the fetch loop gave ${seen} hits, not ${hits}`);
    },
  };
}

async function writeStore(root: string, folders: number): Promise<void> {
  for (let folder = 0; folder < folders; folder++) {
    const local = join(root, "iplant/home/shared/bench", `f-${String(folder).padStart(3, "0")}`);
    await Deno.mkdir(local, { recursive: true });
    for (let file = 0; file < FILES_PER_FOLDER; file++) {
      const name = `part-${String(file).padStart(4, "0")}.csv`;
      await Deno.writeFile(join(local, name), new Uint8Array());
      if (file % 10 === 0) {
        await Deno.writeTextFile(
          join(local, `.${name}.avus.json`),
          JSON.stringify([{ attr: "subject", value: "maize", unit: "" }]),
        );
      }
    }
  }
}

/** The search suite. */
export const searchSuite: Suite = {
  name: "search",
  description: "store.search() iterated vs a plain fetch loop; the server's warm metadata query",
  async run(ctx: SuiteContext) {
    const folders = ctx.quick ? 10 : 100;
    const entries = folders * FILES_PER_FOLDER;
    const hits = entries / 10;
    const reps = ctx.reps ?? (ctx.quick ? 1 : 5);
    const root = await tempDir(ctx.cleanup, "tern-bench-search-");
    ctx.log(`search: writing ${entries.toLocaleString("en-US")} files`);
    await writeStore(root, folders);
    // The servers stop with the suite, not at the end of the whole run.
    const cleanup = new Cleanup();
    ctx.cleanup.defer(() => cleanup.run());
    try {
      const server = await startServer(cleanup, ctx, root, []);
      const slow = await startServer(cleanup, ctx, root, [
        "--latency-ms",
        String(LINK_LATENCY_MS),
      ]);
      // The first search of each server builds its index: not measured here.
      const build = await wallSeconds(() => post(server.url, { query: QUERY, size: 10 }));
      ctx.log(
        `search: index of ${entries} entries built in the first search (${build.toFixed(2)} s)`,
      );
      await post(slow.url, { query: QUERY, size: 10 });
      const against = "a plain fetch loop over the same pages (JSON parsed)";
      const iterate = async (url: string) => {
        const pair = iteration(url, hits);
        const cpu = { ours: [] as number[], plain: [] as number[] };
        const timed = (run: () => Promise<void>, into: number[]) => async () => {
          const before = process.cpuUsage();
          const seconds = await wallSeconds(run);
          const used = process.cpuUsage(before);
          into.push((used.user + used.system) / 1000);
          return seconds;
        };
        const wall = await interleave(timed(pair.ours, cpu.ours), timed(pair.plain, cpu.plain), {
          warmup: 1,
          reps,
        });
        // The warm-up runs' CPU is left out, as their times are.
        return { wall, ours: summarize(cpu.ours.slice(1)), plain: summarize(cpu.plain.slice(1)) };
      };
      const loopback = await iterate(server.url);
      const link = await iterate(slow.url);
      const count = hits.toLocaleString("en-US");
      const iterated = [
        record({
          suite: "search",
          name: `store.search iterated, ${count} hits (pages of ${PAGE})`,
          value: loopback.wall.ours.median,
          baseline: loopback.wall.baseline.median,
          unit: "s",
          against,
          better: "lower",
          target: 1.1,
          reps,
          valueRange: [loopback.wall.ours.min, loopback.wall.ours.max],
          baselineRange: [loopback.wall.baseline.min, loopback.wall.baseline.max],
          note: "server in its own process, loopback; tern validates each answer with zod",
        }),
        record({
          suite: "search",
          name: "the same: the client's CPU",
          value: loopback.ours.median,
          baseline: loopback.plain.median,
          unit: "ms",
          against,
          better: "lower",
          reps,
          valueRange: [loopback.ours.min, loopback.ours.max],
          baselineRange: [loopback.plain.min, loopback.plain.max],
          note: "process.cpuUsage() of this process around each run",
        }),
        record({
          suite: "search",
          name: `the same over a link of ${LINK_LATENCY_MS} ms latency`,
          value: link.wall.ours.median,
          baseline: link.wall.baseline.median,
          unit: "s",
          against,
          better: "lower",
          reps,
          valueRange: [link.wall.ours.min, link.wall.ours.max],
          baselineRange: [link.wall.baseline.min, link.wall.baseline.max],
          note: `${LINK_LATENCY_MS} ms added to every answer by the server (--latency-ms)`,
        }),
      ];
      const warm = await repeat(
        () => wallSeconds(() => post(server.url, { query: QUERY, size: 10 })).then((s) => s * 1000),
        { warmup: 2, reps: reps * 4 },
      );
      return [
        ...iterated,
        record({
          suite: "search",
          name: `warm metadata query, ${
            entries.toLocaleString("en-US")
          }-entry store, first 10 hits`,
          value: warm.median,
          baseline: 50,
          unit: "ms",
          against: "issue 32's budget",
          better: "lower",
          target: 1,
          reps: reps * 4,
          valueRange: [warm.min, warm.max],
          note: `one request by fetch; the index was built by the first search ` +
            `(${build.toFixed(1)} s)`,
        }),
      ];
    } finally {
      await cleanup.run();
    }
  },
};
