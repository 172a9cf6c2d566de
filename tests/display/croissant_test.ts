/**
 * The Croissant card: every value escaped (hostile names, URLs, types), links only where a URL
 * is http(s), and the download link carrying exactly the document.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type CroissantView, renderCroissant } from "../../lib/display/croissant.ts";
import { checkView, HOSTILE, HOSTILE_URLS } from "./_safety.ts";

function view(value: string, url: string): CroissantView {
  return {
    name: value,
    path: `/iplant/home/shared/${value}`,
    files: [
      { name: value, url, size: 1234, encodingFormat: value, checksum: `md5 ${value}` },
      { name: "b.csv", url: "https://example.org/b.csv", size: 5, encodingFormat: "text/csv" },
    ],
    recordSets: [{ name: value, fields: [{ name: value, dataType: "sc:Text" }] }],
    missing: [value],
    json: JSON.stringify({ name: value, "it's": 'quoted "twice"' }),
  };
}

Deno.test("croissant card: hostile values are shown as text, never as markup or links", () => {
  for (const [index, value] of HOSTILE.entries()) {
    const url = HOSTILE_URLS[index % HOSTILE_URLS.length];
    const shown = view(value, url);
    const out = renderCroissant(shown);
    const { text, hrefs } = checkView(out);
    // Shown as written (control and bidirectional characters are the view's to escape).
    if (!/\p{Cc}|\p{Cf}/u.test(value)) assert.ok(text.includes(value), value);
    assert.ok(!hrefs.includes(url), url);
    assert.deepEqual(hrefs, ["https://example.org/b.csv"]);
    // The download link holds the document as given.
    const href = /href="(data:[^"]*)"/.exec(out["text/html"])?.[1] ?? "";
    const json = decodeURIComponent(href.slice(href.indexOf(",") + 1).replaceAll("&amp;", "&"));
    assert.equal(json, shown.json);
  }
});

Deno.test("croissant card: files, record sets and what Croissant requires that the metadata lacks", () => {
  const out = renderCroissant({
    name: "Palmer penguins",
    path: "/iplant/home/shared/penguins",
    files: [{
      name: "penguins.csv",
      url: "https://example.org/penguins.csv",
      size: 13487,
      encodingFormat: "text/csv",
      checksum: "md5 20c4833f1bcf6c4832525939fafc46ed",
    }],
    recordSets: [{
      name: "penguins.csv",
      fields: [{ name: "Species", dataType: "sc:Text" }, { name: "Year", dataType: "sc:Integer" }],
    }],
    missing: ["license", "creator"],
    json: "{}",
  });
  const { text } = checkView(out);
  assert.ok(text.includes("Species: Text"));
  assert.ok(text.includes("Year: Integer"));
  assert.ok(text.includes("Croissant requires license, creator, which the metadata lacks"));
  assert.equal(
    out["text/plain"].split("\n")[0],
    "Croissant: Palmer penguins (1 file object, 1 record set)",
  );
  assert.match(out["text/plain"], /penguins\.csv {2}text\/csv {2}13\.5 kB {2}md5 20c4833f/);
  assert.match(out["text/plain"], /penguins\.csv: Species sc:Text, Year sc:Integer/);
});
