/**
 * `deno task` runs every task in the project folder; tasks that take paths resolve them in the
 * folder the user typed the command in (INIT_CWD), as `deno task tern` does.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_USER } from "../../lib/sample/mod.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("deno task sample-store ./store writes where the user typed the command", async () => {
  const caller = await Deno.makeTempDir({ prefix: "tern-caller-" });
  try {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(REPO, "lib/sample/main.ts"), "./store"],
      cwd: REPO,
      env: { INIT_CWD: caller, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(stdout);
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    const store = join(await Deno.realPath(caller), "store");
    assert.ok((await Deno.stat(join(store, ".terrain", "sample-store.json"))).isFile);
    assert.match(out, new RegExp(`deno task serve --root ${store.replace(/[/.]/g, "\\$&")}`));
    // How to sign in, with no source to read: the demo user's public password on that line only.
    const lines = out.split("\n");
    const signIn = lines.filter((line) => line.includes(DEMO_USER.password));
    assert.equal(signIn.length, 1);
    assert.match(signIn[0], /^Sign in: +export TERRAIN_USERNAME=demo TERRAIN_PASSWORD=/);
  } finally {
    await Deno.remove(caller, { recursive: true });
  }
});
