/**
 * Scripts end: the README's first cell, saved as a script and run as a user runs it
 * (`deno run -A script.ts` in a folder of its own), exits by itself with status 0 once its last
 * line has run, although the sample store's server is still open: the server neither holds the
 * process (its listener, its connections and their timers are unreferenced) nor needs closing.
 * Followed by reads, which leave kept-alive connections open, it ends all the same.
 */

import assert from "node:assert/strict";
import { firstCell, ROOT, runScript as runIn } from "../_readme_script.ts";

/** Runs `script` in a temporary folder of its own (removed afterwards). */
async function runScript(script: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tern-script-" });
  try {
    return await runIn(dir, script, 90_000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the README's first cell, run as a script, exits by itself with status 0", async () => {
  assert.equal(await runScript(`${firstCell()}\nconsole.log("last line");\n`), "last line\n");
});

Deno.test("the first cell followed by reads ends by itself, its connections still open", async () => {
  const out = await runScript(
    `${firstCell()}
console.log(await store.folder("/iplant/home/shared/tern_samples").list().count());
console.log((await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").head(3)).height);
`,
  );
  assert.equal(out, "3\n3\n");
});

Deno.test("server.ref() keeps a script serving until it closes the server", async () => {
  // The timer is unreferenced: it fires only if something else (the server) keeps the process
  // alive, whatever its delay.
  const out = await runScript(`
import { serveSampleStore } from "${ROOT}/sample.ts";
const server = await serveSampleStore();
server.ref();
Deno.unrefTimer(setTimeout(async () => {
  console.log((await fetch(\`\${server.url}/\`)).status);
  await server.close();
}, 100));
`);
  assert.equal(out, "200\n");
});
