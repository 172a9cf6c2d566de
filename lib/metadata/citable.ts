/**
 * {@linkcode Citable}, the fields every citation format is made from, and the two facts each
 * format asks of them first: the title (or a stand-in) and the resolver link.
 *
 * @module
 */

import { arkUrl } from "./ark.ts";
import { doiUrl } from "./doi.ts";
import type { License } from "./license.ts";
import type { Creator } from "./record_parts.ts";

/**
 * The fields a citation is made from: a `DatasetMetadata` record or any part of one
 * that has at least its path, creators and subjects.
 *
 * @example
 * ```ts
 * import type { Citable } from "./citable.ts";
 *
 * const minimal: Citable = { path: "/iplant/home/shared/x", creators: [], subjects: [] };
 * ```
 */
export interface Citable {
  /** The dataset folder's data-store path. */
  readonly path: string;
  /** Creators, in citation order. */
  readonly creators: readonly Creator[];
  /** Subjects. */
  readonly subjects: readonly string[];
  /** Title. */
  readonly title?: string;
  /** Publication year. */
  readonly publicationYear?: number;
  /** Publisher. */
  readonly publisher?: string;
  /** DOI, canonical `10.x/y`. */
  readonly doi?: string;
  /** ARK, canonical `ark:/NAAN/name`. */
  readonly ark?: string;
  /** Version. */
  readonly version?: string;
  /** Description. */
  readonly description?: string;
  /** Licence. */
  readonly license?: License;
  /** DataCite `resourceTypeGeneral`. */
  readonly resourceTypeGeneral?: string;
}

/**
 * The title, or the folder name in square brackets when there is none.
 *
 * @example
 * ```ts
 * import { titleOf } from "./citable.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(titleOf({ path: "/a/Barley_2018", creators: [], subjects: [] }), "[Barley_2018]");
 * ```
 */
export function titleOf(metadata: Citable): string | undefined {
  if (metadata.title !== undefined) return metadata.title;
  const folder = metadata.path.split("/").filter((part) => part !== "").at(-1);
  return folder === undefined ? undefined : `[${folder}]`;
}

/**
 * Whether a record names a dataset: it has a title, a DOI or an ARK. A folder whose metadata
 * has none of them holds no dataset metadata — its citation can only stand in the folder's
 * name for a title and point to its path — so provenance does not count it as a dataset and
 * `tern cite` warns before citing it.
 *
 * @example
 * ```ts
 * import { namesDataset } from "./citable.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(namesDataset({ path: "/a/Barley_2018", creators: [], subjects: [] }), false);
 * assert.equal(namesDataset({ path: "/a/x", creators: [], subjects: [], ark: "ark:/87946/p3f2r7" }), true);
 * ```
 */
export function namesDataset(metadata: Citable): boolean {
  return metadata.title !== undefined || metadata.doi !== undefined || metadata.ark !== undefined;
}

/**
 * Whether a person's name is written without capitals (Chinese, Japanese, Korean): such a
 * name is written whole, family name first (李明), never as initials or given name first.
 *
 * @example
 * ```ts
 * import { uncasedName } from "./citable.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(uncasedName({ name: "李, 明", family: "李", given: "明" }), true);
 * assert.equal(uncasedName({ name: "Lee, Min-jun", family: "Lee", given: "Min-jun" }), false);
 * ```
 */
export function uncasedName(creator: Citable["creators"][number]): boolean {
  return !/[\p{Lu}\p{Ll}]/u.test(`${creator.family ?? creator.name}${creator.given ?? ""}`);
}

/**
 * The resolver link of the record: its DOI's, else its ARK's.
 *
 * @example
 * ```ts
 * import { linkOf } from "./citable.ts";
 * import assert from "node:assert/strict";
 *
 * const record = { path: "", creators: [], subjects: [], ark: "ark:/87946/p3f2r7" };
 * assert.equal(linkOf(record), "https://n2t.net/ark:/87946/p3f2r7");
 * ```
 */
export function linkOf(metadata: Citable): string | undefined {
  if (metadata.doi !== undefined) return doiUrl(metadata.doi);
  if (metadata.ark !== undefined) return arkUrl(metadata.ark);
  return undefined;
}
