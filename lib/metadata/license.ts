/**
 * Licences to SPDX identifiers, honestly: an explicit SPDX identifier is `exact`; a known
 * spelling of a data licence (ODC PDDL, CC0, every "CC BY(-NC)(-SA|-ND) x.0" and "Creative
 * Commons Attribution … International") is an `alias`; a licence named inside longer text, or
 * repaired by `spdx-correct`, is a `guess`; anything else keeps its text with no identifier.
 *
 * @module
 */

import { loadSpdxCorrectModule } from "../deps.ts";
import { tidy } from "./values.ts";

/**
 * How a licence identifier was reached: `exact` (an SPDX identifier as stored), `alias` (a known
 * spelling or link of one licence), `guess` (named inside longer text, or repaired by
 * spdx-correct), `unknown` (no identifier).
 *
 * @example
 * ```ts
 * import type { LicenseConfidence } from "./license.ts";
 *
 * const trusted = (confidence: LicenseConfidence) => confidence === "exact" || confidence === "alias";
 * ```
 */
export type LicenseConfidence = "exact" | "alias" | "guess" | "unknown";

/**
 * A dataset's licence.
 *
 * @example
 * ```ts
 * import type { License } from "./license.ts";
 *
 * const pddl: License = {
 *   id: "PDDL-1.0",
 *   name: "Open Data Commons Public Domain Dedication & License 1.0",
 *   url: "https://opendatacommons.org/licenses/pddl/1-0/",
 *   confidence: "alias",
 * };
 * ```
 */
export interface License {
  /** SPDX identifier or expression (`CC-BY-4.0`, `PDDL-1.0 AND GPL-3.0-only`), when known. */
  id?: string;
  /** The licence's full name when the id is known and listed here, else the text as stored. */
  name: string;
  /** Where the licence text is: the stored rights link, the licence's own page, or a link in the text. */
  url?: string;
  /** How the id was reached. */
  confidence: LicenseConfidence;
}

/**
 * What the metadata says besides the rights text (DataCite's `rightsURI`, `rightsIdentifier`,
 * `rightsIdentifierScheme`).
 *
 * @example
 * ```ts
 * import type { LicenseHints } from "./license.ts";
 *
 * const hints: LicenseHints = { identifier: "CC0-1.0", scheme: "SPDX" };
 * ```
 */
export interface LicenseHints {
  /** `rightsURI`. */
  uri?: string;
  /** `rightsIdentifier`. */
  identifier?: string;
  /** `rightsIdentifierScheme`. */
  scheme?: string;
}

/**
 * spdx-correct's function: a valid SPDX expression for a string, or null.
 *
 * @example
 * ```ts
 * import type { SpdxCorrect } from "./license.ts";
 *
 * const strict: SpdxCorrect = (value) => value === "MIT" ? "MIT" : null;
 * ```
 */
export type SpdxCorrect = (value: string) => string | null;

/** spdx-correct, loaded once: a lazily built immutable singleton (a failed load is not kept). */
let loading: Promise<SpdxCorrect> | undefined;

/**
 * Loads spdx-correct once (it reads the SPDX list, so it is not loaded with tern itself).
 *
 * @example
 * ```ts
 * import { loadSpdxCorrect } from "./license.ts";
 * import assert from "node:assert/strict";
 *
 * const correct = await loadSpdxCorrect();
 * assert.equal(correct("Apache 2"), "Apache-2.0");
 * ```
 */
