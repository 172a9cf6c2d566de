/**
 * Citations of a normalised dataset record: DataCite's recommended form (written here), APA,
 * BibTeX and RIS (through citation-js), and CSL-JSON. Parts the metadata lacks are left out —
 * never "undefined", never empty parentheses.
 *
 * @module
 */

import { BadRequestError, quoteInput } from "../client/errors.ts";
import { definedOf } from "../client/defined.ts";
import { CITATION_STYLES, type CitationStyle, citationStyle } from "../registry/citation_styles.ts";
import { arkUrl } from "./ark.ts";
import { type Citable, linkOf, namesDataset, titleOf, uncasedName } from "./citable.ts";
import { cffText } from "./cff.ts";
import { toJsonLd } from "./jsonld.ts";
import { type CslItem, loadCitationJs } from "./citejs.ts";
import { doiUrl } from "./doi.ts";
import { initials } from "./names.ts";

export { type Citable, CITATION_STYLES, type CitationStyle, linkOf, namesDataset, titleOf };

/**
 * A dataset's citation in `style` (default `datacite`). Links the DOI, else the ARK (N2T), else
 * names the data-store path. A missing title is stood in for by the folder name in square
 * brackets, the way citation styles describe untitled works.
 *
 * @throws {BadRequestError} for an unknown style.
 *
 * @example
 * ```ts
 * import { formatCitation } from "./citation.ts";
 * import assert from "node:assert/strict";
 *
 * const text = await formatCitation({
 *   path: "/iplant/home/shared/commons_repo/curated/BTS_FlightDelays_OnTime_2021",
 *   title: "Airline on-time performance", creators: [{ name: "Bureau of Transportation Statistics" }],
 *   publicationYear: 2021, publisher: "CyVerse Data Commons", ark: "ark:/87946/p3f2r7", subjects: [],
 * });
 * assert.equal(
 *   text,
 *   "Bureau of Transportation Statistics (2021). Airline on-time performance. " +
 *     "CyVerse Data Commons. https://n2t.net/ark:/87946/p3f2r7",
 * );
 * ```
 */
export async function formatCitation(
  metadata: Citable,
  style: CitationStyle = "datacite",
): Promise<string> {
  checkCitationStyle(style);
  switch (style) {
    case "datacite":
      return dataciteCitation(metadata);
    case "csl-json":
      return JSON.stringify([toCsl(metadata)], null, 2);
    case "jsonld":
      return JSON.stringify(toJsonLd(metadata), null, 2);
    case "cff":
      return await cffText(metadata);
    case "apa": {
      const citejs = await loadCitationJs();
      const text = citejs.format([apaItem(metadata)], "bibliography", {
        template: "apa",
        format: "text",
        lang: "en-US",
      });
      // Without a date citation-js's APA asks for a retrieval date tern never invents, and
      // leaves its label bare before the link; APA 7 gives the link alone.
      return String(text).trim().replace(/ Retrieved (?=https?:\/\/)/, " ");
    }
    case "bibtex": {
      const citejs = await loadCitationJs();
      return bibtexText(citejs.bibtexEntries([bibtexItem(metadata, citejs.tex)]));
    }
    case "ris": {
      const citejs = await loadCitationJs();
      const entries = citejs.format([risItem(metadata)], "ris", { format: "object" });
      return risText(entries, metadata.subjects);
    }
  }
}

/**
 * Several citations in one style as one file, the way the registry says that style joins
 * them: one JSON array for CSL-JSON (JSON-LD: one value alone, several as an array), YAML
 * documents separated by `---` for CITATION.cff, a blank line between BibTeX or RIS entries,
 * one per line otherwise.
 *
 * @throws {BadRequestError} for an unknown style.
 *
 * @example
 * ```ts
 * import { joinCitations } from "./citation.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(joinCitations(["@misc{a}", "@misc{b}"], "bibtex"), "@misc{a}\n\n@misc{b}");
 * assert.equal(joinCitations(['[{"id":"a"}]', '[{"id":"b"}]'], "csl-json"), '[\n  {\n    "id": "a"\n  },\n  {\n    "id": "b"\n  }\n]');
 * assert.equal(joinCitations(['{"name":"a"}'], "jsonld"), '{\n  "name": "a"\n}');
 * ```
 */
export function joinCitations(texts: readonly string[], style: CitationStyle): string {
  checkCitationStyle(style);
  const { joining } = citationStyle(style);
  const trimmed = texts.map((text) => text.replace(/(?<!\n)\n+$/, ""));
  switch (joining) {
    case "json-array":
    case "json-value": {
      const items = trimmed.flatMap((text) => [JSON.parse(text)].flat());
      const value = joining === "json-value" && items.length === 1 ? items[0] : items;
      return JSON.stringify(value, null, 2);
    }
    case "yaml-documents":
      return trimmed.join("\n---\n");
    case "blank-line":
      return trimmed.join("\n\n");
    case "lines":
      return trimmed.join("\n");
  }
}

