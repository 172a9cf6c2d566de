import assert from "node:assert/strict";
import { penguins } from "../../lib/sample/datasets/penguins.ts";
import { unemployment } from "../../lib/sample/datasets/unemployment.ts";
import { houseCitation, humanSize, renderReadme, wrap } from "../../lib/sample/readme.ts";
import { VegaDatasets } from "../../lib/sample/vega.ts";

Deno.test("wrap breaks at word boundaries within the width", () => {
  const text = wrap("the quick brown fox jumps over the lazy dog", 10, "  ");
  assert.equal(text, "  the\n  quick\n  brown\n  fox\n  jumps\n  over the\n  lazy dog");
  assert.equal(wrap("a b c d", 5), "a b c\nd");
  assert.equal(wrap("unbreakablewordhere", 5), "unbreakablewordhere");
});

Deno.test("humanSize uses decimal units", () => {
  assert.deepEqual([999, 1000, 13_493_022, 2e9].map(humanSize), [
    "999 B",
    "1.0 kB",
    "13.5 MB",
    "2.0 GB",
  ]);
});

Deno.test("houseCitation prefers the DOI, then the ARK, then the path", () => {
  const cite = (doi: string | null, ark: string | null) =>
    houseCitation(["A, B", "C, D"], "2020", "T", doi, ark, "/iplant/p");
  assert.equal(
    cite("10.1/x", "ark:/1/y"),
    "A, B; C, D (2020). T. CyVerse Data Commons. https://doi.org/10.1/x",
  );
  assert.equal(
    cite(null, "ark:/1/y"),
    "A, B; C, D (2020). T. CyVerse Data Commons. https://n2t.net/ark:/1/y",
  );
  assert.equal(cite(null, null), "A, B; C, D (2020). T. CyVerse Data Commons. /iplant/p");
});

Deno.test("renderReadme lists files with sizes, the citation and honest provenance", async () => {
  const vega = await VegaDatasets.open();
  const text = renderReadme(penguins, [
    { path: "penguins.csv", size: 13_512, note: "Rows", source: "penguins.json" },
  ], vega);
  assert.ok(text.startsWith(`${penguins.title}\n====`));
  assert.match(text, /penguins\.csv +13\.5 kB {2}Rows/);
  assert.match(text, /https:\/\/doi\.org\/10\.25739\/9k2v-7q4m/);
  assert.match(text, /Original source: Palmer Station Antarctica LTER/);
  assert.match(text, /The data and their original\s+creators\s+are real/);
  const invented = renderReadme(unemployment, [], vega);
  assert.match(invented, /Licence: +not specified/);
  assert.match(invented, /the\s+creators\s+named\s+here/);
});
