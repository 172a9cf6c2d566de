/**
 * The fixture corpus (45 datasets, three template generations) written as a store, served by
 * the embedded server, and checked end to end through `store.dataset(path).metadata()`,
 * `citation()`, `folder.datasets()` and `folder.catalog()` against hand-written expectations.
 */

import assert from "node:assert/strict";
import { startServer } from "../../server.ts";
import { connect, type DatasetMetadata } from "../../mod.ts";
import { CITATION_STYLES } from "../../lib/metadata/citation.ts";
import { CORPUS, type CorpusDataset, CURATED, SAME_TITLE } from "./fixtures/corpus.ts";

/** The folder date the server reports for corpus dataset `index`. */
function folderDate(index: number): Date {
  return new Date(Date.UTC(2015, 0, 1) + index * 30 * 86_400_000);
}

async function writeCorpus(root: string): Promise<void> {
  for (const [index, dataset] of CORPUS.entries()) {
    const folder = `${root}${CURATED}/${dataset.name}`;
    await Deno.mkdir(folder, { recursive: true });
    await Deno.writeTextFile(`${folder}/README.txt`, `${dataset.name}\n`);
    if (dataset.avus !== null) {
      const sidecar = dataset.irodsAvus === undefined
        ? dataset.avus
        : { avus: dataset.avus, "irods-avus": dataset.irodsAvus };
      await Deno.writeTextFile(`${folder}/.avus.json`, JSON.stringify(sidecar, null, 2));
    }
    // Writing the sidecar touched the folder: set the date the server will report.
    await Deno.utime(folder, folderDate(index), folderDate(index));
  }
}

/** The parts of a record the corpus states, with the corpus's defaults. */
function observed(metadata: DatasetMetadata, citation: string, expected: CorpusDataset["expect"]) {
  return {
    title: metadata.title,
    creators: metadata.creators.map((creator) => creator.name),
    publicationYear: metadata.publicationYear,
    publisher: metadata.publisher,
    doi: metadata.doi,
    ark: metadata.ark,
    subjects: [...metadata.subjects],
    license: metadata.license === undefined
      ? undefined
      : metadata.license.id === undefined
      ? { confidence: metadata.license.confidence }
      : { id: metadata.license.id, confidence: metadata.license.confidence },
    version: metadata.version,
    ...(expected.resourceTypeGeneral === undefined
      ? {}
      : { resourceTypeGeneral: metadata.resourceTypeGeneral }),
    deprecated: metadata.deprecated,
    dateModified: metadata.dateModified?.toISOString(),
    missing: [...metadata.missing],
    notes: [...metadata.notes],
    citation,
  };
}

function wanted(expected: CorpusDataset["expect"], index: number) {
  return {
    title: expected.title,
    creators: expected.creators ?? [],
    publicationYear: expected.publicationYear,
    publisher: expected.publisher,
    doi: expected.doi,
    ark: expected.ark,
    subjects: expected.subjects ?? [],
    license: expected.license,
    version: expected.version,
    ...(expected.resourceTypeGeneral === undefined
      ? {}
      : { resourceTypeGeneral: expected.resourceTypeGeneral }),
    deprecated: expected.deprecated ?? false,
    dateModified: expected.dateModified ?? folderDate(index).toISOString(),
    missing: expected.missing,
    notes: expected.notes ?? [],
    citation: expected.citation,
  };
}

