import { createHash } from "node:crypto";
import assert from "node:assert/strict";
import { serialize } from "node:v8";
import { CITATION_STYLE_LIST, CITATION_STYLES, JUPYTER_DISPLAY } from "../../mod.ts";
import type { MediaBundle } from "../../lib/display/bundle.ts";
import { loadYamlModule } from "../../lib/deps.ts";
import { Provenance, PROVENANCE_RECORDS } from "../../lib/reproduce/provenance.ts";
import { checkView, HOSTILE } from "../display/_safety.ts";
import { normalizeMetadata } from "../../lib/metadata/normalize.ts";
import {
  CURATED,
  FILES,
  gatedRead,
  NOTES,
  PENGUINS,
  serveProvenanceStore,
  WIND,
} from "./_provenance.ts";

Deno.test("provenance: one entry per file version, by id whatever the path; datasets looked up once per folder", async () => {
  await using served = await serveProvenanceStore();
  const store = served.demo();
  await gatedRead(store, FILES.penguins, "dataframe");
  await gatedRead(store, FILES.penguins, "text");
  const byId = (await store.file(FILES.penguins).stat()).id;
  await gatedRead(store, byId, "bytes");
  await gatedRead(store, FILES.nested, "head");
  await gatedRead(store, FILES.wind, "scan");
  await gatedRead(store, FILES.loose, "stream");
  assert.deepEqual(
    store.provenance.reads.map((read) => [read.path, read.operations.join(","), read.status]),
    [
      [FILES.penguins, "dataframe,text,bytes", "read"],
      [FILES.nested, "head", "read"],
      [FILES.wind, "scan", "read"],
      [FILES.loose, "stream", "read"],
    ],
  );
  assert.equal(store.provenance.reads[0].dataset, undefined, "datasets are looked up lazily");
  const before = store.stats.requests;
  const datasets = await store.provenance.datasets();
  const lookups = store.stats.requests - before;
  assert.deepEqual(datasets.map((d) => [d.path, d.files, d.citedBy]), [
    [PENGUINS, 2, "doi"],
    [WIND, 1, "ark"],
  ]);
  // The penguin creators are listed twice in the AVUs: one person, one creator.
  assert.deepEqual(datasets[0].creators.map((c) => c.name), [
    "Gorman, Kristen B.",
    "Williams, Tony D.",
  ]);
  assert.deepEqual(store.provenance.reads.map((read) => read.dataset), [
    PENGUINS,
    PENGUINS,
    WIND,
    undefined,
  ]);
  // penguins, raw (→ penguins), wind, lab (→ shared, no dataset): 2 requests per folder.
  assert.ok(lookups <= 10, `${lookups} requests`);
  await store.provenance.datasets();
  await store.provenance.bibliography("apa");
  assert.equal(store.stats.requests - before, lookups, "looked up once");
});

Deno.test("provenance: the same file changed between reads is two versions", async () => {
  await using served = await serveProvenanceStore();
  const store = served.demo();
  await gatedRead(store, FILES.wind, "text");
  await served.change(FILES.wind, "hour,speed\n0,9.9\n");
  await gatedRead(store, FILES.wind, "text");
  const reads = store.provenance.reads;
  assert.equal(reads.length, 2);
  assert.equal(reads[0].id, reads[1].id);
  assert.notEqual(reads[0].size, reads[1].size);
});

Deno.test("provenance: each store keeps its own", async () => {
  await using served = await serveProvenanceStore();
  const first = served.demo();
  const second = served.demo();
  await gatedRead(first, FILES.loose, "text");
  assert.equal(first.provenance.reads.length, 1);
  assert.equal(second.provenance.reads.length, 0);
  assert.notEqual(first.provenance, second.provenance);
});