/**
 * Checks that a value is a {@linkcode CitationStyle}, before any work is done for it.
 *
 * @throws {BadRequestError} naming the styles there are.
 *
 * @example
 * ```ts
 * import { checkCitationStyle } from "./citation.ts";
 * import assert from "node:assert/strict";
 *
 * checkCitationStyle("apa");
 * assert.throws(() => checkCitationStyle("mla"), /Unknown citation style "mla"/);
 * ```
 */
export function checkCitationStyle(style: unknown): asserts style is CitationStyle {
  if (!CITATION_STYLES.includes(style as CitationStyle)) {
    throw new BadRequestError(
      `Unknown citation style ${quoteInput(style)}; use one of ${CITATION_STYLES.join(", ")}.`,
    );
  }
}

/**
 * DataCite's recommended citation: `Creators (Year). Title. Version. Publisher. Link` — people
 * as `Family, G.`, organisations whole; the link is the DOI's, else the ARK's, else the
 * data-store path.
 *
 * @example
 * ```ts
 * import { dataciteCitation } from "./citation.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   dataciteCitation({
 *     path: "/iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
 *     title: "Palmer penguins", publicationYear: 2020, version: "1.0",
 *     creators: [
 *       { name: "Gorman, Kristen B.", family: "Gorman", given: "Kristen B." },
 *       { name: "Williams, Tony D.", family: "Williams", given: "Tony D." },
 *     ],
 *     publisher: "CyVerse Data Commons", doi: "10.25739/9k2v-7q4m", subjects: [],
 *   }),
 *   "Gorman, K. B., Williams, T. D. (2020). Palmer penguins. Version 1.0. " +
 *     "CyVerse Data Commons. https://doi.org/10.25739/9k2v-7q4m",
 * );
 * ```
 */
export function dataciteCitation(metadata: Citable): string {
  const names = metadata.creators.map(personForCitation).filter((name) => name !== "");
  const year = metadata.publicationYear === undefined ? "" : ` (${metadata.publicationYear})`;
  const title = titleOf(metadata);
  const segments: string[] = [];
  if (names.length > 0) {
    segments.push(`${names.join(", ")}${year}`);
    if (title !== undefined) segments.push(title);
  } else if (title !== undefined) segments.push(`${title}${year}`);
  else if (year !== "") segments.push(year.trim());
  if (metadata.version !== undefined) segments.push(versionText(metadata.version));
  if (metadata.publisher !== undefined) segments.push(metadata.publisher);
  const link = linkOf(metadata) ?? (metadata.path === "" ? undefined : metadata.path);
  const ended = segments.map((segment) => /[.?!]$/.test(segment) ? segment : `${segment}.`);
  return [...ended, ...(link === undefined ? [] : [link])].join(" ");
}

/**
 * The record as a CSL-JSON item (the input of every CSL processor, Zotero and citation-js).
 * People become `family`/`given`, organisations `literal`; without a DOI or ARK the data-store
 * path goes in `archive_location`.
 *
 * @example
 * ```ts
 * import { toCsl } from "./citation.ts";
 * import assert from "node:assert/strict";
 *
 * const item = toCsl({
 *   path: "/x/Gapminder_2019", title: "Gapminder", creators: [{ name: "Gapminder Foundation" }],
 *   publicationYear: 2019, doi: "10.25739/r8tn-3d6w", subjects: ["demography"],
 * });
 * assert.deepEqual(item.author, [{ literal: "Gapminder Foundation" }]);
 * assert.equal(item.URL, "https://doi.org/10.25739/r8tn-3d6w");
 * ```
 */
export function toCsl(metadata: Citable): CslItem {
  const key = citationKey(metadata);
  const item: CslItem = {
    id: key,
    "citation-key": key,
    type: metadata.resourceTypeGeneral === "Software" ? "software" : "dataset",
  };
  const title = titleOf(metadata);
  if (title !== undefined) item.title = title;
  if (metadata.creators.length > 0) {
    item.author = metadata.creators.map((creator) =>
      creator.family === undefined
        ? { literal: creator.name }
        : definedOf(creator, ["family", "given", "suffix"])
    );
  }
  if (metadata.publicationYear !== undefined) {
    item.issued = { "date-parts": [[metadata.publicationYear]] };
  }
  if (metadata.publisher !== undefined) item.publisher = metadata.publisher;
  // CSL styles print the word themselves ("Version 2"): a label in the value would repeat it.
  if (metadata.version !== undefined) {
    item.version = metadata.version.replace(/^(?:version|ver\.?|v)\s*(?=\d)/i, "");
  }
  if (metadata.doi !== undefined) item.DOI = metadata.doi;
  const link = linkOf(metadata);
  if (link !== undefined) item.URL = link;
  else if (metadata.path !== "") item.archive_location = metadata.path;
  if (metadata.description !== undefined) item.abstract = metadata.description;
  if (metadata.subjects.length > 0) item.keyword = metadata.subjects.join(", ");
  const license = metadata.license?.id ?? metadata.license?.name;
  if (license !== undefined) item.license = license;
  return item;
}

