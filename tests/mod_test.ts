/**
 * What importing tern costs: `mod.ts` loads neither nodejs-polars (a native addon) nor zod (the
 * response schemas); the first read or request loads them. Checked in a fresh process, which is
 * the only place a module's evaluation can be observed.
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Runs `script` as a module in a fresh process with only read and env access; gives its stdout. */
async function runFresh(script: string): Promise<string> {
  const file = await Deno.makeTempFile({ prefix: "tern-mod-test-", suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, script);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--allow-read", "--allow-env", "--config", "deno.json", file],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    return new TextDecoder().decode(output.stdout).trim();
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("importing mod.ts evaluates neither nodejs-polars nor zod until they are needed", async () => {
  // Without --allow-ffi, evaluating nodejs-polars would fail the import. zod marks the global
  // object when it is evaluated; importing the schemas module shows that the probe sees it.
  const output = await runFresh(`
    import { connect } from ${JSON.stringify(new URL("mod.ts", ROOT).href)};
    connect({ anonymous: true });
    const zodLoaded = () => "__zod_globalConfig" in globalThis;
    const before = zodLoaded();
    await import(${JSON.stringify(new URL("lib/client/schemas.ts", ROOT).href)});
    console.log(JSON.stringify({ before, after: zodLoaded() }));
  `);
  assert.deepEqual(JSON.parse(output), { before: false, after: true });
});