Deno.test("provenance: the bibliography in every style, deduplicated, stable, flagged without a DOI", async () => {
  await using served = await serveProvenanceStore();
  const store = served.demo();
  for (const path of [FILES.wind, FILES.notes, FILES.penguins, FILES.nested]) {
    await gatedRead(store, path, "text");
  }
  const datasets = await store.provenance.datasets();
  assert.deepEqual(datasets.map((d) => d.path), [PENGUINS, WIND, NOTES]);
  const { parse } = await loadYamlModule();
  for (const { id: style, json, joining } of CITATION_STYLE_LIST) {
    const bibliography = await store.provenance.bibliography(style);
    // By first creator: Gorman (DOI), Lab notes (no creator: its title), Okafor (ARK).
    assert.deepEqual(bibliography.entries.map((entry) => entry.path), [PENGUINS, NOTES, WIND]);
    assert.deepEqual(bibliography.flagged.map((entry) => [entry.path, entry.citedBy]), [
      [NOTES, "path"],
      [WIND, "ark"],
    ]);
    const text = bibliography.text;
    if (json) {
      const value = JSON.parse(text);
      assert.ok(Array.isArray(value) && value.length === 3, style);
    } else if (joining === "yaml-documents") {
      assert.equal(text.split("\n---\n").map((doc) => parse(doc)).length, 3);
    } else if (joining === "blank-line") {
      assert.equal(text.split("\n\n").length, 3, style);
    } else {
      assert.equal(text.split("\n").length, 3, style);
    }
    assert.equal((text.match(/9k2v-7q4m/gi) ?? []).length > 0, true, style);
    assert.ok(text.includes("p3w1n2"), `${style} cites the ARK`);
    // BibTeX escapes the path's underscore.
    const path = style === "bibtex" ? NOTES.replace("_", "\\_") : NOTES;
    assert.ok(text.includes(path), `${style} cites the path`);
    assert.equal(String(await store.provenance.bibliography(style)), text, "stable");
  }
  assert.equal(CITATION_STYLE_LIST.length, CITATION_STYLES.length);
  await assert.rejects(
    async () => await store.provenance.bibliography("mla" as never),
    /Unknown citation style "mla"/,
  );
});

Deno.test("provenance: toDataFrame has one row per version with its dataset", async () => {
  await using served = await serveProvenanceStore();
  const store = served.demo();
  await gatedRead(store, FILES.penguins, "dataframe");
  await gatedRead(store, FILES.loose, "text");
  const frame = await store.provenance.toDataFrame();
  assert.deepEqual(frame.columns, [
    "path",
    "id",
    "size",
    "modified",
    "checksum",
    "hash",
    "operations",
    "status",
    "firstRead",
    "dataset",
    "title",
    "doi",
    "ark",
  ]);
  const rows = frame.toRecords();
  assert.equal(rows[0].dataset, PENGUINS);
  assert.equal(rows[0].doi, "10.25739/9k2v-7q4m");
  assert.equal(rows[1].dataset, null);
  assert.equal((rows[0].modified as unknown as Date).toISOString(), "2020-07-16T17:43:00.000Z");
  assert.equal(rows[1].checksum, `md5:${createHash("md5").update("x\n1\n").digest("hex")}`);
});

Deno.test("provenance card: N files from M datasets, a style switcher without scripts, every value escaped", async () => {
  await using served = await serveProvenanceStore();
  const store = served.demo();
  await gatedRead(store, FILES.penguins, "dataframe");
  await gatedRead(store, FILES.wind, "text");
  await gatedRead(store, FILES.loose, "text");
  const card = await store.provenance[JUPYTER_DISPLAY]();
  const view = checkView(card);
  assert.equal(
    card["text/plain"].split("\n")[0],
    "This notebook read 3 files from 2 datasets (1 outside any dataset).",
  );
  const details = [...view.root.querySelectorAll("details")];
  assert.equal(details.length, CITATION_STYLES.length);
  assert.deepEqual(details.map((d) => d.getAttribute("open") !== null), [
    true,
    ...CITATION_STYLES.slice(1).map(() => false),
  ]);
  assert.ok(!card["text/html"].includes("<script"));
  // The title holds markup; it shows as text.
  assert.ok(view.text.includes("Palmer penguins <b>& friends</b>"));
  assert.ok(!card["text/html"].includes("<b>& friends"));
  assert.ok(view.hrefs.includes("https://doi.org/10.25739/9k2v-7q4m"));
  assert.ok(view.hrefs.includes("https://n2t.net/ark:/87946/p3w1n2"));
});

