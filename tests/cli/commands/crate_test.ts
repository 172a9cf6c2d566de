import assert from "node:assert/strict";
import { lockText, readLock } from "../../../lib/reproduce/lock.ts";
import { DEMO, FILES, gatedRead, serveProvenanceStore } from "../../reproduce/_provenance.ts";
import { runTern } from "../_cli.ts";

Deno.test("tern crate --lock writes a crate folder with checked copies; tern lock from-crate gives the same pins back", async () => {
  await using served = await serveProvenanceStore();
  const dir = await Deno.makeTempDir({ prefix: "tern-cli-crate-" });
  try {
    const store = served.demo();
    for (const path of [FILES.penguins, FILES.wind]) await gatedRead(store, path, "text");
    const lockFile = `${dir}/tern.lock.json`;
    await store.provenance.save(lockFile);
    const env = { TERRAIN_URL: served.url, TERRAIN_TOKEN: DEMO.token };
    const tern = (args: string[]) =>
      runTern(["--no-cache", ...args], { cwd: dir, env, secrets: [DEMO.password, DEMO.token] });

    const printed = await tern(["crate", "--lock", lockFile]);
    assert.equal(printed.code, 0, printed.stderr);
    const crate = JSON.parse(printed.stdout);
    assert.equal(crate["@graph"][0]["@id"], "ro-crate-metadata.json");

    const made = await tern(["crate", "--lock", lockFile, "-o", "crate"]);
    assert.equal(made.code, 0, made.stderr);
    assert.deepEqual(
      await Deno.readFile(`${dir}/crate/inputs${FILES.penguins}`),
      await store.file(FILES.penguins).bytes(),
    );
    const written = await Deno.readTextFile(`${dir}/crate/ro-crate-metadata.json`);
    assert.ok(!written.includes(DEMO.token) && !written.includes(DEMO.password));

    const back = await tern(["lock", "from-crate", "crate"]);
    assert.equal(back.code, 0, back.stderr);
    const withoutOperations = (text: string) =>
      JSON.parse(text).files.map((
        { operations: _o, hash: _h, ...file }: { operations: unknown; hash: unknown },
      ) => file);
    assert.deepEqual(
      withoutOperations(back.stdout),
      withoutOperations(lockText(readLock(lockFile))),
    );
    assert.equal(JSON.parse(back.stdout).store, readLock(lockFile).store);

    const notACrate = await tern(["lock", "from-crate", lockFile.replace("tern.lock", "missing")]);
    assert.notEqual(notACrate.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
