/**
 * `dataset.croissant()` against the sample store: every dataset's document expands as JSON-LD
 * with nothing dropped (jsonld's safe mode, and every key accounted for), keeps the rules of the
 * Croissant 1.0 specification that no validator checks for us (each test names its rule), and
 * carries every DOI, ARK, checksum and licence tern's own views show. A private dataset gives
 * download URLs and no token; a large Parquet file gives its schema from its footer alone.
 *
 * The context is the one MLCommons' Croissant 1.0 examples carry (datasets/1.0/*\/metadata.json
 * in github.com/mlcommons/croissant), kept here as croissant_1.0_context.json. Documents embed
 * it; the document loader refuses every URL, so expansion never touches the network.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { jsonld } from "../_ld_deps.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { statPaths } from "../../lib/client/stat_many.ts";
import {
  CROISSANT_CONTEXT,
  type CroissantDocument,
  type CroissantNode,
  datasetCroissant,
} from "../../lib/ld/croissant.ts";
import { SAMPLE_CASES, SAMPLE_DATASETS } from "../../lib/sample/catalog.ts";
import { DEMO_USER } from "../../lib/sample/constants.ts";
import { exampleStore } from "../../lib/sample/example.ts";

const CONTEXT_FILE = fileURLToPath(new URL("./croissant_1.0_context.json", import.meta.url));

/** No remote context: every URL the processor asks for is refused. */
// deno-lint-ignore require-await
const offline = async (url: string): Promise<never> => {
  throw new Error(`the test refuses to load ${url}`);
};

/** Expands `document` in jsonld's safe mode, which fails on any term or value it would drop. */
async function expand(document: CroissantDocument): Promise<unknown[]> {
  return await jsonld.expand(
    structuredClone(document),
    {
      documentLoader: offline,
      // Croissant's @ids are relative, resolved against where the document is published.
      base: "https://example.org/croissant.json",
      safe: true,
    } as Parameters<typeof jsonld.expand>[1],
  ) as unknown[];
}

/** Non-keyword keys, outside `@json` literals: expansion keeps a node's keys one for one. */
function countKeys(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum, item) => sum + countKeys(item), 0);
  if (value === null || typeof value !== "object") return 0;
  let sum = 0;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "@context" || key === "@value") continue;
    if (!key.startsWith("@")) sum++;
    sum += countKeys(inner);
  }
  return sum;
}

/** The IRIs of every property in expanded JSON-LD. */
function propertyIris(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) { for (const item of value) propertyIris(item, into); }
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (!key.startsWith("@")) into.add(key);
      propertyIris(inner, into);
    }
  }
  return into;
}

/** The atomic data types of Croissant 1.0 (§Data Types, "Commonly used atomic data types"). */
const ATOMIC_TYPES = new Set([
  "sc:Boolean",
  "sc:Date",
  "sc:DateTime",
  "sc:Float",
  "sc:Integer",
  "sc:Text",
]);

/** The table files tern reads, by name (the registry's table formats). */
const TABLE_FILE = /\.(csv|tsv|json|ndjson|parquet|arrow)(\.gz)?$/;

Deno.test("croissant: the document's context is the Croissant 1.0 context shipped with the tests", async () => {
  const shipped = JSON.parse(await Deno.readTextFile(CONTEXT_FILE))["@context"];
  assert.deepEqual(CROISSANT_CONTEXT, shipped);
});