/**
 * A provenance that read one file named after each hostile value, in a folder whose dataset's
 * title and creator are hostile too.
 */
async function hostileProvenance(): Promise<Provenance> {
  const metadata = await normalizeMetadata([
    { attr: "title", value: HOSTILE.join(" | ") },
    { attr: "creator", value: HOSTILE[1] },
    { attr: "identifier", value: "10.1234/abc", avus: [{ attr: "identifierType", value: "DOI" }] },
  ], { path: "/iplant/home/x" });
  const provenance = new Provenance(
    "http://127.0.0.1:1/terrain",
    (folder) => Promise.resolve(folder === "/iplant/home/x" ? metadata : undefined),
  );
  HOSTILE.forEach((hostile, index) =>
    provenance.record({
      store: "http://127.0.0.1:1/terrain",
      path: `/iplant/home/x/${hostile.replaceAll("/", "_")}`,
      id: `id-${index}`,
      size: index,
      modified: 0,
      hash: "xxh64:00ff",
    }, "text")
  );
  return provenance;
}

Deno.test("provenance card: hostile paths, hashes and titles stay text", async () => {
  const provenance = await hostileProvenance();
  const card = await provenance[JUPYTER_DISPLAY]();
  const view = checkView(card);
  assert.equal(view.root.querySelectorAll("script").length, 0);
  assert.ok(view.text.includes("<script>alert(1)</script>"), "markup shows as text");
  assert.ok(!card["text/plain"].includes("\u001b"), "control characters escaped");
  assert.ok(!card["text/plain"].includes("\u202E"), "bidi overrides escaped");
});

/** A value's notebook view, as Jupyter asks for it. */
async function shown(value: unknown): Promise<MediaBundle> {
  const display = (value as Record<symbol, (() => MediaBundle | Promise<MediaBundle>) | undefined>)[
    JUPYTER_DISPLAY
  ];
  assert.equal(typeof display, "function", "the value has a notebook view");
  return await display!.call(value);
}

