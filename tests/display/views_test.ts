import assert from "node:assert/strict";
import { renderCache } from "../../lib/display/cache.ts";
import { renderCitation } from "../../lib/display/citation.ts";
import { renderDatasets } from "../../lib/display/datasets.ts";
import { renderManifest } from "../../lib/display/manifest.ts";
import {
  renderLock,
  renderProvenance,
  renderProvenanceDatasets,
  renderProvenanceReads,
} from "../../lib/display/provenance.ts";
import { renderRoots } from "../../lib/display/roots.ts";
import { renderSearchDocs } from "../../lib/display/search_docs.ts";
import { renderStore } from "../../lib/display/store_view.ts";
import { checkView, HOSTILE, HOSTILE_URLS } from "./_safety.ts";

const when = new Date(Date.UTC(2023, 0, 2, 3, 4));

Deno.test("roots: home, community data, shared with me and trash, with base paths", () => {
  const bundle = renderRoots({
    roots: [
      { role: "home", path: "/iplant/home/demo", modified: when, permission: "own" },
      { role: "community", path: "/iplant/home/shared", modified: when, permission: "read" },
      { role: "sharedWithMe", path: "/iplant/home", modified: when, permission: "read" },
      {
        role: "trash",
        path: "/iplant/trash/home/de-irods/demo",
        modified: when,
        permission: "own",
      },
    ],
    basePaths: {
      userHome: "/iplant/home/demo",
      userTrash: "/iplant/trash/home/de-irods/demo",
      baseTrash: "/iplant/trash/home/de-irods",
    },
  });
  const { root } = checkView(bundle);
  const labels = [...root.querySelectorAll("tbody tr")].map((row) =>
    row.querySelector("td")!.textContent
  );
  assert.deepEqual(labels, ["Home", "Community data", "Shared with me", "Trash"]);
  assert.match(bundle["text/plain"], /^Roots — home \/iplant\/home\/demo/);
});

Deno.test("search documentation: clauses sorted, arguments typed, sort fields listed", () => {
  const bundle = renderSearchDocs({
    clauses: {
      size: {
        summary: "Searches based on file size",
        args: { from: { type: "string", summary: "Lower bound" } },
      },
      label: {
        summary: "Searches by label",
        args: {
          label: { type: "string", summary: "The label" },
          exact: { type: "bool", summary: "Exact" },
        },
      },
    },
    sortFields: ["path", "label", "fileSize"],
  });
  const { root } = checkView(bundle);
  const clauses = [...root.querySelectorAll("tbody tr")].map((row) =>
    row.querySelector("b")!.textContent
  );
  assert.deepEqual(clauses, ["label", "size"]);
  assert.match(bundle["text/plain"], /sort by fileSize, label, path/);
  assert.match(bundle["text/plain"], /label\(label: string, exact: bool\) — Searches by label/);
});

Deno.test("a store never shows a secret and says how it is signed in", () => {
  const bundle = renderStore({
    url: "http://127.0.0.1:8080/terrain",
    auth: "password",
    username: "demo",
    credentialsFrom: "environment",
    concurrency: 4,
    retries: 4,
    timeoutMs: 30_000,
    cacheDir: "/home/me/.cache/tern",
    cacheMaxBytes: 5e9,
    offline: false,
    stats: { requests: 12, retries: 1, tokenExchanges: 1, inFlight: 0 },
  });
  const { text, hrefs } = checkView(bundle);
  assert.deepEqual(hrefs, ["http://127.0.0.1:8080/terrain"]);
  assert.match(text, /signed in as demo \(password from the environment\)/);
  assert.match(text, /12 requests, 1 retried, 1 sign-ins/);
  assert.match(bundle["text/plain"], /cache:\s+\/home\/me\/\.cache\/tern, up to 5\.00 GB/);
});

Deno.test("the cache shows how full it is and what it last used", () => {
  const bundle = renderCache({
    enabled: true,
    dir: "/tmp/tern",
    maxBytes: 1_000_000,
    offline: true,
    files: 3,
    bytes: 250_000,
    recent: [{ path: HOSTILE[0], size: 1000, lastUsed: when, format: "csv" }],
  });
  const { text, root } = checkView(bundle);
  assert.equal(root.querySelector(".t-bar span")!.getAttribute("style"), "width:25.0%");
  assert.match(text, /3 files, 250 kB of 1\.00 MB/);
  assert.match(text, /2 more files — store\.cache\.info\(\) lists all/);
  assert.ok(text.includes(HOSTILE[0]));
  assert.equal(
    renderCache({
      enabled: false,
      maxBytes: 0,
      offline: false,
      files: 0,
      bytes: 0,
      recent: [],
    })["text/plain"],
    "Cache — disabled (no local cache)",
  );
});

