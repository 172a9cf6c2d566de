/**
 * Creator and contributor names: "Family, Given" or "Given Family" for people, kept whole for
 * organisations and anything that cannot be split with confidence; initials for citations;
 * ORCID iDs checked by their check digit.
 *
 * @module
 */

import { tidy } from "./values.ts";
import { definedOf } from "../client/defined.ts";

/**
 * A parsed name. People have `family` (and usually `given`); an organisation, or a name that
 * cannot be split with confidence, has only `name`.
 *
 * @example
 * ```ts
 * import type { ParsedName } from "./names.ts";
 *
 * const person: ParsedName = { name: "Gorman, Kristen B.", family: "Gorman", given: "Kristen B." };
 * const organisation: ParsedName = { name: "Gapminder Foundation" };
 * ```
 */
export interface ParsedName {
  /** The name as written (whitespace tidied, a space after each comma). */
  name: string;
  /** Given names, for people. */
  given?: string;
  /** Family name with its particles (`van der Berg`), for people. */
  family?: string;
  /** Generational suffix (`Jr.`, `III`). */
  suffix?: string;
}

/**
 * What the metadata says besides the name itself: DataCite's `givenName`, `familyName` and
 * `nameType` (`Personal` or `Organizational`).
 *
 * @example
 * ```ts
 * import type { NameHints } from "./names.ts";
 *
 * const hints: NameHints = { nameType: "Organizational" };
 * ```
 */
export interface NameHints {
  /** `givenName`, when stored. */
  given?: string;
  /** `familyName`, when stored. */
  family?: string;
  /** `nameType`, when stored. */
  nameType?: string;
}

/**
 * Words that make a name an organisation's (matched as whole words, any case): kinds of body,
 * and the fields of study departments and groups are named after (`Marine Biology and Ocean
 * Sciences` is no two people), which no one's name holds.
 */
const ORGANISATION_WORDS: ReadonlySet<string> = new Set([
  "academy",
  "administration",
  "agency",
  "alliance",
  "archive",
  "archives",
  "association",
  "authority",
  "board",
  "bureau",
  "center",
  "centers",
  "centre",
  "centres",
  "clinic",
  "collaboration",
  "collaborative",
  "college",
  "commission",
  "committee",
  "commons",
  "company",
  "consortium",
  "cooperative",
  "corp",
  "corporation",
  "council",
  "department",
  "dept",
  "division",
  "facility",
  "federation",
  "foundation",
  "gmbh",
  "group",
  "hospital",
  "inc",
  "initiative",
  "institut",
  "institute",
  "instituto",
  "international",
  "laboratories",
  "laboratory",
  "library",
  "llc",
  "ltd",
  "ministry",
  "museum",
  "national",
  "network",
  "observatory",
  "office",
  "organisation",
  "organization",
  "partnership",
  "program",
  "programme",
  "project",
  "research",
  "school",
  "service",
  "services",
  "society",
  "station",
  "survey",
  "team",
  "trust",
  "universidad",
  "universitat",
  "universitaet",
  "university",
  "universite",
  "universität",
  "université",
  // Fields of study.
  "agriculture",
  "biology",
  "chemistry",
  "ecology",
  "engineering",
  "genetics",
  "genomics",
  "informatics",
  "management",
  "mathematics",
  "medicine",
  "nutrition",
  "pathology",
  "physics",
  "physiology",
  "resources",
  "science",
  "sciences",
  "statistics",
  "studies",
  "technology",
]);

/** Lower-case particles that belong to the family name in "Given Family" order. */
const PARTICLES: ReadonlySet<string> = new Set([
  "al",
  "bin",
  "da",
  "das",
  "de",
  "del",
  "della",
  "der",
  "di",
  "do",
  "dos",
  "du",
  "el",
  "ibn",
  "la",
  "le",
  "st",
  "te",
  "ten",
  "ter",
  "van",
  "von",
  "zu",
]);

const SUFFIX = /^(?:jr|sr|ii|iii|iv|v)\.?$/i;

/** A title written before a name (`Dr.`, `Prof`, `Professor`, `Ms`). */
const HONORIFIC = /^(?:dr|prof|professor|mr|mrs|ms|mx)\.?\s+/i;

