/**
 * `Dataset` handles (`metadata()`, `citation()`), `folder.datasets()` and `folder.catalog()`
 * against the embedded server: request counts, bounded concurrency, failures as rows.
 */

import assert from "node:assert/strict";
import { BadRequestError, type Dataset, DatasetMetadata, Folder, isAbortError } from "../../mod.ts";
import { fetchCatalog } from "../../lib/handles/dataset_listing.ts";
import { DEMO, serve, type Served, writeFile } from "./_store.ts";

const CURATED = "/iplant/home/shared/commons_repo/curated";
const ALICE_DATASET = "/iplant/home/alice/Unpublished_2024";
const DATASETS = Array.from({ length: 12 }, (_, i) => `Dataset_${String(i).padStart(2, "0")}`);
const FOLDER_DATE = new Date("2021-06-01T12:00:00Z");
const FAMILIES = [
  "Abbott",
  "Baker",
  "Chen",
  "Diaz",
  "Evans",
  "Fox",
  "Gray",
  "Hill",
  "Ito",
  "Jones",
];

/** AVUs of dataset `i`: two share a title; one is deprecated by name; one has none at all. */
function avusOf(index: number): unknown[] | null {
  if (index === 11) return null;
  return [
    { attr: "title", value: index < 2 ? "Shared title" : `Dataset number ${index}` },
    { attr: "creator", value: `${FAMILIES[index] ?? "Kaur"}, Ann` },
    { attr: "publicationYear", value: String(2010 + index) },
    { attr: "publisher", value: "CyVerse Data Commons" },
    {
      attr: "identifier",
      value: `10.25739/test-${index}`,
      avus: [{ attr: "identifierType", value: "DOI" }],
    },
    { attr: "rights", value: "ODC PDDL" },
  ];
}

async function makeRoot(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "tern-datasets-" });
  await writeFile(
    `${root}/.terrain/users.json`,
    JSON.stringify({
      users: [
        { username: DEMO.username, password: DEMO.password, tokens: [DEMO.token] },
        { username: "alice", password: "pw-alice-Secret!", tokens: [] },
      ],
    }),
  );
  for (const [index, name] of DATASETS.entries()) {
    const folder = `${root}${CURATED}/${index === 10 ? `_deprecated_${name}` : name}`;
    await writeFile(`${folder}/data.csv`, "a,b\n1,2\n");
    const avus = avusOf(index);
    if (avus !== null) await writeFile(`${folder}/.avus.json`, JSON.stringify(avus));
    await Deno.utime(folder, FOLDER_DATE, FOLDER_DATE);
  }
  await writeFile(`${root}${CURATED}/notes.txt`, "files are not datasets\n");
  await writeFile(`${root}${ALICE_DATASET}/x.csv`, "x\n");
  return root;
}

