/**
 * Sidecar files: metadata stored next to the items it describes. AVUs of folder F live in
 * `F/.avus.json`, of file F/x in `F/.x.avus.json`; comments likewise in `.comments.json` /
 * `.x.comments.json`. This module names, parses and renders them; reading from disk is the
 * store's job.
 *
 * @module
 */

import { loadZodModule, type z as Z } from "../deps.ts";
import { isUuid, nameUuid } from "./ids.ts";
import { checkStoreValue, parseStoreJson } from "./store_file.ts";

const { z } = await loadZodModule();

/**
 * The name of an item's sidecar of the given kind, in the folder that holds it (for a file)
 * or inside the folder itself (for a folder).
 *
 * @example
 * ```ts
 * import { sidecarName } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(sidecarName("data.csv", "file", "avus"), ".data.csv.avus.json");
 * assert.equal(sidecarName("images", "folder", "comments"), ".comments.json");
 * ```
 */
export function sidecarName(
  itemName: string,
  kind: "file" | "folder",
  sort: "avus" | "comments",
): string {
  return kind === "folder" ? `.${sort}.json` : `.${itemName}.${sort}.json`;
}

/**
 * The data-store path of the entry a file at `zonePath` describes when read as a sidecar (the
 * inverse of {@link sidecarName}): a folder's `.avus.json` describes the folder, `.x.avus.json`
 * describes `x` beside it, and any other file stands for itself. Whoever may not read that
 * entry may not read the sidecar, wherever a symlink to it sits.
 *
 * @example
 * ```ts
 * import { describedEntry } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(describedEntry("/iplant/home/ann/.avus.json"), "/iplant/home/ann");
 * assert.equal(describedEntry("/iplant/home/ann/.a.csv.comments.json"), "/iplant/home/ann/a.csv");
 * assert.equal(describedEntry("/iplant/home/ann/notes.txt"), "/iplant/home/ann/notes.txt");
 * ```
 */
export function describedEntry(zonePath: string): string {
  const slash = zonePath.lastIndexOf("/");
  const folder = zonePath.slice(0, slash);
  const name = zonePath.slice(slash + 1);
  if (name === ".avus.json" || name === ".comments.json") return folder;
  const item = /^\.(.+)\.(?:avus|comments)\.json$/s.exec(name)?.[1];
  return item === undefined ? zonePath : `${folder}/${item}`;
}

/**
 * An AVU as written in a sidecar.
 *
 * @example
 * ```ts
 * import type { AvuInput } from "./sidecars.ts";
 * const avu: AvuInput = { attr: "title", value: "Maize", unit: "" };
 * ```
 */
export interface AvuInput {
  /** Attribute name. */
  attr: string;
  /** Value (may be empty). */
  value: string;
  /** Unit; missing or null means "". */
  unit?: string | null;
  /** Nested AVUs. */
  avus?: AvuInput[];
  /** Author, overriding the item's owner. */
  created_by?: string;
  /** Last editor, overriding the item's owner. */
  modified_by?: string;
  /** Creation time in ms, overriding the sidecar's mtime. */
  created_on?: number;
  /** Modification time in ms, overriding the sidecar's mtime. */
  modified_on?: number;
}

const avuInputSchema: Z.ZodType<AvuInput> = z.lazy(() =>
  z.object({
    attr: z.string(),
    value: z.string(),
    unit: z.string().nullable().optional(),
    avus: z.array(avuInputSchema).optional(),
    created_by: z.string().optional(),
    modified_by: z.string().optional(),
    created_on: z.int().nonnegative().optional(),
    modified_on: z.int().nonnegative().optional(),
  })
);

const irodsAvuInputSchema = z.object({
  attr: z.string(),
  value: z.string(),
  unit: z.string().nullish().transform((unit) => unit ?? ""),
});

const avuObjectSchema = z.object({
  avus: z.array(avuInputSchema).default([]),
  "irods-avus": z.array(irodsAvuInputSchema).default([]),
});

/**
 * A raw iRODS AVU (attribute, value, unit: "" when the sidecar gives none).
 *
 * @example
 * ```ts
 * import type { IrodsAvu } from "./sidecars.ts";
 * const avu: IrodsAvu = { attr: "source", value: "field-campaign-7", unit: "" };
 * ```
 */
export type IrodsAvu = Z.output<typeof irodsAvuInputSchema>;

/**
 * The contents of an AVU sidecar: metadata-service AVUs and raw iRODS AVUs.
 *
 * @example
 * ```ts
 * import type { AvuSidecar } from "./sidecars.ts";
 * const sidecar: AvuSidecar = { avus: [], irodsAvus: [] };
 * ```
 */
export interface AvuSidecar {
  /** Metadata-service AVUs as written. */
  avus: AvuInput[];
  /** Raw iRODS AVUs as written. */
  irodsAvus: IrodsAvu[];
}

/**
 * Parses an AVU sidecar: either an array of AVUs, or `{avus, "irods-avus"}`.
 *
 * @throws {StoreFileError} naming `displayName` and the bad field.
 *
 * @example
 * ```ts
 * import { parseAvuSidecar } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode('[{"attr":"title","value":"Maize","unit":""}]');
 * assert.equal(parseAvuSidecar(bytes, ".avus.json").avus[0].attr, "title");
 * ```
 */
export function parseAvuSidecar(bytes: Uint8Array, displayName: string): AvuSidecar {
  // Pick the form first, so problems are reported against the form the author meant.
  const value = parseStoreJson(bytes, z.unknown(), displayName);
  if (Array.isArray(value)) {
    return { avus: checkStoreValue(value, z.array(avuInputSchema), displayName), irodsAvus: [] };
  }
  const parsed = checkStoreValue(value, avuObjectSchema, displayName);
  return { avus: parsed.avus, irodsAvus: parsed["irods-avus"] };
}

