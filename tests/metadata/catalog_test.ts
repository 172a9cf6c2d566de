import assert from "node:assert/strict";
import { catalogFrame, catalogRows, titleKey } from "../../lib/metadata/catalog.ts";
import { normalizeMetadata } from "../../lib/metadata/normalize.ts";

const record = (path: string, avus: { attr: string; value: string }[], id?: string) =>
  normalizeMetadata({ path, avus, irodsAvus: [] }, {
    ...(id === undefined ? {} : { id }),
    folderModified: new Date("2020-01-02T03:04:05Z"),
  });

Deno.test("titles compare without case, spacing or trailing punctuation", () => {
  assert.equal(titleKey("Daily weather observations."), titleKey(" daily  WEATHER observations "));
  assert.notEqual(titleKey("Daily weather"), titleKey("Daily weather v2"));
});

Deno.test("rows: one per record, shared titles flagged (never merged), failures kept", async () => {
  const v1 = await record("/c/NOAA_2016", [
    { attr: "datacite.title", value: "Daily weather, Seattle" },
    { attr: "Identifier", value: "10.7946/P2H59V" },
  ], "id-1");
  const v2 = await record("/c/NOAA_2019", [
    { attr: "title", value: "daily weather,  Seattle." },
    { attr: "subject", value: "weather, Seattle" },
    { attr: "rights", value: "ODC PDDL" },
    { attr: "creator", value: "Gorman, Kristen B." },
    { attr: "publicationYear", value: "2019" },
  ], "id-2");
  const untitled = await record("/c/Untitled_A", [], "id-3");
  const untitledToo = await record("/c/Untitled_B", [], "id-4");
  const rows = catalogRows([v1, v2, untitled, untitledToo, { path: "/c/Gone", error: "gone" }]);
  assert.deepEqual(rows.map((row) => [row.path, row.id, row.duplicateTitle]), [
    ["/c/NOAA_2016", "id-1", true],
    ["/c/NOAA_2019", "id-2", true],
    ["/c/Untitled_A", "id-3", false],
    ["/c/Untitled_B", "id-4", false],
    ["/c/Gone", null, false],
  ]);
  assert.deepEqual(rows[1], {
    path: "/c/NOAA_2019",
    id: "id-2",
    title: "daily weather, Seattle.",
    creators: ["Gorman, Kristen B."],
    year: 2019,
    doi: null,
    ark: null,
    license: "PDDL-1.0",
    licenseConfidence: "alias",
    subjects: ["weather", "Seattle"],
    dateModified: new Date("2020-01-02T03:04:05Z"),
    duplicateTitle: true,
    deprecated: false,
    missing: ["publisher", "doi"],
    error: null,
  });
  assert.equal(rows[4].error, "gone");
  assert.deepEqual(rows[4].creators, []);
});

Deno.test("frame: typed columns, nulls kept as nulls, empty lists typed", async () => {
  const rows = catalogRows([
    await record("/c/A", [{ attr: "title", value: "A" }, {
      attr: "publicationYear",
      value: "2016",
    }]),
    await record("/c/B", []),
  ]);
  const frame = await catalogFrame(rows);
  const columns = [
    "path",
    "id",
    "title",
    "creators",
    "year",
    "doi",
    "ark",
    "license",
    "licenseConfidence",
    "subjects",
    "dateModified",
    "duplicateTitle",
    "deprecated",
    "missing",
    "error",
  ];
  assert.deepEqual(frame.columns, columns);
  assert.equal(frame.height, 2);
  const types = Object.fromEntries(
    Object.entries(frame.schema).map(([name, type]) => [name, String(type)]),
  );
  assert.equal(types.year, "DataType(Int32)");
  assert.equal(types.creators, "DataType(List(DataType(String)))");
  assert.equal(types.subjects, "DataType(List(DataType(String)))");
  assert.equal(types.dateModified, "DataType(Datetime(ms,UTC))");
  assert.equal(types.duplicateTitle, "DataType(Bool)");
  assert.deepEqual(frame.getColumn("year").toArray(), [2016, null]);
  assert.deepEqual(frame.getColumn("title").toArray(), ["A", null]);
  assert.deepEqual(frame.getColumn("subjects").toArray(), [[], []]);
  assert.deepEqual(frame.getColumn("error").toArray(), [null, null]);

  const empty = await catalogFrame([]);
  assert.equal(empty.height, 0);
  assert.deepEqual(empty.columns, columns);
  assert.equal(String(empty.schema.subjects), "DataType(List(DataType(String)))");
  assert.equal(String(empty.schema.year), "DataType(Int32)");
});
