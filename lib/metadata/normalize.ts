/**
 * {@linkcode normalizeMetadata}: raw AVUs of any template generation → {@linkcode DatasetMetadata}.
 * Pure: no requests, so it works on AVUs from the service, a sidecar file or a JSON dump.
 *
 * @module
 */

import { normalizeArk } from "./ark.ts";
import { type Attribute, type AttributeGroup, attributeGroup, type AvuLike } from "./avus.ts";
import {
  type Contributor,
  type Creator,
  DatasetMetadata,
  type Funding,
  type MetadataField,
  type RawDatasetMetadata,
} from "./dataset_metadata.ts";
import { normalizeDoi } from "./doi.ts";
import { FIELD_KEYS } from "./keys.ts";
import { type License, loadSpdxCorrect, normalizeLicense, type SpdxCorrect } from "./license.ts";
import { nameWithAside, normalizeOrcid, parseName, uniquePeople } from "./names.ts";
import { Reader } from "./reader.ts";
import { relatedIdentifiers } from "./related.ts";
import { firstYear, parseDate, splitList, tidy } from "./values.ts";

/**
 * Metadata to normalise: the raw metadata of a handle (or anything shaped like it), or just a
 * list of AVUs.
 *
 * @example
 * ```ts
 * import type { MetadataInput } from "./normalize.ts";
 *
 * const fromDump: MetadataInput = [{ attr: "title", value: "Maize" }];
 * ```
 */
export type MetadataInput =
  | { path?: string; avus: readonly AvuLike[]; irodsAvus?: readonly AvuLike[] }
  | readonly AvuLike[];

/**
 * What the normaliser knows besides the AVUs.
 *
 * @example
 * ```ts
 * import type { NormalizeOptions } from "./normalize.ts";
 *
 * const options: NormalizeOptions = { folderModified: new Date("2020-07-29T15:10:00Z") };
 * ```
 */
export interface NormalizeOptions {
  /** The dataset's path, when the input does not carry one. */
  path?: string;
  /** The folder's id. */
  id?: string;
  /** The folder's date-modified from the service: `dateModified` when no attribute gives one. */
  folderModified?: Date;
}

/** DataCite's `resourceTypeGeneral` vocabulary (4.5), for canonical spelling. */
const RESOURCE_TYPES = [
  "Audiovisual",
  "Award",
  "Book",
  "BookChapter",
  "Collection",
  "ComputationalNotebook",
  "ConferencePaper",
  "ConferenceProceeding",
  "DataPaper",
  "Dataset",
  "Dissertation",
  "Event",
  "Image",
  "Instrument",
  "InteractiveResource",
  "Journal",
  "JournalArticle",
  "Model",
  "OutputManagementPlan",
  "PeerReview",
  "PhysicalObject",
  "Preprint",
  "Project",
  "Report",
  "Service",
  "Software",
  "Sound",
  "Standard",
  "StudyRegistration",
  "Text",
  "Workflow",
  "Other",
];

/** DataCite title types that are not the main title. */
const SECONDARY_TITLE = /^(?:alternativetitle|translatedtitle|subtitle|other)$/i;

/** How the folder's date shows in `sources` (it is not an attribute). */
const FOLDER_DATE = "(folder date-modified)";

/**
 * Normalises a dataset's metadata — nested DataCite 4.x, flat `datacite.*` 3.1, capitalised or
 * misspelt keys alike — into a {@linkcode DatasetMetadata}. Never throws on content: a dataset
 * without AVUs gives an empty record. When the template AVUs are empty, raw iRODS AVUs are read
 * instead (older datasets keep their fields there). Loads spdx-correct on first use.
 *
 * @example
 * ```ts
 * import { normalizeMetadata } from "./normalize.ts";
 * import assert from "node:assert/strict";
 *
 * const metadata = await normalizeMetadata([
 *   { attr: "title", value: "Palmer penguins" },
 *   { attr: "creator", value: "Gorman, Kristen B.", avus: [{ attr: "affiliation", value: "Palmer LTER" }] },
 *   { attr: "identifier", value: "https://doi.org/10.25739/9k2v-7q4m", avus: [{ attr: "identiferType", value: "DOI" }] },
 *   { attr: "subject", value: "penguins, Antarctica" },
 *   { attr: "rights", value: "CC0" },
 * ]);
 * assert.equal(metadata.doi, "10.25739/9k2v-7q4m");
 * assert.deepEqual(metadata.subjects, ["penguins", "Antarctica"]);
 * assert.equal(metadata.license?.id, "CC0-1.0");
 * assert.equal(metadata.creators[0].affiliation, "Palmer LTER");
 * assert.equal(metadata.sources.doi, "identifier");
 * ```
 */
