import assert from "node:assert/strict";
import { type DatasetCardView, licenseBadge, renderDataset } from "../../lib/display/dataset.ts";
import { checkView, HOSTILE, HOSTILE_URLS, LONG, parseBody } from "./_safety.ts";

const PATH = "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020";

function view(overrides: Partial<DatasetCardView["metadata"]> = {}): DatasetCardView {
  return {
    path: PATH,
    name: "Gorman_PalmerPenguins_Morphometrics_2020",
    metadata: {
      title: "Palmer Archipelago (Antarctica) penguin size measurements, 2007-2009",
      creators: [
        { name: "Gorman, Kristen B.", orcid: "0000-0002-0258-9264", affiliation: "Palmer LTER" },
        { name: "Williams, Tony D." },
      ],
      publicationYear: 2020,
      publisher: "CyVerse Data Commons",
      version: "1.0",
      doi: "10.25739/9k2v-7q4m",
      ark: "ark:/87946/p3x9k1",
      // The views take ready-made links (the handles build them from the identifiers).
      doiUrl: "https://doi.org/10.25739/9k2v-7q4m",
      arkUrl: "https://n2t.net/ark:/87946/p3x9k1",
      license: {
        id: "CC0-1.0",
        name: "Creative Commons Zero v1.0 Universal",
        url: "https://creativecommons.org/publicdomain/zero/1.0/",
        confidence: "exact",
      },
      subjects: ["penguins", "Antarctica"],
      description: "Body size measurements.",
      deprecated: false,
      missing: [],
      ...overrides,
    },
    hasMetadata: true,
    citation:
      "Gorman, K. B., Williams, T. D. (2020). Palmer penguins. https://doi.org/10.25739/9k2v-7q4m",
    contents: {
      entries: [
        {
          name: "penguins.csv",
          type: "file",
          size: 13_478,
          modified: new Date(0),
          infoType: "csv",
        },
        { name: "derived", type: "folder", size: 0, modified: new Date(0), infoType: null },
      ],
      total: 2,
    },
    duplicates: [],
  };
}

Deno.test("the card links the DOI and ARK through their resolvers and the licence to its text", () => {
  const { hrefs, text, root } = checkView(renderDataset(view()));
  assert.deepEqual(hrefs.sort(), [
    "https://creativecommons.org/publicdomain/zero/1.0/",
    "https://doi.org/10.25739/9k2v-7q4m",
    "https://n2t.net/ark:/87946/p3x9k1",
    "https://orcid.org/0000-0002-0258-9264",
  ]);
  assert.match(text, /Citation complete/);
  assert.match(text, /1 file \(13\.5 kB\) · 1 folder: derived\//);
  assert.equal(root.querySelectorAll(".t-chip").length >= 2, true);
  // The citation is plain selectable text in a <pre>, not a widget.
  const pre = root.querySelector("pre")!;
  assert.equal(pre.textContent, view().citation);
  assert.equal(root.querySelector("details summary")!.textContent, "Description (23 characters)");
});

Deno.test("the plain-text card carries the same facts", () => {
  const text = renderDataset(view())["text/plain"];
  assert.match(text, /^Dataset: Palmer Archipelago/);
  assert.match(text, /DOI:\s+https:\/\/doi\.org\/10\.25739\/9k2v-7q4m/);
  assert.match(text, /license:\s+CC0-1\.0 \(exact\)/);
  assert.match(text, /cite:\n {4}Gorman, K\. B\./);
});

Deno.test("no metadata, missing fields, deprecation and shared titles are flagged", () => {
  const bare = renderDataset({
    ...view({
      title: undefined,
      creators: [],
      doi: undefined,
      ark: undefined,
      doiUrl: undefined,
      arkUrl: undefined,
      license: undefined,
      subjects: [],
      description: undefined,
      publicationYear: undefined,
      publisher: undefined,
      version: undefined,
      missing: ["creators", "title", "publicationYear", "publisher", "doi"],
    }),
    hasMetadata: false,
  });
  const parsed = checkView(bare);
  assert.match(parsed.text, /No metadata/);
  assert.match(parsed.text, /carries no metadata/);
  assert.match(parsed.text, /none stated/);
  assert.doesNotMatch(parsed.text, /Citation lacks/);
  assert.match(bare["text/plain"], /! no metadata/);

  const flagged = renderDataset({
    ...view({ deprecated: true, missing: ["publisher", "doi"] }),
    duplicates: [{ path: `${PATH}_v2`, name: "Gorman_v2" }],
  });
  const { text } = checkView(flagged);
  assert.match(text, /Deprecated/);
  assert.match(text, /Same title as Gorman_v2/);
  assert.match(text, /Citation lacks publisher, DOI/);
  assert.match(
    flagged["text/plain"],
    /! deprecated; same title as Gorman_v2; citation lacks publisher, DOI/,
  );
});

Deno.test("hostile metadata stays text, and hostile links are not links", () => {
  const bundle = renderDataset({
    ...view({
      title: HOSTILE[0],
      creators: HOSTILE.map((name) => ({ name, affiliation: HOSTILE[1], orcid: HOSTILE[2] })),
      publisher: HOSTILE[3],
      version: HOSTILE[4],
      doi: HOSTILE[1],
      ark: HOSTILE[5],
      // Links handed in ready-made are still checked: a script or foreign-scheme URL is no link.
      doiUrl: HOSTILE_URLS[1],
      arkUrl: HOSTILE_URLS[3],
      license: { name: HOSTILE[6], url: HOSTILE_URLS[0], confidence: "unknown" },
      subjects: [...HOSTILE],
      description: LONG,
      resourceTypeGeneral: HOSTILE[2],
    }),
    citation: HOSTILE.join(" "),
    duplicates: [{ path: HOSTILE[1], name: HOSTILE[0] }],
  });
  const { text, hrefs, root } = checkView(bundle);
  for (const value of HOSTILE) assert.ok(text.includes(value), value);
  // The ORCID is a hostile string: its link goes to orcid.org with the value encoded, never elsewhere.
  for (const href of hrefs) assert.match(href, /^https:\/\/orcid\.org\//);
  assert.equal(root.querySelector("pre")!.textContent, HOSTILE.join(" "));
  assert.ok(bundle["text/html"].length < 60_000, `${bundle["text/html"].length} bytes`);
  assert.match(text, /more characters/);
});

Deno.test("the licence badge says how sure the identification is", () => {
  const guess = parseBody(
    licenseBadge({ id: "PDDL-1.0", name: "ODC PDDL", confidence: "guess" }).toString(),
  ).children[0];
  assert.equal(guess.getAttribute("class"), "t-badge t-guess");
  assert.equal(guess.textContent, "licensePDDL-1.0?");
  const unknown = parseBody(
    licenseBadge({ name: "No restrictions for the use of these data.", confidence: "unknown" })
      .toString(),
  ).children[0];
  assert.equal(unknown.getAttribute("class"), "t-badge t-unknown");
  assert.match(unknown.getAttribute("title")!, /no SPDX identifier/);
});
