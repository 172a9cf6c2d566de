/**
 * The README's first cell as a user runs it: its text, importing this checkout, and a script run
 * in a child process (`deno run -A script.ts` in a folder of its own), shared by the tests that
 * prove scripts end (tests/sample/script_end_test.ts), that locks travel
 * (tests/reproduce/lock_travel_test.ts) and that each notebook's reads make a crate
 * (tests/ld/notebook_crates_test.ts).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** This checkout's root, without a trailing slash. */
export const ROOT = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");
/** Where the README's cells import tern from. */
const README_CHECKOUT = "/home/me/src/tern/";

/** The README's first cell (the fenced `ts` block after "A first cell"), importing this checkout. */
export function firstCell(): string {
  const readme = Deno.readTextFileSync(join(ROOT, "README.md"));
  const heading = readme.indexOf("A first cell");
  assert.ok(heading >= 0, 'the README has "A first cell"');
  const cell = readme.slice(heading).match(/```ts\n([\s\S]*?)```/);
  assert.ok(cell, "a ts block follows it");
  assert.ok(cell[1].includes("serveSampleStore()"), "the first cell serves the sample store");
  assert.ok(cell[1].includes("token: DEMO_USER.token"), "it signs in as the demo user");
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
 * Runs `script` as `deno run -A script.ts` in `dir` (with `env` added to the environment) and
 * returns its stdout; fails unless it ends by itself with status 0. The watchdog (`watchdogMs`)
 * only turns a script that never ends into a failure rather than a hang.
 */
export async function runScript(
  dir: string,
  script: string,
  watchdogMs: number,
  env: Record<string, string> = {},
): Promise<string> {
  await Deno.writeTextFile(join(dir, "script.ts"), script);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "script.ts"],
    cwd: dir,
    clearEnv: true,
    env: { ...sampleEnvironment(), ...env, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let ended = true;
  const watchdog = setTimeout(() => {
    ended = false;
    child.kill("SIGKILL");
  }, watchdogMs);
  const output = await child.output().finally(() => clearTimeout(watchdog));
  const out = new TextDecoder().decode(output.stdout);
  const err = new TextDecoder().decode(output.stderr);
  assert.ok(ended, `the script was still running after ${watchdogMs / 1000} s:\n${out}${err}`);
  assert.equal(output.code, 0, err);
  return out;
}
