import assert from "node:assert/strict";
import type { AvuLike } from "../../lib/metadata/avus.ts";
import { DatasetMetadata } from "../../lib/metadata/dataset_metadata.ts";
import { normalizeMetadata } from "../../lib/metadata/normalize.ts";

/** An AVU with nested AVUs. */
function a(attr: string, value: string, ...avus: AvuLike[]): AvuLike {
  return { attr, value, unit: "", avus };
}

const PATH = "/iplant/home/shared/commons_repo/curated/Test_Dataset_2020";
const normalize = (avus: AvuLike[], folderModified?: Date) =>
  normalizeMetadata({ path: PATH, avus, irodsAvus: [] }, { folderModified, id: "id-1" });

Deno.test("a dataset without AVUs is an empty record, not an error", async () => {
  const modified = new Date("2017-08-22T13:02:00Z");
  const metadata = await normalize([], modified);
  assert.ok(metadata instanceof DatasetMetadata);
  assert.equal(metadata.title, undefined);
  assert.deepEqual(metadata.creators, []);
  assert.deepEqual(metadata.subjects, []);
  assert.equal(metadata.license, undefined);
  assert.deepEqual(metadata.missing, ["creators", "title", "publicationYear", "publisher", "doi"]);
  assert.deepEqual(metadata.sources, { dateModified: "(folder date-modified)" });
  assert.deepEqual(metadata.notes, []);
  assert.equal(metadata.dateModified?.toISOString(), modified.toISOString());
  assert.equal(metadata.path, PATH);
  assert.equal(metadata.id, "id-1");
  assert.equal(metadata.deprecated, false);
  assert.equal(metadata.url, undefined);
  // Inputs that are not even lists of AVUs still give a record.
  const odd = await normalizeMetadata({ avus: null } as unknown as { avus: AvuLike[] });
  assert.deepEqual(odd.missing.length, 5);
  assert.equal(odd.path, "");
});

Deno.test("nested DataCite 4.x: sub-properties under their parent", async () => {
  const metadata = await normalize([
    a("title", "Segmented Procedural Sorghum Plants", a("xml:lang", "en")),
    a("title", "Sorghum 3D", a("titleType", "AlternativeTitle")),
    a("creator", "Bosheng Li", a("affiliation", "Purdue University")),
    a(
      "creator",
      "Benes, Bedrich",
      a("affiliation", "Purdue University"),
      a("affiliation", "Czech Technical University"),
      a(
        "nameIdentifier",
        "https://orcid.org/0000-0002-1825-0097",
        a("nameIdentifierScheme", "ORCID"),
      ),
    ),
    a("identifier", "10.25739/4fh7-y927", a("identifierType", "DOI")),
    a("publicationYear", "2022"),
    a("publisher", "CyVerse Data Commons"),
    a("resourceType", "Image data", a("resourceTypeGeneral", "image")),
    a("rights", "ODC PDDL", a("rightsURI", "https://opendatacommons.org/licenses/pddl/1-0/")),
    a("subject", "Sorghum", a("subjectScheme", "Genus")),
    a("subject", "Segmentation"),
    a("description", "Methods", a("descriptionType", "Methods")),
    a("description", "Procedurally generated sorghum.", a("descriptionType", "Abstract")),
    a("version", "2.0"),
  ]);
  assert.equal(metadata.title, "Segmented Procedural Sorghum Plants");
  assert.deepEqual(metadata.creators, [
    { name: "Bosheng Li", family: "Li", given: "Bosheng", affiliation: "Purdue University" },
    {
      name: "Benes, Bedrich",
      family: "Benes",
      given: "Bedrich",
      affiliation: "Purdue University; Czech Technical University",
      orcid: "0000-0002-1825-0097",
    },
  ]);
  assert.equal(metadata.doi, "10.25739/4fh7-y927");
  assert.equal(metadata.publicationYear, 2022);
  assert.equal(metadata.resourceType, "Image data");
  assert.equal(metadata.resourceTypeGeneral, "Image");
  assert.equal(metadata.license?.id, "PDDL-1.0");
  assert.equal(metadata.license?.url, "https://opendatacommons.org/licenses/pddl/1-0/");
  assert.deepEqual(metadata.subjects, ["Sorghum", "Segmentation"]);
  assert.equal(metadata.description, "Procedurally generated sorghum.");
  assert.equal(metadata.version, "2.0");
  assert.deepEqual(metadata.missing, []);
  assert.deepEqual(metadata.sources, {
    title: "title",
    creators: "creator + affiliation",
    publicationYear: "publicationYear",
    publisher: "publisher",
    description: "description",
    doi: "identifier",
    subjects: "subject",
    license: "rights",
    resourceType: "resourceType",
    resourceTypeGeneral: "resourceTypeGeneral",
    version: "version",
  });
  assert.deepEqual(metadata.notes, []);
});

