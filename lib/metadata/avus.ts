/**
 * The AVU tree as groups of attributes by canonical key: what the normaliser reads instead of
 * raw AVUs. Values are trimmed; an attribute with an empty value and nothing nested under it
 * counts as absent, but keeps its position so the older flat template's parallel attributes
 * (`contributorName`, `contributorType`, …) can still be paired by order.
 *
 * @module
 */

import { canonicalKey } from "./keys.ts";
import { withoutInvisible } from "./values.ts";

/**
 * An AVU from anywhere — the metadata endpoint, a sidecar file, a JSON dump: an attribute, a
 * value, and optionally a unit and nested AVUs.
 *
 * @example
 * ```ts
 * import type { AvuLike } from "./avus.ts";
 *
 * const doi: AvuLike = {
 *   attr: "identifier",
 *   value: "10.25739/9k2v-7q4m",
 *   avus: [{ attr: "identifierType", value: "DOI" }],
 * };
 * ```
 */
export interface AvuLike {
  /** Attribute name exactly as stored. */
  readonly attr: string;
  /** Value; may be empty. */
  readonly value: string;
  /** Unit, usually empty. */
  readonly unit?: string;
  /** Nested AVUs (sub-properties). */
  readonly avus?: readonly AvuLike[];
}

/**
 * One attribute of an {@linkcode AttributeGroup}: its name as stored, canonical key, trimmed
 * value and its nested attributes.
 *
 * @example
 * ```ts
 * import { attributeGroup } from "./avus.ts";
 * import assert from "node:assert/strict";
 *
 * const [title] = attributeGroup([{ attr: "datacite.title ", value: " Maize " }]).all(["title"]);
 * assert.equal(title.attr, "datacite.title ");
 * assert.equal(title.value, "Maize");
 * ```
 */
export interface Attribute {
  /** Attribute name exactly as stored (trailing whitespace and prefixes kept). */
  readonly attr: string;
  /** Canonical key (see `canonicalKey`). */
  readonly key: string;
  /** Value with surrounding whitespace removed. */
  readonly value: string;
  /** The nested attributes. */
  readonly nested: AttributeGroup;
  /** True when the value is empty and nothing nested has a value. */
  readonly empty: boolean;
}

/**
 * Attributes in stored order, looked up by canonical key. Repeated attributes are lists.
 *
 * @example
 * ```ts
 * import { attributeGroup } from "./avus.ts";
 * import assert from "node:assert/strict";
 *
 * const group = attributeGroup([
 *   { attr: "Subject", value: "maize" },
 *   { attr: "subject", value: "" },
 *   { attr: "subject", value: "drought" },
 * ]);
 * assert.deepEqual(group.all(["subject"]).map((a) => a.value), ["maize", "drought"]);
 * assert.equal(group.slots(["subject"]).length, 3);
 * ```
 */
export class AttributeGroup {
  readonly #attributes: readonly Attribute[];

  /**
   * Wraps attributes already in stored order; {@linkcode attributeGroup} builds them from AVUs.
   *
   * @example
   * ```ts
   * import { AttributeGroup } from "./avus.ts";
   * import assert from "node:assert/strict";
   *
   * const none = new AttributeGroup([]);
   * assert.equal(none.hasValues, false);
   * assert.equal(none.value(["datacite.title"]), undefined);
   * ```
   */
  constructor(attributes: readonly Attribute[]) {
    this.#attributes = attributes;
  }

  /** True when at least one attribute (or one nested under it) has a value. */
  get hasValues(): boolean {
    return this.#attributes.some((attribute) => !attribute.empty);
  }

