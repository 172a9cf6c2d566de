/**
 * The handles' notebook views against the embedded server: the sample store for what people
 * see (a folder of 20,000 files, dataset cards in every metadata state, the curated catalog),
 * and a store full of hostile names, AVUs, comments and saved searches for what must never
 * happen (markup, scripts, event handlers, foreign links).
 */

import assert from "node:assert/strict";
import { startServer } from "../../server.ts";
import { connect, search } from "../../mod.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../../lib/display/bundle.ts";
import {
  CURATED_PATH,
  DEMO_USER,
  ensureSampleStore,
  MANY_FILES_PATH,
  SAMPLE_CASES,
} from "../../lib/sample/mod.ts";
import { checkView, HOSTILE, HOSTILE_URLS, LONG } from "../display/_safety.ts";

const sampleRoot = await ensureSampleStore();

async function sample() {
  const server = await startServer({ root: sampleRoot, port: 0, quiet: true });
  const store = connect({ url: server.url, token: DEMO_USER.token, cacheDir: false });
  return { server, store, [Symbol.asyncDispose]: () => server.close() };
}

Deno.test("a folder shows its first 25 entries and its total, from one request", async () => {
  await using served = await sample();
  const folder = served.store.folder(MANY_FILES_PATH);
  const before = served.store.stats.requests;
  const bundle = await folder[JUPYTER_DISPLAY]();
  assert.equal(served.store.stats.requests - before, 1);
  const { root, text } = checkView(bundle);
  assert.equal(root.querySelectorAll("tbody tr").length, 25);
  const total = await folder.list().count();
  assert.ok(text.includes(`showing 25 of ${total.toLocaleString("en-US")} entries`), text);
  assert.match(bundle["text/plain"], /^Folder \/iplant\/home\/shared\/tern_samples\/many_files/);
});

