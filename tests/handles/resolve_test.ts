import assert from "node:assert/strict";
import {
  AmbiguousNameError,
  BadRequestError,
  connect,
  Dataset,
  File,
  Folder,
  NotFoundError,
  OtherStoreError,
} from "../../mod.ts";
import { exampleStore } from "../../lib/sample/example.ts";
import { SAMPLE_CASES } from "../../lib/sample/catalog.ts";
import { DATA_COMMONS_DATASETS, parseDataName } from "../../lib/handles/resolve.ts";
import { dataStore } from "../data/_store.ts";
import { serveCapture } from "../_capture.ts";

const PENGUINS_CSV = "/iplant/home/shared/tern_samples/formats/penguins.csv";

Deno.test("resolve: every form of a file's name gives the same file", async () => {
  await using store = await exampleStore({ anonymous: true });
  const { id } = await store.file(PENGUINS_CSV).stat();
  const { publicUrl } = await store.file(PENGUINS_CSV).manifest();
  const dav = publicUrl!.replace("/dav-anon/", "/dav/");
  const origin = new URL(store.options.url).origin;
  const forms = [
    PENGUINS_CSV,
    `${PENGUINS_CSV}/`,
    id,
    id.toUpperCase(),
    publicUrl!,
    dav,
    `${origin}/data/ds${PENGUINS_CSV}?type=file`,
    `${origin.replace("127.0.0.1", "localhost")}/dav-anon${PENGUINS_CSV}`,
  ];
  for (const form of forms) {
    const item = await store.resolve(form);
    assert.ok(item instanceof File, form);
    assert.equal((await item.stat()).path, PENGUINS_CSV, form);
  }
});

Deno.test("resolve: names with escapes and folders", async () => {
  assert.deepEqual(
    parseDataName("https://de.cyverse.org/data/ds/iplant/home/shared/my%20data/a%2Bb.csv"),
    { kind: "path", path: "/iplant/home/shared/my data/a+b.csv", from: "de-link" },
  );
  await using store = await exampleStore({ anonymous: true });
  const origin = new URL(store.options.url).origin;
  const folder = await store.resolve(`${origin}/data/ds/iplant/home/shared`);
  assert.ok(folder instanceof Folder && !(folder instanceof Dataset));
  // A curated dataset's folder comes back as a Dataset.
  const dataset = await store.resolve(SAMPLE_CASES.fullMetadata);
  assert.ok(dataset instanceof Dataset);
});

Deno.test("resolve: DOIs and ARKs in every spelling find their dataset", async () => {
  await using store = await exampleStore({ anonymous: true });
  const meta = await store.dataset(SAMPLE_CASES.fullMetadata).metadata();
  const doi = meta.doi!;
  const ark = meta.ark!;
  const forms = [
    doi,
    doi.toUpperCase(),
    `doi:${doi}`,
    `https://doi.org/${doi}`,
    `http://dx.doi.org/${encodeURIComponent(doi)}`,
    ark,
    `https://n2t.net/${ark}`,
  ];
  for (const form of forms) {
    const item = await store.resolve(form);
    assert.ok(item instanceof Dataset, form);
    assert.equal(item.path, SAMPLE_CASES.fullMetadata, form);
  }
  // An ARK-only dataset.
  const flights = await store.dataset(SAMPLE_CASES.arkOnly).metadata();
  assert.equal((await store.resolve(flights.ark!)).path, SAMPLE_CASES.arkOnly);
});

Deno.test("resolve: the datasets are read once, and again when their folder changes", async () => {
  await using served = await dataStore({
    [`${DATA_COMMONS_DATASETS}/A/.avus.json`]: avus("10.1234/aaaa"),
    [`${DATA_COMMONS_DATASETS}/A/data.csv`]: "x\n1\n",
  });
  const store = served.connect();
  assert.equal((await store.resolve("doi:10.1234/AAAA")).path, `${DATA_COMMONS_DATASETS}/A`);
  const before = store.stats.requests;
  await store.resolve("10.1234/aaaa");
  assert.equal(store.stats.requests - before, 1);
  await assert.rejects(() => store.resolve("10.1234/bbbb"), NotFoundError);
  // A new dataset changes the folder's date (set here a day on, rather than waited for to
  // differ): the next lookup reads the datasets again.
  await served.write(`${DATA_COMMONS_DATASETS}/B/.avus.json`, avus("10.1234/bbbb"));
  const folder = `${served.root}${DATA_COMMONS_DATASETS}`;
  const later = new Date((await Deno.stat(folder)).mtime!.getTime() + 86_400_000);
  await Deno.utime(folder, later, later);
  assert.equal((await store.resolve("10.1234/bbbb")).path, `${DATA_COMMONS_DATASETS}/B`);
});

Deno.test("resolve: two datasets with one DOI is an ambiguity, not a guess", async () => {
  await using served = await dataStore({
    [`${DATA_COMMONS_DATASETS}/A/.avus.json`]: avus("10.1234/same"),
    [`${DATA_COMMONS_DATASETS}/B/.avus.json`]: avus("10.1234/same"),
  });
  const error = await served.connect().resolve("10.1234/same").catch((e) => e);
  assert.ok(error instanceof AmbiguousNameError);
  assert.deepEqual([...error.candidates].sort(), [
    `${DATA_COMMONS_DATASETS}/A`,
    `${DATA_COMMONS_DATASETS}/B`,
  ]);
});