/**
 * An AVU as the metadata endpoint answers it.
 *
 * @example
 * ```ts
 * import type { Avu } from "./sidecars.ts";
 * const avu: Avu = {
 *   id: "2f0a5b7c-5a8e-11ed-9b6a-0242ac120002", attr: "title", value: "Maize", unit: "",
 *   target_id: "a8e1c3f4-5a8e-11ed-9b6a-0242ac120002", created_by: "demo", modified_by: "demo",
 *   created_on: 0, modified_on: 0, avus: [],
 * };
 * ```
 */
export interface Avu {
  /** Stable UUID. */
  id: string;
  /** Attribute name. */
  attr: string;
  /** Value (may be empty). */
  value: string;
  /** Unit (usually ""). */
  unit: string;
  /** The item's id, or the parent AVU's id for nested AVUs. */
  target_id: string;
  /** Author's username. */
  created_by: string;
  /** Last editor's username. */
  modified_by: string;
  /** Creation time, ms. */
  created_on: number;
  /** Modification time, ms. */
  modified_on: number;
  /** Nested AVUs (always present). */
  avus: Avu[];
}

/**
 * Fills in what the metadata service would: stable ids (derived from the item id and the
 * AVU's position), `target_id` (the item, or the parent AVU for nested ones), authors
 * (default `owner`) and times (default `mtime`, the sidecar's modification time in ms).
 *
 * @example
 * ```ts
 * import { renderAvus } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const item = "a8e1c3f4-5a8e-11ed-9b6a-0242ac120002";
 * const [creator] = renderAvus(
 *   [{ attr: "creator", value: "Li", avus: [{ attr: "affiliation", value: "Purdue" }] }],
 *   item, "curator", 1667373414000,
 * );
 * assert.equal(creator.target_id, item);
 * assert.equal(creator.avus[0].target_id, creator.id);
 * assert.equal(creator.created_by, "curator");
 * ```
 */
export function renderAvus(
  inputs: readonly AvuInput[],
  targetId: string,
  owner: string,
  mtime: number,
): Avu[] {
  return inputs.map((input, position) => {
    const id = nameUuid(`avu:${targetId}:${position}`);
    return {
      id,
      attr: input.attr,
      value: input.value,
      unit: input.unit ?? "",
      target_id: targetId,
      created_by: input.created_by ?? owner,
      modified_by: input.modified_by ?? owner,
      created_on: input.created_on ?? mtime,
      modified_on: input.modified_on ?? mtime,
      avus: renderAvus(input.avus ?? [], id, owner, mtime),
    };
  });
}

/**
 * The raw iRODS AVUs a client may see: none whose attribute starts with `ipc` (any case), and
 * the reserved unit shown as `""`.
 *
 * @example
 * ```ts
 * import { visibleIrodsAvus } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const shown = visibleIrodsAvus([
 *   { attr: "ipc-filetype", value: "csv", unit: "" },
 *   { attr: "source", value: "lab", unit: "ipc-reserved-unit" },
 * ]);
 * assert.deepEqual(shown, [{ attr: "source", value: "lab", unit: "" }]);
 * ```
 */
export function visibleIrodsAvus(avus: readonly IrodsAvu[]): IrodsAvu[] {
  return avus
    .filter((avu) => !avu.attr.toLowerCase().startsWith("ipc"))
    .map((avu) => ({
      attr: avu.attr,
      value: avu.value,
      unit: avu.unit === "ipc-reserved-unit" ? "" : avu.unit,
    }));
}

/**
 * The file type an `ipc-filetype` iRODS AVU assigns, if any (it overrides the name's type).
 *
 * @example
 * ```ts
 * import { fileTypeOverride } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(fileTypeOverride([{ attr: "ipc-filetype", value: "fasta", unit: "" }]), "fasta");
 * assert.equal(fileTypeOverride([]), undefined);
 * ```
 */
export function fileTypeOverride(avus: readonly IrodsAvu[]): string | undefined {
  const found = avus.find((avu) => avu.attr === "ipc-filetype" && avu.value !== "");
  return found?.value;
}

const commentsSchema = z.array(z.object({
  id: z.string().refine(isUuid, "must be a UUID"),
  comment: z.string().refine((text) => text.trim() !== "", "must not be blank"),
  commenter: z.string(),
  post_time: z.int().nonnegative(),
  retracted: z.boolean(),
}));

/**
 * Parses a comments sidecar and returns the comments oldest first, as the comments endpoint
 * answers them (ids in lowercase).
 *
 * @throws {StoreFileError} naming `displayName` and the bad field.
 *
 * @example
 * ```ts
 * import { parseComments } from "./sidecars.ts";
 * import assert from "node:assert/strict";
 *
 * const text = JSON.stringify([
 *   { id: "b04f5e2d-2b3c-11ee-8f44-0242ac120002", comment: "later", commenter: "a",
 *     post_time: 2, retracted: true },
 *   { id: "9e1d7c1a-2b3c-11ee-8f44-0242ac120002", comment: "first", commenter: "b",
 *     post_time: 1, retracted: false },
 * ]);
 * const comments = parseComments(new TextEncoder().encode(text), ".comments.json");
 * assert.deepEqual(comments.map((c) => c.comment), ["first", "later"]);
 * ```
 */
export function parseComments(bytes: Uint8Array, displayName: string) {
  return parseStoreJson(bytes, commentsSchema, displayName)
    .map((entry) => ({
      id: entry.id.toLowerCase(),
      commenter: entry.commenter,
      post_time: entry.post_time,
      retracted: entry.retracted,
      comment: entry.comment,
    }))
    .sort((a, b) => a.post_time - b.post_time);
}