export async function normalizeMetadata<R extends RawDatasetMetadata>(
  input: R,
  options?: NormalizeOptions,
): Promise<DatasetMetadata<R>>;
/**
 * {@linkcode normalizeMetadata} for a list of AVUs or partial raw metadata.
 *
 * @example
 * ```ts
 * import { normalizeMetadata } from "./normalize.ts";
 * import assert from "node:assert/strict";
 *
 * const metadata = await normalizeMetadata([{ attr: "Title", value: "Maize" }], { path: "/x/Maize" });
 * assert.equal(metadata.title, "Maize");
 * assert.equal(metadata.path, "/x/Maize");
 * ```
 */
export async function normalizeMetadata(
  input: MetadataInput,
  options?: NormalizeOptions,
): Promise<DatasetMetadata>;
export async function normalizeMetadata(
  input: MetadataInput,
  options: NormalizeOptions = {},
): Promise<DatasetMetadata> {
  const correct = await loadSpdxCorrect();
  const raw = rawOf(input, options);
  const read = new Reader(attributeGroup(raw.avus.length > 0 ? raw.avus : raw.irodsAvus));
  if (raw.avus.length === 0 && raw.irodsAvus.length > 0 && read.group.hasValues) {
    read.note("the metadata service has no AVUs for this item; raw iRODS AVUs were read instead");
  }
  const title = readTitle(read);
  const year = readYear(read);
  const { doi, ark } = readIdentifiers(read);
  const resourceType = read.single("resourceType", FIELD_KEYS.resourceType);
  return new DatasetMetadata({
    path: raw.path,
    id: options.id,
    title,
    creators: readPeople(read, "creators", FIELD_KEYS.creator, {
      affiliation: FIELD_KEYS.creatorAffiliation,
      identifier: FIELD_KEYS.creatorNameIdentifier,
    }),
    publicationYear: year,
    publisher: read.single("publisher", FIELD_KEYS.publisher),
    description: readDescription(read),
    doi,
    ark,
    subjects: readSubjects(read),
    license: readLicense(read, correct),
    resourceType,
    resourceTypeGeneral: readResourceTypeGeneral(read, resourceType),
    version: read.single("version", FIELD_KEYS.version),
    contributors: readPeople(read, "contributors", FIELD_KEYS.contributor, {
      affiliation: FIELD_KEYS.contributorAffiliation,
      type: FIELD_KEYS.contributorType,
    }),
    relatedIdentifiers: relatedIdentifiers(read),
    funding: readFunding(read),
    dateModified: readDateModified(read, options.folderModified),
    deprecated: readDeprecated(read, raw.path),
    raw,
    sources: read.sources,
    notes: read.notes,
  });
}

/** The raw metadata: the input itself when it is complete (so `raw` is what was served). */
function rawOf(input: MetadataInput, options: NormalizeOptions): RawDatasetMetadata {
  if (Array.isArray(input)) return { path: options.path ?? "", avus: [...input], irodsAvus: [] };
  const raw = input as Exclude<MetadataInput, readonly AvuLike[]>;
  if (
    typeof raw.path === "string" && Array.isArray(raw.avus) && Array.isArray(raw.irodsAvus)
  ) {
    return raw as RawDatasetMetadata;
  }
  return {
    path: raw.path ?? options.path ?? "",
    avus: Array.isArray(raw.avus) ? [...raw.avus] : [],
    irodsAvus: Array.isArray(raw.irodsAvus) ? [...raw.irodsAvus] : [],
  };
}