Deno.test("metadata corpus end to end through the embedded server", async (t) => {
  assert.ok(CORPUS.length >= 40);
  for (const generation of ["datacite-4", "datacite-3.1", "capitalised"]) {
    assert.ok(CORPUS.filter((d) => d.generation === generation).length >= 12, generation);
  }
  const root = await Deno.makeTempDir({ prefix: "tern-metadata-corpus-" });
  await writeCorpus(root);
  const server = await startServer({ root, port: 0, quiet: true });
  try {
    const store = connect({ url: server.url, anonymous: true });

    await t.step(
      "each dataset: normalised fields and DataCite citation as written by hand",
      async () => {
        for (const [index, dataset] of CORPUS.entries()) {
          const handle = store.dataset(`${CURATED}/${dataset.name}`);
          const metadata = await handle.metadata();
          const citation = await metadata.citation();
          assert.deepEqual(
            observed(metadata, citation, dataset.expect),
            wanted(dataset.expect, index),
            dataset.name,
          );
          assert.equal(await handle.citation(), citation, `${dataset.name}: dataset.citation()`);
          const details = dataset.expect.details ?? {};
          for (
            const field of ["creators", "contributors", "relatedIdentifiers", "funding"] as const
          ) {
            if (details[field] !== undefined) {
              assert.deepEqual(metadata[field], details[field], `${dataset.name}: ${field}`);
            }
          }
          for (const [field, attr] of Object.entries(details.sources ?? {})) {
            assert.equal(
              metadata.sources[field as keyof typeof metadata.sources],
              attr,
              `${dataset.name}: sources.${field}`,
            );
          }
          // The AVUs as served stay reachable, exactly.
          assert.deepEqual(
            metadata.raw.avus.map((avu) => [avu.attr, avu.value]),
            (dataset.avus ?? []).map((avu) => [avu.attr, avu.value]),
          );
          assert.equal(metadata.raw.path, `${CURATED}/${dataset.name}`);
          assert.equal(metadata.id, (await handle.stat()).id);
        }
      },
    );

    await t.step("every style, every dataset: no undefined, no empty brackets", async () => {
      for (const dataset of CORPUS) {
        const metadata = await store.dataset(`${CURATED}/${dataset.name}`).metadata();
        for (const style of CITATION_STYLES) {
          const text = (await metadata.citation(style)).replace(/\\[a-z]+\{\}/g, "");
          assert.ok(text.length > 0);
          assert.ok(
            !/undefined|\bnull\b|NaN|\(\s*\)|\[\s*\]|\{\s*\}/.test(text),
            `${dataset.name} ${style}: ${text}`,
          );
        }
      }
    });

    await t.step(
      "datasets(): every sub-folder, _deprecated_ included, as Dataset handles",
      async () => {
        const listing = store.folder(CURATED).datasets();
        assert.equal(await listing.count(), CORPUS.length);
        const names = (await listing.toArray()).map((dataset) => dataset.name);
        assert.deepEqual([...names].sort(), CORPUS.map((d) => d.name).sort());
      },
    );

    await t.step(
      "catalog(): one row per dataset, shared titles flagged, never merged",
      async () => {
        const frame = await store.folder(CURATED).catalog({ concurrency: 3 });
        assert.equal(frame.height, CORPUS.length);
        const rows = frame.toRecords() as Record<string, unknown>[];
        const byName = new Map(rows.map((row) => [String(row.path).split("/").at(-1)!, row]));
        assert.equal(byName.size, CORPUS.length);
        assert.equal(new Set(rows.map((row) => row.id)).size, CORPUS.length);
        const flagged = rows.filter((row) => row.duplicateTitle).map((row) =>
          String(row.path).split("/").at(-1)
        );
        assert.deepEqual(flagged.sort(), [...SAME_TITLE].sort());
        for (const dataset of CORPUS) {
          const row = byName.get(dataset.name)!;
          assert.equal(row.title ?? undefined, dataset.expect.title, dataset.name);
          assert.equal(row.doi ?? undefined, dataset.expect.doi, dataset.name);
          assert.equal(row.ark ?? undefined, dataset.expect.ark, dataset.name);
          assert.equal(row.year ?? undefined, dataset.expect.publicationYear, dataset.name);
          assert.equal(row.license ?? undefined, dataset.expect.license?.id, dataset.name);
          assert.equal(row.deprecated, dataset.expect.deprecated ?? false, dataset.name);
          assert.equal(row.error, null);
        }
      },
    );
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