Deno.test("resolve: what is not a name is refused before any request", async () => {
  const store = connect({ url: "http://127.0.0.1:9/terrain", anonymous: true, cacheDir: false });
  for (const bad of ["data.csv", "", "https://example.org/page", "ftp://x/dav/a", "10.1234"]) {
    await assert.rejects(() => store.resolve(bad), BadRequestError, bad);
  }
  assert.equal(store.stats.requests, 0);
});

function avus(doi: string): string {
  return JSON.stringify([
    { attr: "title", value: `Dataset ${doi}`, unit: "" },
    {
      attr: "identifier",
      value: doi,
      unit: "",
      avus: [{ attr: "identifierType", value: "DOI", unit: "" }],
    },
  ]);
}

Deno.test("resolve: a URL naming another store's host is refused, not read here", async () => {
  await using store = await exampleStore({ anonymous: true });
  const port = new URL(store.options.url).port;
  for (
    const url of [
      `https://other.example/dav/iplant/home/shared/tern_samples/formats/penguins.csv`,
      `https://other.example/dav-anon${PENGUINS_CSV}`,
      `https://de.cyverse.org/data/ds${PENGUINS_CSV}`,
      `https://data.cyverse.org/dav-anon${PENGUINS_CSV}`,
      `http://127.0.0.1:${Number(port) + 1}/dav-anon${PENGUINS_CSV}`,
    ]
  ) {
    const before = store.stats.requests;
    const error = await store.resolve(url).catch((caught) => caught);
    assert.ok(error instanceof OtherStoreError, `${url}: ${error}`);
    assert.ok(error instanceof BadRequestError);
    assert.equal(error.host, new URL(url).host);
    assert.match(error.message, /another store/);
    assert.equal(store.stats.requests, before, "refused before any request");
  }
  // DOIs and ARKs are looked up in the store's own datasets (no resolver is asked).
  const dataset = await store.resolve("https://doi.org/10.25739/9k2v-7q4m");
  assert.ok(dataset instanceof Dataset);
});

Deno.test("resolve: CyVerse's links belong to a store connected to CyVerse", () => {
  const cyverse = "https://de.cyverse.org/terrain";
  for (
    const url of [
      `https://data.cyverse.org/dav-anon${PENGUINS_CSV}`,
      `https://de.cyverse.org/data/ds${PENGUINS_CSV}`,
    ]
  ) {
    assert.deepEqual(parseDataName(url, cyverse), {
      kind: "path",
      path: PENGUINS_CSV,
      from: url.includes("/dav-anon/") ? "dav" : "de-link",
    });
  }
  assert.throws(
    () => parseDataName(`https://data.example.org/dav${PENGUINS_CSV}`, cyverse),
    OtherStoreError,
  );
});

Deno.test("resolve: an error echoes at most 200 characters of the name, invisible ones escaped", async () => {
  const store = connect({ url: "http://127.0.0.1:9/terrain", anonymous: true, cacheDir: false });
  for (const size of [100_000, 500_000]) {
    const name = `x\u202E\u200B${"y".repeat(size)}`;
    const error = await store.resolve(name).catch((caught) => caught);
    assert.ok(error instanceof BadRequestError);
    assert.ok(error.message.length < 1_000, `${error.message.length} characters`);
    assert.ok(!/[\u202E\u200B]/.test(error.message));
    assert.match(error.message, /x\\u\{202e\}\\u\{200b\}y/);
    assert.match(error.message, new RegExp(`\\(${name.length} characters\\)`));
  }
});

Deno.test("resolve: links, DOIs and ARKs send a signed-in store's requests to that store only (issue 29)", async () => {
  // A store named by a link: it must see nothing, credentials least of all.
  await using capture = serveCapture(() => Response.json({}));
  const sent: string[] = [];
  await using store = await exampleStore({
    fetch: (input, init) => {
      sent.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    },
  });
  assert.equal(store.options.auth, "token");
  const own = new URL(store.options.url).origin;
  const meta = await store.dataset(SAMPLE_CASES.fullMetadata).metadata();
  const { publicUrl } = await store.file(PENGUINS_CSV).manifest();
  for (
    const name of [
      `https://doi.org/${meta.doi}`,
      `http://dx.doi.org/${meta.doi}`,
      `https://n2t.net/${meta.ark}`,
      publicUrl!,
      `${own}/data/ds${PENGUINS_CSV}`,
    ]
  ) {
    await store.resolve(name);
  }
  const elsewhere = new URL(capture.url).host;
  for (const link of [`http://${elsewhere}/dav${PENGUINS_CSV}`, `http://${elsewhere}/data/ds/x`]) {
    await assert.rejects(store.resolve(link), OtherStoreError);
  }
  assert.ok(sent.length > 0);
  assert.deepEqual(sent.filter((url) => new URL(url).origin !== own), []);
  assert.equal(capture.requests.length, 0);
});
