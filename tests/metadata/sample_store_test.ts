/**
 * The normaliser against the sample store (lib/sample), built into a temporary folder and
 * served by the embedded server: every sample dataset's title, creators, year, DOI, ARK and
 * licence must match what `SAMPLE_DATASETS` says it carries.
 */

import assert from "node:assert/strict";
import { startServer } from "../../server.ts";
import { connect } from "../../mod.ts";
import {
  CURATED_PATH,
  ensureSampleStore,
  SAMPLE_CASES,
  SAMPLE_DATASETS,
} from "../../lib/sample/mod.ts";

const USGS_TERMS = "USGS-authored or produced data and information are considered to be in the " +
  "U.S. public domain. While the content of this dataset is in the public domain, we ask " +
  "that you credit the U.S. Geological Survey Earthquake Hazards Program as the source and " +
  "note that real-time feed values (locations, magnitudes) are preliminary and may be " +
  "revised after review. No warranty, expressed or implied, is made regarding accuracy.";

/** The SPDX id each licence spelling of the sample store must get (undefined: none). */
const LICENSE_IDS: Record<string, string | undefined> = {
  [USGS_TERMS]: undefined,
  "CC0": "CC0-1.0",
  "ODC PDDL": "PDDL-1.0",
  "CC BY 4.0": "CC-BY-4.0",
  "CC-BY-NC-4.0": "CC-BY-NC-4.0",
  "Creative Commons Attribution 4.0 International": "CC-BY-4.0",
  "data: ODC PDDL, code: GPLv3": "PDDL-1.0 AND GPL-3.0-only",
  "No restrictions for the use of these data following publication.": undefined,
  "This data is made available under the Public Domain Dedication and License v1.0 whose full text can be found at: http://www.opendatacommons.org/licenses/pddl/1.0/":
    "PDDL-1.0",
};

Deno.test("sample store: every dataset normalises to what SAMPLE_DATASETS describes", async (t) => {
  // The shared sample store (built once per machine, read by the examples too): only read here.
  const root = await ensureSampleStore();
  const server = await startServer({ root, port: 0, quiet: true });
  try {
    const store = connect({ url: server.url, anonymous: true });

    await t.step("title, creators, year, DOI, ARK, licence, deprecated", async () => {
      for (const sample of SAMPLE_DATASETS) {
        const metadata = await store.dataset(sample.path).metadata();
        const fromAvus = sample.style !== "none";
        const hasYear = fromAvus && sample.style !== "partial";
        assert.deepEqual(
          {
            title: metadata.title,
            creators: metadata.creators.map((creator) => creator.name),
            year: metadata.publicationYear,
            doi: metadata.doi,
            ark: metadata.ark,
            deprecated: metadata.deprecated,
          },
          {
            title: fromAvus ? sample.title : undefined,
            creators: fromAvus ? [...sample.creators] : [],
            year: hasYear ? Number(sample.year) : undefined,
            doi: sample.doi ?? undefined,
            ark: sample.ark ?? undefined,
            deprecated: sample.deprecated,
          },
          sample.name,
        );
        if (sample.license === null || sample.license === "") {
          assert.equal(metadata.license, undefined, sample.name);
        } else {
          assert.ok(sample.license in LICENSE_IDS, `add ${sample.license} to LICENSE_IDS`);
          assert.equal(metadata.license?.id, LICENSE_IDS[sample.license], sample.name);
          if (metadata.license?.confidence === "unknown") {
            assert.equal(metadata.license.name, sample.license);
          }
        }
        const citation = await metadata.citation();
        const link = sample.doi !== null
          ? `https://doi.org/${sample.doi}`
          : sample.ark !== null
          ? `https://n2t.net/${sample.ark}`
          : sample.path;
        assert.ok(citation.endsWith(link), `${sample.name}: ${citation}`);
      }
    });

    await t.step(
      "the full-metadata dataset keeps its raw AVUs; the flat one notes what it could not pair",
      async () => {
        const penguins = await store.dataset(SAMPLE_CASES.fullMetadata).metadata();
        assert.equal(penguins.path, SAMPLE_CASES.fullMetadata);
        assert.ok(penguins.avus.some((avu) => avu.attr === "title"));
        assert.deepEqual(penguins.missing, []);
        assert.equal(penguins.license?.confidence, "exact");
        assert.deepEqual(penguins.contributors.map((c) => c.type), [
          "DataCurator",
          "ContactPerson",
        ]);
        const flat = await store.dataset(SAMPLE_CASES.flatTemplate).metadata();
        assert.equal(flat.sources.creators, "datacite.creator");
        assert.equal(flat.notes.length, 1);
      },
    );

    await t.step(
      "catalog of the curated folder: the two same-title versions are flagged",
      async () => {
        const frame = await store.folder(CURATED_PATH).catalog();
        const curated = SAMPLE_DATASETS.filter((sample) => sample.path.startsWith(CURATED_PATH));
        assert.equal(frame.height, curated.length);
        const flagged = (frame.toRecords() as { path: string; duplicateTitle: boolean }[])
          .filter((row) => row.duplicateTitle).map((row) => row.path).sort();
        assert.deepEqual(flagged, [...SAMPLE_CASES.sameTitle].sort());
      },
    );
  } finally {
    await server.close();
  }
});