Deno.test("croissant: every sample dataset expands without loss and keeps the spec's rules", async (t) => {
  await using store = await exampleStore({ progress: false });
  const paths = [...SAMPLE_DATASETS.map((dataset) => dataset.path), SAMPLE_CASES.userDataset];
  for (const path of paths) {
    await t.step(path.split("/").at(-1) as string, async () => {
      const dataset = store.dataset(path);
      const [document, metadata, files] = await Promise.all([
        dataset.croissant(),
        dataset.metadata(),
        dataset.walk({ type: "file" }).toArray(),
      ]);

      // JSON-LD: nothing dropped. Safe mode throws on a term or value expansion would lose;
      // and every key of the document is still a property of the expanded graph.
      const expanded = await expand(document);
      assert.equal(countKeys(expanded), countKeys(document));
      const iris = propertyIris(expanded);
      for (
        const iri of ["http://purl.org/dc/terms/conformsTo", "https://schema.org/distribution"]
      ) {
        assert.ok(iris.has(iri), iri);
      }

      // §Dataset, Required: @type schema.org/Dataset, dct:conformsTo the versioned schema, name.
      assert.equal(document["@type"], "sc:Dataset");
      assert.equal(document.conformsTo, "http://mlcommons.org/croissant/1.0");
      assert.ok(document.name.length > 0);
      // §Dataset, Required: description, license, url, creator, datePublished — each present
      // whenever the record has it; tern never invents one.
      assert.equal(document.description, metadata.description);
      assert.equal(document.license !== undefined, metadata.license !== undefined);
      // url: the DOI's (else the ARK's) link, else the store's URL of the folder, which Terrain
      // answers with the folder's listing for the reader the store signed in.
      if (metadata.doi !== undefined) assert.equal(document.url, `https://doi.org/${metadata.doi}`);
      else if (metadata.ark !== undefined) {
        assert.equal(document.url, `https://n2t.net/${metadata.ark}`);
      } else {
        const url = new URL(String(document.url));
        assert.equal(url.searchParams.get("path"), path);
        const listing = await fetch(url, {
          headers: { authorization: `Bearer ${DEMO_USER.token}` },
        });
        assert.equal(listing.status, 200, String(url));
        assert.equal((await listing.json()).path, path);
      }
      assert.equal(document.creator !== undefined, metadata.creators.length > 0);
      assert.equal(
        document.datePublished,
        metadata.publicationYear === undefined ? undefined : String(metadata.publicationYear),
      );
      // §Dataset, Recommended: keywords, version, dateModified, sameAs.
      assert.deepEqual(document.keywords ?? [], [...metadata.subjects]);
      assert.equal(document.version, metadata.version);
      assert.equal(document.dateModified, metadata.dateModified?.toISOString());

      // Every DOI, ARK and licence link the dataset card shows is in the document; a licence
      // without a link is named as the card names it.
      const card = await dataset[JUPYTER_DISPLAY]();
      const shown = [...card["text/html"].matchAll(/href="(https:\/\/[^"]+)"/g)].map((m) => m[1]);
      const identifiers = (document.identifier ?? []) as string[];
      for (const href of shown) {
        if (/^https:\/\/(doi\.org|n2t\.net)\//.test(href)) {
          assert.ok(identifiers.includes(href), href);
          assert.ok((document.sameAs as string[]).includes(href), href);
        } else if (href.startsWith("https://orcid.org/")) {
          const creators = document.creator as CroissantNode[];
          assert.ok(creators.some((creator) => creator.sameAs === href), href);
        } else assert.equal(document.license, href);
      }
      if (metadata.doi !== undefined) assert.ok(shown.includes(`https://doi.org/${metadata.doi}`));
      if (metadata.license !== undefined && metadata.license.url === undefined) {
        const license = document.license as string | CroissantNode;
        if (typeof license !== "string") {
          assert.equal(license.name, metadata.license.id ?? metadata.license.name);
        }
      }
      assert.match(String(document.citeAs), /^@misc\{/);
      // The card names exactly the required properties the record cannot give.
      const required = ["description", "license", "url", "creator", "datePublished"] as const;
      const missing = required.filter((key) => document[key] === undefined);
      assert.ok(!missing.includes("url"), "every dataset has a url");
      const croissantCard = await document[JUPYTER_DISPLAY]();
      assert.equal(
        croissantCard["text/plain"].match(/Missing required: (.*)/)?.[1],
        missing.length === 0 ? undefined : missing.join(", "),
      );

      // §FileObject: one per file, each with a unique @id, name, contentUrl, contentSize and
      // encodingFormat (a media type); md5 / sha256 (§Checksums) in hex, equal to the store's.
      const objects = document.distribution;
      assert.equal(objects.length, files.length);
      const ids = objects.map((object) => object["@id"]);
      assert.equal(new Set(ids).size, ids.length, "unique @id");
      const checksums = (await statPaths(store[STORE_CONTEXT].transport, files.map((f) => f.path)))
        .entries;
      for (const file of files) {
        const object = objects.find((o) => `${path}/${o.name}` === file.path);
        assert.ok(object !== undefined, file.path);
        assert.ok(/^https?:\/\//.test(String(object.contentUrl)), String(object.contentUrl));
        assert.equal(object.contentSize, `${file.size} B`);
        assert.match(String(object.encodingFormat), /^[a-z]+\/[\w.+-]+$/);
        const checksum = checksums.get(file.path)?.checksum;
        assert.ok(checksum !== undefined, `the sample store checksums ${file.path}`);
        if (checksum.startsWith("md5:")) {
          assert.match(String(object.md5), /^[0-9a-f]{32}$/);
          assert.equal(`md5:${object.md5}`, checksum);
        } else assert.match(String(object.sha256), /^[0-9a-f]{64}$/);
      }

      // §RecordSet and §Field: one record set per table file, each with a unique @id, a name
      // and fields; each field a unique @id, a name unique in its set, an atomic dataType
      // (§Data Types), and a source whose fileObject is a FileObject of the document and
      // whose extract.column is the column it describes.
      const tables = files.filter((file) => TABLE_FILE.test(file.name));
      assert.equal(document.recordSet.length, tables.length);
      const allIds = new Set(ids);
      for (const set of document.recordSet) {
        assert.ok(!allIds.has(set["@id"] as string), `unique @id ${set["@id"]}`);
        allIds.add(set["@id"] as string);
        assert.equal(typeof set.name, "string");
        const fields = set.field as CroissantNode[];
        assert.ok(fields.length > 0);
        assert.equal(new Set(fields.map((field) => field.name)).size, fields.length);
        for (const field of fields) {
          assert.equal(field["@type"], "cr:Field");
          assert.ok(!allIds.has(field["@id"] as string), `unique @id ${field["@id"]}`);
          allIds.add(field["@id"] as string);
          assert.ok(ATOMIC_TYPES.has(field.dataType as string), String(field.dataType));
          const source = field.source as {
            fileObject: { "@id": string };
            extract: { column: string };
          };
          assert.ok(ids.includes(source.fileObject["@id"]), source.fileObject["@id"]);
          assert.equal(source.extract.column, field.name);
        }
        // The fields are the file's columns, in order (small files: read here whole).
        const object = objects.find((o) =>
          o["@id"] === (fields[0].source as { fileObject: { "@id": string } }).fileObject["@id"]
        );
        const file = files.find((f) => f.path === `${path}/${object?.name}`);
        if (file !== undefined && file.size < 1_000_000) {
          const columns = (await store.file(file.path).dataframe()).columns;
          assert.deepEqual(fields.map((field) => field.name), columns);
        }
      }
    });
  }
});

Deno.test("croissant: a private dataset gives download URLs, read with a token it never holds", async () => {
  await using store = await exampleStore({ progress: false });
  const dataset = store.dataset(SAMPLE_CASES.userDataset);
  const document = await dataset.croissant();
  assert.ok(document.distribution.length > 0);
  for (const object of document.distribution) {
    const url = new URL(String(object.contentUrl));
    assert.equal(url.pathname, "/terrain/secured/fileio/download");
    assert.equal(url.searchParams.get("path"), `${SAMPLE_CASES.userDataset}/${object.name}`);
  }
  const card = await document[JUPYTER_DISPLAY]();
  const download = /href="data:application\/ld\+json;charset=utf-8,([^"]*)"/.exec(
    card["text/html"],
  );
  assert.ok(download !== null);
  const downloaded = decodeURIComponent(download[1]);
  assert.deepEqual(JSON.parse(downloaded), JSON.parse(JSON.stringify(document)));
  for (
    const text of [JSON.stringify(document), card["text/html"], card["text/plain"], downloaded]
  ) {
    assert.ok(!text.includes(DEMO_USER.token));
  }
});