Deno.test("flat datacite.* 3.1: prefixed keys, parallel attributes paired by position", async () => {
  const metadata = await normalize([
    a("datacite.title", "Maize seedling images"),
    a("datacite.creator", "Alcock, Thomas"),
    a("datacite.creator", "Bacher, Harel"),
    a("creatorAffiliation\t", "Rothamsted Research"),
    a("creatorAffiliation\t", "Hebrew University of Jerusalem"),
    a("creatorNameIdentifier", ""),
    a("creatorNameIdentifier", "0000-0002-1694-233X"),
    a("datacite.publisher", "iPlant Collaborative Data Commons"),
    a("datacite.publicationyear", "2018"),
    a("datacite.publicationyear", ""),
    a("datacite.resourcetype", "Image"),
    a("Identifier", "10.7946/P2XK5C"),
    a("identifierType", "DOI"),
    a("AlternateIdentifier", "/b7946/p2qp4n"),
    a("alternateIdentifierType", "ARK"),
    a("contributorName", "Wiebe, G. A."),
    a("contributorName", "Okafor, Chidi"),
    a("contributorType", "Researcher"),
    a("contributorType", ""),
  ]);
  assert.deepEqual(metadata.creators, [
    {
      name: "Alcock, Thomas",
      family: "Alcock",
      given: "Thomas",
      affiliation: "Rothamsted Research",
    },
    {
      name: "Bacher, Harel",
      family: "Bacher",
      given: "Harel",
      affiliation: "Hebrew University of Jerusalem",
      orcid: "0000-0002-1694-233X",
    },
  ]);
  assert.equal(metadata.publicationYear, 2018);
  assert.equal(metadata.doi, "10.7946/P2XK5C");
  assert.equal(metadata.ark, "ark:/b7946/p2qp4n");
  assert.equal(metadata.resourceTypeGeneral, "Image");
  assert.deepEqual(metadata.contributors, [
    { name: "Wiebe, G. A.", family: "Wiebe", given: "G. A.", type: "Researcher" },
    { name: "Okafor, Chidi", family: "Okafor", given: "Chidi" },
  ]);
  assert.equal(metadata.sources.creators, "datacite.creator + creatorAffiliation\t");
  assert.equal(metadata.sources.ark, "AlternateIdentifier");
  assert.deepEqual(metadata.notes, []);
});

Deno.test("flat attributes that cannot be paired are not assigned, and a note says so", async () => {
  const metadata = await normalize([
    a("datacite.creator", "Immer, F. R."),
    a("datacite.creator", "Hayes, H. K."),
    a("datacite.creator", "Powers, LeRoy"),
    a("creatorAffiliation\t", "University of Minnesota"),
  ]);
  assert.ok(metadata.creators.every((creator) => creator.affiliation === undefined));
  assert.deepEqual(metadata.notes, [
    'creators: 1 "creatorAffiliation\t" for 3 entries cannot be paired by position; not assigned',
  ]);
  // One creator owns every flat affiliation.
  const single = await normalize([
    a("Creator", "Keeling, Charles D."),
    a("creatorAffiliation", "Scripps Institution of Oceanography"),
    a("creatorAffiliation", "UC San Diego"),
  ]);
  assert.equal(
    single.creators[0].affiliation,
    "Scripps Institution of Oceanography; UC San Diego",
  );
});

