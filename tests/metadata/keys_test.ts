import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalKey, FIELD_KEYS, type FieldName } from "../../lib/metadata/keys.ts";

Deno.test("every key spelling of terrain-api §5.2 reaches its field", () => {
  const spellings: [FieldName, string[]][] = [
    ["title", ["title", "datacite.title", "Title", "TITLE ", "datacite:title"]],
    ["creator", ["creator", "datacite.creator", "Creator", "Author", "authors", "Creator Name"]],
    ["identifier", ["identifier", "Identifier", "Identifer", "\tidentifier"]],
    ["identifierType", [
      "identifierType",
      "identiferType",
      "idetifierType",
      "IdentifierType",
      "Identifier Type",
      "identifier_type",
    ]],
    ["alternateIdentifier", ["alternateIdentifier", "AlternateIdentifier"]],
    ["alternateIdentifierType", ["alternateIdentifierType", "Alternate Identifier Type"]],
    ["publicationYear", [
      "publicationYear",
      "datacite.publicationyear",
      "PublicationYear",
      "publication_year",
      "publication year",
      "Publication-Year",
    ]],
    ["publisher", ["publisher", "datacite.publisher", "Publisher"]],
    ["resourceType", ["resourceType", "ResourceType", "datacite.resourcetype"]],
    ["resourceTypeGeneral", ["resourceTypeGeneral"]],
    ["subject", ["subject", "Subject", "Keyword", "keywords"]],
    ["description", ["description", "Description"]],
    ["descriptionType", ["descriptionType"]],
    ["rights", ["rights", "Rights", "License", "licence"]],
    ["contributor", ["contributor", "contributorName", "Contributor", "contributer"]],
    ["contributorType", ["contributorType", "contributerType"]],
    ["relatedIdentifier", ["relatedIdentifier", "RelatedIdentifier"]],
    ["relatedIdentifierType", ["relatedIdentifierType", "relatedIdentiferType"]],
    ["relationType", ["relationType"]],
    ["version", ["version", "Version"]],
    ["fundingReference", ["fundingReference"]],
    ["creatorAffiliation", ["creatorAffiliation", "creatorAffiliation\t", "creatorAffilation"]],
    ["creatorNameIdentifier", ["creatorNameIdentifier", "ORCID"]],
    ["dateModified", ["dateModified", "date_modified", "Date Modified", "lastModified"]],
    ["deprecated", ["is_deprecated", "isDeprecated"]],
  ];
  for (const [field, attrs] of spellings) {
    for (const attr of attrs) {
      assert.ok(
        FIELD_KEYS[field].includes(canonicalKey(attr)),
        `${JSON.stringify(attr)} → ${field}`,
      );
    }
  }
});

Deno.test("Dublin Core namespaces, as other iRODS zones write them, reach their fields", () => {
  const cases: [FieldName, string[]][] = [
    ["title", ["dc.title", "DC.Title", "dcterms:title", "dct:title", "dc_title"]],
    ["creator", ["dc.creator", "DC.Creator", "dcterms:creator", "dcterms.creator"]],
    ["publisher", ["dc:publisher", "dcterms:publisher"]],
    ["rights", ["dc.rights", "dcterms:license"]],
    ["subject", ["dc.subject", "http://purl.org/dc/elements/1.1/subject"]],
    ["publicationYear", ["dcterms:issued", "dc.date.issued", "http://purl.org/dc/terms/issued"]],
    ["dateModified", ["dcterms:modified"]],
    // schema.org's Dataset, as JSON-LD exports and notebooks write it.
    ["creator", ["schema:creator", "schema:author", "https://schema.org/author", "sdo:creator"]],
    ["publicationYear", ["schema:datePublished", "datePublished"]],
    ["subject", ["schema:keywords"]],
    ["rights", ["schema:license"]],
  ];
  for (const [field, spellings] of cases) {
    for (const spelling of spellings) {
      assert.ok(FIELD_KEYS[field].includes(canonicalKey(spelling)), `${spelling} → ${field}`);
    }
  }
  // A word that merely starts like a namespace keeps it.
  assert.equal(canonicalKey("dcontributor"), "dcontributor");
});

Deno.test("distinct attributes stay distinct", () => {
  assert.ok(!FIELD_KEYS["title"].includes(canonicalKey("titleType")));
  assert.ok(!FIELD_KEYS["identifier"].includes(canonicalKey("identifierType")));
  assert.ok(!FIELD_KEYS["identifier"].includes(canonicalKey("alternateIdentifier")));
  assert.ok(!FIELD_KEYS["date"].includes(canonicalKey("compressed_data")));
  assert.ok(!FIELD_KEYS["rights"].includes(canonicalKey("Rights Holder")));
  assert.ok(!FIELD_KEYS["dateModified"].includes(canonicalKey("Date")));
  assert.ok(!FIELD_KEYS["title"].includes(canonicalKey("New Attribute")));
  const all = Object.values(FIELD_KEYS).flat();
  // Only the deliberate overlap: a top-level `ORCID` is a flat creator identifier, a nested one
  // a name identifier.
  const repeated = all.filter((key, index) => all.indexOf(key) !== index);
  assert.deepEqual(repeated, ["orcid"]);
});

Deno.test("property: canonical keys ignore case, separators, prefix and surrounding space", () => {
  // A first word that is itself a schema prefix (`dc` + `_`) is one, not part of the name.
  const word = fc.stringMatching(/^[a-z]{2,8}$/)
    .filter((w) => !/^(?:datacite|dcterms|dct|dc)$/.test(w));
  fc.assert(fc.property(
    fc.array(word, { minLength: 1, maxLength: 3 }),
    fc.constantFrom("", "_", " ", "-", "."),
    fc.constantFrom("", "datacite.", "DataCite."),
    fc.constantFrom("", "\t", " ", "\t\t"),
    fc.boolean(),
    (words, separator, prefix, trailing, upper) => {
      const plain = words.join("");
      const written = `${prefix}${words.join(separator)}${trailing}`;
      const key = canonicalKey(upper ? written.toUpperCase() : written);
      assert.equal(key, canonicalKey(plain));
      assert.equal(canonicalKey(key), key, "idempotent");
    },
  ));
});