Deno.test("a dataset card: links, licence, citation, files", async () => {
  await using served = await sample();
  const bundle = await served.store.dataset(SAMPLE_CASES.fullMetadata)[JUPYTER_DISPLAY]();
  const { text, hrefs, root } = checkView(bundle);
  assert.ok(hrefs.includes("https://doi.org/10.25739/9k2v-7q4m"));
  assert.ok(hrefs.some((href) => href.startsWith("https://n2t.net/ark:/")));
  assert.match(text, /CC0-1\.0/);
  assert.match(text, /Citation complete/);
  assert.match(text, /files? \(\d/);
  assert.equal(
    root.querySelector("pre")!.textContent,
    await served.store.dataset(SAMPLE_CASES.fullMetadata).citation(),
  );
});

Deno.test("dataset cards flag a shared title, no metadata and deprecation", async () => {
  await using served = await sample();
  const [first, second] = SAMPLE_CASES.sameTitle;
  const shared = checkView(await served.store.dataset(second)[JUPYTER_DISPLAY]());
  assert.ok(shared.text.includes(`Same title as ${first.slice(first.lastIndexOf("/") + 1)}`));
  const bare = checkView(await served.store.dataset(SAMPLE_CASES.noMetadata)[JUPYTER_DISPLAY]());
  assert.match(bare.text, /No metadata/);
  const old = checkView(await served.store.dataset(SAMPLE_CASES.deprecated)[JUPYTER_DISPLAY]());
  assert.match(old.text, /Deprecated/);
});

Deno.test("a folder's datasets show as a small catalog", async () => {
  await using served = await sample();
  const bundle = await served.store.folder(CURATED_PATH).datasets()[JUPYTER_DISPLAY]();
  const { root, text } = checkView(bundle);
  const count = await served.store.folder(CURATED_PATH).datasets().count();
  assert.equal(root.querySelectorAll("tbody tr").length, Math.min(20, count));
  assert.equal(root.querySelectorAll(".t-flag").length > 0, true);
  assert.equal((text.match(/same title/g) ?? []).length, 2);
});

Deno.test("a missing folder or dataset shows its typed error instead", async () => {
  await using served = await sample();
  for (
    const handle of [
      served.store.folder("/iplant/home/shared/nope"),
      served.store.dataset("/iplant/home/shared/nope"),
    ]
  ) {
    const { root } = checkView(await handle[JUPYTER_DISPLAY]());
    assert.equal(root.querySelector(".t-title")!.textContent, "NotFoundError");
  }
});

Deno.test("comments and raw metadata keep their values; the display is hidden", async () => {
  await using served = await sample();
  const file = served.store.file(SAMPLE_CASES.fileWithMetadata);
  const comments = await file.comments();
  assert.ok(comments.length > 0);
  assert.deepEqual(Object.keys(comments[0]).sort(), [
    "author",
    "id",
    "posted",
    "retracted",
    "text",
  ]);
  assert.deepEqual(JSON.parse(JSON.stringify(comments)).length, comments.length);
  assert.deepEqual(comments, comments.map((comment) => ({ ...comment })));
  checkView(
    await (comments as unknown as { [JUPYTER_DISPLAY](): Promise<never> })[JUPYTER_DISPLAY](),
  );
  const raw = await file.metadata();
  assert.deepEqual(Object.keys(raw), ["path", "avus", "irodsAvus"]);
  checkView(await (raw as unknown as { [JUPYTER_DISPLAY](): Promise<never> })[JUPYTER_DISPLAY]());
});

/** A store whose names, metadata, comments and saved searches are all attacks. */
async function hostileStore(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "tern-display-hostile-" });
  const write = async (path: string, text: string) => {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  };
  await write(
    `${root}/.terrain/users.json`,
    JSON.stringify({
      users: [{
        username: "demo",
        password: "pw-demo",
        email: "d@example.org",
        firstName: "D",
        lastName: "U",
        tokens: [DEMO_USER.token],
      }],
    }),
  );
  const searches = HOSTILE.map((value) => ({ label: value, fileQuery: value, pathPrefix: value }));
  await write(`${root}/.terrain/saved-searches/demo.json`, JSON.stringify(searches));
  const folder = `${root}/iplant/home/shared/hostile`;
  // File names may hold anything but "/" and NUL.
  const names = HOSTILE.map((value, index) => `${index}${value.replaceAll("/", "∕")}.csv`);
  for (const name of names) await write(`${folder}/${name}`, "a,b\n1,2\n");
  const avus = [
    { attr: "title", value: HOSTILE[0], unit: "" },
    ...HOSTILE.map((value) => ({ attr: "creator", value, unit: "" })),
    ...HOSTILE.map((value) => ({ attr: "subject", value, unit: HOSTILE[1] })),
    { attr: "description", value: LONG, unit: "" },
    { attr: "publicationYear", value: "2020", unit: "" },
    {
      attr: "rights",
      value: HOSTILE[1],
      unit: "",
      avus: [{ attr: "rightsURI", value: HOSTILE_URLS[0], unit: "" }],
    },
    {
      attr: "relatedIdentifier",
      value: HOSTILE_URLS[3],
      unit: "",
      avus: [{ attr: "relatedIdentifierType", value: "URL", unit: "" }],
    },
    { attr: HOSTILE[2], value: HOSTILE[3], unit: HOSTILE[4] },
  ];
  await write(`${folder}/.avus.json`, JSON.stringify(avus));
  const comments = HOSTILE.map((value, index) => ({
    id: `9e1d7c1a-2b3c-11ee-8f44-0242ac1200${String(index).padStart(2, "0")}`,
    comment: value,
    commenter: value.replace(/\s/g, "_"),
    post_time: 1689955200000 + index,
    retracted: index % 2 === 0,
  }));
  await write(`${folder}/.${names[0]}.comments.json`, JSON.stringify(comments));
  return root;
}