Deno.test("identifiers: every DOI shape and misspelt type; invalid values are never reported", async () => {
  const doiOf = async (...avus: AvuLike[]) => {
    const metadata = await normalize(avus);
    return [metadata.doi, metadata.ark, metadata.notes] as const;
  };
  assert.deepEqual(
    await doiOf(a("identifier", "https://doi.org/10.25739/6gq1-wz4f", a("identiferType", "DOI"))),
    ["10.25739/6gq1-wz4f", undefined, []],
  );
  assert.deepEqual(
    await doiOf(a("identifier", "\t10.25739/r8tn-3d6w", a("idetifierType", "DOI"))),
    ["10.25739/r8tn-3d6w", undefined, []],
  );
  assert.deepEqual(
    await doiOf(a("Identifier", "doi:10.25739/tx0s-5m8a"), a("Identifier Type", "DOI")),
    ["10.25739/tx0s-5m8a", undefined, []],
  );
  assert.deepEqual(await doiOf(a("identifier", "10.7946/P2MW2Q")), [
    "10.7946/P2MW2Q",
    undefined,
    [],
  ]);
  // The 15 datasets with an empty identifier: nothing, silently.
  assert.deepEqual(await doiOf(a("identifier", "", a("identifierType", "DOI"))), [
    undefined,
    undefined,
    [],
  ]);
  assert.deepEqual(await doiOf(a("identifier", "TBD", a("identifierType", "DOI"))), [
    undefined,
    undefined,
    ['identifier: "TBD" is not a valid DOI; not reported'],
  ]);
  assert.deepEqual(await doiOf(a("identifier", "10.25739/")), [
    undefined,
    undefined,
    ['identifier: "10.25739/" is not a valid DOI or ARK; not reported'],
  ]);
  assert.deepEqual(
    await doiOf(a("identifier", "https://n2t.net/ark:/87946/p3zz99", a("identifierType", "ARK"))),
    [undefined, "ark:/87946/p3zz99", []],
  );
  assert.deepEqual(await doiOf(a("DOI", "DOI: 10.25739/abcd-1234")), [
    "10.25739/abcd-1234",
    undefined,
    [],
  ]);
  assert.deepEqual(
    await doiOf(
      a("identifier", "10.25739/aaaa-1111", a("identifierType", "DOI")),
      a("identifier", "10.25739/bbbb-2222", a("identifierType", "DOI")),
    ),
    ["10.25739/aaaa-1111", undefined, ["doi: 2 different values stored; the first one is used"]],
  );
  // A DOI kept only as an alternate identifier still counts.
  assert.deepEqual(
    await doiOf(
      a("alternateIdentifier", "10.25739/cccc-3333", a("alternateIdentifierType", "DOI")),
    ),
    ["10.25739/cccc-3333", undefined, []],
  );
  // A URL-typed identifier is not a DOI unless it is a DOI link.
  assert.deepEqual(
    await doiOf(a("identifier", "https://example.org/x", a("identifierType", "URL"))),
    [undefined, undefined, []],
  );
});

Deno.test("ARKs: typed, by shape, and look-alikes that are not ARKs", async () => {
  const arkOf = async (...avus: AvuLike[]) => (await normalize(avus)).ark;
  assert.equal(
    await arkOf(a("alternateIdentifier", "87946/p3f2r7", a("alternateIdentifierType", "ARK"))),
    "ark:/87946/p3f2r7",
  );
  assert.equal(
    await arkOf(a("AlternateIdentifier", "87946/p3mw27"), a("alternateIdentifierType", "")),
    "ark:/87946/p3mw27",
  );
  assert.equal(
    await arkOf(a("AlternateIdentifier", "/b7946/p2qp4n"), a("alternateIdentifierType", "")),
    "ark:/b7946/p2qp4n",
  );
  assert.equal(
    await arkOf(a("AlternateIdentifier", "SRP018832"), a("alternateIdentifierType", "")),
    undefined,
  );
  assert.equal(
    await arkOf(a("alternateIdentifier", "11858/00-097C", a("alternateIdentifierType", "Handle"))),
    undefined,
  );
  assert.equal(
    await arkOf(a("alternateIdentifier", "GHCND:USW00024233", a("alternateIdentifierType", ""))),
    undefined,
  );
  const invalid = await normalize([
    a("alternateIdentifier", "p3f2r7", a("alternateIdentifierType", "ARK")),
  ]);
  assert.equal(invalid.ark, undefined);
  assert.deepEqual(invalid.notes, [
    'alternateIdentifier: "p3f2r7" is not a valid ARK; not reported',
  ]);
});

