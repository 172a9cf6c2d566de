/**
 * Scripts end: the README's first cell, saved as a script and run as a user runs it
 * (`deno run -A script.ts` in a folder of its own), exits by itself with status 0 once its last
 * line has run, although the sample store's server is still open: the server neither holds the
 * process (its listener, its connections and their timers are unreferenced) nor needs closing.
 * Followed by reads, which leave kept-alive connections open, it ends all the same.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
/** Where the README's cells import tern from. */
const README_CHECKOUT = "/home/me/src/tern/";

/** The README's first cell (the fenced `ts` block after "A first cell"), importing this checkout. */
function firstCell(): string {
  const readme = Deno.readTextFileSync(join(ROOT, "README.md"));
  const heading = readme.indexOf("A first cell");
  assert.ok(heading >= 0, 'the README has "A first cell"');
  const cell = readme.slice(heading).match(/```ts\n([\s\S]*?)```/);
  assert.ok(cell, "a ts block follows it");
  assert.ok(cell[1].includes("serveSampleStore()"), "the first cell serves the sample store");
  assert.ok(cell[1].includes(README_CHECKOUT), `the first cell imports from ${README_CHECKOUT}`);
  return cell[1].replaceAll(README_CHECKOUT, `${ROOT}/`);
}

/** The process's environment without TERRAIN_* (so the cell takes its sample-store branch). */
function sampleEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) => !name.startsWith("TERRAIN_")),
  );
}

/**
 * Runs `script` as `deno run -A script.ts` in a temporary folder. A watchdog kills a child still
 * running after 90 s: it only turns a script that never ends into a failure rather than a hang.
 */
async function runScript(script: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tern-script-" });
  try {
    await Deno.writeTextFile(join(dir, "script.ts"), script);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "script.ts"],
      cwd: dir,
      clearEnv: true,
      env: { ...sampleEnvironment(), NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let ended = true;
    const watchdog = setTimeout(() => {
      ended = false;
      child.kill("SIGKILL");
    }, 90_000);
    const output = await child.output();
    clearTimeout(watchdog);
    const out = new TextDecoder().decode(output.stdout);
    const err = new TextDecoder().decode(output.stderr);
    assert.ok(ended, `the script was still running after 90 s:\n${out}${err}`);
    assert.equal(output.code, 0, err);
    return out;
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