/** The main title (not an alternative, translated or sub-title). */
function readTitle(read: Reader): string | undefined {
  const titles = read.group.all(FIELD_KEYS.title).filter((a) => a.value !== "");
  const types = read.paired(titles, "title", FIELD_KEYS.titleType).values;
  const main = titles.filter((_, index) => !SECONDARY_TITLE.test(types[index][0] ?? ""));
  const chosen = main[0] ?? titles[0];
  if (chosen === undefined) return undefined;
  read.source("title", [chosen.attr]);
  const others = new Set(main.slice(1).map((a) => tidy(a.value)));
  others.delete(tidy(chosen.value));
  if (others.size > 0) read.note(`title: ${others.size + 1} titles stored; the first is used`);
  return tidy(chosen.value);
}

/** People (creators or contributors) with affiliation, ORCID and type. */
function readPeople(
  read: Reader,
  field: "creators" | "contributors",
  keys: readonly string[],
  flat: {
    affiliation: readonly string[];
    identifier?: readonly string[];
    type?: readonly string[];
  },
): Contributor[] {
  const slots = read.group.slots(keys);
  const affiliations = read.paired(slots, field, FIELD_KEYS.affiliation, flat.affiliation);
  const identifiers = readOrcids(read, slots, flat.identifier ?? [], field);
  const types = flat.type === undefined ? undefined : read.paired(slots, field, flat.type);
  const people: Contributor[] = [];
  const attrs: string[] = [];
  slots.forEach((slot, index) => {
    if (slot.empty) return;
    const value = slot.value;
    const hints = {
      given: slot.nested.value(FIELD_KEYS.givenName),
      family: slot.nested.value(FIELD_KEYS.familyName),
      nameType: slot.nested.value(FIELD_KEYS.nameType),
    };
    // Several people in one value only when clearly separated: by semicolons or lines, or by
    // "and", "&" or commas between parts that each name a person.
    const { names, unsure } = /[;\r\n]/.test(value)
      ? { names: splitList(value, /[;\r\n]/), unsure: false }
      : hints.family === undefined && hints.nameType === undefined
      ? joinedPeople(value)
      : { names: [value], unsure: false };
    if (unsure) {
      read.note(
        `${field}: ${JSON.stringify(value.slice(0, 100))} read as ${names.length} people; ` +
          "if it names one, store its familyName and givenName",
      );
    }
    if (names.every((name) => name === "") && hints.family === undefined) {
      read.note(`${field}: an entry without a name was skipped`);
      return;
    }
    attrs.push(slot.attr);
    for (const written of names) {
      const aside = hints.family === undefined ? nameWithAside(written) : undefined;
      const name = parseName(aside?.name ?? written, hints);
      if (name.name === "") continue;
      const person: Contributor = { ...name };
      if (aside?.affiliation !== undefined) person.affiliation = aside.affiliation;
      if (aside?.orcid !== undefined) person.orcid = aside.orcid;
      if (names.length === 1) {
        // Sub-properties, when there are any, say it better than parentheses.
        const affiliation = [...new Set(affiliations.values[index].map(tidy))]
          .filter((value) => value !== "").join("; ");
        if (affiliation !== "") person.affiliation = affiliation;
        const orcid = identifiers[index];
        if (orcid !== undefined) person.orcid = orcid;
        const type = types?.values[index][0];
        if (type !== undefined) person.type = type;
      }
      people.push(person);
    }
  });
  read.source(field, [...attrs, ...affiliations.attrs, ...(types?.attrs ?? [])]);
  // Data Commons records often list a person twice (under `creator` and `datacite.creator`, or
  // once with an ORCID iD): one person is one creator. Contributors in different roles stay.
  const once = oncePerRole(people);
  if (once.length < people.length) {
    read.note(`${field}: ${people.length - once.length} listed twice; each person kept once`);
  }
  if (field === "creators") {
    return once.map(({ type: _type, ...creator }) => creator as Creator);
  }
  return once;
}

