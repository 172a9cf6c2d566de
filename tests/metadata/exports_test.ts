import assert from "node:assert/strict";
import { CITATION_STYLES, type DatasetMetadata } from "../../mod.ts";
import { loadYamlModule } from "../../lib/deps.ts";
import { cffText, toCff } from "../../lib/metadata/cff.ts";
import { toJsonLd } from "../../lib/metadata/jsonld.ts";
import { exampleStore } from "../../lib/sample/example.ts";
import { DATA_COMMONS_DATASETS } from "../../lib/handles/resolve.ts";

/** Every curated sample dataset's normalised record. */
async function sampleRecords(): Promise<DatasetMetadata[]> {
  await using store = await exampleStore({ anonymous: true });
  const records: DatasetMetadata[] = [];
  for await (const dataset of store.folder(DATA_COMMONS_DATASETS).datasets()) {
    records.push(await dataset.metadata());
  }
  return records;
}

const RECORDS = await sampleRecords();

/** No null, undefined, empty string, empty list or empty object anywhere in `value`. */
function assertNoEmpty(value: unknown, where: string): void {
  assert.ok(value !== null && value !== undefined && value !== "", `empty value at ${where}`);
  if (Array.isArray(value)) {
    assert.ok(value.length > 0, `empty list at ${where}`);
    value.forEach((item, index) => assertNoEmpty(item, `${where}[${index}]`));
  } else if (typeof value === "object") {
    const entries = Object.entries(value as object);
    assert.ok(entries.length > 0, `empty object at ${where}`);
    for (const [key, item] of entries) assertNoEmpty(item, `${where}.${key}`);
  }
}

Deno.test("jsonld and cff are registered citation styles", () => {
  assert.ok(CITATION_STYLES.includes("jsonld"));
  assert.ok(CITATION_STYLES.includes("cff"));
});

Deno.test("jsonld: a schema.org Dataset with its required and recommended fields", async () => {
  assert.ok(RECORDS.length >= 10);
  for (const record of RECORDS) {
    // deno-lint-ignore no-explicit-any -- a parsed document, checked field by field below
    const node: any = JSON.parse(await record.citation("jsonld"));
    assert.deepEqual(node as unknown, toJsonLd(record));
    assertNoEmpty(node, record.path);
    assert.equal(node["@context"], "https://schema.org/");
    assert.equal(node["@type"], "Dataset");
    assert.equal(typeof node.name, "string");
    // Google Dataset Search requires a description; it is there whenever the record has one.
    assert.equal(node.description, record.description, record.path);
    for (const creator of node.creator ?? []) {
      assert.ok(["Person", "Organization"].includes(creator["@type"]));
      assert.equal(typeof creator.name, "string");
      if (creator.sameAs !== undefined) assert.match(creator.sameAs, /^https:\/\/orcid\.org\//);
    }
    if (node.datePublished !== undefined) assert.match(node.datePublished, /^\d{4}$/);
    // A resolver link, or, for a dataset with neither a DOI nor an ARK, its data-store path.
    for (const id of node.identifier ?? []) {
      assert.match(id, /^https:\/\/(doi\.org|n2t\.net)\/|^\/iplant\//);
    }
    if (record.doi === undefined && record.ark === undefined) {
      assert.deepEqual(node.identifier, [record.path]);
    }
    if (record.doi !== undefined) assert.equal(node.url, `https://doi.org/${record.doi}`);
    if (node.keywords !== undefined) assert.deepEqual(node.keywords, [...record.subjects]);
  }
  const described = RECORDS.filter((record) => record.description !== undefined);
  assert.ok(described.length >= RECORDS.length / 2);
});

/** Top-level keys CFF 1.2.0's schema allows (`additionalProperties: false`). */
const CFF_KEYS = new Set([
  "abstract",
  "authors",
  "cff-version",
  "commit",
  "contact",
  "date-released",
  "doi",
  "identifiers",
  "keywords",
  "license",
  "license-url",
  "message",
  "preferred-citation",
  "references",
  "repository",
  "repository-artifact",
  "repository-code",
  "title",
  "type",
  "url",
  "version",
]);
const PERSON_KEYS = new Set([
  "family-names",
  "given-names",
  "name-particle",
  "name-suffix",
  "affiliation",
  "orcid",
  "email",
  "website",
  "alias",
  "address",
  "city",
  "country",
  "post-code",
  "region",
  "tel",
  "fax",
]);

Deno.test("cff: valid CITATION.cff 1.2.0 for every sample dataset", async () => {
  const yaml = await loadYamlModule();
  for (const record of RECORDS) {
    const text = await record.citation("cff");
    assert.equal(text, await cffText(record));
    // deno-lint-ignore no-explicit-any -- a parsed document, checked field by field below
    const cff: any = yaml.parse(text);
    assert.deepEqual(cff as unknown, toCff(record), record.path);
    assertNoEmpty(cff, record.path);
    // Required by the schema.
    assert.equal(cff["cff-version"], "1.2.0");
    assert.equal(typeof cff.message, "string");
    assert.equal(typeof cff.title, "string");
    assert.ok(Array.isArray(cff.authors) && cff.authors.length >= 1);
    for (const key of Object.keys(cff)) assert.ok(CFF_KEYS.has(key), `${record.path}: ${key}`);
    assert.ok(["dataset", "software"].includes(cff.type));
    for (const author of cff.authors) {
      if ("name" in author) {
        assert.equal(typeof author.name, "string");
        continue;
      }
      for (const key of Object.keys(author)) assert.ok(PERSON_KEYS.has(key), key);
      assert.equal(typeof author["family-names"], "string");
      if (author.orcid !== undefined) {
        assert.match(author.orcid, /^https:\/\/orcid\.org\/\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/);
      }
    }
    if (cff.doi !== undefined) {
      assert.match(cff.doi, /^10\.\d{4,9}(\.\d+)?\/[A-Za-z0-9:/_;\-.()[\]\\]+$/);
    }
    for (const id of cff.identifiers ?? []) {
      assert.ok(["doi", "url", "swh", "other"].includes(id.type));
      assert.equal(typeof id.value, "string");
    }
    if (cff.license !== undefined) assert.match(cff.license, /^[A-Za-z0-9.+-]+$/);
    if (cff.url !== undefined) assert.match(cff.url, /^https:\/\//);
    for (const keyword of cff.keywords ?? []) assert.equal(typeof keyword, "string");
  }
});

Deno.test("cff: text that YAML would read as another type stays a string", async () => {
  const yaml = await loadYamlModule();
  const text = await cffText({
    path: "/x/a",
    title: "yes",
    version: "1.0",
    description: "line one\nline: two # not a comment",
    creators: [{ name: "null" }],
    subjects: ["true", "2019"],
  });
  const cff = yaml.parse(text);
  assert.equal(cff.title, "yes");
  assert.equal(cff.version, "1.0");
  assert.equal(cff.abstract, "line one\nline: two # not a comment");
  assert.deepEqual(cff.authors, [{ name: "null" }]);
  assert.deepEqual(cff.keywords, ["true", "2019"]);
});

Deno.test("jsonld: a Chinese or Korean name is written whole, family name first; others given first", () => {
  const node = toJsonLd({
    path: "/x/a",
    title: "数据",
    subjects: [],
    creators: [
      { name: "李, 明", family: "李", given: "明" },
      { name: "김, 민준", family: "김", given: "민준" },
      { name: "Lee, Min-jun", family: "Lee", given: "Min-jun" },
    ],
  });
  assert.deepEqual((node.creator as { name: string }[]).map((person) => person.name), [
    "李明",
    "김민준",
    "Min-jun Lee",
  ]);
});
