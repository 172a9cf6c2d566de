import assert from "node:assert/strict";
import { attributeGroup } from "../../lib/metadata/avus.ts";

Deno.test("repeated AVUs become lists in stored order; empty values are ignored", () => {
  const group = attributeGroup([
    { attr: "subject", value: "maize" },
    { attr: "Subject", value: "  " },
    { attr: "Keyword", value: "drought" },
    { attr: "subject", value: "\troots\n" },
    { attr: "title", value: "Maize roots" },
  ]);
  assert.deepEqual(group.all(["subject", "keyword"]).map((a) => a.value), [
    "maize",
    "drought",
    "roots",
  ]);
  assert.deepEqual(group.all(["subject"]).map((a) => a.attr), ["subject", "subject"]);
  assert.deepEqual(group.slots(["subject"]).map((a) => a.empty), [false, true, false]);
  assert.equal(group.value(["title"]), "Maize roots");
  assert.equal(group.value(["publisher"]), undefined);
  assert.deepEqual(group.keys(), ["subject", "keyword", "title"]);
});

Deno.test("nested sub-properties are grouped under their parent; a parent with content counts", () => {
  const group = attributeGroup([
    {
      attr: "creator",
      value: "Li, Bosheng",
      avus: [
        { attr: "affiliation", value: "Purdue University" },
        {
          attr: "nameIdentifier",
          value: "",
          avus: [{ attr: "nameIdentifierScheme", value: "ORCID" }],
        },
      ],
    },
    {
      attr: "fundingReference",
      value: "",
      avus: [{ attr: "funderName", value: "NSF" }],
    },
    { attr: "geoLocation", value: "", avus: [{ attr: "geoLocationBox", value: "" }] },
  ]);
  const creator = group.first(["creator"])!;
  assert.equal(creator.nested.value(["affiliation"]), "Purdue University");
  const identifier = creator.nested.slots(["nameidentifier"])[0];
  assert.equal(identifier.value, "");
  assert.equal(identifier.empty, false, "its scheme is a value");
  assert.equal(group.first(["fundingreference"])?.nested.value(["fundername"]), "NSF");
  assert.equal(group.first(["geolocation"]), undefined, "nothing under it has a value");
  assert.equal(group.hasValues, true);
  assert.equal(attributeGroup([{ attr: "x", value: "" }]).hasValues, false);
});

Deno.test("attribute names are kept exactly; keys are canonical", () => {
  const [attribute] = attributeGroup([{ attr: "creatorAffiliation\t", value: "UMN" }]).all([
    "creatoraffiliation",
  ]);
  assert.equal(attribute.attr, "creatorAffiliation\t");
  assert.equal(attribute.key, "creatoraffiliation");
});

Deno.test("malformed AVUs from a dump do not break grouping", () => {
  const group = attributeGroup([
    { attr: "title", value: null as unknown as string },
    { attr: undefined as unknown as string, value: "x" },
    { attr: "version", value: "2", avus: undefined },
  ]);
  assert.equal(group.value(["title"]), undefined);
  assert.equal(group.value(["version"]), "2");
});