Deno.test("a manifest says whether the file is public, and links only real URLs", () => {
  const open = renderManifest({
    path: "/iplant/home/shared/a.csv",
    contentType: "text/csv",
    infoType: "csv",
    urls: [{
      label: "anonymous",
      url: "https://data.cyverse.org/dav-anon/iplant/home/shared/a.csv",
    }],
  });
  assert.deepEqual(checkView(open).hrefs.length, 1);
  assert.match(open["text/plain"], /public\n\s+anonymous: https:/);
  const hostile = renderManifest({
    contentType: HOSTILE[0],
    infoType: HOSTILE[1],
    urls: HOSTILE_URLS.map((url) => ({ label: HOSTILE[2], url })),
  });
  const { hrefs, text } = checkView(hostile);
  assert.deepEqual(hrefs, []);
  assert.ok(text.includes(HOSTILE[0]) && text.includes(HOSTILE[1]));
});

Deno.test("a citation is selectable text; other styles are a click away", () => {
  const bundle = renderCitation({
    style: "datacite",
    text: "Immer, F. R. (1934). Barley yields. https://doi.org/10.7946/P2C35G",
    title: "Barley yields",
    url: "https://doi.org/10.7946/P2C35G",
    others: [["bibtex", "@misc{Immer1934Barley,\n}"], ["apa", "Immer (1934)."]],
  });
  const { root, hrefs } = checkView(bundle);
  assert.equal(
    bundle["text/plain"],
    "Immer, F. R. (1934). Barley yields. https://doi.org/10.7946/P2C35G",
  );
  assert.equal(root.querySelector("pre")!.textContent, bundle["text/plain"]);
  assert.deepEqual([...root.querySelectorAll("summary")].map((s) => s.textContent), [
    "Other styles: BibTeX · APA",
  ]);
  assert.deepEqual([...root.querySelectorAll("pre")].map((pre) => pre.textContent), [
    bundle["text/plain"],
    "@misc{Immer1934Barley,\n}",
    "Immer (1934).",
  ]);
  assert.deepEqual(hrefs, ["https://doi.org/10.7946/P2C35G"]);
  const hostile = renderCitation({
    style: HOSTILE[0],
    text: HOSTILE[1],
    title: HOSTILE[2],
    url: HOSTILE_URLS[0],
    others: [[HOSTILE[3], HOSTILE[4]]],
  });
  assert.deepEqual(checkView(hostile).hrefs, []);
});

Deno.test("a dataset list flags shared titles, deprecation and gaps", () => {
  const bundle = renderDatasets({
    path: "/iplant/home/shared/commons_repo/curated",
    rows: [
      {
        name: "NOAA_2016",
        title: "Daily weather",
        year: 2016,
        doi: "10.7946/P2H59V",
        doiUrl: "https://doi.org/10.7946/P2H59V",
        license: "PDDL-1.0",
        deprecated: false,
        duplicateTitle: true,
        missing: [],
      },
      {
        name: "_deprecated_Keeling",
        title: "CO2",
        ark: "ark:/87946/p3x9k1",
        arkUrl: "https://n2t.net/ark:/87946/p3x9k1",
        deprecated: true,
        duplicateTitle: false,
        missing: ["publisher", "doi"],
      },
      {
        name: "Whitfield",
        deprecated: false,
        duplicateTitle: false,
        missing: ["creators", "title", "publicationYear"],
      },
      { name: "Gone", deprecated: false, duplicateTitle: false, missing: [], error: "vanished" },
    ],
    total: 13,
    more: true,
  });
  const { text, hrefs } = checkView(bundle);
  assert.match(text, /showing 4 of 13 datasets/);
  assert.match(text, /same title/);
  assert.match(text, /lacks publisher, DOI/);
  assert.match(text, /lacks 3 fields/);
  assert.match(text, /unreadable/);
  assert.deepEqual(hrefs, ["https://doi.org/10.7946/P2H59V", "https://n2t.net/ark:/87946/p3x9k1"]);
  const hostile = renderDatasets({
    path: HOSTILE[0],
    rows: HOSTILE.map((value) => ({
      name: value,
      title: value,
      license: value,
      doi: value,
      deprecated: false,
      duplicateTitle: false,
      missing: [value],
    })),
    more: false,
  });
  const parsed = checkView(hostile);
  for (const value of HOSTILE) assert.ok(parsed.text.includes(value), value);
});