async function withStore(
  body: (served: Served) => Promise<void>,
  options: { latencyMs?: number } = {},
): Promise<void> {
  const root = await makeRoot();
  try {
    await using served = await serve({ root, ...options });
    await body(served);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("dataset.metadata(): the normalised record, raw AVUs beside it, two requests by path", async () => {
  await withStore(async (served) => {
    const store = served.connect();
    const path = `${CURATED}/${DATASETS[3]}`;
    const before = store.stats.requests;
    const metadata = await store.dataset(path).metadata();
    assert.equal(store.stats.requests - before, 2, "stat the folder, then read its AVUs");
    assert.ok(metadata instanceof DatasetMetadata);
    assert.equal(metadata.title, "Dataset number 3");
    assert.equal(metadata.doi, "10.25739/test-3");
    assert.equal(metadata.dateModified?.toISOString(), FOLDER_DATE.toISOString());
    assert.equal(metadata.sources.dateModified, "(folder date-modified)");
    // The raw metadata any handle gives is still there, field for field.
    const raw = await store.folder(path).metadata();
    assert.deepEqual(metadata.raw, raw);
    assert.deepEqual(metadata.avus, raw.avus);
    assert.equal(metadata.path, raw.path);
    assert.equal(metadata.avus[0].attr, "title");
    assert.ok(typeof metadata.avus[0].id === "string", "AVUs keep their service fields");
    assert.equal(metadata.id, (await store.folder(path).stat()).id);
  });
});

Deno.test("dataset.citation(): the record's citation; a bad style fails before any request", async () => {
  await withStore(async (served) => {
    const store = served.connect();
    const dataset = store.dataset(`${CURATED}/${DATASETS[2]}`);
    assert.equal(
      await dataset.citation(),
      "Chen, A. (2012). Dataset number 2. CyVerse Data Commons. " +
        "https://doi.org/10.25739/test-2",
    );
    assert.match(await dataset.citation("bibtex"), /^@misc\{Chen2012Dataset,/);
    const before = store.stats.requests;
    await assert.rejects(dataset.citation("chicago" as "apa"), BadRequestError);
    assert.equal(store.stats.requests, before);
  });
});

Deno.test("a dataset without AVUs, and a _deprecated_ one, are records like the others", async () => {
  await withStore(async (served) => {
    const store = served.connect();
    const empty = await store.dataset(`${CURATED}/${DATASETS[11]}`).metadata();
    assert.deepEqual(empty.avus, []);
    assert.equal(empty.title, undefined);
    assert.deepEqual(empty.missing, ["creators", "title", "publicationYear", "publisher", "doi"]);
    assert.equal(
      await empty.citation(),
      `[${DATASETS[11]}]. ${CURATED}/${DATASETS[11]}`,
    );
    const deprecated = await store.dataset(`${CURATED}/_deprecated_${DATASETS[10]}`).metadata();
    assert.equal(deprecated.deprecated, true);
  });
});

Deno.test("folder.datasets(): sub-folders only, as Dataset handles that know their entries", async () => {
  await withStore(async (served) => {
    const store = served.connect();
    // Sub-folders are all it lists: the options about files are not its options.
    assert.throws(() => store.folder(CURATED).datasets({ type: "file" } as never), {
      name: "BadRequestError",
      message: /^folder\.datasets\(\): unknown option "type"; the options are sort, order, /,
    });
    const listing = store.folder(CURATED).datasets();
    assert.equal(String(listing), `DatasetListing(list ${CURATED}, type "folder")`);
    assert.equal(await listing.count(), DATASETS.length);
    const datasets: Dataset[] = [];
    for await (const dataset of listing) datasets.push(dataset);
    assert.equal(datasets.length, DATASETS.length);
    assert.ok(datasets.every((d) => d instanceof Folder && d.kind === "folder"));
    assert.ok(datasets.some((d) => d.name === `_deprecated_${DATASETS[10]}`));
    // A handle from the listing knows its entry: metadata is one request.
    const before = store.stats.requests;
    await datasets[0].metadata();
    assert.equal(store.stats.requests - before, 1);
    const newest = await store.folder(CURATED).datasets({ sort: "name", order: "desc" }).take(2);
    assert.deepEqual(newest.map((d) => d.name), [`_deprecated_${DATASETS[10]}`, DATASETS[11]]);
    const globbed = await store.folder(CURATED).datasets({ glob: "Dataset_0[12]" }).toArray();
    assert.deepEqual(globbed.map((d) => d.name), [DATASETS[1], DATASETS[2]]);
    assert.throws(() => store.folder(CURATED).datasets({ pageSize: 0 }), BadRequestError);
  });
});

Deno.test("folder.catalog(): a typed frame, one row per dataset, shared titles flagged", async () => {
  await withStore(async (served) => {
    const store = served.connect();
    const frame = await store.folder(CURATED).catalog();
    assert.equal(frame.height, DATASETS.length);
    const rows = frame.toRecords() as Record<string, unknown>[];
    const row = (name: string) => rows.find((r) => String(r.path).endsWith(`/${name}`))!;
    assert.deepEqual(
      rows.filter((r) => r.duplicateTitle).map((r) => String(r.path).split("/").at(-1)),
      [DATASETS[0], DATASETS[1]],
    );
    assert.equal(row(DATASETS[5]).doi, "10.25739/test-5");
    assert.equal(row(DATASETS[5]).year, 2015);
    assert.equal(row(DATASETS[5]).license, "PDDL-1.0");
    assert.deepEqual(row(DATASETS[5]).creators, ["Fox, Ann"]);
    assert.equal(row(DATASETS[11]).title, null);
    assert.equal(row(`_deprecated_${DATASETS[10]}`).deprecated, true);
    assert.equal(new Set(rows.map((r) => r.id)).size, DATASETS.length);
    assert.ok(rows.every((r) => r.error === null));
  });
});

Deno.test("folder.catalog(): metadata requests stay within the concurrency asked for", async () => {
  await withStore(async (served) => {
    const store = served.connect({ concurrency: 16 });
    const started = performance.now();
    const frame = await store.folder(CURATED).catalog({ concurrency: 2 });
    const elapsed = performance.now() - started;
    assert.equal(frame.height, DATASETS.length);
    assert.ok(store.stats.peakInFlight <= 2, `peak ${store.stats.peakInFlight}`);
    // 12 metadata requests of 20 ms, two at a time, after one listing request.
    assert.ok(elapsed >= 6 * 20, `${elapsed} ms`);
    await assert.rejects(store.folder(CURATED).catalog({ concurrency: 0 }), BadRequestError);
  }, { latencyMs: 20 });
});

Deno.test("catalog fetch: vanished or unreadable datasets become rows saying why", async () => {
  await withStore(async (served) => {
    const store = served.demo();
    async function* datasets() {
      yield store.dataset(`${CURATED}/${DATASETS[0]}`);
      yield store.dataset(`${CURATED}/Gone_2020`);
      yield store.dataset(ALICE_DATASET);
    }
    const records = await fetchCatalog(datasets(), { concurrency: 2 });
    assert.equal(records.length, 3);
    assert.ok(records[0] instanceof DatasetMetadata);
    assert.deepEqual(Object.keys(records[1]).sort(), ["error", "path"]);
    assert.equal((records[1] as { path: string }).path, `${CURATED}/Gone_2020`);
    assert.match((records[1] as { error: string }).error, /Gone_2020/);
    assert.match((records[2] as { error: string }).error, /alice/i);
    assert.ok(!(records[2] as { error: string }).error.includes(DEMO.token));
  });
});

Deno.test("catalog: an abort stops the whole fetch with an AbortError", async () => {
  await withStore(async (served) => {
    const store = served.connect();
    const controller = new AbortController();
    const pending = store.folder(CURATED).catalog({ signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(pending, (error: unknown) => isAbortError(error));
  }, { latencyMs: 25 });
});