/** A degree written after a name, after a comma; capitals only, so `Yan, Ma` keeps its `Ma`. */
const DEGREE =
  /^(?:Ph\.?\s?D|D\.?\s?Phil|M\.?D|M\.?Sc?|B\.?Sc?|M\.?A|B\.?A|M\.?P\.?H|M\.?B\.?A|D\.?V\.?M)\.?$/;

/**
 * The name without the degrees written after it (`Jane Doe, PhD, MD` → `Jane Doe`). After a
 * lone family name the capitals are initials (`Doe, MA` is M. A. Doe), so they stay.
 */
function withoutDegrees(name: string): string {
  const parts = name.split(",");
  const lone = (part: string) => !part.trim().includes(" ");
  while (
    parts.length > 1 && DEGREE.test(parts.at(-1)!.trim()) && !(parts.length === 2 && lone(parts[0]))
  ) parts.pop();
  return parts.join(",").trim();
}

/** A word of a personal name: letters (any script), marks, apostrophes, hyphens, dots. */
const NAME_WORD = /^[\p{L}\p{M}][\p{L}\p{M}'’.\-]*$/u;

/** Most words a given-name or family-name part may have before it reads as something else. */
const MAX_WORDS = 4;

/**
 * Splits a creator or contributor name. "Family, Given" (the Data Commons convention) and
 * "Given Family" become a person; a name with organisation words (`University`, `Survey`,
 * `Program`, …), digits or symbols, a single word, or more commas than "Family, Given, Jr."
 * stays whole as `name`. `givenName`/`familyName`/`nameType` hints win over guessing.
 *
 * @example
 * ```ts
 * import { parseName } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseName("Gorman, Kristen B."), {
 *   name: "Gorman, Kristen B.", family: "Gorman", given: "Kristen B.",
 * });
 * assert.deepEqual(parseName("Jan van der Berg"), {
 *   name: "Jan van der Berg", family: "van der Berg", given: "Jan",
 * });
 * assert.deepEqual(parseName("U.S. Geological Survey, Earthquake Hazards Program"), {
 *   name: "U.S. Geological Survey, Earthquake Hazards Program",
 * });
 * ```
 */
export function parseName(value: string, hints: NameHints = {}): ParsedName {
  const name = tidy(value).replace(/\s*,\s*/g, ", ").replace(/(?<![,;\s])[,;\s]+$/, "");
  const given = hints.given === undefined ? "" : tidy(hints.given);
  const family = hints.family === undefined ? "" : tidy(hints.family);
  if (/^organi[sz]ational$/i.test(hints.nameType?.trim() ?? "")) return { name };
  if (family !== "") {
    return {
      name: name || (given ? `${family}, ${given}` : family),
      family,
      ...opt("given", given),
    };
  }
  // Titles and degrees are no part of a person's given or family name (APA leaves both out).
  const bare = withoutDegrees(name.replace(HONORIFIC, ""));
  // "Doe et al." names more people than it lists: no family name "al.".
  if (bare === "" || looksLikeOrganisation(bare) || /\bet\.?\s+al\b/i.test(bare)) return { name };
  const parts = bare.split(",").map((part) => part.trim());
  if (parts.length === 1) return { name, ...givenFamily(bare) };
  if (parts.length === 2 && SUFFIX.test(parts[1])) {
    const person = givenFamily(parts[0]);
    return person.family === undefined ? { name } : { name, ...person, suffix: parts[1] };
  }
  if (parts.length === 2 || (parts.length === 3 && SUFFIX.test(parts[2]))) {
    const [familyPart, givenPart] = parts;
    if (!isNamePart(familyPart) || !isNamePart(givenPart)) return { name };
    return { name, family: familyPart, given: givenPart, ...opt("suffix", parts[2] ?? "") };
  }
  return { name };
}

/**
 * A person's name written with an affiliation, ORCID iD or e-mail address after it: in
 * parentheses (`Doe, Jane (University of Arizona)`, `Jane Doe (ORCID: 0000-0002-1825-0097)`),
 * in angle brackets (`Jane Doe <jane@arizona.edu>`), or after a comma or space
 * (`Jane Doe, University of Arizona`, `Jane Doe https://orcid.org/0000-0002-1825-0097`): the
 * name and what it says (an e-mail address is left out: it is no part of a citation).
 * `undefined` for anything else: an organisation's abbreviation (`Arizona State University
 * (ASU)`), a role (`Lee, Kim (PI)`), a list of people.
 *
 * @example
 * ```ts
 * import { nameWithAside } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(nameWithAside("Doe, Jane (University of Arizona)"), {
 *   name: "Doe, Jane",
 *   affiliation: "University of Arizona",
 * });
 * assert.deepEqual(nameWithAside("Doe, Jane, University of Arizona"), {
 *   name: "Doe, Jane",
 *   affiliation: "University of Arizona",
 * });
 * assert.deepEqual(nameWithAside("Jane Doe <jane@arizona.edu>"), { name: "Jane Doe" });
 * assert.equal(nameWithAside("Lee, Kim (PI)"), undefined);
 * ```
 */
export function nameWithAside(
  value: string,
): { name: string; affiliation?: string; orcid?: string } | undefined {
  const text = tidy(value);
  const person = (name: string) => parseName(name).family !== undefined;
  const bracketed = /^(.*?\S)\s*(?:\(([^()]+)\)|<([^<>]+)>)$/.exec(text);
  if (bracketed !== null && person(bracketed[1])) {
    const [, name, aside = bracketed[3]] = bracketed;
    const orcid = normalizeOrcid(aside);
    if (orcid !== undefined) return { name, orcid };
    if (EMAIL.test(aside.trim())) return { name };
    return looksLikeOrganisation(aside) ? { name, affiliation: aside.trim() } : undefined;
  }
  const orcid = /^(.*?\S),?\s+((?:orcid:?\s*)?(?:https?:\/\/orcid\.org\/)?[\d-]{15,}[\dX])$/i
    .exec(text);
  if (orcid !== null && person(orcid[1]) && normalizeOrcid(orcid[2]) !== undefined) {
    return { name: orcid[1], orcid: normalizeOrcid(orcid[2]) };
  }
  // "Jane Doe, University of Arizona": the first part after the name is an organisation's.
  const parts = text.split(/\s*,\s*/);
  for (let i = 1; i < parts.length; i++) {
    if (!looksLikeOrganisation(parts[i]) || /\d/.test(parts[i])) continue;
    const name = parts.slice(0, i).join(", ");
    // "Jane Doe, John Smith, University of Arizona" lists people: not one person's name.
    const list = i > 1 && parts.slice(0, i).every((part) => part.includes(" "));
    return !list && person(name) ? { name, affiliation: parts.slice(i).join(", ") } : undefined;
  }
  return undefined;
}

/** An e-mail address, written after a name as a way to reach the person. */
const EMAIL = /^[^\s@()<>]+@[^\s@()<>]+\.[^\s@()<>]+$/;

/**
 * Initials of given names, as citations print them: `Kristen B.` → `K. B.`, `Jean-Luc` →
 * `J.-L.`, `J.R.R.` → `J. R. R.`.
 *
 * @example
 * ```ts
 * import { initials } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(initials("Kristen B."), "K. B.");
 * assert.equal(initials("Jean-Luc"), "J.-L.");
 * assert.equal(initials("LeRoy"), "L.");
 * ```
 */
export function initials(given: string): string {
  return tidy(given)
    .split(/[\s.]+/)
    .filter((word) => /[\p{L}]/u.test(word))
    .map((word) =>
      word.split("-").filter((piece) => piece !== "").map((piece) => {
        const letter = [...piece.replace(/^[^\p{L}]+/u, "")][0] ?? "";
        return `${letter.toLocaleUpperCase()}.`;
      }).join("-")
    )
    .join(" ");
}

/**
 * The canonical form (`0000-0002-1825-0097`) of an ORCID iD written bare, with or without
 * hyphens, as an `https://orcid.org/` link or with an `ORCID:` label; `undefined` unless its
 * check digit (ISO 7064 MOD 11-2) is right. Sandbox iDs are not real iDs and are refused.
 *
 * @example
 * ```ts
 * import { normalizeOrcid } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizeOrcid("https://orcid.org/0000-0002-1825-0097"), "0000-0002-1825-0097");
 * assert.equal(normalizeOrcid("0000-0002-1825-0098"), undefined); // wrong check digit
 * assert.equal(normalizeOrcid("0000-0002-1694-233X"), "0000-0002-1694-233X");
 * ```
 */
export function normalizeOrcid(value: string): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim()
    .replace(/^(?:https?:\/\/)?(?:www\.)?orcid\.org\//i, "")
    .replace(/^orcid\s*(?:id)?\s*:?\s*/i, "")
    .replace(/(?<!\/)\/+$/, "");
  if (!/^(?:\d{4}[-\s]?){3}\d{3}[\dXx]$/.test(text)) return undefined;
  const digits = text.replace(/[-\s]/g, "").toUpperCase();
  if (orcidCheckDigit(digits.slice(0, 15)) !== digits[15]) return undefined;
  return digits.match(/.{4}/g)!.join("-");
}

/**
 * The ORCID check character (ISO 7064 MOD 11-2) of the first 15 digits of an iD.
 *
 * @example
 * ```ts
 * import { orcidCheckDigit } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(orcidCheckDigit("000000021825009"), "7");
 * ```
 */
export function orcidCheckDigit(digits: string): string {
  let total = 0;
  for (const digit of digits) total = (total + Number(digit)) * 2;
  const result = (12 - (total % 11)) % 11;
  return result === 10 ? "X" : String(result);
}

/**
 * A person or organisation as {@linkcode samePerson} compares them: a parsed name and, when
 * stored, an ORCID iD.
 *
 * @example
 * ```ts
 * import type { NamedParty } from "./names.ts";
 *
 * const party: NamedParty = { name: "Gorman, Kristen B.", family: "Gorman", given: "Kristen B." };
 * ```
 */
export interface NamedParty extends ParsedName {
  /** ORCID iD, canonical form. */
  orcid?: string;
}

/**
 * Whether two parsed names are one person (or one organisation), however they were written:
 * the same ORCID iD; else, when neither has a different iD, the same family name and given
 * names that agree (`Kristen B.`, `Kristen B` and `K. B.` agree; `Kristen` and `Tony` do not,
 * nor do `K. B.` and `K. D.`); organisations by their whole name. Case, accents, spacing and
 * punctuation never matter. Two people who share a family name stay two.
 *
 * @example
 * ```ts
 * import { parseName, samePerson } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(samePerson(parseName("Gorman, Kristen B."), parseName("Kristen B. Gorman")));
 * assert.ok(samePerson(parseName("Gorman, Kristen B."), parseName("Gorman, K. B.")));
 * assert.ok(!samePerson(parseName("Keeling, Charles D."), parseName("Keeling, Ralph F.")));
 * assert.ok(!samePerson(
 *   { ...parseName("Li, Y."), orcid: "0000-0002-1825-0097" },
 *   { ...parseName("Li, Y."), orcid: "0000-0002-1694-233X" },
 * ));
 * ```
 */
export function samePerson(a: NamedParty, b: NamedParty): boolean {
  if (a.orcid !== undefined && b.orcid !== undefined) return a.orcid === b.orcid;
  if (a.family === undefined || b.family === undefined) {
    return a.family === b.family && folded(a.name) === folded(b.name);
  }
  if (folded(a.family) !== folded(b.family)) return false;
  if (folded(a.suffix ?? "") !== folded(b.suffix ?? "")) return false;
  const givenA = givenWords(a.given ?? "");
  const givenB = givenWords(b.given ?? "");
  if (givenA.length === 0 || givenB.length === 0) return givenA.length === givenB.length;
  if (givenA.length !== givenB.length) return false;
  // Word by word: equal, or one is the other's initial (`K` for `Kristen`).
  return givenA.every((word, index) => {
    const other = givenB[index];
    return word === other || (word.length === 1 && other.startsWith(word)) ||
      (other.length === 1 && word.startsWith(other));
  });
}

/**
 * One entry per party: later entries that are {@linkcode samePerson} as an earlier one are
 * folded into it (its place kept; the fuller name, and an affiliation or ORCID iD only the later
 * one has, taken over).
 *
 * @example
 * ```ts
 * import { type NamedParty, parseName, uniquePeople } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * const people = uniquePeople<NamedParty>([
 *   parseName("Gorman, K. B."),
 *   parseName("Williams, Tony D."),
 *   { ...parseName("Kristen B. Gorman"), orcid: "0000-0002-1825-0097" },
 * ]);
 * assert.deepEqual(people.map((person) => [person.name, person.orcid]), [
 *   ["Kristen B. Gorman", "0000-0002-1825-0097"],
 *   ["Williams, Tony D.", undefined],
 * ]);
 * ```
 */
export function uniquePeople<P extends NamedParty & { affiliation?: string }>(
  people: readonly P[],
): P[] {
  const kept: P[] = [];
  // Only entries that share a key can be one person (samePerson needs the same iD, or the same
  // family name and given names that start alike): each is compared with those alone, so a value
  // listing thousands of people costs no comparison of every pair.
  const byKey = new Map<string, Set<number>>();
  const keysOf = (party: P) => {
    const given = givenWords(party.given ?? "")[0]?.[0] ?? "";
    const name = party.family === undefined
      ? `n:${folded(party.name)}`
      : `f:${folded(party.family)}:${given}`;
    return party.orcid === undefined ? [name] : [name, `o:${party.orcid}`];
  };
  const indexed = (party: P, index: number) => {
    for (const key of keysOf(party)) byKey.set(key, (byKey.get(key) ?? new Set()).add(index));
  };
  for (const person of people) {
    const candidates = new Set(keysOf(person).flatMap((key) => [...byKey.get(key) ?? []]));
    const index = [...candidates].sort((a, b) => a - b)
      .find((i) => samePerson(kept[i], person)) ?? -1;
    if (index < 0) {
      kept.push(person);
      indexed(person, kept.length - 1);
      continue;
    }
    const earlier = kept[index];
    const fuller = (person.given ?? "").length > (earlier.given ?? "").length ? person : earlier;
    kept[index] = {
      ...person,
      ...earlier,
      name: fuller.name,
      ...definedOf({
        given: fuller.given,
        affiliation: earlier.affiliation ?? person.affiliation,
        orcid: earlier.orcid ?? person.orcid,
      }, ["given", "affiliation", "orcid"]),
    };
    indexed(kept[index], index);
  }
  return kept;
}

/** Lower case, accents and punctuation dropped, spaces single: what spelling may not change. */
function folded(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** Given names as words, initials as single letters (`Kristen B.` → `kristen`, `b`). */
function givenWords(given: string): string[] {
  return folded(given.replace(/-/g, " ")).split(" ").filter((word) => word !== "");
}

function looksLikeOrganisation(name: string): boolean {
  if (/[\d&@/()]/.test(name)) return true;
  return name.toLowerCase().split(/[\s,]+/).some((word) =>
    ORGANISATION_WORDS.has(word.replace(/(?<![.'’])[.'’]+$/, ""))
  );
}

function isNamePart(part: string): boolean {
  const words = part.split(" ").filter((word) => word !== "");
  return words.length >= 1 && words.length <= MAX_WORDS &&
    words.every((word) => NAME_WORD.test(word));
}

/** A word in a script whose names put the family name first (Han, kana, Hangul). */
const FAMILY_FIRST =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー・]+$/u;

/** "Given Family" (with a trailing suffix and family particles), or nothing when unsure. */
function givenFamily(text: string): Omit<ParsedName, "name"> {
  const words = text.split(" ").filter((word) => word !== "");
  let suffix = "";
  if (words.length > 2 && SUFFIX.test(words.at(-1)!)) suffix = words.pop()!;
  if (words.length < 2 || words.length > MAX_WORDS + 1) return {};
  if (!words.every((word) => NAME_WORD.test(word))) return {};
  // No one's name holds "and": such a value names two people, or a group.
  if (words.some((word) => /^(?:and|&)$/i.test(word))) return {};
  // Chinese, Japanese and Korean names are written family name first.
  if (words.every((word) => FAMILY_FIRST.test(word))) {
    return { family: words[0], given: words.slice(1).join(" "), ...opt("suffix", suffix) };
  }
  // Vancouver style, "Doe JK": the family name, then initials without dots.
  const last = words.at(-1)!;
  if (/^\p{Lu}{1,2}$/u.test(last) && !SUFFIX.test(last) && /\p{Ll}/u.test(words.join(""))) {
    const given = [...last].map((letter) => `${letter}.`).join(" ");
    return { family: words.slice(0, -1).join(" "), given, ...opt("suffix", suffix) };
  }
  let start = words.length - 1;
  while (start > 1 && PARTICLES.has(words[start - 1])) start--;
  return {
    family: words.slice(start).join(" "),
    given: words.slice(0, start).join(" "),
    ...opt("suffix", suffix),
  };
}

function opt<K extends string>(key: K, value: string): { [P in K]?: string } {
  return (value === "" ? {} : { [key]: value }) as { [P in K]?: string };
}
