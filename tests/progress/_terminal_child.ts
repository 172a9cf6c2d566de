/**
 * Child process for the terminal test: feeds a reporter events over about a second, the way a
 * slow download would, so that the parent can look at what reached the (pseudo-)terminal.
 */

import { progressReporter } from "../../lib/progress/reporter.ts";

const report = progressReporter({ label: "slow.csv" });
console.log(`reporter: ${report === undefined ? "none" : "yes"}`);
const started = performance.now();
for (let step = 0; step <= 10; step++) {
  await new Promise((done) => setTimeout(done, 100));
  report?.({
    kind: step === 10 ? "done" : "bytes",
    ok: true,
    bytes: step * 100_000,
    totalBytes: 1_000_000,
    files: step === 10 ? 1 : 0,
    totalFiles: 1,
    cachedFiles: 0,
    rate: 1_000_000,
    elapsedMs: performance.now() - started,
  });
}