Deno.test("a manifest's URLs are the frame table: one line each, cut in the middle, whole on hover", () => {
  const long = `https://data.cyverse.org/dav-anon/iplant/home/shared/${"deep/".repeat(20)}a.csv`;
  const bundle = renderManifest({
    path: "/iplant/home/shared/a.csv",
    contentType: "text/csv",
    infoType: "csv",
    urls: [
      { label: "anonymous", url: long },
      { label: "<b>dav</b>", url: "https://data.cyverse.org/dav/iplant/home/shared/a.csv" },
    ],
  });
  const { root, hrefs } = checkView(bundle);
  assert.ok(root.querySelector("table.t-frame") !== null, "the one table renderer");
  assert.deepEqual(hrefs, [long, "https://data.cyverse.org/dav/iplant/home/shared/a.csv"]);
  const cell = root.querySelectorAll("tbody td")[1];
  assert.equal(cell.getAttribute("title"), long);
  assert.equal(cell.textContent, `${long.slice(0, 23)}…${long.slice(-24)}`);
  assert.ok(bundle["text/html"].includes("&lt;b&gt;dav&lt;/b&gt;"));
});

Deno.test("the provenance card lists its files in the frame table: paths cut in the middle, whole on hover", () => {
  const path = `/iplant/home/shared/${"deep/".repeat(20)}<b>a</b>.csv`;
  const bundle = renderProvenance({
    store: "https://de.cyverse.org/terrain",
    files: 1,
    outside: 1,
    changed: 0,
    locked: 0,
    datasets: [],
    reads: [{
      path,
      size: 2048,
      modified: new Date(0),
      hash: "xxh64:0123456789abcdef",
      operations: ["dataframe"],
      status: "read",
    }],
    bibliographies: [],
  });
  const { root } = checkView(bundle);
  assert.ok(root.querySelector("table.t-frame") !== null, "the one table renderer");
  const cell = root.querySelectorAll("tbody td")[0];
  assert.equal(cell.getAttribute("title"), path);
  assert.match(cell.textContent ?? "", /^\/iplant\/home\/shared\/.*….*\/<b>a<\/b>\.csv$/);
});

Deno.test("provenance reads, datasets and a lock: a summary line, the card's tables, every value escaped", () => {
  const hostile = HOSTILE.join(" ");
  const reads = HOSTILE.map((text, index) => ({
    path: `/iplant/home/shared/${text}`,
    size: index * 1000,
    modified: when,
    hash: text,
    operations: [text],
    status: index === 0 ? "changed" : "read",
    dataset: "/iplant/home/shared",
  }));
  const datasets = HOSTILE_URLS.map((url, index) => ({
    path: `/iplant/home/shared/${HOSTILE[index % HOSTILE.length]}`,
    title: hostile,
    doi: HOSTILE[index % HOSTILE.length],
    url,
    files: index,
    citedBy: "doi" as const,
  }));
  const bundles = [
    renderProvenanceReads(reads),
    renderProvenanceDatasets(datasets),
    renderLock({
      file: `/tmp/${hostile}.json`,
      store: "https://de.cyverse.org/terrain",
      tern: HOSTILE[1],
      datasets,
      files: reads.map(({ status: _status, ...read }) => read),
    }),
  ];
  const [reading, citing, locking] = bundles.map((bundle) => bundle["text/plain"].split("\n")[0]);
  assert.equal(
    reading,
    `${HOSTILE.length} file versions read; 1 changed since the lock (read anyway)`,
  );
  assert.equal(citing, `${HOSTILE_URLS.length} datasets: ${HOSTILE_URLS.length} with a DOI`);
  assert.ok(
    locking.startsWith(
      `Lock of ${HOSTILE.length} files from ${HOSTILE_URLS.length} datasets, written to /tmp/`,
    ),
    locking,
  );
  for (const bundle of bundles) {
    const view = checkView(bundle);
    assert.deepEqual(view.hrefs, [], "no hostile URL becomes a link");
    assert.equal(view.root.querySelectorAll("script").length, 0);
    assert.ok(view.text.includes("<script>alert(1)</script>"), "markup shows as text");
    assert.ok(!bundle["text/plain"].includes("\u001b"), "control characters escaped");
    assert.ok(!bundle["text/plain"].includes("\u202E"), "bidi overrides escaped");
  }
  // A lock's entries have no status: no status column.
  assert.doesNotMatch(bundles[2]["text/plain"], /status/);
  assert.match(bundles[0]["text/plain"], /^ {2}path .* status$/m);
});

Deno.test("provenance datasets and reads: none is a sentence, not an empty table", () => {
  const none = [renderProvenanceReads([]), renderProvenanceDatasets([])];
  assert.deepEqual(none.map((bundle) => bundle["text/plain"]), [
    "0 file versions read",
    "0 datasets",
  ]);
  for (const bundle of none) {
    assert.equal(checkView(bundle).root.querySelectorAll("table").length, 0);
  }
});
