import assert from "node:assert/strict";
import { BadRequestError, NotFoundError, savedSearchQuery } from "../../mod.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../../lib/display/bundle.ts";
import { exampleStore } from "../../lib/sample/example.ts";
import { PATHS, serve, writeFile } from "./_store.ts";

Deno.test("saved searches: typed templates with a view; each sample template runs", async () => {
  await using store = await exampleStore();
  const saved = await store.savedSearches();
  assert.equal(saved.length, 4);
  assert.equal(saved[1].saved, true); // a field tern does not type, kept
  const view = await (saved as unknown as { [JUPYTER_DISPLAY](): Promise<MediaBundle> })
    [JUPYTER_DISPLAY]();
  assert.match(view["text/plain"], /Saved searches — 4 searches/);
  const found: Record<string, string[]> = {};
  for (const search of saved) {
    found[search.label] = (await store.runSavedSearch(search.label).toArray())
      .map((hit) => hit.path);
  }
  assert.ok(found["Penguin tables"].length > 0);
  assert.ok(found["Penguin tables"].every((path) => /penguin[^/]*$/i.test(path)));
  assert.deepEqual(
    found["Large Parquet files"].map((path) => path.slice(path.lastIndexOf("/") + 1)),
    ["flights_3m.parquet"],
  );
  assert.ok(found["CC0 datasets"].length > 0);
  assert.ok(found["My files from 2024"].every((path) => path.startsWith("/iplant/home/demo")));
  assert.ok(found["My files from 2024"].length > 0);
});

Deno.test("saved searches: translated as the Discovery Environment's query builder did", () => {
  const trash = "/iplant/trash/home/de-irods";
  assert.deepEqual(
    savedSearchQuery({
      label: "everything",
      fileQuery: "*.fastq",
      negatedFileQuery: "*.tmp",
      ownedBy: "jdoe",
      sharedWith: "alice",
      createdWithin: { label: "2021", from: "1609459200000", to: "1640995199000" },
      modifiedWithin: { from: "1609459200000" }, // no label: the DE left it out
      fileSizeRange: { min: 1, minUnit: { unit: "KB", label: "KB" }, max: 2, maxUnit: "GB" },
      metadataAttributeQuery: "subject",
      metadataValueQuery: "maize",
      tagQuery: "t-1",
      includeTrashItems: true,
      pathPrefix: "/iplant/home/jdoe",
    }, trash),
    {
      all: [
        { type: "owner", args: { owner: "jdoe" } },
        { type: "permissions", args: { users: ["alice"], permission: "read" } },
        { type: "created", args: { from: "1609459200000", to: "1640995199000" } },
        { type: "label", args: { label: "*.fastq" } },
        { type: "size", args: { from: "1.0KB", to: "2.0GB" } },
        { type: "metadata", args: { attribute: "subject", value: "maize" } },
        { type: "tag", args: { tags: ["t-1"] } },
      ],
      any: [
        { type: "path", args: { prefix: trash } },
        { type: "path", args: { prefix: "/iplant/home" } },
      ],
      none: [{ type: "label", args: { label: "*.tmp" } }],
    },
  );
});

Deno.test("saved searches: a template that cannot be translated names its field", async () => {
  await using served = await serve();
  await writeFile(
    `${served.root}/.terrain/saved-searches/demo.json`,
    JSON.stringify([
      { label: "no unit", fileSizeRange: { min: 3 } },
      { label: "bad date", modifiedWithin: { label: "then", from: "last week" } },
      { label: "nothing", pathPrefix: PATHS.home },
      { label: "tables", fileQuery: "*.csv", includeTrashItems: false },
    ]),
  );
  const store = served.demo();
  const refused: [string, RegExp][] = [
    ["no unit", /"no unit" cannot be run: its fileSizeRange\.minUnit is missing/],
    ["bad date", /"bad date" cannot be run: its modifiedWithin\.from is "last week"/],
    ["nothing", /"nothing" cannot be run: its fields hold no criteria/],
  ];
  for (const [name, message] of refused) {
    await assert.rejects(store.runSavedSearch(name).toArray(), (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.match(error.message, message);
      return true;
    });
  }
  // Lazy, as a search is: nothing is asked until the hits are, and then the error comes.
  const before = store.stats.requests;
  const missing = store.runSavedSearch("missing");
  assert.equal(store.stats.requests, before);
  assert.equal(String(missing), "SearchListing(missing)");
  await assert.rejects(missing.count(), (error: unknown) => {
    assert.ok(error instanceof NotFoundError);
    assert.match(
      error.message,
      /No saved search is named "missing"; the saved searches are "no unit"/,
    );
    return true;
  });
  // A notebook shows the error as the listing's view.
  assert.match((await missing[JUPYTER_DISPLAY]())["text/plain"], /NotFoundError/);
  // Chained with no await of its own, as store.search() is (it needed two before).
  const [first] = await store.runSavedSearch("tables").take(1);
  assert.ok(first.name.endsWith(".csv"));
  const tables = await store.runSavedSearch("tables").toArray();
  assert.ok(tables.length > 0);
  assert.ok(
    tables.every((hit) => hit.name.endsWith(".csv") && hit.path.startsWith("/iplant/home/")),
  );
});