Deno.test("subjects: repeated AVUs, comma- or semicolon-joined values, keyword keys", async () => {
  const metadata = await normalize([
    a("Subject", "barley, Hordeum vulgare; variety trials"),
    a("subject", "Barley"),
    a("Keyword", "yield"),
    a("subject", ""),
  ]);
  assert.deepEqual(metadata.subjects, ["barley", "Hordeum vulgare", "variety trials", "yield"]);
  assert.equal(metadata.sources.subjects, "Subject + subject + Keyword");
  // One per line, and a list a script stored as JSON.
  const lines = await normalize([
    a("keywords", "soil\nwater\r\nmaize"),
    a("subject", '["a, b", "c"]'),
  ]);
  assert.deepEqual(lines.subjects, ["soil", "water", "maize", "a, b", "c"]);
});

Deno.test("publication year: empties ignored, junk noted, Issued date as a fallback", async () => {
  assert.equal(
    (await normalize([a("datacite.publicationyear", "2018"), a("datacite.publicationyear", "")]))
      .publicationYear,
    2018,
  );
  const junk = await normalize([a("publicationYear", "TBD")]);
  assert.equal(junk.publicationYear, undefined);
  assert.deepEqual(junk.notes, ['publicationYear: "TBD" is not a year; not used']);
  assert.ok(junk.missing.includes("publicationYear"));
  const two = await normalize([a("publicationYear", "2019"), a("PublicationYear", "2020")]);
  assert.equal(two.publicationYear, 2019);
  assert.deepEqual(two.notes, [
    "publicationYear: different years stored; 2019 (the first) is used",
  ]);
  const issued = await normalize([a("date", "2017-05-04", a("dateType", "Issued"))]);
  assert.equal(issued.publicationYear, 2017);
  assert.equal(issued.sources.publicationYear, "date (Issued)");
});

Deno.test("date modified: an attribute or an Updated date wins over the folder's date", async () => {
  const folder = new Date("2020-01-01T00:00:00Z");
  const attribute = await normalize([a("Date Modified", "2023-05-01T10:00:00Z")], folder);
  assert.equal(attribute.dateModified?.toISOString(), "2023-05-01T10:00:00.000Z");
  assert.equal(attribute.sources.dateModified, "Date Modified");
  const updated = await normalize([a("date", "2022-03-04", a("dateType", "Updated"))], folder);
  assert.equal(updated.dateModified?.toISOString(), "2022-03-04T00:00:00.000Z");
  const junk = await normalize([a("dateModified", "last week")], folder);
  assert.equal(junk.dateModified?.toISOString(), folder.toISOString());
  assert.deepEqual(junk.notes, ['dateModified: "last week" is not a date; not used']);
  assert.equal((await normalize([])).dateModified, undefined);
});

Deno.test("licence from rights and its nested or flat sub-properties", async () => {
  const nested = await normalize([
    a("rights", "CC0", a("rightsIdentifier", "CC0-1.0"), a("rightsIdentifierScheme", "SPDX")),
  ]);
  assert.deepEqual(nested.license, {
    id: "CC0-1.0",
    name: "Creative Commons Zero v1.0 Universal",
    url: "https://creativecommons.org/publicdomain/zero/1.0/",
    confidence: "exact",
  });
  const flat = await normalize([
    a("Rights", "Custom terms"),
    a("rightsURI", "https://example.org/terms"),
  ]);
  assert.deepEqual(flat.license, {
    name: "Custom terms",
    url: "https://example.org/terms",
    confidence: "unknown",
  });
  const empty = await normalize([a("rights", "")]);
  assert.equal(empty.license, undefined);
  const two = await normalize([a("rights", "CC0"), a("License", "MIT")]);
  assert.equal(two.license?.id, "CC0-1.0");
  assert.deepEqual(two.notes, ["license: 2 rights statements stored; the first one is used"]);
});