/**
 * The names in one value: parts joined by "and" or "&" (`Jane Doe and John Smith`), and comma
 * lists of whole names (`Jane Doe, John Smith`) or of "Family, Given" pairs (`Doe, Jane, Smith,
 * John`). A value whose parts are not each a person stays whole.
 */
function joinedPeople(value: string): { names: string[]; unsure: boolean } {
  const parts = value.split(/\s+(?:and|&)\s+/i).map((part) => part.replace(/,\s*$/, ""));
  const lists = parts.map(commaPeople);
  const names = lists.flat();
  // Only two whole names may also be one "Family Family, Given Given": say how it was read.
  const unsure = lists.some((list) => list.length === 2 && !list[0].includes(","));
  if (parts.length === 1) return { names, unsure };
  const people = names.every((name) => parseName(nameWithAside(name)?.name ?? name).family);
  return people ? { names, unsure } : { names: [value], unsure: false };
}

/**
 * A comma list of people, or the value whole. `Doe, Jane` and `Jane Doe, PhD` are one person (a
 * part of one word); two parts of two words or more are two people (`Jane Doe, John Smith`) unless
 * the first starts with a particle or the second is initials (`van Dijk Smit, J. K.`).
 */
function commaPeople(value: string): string[] {
  const parts = splitList(value, /,/);
  if (parts.length < 2) return [value];
  const whole = (part: string) => {
    const name = nameWithAside(part)?.name ?? part;
    return name.includes(" ") && parseName(name).family !== undefined;
  };
  const familyFirst = parts.length === 2 &&
    (/^\p{Ll}/u.test(parts[0]) || /^(?:\p{Lu}\.?[\s-]*)+$/u.test(parts[1]));
  if (parts.every(whole) && !familyFirst) return parts;
  if (parts.length >= 4 && parts.length % 2 === 0) {
    const pairs = parts.filter((_, i) => i % 2 === 0).map((family, i) =>
      `${family}, ${parts[2 * i + 1]}`
    );
    if (pairs.every((pair) => parseName(pair).family !== undefined)) return pairs;
  }
  return [value];
}

/** The strings of a value that is a JSON array of strings, else `undefined`. */
function jsonList(value: string): string[] | undefined {
  if (!/^\[[^]*\]$/.test(value)) return undefined;
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) && list.every((item) => typeof item === "string") ? list : undefined;
  } catch {
    return undefined;
  }
}

/** {@linkcode uniquePeople} within each contributor type: one role of one person is one entry. */
function oncePerRole(people: readonly Contributor[]): Contributor[] {
  const roles = Map.groupBy(people.map((person, at) => ({ ...person, at })), (p) => p.type);
  return [...roles.values()].flatMap((role) => uniquePeople(role))
    .sort((a, b) => a.at - b.at)
    .map(({ at: _at, ...person }) => person);
}

/** ORCID iDs per person: nested `nameIdentifier` (ORCID scheme or shape), or a flat one. */
function readOrcids(
  read: Reader,
  slots: readonly Attribute[],
  flatKeys: readonly string[],
  field: MetadataField,
): (string | undefined)[] {
  const flat = read.paired(slots, field, [], flatKeys).values;
  return slots.map((slot, index) => {
    // Nested identifiers of the ORCID scheme (or none stated) first, then the flat ones.
    const nested = slot.nested.all(FIELD_KEYS.nameIdentifier).filter((identifier) =>
      identifier.value !== "" &&
      /^(?:orcid)?$/i.test(identifier.nested.value(FIELD_KEYS.nameIdentifierScheme) ?? "")
    );
    for (const value of [...nested.map((identifier) => identifier.value), ...flat[index]]) {
      const orcid = normalizeOrcid(value);
      if (orcid !== undefined) return orcid;
      read.note(`${field}: "${value}" is not a valid ORCID iD; not reported`);
    }
    return undefined;
  });
}