/**
 * A citation key: first creator's family name (or organisation's first word), year, first
 * significant title word, ASCII only — `Gorman2020Palmer`.
 *
 * @example
 * ```ts
 * import { citationKey } from "./citation.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   citationKey({
 *     path: "", title: "Ørsted's data", publicationYear: 2019, subjects: [],
 *     creators: [{ name: "Ørsted, Hans", family: "Ørsted", given: "Hans" }],
 *   }),
 *   "Orsted2019Orsteds",
 * );
 * ```
 */
export function citationKey(metadata: Citable): string {
  const first = metadata.creators[0];
  const who = first?.family ?? first?.name.split(/[\s,]+/)[0] ?? "";
  const word =
    (metadata.title ?? "").split(/\s+/).map(ascii).find((w) =>
      w.length > 3 || /^[A-Z0-9]{2,}$/.test(w)
    ) ?? "";
  const key = `${ascii(who)}${metadata.publicationYear ?? ""}${word}`;
  if (key !== "" && !/^\d+$/.test(key)) return key;
  const folder = ascii(metadata.path.split("/").filter((part) => part !== "").at(-1) ?? "");
  return folder === "" ? `dataset${key}` : folder;
}

function ascii(text: string): string {
  return text.normalize("NFKD").replace(/[øØ]/g, (c) => c === "ø" ? "o" : "O")
    .replace(/[ßæÆœŒðÐþÞłŁ]/g, (c) => FOLD[c] ?? "")
    .replace(/[^A-Za-z0-9]/g, "");
}

const FOLD: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  Æ: "AE",
  œ: "oe",
  Œ: "OE",
  ð: "d",
  Ð: "D",
  þ: "th",
  Þ: "Th",
  ł: "l",
  Ł: "L",
};

/** `Family, G. G.` (with `, Jr.`) for people; organisations as written. */
function personForCitation(creator: Citable["creators"][number]): string {
  if (creator.family === undefined) return creator.name;
  // As citation-js's APA writes it: 李明, not 李, 明.
  if (uncasedName(creator)) return `${creator.family}${creator.given ?? ""}`;
  const given = creator.given === undefined ? "" : initials(creator.given);
  const suffix = creator.suffix === undefined ? "" : `, ${creator.suffix}`;
  return given === "" ? `${creator.family}${suffix}` : `${creator.family}, ${given}${suffix}`;
}

function versionText(version: string): string {
  return /^v(?:ersion)?\.?\s*\d/i.test(version) ? version : `Version ${version}`;
}

/**
 * The resolver links of a record's DOI and ARK, for the views (which take ready-made URLs);
 * an identifier that does not parse gets no link.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolverLinks } from "./citation.ts";
 *
 * assert.deepEqual(resolverLinks({ doi: "10.7946/P2C35G", ark: "not an ark" }), {
 *   doiUrl: "https://doi.org/10.7946/P2C35G",
 * });
 * ```
 */
export function resolverLinks(
  record: { readonly doi?: string; readonly ark?: string },
): { doiUrl?: string; arkUrl?: string } {
  const links = {
    doiUrl: record.doi === undefined ? undefined : tryUrl(doiUrl, record.doi),
    arkUrl: record.ark === undefined ? undefined : tryUrl(arkUrl, record.ark),
  };
  return definedOf(links, ["doiUrl", "arkUrl"]);
}

function tryUrl(make: (id: string) => string, id: string): string | undefined {
  try {
    return make(id);
  } catch {
    return undefined;
  }
}

/**
 * The record for citation-js's BibTeX writer, its text escaped by `tex` (citation-js escapes
 * none of it here: see `CitationJs.bibtexEntries`). BibTeX has no version or archive-location
 * field for `@misc`: both go in `note`.
 */
