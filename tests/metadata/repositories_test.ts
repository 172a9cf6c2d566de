/**
 * Metadata as repositories export it, stored as a dataset folder's AVUs and read through the
 * embedded server: DataCite's XML layout in the nested template (the name in a `creatorName`
 * under an empty `creator`), DataCite's JSON key names (`titles`, `rightsList`) and objects (each
 * value one level down, under `name`, `title`, `rights`, …), Zenodo's and
 * Dryad's `publication_date`, and schema.org's `name`.
 */

import assert from "node:assert/strict";
import { startServer } from "../../server.ts";
import { connect } from "../../mod.ts";
import type { AvuLike } from "../../lib/metadata/avus.ts";

const CURATED = "/iplant/home/shared/commons_repo/curated";

const a = (attr: string, value: string, ...avus: AvuLike[]): AvuLike =>
  avus.length === 0 ? { attr, value } : { attr, value, avus };

const RECORDS: Record<string, AvuLike[]> = {
  // DataCite 4 XML: <creator><creatorName nameType="Organizational">…</creatorName></creator>.
  datacite_xml: [
    a("title", "Soil moisture at Santa Rita, 2019-2021"),
    a(
      "creator",
      "",
      a("creatorName", "Doe, Jane", a("nameType", "Personal")),
      a("affiliation", "University of Arizona"),
    ),
    a(
      "creator",
      "",
      a(
        "creatorName",
        "National Ecological Observatory Network, Battelle",
        a("nameType", "Organizational"),
      ),
    ),
    a("publicationYear", "2021"),
    a("publisher", "Dryad"),
    a("identifier", "10.5061/dryad.2bvq83bnv", a("identifierType", "DOI")),
  ],
  // The attributes of DataCite's REST API (data.attributes), one AVU each.
  datacite_json: [
    a("doi", "10.5281/zenodo.1234567"),
    a("creators", "Müller, Hans"),
    a("titles", "Lake temperature profiles"),
    a("publicationYear", "2019"),
    a("publisher", "Zenodo"),
    a("rightsList", "cc-by-4.0"),
  ],
  // DataCite's REST API record with its objects as nested AVUs, each value one level down.
  datacite_objects: [
    a("titles", "", a("title", "Pollen counts"), a("lang", "en")),
    a(
      "creators",
      "",
      a("name", "Doe, Jane"),
      a("nameType", "Personal"),
      a("affiliation", "", a("name", "University of Arizona")),
      a(
        "nameIdentifiers",
        "",
        a("nameIdentifier", "https://orcid.org/0000-0002-1825-0097"),
        a("nameIdentifierScheme", "ORCID"),
      ),
    ),
    a("creators", "", a("name", "Arizona Pollen Network"), a("nameType", "Organizational")),
    a("publicationYear", "2023"),
    a("publisher", "", a("name", "Zenodo")),
    a(
      "rightsList",
      "",
      a("rights", "Creative Commons Attribution 4.0"),
      a("rightsIdentifier", "cc-by-4.0"),
    ),
    a("subjects", "", a("subject", "pollen")),
    a("doi", "10.5281/zenodo.42"),
  ],
  zenodo: [
    a("title", "Camera trap images, Sky Islands"),
    a("creator", "Smith, John"),
    a("publication_date", "2020-03-15"),
    a("publisher", "Zenodo"),
    a("doi", "10.5281/zenodo.3700000"),
  ],
  schema_org: [
    a("schema:name", "Weather station records"),
    a("schema:creator", "Arizona Meteorological Network"),
    a("schema:datePublished", "2018-11-02"),
    a("schema:publisher", "CyVerse Data Commons"),
    a("schema:identifier", "https://doi.org/10.25739/abcd-1234"),
  ],
};

Deno.test("records as DataCite, Zenodo, Dryad and schema.org export them read whole, and cite", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "tern-repositories-" });
  try {
    for (const [name, avus] of Object.entries(RECORDS)) {
      await Deno.mkdir(`${root}${CURATED}/${name}`, { recursive: true });
      await Deno.writeTextFile(`${root}${CURATED}/${name}/.avus.json`, JSON.stringify(avus));
    }
    await using server = await startServer({ root, port: 0, quiet: true });
    await using store = connect({ url: server.url, anonymous: true, progress: false });
    const read = async (name: string) => {
      const metadata = await store.dataset(`${CURATED}/${name}`).metadata();
      return { metadata, citation: await metadata.citation() };
    };

    await t.step("DataCite XML's creatorName under an empty creator", async () => {
      const xml = await read("datacite_xml");
      assert.deepEqual(xml.metadata.creators.map((creator) => creator.name), [
        "Doe, Jane",
        "National Ecological Observatory Network, Battelle",
      ]);
      assert.equal(xml.metadata.creators[0].affiliation, "University of Arizona");
      assert.deepEqual(xml.metadata.notes, []);
      assert.equal(
        xml.citation,
        "Doe, J., National Ecological Observatory Network, Battelle (2021). Soil moisture at Santa " +
          "Rita, 2019-2021. Dryad. https://doi.org/10.5061/dryad.2bvq83bnv",
      );
    });
    await t.step("DataCite JSON's titles and rightsList", async () => {
      const json = await read("datacite_json");
      assert.equal(json.metadata.title, "Lake temperature profiles");
      assert.equal(json.metadata.license?.id, "CC-BY-4.0");
      assert.deepEqual(json.metadata.missing, []);
    });
    await t.step("DataCite JSON's objects, each value one level down", async () => {
      const { metadata, citation } = await read("datacite_objects");
      assert.deepEqual(metadata.creators, [
        {
          name: "Doe, Jane",
          family: "Doe",
          given: "Jane",
          affiliation: "University of Arizona",
          orcid: "0000-0002-1825-0097",
        },
        { name: "Arizona Pollen Network" },
      ]);
      assert.deepEqual([...metadata.subjects], ["pollen"]);
      assert.equal(metadata.license?.id, "CC-BY-4.0");
      assert.deepEqual(metadata.notes, []);
      assert.equal(
        citation,
        "Doe, J., Arizona Pollen Network (2023). Pollen counts. Zenodo. " +
          "https://doi.org/10.5281/zenodo.42",
      );
    });
    await t.step("Zenodo's publication_date", async () => {
      const zenodo = await read("zenodo");
      assert.equal(zenodo.metadata.publicationYear, 2020);
      assert.equal(
        zenodo.citation,
        "Smith, J. (2020). Camera trap images, Sky Islands. Zenodo. " +
          "https://doi.org/10.5281/zenodo.3700000",
      );
    });
    await t.step("schema.org's name", async () => {
      const schema = await read("schema_org");
      assert.equal(schema.metadata.title, "Weather station records");
      assert.deepEqual(schema.metadata.missing, []);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
