/**
 * The search service's self-description (`search-documentation`): the nine query clauses with
 * their arguments, and the fields results can be sorted by, in a different order on each call
 * as the real service's Go map iteration gives.
 *
 * @module
 */

import type { Prng } from "./prng.ts";
import { SEARCH_SORT_FIELDS } from "../registry/search_sort_fields.ts";

/** A clause on the `date` date lying in a range (`last` stands before it in the summary). */
function dateRange(date: string, last = "") {
  return {
    summary: `Matches items whose ${last}${date} date falls within the given range.`,
    args: {
      from: { type: "string", summary: `The earliest ${date} date to match, inclusive.` },
      to: { type: "string", summary: `The latest ${date} date to match, inclusive.` },
    },
  };
}

const SIZE_UNITS = "in bytes or as a number with a unit such as 10 KB, 5 MB, 2 GB or 1 TB.";

const CLAUSES = {
  created: dateRange("creation"),
  label: {
    summary: "Matches items by their label, which is the last segment of their path.",
    args: {
      label: { type: "string", summary: "The label, or part of a label, to look for." },
      exact: {
        type: "bool",
        summary: "When true, only labels equal to the given value match; otherwise any label " +
          "containing it matches.",
      },
    },
  },
  metadata: {
    summary: "Matches items carrying metadata whose attribute, value and unit match the " +
      "given ones.",
    args: {
      attribute: { type: "string", summary: "The metadata attribute to match." },
      value: { type: "string", summary: "The metadata value to match." },
      unit: { type: "string", summary: "The metadata unit to match." },
      metadata_types: {
        type: "[]string",
        summary: "Which metadata to search: irods for raw data-store metadata, cyverse for " +
          "metadata added through the Discovery Environment; both when omitted.",
      },
      attribute_exact: {
        type: "bool",
        summary: "When true, the attribute must equal the given one rather than contain it.",
      },
      value_exact: {
        type: "bool",
        summary: "When true, the value must equal the given one rather than contain it.",
      },
      unit_exact: {
        type: "bool",
        summary: "When true, the unit must equal the given one rather than contain it.",
      },
    },
  },
  modified: dateRange("modification", "last "),
  owner: {
    summary: "Matches items owned by the given user.",
    args: {
      owner: { type: "string", summary: "The username of the owner to match." },
    },
  },
  path: {
    summary: "Matches items whose full path starts with the given prefix.",
    args: {
      prefix: { type: "string", summary: "The path prefix, for example /iplant/home/shared." },
    },
  },
  permissions: {
    summary: "Matches items on which the given users hold the given permission.",
    args: {
      users: {
        type: "[]string",
        summary: "The users or groups whose permissions are checked.",
      },
      permission: {
        type: "string",
        summary: "The permission to look for: read, write or own.",
      },
      permission_recurse: {
        type: "bool",
        summary: "When true, a stronger permission also matches (own satisfies write and read).",
      },
      exact: {
        type: "bool",
        summary: "When true, user names must match exactly rather than by prefix.",
      },
    },
  },
  size: {
    summary: "Matches files whose size falls within the given range.",
    args: {
      from: { type: "string", summary: `The smallest size to match, ${SIZE_UNITS}` },
      to: { type: "string", summary: `The largest size to match, ${SIZE_UNITS}` },
    },
  },
  tag: {
    summary: "Matches items that carry any of the given tags.",
    args: {
      tags: { type: "[]string", summary: "The ids of the tags to match." },
    },
  },
};

/**
 * The clause types the service knows, in its order.
 *
 * @example
 * ```ts
 * import { CLAUSE_TYPES } from "./search_documentation.ts";
 * import assert from "node:assert/strict";
 * assert.equal(CLAUSE_TYPES.length, 9);
 * ```
 */
export const CLAUSE_TYPES: readonly string[] = Object.keys(CLAUSES);

/**
 * The search-documentation body: each clause's `summary` and its `args` by name (each with
 * its `type` in the search service's terms, `string`, `bool` or `[]string`, and a `summary`),
 * and the `sortFields`, shuffled by `prng`.
 *
 * @example
 * ```ts
 * import { searchDocumentation } from "./search_documentation.ts";
 * import { Prng } from "./prng.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = searchDocumentation(new Prng(1));
 * assert.equal(Object.keys(doc.clauses).length, 9);
 * assert.equal(doc.sortFields.length, 7);
 * ```
 */
export function searchDocumentation(prng: Prng) {
  return {
    clauses: structuredClone(CLAUSES),
    sortFields: prng.shuffle(SEARCH_SORT_FIELDS.toSorted()),
  };
}
