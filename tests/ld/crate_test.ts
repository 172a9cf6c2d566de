import assert from "node:assert/strict";
import {
  BadRequestError,
  connect,
  JUPYTER_DISPLAY,
  lockCrate,
  LockError,
  parseLock,
} from "../../mod.ts";
import { startServer } from "../../server.ts";
import { exampleStore } from "../../lib/sample/example.ts";
import { DEMO_USER } from "../../lib/sample/constants.ts";
import { ensureSampleStore } from "../../lib/sample/mod.ts";
import { frontProxy } from "../data/_proxy.ts";
import type { MediaBundle } from "../../lib/display/bundle.ts";
import { provenanceCrate, type RoCrate } from "../../lib/ld/crate.ts";
import { assertNoDroppedTerms, pins, validate } from "./_crate.ts";

const CURATED = "/iplant/home/shared/commons_repo/curated";

Deno.test("crate: every dataset of the sample store, read through a token-connected store, expands without dropped terms, validates, carries every DOI, ARK, checksum and licence, and round-trips to the same pins", async () => {
  await using store = await exampleStore();
  // What the notebooks under notebooks/ read is files of the sample store's datasets and its
  // tern_samples folder: a file of every dataset, and a sample, is a superset of their reads.
  for (const folder of await store.folder(CURATED).folders()) {
    const files = (await store.folder(folder.path).list().toArray())
      .filter((entry) => entry.type === "file");
    assert.ok(files.length > 0, folder.path);
    await store.file(files[0].path).bytes();
  }
  await store.file("/iplant/home/shared/tern_samples/formats/README.txt").text();
  const crate = await store.provenance.crate({ name: "Sample store <datasets>" });
  const lock = await store.provenance.lock();
  assert.ok(lock.datasets.length >= 10, "the sample store's datasets were read");

  await assertNoDroppedTerms(crate);
  const results = await validate(crate);
  assert.deepEqual(results.filter((result) => result.status === "error"), []);
  assert.ok(results.some((result) => result.id === "contextName" && result.status === "success"));

  const json = JSON.stringify(crate);
  const card = await store.provenance[JUPYTER_DISPLAY]();
  for (const dataset of lock.datasets) {
    if (dataset.doi !== undefined) assert.ok(json.includes(`https://doi.org/${dataset.doi}`));
    if (dataset.ark !== undefined) assert.ok(json.includes(dataset.ark));
    if (dataset.license?.url !== undefined) {
      assert.ok(json.includes(JSON.stringify(dataset.license.url)));
    }
    if (dataset.license !== undefined) {
      assert.ok(json.includes(JSON.stringify(dataset.license.name)));
    }
    // What the provenance card shows of the dataset, the crate carries.
    if (dataset.doi !== undefined) assert.ok(card["text/html"].includes(dataset.doi));
  }
  for (const file of lock.files) {
    assert.ok(file.checksum?.startsWith("md5:"), `${file.path} has the store's checksum`);
    assert.ok(json.includes(`"md5":"${file.checksum!.slice(4)}"`), file.path);
  }
  const run = crate["@graph"].find((entity) => entity["@type"] === "CreateAction")!;
  assert.equal((run.object as unknown[]).length, lock.files.length);
  assert.ok(typeof run.startTime === "string" && typeof run.endTime === "string");

  assert.deepEqual(pins(parseLock(JSON.parse(json))), pins(lock));
  for (const secret of [DEMO_USER.token, DEMO_USER.password]) {
    assert.ok(!json.includes(secret));
    assert.ok(!((await crate[JUPYTER_DISPLAY]()) as MediaBundle)["text/html"].includes(secret));
  }
});

