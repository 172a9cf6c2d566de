import assert from "node:assert/strict";
import * as tern from "../../mod.ts";
import { PATHS, serve } from "./_store.ts";

Deno.test("mod.ts exports the public API and nothing from the internals", () => {
  assert.deepEqual(
    Object.keys(tern).sort(),
    [
      "AmbiguousNameError",
      "verifyLock",
      "readLock",
      "lockCrate",
      "lockText",
      "parseLock",
      "makeBibliography",
      "joinCitations",
      "Provenance",
      "LockError",
      "DataChangedError",
      "Bibliography",
      "AuthError",
      "BadRequestError",
      "CITATION_STYLES",
      "SEARCH_SORT_FIELDS",
      "CITATION_STYLE_LIST",
      "CacheMissError",
      "ChecksumMismatchError",
      "Citation",
      "ContentError",
      "CorruptCopyError",
      "Dataset",
      "DatasetMetadata",
      "File",
      "FileChangedError",
      "Folder",
      "Handle",
      "IntegrityError",
      "JUPYTER_DISPLAY",
      "ListingChangedError",
      "LocalFileError",
      "Listing",
      "NetworkError",
      "NotFoundError",
      "OtherStoreError",
      "ParseError",
      "PermissionError",
      "READ_OPERATIONS",
      "ProgressChannel",
      "ProtocolError",
      "RequestTooLargeError",
      "ResponseTooLargeError",
      "SUPPORTED_FORMATS",
      "ENCODINGS",
      "JSON_LAYOUTS",
      "TABLE_FORMAT_ENTRIES",
      "SearchBuilder",
      "SearchDisabledError",
      "SearchListing",
      "ServerError",
      "SignInRequiredError",
      "Store",
      "TernError",
      "TlsError",
      "UnsupportedFormatError",
      "VERSION",
      "arkUrl",
      "connect",
      "doiUrl",
      "engineSnippets",
      "escapeHtml",
      "isAbortError",
      "loadPlot",
      "manifestFormatOf",
      "namesDataset",
      "normalizeArk",
      "normalizeDoi",
      "normalizeMetadata",
      "normalizeOrcid",
      "parseName",
      "checkSearchQuery",
      "savedSearchQuery",
      "search",
      "describeVersion",
      "sameVersion",
      "setFrameView",
      "snippetPlan",
      "view",
      "writeManifest",
    ].sort(),
  );
  for (const error of [tern.ContentError, tern.ListingChangedError, tern.NotFoundError]) {
    assert.ok(new error("x") instanceof tern.TernError);
  }
  assert.ok(new tern.SignInRequiredError("x") instanceof tern.AuthError);
  assert.equal(typeof tern.VERSION, "string");
  assert.ok(
    tern.connect({ url: "http://127.0.0.1:9/terrain", anonymous: true }) instanceof tern.Store,
  );
});

Deno.test("every public call that takes options refuses an unknown one before any request, naming the call", async () => {
  await using served = await serve();
  let requests = 0;
  const store = served.demo({ fetch: (input, init) => (requests++, fetch(input, init)) });
  const file = store.file(PATHS.table);
  const folder = store.folder(PATHS.public);
  const dataset = store.dataset(PATHS.public);
  const listing = folder.list();
  const { provenance } = store;
  const lock: tern.Lock = {
    lock: "tern lock",
    format: 1,
    tern: tern.VERSION,
    store: store.options.url,
    datasets: [],
    files: [],
  };
  const bogus = { bogus: 1 } as never;
  const calls: [string, () => unknown][] = [
    ["connect()", () => tern.connect({ url: served.url, ...(bogus as object) })],
    ["file.dataframe()", () => file.dataframe(bogus)],
    ["file.head()", () => file.head(1, bogus)],
    ["file.batches()", () => file.batches(bogus)],
    ["file.cachedPath()", () => file.cachedPath(bogus)],
    ["file.scan()", () => file.scan(bogus)],
    ["file.stream()", () => file.stream(bogus)],
    ["file.bytes()", () => file.bytes(bogus)],
    ["file.text()", () => file.text(bogus)],
    ["file.json()", () => file.json(bogus)],
    ["file.manifest()", () => file.manifest(bogus)],
    ["file.downloadTo()", () => file.downloadTo(`${served.root}/never.csv`, bogus)],
    ["file.openInline()", () => file.openInline(bogus)],
    ["file.stat()", () => file.stat(bogus)],
    ["file.metadata()", () => file.metadata(bogus)],
    ["file.comments()", () => file.comments(bogus)],
    ["folder.folders()", () => folder.folders(bogus)],
    ["folder.list()", () => folder.list(bogus)],
    ["folder.walk()", () => folder.walk(bogus)],
    ["folder.datasets()", () => folder.datasets(bogus)],
    ["folder.catalog()", () => folder.catalog(bogus)],
    ["folder.stat()", () => folder.stat(bogus)],
    ["dataset.metadata()", () => dataset.metadata(bogus)],
    ["dataset.citation()", () => dataset.citation("apa", bogus)],
    ["listing.dataframes()", () => listing.dataframes(bogus)],
    ["listing.scan()", () => listing.scan(bogus)],
    ["listing.manifest()", () => listing.manifest(bogus)],
    ["store.resolve()", () => store.resolve(PATHS.table, bogus)],
    ["store.entry()", () => store.entry(PATHS.table, bogus)],
    ["store.root()", () => store.root(bogus)],
    ["store.savedSearches()", () => store.savedSearches(bogus)],
    ["store.searchDocumentation()", () => store.searchDocumentation(bogus)],
    ["store.search()", () => store.search(tern.search.under(PATHS.home), bogus)],
    ["store.runSavedSearch()", () => store.runSavedSearch("csv", bogus)],
    ["search.dataframes()", () => store.search(tern.search.under(PATHS.home)).dataframes(bogus)],
    ["search.manifest()", () => store.search(tern.search.under(PATHS.home)).manifest(bogus)],
    ["provenance.datasets()", () => provenance.datasets(bogus)],
    ["provenance.bibliography()", () => provenance.bibliography("apa", bogus)],
    ["provenance.lock()", () => provenance.lock(bogus)],
    ["provenance.save()", () => provenance.save(`${served.root}/never.lock.json`, bogus)],
    ["provenance.toDataFrame()", () => provenance.toDataFrame(bogus)],
    ["verifyLock()", () => tern.verifyLock(store, lock, bogus)],
  ];
  for (const [call, run] of calls) {
    const error = await (async () => await run())().then(() => undefined, (error) => error);
    assert.ok(error instanceof tern.BadRequestError, `${call}: ${error}`);
    assert.ok(
      error.message.startsWith(`${call}: unknown option "bogus"; the options are `),
      error.message,
    );
  }
  assert.equal(requests, 0);
  assert.equal(served.server.stats().requests, 0);
  await assert.rejects(Deno.stat(`${served.root}/never.csv`), Deno.errors.NotFound);
});