/** The first valid year; `date` with type `Issued` when no publication year is stored. */
function readYear(read: Reader): number | undefined {
  const stored = read.group.all(FIELD_KEYS.publicationYear).filter((a) => a.value !== "");
  for (const attribute of stored) {
    const year = firstYear(attribute.value);
    if (year !== undefined) {
      read.source("publicationYear", [attribute.attr]);
      const others = new Set(stored.map((a) => firstYear(a.value)).filter((y) => y !== year));
      if (others.size > 0) {
        read.note(`publicationYear: different years stored; ${year} (the first) is used`);
      }
      return year;
    }
    read.note(`publicationYear: "${attribute.value}" is not a year; not used`);
  }
  const issued = datesOfType(read, "issued")[0];
  const year = issued === undefined ? undefined : firstYear(issued.value);
  if (year !== undefined) read.source("publicationYear", [`${issued!.attr} (Issued)`]);
  return year;
}

/** The abstract when one is marked so, else the first description. */
function readDescription(read: Reader): string | undefined {
  const all = read.group.all(FIELD_KEYS.description).filter((a) => a.value !== "");
  const types = read.paired(all, "description", FIELD_KEYS.descriptionType);
  const index = Math.max(0, types.values.findIndex((t) => /^abstract$/i.test(t[0] ?? "")));
  const chosen = all[index];
  if (chosen === undefined) return undefined;
  read.source("description", [chosen.attr]);
  return chosen.value.replace(/[ \t]+/g, " ").trim();
}

/**
 * The DOI and ARK: from `identifier` by its type (nested, misspelt or flat) or by shape, then a
 * `doi`/`ark` attribute, then `alternateIdentifier`. Values that do not parse are noted, never
 * reported.
 */
function readIdentifiers(read: Reader): { doi?: string; ark?: string } {
  const dois: { value: string; attr: string }[] = [];
  const arks: { value: string; attr: string }[] = [];
  const consider = (
    attribute: Attribute,
    type: string,
    where: "identifier" | "alternateIdentifier",
  ) => {
    const value = attribute.value;
    const kind = type.toLowerCase();
    const found = (list: typeof dois, id: string | undefined) => {
      if (id !== undefined) list.push({ value: id, attr: attribute.attr });
      return id !== undefined;
    };
    if ((kind === "doi" || kind === "") && found(dois, normalizeDoi(value))) return;
    // Without a type, a bare `NAAN/name` is taken for an ARK only in the five-character NAAN
    // shape; with any type but ARK, only a labelled ARK or (untyped) a DOI link counts.
    const bare = kind === "ark" ||
      (kind === "" && /^\/?[0-9bcdfghjkmnpqrstvwxz]{5}\/[a-z0-9]/i.test(value));
    if (found(arks, normalizeArk(value, { bare }))) return;
    if (kind !== "doi" && kind !== "ark" && /doi/i.test(value)) {
      if (found(dois, normalizeDoi(value))) return;
    }
    if (kind === "doi" || kind === "ark" || (kind === "" && where === "identifier")) {
      read.note(
        `${attribute.attr.trim()}: ${JSON.stringify(value)} is not a valid ${
          kind === "" ? "DOI or ARK" : type.toUpperCase()
        }; not reported`,
      );
    }
  };
  const typed = (where: "identifier" | "alternateIdentifier", field: "doi" | "ark") => {
    const slots = read.group.slots(FIELD_KEYS[where]);
    const types = read.paired(slots, field, FIELD_KEYS[`${where}Type`]).values;
    slots.forEach((attribute, index) => {
      if (attribute.value !== "") consider(attribute, types[index][0] ?? "", where);
    });
  };
  typed("identifier", "doi");
  for (const attribute of read.group.all(FIELD_KEYS.doi)) consider(attribute, "DOI", "identifier");
  for (const attribute of read.group.all(FIELD_KEYS.ark)) consider(attribute, "ARK", "identifier");
  typed("alternateIdentifier", "ark");
  return { ...pickFirst(read, "doi", dois), ...pickFirst(read, "ark", arks) };
}

