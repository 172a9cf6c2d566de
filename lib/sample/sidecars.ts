/**
 * AVU and comment sidecars: the hidden files through which the store carries metadata.
 *
 * Folder `F` keeps its AVUs in `F/.avus.json` and comments in `F/.comments.json`; file `F/x`
 * keeps them in `F/.x.avus.json` and `F/.x.comments.json`.
 *
 * @module
 */

import { sidecarName } from "../server/sidecars.ts";
import { baseName } from "../server/zone_path.ts";
import { nameUuid } from "./ids.ts";

/**
 * One attribute-value-unit triple as stored in a sidecar. Values are always strings (possibly
 * empty); multi-valued attributes are repeated triples; sub-properties are nested `avus`.
 *
 * @example
 * ```ts
 * import { type SampleAvu } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const doi: SampleAvu = {
 *   attr: "identifier",
 *   value: "10.25739/9k2v-7q4m",
 *   unit: "",
 *   avus: [{ attr: "identifierType", value: "DOI", unit: "" }],
 * };
 * assert.equal(doi.avus?.[0].value, "DOI");
 * ```
 */
export interface SampleAvu {
  /** Attribute name, exactly as a user typed it (case, prefixes and typos preserved). */
  attr: string;
  /** Value; may be `""`. */
  value: string;
  /** Unit; usually `""`. */
  unit: string;
  /** Nested AVUs (sub-properties such as `affiliation` under `creator`). */
  avus?: SampleAvu[];
  /** Short username that created the AVU. */
  created_by?: string;
  /** Short username that last modified the AVU. */
  modified_by?: string;
  /** Creation time, ms since the epoch. */
  created_on?: number;
  /** Last modification time, ms since the epoch. */
  modified_on?: number;
}

/**
 * One comment as stored in a comments sidecar.
 *
 * @example
 * ```ts
 * import { comment, type SampleComment } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const c: SampleComment = comment("doc/1", "demo", "2024-01-01T00:00:00Z", "Thanks!");
 * assert.equal(c.retracted, false);
 * ```
 */
export interface SampleComment {
  /** UUID of the comment. */
  id: string;
  /** Comment text (never blank). */
  comment: string;
  /** Short username of the author. */
  commenter: string;
  /** Posting time, ms since the epoch. */
  post_time: number;
  /** True once the author retracted it (the text is still listed). */
  retracted: boolean;
}

/**
 * An AVU with an empty unit and optional nested AVUs.
 *
 * @example
 * ```ts
 * import { avu } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const creator = avu("creator", "Gorman, Kristen B.", avu("affiliation", "Palmer LTER"));
 * assert.equal(creator.avus?.[0].attr, "affiliation");
 * ```
 */
export function avu(attr: string, value: string, ...nested: SampleAvu[]): SampleAvu {
  return avuWithUnit(attr, value, "", ...nested);
}

/**
 * One plain AVU per value, all with the same attribute (a dataset's subjects, its formats),
 * in the order given.
 *
 * @example
 * ```ts
 * import { avu, repeated } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(repeated("format", "csv", "parquet"), [avu("format", "csv"), avu("format", "parquet")]);
 * ```
 */
export function repeated(attr: string, ...values: string[]): SampleAvu[] {
  return values.map((value) => avu(attr, value));
}

/**
 * An AVU with a unit.
 *
 * @example
 * ```ts
 * import { avuWithUnit } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(avuWithUnit("rows", "344", "count").unit, "count");
 * ```
 */
export function avuWithUnit(
  attr: string,
  value: string,
  unit: string,
  ...nested: SampleAvu[]
): SampleAvu {
  return nested.length ? { attr, value, unit, avus: nested } : { attr, value, unit };
}

/**
 * Parses an ISO-8601 UTC timestamp (with `Z`) into a Date, rejecting anything else so a typo
 * in a fixture date fails the build instead of producing `Invalid Date`.
 *
 * @example
 * ```ts
 * import { utc } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(utc("2020-07-16T17:42:00Z").getTime(), Date.UTC(2020, 6, 16, 17, 42));
 * ```
 */
export function utc(iso: string): Date {
  const d = new Date(iso);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(iso) || Number.isNaN(d.getTime())) {
    throw new TypeError(`Expected an ISO UTC timestamp like 2020-01-31T12:00:00Z, got ${iso}`);
  }
  return d;
}

/**
 * Marks AVUs (recursively) as created and last modified by `who` at `when`, the way the
 * metadata service records who entered them.
 *
 * @example
 * ```ts
 * import { authored, avu } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const [a] = authored("curator", "2020-07-20T09:00:00Z", [avu("identifier", "10.25739/x")]);
 * assert.equal(a.created_by, "curator");
 * ```
 */
export function authored(who: string, when: string, avus: SampleAvu[]): SampleAvu[] {
  const ms = utc(when).getTime();
  const mark = (a: SampleAvu): SampleAvu => ({
    ...a,
    ...(a.avus ? { avus: a.avus.map(mark) } : {}),
    created_by: who,
    modified_by: who,
    created_on: ms,
    modified_on: ms,
  });
  return avus.map(mark);
}

/**
 * A comment with an id derived from `key`, so it is the same on every build.
 *
 * @example
 * ```ts
 * import { comment } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const c = comment("penguins/1", "demo", "2021-01-05T10:00:00Z", "Great dataset!");
 * assert.equal(c.retracted, false);
 * ```
 */
export function comment(
  key: string,
  commenter: string,
  when: string,
  text: string,
  retracted = false,
): SampleComment {
  if (text.trim() === "") throw new TypeError(`Comment ${key} must not be blank`);
  return {
    id: nameUuid(`comment:${key}`),
    comment: text,
    commenter,
    post_time: utc(when).getTime(),
    retracted,
  };
}

/**
 * Encodes a value (a sidecar, a config file) as pretty-printed JSON with a final newline.
 *
 * @example
 * ```ts
 * import { avu, jsonBytes } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const text = new TextDecoder().decode(jsonBytes([avu("title", "T")]));
 * assert.deepEqual(JSON.parse(text), [{ attr: "title", value: "T", unit: "" }]);
 * ```
 */
export function jsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value, null, 2) + "\n");
}

/**
 * Relative path of the AVU sidecar of an entry (`rel` relative to the store root).
 *
 * @example
 * ```ts
 * import { avuSidecar } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(avuSidecar("a/b", "folder"), "a/b/.avus.json");
 * assert.equal(avuSidecar("a/b.csv", "file"), "a/.b.csv.avus.json");
 * ```
 */
export function avuSidecar(rel: string, kind: "file" | "folder"): string {
  return sidecarPath(rel, kind, "avus");
}

/**
 * Relative path of the comments sidecar of an entry (`rel` relative to the store root).
 *
 * @example
 * ```ts
 * import { commentSidecar } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(commentSidecar("a/b.csv", "file"), "a/.b.csv.comments.json");
 * ```
 */
export function commentSidecar(rel: string, kind: "file" | "folder"): string {
  return sidecarPath(rel, kind, "comments");
}

// The server's own naming, so a sample store is always laid out the way the server reads it.
function sidecarPath(rel: string, kind: "file" | "folder", what: "avus" | "comments"): string {
  const folder = kind === "folder" ? `${rel}/` : rel.slice(0, rel.lastIndexOf("/") + 1);
  return `${folder}${sidecarName(baseName(rel), kind, what)}`;
}
