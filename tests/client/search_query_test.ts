import assert from "node:assert/strict";

/**
 * What `checkSearchQuery` says of `query`, asked in a worker: a check that held its thread would
 * hold this test's too. The watchdog only catches a hang.
 */
async function checkInWorker(query: unknown): Promise<{ name: string; message: string } | null> {
  const module = new URL("../../lib/client/search_query.ts", import.meta.url).href;
  const code = `import { checkSearchQuery } from ${JSON.stringify(module)};
try {
  checkSearchQuery(${JSON.stringify(query)});
  self.postMessage(null);
} catch (error) {
  self.postMessage({ name: error.name, message: error.message });
}`;
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const worker = new Worker(url, { type: "module" });
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise((resolve, reject) => {
      watchdog = setTimeout(() => reject(new Error("the check did not end")), 120_000);
      worker.onmessage = ({ data }) => resolve(data);
      worker.onerror = (event) => reject(new Error(event.message));
    });
  } finally {
    clearTimeout(watchdog);
    worker.terminate();
    URL.revokeObjectURL(url);
  }
}

Deno.test("checkSearchQuery: a size padded with a million spaces is refused, not hung on", async () => {
  const from = `1${" ".repeat(1_000_000)}x`;
  const refused = await checkInWorker({ all: [{ type: "size", args: { from } }] });
  assert.equal(refused?.name, "BadRequestError");
  assert.match(
    refused!.message,
    /query\.all\[0\]\.args\.from must be bytes or a number with a unit/,
  );
  const padded = ` 10 MB${" ".repeat(1_000_000)}`;
  assert.equal(await checkInWorker({ all: [{ type: "size", args: { from: padded } }] }), null);
});