Deno.test("creators: Author/authors keys, semicolon lists, name hints, skipped blanks", async () => {
  const metadata = await normalize([
    a("Author", "Nakamura, Aiko"),
    a("authors", "Smith, Jane; Doe, John"),
    a("creator", "", a("familyName", "Ng"), a("givenName", "Wei")),
    a("creator", "Plant Phenomics Lab", a("nameType", "Organizational")),
    a("creator", "", a("affiliation", "Nowhere University")),
    a("creator", "Roe, Ann", a("nameIdentifier", "0000-0002-1825-0098")),
  ]);
  assert.deepEqual(metadata.creators.map((creator) => creator.name), [
    "Nakamura, Aiko",
    "Smith, Jane",
    "Doe, John",
    "Ng, Wei",
    "Plant Phenomics Lab",
    "Roe, Ann",
  ]);
  assert.equal(metadata.creators[3].family, "Ng");
  assert.equal(metadata.creators[4].family, undefined);
  assert.equal(metadata.creators[5].orcid, undefined);
  assert.deepEqual(metadata.notes, [
    'creators: "0000-0002-1825-0098" is not a valid ORCID iD; not reported',
    "creators: an entry without a name was skipped",
  ]);
});

Deno.test("creators: one per line, or people joined by 'and' or '&'; organisations with 'and' stay whole", async () => {
  const metadata = await normalize([
    a("creator", "Jane Doe and John Smith"),
    a("creator", "Roe, Ann & Poe, Edgar A."),
    a("creator", "Kim Lee\nSam Park\r\n"),
    a("creator", "Department of Ecology and Evolutionary Biology"),
    a("creator", "Simon and Garfunkel"),
    a("creator", "Bill and Melinda Gates Foundation"),
    // Groups named after fields of study: two words each side, but no two people.
    a("creator", "Marine Biology and Ocean Sciences"),
    a("creator", "Plant Pathology & Crop Physiology"),
    a("creator", "Natural Resources and Environmental Management"),
  ]);
  assert.deepEqual(
    metadata.creators.map(({ name, family, given }) => [name, family, given]),
    [
      ["Jane Doe", "Doe", "Jane"],
      ["John Smith", "Smith", "John"],
      ["Roe, Ann", "Roe", "Ann"],
      ["Poe, Edgar A.", "Poe", "Edgar A."],
      ["Kim Lee", "Lee", "Kim"],
      ["Sam Park", "Park", "Sam"],
      ["Department of Ecology and Evolutionary Biology", undefined, undefined],
      ["Simon and Garfunkel", undefined, undefined],
      ["Bill and Melinda Gates Foundation", undefined, undefined],
      ["Marine Biology and Ocean Sciences", undefined, undefined],
      ["Plant Pathology & Crop Physiology", undefined, undefined],
      ["Natural Resources and Environmental Management", undefined, undefined],
    ],
  );
  assert.match(
    await metadata.citation("apa"),
    /^Doe, J\., Smith, J\., Roe, A\., Poe, E\. A\., Lee, K\., Park, S\., /,
  );
});

Deno.test("creators: an affiliation or ORCID iD in parentheses after a person's name is read as one", async () => {
  const metadata = await normalize([
    a("creator", "Doe, Jane (University of Arizona)"),
    a("creator", "Sam Park (ORCID: 0000-0002-1825-0097)"),
    a("creator", "Lee, Kim (PI)"),
    a("creator", "Arizona State University (ASU)"),
    a("creator", "Roe, Ann (Nowhere Institute)", a("affiliation", "Somewhere University")),
  ]);
  assert.deepEqual(
    metadata.creators.map((
      { name, family, affiliation, orcid },
    ) => [name, family, affiliation, orcid]),
    [
      ["Doe, Jane", "Doe", "University of Arizona", undefined],
      ["Sam Park", "Park", undefined, "0000-0002-1825-0097"],
      ["Lee, Kim (PI)", undefined, undefined, undefined],
      ["Arizona State University (ASU)", undefined, undefined, undefined],
      ["Roe, Ann", "Roe", "Somewhere University", undefined],
    ],
  );
});

