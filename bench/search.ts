/**
 * The search suite (issue 32's targets), over a store of 100 folders of 1,000 empty files (10 of
 * each in quick mode) with a `subject` AVU on one file in ten:
 *
 * 1. `store.search(…)` iterated to the end (10,000 hits, pages of 1,000) against a plain `fetch`
 *    loop posting the same page requests and parsing the JSON; target ≤ 1.1×;
 * 2. the server's answer to a warm metadata query (first page of 10 hits) against the issue's
 *    budget of 50 ms; target ≤ 1.
 *
 * The server runs in this process, over loopback.
 *
 * @module
 */

import { join } from "node:path";
import { connect, search } from "../mod.ts";
import { startServer } from "../server.ts";
import { interleave, record, repeat, type Suite, type SuiteContext, wallSeconds } from "./_lib.ts";
import { tempDir } from "./_proc.ts";

const FILES_PER_FOLDER = 1000;
const PAGE = 1000;
const QUERY = search.metadata("subject", "maize").toJSON();

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
    const server = await startServer({ root, port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const store = connect({ url: server.url, anonymous: true, cacheDir: false, progress: false });
      const ours = async () => {
        let seen = 0;
        for await (const _ of store.search(QUERY, { pageSize: PAGE })) seen++;
        if (seen !== hits) throw new Error(`store.search gave ${seen} hits, not ${hits}`);
      };
      const post = async (body: unknown) => {
        const response = await fetch(`${server.url}/filesystem/search`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`search answered ${response.status}`);
        return await response.json();
      };
      const plain = async () => {
        let seen = 0;
        for (let from = 0; from < hits; from += PAGE) {
          seen += (await post({ query: QUERY, size: PAGE, ...(from ? { from } : {}) })).hits.length;
        }
        if (seen !== hits) throw new Error(`the fetch loop gave ${seen} hits, not ${hits}`);
      };
      // The first search builds the index: not measured here.
      const build = await wallSeconds(() => post({ query: QUERY, size: 10 }));
      ctx.log(
        `search: index of ${entries} entries built in the first search (${build.toFixed(2)} s)`,
      );
      const iterate = await interleave(() => wallSeconds(ours), () => wallSeconds(plain), {
        warmup: 1,
        reps,
      });
      const warm = await repeat(
        () => wallSeconds(() => post({ query: QUERY, size: 10 })).then((s) => s * 1000),
        { warmup: 2, reps: reps * 4 },
      );
      return [
        record({
          suite: "search",
          name: `store.search iterated, ${hits.toLocaleString("en-US")} hits (pages of ${PAGE})`,
          value: iterate.ours.median,
          baseline: iterate.baseline.median,
          unit: "s",
          against: "a plain fetch loop over the same pages (JSON parsed)",
          better: "lower",
          target: 1.1,
          reps,
          valueRange: [iterate.ours.min, iterate.ours.max],
          baselineRange: [iterate.baseline.min, iterate.baseline.max],
          note: "server in-process, loopback; tern validates each answer with zod",
        }),
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
      await server.close();
    }
  },
};