function pickFirst(
  read: Reader,
  field: "doi" | "ark",
  found: { value: string; attr: string }[],
): { doi?: string; ark?: string } {
  if (found.length === 0) return {};
  read.source(field, [found[0].attr]);
  const distinct = new Set(found.map((f) => f.value.toLowerCase()));
  if (distinct.size > 1) {
    read.note(`${field}: ${distinct.size} different values stored; the first one is used`);
  }
  return { [field]: found[0].value };
}

/**
 * Subjects from every subject/keyword attribute: comma-, semicolon- or line-separated ones split,
 * and a JSON list (`["soil", "water"]`, as a script stores a list) read as its items.
 */
function readSubjects(read: Reader): string[] {
  const attributes = read.group.all(FIELD_KEYS.subject).filter((a) => a.value !== "");
  const subjects = attributes.flatMap((attribute) =>
    jsonList(attribute.value)?.map(tidy).filter((item) => item !== "") ??
      splitList(attribute.value, /[,;\r\n]/)
  );
  read.source("subjects", attributes.map((a) => a.attr));
  // The first spelling of each subject, case aside.
  return [...Map.groupBy(subjects, (subject) => subject.toLowerCase()).values()].map(([s]) => s);
}

/** The licence from the first rights attribute with content (text, link or identifier). */
function readLicense(read: Reader, correct: SpdxCorrect): License | undefined {
  const rights = read.group.slots(FIELD_KEYS.rights);
  const uris = read.paired(rights, "license", FIELD_KEYS.rightsUri);
  const ids = read.paired(rights, "license", FIELD_KEYS.rightsIdentifier);
  const schemes = read.paired(rights, "license", FIELD_KEYS.rightsIdentifierScheme);
  const index = rights.findIndex((slot) => !slot.empty);
  if (index < 0) return undefined;
  const license = normalizeLicense(rights[index].value, {
    uri: uris.values[index][0],
    identifier: ids.values[index][0],
    scheme: schemes.values[index][0],
  }, correct);
  if (license !== undefined) read.source("license", [rights[index].attr]);
  const more = rights.filter((slot, i) => i > index && !slot.empty);
  if (more.length > 0) {
    read.note(`license: ${more.length + 1} rights statements stored; the first one is used`);
  }
  return license;
}

/** `resourceTypeGeneral` (nested or top level), or the resource type when it is one. */
function readResourceTypeGeneral(
  read: Reader,
  resourceType: string | undefined,
): string | undefined {
  const parent = read.group.first(FIELD_KEYS.resourceType);
  const nested = parent?.nested.first(FIELD_KEYS.resourceTypeGeneral);
  const stored = nested ?? read.group.first(FIELD_KEYS.resourceTypeGeneral);
  const text = stored?.value ?? resourceType;
  if (text === undefined || text === "") return undefined;
  const canonical = RESOURCE_TYPES.find((t) =>
    t.toLowerCase() === text.replace(/\s+/g, "").toLowerCase()
  );
  if (stored === undefined && canonical === undefined) return undefined;
  read.source("resourceTypeGeneral", [(stored ?? parent)!.attr]);
  return canonical ?? tidy(text);
}

