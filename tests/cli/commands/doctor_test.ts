import assert from "node:assert/strict";
import { join } from "node:path";
import { startCli } from "../_cli.ts";

Deno.test("tern doctor: says what is fine and what to fix", async (t) => {
  await using cli = await startCli();

  await t.step(
    "a Deno and a kernelspec in a temporary npx cache, no Jupyter: what to fix",
    async () => {
      // A "deno" on PATH that lives in npx's cache, and a kernelspec that runs it.
      const bin = join(cli.dir, ".npm", "_npx", "4b4c3f", "node_modules", ".bin");
      await Deno.mkdir(bin, { recursive: true });
      const deno = join(bin, "deno");
      await Deno.writeTextFile(deno, "#!/bin/sh\necho 'deno 2.9.6 (stable)'\n");
      await Deno.chmod(deno, 0o755);
      const data = join(cli.dir, "data");
      await Deno.mkdir(join(data, "jupyter", "kernels", "deno"), { recursive: true });
      await Deno.writeTextFile(
        join(data, "jupyter", "kernels", "deno", "kernel.json"),
        JSON.stringify({ argv: [deno, "jupyter", "--kernel", "--conn", "{connection_file}"] }),
      );
      const run = await cli.run(["doctor"], { env: { PATH: bin, XDG_DATA_HOME: data } });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stdout, /^FAIL {2}Deno .*_npx.* is in a temporary npx cache$/m);
      assert.match(run.stdout, /fix: install Deno durably/);
      assert.match(run.stdout, /^warn {2}Jupyter +no jupyter on PATH/m);
      assert.match(run.stdout, /^FAIL {2}kernelspec .* in a temporary npx cache$/m);
      assert.match(run.stdout, /deno jupyter --install --force/);
      assert.match(run.stdout, /^ok {4}cache +.*, writable, /m);
      assert.match(
        run.stdout,
        /^ok {4}server +http:\/\/127\.0\.0\.1:\d+\/terrain: a Terrain API, anonymous$/m,
      );
    },
  );

  await t.step("a base URL with no Terrain API behind it, and an unwritable cache", async () => {
    const blocker = join(cli.dir, "blocker");
    await Deno.writeTextFile(blocker, "");
    const nonsense = `${new URL(cli.url).origin}/nonsense`;
    const run = await cli.run(
      ["doctor", "--url", nonsense, "--cache-dir", join(blocker, "cache")],
      { noCacheFlag: true },
    );
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^FAIL {2}cache .* is not writable/m);
    assert.match(run.stdout, /^FAIL {2}server .*No Terrain API answers at/m);
    assert.match(run.stdout, /fix: point --url or TERRAIN_URL at Terrain's base URL/);
  });
});