Deno.test("crate: a folder holds the metadata, the preview, the notebook, the outputs and checked copies of the inputs; connect({ lock: folder }) reads it back", async () => {
  await using store = await exampleStore();
  const penguins = `${CURATED}/Gorman_PalmerPenguins_Morphometrics_2020/penguins.csv`;
  const bytes = await store.file(penguins).bytes();
  const work = await Deno.makeTempDir({ prefix: "tern-crate-test-" });
  try {
    await Deno.writeTextFile(`${work}/analysis.ipynb`, '{"cells": []}');
    await Deno.writeTextFile(`${work}/figure <script>&amp;.svg`, "<svg/>");
    const dir = `${work}/crate`;
    const crate = await store.provenance.crate({
      instrument: `${work}/analysis.ipynb`,
      outputs: [`${work}/figure <script>&amp;.svg`],
      dir,
    });
    const written = JSON.parse(await Deno.readTextFile(`${dir}/ro-crate-metadata.json`));
    assert.deepEqual(written, JSON.parse(JSON.stringify(crate)));
    assert.deepEqual(await Deno.readFile(`${dir}/inputs${penguins}`), bytes);
    assert.equal(await Deno.readTextFile(`${dir}/analysis.ipynb`), '{"cells": []}');
    assert.equal(await Deno.readTextFile(`${dir}/figure <script>&amp;.svg`), "<svg/>");
    const notebook = crate["@graph"].find((entity) => entity["@id"] === "analysis.ipynb")!;
    assert.deepEqual(notebook["@type"], ["File", "SoftwareSourceCode"]);
    assert.equal(typeof notebook.sha256, "string");
    const run = crate["@graph"].find((entity) => entity["@type"] === "CreateAction")!;
    assert.deepEqual(run.result, [{ "@id": "figure%20%3Cscript%3E%26amp%3B.svg" }]);

    const preview = await Deno.readTextFile(`${dir}/ro-crate-preview.html`);
    assert.equal(preview.match(/<\/script>/g)?.length, 1, "no value closes the JSON-LD script");
    assert.ok(!preview.includes(DEMO_USER.token));
    const results = await validate(crate);
    assert.deepEqual(results.filter((result) => result.status === "error"), []);

    const lock = await store.provenance.lock();
    const { connect } = await import("../../mod.ts");
    const again = connect({
      url: store.options.url,
      token: DEMO_USER.token,
      lock: dir,
      progress: false,
    });
    try {
      assert.deepEqual(await again.file(penguins).bytes(), bytes);
      assert.deepEqual(
        pins(await again.provenance.lock()).files,
        pins(lock).files,
      );
    } finally {
      await again.close();
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("crate: a crate tern cannot turn back into pins is refused with a LockError naming what is missing", () => {
  const crate = provenanceCrate({
    tern: "0.1.0",
    store: "http://127.0.0.1:1/terrain",
    datasets: [],
    files: [{ path: "/a/b.csv", id: "i", size: 3, modified: "2020-01-01T00:00:00.000Z" }],
  });
  const without = (id: string) => ({
    ...crate,
    "@graph": crate["@graph"].filter((entity) => entity["@id"] !== id),
  });
  assert.throws(() => parseLock(without("#tern-run")), {
    name: "LockError",
    message: /RO-Crate tern cannot turn into a lock: no CreateAction "#tern-run"/,
  });
  const noSize = {
    ...crate,
    "@graph": crate["@graph"].map((entity) =>
      entity["@type"] === "File" ? { ...entity, contentSize: undefined } : entity
    ),
  };
  assert.throws(
    () => parseLock(noSize),
    (error: unknown) =>
      error instanceof LockError && /\.contentSize$/.test(error.field ?? "") &&
      /is missing/.test(error.message),
  );
  const foreign = {
    ...crate,
    "@graph": crate["@graph"].map((entity) =>
      entity["@type"] === "CreateAction"
        ? { ...entity, object: [{ "@id": "https://example.org/a.csv" }] }
        : entity
    ),
  };
  assert.throws(() => parseLock(foreign), /does not describe/);
});

Deno.test("crate: the agent option names who ran the notebook as a Person (an ORCID iD as its @id, checked by its check digit); an agent who is a creator stays one entity", async () => {
  await using store = await exampleStore();
  await store.file(`${CURATED}/Gorman_PalmerPenguins_Morphometrics_2020/penguins.csv`).bytes();
  const agentOf = (crate: RoCrate) => {
    const run = crate["@graph"].find((entity) => entity["@type"] === "CreateAction")!;
    const id = (run.agent as { "@id": string })["@id"];
    return crate["@graph"].filter((entity) => entity["@id"] === id);
  };
  const ada = await store.provenance.crate({
    agent: { name: " Ada Lovelace ", orcid: "https://orcid.org/0000000218250097" },
  });
  assert.deepEqual(agentOf(ada), [{
    "@id": "https://orcid.org/0000-0002-1825-0097",
    "@type": "Person",
    name: "Ada Lovelace",
  }]);
  assert.deepEqual((await validate(ada)).filter((result) => result.status === "error"), []);
  await assertNoDroppedTerms(ada);

  const gorman = await store.provenance.crate({ agent: { name: "Gorman, Kristen B." } });
  const [person] = agentOf(gorman);
  assert.equal(person.familyName, "Gorman", "the agent is the dataset's creator entity");
  const ids = gorman["@graph"].map((entity) => entity["@id"]);
  assert.equal(new Set(ids).size, ids.length, "no @id twice");

  for (const agent of [{ name: "Ada", orcid: "0000-0002-1825-0098" }, { name: "" }, "Ada"]) {
    await assert.rejects(
      () => store.provenance.crate({ agent } as never),
      {
        name: "BadRequestError",
        message:
          /^provenance\.crate\(\): agent must be a person: \{ name: a non-empty string, orcid\?: an ORCID iD with a valid check digit \}/,
      },
    );
  }
});

Deno.test("crate: input copies come from the store's cache when it holds them; the rest are downloaded a few at a time (the store's concurrency), each checked", async () => {
  await using server = await startServer({ root: await ensureSampleStore(), port: 0, quiet: true });
  const formats = "/iplant/home/shared/tern_samples/formats";
  const [cached, downloaded] = [
    ["penguins.parquet", "penguins.arrow"].map((name) => `${formats}/${name}`),
    ["penguins.csv", "penguins.tsv", "README.txt"].map((name) => `${formats}/${name}`),
  ];
  // Once armed, the first download is held until a second one is asked while it waits: a crate that copied
  // one at a time would wait here for the watchdog, which only turns a hang into a failure.
  const asked: string[] = [];
  let first: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armed = false;
  let paired = false;
  let timedOut = false;
  let running = 0;
  let most = 0;
  await using proxy = frontProxy(server.url, {
    async answer(request, answer) {
      const url = new URL(request.url);
      if (!url.pathname.endsWith("/fileio/download")) return undefined;
      asked.push(url.searchParams.get("path")!);
      most = Math.max(most, ++running);
      try {
        const body = await answer.arrayBuffer();
        if (!armed) return new Response(body, { status: answer.status, headers: answer.headers });
        if (!paired && !timedOut && first === undefined) {
          await new Promise<void>((resolve) => {
            first = resolve;
            timer = setTimeout(() => {
              timedOut = true;
              resolve();
            }, 30_000);
          });
        } else if (!paired && !timedOut) {
          paired = true;
          clearTimeout(timer);
          first!();
        }
        return new Response(body, { status: answer.status, headers: answer.headers });
      } finally {
        running--;
      }
    },
  });
  const work = await Deno.makeTempDir({ prefix: "tern-crate-cache-test-" });
  const store = connect({
    url: proxy.url,
    token: DEMO_USER.token,
    cacheDir: `${work}/cache`,
    concurrency: 2,
    progress: false,
  });
  try {
    for (const path of cached) await store.file(path).cachedPath();
    for (const path of downloaded) await store.file(path).text();
    asked.length = 0;
    armed = true;
    await store.provenance.crate({ dir: `${work}/crate` });
    assert.deepEqual(
      asked.toSorted(),
      downloaded.toSorted(),
      "only the uncached inputs downloaded",
    );
    assert.ok(paired && !timedOut, "a second download was asked while the first was held");
    assert.ok(most <= 2, `at most the store's concurrency, 2 (${most} at once)`);
    for (const path of [...cached, ...downloaded]) {
      assert.deepEqual(
        await Deno.readFile(`${work}/crate/inputs${path}`),
        await Deno.readFile(
          `${await ensureSampleStore()}${path}`,
        ),
      );
    }
  } finally {
    clearTimeout(timer);
    await store.close();
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("lockCrate() reads its options at the public edge: a misspelt name is refused, naming it", async () => {
  const lock = {
    lock: "tern lock",
    format: 1,
    tern: "0.1.0",
    store: "http://127.0.0.1:8080/terrain",
    datasets: [],
    files: [],
  } as const;
  await assert.rejects(
    lockCrate(lock, {}, { nmae: "x" } as never),
    /lockCrate\(\): unknown option "nmae": did you mean "name"\?/,
  );
  assert.equal((await lockCrate(lock, {}, { name: "Mine" }))["@graph"][1].name, "Mine");
});

Deno.test("crate: a locked name that is no plain local file name on every system is refused before anything is copied or written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const name of ["..\\..\\evil.csv", "C:evil.csv"]) {
      const file = {
        path: `/iplant/home/shared/${name}`,
        id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364",
        size: 3,
        modified: "2024-01-01T00:00:00.000Z",
        operations: ["bytes"],
      };
      const lock = parseLock({
        lock: "tern lock",
        format: 1,
        tern: "0.1.0",
        store: "http://127.0.0.1:8080/terrain",
        datasets: [],
        files: [file],
      });
      const inputs = {
        concurrency: 1,
        read: () => Promise.reject(new Error("nothing may be read")),
      };
      const crate = lockCrate(lock, {}, { dir: `${dir}/crate` }, inputs);
      await assert.rejects(crate, (error: Error) => {
        assert.ok(error instanceof BadRequestError, String(error));
        assert.match(error.message, /is no safe local file name/);
        return true;
      });
      assert.deepEqual([...Deno.readDirSync(dir)], []);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crate: a file's md5 or sha256 that is not hexadecimal of its length is a LockError naming the field, never a wrong checksum", async () => {
  await using store = await exampleStore();
  const penguins = `${CURATED}/Gorman_PalmerPenguins_Morphometrics_2020/penguins.csv`;
  await store.file(penguins).bytes();
  const crate = JSON.parse(JSON.stringify(await store.provenance.crate())) as RoCrate;
  const file = crate["@graph"].find((entity) =>
    typeof entity["@id"] === "string" && entity["@id"].includes(encodeURIComponent(penguins))
  ) as Record<string, unknown>;
  const md5 = file.md5 as string;
  assert.match(md5, /^[0-9a-f]{32}$/);
  const checksumOf = () => parseLock(crate).files.find((f) => f.path === penguins)?.checksum;
  assert.equal(checksumOf(), `md5:${md5}`);
  file.md5 = md5.toUpperCase();
  assert.equal(checksumOf(), `md5:${md5}`, "hex in capitals is the same digest");
  for (const bad of [md5.slice(1), `${md5.slice(1)}z`, 5]) {
    file.md5 = bad;
    assert.throws(() => parseLock(crate), (error) => {
      assert.ok(error instanceof LockError);
      assert.match(error.message, /md5/);
      assert.match(error.message, /32 hexadecimal digits/);
      return true;
    });
  }
  delete file.md5;
  const sha256 = "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb";
  file.sha256 = sha256;
  assert.equal(checksumOf(), `sha2:${Uint8Array.fromHex(sha256).toBase64()}`);
  file.sha256 = `${sha256.slice(2)}zz`;
  assert.throws(() => parseLock(crate), /sha256.*64 hexadecimal digits/s);
});

Deno.test("crate: people and licences shared across datasets are one entity each; one name or licence URL written two ways stays two", () => {
  const ada = { name: "Ada Lovelace", given: "Ada", family: "Lovelace" };
  const cc0 = {
    name: "CC0",
    url: "https://creativecommons.org/publicdomain/zero/1.0/",
    confidence: "exact",
  } as const;
  const crate = provenanceCrate({
    tern: "0.1.0",
    store: "http://127.0.0.1:8080/terrain",
    datasets: [
      { path: "/c/A", creators: [ada, { name: "Lab" }], license: cc0, doi: "10.7946/P2C35G" },
      {
        path: "/c/B",
        creators: [ada, { ...ada, affiliation: "Analytical Engines" }],
        license: cc0,
      },
      { path: "/c/C", creators: [{ name: "Lab" }], license: { ...cc0, name: "CC0 1.0" } },
      { path: "/c/D", creators: [], license: { name: "In house", confidence: "unknown" } },
    ],
    files: [],
  }, { datePublished: "2026-01-01T00:00:00.000Z", agent: { name: "Ada Lovelace" } });
  const graph = crate["@graph"];
  const byId = new Map(graph.map((entity) => [entity["@id"], entity]));
  const folder = (name: string) =>
    `http://127.0.0.1:8080/terrain/secured/filesystem/directory?path=%2Fc%2F${name}`;
  const datasets = ["https://doi.org/10.7946/P2C35G", folder("B"), folder("C"), folder("D")];
  assert.deepEqual(datasets.map((id) => byId.get(id)!.creator), [
    [{ "@id": "#person-ada-lovelace" }, { "@id": "#person-lab" }],
    [{ "@id": "#person-ada-lovelace" }, { "@id": "#person-ada-lovelace-2" }],
    [{ "@id": "#person-lab" }],
    [],
  ]);
  assert.deepEqual(datasets.map((id) => byId.get(id)!.license), [
    { "@id": cc0.url },
    { "@id": cc0.url },
    { "@id": "#license-cc0-1.0" },
    { "@id": "#license-in-house" },
  ]);
  // Each person and licence once, in the order first named; the agent is that creator.
  const ids = (type: string) =>
    graph.filter((entity) => entity["@type"] === type).map((entity) => entity["@id"]);
  assert.deepEqual(ids("Person"), [
    "#person-ada-lovelace",
    "#person-lab",
    "#person-ada-lovelace-2",
  ]);
  assert.deepEqual(ids("CreativeWork"), [
    "ro-crate-metadata.json",
    "https://w3id.org/ro/wfrun/process/0.5",
    cc0.url,
    "#license-cc0-1.0",
    "#license-in-house",
  ]);
});