/** Funding references: nested `fundingReference` trees, else flat `funderName`/`award*`. */
function readFunding(read: Reader): Funding[] {
  const references = read.group.all(FIELD_KEYS.fundingReference);
  const funding: Funding[] = [];
  const attrs: string[] = [];
  const add = (attr: string, fields: Funding) => {
    const entry = clean(fields);
    if (Object.keys(entry).length === 0) return;
    funding.push(entry);
    attrs.push(attr);
  };
  for (const reference of references) {
    const funder = deep(reference.nested, FIELD_KEYS.funderName);
    add(reference.attr, {
      // A reference may hold just the funder's name as its own value.
      funderName: funder?.value || reference.value || undefined,
      funderIdentifier: deep(reference.nested, FIELD_KEYS.funderIdentifier)?.value,
      funderIdentifierType: deep(reference.nested, FIELD_KEYS.funderIdentifierType)?.value,
      awardNumber: deep(reference.nested, FIELD_KEYS.awardNumber)?.value,
      awardUri: deep(reference.nested, FIELD_KEYS.awardUri)?.value,
      awardTitle: deep(reference.nested, FIELD_KEYS.awardTitle)?.value,
    });
  }
  if (funding.length === 0) {
    const names = read.group.slots(FIELD_KEYS.funderName);
    const awards = read.group.slots(FIELD_KEYS.awardNumber);
    const parents = names.length > 0 ? names : awards;
    const pair = (keys: readonly string[]) => read.paired(parents, "funding", keys).values;
    const ids = pair(FIELD_KEYS.funderIdentifier);
    const idTypes = pair(FIELD_KEYS.funderIdentifierType);
    const numbers = names.length > 0 ? pair(FIELD_KEYS.awardNumber) : undefined;
    const uris = pair(FIELD_KEYS.awardUri);
    const titles = pair(FIELD_KEYS.awardTitle);
    parents.forEach((parent, index) => {
      if (parent.empty) return;
      add(parent.attr, {
        ...(names.length > 0
          ? { funderName: parent.value, awardNumber: numbers![index][0] }
          : { awardNumber: parent.value }),
        funderIdentifier: ids[index][0],
        funderIdentifierType: idTypes[index][0],
        awardUri: uris[index][0],
        awardTitle: titles[index][0],
      });
    });
  }
  read.source("funding", attrs);
  return funding;
}

/** A date-modified attribute (or a `date` of type `Updated`), else the folder's date. */
function readDateModified(read: Reader, folderModified: Date | undefined): Date | undefined {
  const candidates = [
    ...read.group.all(FIELD_KEYS.dateModified).filter((a) => a.value !== ""),
    ...datesOfType(read, "updated"),
  ];
  for (const attribute of candidates) {
    const date = parseDate(attribute.value);
    if (date !== undefined) {
      read.source("dateModified", [attribute.attr]);
      return date;
    }
    read.note(`dateModified: "${attribute.value}" is not a date; not used`);
  }
  if (folderModified === undefined || Number.isNaN(folderModified.getTime())) return undefined;
  read.source("dateModified", [FOLDER_DATE]);
  return new Date(folderModified);
}

/** True for a `_deprecated_` folder or a true `is_deprecated` attribute. */
function readDeprecated(read: Reader, path: string): boolean {
  const name = path.replace(/(?<!\/)\/+$/, "").split("/").at(-1) ?? "";
  const flag = read.group.first(FIELD_KEYS.deprecated);
  const flagged = flag !== undefined && /^(?:true|yes|y|1)$/i.test(flag.value);
  if (flagged) read.source("deprecated", [flag.attr]);
  else if (name.startsWith("_deprecated_")) read.source("deprecated", ["(folder name)"]);
  return flagged || name.startsWith("_deprecated_");
}

/** `date` attributes whose `dateType` (nested or paired) is `type`. */
function datesOfType(read: Reader, type: string): Attribute[] {
  const dates = read.group.slots(FIELD_KEYS.date);
  const types = read.paired(dates, "dateModified", FIELD_KEYS.dateType).values;
  return dates.filter((date, index) =>
    !date.empty && date.value !== "" && (types[index][0] ?? "").toLowerCase() === type
  );
}

/** The first attribute with one of `keys` at any depth of a nested group. */
function deep(group: AttributeGroup, keys: readonly string[]): Attribute | undefined {
  const here = group.all(keys).find((attribute) => attribute.value !== "");
  if (here !== undefined) return here;
  for (const key of group.keys()) {
    for (const attribute of group.all([key])) {
      const found = deep(attribute.nested, keys);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function clean<T extends object>(record: T): T {
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => typeof value === "string" && value.trim() !== "")
      .map(([key, value]) => [key, tidy(value as string)]),
  ) as T;
}
