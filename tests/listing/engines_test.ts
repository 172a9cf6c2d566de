import assert from "node:assert/strict";
import { engineSnippets, snippetPlan } from "../../lib/listing/engines.ts";
import pl from "../../polars.ts";

const DOCS = await Deno.readTextFile(new URL("../../docs/engines.md", import.meta.url));

/** The fenced Python blocks of docs/engines.md, in order. */
function pythonBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```python\n([^]*?)^```$/gm)].map((match) => match[1]);
}

Deno.test("engines: docs/engines.md shows the code the Dask test runs, and says the rest is untested", () => {
  const snippets = engineSnippets({
    manifest: "manifest.csv",
    format: "csv",
    public: true,
    token: true,
  });
  const blocks = pythonBlocks(DOCS);
  // Dask, DuckDB and Python Polars exactly as tern gives them, then Spark.
  assert.deepEqual(blocks.slice(0, 3), snippets.map((snippet) => snippet.code));
  assert.deepEqual(snippets.map((snippet) => snippet.tested), [true, false, false]);
  for (const block of blocks) {
    if (block !== snippets[0].code) assert.match(block, /^# Untested: no tern test runs this code/);
  }
});

Deno.test("engines: the code for a manifest holds only what its files need, and never a token", () => {
  const publicOnly = engineSnippets({
    manifest: "m.csv",
    format: "csv",
    public: true,
    token: false,
  });
  for (const snippet of publicOnly) {
    assert.ok(!snippet.code.includes("TERRAIN_TOKEN"), snippet.engine);
    assert.ok(!snippet.code.includes("token_urls"), snippet.engine);
    assert.ok(snippet.code.includes('"m.csv"'), snippet.engine);
  }
  const privateOnly = engineSnippets({
    manifest: "m.csv",
    format: "csv",
    public: false,
    token: true,
  });
  for (const snippet of privateOnly) {
    assert.ok(snippet.code.includes('os.environ["TERRAIN_TOKEN"]'), snippet.engine);
    assert.ok(!snippet.code.includes("public_urls"), snippet.engine);
  }
  // Dask reads private Parquet nowhere: it says to stage those files instead.
  const [parquet] = engineSnippets({
    manifest: "m.csv",
    format: "parquet",
    public: true,
    token: true,
  });
  assert.ok(!parquet.tested);
  assert.match(parquet.code, /^# Untested/);
  assert.match(parquet.code, /dd\.read_parquet\(public_urls\)/);
  assert.match(parquet.code, /tern get -r/);
  assert.ok(!parquet.code.includes("TERRAIN_TOKEN"));
});

Deno.test("engines: the plan follows the manifest's main table format and access kinds", () => {
  const manifest = pl.DataFrame({
    format: ["csv", "csv", "parquet", null],
    access: ["token", "token", "public", "public"],
  });
  assert.deepEqual(snippetPlan(manifest, "x.csv"), {
    manifest: "x.csv",
    format: "csv",
    public: false,
    token: true,
  });
  // Even with no table at all, the code reads public files (it finds none rather than failing).
  const none = pl.DataFrame({ format: [null], access: ["public"] }, {
    schema: { format: pl.Utf8, access: pl.Utf8 },
  });
  assert.equal(engineSnippets(snippetPlan(none))[0].code.includes("public_urls"), true);
});