  /**
   * The distinct canonical keys present, in first-seen order.
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(attributeGroup([{ attr: "Title", value: "x" }]).keys(), ["title"]);
   * ```
   */
  keys(): string[] {
    return [...new Set(this.#attributes.map((attribute) => attribute.key))];
  }

  /**
   * The non-empty attributes whose canonical key is one of `keys`, in stored order.
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import assert from "node:assert/strict";
   *
   * const group = attributeGroup([{ attr: "Author", value: "Li, B." }, { attr: "creator", value: "Wu, X." }]);
   * assert.deepEqual(group.all(["creator", "author"]).map((a) => a.value), ["Li, B.", "Wu, X."]);
   * ```
   */
  all(keys: readonly string[]): Attribute[] {
    return this.#attributes.filter((attribute) => !attribute.empty && keys.includes(attribute.key));
  }

  /**
   * Every attribute with one of `keys`, empty ones included: positions for pairing parallel
   * flat attributes by order.
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import assert from "node:assert/strict";
   *
   * const group = attributeGroup([{ attr: "contributorType", value: "" }]);
   * assert.equal(group.slots(["contributortype"])[0].empty, true);
   * ```
   */
  slots(keys: readonly string[]): Attribute[] {
    return this.#attributes.filter((attribute) => keys.includes(attribute.key));
  }

  /**
   * The first non-empty attribute with one of `keys`.
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import assert from "node:assert/strict";
   *
   * const group = attributeGroup([{ attr: "publicationYear", value: "" }, { attr: "PublicationYear", value: "2018" }]);
   * assert.equal(group.first(["publicationyear"])?.attr, "PublicationYear");
   * ```
   */
  first(keys: readonly string[]): Attribute | undefined {
    return this.#attributes.find((attribute) => !attribute.empty && keys.includes(attribute.key));
  }

  /**
   * The first non-empty value of the attributes with one of `keys`.
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import assert from "node:assert/strict";
   *
   * const identifier = attributeGroup([{
   *   attr: "identifier", value: "10.25739/x", avus: [{ attr: "identiferType", value: "DOI" }],
   * }]).first(["identifier"])!;
   * assert.equal(identifier.nested.value(["identifiertype"]), "DOI");
   * ```
   */
  value(keys: readonly string[]): string | undefined {
    return this.all(keys).find((attribute) => attribute.value !== "")?.value;
  }
}

/**
 * Groups AVUs (and, recursively, their nested AVUs) by canonical key.
 *
 * @example
 * ```ts
 * import { attributeGroup } from "./avus.ts";
 * import assert from "node:assert/strict";
 *
 * const group = attributeGroup([
 *   { attr: "creator", value: "Li, Bosheng", avus: [{ attr: "affiliation", value: "Purdue" }] },
 *   { attr: "geoLocation", value: "", avus: [] },
 * ]);
 * assert.equal(group.first(["creator"])?.nested.value(["affiliation"]), "Purdue");
 * assert.equal(group.first(["geolocation"]), undefined);
 * ```
 */
export function attributeGroup(avus: readonly AvuLike[]): AttributeGroup {
  return new AttributeGroup(avus.map(toAttribute));
}

function toAttribute(avu: AvuLike): Attribute {
  let nested = attributeGroup(avu.avus ?? []);
  let value = typeof avu.value === "string" ? withoutInvisible(avu.value) : "";
  const attr = typeof avu.attr === "string" ? avu.attr : "";
  const key = canonicalKey(attr);
  // DataCite's XML and JSON put a value one level down, under an empty parent: `creator` →
  // `creatorName` (which carries the `nameType`), `creators` / `publisher` / `affiliation` →
  // `name`, `titles` → `title`, `rightsList` → `rights`. The parent takes it, and its
  // sub-properties beside its own.
  const inner = value === "" ? nested.first(innerKeys(key)) : undefined;
  if (inner !== undefined) {
    value = inner.value;
    nested = new AttributeGroup([
      ...nested.all(nested.keys()),
      ...inner.nested.all(inner.nested.keys()),
    ]);
  }
  const empty = value === "" && !nested.hasValues;
  return { attr, key, value, nested, empty };
}

/** The keys of the attribute that holds the value of an empty `key` (`titles` → `title`). */
function innerKeys(key: string): string[] {
  const stem = key.replace(/(?:list|s)$/, "");
  return ["name", stem, `${stem}name`];
}