Deno.test("croissant: a large Parquet file's columns cost its footer, never the whole file", async () => {
  const bytes = new Map<string, number>();
  const counting: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const response = await fetch(input, init);
    // File bytes come from a download or from WebDAV; any other answer is about a file.
    const download = url.pathname.endsWith("/fileio/download");
    if (response.body === null || (!download && !url.pathname.includes("/dav-anon/"))) {
      return response;
    }
    const name = (download ? url.searchParams.get("path") ?? "" : decodeURIComponent(url.pathname))
      .split("/").at(-1) as string;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes.set(name, (bytes.get(name) ?? 0) + chunk.byteLength);
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), response);
  };
  await using store = await exampleStore({ progress: false, fetch: counting });
  const large = SAMPLE_CASES.parquetLarge;
  const name = large.split("/").at(-1) as string;
  const size = (await store.file(large).stat()).size;
  const document = await store.dataset(SAMPLE_CASES.arkOnly).croissant();
  const set = document.recordSet.find((s) => s.name === name);
  assert.ok(set !== undefined);
  const fields = (set.field as CroissantNode[]).map((field) => [field.name, field.dataType]);
  assert.ok(fields.length > 3);
  assert.ok(
    fields.some(([, type]) => type === "sc:DateTime" || type === "sc:Date"),
    JSON.stringify(fields),
  );
  const read = bytes.get(name) ?? 0;
  assert.ok(read > 0, "the footer was read through the store's fetch");
  assert.ok(read < size / 20, `${read} of ${size} bytes read`);

  // Without record sets, no file's bytes are read at all.
  bytes.clear();
  const filesOnly = await store.dataset(SAMPLE_CASES.arkOnly).croissant({ recordSets: false });
  assert.equal(filesOnly.recordSet.length, 0);
  for (const object of filesOnly.distribution) {
    assert.equal(bytes.get(String(object.name)), undefined);
  }
});

