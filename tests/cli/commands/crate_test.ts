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

    // The store moved (a sample store on a new port): TERRAIN_URL, as the help says, stands in
    // for the lock's URL, and each copy is still checked against the lock's size and checksum.
    const moved = `${dir}/moved.lock.json`;
    const lock = JSON.parse(await Deno.readTextFile(lockFile));
    await Deno.writeTextFile(
      moved,
      JSON.stringify({ ...lock, store: "http://127.0.0.1:9/terrain" }),
    );
    const elsewhere = await tern(["crate", "--lock", moved, "-o", "moved-crate"]);
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.deepEqual(
      await Deno.readFile(`${dir}/moved-crate/inputs${FILES.wind}`),
      await store.file(FILES.wind).bytes(),
    );
    // Another store at that address (it reports another id than the lock recorded): refused
    // before anything is copied.
    assert.ok(lock.storeId !== undefined, "the lock records its store's id");
    const other = `${dir}/other.lock.json`;
    await Deno.writeTextFile(
      other,
      JSON.stringify({ ...lock, store: "http://127.0.0.1:9/terrain", storeId: "another-store" }),
    );
    const refused = await tern(["crate", "--lock", other, "-o", "other-crate"]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /reports the id .*, not "another-store"/);
    assert.equal(await Deno.stat(`${dir}/other-crate`).then(() => true, () => false), false);

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

    const byAgent = (orcid: string) =>
      tern(["crate", "--lock", lockFile, "--agent", "Ada Lovelace", "--orcid", orcid]);
    const byAda = await byAgent("https://orcid.org/0000-0002-1825-0097");
    assert.equal(byAda.code, 0, byAda.stderr);
    const graph: { "@id": string; [key: string]: unknown }[] = JSON.parse(byAda.stdout)["@graph"];
    const ada = "https://orcid.org/0000-0002-1825-0097";
    assert.deepEqual(graph.find((entity) => entity["@type"] === "CreateAction")?.agent, {
      "@id": ada,
    });
    assert.deepEqual(graph.find((entity) => entity["@id"] === ada), {
      "@id": ada,
      "@type": "Person",
      name: "Ada Lovelace",
    });
    const badDigit = await byAgent("0000-0002-1825-0098");
    assert.notEqual(badDigit.code, 0);
    assert.match(badDigit.stderr, /tern crate: agent must be a person: .*valid check digit/);
    const orcidAlone = await tern(["crate", "--lock", lockFile, "--orcid", "0000-0002-1825-0097"]);
    assert.notEqual(orcidAlone.code, 0);
    assert.match(orcidAlone.stderr, /--orcid is the ORCID iD of the --agent NAME/);

    const notACrate = await tern(["lock", "from-crate", lockFile.replace("tern.lock", "missing")]);
    assert.notEqual(notACrate.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