function bibtexItem(metadata: Citable, tex: (text: string) => string): CslItem {
  const item = toCsl(metadata);
  const note = [
    metadata.version === undefined ? undefined : versionText(metadata.version),
    typeof item.archive_location === "string" ? item.archive_location : undefined,
  ].filter((part) => part !== undefined);
  if (note.length > 0) item.note = note.join(". ");
  const escaped: CslItem = { id: item.id, type: item.type };
  for (const [field, value] of Object.entries(item)) {
    // A verbatim field has no escapes: a DOI with a brace or backslash, which could end the
    // entry early, is left to the link, which carries it percent-encoded.
    if (field === "DOI" && /[{}\\]/.test(String(value))) continue;
    // Keys are ASCII already; links and DOIs are verbatim fields (the url package reads them).
    if (["id", "citation-key", "type", "DOI", "URL"].includes(field)) {
      escaped[field] = value;
    } else if (typeof value === "string") escaped[field] = tex(value);
    else if (field === "author") {
      escaped.author = (value as Record<string, string>[]).map((name) =>
        Object.fromEntries(Object.entries(name).map(([part, text]) => [part, tex(text)]))
      );
    } else escaped[field] = value;
  }
  return escaped;
}

/**
 * BibTeX text from citation-js's entries (`format: "object"`), made readable: the title in one
 * pair of braces — so BibTeX styles keep its capitals — instead of braces around each
 * capitalised word as well.
 */
function bibtexText(entries: unknown): string {
  return (entries as { type: string; label: string; properties: Record<string, string> }[])
    .map(({ type, label, properties }) => {
      const fields = Object.entries(properties).map(([field, text]) => {
        // A brace group of one word that is no command's argument is citation-js's capital
        // keeper; the title's own braces keep them all.
        const braced = field === "title"
          ? `{${text.replace(/(?<!\\[A-Za-z]*)\{(\w+)\}/g, "$1")}}`
          : text;
        return `\t${field} = {${braced}},\n`;
      });
      return `@${type}{${label},\n${fields.join("")}}`;
    }).join("\n\n");
}

/**
 * The record for citation-js's APA template, mended where citeproc reads it against APA 7:
 * an organisation goes in as a family name, since citeproc drops the serial comma before `&`
 * when the last name is a literal ("Doe, J. & NOAA"); each part of a hyphenated given name
 * starts with a capital, since citeproc drops a lowercase part ("Min-jun" gave "M.", APA asks
 * "M.-J.") and reads only an ASCII hyphen as one; a title's own closing period is left out,
 * since APA's description follows the title ("Title. [Dataset]." would end it twice), unless it
 * ends initials ("in the U.S.").
 */
function apaItem(metadata: Citable): CslItem {
  const item = toCsl(metadata);
  if (typeof item.title === "string") item.title = item.title.replace(/(?<![.\s]|\.\p{L})\.$/u, "");
  item.author = (item.author as Record<string, string>[] | undefined)?.map((name) => {
    if (name.literal !== undefined) return { family: name.literal, "parse-names": false };
    if (name.given === undefined) return name;
    const given = name.given.replace(/[\u2010\u2011]/g, "-")
      .replace(/-(\p{Ll})/gu, (_, letter: string) => `-${letter.toLocaleUpperCase()}`);
    return { ...name, given };
  });
  if (item.author === undefined) delete item.author;
  return item;
}

/** RIS has no archive-location tag that citation-js writes: the path goes in `N1`. */
function risItem(metadata: Citable): CslItem {
  const item = toCsl(metadata);
  if (typeof item.archive_location === "string") item.note = item.archive_location;
  // Written by risText: citation-js would split a subject at its commas.
  delete item.keyword;
  // RIS reads AU as `Family, Given, Suffix`: Zotero's reader splits at every comma and takes
  // a value without one as an organisation, so an organisation's commas would make it a
  // person ("University of Arizona" given "Tucson"). Its words are kept, its commas left out.
  item.author = (item.author as Record<string, string>[] | undefined)?.map((name) =>
    name.literal === undefined
      ? name
      : { literal: name.literal.split(",").map((part) => part.trim()).filter(Boolean).join(" ") }
  );
  if (item.author === undefined) delete item.author;
  return item;
}

/**
 * RIS text from citation-js's tag objects, with one `KW` line per subject. Written here because
 * citation-js hard-wraps values at 70 characters, which breaks links and abstracts in most
 * importers.
 */
function risText(entries: unknown, subjects: readonly string[]): string {
  const lines: string[] = [];
  for (const entry of entries as Record<string, unknown>[]) {
    lines.push(`TY  - ${entry.TY}`);
    for (const [tag, value] of Object.entries({ ...entry, KW: subjects })) {
      if (tag === "TY" || tag === "ER") continue;
      for (const one of [value].flat()) {
        const text = String(one).replace(/\s*[\r\n]+\s*/g, " ").trim();
        if (text !== "") lines.push(`${tag}  - ${text}`);
      }
    }
    lines.push("ER  - ");
  }
  return lines.join("\n");
}