Deno.test("croissant: bad options are refused, naming the call and the option", async () => {
  await using store = await exampleStore({ progress: false });
  const dataset = store.dataset(SAMPLE_CASES.fullMetadata);
  await assert.rejects(dataset.croissant({ headRows: 0 }), {
    name: "BadRequestError",
    message: "dataset.croissant(): headRows must be an integer ≥ 1, got 0.",
  });
  await assert.rejects(dataset.croissant({ recordSet: false } as never), {
    name: "BadRequestError",
    message: /^dataset\.croissant\(\): unknown option "recordSet": did you mean "recordSets"\?/,
  });
});

Deno.test("croissant: the builder writes a SHA-256 checksum in hex, a licence text as a named work, and invents nothing", () => {
  const document = datasetCroissant({
    metadata: {
      path: "/iplant/home/shared/x",
      creators: [],
      subjects: [],
      license: { name: "Use freely", confidence: "none" } as never,
    },
    files: [{
      name: "a b/c.csv",
      url: "https://example.org/c.csv",
      size: 1,
      encodingFormat: "text/csv",
      checksum: "sha2:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=",
    }],
    tables: [{ file: "a b/c.csv", columns: [{ name: "when/where", dtype: "List(Datetime)" }] }],
  });
  const [object] = document.distribution;
  // sha256("a"), as `sha256sum` prints it.
  assert.equal(object.sha256, "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb");
  assert.equal(object["@id"], "a%20b/c.csv");
  assert.deepEqual(document.license, { "@type": "sc:CreativeWork", name: "Use freely" });
  assert.equal(document.name, "[x]");
  for (
    const key of [
      "description",
      "creator",
      "url",
      "datePublished",
      "identifier",
      "sameAs",
      "keywords",
    ]
  ) {
    assert.equal(key in document, false, key);
  }
  const [field] = document.recordSet[0].field as CroissantNode[];
  assert.deepEqual(
    { id: field["@id"], dataType: field.dataType, repeated: field.repeated },
    { id: "records/a%20b/c.csv/when%2Fwhere", dataType: "sc:DateTime", repeated: true },
  );
  assert.equal(
    document.recordSet[0].description,
    "The columns of a b/c.csv, typed by the file's own schema.",
  );
});