Deno.test("hostile names, metadata, comments and saved searches never become markup", async () => {
  const root = await hostileStore();
  const server = await startServer({ root, port: 0, quiet: true });
  try {
    const store = connect({ url: server.url, token: DEMO_USER.token, cacheDir: false });
    const path = "/iplant/home/shared/hostile";

    const listing = checkView(await store.folder(path)[JUPYTER_DISPLAY]());
    for (const value of HOSTILE) {
      assert.ok(listing.text.includes(value.replaceAll("/", "∕")), value);
    }

    const card = checkView(await store.dataset(path)[JUPYTER_DISPLAY]());
    assert.equal(card.hrefs.filter((href) => !href.startsWith("https://orcid.org/")).length, 0);
    for (const value of HOSTILE) assert.ok(card.text.includes(value), value);

    const metadata = await store.dataset(path).metadata();
    const view = checkView(metadata[JUPYTER_DISPLAY]());
    assert.deepEqual(view.hrefs, []);
    for (const value of HOSTILE) assert.ok(view.text.includes(value), value);

    const file = store.folder(path).file(`0${HOSTILE[0].replaceAll("/", "∕")}.csv`);
    const comments = await file.comments();
    const thread = checkView(
      await (comments as unknown as { [JUPYTER_DISPLAY](): Promise<never> })[JUPYTER_DISPLAY](),
    );
    for (const value of HOSTILE) assert.ok(thread.text.includes(value), value);

    const saved = await store.savedSearches();
    const table = checkView(
      await (saved as unknown as { [JUPYTER_DISPLAY](): Promise<never> })[JUPYTER_DISPLAY](),
    );
    for (const value of HOSTILE) assert.ok(table.text.includes(value), value);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a listing shows its filters and total; a walk shows paths and stops looking", async () => {
  await using served = await sample();
  const files = served.store.folder(MANY_FILES_PATH).list({ type: "file" });
  let before = served.store.stats.requests;
  const listed = checkView(await files[JUPYTER_DISPLAY]());
  assert.equal(served.store.stats.requests - before, 1);
  assert.match(listed.text, /type "file"/);
  assert.ok(listed.text.includes(`showing 25 of ${(await files.count()).toLocaleString("en-US")}`));

  const archived = served.store.folder(MANY_FILES_PATH).walk({ glob: "archive/**/*.csv" });
  const walk = checkView(await archived[JUPYTER_DISPLAY]());
  const names = [...walk.root.querySelectorAll("td.t-name bdi")].map((cell) => cell.textContent);
  const all = (await archived.toArray()).map((entry) =>
    entry.path.slice(MANY_FILES_PATH.length + 1)
  );
  // The view looks for at most a few seconds: on a loaded machine it may show fewer rows, but
  // then says so, and the rows it shows are the walk's first ones.
  if (/stopped looking/.test(walk.text)) {
    assert.deepEqual(names, all.slice(0, names.length));
  } else assert.deepEqual(names, all.slice(0, 25));

  before = served.store.stats.requests;
  const nothing = served.store.folder(MANY_FILES_PATH).walk({
    glob: "**/*.nothing",
    pageSize: 100,
  });
  const gaveUp = checkView(await nothing[JUPYTER_DISPLAY]());
  const spent = served.store.stats.requests - before;
  // 50 pages read, plus the pages requested ahead of them (aborted when the view stops).
  assert.ok(spent <= 50 + 16, `the view stopped looking (${spent} requests)`);
  assert.match(gaveUp.text, /stopped looking after \d+ pages/);
  assert.match(gaveUp.text, /more entries — iterate the listing/);
});

Deno.test("take() and toArray() of a listing, a walk and a search show as listings, and stay plain arrays", async () => {
  await using served = await sample();
  const { store } = served;
  type Shown = { [JUPYTER_DISPLAY]?: () => MediaBundle | Promise<MediaBundle> };
  const view = async (entries: { path: string }[]) => {
    const show = (entries as Shown)[JUPYTER_DISPLAY];
    assert.ok(show !== undefined, "the array has a notebook view");
    const bundle = await show.call(entries);
    return { ...checkView(bundle), plain: bundle["text/plain"] };
  };
  const plain = (entries: { path: string }[]) => {
    assert.ok(Array.isArray(entries));
    assert.deepEqual(Object.keys(entries), entries.map((_, index) => String(index)));
    assert.equal(JSON.stringify(entries), JSON.stringify([...entries]));
  };

  const sorted = store.folder(CURATED_PATH).list({ sort: "name" });
  const three = await sorted.take(3);
  plain(three);
  const shown = await view(three);
  const names = [...shown.root.querySelectorAll("td.t-name bdi")].map((cell) => cell.textContent);
  assert.deepEqual(names, three.map((entry) => `${entry.name}/`));
  const first = await view(await sorted.toArray());
  assert.ok(first.plain.startsWith(`Entries list ${CURATED_PATH}, sort name asc — `), first.plain);

  const walked = await store.folder(MANY_FILES_PATH).walk({ glob: "**/*.csv" }).take(30);
  const walk = await view(walked);
  assert.equal(walk.root.querySelectorAll("tbody tr").length, 25);
  assert.ok(walk.text.includes("showing 25 of 30 entries"), walk.text);
  assert.ok(walk.text.includes(walked[0].path), "a walk's entries by path");

  const hits = store.search(search.name("penguins.csv", { exact: true }));
  for (const found of [await hits.take(5), await hits.toArray()]) {
    plain(found);
    const hit = await view(found);
    assert.match(hit.plain, /^Hits search — \d entr/);
    for (const { path } of found) assert.ok(hit.text.includes(path), path);
  }
  assert.equal((await view(await hits.take(0))).text.includes("No entries."), true);
});

Deno.test("a file shows its first rows; a large whole-read file says why it has none", async () => {
  await using served = await sample();
  const csv = checkView(await served.store.file(SAMPLE_CASES.fileWithMetadata)[JUPYTER_DISPLAY]());
  assert.match(csv.text, /First 5 rows \(csv\)/);
  assert.equal(csv.root.querySelectorAll("tbody tr").length, 5);
  const parquet = served.store.file(SAMPLE_CASES.parquetLarge);
  const view = checkView(await parquet[JUPYTER_DISPLAY]());
  if ((await parquet.stat()).size > 16 * 1024 * 1024) {
    assert.match(view.text, /No preview: parquet files are read whole/);
  } else {
    assert.match(view.text, /First 5 rows \(parquet\)/);
  }
  const manifest = await served.store.file(SAMPLE_CASES.fileWithMetadata).manifest();
  const card = checkView(
    await (manifest as unknown as { [JUPYTER_DISPLAY](): Promise<never> })[JUPYTER_DISPLAY](),
  );
  assert.match(card.text, /text\/csv/);
  assert.deepEqual(Object.keys(manifest).sort(), [
    "access",
    "contentType",
    "infoType",
    "publicUrl",
    "url",
    "urls",
  ]);
});

Deno.test("the store, its roots, search documentation and cache show without secrets", async () => {
  await using served = await sample();
  const cacheDir = await Deno.makeTempDir({ prefix: "tern-display-cache-" });
  try {
    const store = connect({
      url: served.server.url,
      token: DEMO_USER.token,
      cacheDir,
      progress: false,
    });
    const card = await store[JUPYTER_DISPLAY]();
    checkView(card);
    for (const shown of Object.values(card)) assert.ok(!shown.includes(DEMO_USER.token));
    const roots = await store.root();
    const table = checkView(
      await (roots as unknown as { [JUPYTER_DISPLAY](): Promise<never> })[JUPYTER_DISPLAY](),
    );
    assert.match(table.text, /Home.*\/iplant\/home\/demo/);
    const docs = await store.searchDocumentation();
    checkView(
      await (docs as unknown as { [JUPYTER_DISPLAY](): Promise<never> })[JUPYTER_DISPLAY](),
    );
    await store.file(SAMPLE_CASES.fileWithMetadata).dataframe();
    const cache = checkView(await store.cache[JUPYTER_DISPLAY]());
    assert.match(cache.text, /1 file, [\d.]+ kB of 5\.00 GB/);
    assert.ok(cache.text.includes(SAMPLE_CASES.fileWithMetadata));
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});