export function loadSpdxCorrect(): Promise<SpdxCorrect> {
  loading ??= loadSpdxCorrectModule().then((module) => {
    const correct = module.default as (
      value: string,
      options: { upgrade: boolean },
    ) => string | null;
    return (value: string) => {
      try {
        // No upgrade: it maps the deprecated `GPL-3.0` (which means `-only`) to `-or-later`.
        return value.trim() === "" ? null : correct(value, { upgrade: false });
      } catch {
        return null;
      }
    };
  }).catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Full names and pages of the licences this module names itself. */
const KNOWN: ReadonlyMap<string, { name: string; url: string }> = new Map([
  ["CC0-1.0", {
    name: "Creative Commons Zero v1.0 Universal",
    url: "https://creativecommons.org/publicdomain/zero/1.0/",
  }],
  ["CC-PDM-1.0", {
    name: "Creative Commons Public Domain Mark v1.0 Universal",
    url: "https://creativecommons.org/publicdomain/mark/1.0/",
  }],
  ["PDDL-1.0", {
    name: "Open Data Commons Public Domain Dedication & License 1.0",
    url: "https://opendatacommons.org/licenses/pddl/1-0/",
  }],
  ["ODC-By-1.0", {
    name: "Open Data Commons Attribution License v1.0",
    url: "https://opendatacommons.org/licenses/by/1-0/",
  }],
  ["ODbL-1.0", {
    name: "Open Data Commons Open Database License v1.0",
    url: "https://opendatacommons.org/licenses/odbl/1-0/",
  }],
]);

const CC_ELEMENT_NAMES: Record<string, string> = {
  NC: "Non Commercial",
  SA: "Share Alike",
  ND: "No Derivatives",
};

const CC_EDITION: Record<string, string> = {
  "1.0": "Generic",
  "2.0": "Generic",
  "2.5": "Generic",
  "3.0": "Unported",
  "4.0": "International",
};

/** Open Data Commons names, keyed by {@linkcode odcKey}. */
const ODC_ALIASES: ReadonlyMap<string, string> = new Map([
  // Each of these names alone, or after "odc" or "open data commons".
  ...["", "odc ", "open data commons "].flatMap((prefix) => [
    [`${prefix}pddl`, "PDDL-1.0"] as const,
    [`${prefix}public domain dedication`, "PDDL-1.0"] as const,
    [`${prefix}odbl`, "ODbL-1.0"] as const,
    [`${prefix}open database`, "ODbL-1.0"] as const,
  ]),
  ["odc by", "ODC-By-1.0"],
  ["open data commons by", "ODC-By-1.0"],
  ["odc attribution", "ODC-By-1.0"],
  ["open data commons attribution", "ODC-By-1.0"],
  ["public domain mark", "CC-PDM-1.0"],
  ["cc public domain mark", "CC-PDM-1.0"],
]);

/** Values that say there is no (open) licence; spdx-correct turns some into real licences. */
const NOT_A_LICENSE =
  /^(?:unlicensed|proprietary|all rights reserved|none|n\/?a|unknown|not specified|no licen[cs]e|other|see readme(?:\.\w+)?)\.?$/i;

/** A labelled part of a compound value: `data: ODC PDDL, code: GPLv3`. */
const PART_LABEL =
  /(?:^|[,;]\s*|\s+)(data|datasets?|code|software|scripts?|documentation|docs|text|metadata|images?|media)\s*:\s*/gi;

/** Short values only go through spdx-correct; its substring guesses misread prose. */
const SHORT = { words: 6, chars: 60 };

/** The longest value read as an SPDX identifier or expression. */
const MAX_EXPRESSION_CHARS = 1_000;

const RANK: Record<LicenseConfidence, number> = { exact: 3, alias: 2, guess: 1, unknown: 0 };

/**
 * Normalises a rights value (with its DataCite sub-properties) to a {@linkcode License}, or
 * `undefined` when there is nothing at all. In order: an SPDX `rightsIdentifier`; the value
 * itself as an SPDX identifier or expression; a known spelling of one licence; labelled parts
 * (`data: ODC PDDL, code: GPLv3` → `PDDL-1.0 AND GPL-3.0-only`); the `rightsURI`; a single
 * licence named or linked inside longer text; spdx-correct for short values (refusing repairs
 * that add a version or a name, and reading "GPLv3" as `-only`). Values that deny a licence
 * (`UNLICENSED`, `proprietary`, …) never get one.
 *
 * @example
 * ```ts
 * import { loadSpdxCorrect, normalizeLicense } from "./license.ts";
 * import assert from "node:assert/strict";
 *
 * const correct = await loadSpdxCorrect();
 * assert.equal(normalizeLicense("ODC PDDL", {}, correct)?.id, "PDDL-1.0");
 * assert.equal(normalizeLicense("CC BY-NC 4.0", {}, correct)?.confidence, "alias");
 * assert.deepEqual(normalizeLicense("No restrictions.", {}, correct), {
 *   name: "No restrictions.", confidence: "unknown",
 * });
 * ```
 */
export function normalizeLicense(
  value: string,
  hints: LicenseHints,
  correct: SpdxCorrect,
): License | undefined {
  const text = tidy(value);
  const isLink = (candidate: string) => /^https?:\/\/\S+$/i.test(candidate);
  // A value that is one link says what a rights link says (when there is none).
  const uri = isLink(hints.uri?.trim() ?? "") ? hints.uri!.trim() : isLink(text) ? text : undefined;
  const candidates: Candidate[] = [];

  const identifier = tidy(hints.identifier ?? "");
  if (identifier !== "" && /^(?:spdx)?$/i.test(tidy(hints.scheme ?? ""))) {
    const id = spdxId(identifier, correct);
    if (id !== undefined) candidates.push({ id, confidence: "exact" });
  }
  if (text !== "" && !NOT_A_LICENSE.test(text)) {
    // The value as a whole: an SPDX id or expression, a known alias, or labelled parts.
    const whole = exactOrAlias(text, correct) ?? labelledParts(text, correct);
    if (whole !== undefined) candidates.push(whole);
  }
  const linked = uri === undefined ? undefined : spdxId(licenseFromUrl(uri) ?? "", correct);
  if (linked !== undefined) candidates.push({ id: linked, confidence: "alias" });
  if (text !== "" && !NOT_A_LICENSE.test(text) && candidates.length === 0) {
    const guess = namedIn(text) ?? repairShort(text, correct);
    if (guess !== undefined) candidates.push({ id: guess, confidence: "guess" });
  }

  if (text === "" && candidates.length === 0) {
    return uri === undefined ? undefined : { name: uri, url: uri, confidence: "unknown" };
  }
  const best = candidates.sort((a, b) => RANK[b.confidence] - RANK[a.confidence])[0];
  const known = best === undefined ? undefined : KNOWN.get(best.id) ?? ccInfo(best.id);
  const name = best !== undefined && best.confidence !== "guess" && known !== undefined
    ? known.name
    : best !== undefined && text === uri
    ? best.id
    : text || (known?.name ?? best?.id ?? "");
  const url = uri ?? known?.url ??
    (best === undefined || best.id.includes(" ")
      ? singleUrlIn(text)
      : `https://spdx.org/licenses/${best.id}.html`);
  return {
    ...(best === undefined ? {} : { id: best.id }),
    name,
    ...(url === undefined ? {} : { url }),
    confidence: best?.confidence ?? "unknown",
  };
}

type Candidate = { id: string; confidence: LicenseConfidence };

/** An SPDX id or expression, else a known alias. */
function exactOrAlias(text: string, correct: SpdxCorrect): Candidate | undefined {
  const exact = spdxId(text, correct);
  if (exact !== undefined) return { id: exact, confidence: "exact" };
  const alias = aliasOf(text, correct);
  return alias === undefined ? undefined : { id: alias, confidence: "alias" };
}

/** A known spelling of one licence: Creative Commons or Open Data Commons. */
function aliasOf(text: string, correct: SpdxCorrect): string | undefined {
  const odc = ODC_ALIASES.get(odcKey(text));
  if (odc !== undefined) return odc;
  const cc = creativeCommons(ccTokens(text), true);
  return cc !== undefined && spdxId(cc, correct) === cc ? cc : undefined;
}

/** `data: X, code: Y` with every part resolved → `X AND Y`, at the weakest part's confidence. */
function labelledParts(text: string, correct: SpdxCorrect): Candidate | undefined {
  const labels = [...text.matchAll(PART_LABEL)];
  if (labels.length < 2 || labels[0].index !== 0) return undefined;
  const ids: string[] = [];
  let confidence: LicenseConfidence = "exact";
  for (const [index, label] of labels.entries()) {
    const end = labels[index + 1]?.index ?? text.length;
    const part = text.slice(label.index! + label[0].length, end).replace(
      /(?<![,;.\s])[,;.\s]+$/,
      "",
    );
    const resolved = resolvePart(part, correct);
    if (resolved === undefined) return undefined;
    if (!ids.includes(resolved.id)) ids.push(resolved.id);
    if (RANK[resolved.confidence] < RANK[confidence]) confidence = resolved.confidence;
  }
  return { id: ids.join(" AND "), confidence };
}

/** One labelled part: an SPDX id, an alias, or a careful spdx-correct repair. */
function resolvePart(part: string, correct: SpdxCorrect): Candidate | undefined {
  const found = exactOrAlias(part, correct);
  if (found !== undefined) return found;
  const repaired = repairShort(part, correct);
  return repaired === undefined ? undefined : { id: repaired, confidence: "guess" };
}

/** The value when it is a valid SPDX identifier or expression (any case), in SPDX's case. */
function spdxId(text: string, correct: SpdxCorrect): string | undefined {
  const value = text.trim();
  // spdx-correct takes time growing with the square of a long value's length; no licence
  // expression is that long.
  if (value === "" || value.length > MAX_EXPRESSION_CHARS || /\s{2,}/.test(value)) {
    return undefined;
  }
  for (const id of KNOWN.keys()) if (id.toLowerCase() === value.toLowerCase()) return id;
  const corrected = correct(value);
  return corrected !== null && corrected.toLowerCase() === value.toLowerCase()
    ? modernGnu(corrected)
    : undefined;
}

/**
 * SPDX's current ids for its deprecated GNU ids: `GPL-3.0` is `GPL-3.0-only`, `GPL-3.0+` is
 * `GPL-3.0-or-later` (spdx-correct's own upgrade turns both into `-or-later`).
 */
function modernGnu(expression: string): string {
  return expression.replace(
    /\b((?:A|L)?GPL|GFDL)-(\d\.\d)(\+)?(?![\w.+-])/g,
    (_, name: string, version: string, plus?: string) =>
      `${name}-${version}-${plus === undefined ? "only" : "or-later"}`,
  );
}

/**
 * spdx-correct on a short, single-licence value, refusing a repair that invents a version
 * ("BSD" → BSD-2-Clause) or a name ("No limits" → MIT), and reading an unqualified GNU licence
 * as `-only`.
 */
function repairShort(text: string, correct: SpdxCorrect): string | undefined {
  const words = text.split(" ").length;
  if (words > SHORT.words || text.length > SHORT.chars) return undefined;
  const withoutLater = text.replace(/\sor\s(?:any\s)?later(?:\sversion)?/i, " or-later");
  if (/[,;&/]|\s(?:and|or|with)\s/i.test(withoutLater) || NOT_A_LICENSE.test(text)) {
    return undefined;
  }
  const corrected = correct(text);
  if (corrected === null || /\s/.test(corrected)) return undefined;
  let id = modernGnu(corrected);
  const given = numbersIn(text);
  if (!numbersIn(id).every((number) => given.includes(number))) return undefined;
  // Its last-resort substring guesses read "No limits" as MIT: the licence's name must start a
  // word of the value.
  const name = /^[A-Za-z]+/.exec(id)?.[0];
  if (name === undefined || !new RegExp(`(?:^|[^a-z])${name}`, "i").test(text)) return undefined;
  if (id.endsWith("-or-later") && !/later|\+|or any/i.test(text)) {
    id = id.replace(/-or-later$/, "-only");
  }
  return spdxId(id, correct);
}

/** Version-like numbers, compared numerically (`2` equals `2.0`). */
function numbersIn(text: string): number[] {
  return [...text.matchAll(/\d+(?:\.\d+)?/g)].map((match) => Number(match[0]));
}

/** Links in free text (a licence's page, say). */
const URL_IN_TEXT = /https?:\/\/[^\s<>"')\]]+/gi;

/**
 * The most words a Creative Commons licence's phrase takes in prose: "Creative Commons
 * Attribution-NonCommercial-ShareAlike 4.0 International Public License" is nine.
 */
const CC_PHRASE_TOKENS = 16;

/** Licences named in prose by their full names or usual abbreviations. */
const NAMED_IN_PROSE: readonly (readonly [RegExp, string])[] = [
  [/\bcc0\b|\bcc[\s-]?zero\b|creative commons zero/i, "CC0-1.0"],
  [/public domain dedication (?:and|&) licen[cs]e|\bodc[\s-]?pddl\b/i, "PDDL-1.0"],
  [/open database licen[cs]e|\bodbl\b/i, "ODbL-1.0"],
  [/open data commons attribution licen[cs]e|\bodc[\s-]by\b/i, "ODC-By-1.0"],
  [/public domain mark/i, "CC-PDM-1.0"],
];

/** One licence named or linked inside longer text; undefined when none or several differ. */
function namedIn(text: string): string | undefined {
  const linked = [...text.matchAll(URL_IN_TEXT)].map((match) => licenseFromUrl(match[0]));
  const prose = text.replace(URL_IN_TEXT, " ");
  const tokens = ccTokens(prose);
  // A licence's phrase is a few words long: each "cc" looks that far ahead only, so a long
  // value with many of them is read in linear time.
  const cc = tokens.map((token, start) =>
    token === "cc"
      ? creativeCommons(tokens.slice(start, start + CC_PHRASE_TOKENS), false)
      : undefined
  );
  const named = NAMED_IN_PROSE.filter(([pattern]) => pattern.test(prose)).map(([, id]) => id);
  const found = new Set([...linked, ...cc, ...named].filter((id) => id !== undefined));
  return found.size === 1 ? [...found][0] : undefined;
}

/** The licence a Creative Commons, Open Data Commons, SPDX or OSI licence page link names. */
function licenseFromUrl(url: string): string | undefined {
  const listed =
    /^https?:\/\/(?:www\.)?(?:spdx|opensource)\.org\/licenses\/([\w.+-]+?)(?:\.html|\.json|\.php)?\/?$/i
      .exec(url.trim());
  if (listed !== null) return listed[1];
  const text = url.trim().toLowerCase();
  const cc = /creativecommons\.org\/licenses\/(by(?:-nc)?(?:-sa|-nd)?)\/(\d\.\d)/.exec(text);
  if (cc !== null) return `CC-${cc[1].toUpperCase()}-${cc[2]}`;
  if (/creativecommons\.org\/publicdomain\/zero\/1\.0/.test(text)) return "CC0-1.0";
  if (/creativecommons\.org\/publicdomain\/mark\/1\.0/.test(text)) return "CC-PDM-1.0";
  const odc = /opendatacommons\.org\/licen[cs]es\/(pddl|by|odbl)(?:[/.]|$)/.exec(text);
  if (odc !== null) return { pddl: "PDDL-1.0", by: "ODC-By-1.0", odbl: "ODbL-1.0" }[odc[1]];
  return undefined;
}

/** Lower-case words with Creative Commons phrases reduced to their codes. */
function ccTokens(text: string): string[] {
  return text.toLowerCase()
    .replace(/creative\s+commons/g, " cc ")
    .replace(/\bcc0\b/g, " cc 0 ")
    .replace(/non[\s-]?commercial/g, " nc ")
    .replace(/share[\s-]?alike/g, " sa ")
    .replace(/no[\s-]?deriv(?:ative)?s?(?:\s+works)?/g, " nd ")
    .replace(/\battribution\b/g, " by ")
    .split(/[^a-z0-9.]+/)
    .map((token) => token.replace(/^\.+|(?<!\.)\.+$/g, ""))
    .filter((token) => token !== "");
}

const CC_FILLERS: ReadonlySet<string> = new Set([
  "license",
  "licence",
  "licensed",
  "public",
  "legal",
  "code",
  "the",
  "v",
  "version",
]);

/**
 * A Creative Commons licence from tokens starting at `cc` (or, for a whole value, at `by` with
 * an edition word: "Attribution 4.0 International"): BY and other elements, then a version.
 * `whole` demands that nothing else is there but filler words and a repeat of the same licence
 * (`… International (CC BY 4.0)`).
 */
function creativeCommons(tokens: readonly string[], whole: boolean): string | undefined {
  let index = 0;
  const labelled = tokens[index] === "cc";
  if (labelled) index++;
  else if (!whole) return undefined;
  const elements = new Set<string>();
  let version: string | undefined;
  let zero = false;
  let edition = false;
  for (; index < tokens.length; index++) {
    const token = tokens[index];
    if (["by", "nc", "sa", "nd"].includes(token)) {
      // Elements come before the version (`BY-NC 4.0`), and a licence starts with BY.
      if (version !== undefined && !elements.has(token)) return undefined;
      if (elements.size === 0 && token !== "by") return undefined;
      elements.add(token);
    } else if (token === "0" || token === "zero") zero = true;
    else if (/^\d(?:\.\d)?$/.test(token)) {
      const written = token.includes(".") ? token : `${token}.0`;
      if (version === undefined && elements.size > 0) version = written;
      else if (!whole || written !== version) return undefined;
    } else if (["international", "unported", "generic"].includes(token)) edition = true;
    else if (CC_FILLERS.has(token) || token === "cc" || token === "universal") continue;
    else if (whole) return undefined;
    else break;
    if (!whole && version !== undefined) break;
  }
  if (zero) {
    return labelled && elements.size === 0 && (version === undefined || version === "1.0")
      ? "CC0-1.0"
      : undefined;
  }
  // Without "CC" only the licence's own title counts: "Attribution 4.0 International".
  if (!labelled && !edition) return undefined;
  if (!elements.has("by") || version === undefined || !(version in CC_EDITION)) return undefined;
  if (elements.has("sa") && elements.has("nd")) return undefined;
  const parts = [
    "BY",
    ...["nc", "sa", "nd"].filter((e) => elements.has(e)).map((e) => e.toUpperCase()),
  ];
  return `CC-${parts.join("-")}-${version}`;
}

/** Full name and page of a Creative Commons licence id (`CC-BY-NC-4.0`). */
function ccInfo(id: string): { name: string; url: string } | undefined {
  const match = /^CC-BY((?:-NC)?(?:-SA|-ND)?)-(\d\.\d)$/.exec(id);
  if (match === null || !(match[2] in CC_EDITION)) return undefined;
  const elements = match[1].split("-").filter((e) => e !== "");
  const words = ["Attribution", ...elements.map((e) => CC_ELEMENT_NAMES[e])].join(" ");
  return {
    name: `Creative Commons ${words} ${match[2]} ${CC_EDITION[match[2]]}`,
    url: `https://creativecommons.org/licenses/${
      ["by", ...elements.map((e) => e.toLowerCase())].join("-")
    }/${match[2]}/`,
  };
}

/** Open Data Commons lookup key: lower case, words only, without filler and version words. */
function odcKey(text: string): string {
  return text.toLowerCase()
    .replace(/&/g, " and ")
    .split(/[^a-z0-9]+/)
    .filter((word) =>
      word !== "" && !["license", "licence", "the", "v", "v1", "version", "1", "0", "10", "and"]
        .includes(word)
    )
    .join(" ");
}

function singleUrlIn(text: string): string | undefined {
  const urls = new Set(
    [...text.matchAll(URL_IN_TEXT)].map((m) => m[0].replace(/(?<![.,;:])[.,;:]+$/, "")),
  );
  return urls.size === 1 ? [...urls][0] : undefined;
}