Deno.test("provenance reads, datasets() and save(): tern views with a one-line summary, still plain values", async () => {
  await using served = await serveProvenanceStore();
  const store = served.demo();
  await gatedRead(store, FILES.penguins, "dataframe");
  await gatedRead(store, FILES.wind, "text");
  await gatedRead(store, FILES.notes, "text");
  await gatedRead(store, FILES.loose, "bytes");

  const reads = store.provenance.reads;
  const readsView = await shown(reads);
  checkView(readsView);
  const readLines = readsView["text/plain"].split("\n");
  assert.equal(readLines[0], "4 file versions read");
  assert.match(readLines[1], /^ {2}path +size +modified \(UTC\) +read by +status$/);
  assert.equal(readLines.length, 2 + 4);
  assert.match(readsView["text/html"], /4 file versions read/);
  // Still the array it was: iterates, compares and serialises without the view.
  assert.ok(Array.isArray(reads));
  assert.equal(reads.length, 4);
  assert.deepEqual([...reads].map((read) => read.path), [
    FILES.penguins,
    FILES.wind,
    FILES.notes,
    FILES.loose,
  ]);
  assert.deepEqual(JSON.parse(JSON.stringify(reads))[0].operations, ["dataframe"]);

  const datasets = await store.provenance.datasets();
  const datasetsView = checkView(await shown(datasets));
  const datasetsText = (await shown(datasets))["text/plain"].split("\n");
  assert.equal(
    datasetsText[0],
    "3 datasets: 1 with a DOI, 1 with only an ARK, 1 with neither DOI nor ARK",
  );
  assert.deepEqual(datasetsText.slice(2).map((line) => line.trim().split(/ {2,}/)), [
    ["Palmer penguins <b>& friends</b>", "10.25739/9k2v-7q4m", "1"],
    ["Wind speeds", "ark:/87946/p3w1n2", "1"],
    ["Lab notes", "no DOI or ARK", "1"],
  ]);
  assert.ok(datasetsView.hrefs.includes("https://doi.org/10.25739/9k2v-7q4m"));
  assert.ok(datasetsView.text.includes("Palmer penguins <b>& friends</b>"), "markup stays text");
  assert.deepEqual(datasets.map((dataset) => dataset.citedBy), ["doi", "ark", "path"]);

  const folder = await Deno.makeTempDir({ prefix: "tern-lock-view-" });
  try {
    const file = `${folder}/tern.lock.json`;
    const lock = await store.provenance.save(file);
    const lockView = await shown(lock);
    checkView(lockView);
    const lockText = lockView["text/plain"].split("\n");
    assert.equal(
      lockText[0],
      `Lock of 4 files from 3 datasets (1 outside any dataset), written to ${file}`,
    );
    assert.equal(lockText[1], `  store ${store.options.url}`);
    // Summary, store, tern, two headings, 2 + 3 dataset lines, 1 + 4 file lines: not a dump.
    assert.equal(lockText.length, 4 + 1 + 3 + 1 + 1 + 4 + 1 - 1);
    assert.ok(!lockText.some((line) => line.includes('"lock"')), "no raw object");
    // The file holds the lock alone, and the value still is it.
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), JSON.parse(JSON.stringify(lock)));
    assert.equal(lock.files.length, 4);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("provenance reads, datasets and lock views: hostile paths and titles stay text", async () => {
  const provenance = await hostileProvenance();
  // A lock file refuses control characters in paths, so the lock is shown unsaved.
  const values = [
    [provenance.reads, "<script>alert(1)<_script>"],
    [await provenance.datasets(), "<script>alert(1)</script>"],
    [await provenance.lock(), "<script>alert(1)<_script>"],
  ] as const;
  for (const [value, markup] of values) {
    const bundle = await shown(value);
    const view = checkView(bundle);
    assert.equal(view.root.querySelectorAll("script").length, 0);
    assert.ok(view.text.includes(markup), "markup shows as text");
    assert.ok(!bundle["text/plain"].includes("\u001b"), "control characters escaped");
    assert.ok(!bundle["text/plain"].includes("\u202E"), "bidi overrides escaped");
  }
});

Deno.test("provenance: 20,000 versions read through a listing stay compact", () => {
  const store = "http://127.0.0.1:1/terrain";
  const provenance = new Provenance(store, () => Promise.resolve(undefined));
  const version = (index: number) => ({
    store,
    path: `${CURATED}/Big_Dataset_2024/part-${Math.floor(index / 100)}/file-${index}.csv`,
    id: crypto.randomUUID(),
    size: index,
    modified: 1_700_000_000_000 + index,
    hash: `xxh64:${index.toString(16).padStart(16, "0")}`,
  });
  const versions = Array.from({ length: 20_000 }, (_, index) => version(index));
  for (const each of versions) provenance.record(each, "dataframe");
  const size = () => serialize(provenance[PROVENANCE_RECORDS]).byteLength;
  const once = size();
  // Read again (a second dataframes() over the same listing): nothing grows.
  for (const each of versions) provenance.record(each, "batches");
  assert.equal(size(), once);
  assert.equal(provenance.size, 20_000);
  const { folders } = provenance[PROVENANCE_RECORDS];
  assert.equal(folders.length, 200, "folder paths are kept once each");
  // id (36) + name (~15) + hash (22) + numbers: well under 200 bytes a version.
  assert.ok(once < 20_000 * 200, `${once} bytes`);
});
