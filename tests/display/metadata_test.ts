import assert from "node:assert/strict";
import {
  type MetadataView,
  renderMetadata,
  renderRawMetadata,
} from "../../lib/display/metadata.ts";
// The public entry: it loads the handles layer, which gives metadata records their view.
import { normalizeMetadata } from "../../mod.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { checkView, HOSTILE, HOSTILE_URLS, LONG } from "./_safety.ts";

Deno.test("each normalised field is shown beside the attribute it came from", async () => {
  const metadata = await normalizeMetadata({
    path: "/iplant/home/shared/commons_repo/curated/Immer_BarleyVarietyTrials_Jun2018",
    avus: [
      { attr: "datacite.title", value: "Yields of barley varieties" },
      { attr: "datacite.creator", value: "Immer, F. R." },
      { attr: "datacite.publicationyear", value: "1934" },
      {
        attr: "Identifier",
        value: "10.7946/P2C35G",
        avus: [{ attr: "identifierType", value: "DOI" }],
      },
    ],
  });
  const bundle = metadata[JUPYTER_DISPLAY]();
  const { root, text } = checkView(bundle);
  const rows = [...root.querySelectorAll("table")[0].querySelectorAll("tbody tr")].map((row) =>
    [...row.querySelectorAll("td")].map((cell) => cell.textContent)
  );
  assert.deepEqual(rows.find((row) => row[0] === "title"), [
    "title",
    "Yields of barley varieties",
    "datacite.title",
  ]);
  assert.deepEqual(rows.find((row) => row[0] === "doi"), ["doi", "10.7946/P2C35G", "Identifier"]);
  assert.match(text, /Citation lacks publisher/);
  // The nested identifierType sits one level in, under its parent.
  const nested = root.querySelector("td.t-d1")!;
  assert.match(nested.textContent!, /identifierType/);
  assert.match(bundle["text/plain"], /^Metadata: Yields of barley varieties/);
  assert.match(
    bundle["text/plain"],
    /\n {4}Identifier = 10\.7946\/P2C35G\n {6}identifierType = DOI/,
  );
});

Deno.test("hostile AVUs and links stay inert, and huge metadata is bounded", () => {
  const avus = HOSTILE.map((value) => ({
    attr: value,
    value,
    unit: value,
    avus: [{ attr: value, value: LONG, avus: [{ attr: "deeper", value }] }],
  }));
  const view: MetadataView = {
    path: `/iplant/home/${HOSTILE[0]}`,
    title: HOSTILE[1],
    creators: [{ name: HOSTILE[2], orcid: HOSTILE[3] }],
    subjects: [...HOSTILE],
    contributors: [{ name: HOSTILE[4], type: HOSTILE[5] }],
    relatedIdentifiers: HOSTILE_URLS.map((url) => ({
      identifier: url,
      url,
      relationType: HOSTILE[6],
    })),
    funding: [{ funderName: HOSTILE[7], awardNumber: HOSTILE[8] }],
    license: { name: HOSTILE[9], url: HOSTILE_URLS[3], confidence: "unknown" },
    description: LONG,
    deprecated: false,
    missing: ["doi"],
    sources: { title: HOSTILE[10] },
    notes: [...HOSTILE],
    raw: {
      avus: [...avus, ...Array.from({ length: 500 }, (_, i) => ({ attr: `a${i}`, value: "v" }))],
      irodsAvus: avus,
    },
  };
  const bundle = renderMetadata(view);
  const { text, hrefs } = checkView(bundle);
  for (const value of HOSTILE) assert.ok(text.includes(value), value);
  for (const href of hrefs) assert.match(href, /^https:\/\/orcid\.org\//);
  assert.match(text, /more AVUs — see metadata\.raw/);
  assert.ok(bundle["text/html"].length < 400_000, `${bundle["text/html"].length} bytes`);
});

Deno.test("an item's raw metadata shows its AVUs, and says when it has none", () => {
  const none = checkView(
    renderRawMetadata({ path: "/iplant/home/demo/a.csv", avus: [], irodsAvus: [] }),
  );
  assert.match(none.text, /No metadata: the item carries no AVUs\./);
  const some = renderRawMetadata({
    path: "/iplant/home/demo/a.csv",
    avus: [{ attr: "description", value: "A small table", unit: "" }],
    irodsAvus: [{ attr: "ipc-filetype", value: "csv", unit: "" }],
  });
  checkView(some);
  assert.equal(
    some["text/plain"],
    "Metadata of /iplant/home/demo/a.csv — 1 AVU, 1 iRODS AVU\n    description = A small table\n  iRODS:\n    ipc-filetype = csv",
  );
});