Deno.test("creators: an affiliation after a comma, an ORCID iD or an e-mail address after the name", async () => {
  const metadata = await normalize([
    a("creator", "Jane Doe, University of Arizona"),
    a("creator", "Roe, Ann, Department of Plant Sciences, University of Arizona"),
    a("creator", "Sam Park https://orcid.org/0000-0002-1825-0097"),
    a("creator", "Kim Lee, ORCID: 0000-0002-1694-233X"),
    a("creator", "Bo Li <bo.li@arizona.edu>"),
    a("creator", "Al Chen (al.chen@arizona.edu)"), // an address is no affiliation
    a("creator", "Ed Moe, Fay Wu, University of Arizona"), // two people: left whole
  ]);
  assert.deepEqual(
    metadata.creators.map(({ name, family, affiliation, orcid }) => [
      name,
      family,
      affiliation,
      orcid,
    ]),
    [
      ["Jane Doe", "Doe", "University of Arizona", undefined],
      ["Roe, Ann", "Roe", "Department of Plant Sciences, University of Arizona", undefined],
      ["Sam Park", "Park", undefined, "0000-0002-1825-0097"],
      ["Kim Lee", "Lee", undefined, "0000-0002-1694-233X"],
      ["Bo Li", "Li", undefined, undefined],
      ["Al Chen", "Chen", undefined, undefined],
      ["Ed Moe, Fay Wu, University of Arizona", undefined, undefined, undefined],
    ],
  );
});

Deno.test("values of invisible characters only (a zero-width space, a BOM) are empty, not a title or creator", async () => {
  const metadata = await normalize(
    ["title", "creator", "publisher", "rights", "subject", "version"].map((attr) =>
      a(attr, "\u200b\ufeff")
    ),
  );
  assert.equal(metadata.title, undefined);
  assert.deepEqual(metadata.creators, []);
  assert.equal(metadata.publisher, undefined);
  assert.equal(metadata.license, undefined);
  assert.deepEqual(metadata.subjects, []);
  assert.equal(metadata.version, undefined);
});

Deno.test("contributors: nested and flat types and affiliations, misspelt key", async () => {
  const metadata = await normalize([
    a("contributer", "Moreno, Dana", a("contributorType", "ContactPerson")),
    a(
      "contributor",
      "Horst, Allison M.",
      a("contributorType", "DataCurator"),
      a("affiliation", "UC Santa Barbara"),
    ),
    a("Contributor", "Scripps CO2 Program"),
  ]);
  assert.deepEqual(metadata.contributors, [
    { name: "Moreno, Dana", family: "Moreno", given: "Dana", type: "ContactPerson" },
    {
      name: "Horst, Allison M.",
      family: "Horst",
      given: "Allison M.",
      affiliation: "UC Santa Barbara",
      type: "DataCurator",
    },
    { name: "Scripps CO2 Program" },
  ]);
});

Deno.test("related identifiers: canonical DOIs, honest types, DataCite relation spelling", async () => {
  const metadata = await normalize([
    a(
      "relatedIdentifier",
      "https://doi.org/10.1371/journal.pone.0090081",
      a("relatedIdentifierType", "doi"),
      a("relationType", "isdocumentedby"),
    ),
    a("relatedIdentifier", "10.1234", a("relatedIdentifierType", "DOI")),
    a("relatedIdentifier", "/iplant/home/shared/commons_repo/curated/_deprecated_X"),
    a("relatedIdentifier", "https://www.gapminder.org/data/", a("relationType", "IsDerivedFrom")),
    a("relatedIdentifier", "PMC4012345", a("relatedIdentifierType", "PMID")),
  ]);
  assert.deepEqual(metadata.relatedIdentifiers, [
    {
      identifier: "10.1371/journal.pone.0090081",
      identifierType: "DOI",
      url: "https://doi.org/10.1371/journal.pone.0090081",
      relationType: "IsDocumentedBy",
    },
    { identifier: "10.1234" },
    { identifier: "/iplant/home/shared/commons_repo/curated/_deprecated_X" },
    {
      identifier: "https://www.gapminder.org/data/",
      identifierType: "URL",
      url: "https://www.gapminder.org/data/",
      relationType: "IsDerivedFrom",
    },
    { identifier: "PMC4012345", identifierType: "PMID" },
  ]);
  assert.deepEqual(metadata.notes, [
    'relatedIdentifiers: "10.1234" is not a valid DOI; kept untyped',
  ]);
});

