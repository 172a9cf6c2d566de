/**
 * Hostile text against tern's heuristics: 100 kB values in metadata, paths, URLs and table cells
 * (a store's answer, a dataset's AVUs, a lock handed over). A regular expression like
 * `/[,;\s]+$/` tries every start in a long run that does not end the text and scans the run from
 * each: quadratic, about a minute on 100 kB. The probes run in a worker that a watchdog far above
 * what linear code needs ends and names.
 *
 * @module
 */

import assert from "node:assert/strict";

/** A hang, not a speed limit: linear code needs a small part of this beside any other suite. */
const DEADLINE_MS = 30_000;

Deno.test("hostile text: 100 kB names, titles, identifiers, paths, URLs and cells are read in linear time", async () => {
  const worker = new Worker(new URL("./_regex_worker.ts", import.meta.url), { type: "module" });
  let current = "(loading)";
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const finished = await new Promise<boolean>((resolve, reject) => {
      timer = setTimeout(() => resolve(false), DEADLINE_MS);
      worker.onmessage = (event) => {
        if (event.data.done) resolve(true);
        else current = event.data.start;
      };
      worker.onerror = (event) => {
        event.preventDefault();
        reject(new Error(`the probe "${current}" threw: ${event.message}`));
      };
    });
    assert.ok(finished, `the probe "${current}" was still running after ${DEADLINE_MS} ms`);
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
});
