import assert from "node:assert/strict";
import {
  CITATION_STYLE_LIST,
  CITATION_STYLES,
  citationStyle,
} from "../../lib/registry/citation_styles.ts";
import { formatCitation } from "../../lib/metadata/citation.ts";

const record = {
  path: "/iplant/home/shared/x",
  title: "X",
  creators: [{ name: "A. Person" }],
  subjects: [],
  publicationYear: 2020,
};

Deno.test("every registered style has a formatter, and JSON styles give JSON", async () => {
  assert.equal(new Set(CITATION_STYLES).size, CITATION_STYLE_LIST.length);
  for (const style of CITATION_STYLES) {
    const text = await formatCitation(record, style);
    assert.ok(text.length > 0, style);
    if (citationStyle(style).json) assert.doesNotThrow(() => JSON.parse(text), style);
    if (citationStyle(style).joining === "json-array") assert.ok(Array.isArray(JSON.parse(text)));
  }
});