Deno.test("funding: nested trees at any depth, a text-only reference, flat attributes", async () => {
  const nested = await normalize([
    a(
      "fundingReference",
      "",
      a(
        "funderName",
        "National Science Foundation",
        a("funderIdentifier", "https://ror.org/021nxhr62", a("funderIdentifierType", "ROR")),
      ),
      a("awardNumber", "DBI-1743442", a("awardURI", "https://www.nsf.gov/award/1743442")),
    ),
    a("fundingReference", "USDA NIFA"),
  ]);
  assert.deepEqual(nested.funding, [
    {
      funderName: "National Science Foundation",
      funderIdentifier: "https://ror.org/021nxhr62",
      funderIdentifierType: "ROR",
      awardNumber: "DBI-1743442",
      awardUri: "https://www.nsf.gov/award/1743442",
    },
    { funderName: "USDA NIFA" },
  ]);
  const flat = await normalize([
    a("funderName", "NSF"),
    a("awardNumber", "IOS-1238189"),
    a("awardURI", "https://www.nsf.gov/award/1238189"),
  ]);
  assert.deepEqual(flat.funding, [{
    funderName: "NSF",
    awardNumber: "IOS-1238189",
    awardUri: "https://www.nsf.gov/award/1238189",
  }]);
  assert.deepEqual((await normalize([a("fundingReference", "")])).funding, []);
});

Deno.test("deprecated: the _deprecated_ folder name or a true is_deprecated", async () => {
  const byName = await normalizeMetadata({
    path: "/iplant/home/shared/commons_repo/curated/_deprecated_Keeling_2018",
    avus: [],
    irodsAvus: [],
  });
  assert.equal(byName.deprecated, true);
  assert.equal(byName.sources.deprecated, "(folder name)");
  assert.equal((await normalize([a("is_deprecated", "TRUE")])).deprecated, true);
  assert.equal((await normalize([a("is_deprecated", "false")])).deprecated, false);
});

Deno.test("raw iRODS AVUs are read only when the metadata service has none", async () => {
  const fromIrods = await normalizeMetadata({
    path: PATH,
    avus: [],
    irodsAvus: [{ attr: "Title", value: "Legacy dataset", unit: "" }],
  });
  assert.equal(fromIrods.title, "Legacy dataset");
  assert.deepEqual(fromIrods.notes, [
    "the metadata service has no AVUs for this item; raw iRODS AVUs were read instead",
  ]);
  const both = await normalizeMetadata({
    path: PATH,
    avus: [a("title", "Template title")],
    irodsAvus: [{ attr: "Title", value: "Legacy dataset", unit: "" }],
  });
  assert.equal(both.title, "Template title");
  assert.deepEqual(both.notes, []);
});

Deno.test("the record: frozen, raw kept as served, raw-metadata fields, JSON and inspect", async () => {
  const raw = {
    path: PATH,
    avus: [a("title", "T"), a("identifier", "10.25739/x1")],
    irodsAvus: [{ attr: "source", value: "field-7", unit: "" }],
  };
  const metadata = await normalizeMetadata(raw);
  assert.equal(metadata.raw, raw);
  assert.equal(metadata.avus, raw.avus);
  assert.equal(metadata.irodsAvus, raw.irodsAvus);
  assert.equal(metadata.url, "https://doi.org/10.25739/x1");
  assert.ok(Object.isFrozen(metadata) && Object.isFrozen(metadata.creators));
  assert.throws(() => {
    (metadata as { title?: string }).title = "changed";
  }, TypeError);
  const json = JSON.parse(JSON.stringify(metadata));
  assert.equal(json.title, "T");
  assert.equal(json.raw.avus.length, 2);
  assert.deepEqual(json.missing, ["creators", "publicationYear", "publisher"]);
  const shown = Deno.inspect(metadata);
  assert.match(shown, /^DatasetMetadata \{/);
  assert.match(shown, /raw: "\[2 AVUs, 1 iRODS AVUs\]"/);
  assert.ok(!shown.includes("field-7"));
});

Deno.test("one person, one creator: listed under two keys, reformatted, or with an ORCID iD", async () => {
  // As Data Commons records have them: the DataCite 4 `creator` entries, the 3.1 flat
  // `datacite.creator` ones left behind by a template migration, and a repeat with an ORCID iD.
  const metadata = await normalize([
    a("title", "Palmer penguins"),
    a("creator", "Gorman, Kristen B.", a("affiliation", "Palmer Station Antarctica LTER")),
    a("creator", "Williams, Tony D."),
    a("datacite.creator", "Kristen B. Gorman"),
    a("datacite.creator", "Williams, Tony D."),
    a(
      "creator",
      "GORMAN, K. B.",
      a("nameIdentifier", "0000-0002-1825-0097", a("nameIdentifierScheme", "ORCID")),
    ),
    a("creator", "Fraser, William R."),
    // Two people sharing a family name stay two, as do the same initials with other iDs.
    a("creator", "Keeling, Charles D."),
    a("creator", "Keeling, Ralph F."),
    a("creator", "Gorman, Kristen"),
    a("publicationYear", "2020"),
    a("publisher", "CyVerse Data Commons"),
    a("identifier", "10.25739/9k2v-7q4m", a("identifierType", "DOI")),
  ]);
  assert.deepEqual(metadata.creators.map((creator) => creator.name), [
    "Gorman, Kristen B.",
    "Williams, Tony D.",
    "Fraser, William R.",
    "Keeling, Charles D.",
    "Keeling, Ralph F.",
    "Gorman, Kristen",
  ]);
  assert.deepEqual(metadata.creators[0], {
    name: "Gorman, Kristen B.",
    family: "Gorman",
    given: "Kristen B.",
    affiliation: "Palmer Station Antarctica LTER",
    orcid: "0000-0002-1825-0097",
  });
  assert.ok(metadata.notes.includes("creators: 3 listed twice; each person kept once"));
  for (const style of ["datacite", "apa", "bibtex", "ris", "csl-json", "jsonld", "cff"] as const) {
    // The citation key (BibTeX, CSL-JSON) names the first creator too: not a creator entry.
    const text = (await metadata.citation(style)).replaceAll("Gorman2020Palmer", "");
    // A style names each creator entry the same number of times (JSON-LD twice: name and
    // familyName): two Gormans, two Keelings, one Williams.
    const times = (name: string) => text.match(new RegExp(name, "g"))?.length ?? 0;
    assert.ok(times("Williams") > 0, style);
    assert.equal(times("Gorman"), 2 * times("Williams"), style);
    assert.equal(times("Keeling"), 2 * times("Williams"), style);
  }
});

Deno.test("one person, one contributor per role; other roles and namesakes stay", async () => {
  const metadata = await normalize([
    a("contributor", "Okafor, Chidi", a("contributorType", "DataManager")),
    a("datacite.contributor", "Chidi Okafor", a("contributorType", "DataManager")),
    a("contributor", "Okafor, Chidi", a("contributorType", "ContactPerson")),
    a("contributor", "Okafor, Ada", a("contributorType", "DataManager")),
  ]);
  assert.deepEqual(
    metadata.contributors.map((person) => `${person.name} (${person.type})`),
    [
      "Okafor, Chidi (DataManager)",
      "Okafor, Chidi (ContactPerson)",
      "Okafor, Ada (DataManager)",
    ],
  );
});
