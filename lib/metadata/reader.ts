/**
 * {@linkcode Reader}: the normaliser's view of an attribute group — single values, sub-property
 * pairing for nested and flat templates — recording where each field came from and what was
 * left aside.
 *
 * @module
 */

import type { Attribute, AttributeGroup } from "./avus.ts";
import type { MetadataField } from "./dataset_metadata.ts";
import { tidy } from "./values.ts";

/**
 * Where a sub-property of a parent attribute comes from: nested under it (current template), or
 * a parallel top-level attribute at the same position (older flat template).
 *
 * @example
 * ```ts
 * import type { Pairing } from "./reader.ts";
 *
 * const firstOf = (pairing: Pairing, index: number) => pairing.values[index][0];
 * ```
 */
export interface Pairing {
  /** The values for each parent slot (several when nested or one parent owns them all). */
  values: string[][];
  /** The attribute names they came from. */
  attrs: string[];
}

/**
 * Reads fields from an {@linkcode AttributeGroup}, recording sources and notes as it goes.
 * Field-specific reading lives in the normaliser; this holds what every field needs.
 *
 * @example
 * ```ts
 * import { attributeGroup } from "./avus.ts";
 * import { Reader } from "./reader.ts";
 * import assert from "node:assert/strict";
 *
 * const read = new Reader(attributeGroup([{ attr: "Version", value: "2" }]));
 * assert.equal(read.single("version", ["version"]), "2");
 * assert.equal(read.sources.version, "Version");
 * ```
 */
export class Reader {
  /** The attributes read. */
  readonly group: AttributeGroup;
  /** Field → attribute names, filled while reading. */
  readonly sources: Partial<Record<MetadataField, string>> = {};
  /** Notes, filled while reading. */
  readonly notes: string[] = [];

  /**
   * Starts reading a group.
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import { Reader } from "./reader.ts";
   *
   * const read = new Reader(attributeGroup([]));
   * ```
   */
  constructor(group: AttributeGroup) {
    this.group = group;
  }

  /**
   * Records a note.
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import { Reader } from "./reader.ts";
   *
   * new Reader(attributeGroup([])).note("nothing to read");
   * ```
   */
  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /**
   * Records where a field came from (attribute names joined by ` + `).
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import { Reader } from "./reader.ts";
   *
   * new Reader(attributeGroup([])).source("subjects", ["subject", "Keyword"]);
   * ```
   */
  source(field: MetadataField, attrs: readonly string[]): void {
    const distinct = [...new Set(attrs)];
    if (distinct.length > 0) this.sources[field] = distinct.join(" + ");
  }

  /**
   * The first non-empty value of a single-valued field (whitespace tidied); a note when other
   * attributes hold a different value.
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import { Reader } from "./reader.ts";
   * import assert from "node:assert/strict";
   *
   * const read = new Reader(attributeGroup([{ attr: "Publisher", value: " CyVerse  Data Commons " }]));
   * assert.equal(read.single("publisher", ["publisher"]), "CyVerse Data Commons");
   * ```
   */
  single(field: MetadataField, keys: readonly string[]): string | undefined {
    const found = this.group.all(keys).filter((attribute) => attribute.value !== "");
    if (found.length === 0) return undefined;
    this.source(field, [found[0].attr]);
    const value = tidy(found[0].value);
    const others = new Set(found.slice(1).map((attribute) => tidy(attribute.value)));
    others.delete(value);
    if (others.size > 0) {
      this.note(`${field}: ${others.size + 1} different values stored; the first one is used`);
    }
    return value;
  }

  /**
   * Values of a sub-property for each parent: nested under the parent, else the parallel
   * top-level attributes paired by position (all of them when there is one parent). The flat keys
   * are the nested ones unless given. When the
   * counts do not match the pairing is ambiguous: nothing is assigned and a note says so.
   *
   * @example
   * ```ts
   * import { attributeGroup } from "./avus.ts";
   * import { Reader } from "./reader.ts";
   * import assert from "node:assert/strict";
   *
   * const read = new Reader(attributeGroup([
   *   { attr: "contributorName", value: "Wiebe, G. A." },
   *   { attr: "contributorType", value: "Researcher" },
   * ]));
   * const parents = read.group.slots(["contributorname"]);
   * assert.deepEqual(read.paired(parents, "contributors", ["contributortype"]).values, [["Researcher"]]);
   * ```
   */
  paired(
    parents: readonly Attribute[],
    field: MetadataField,
    nestedKeys: readonly string[],
    flatKeys: readonly string[] = nestedKeys,
  ): Pairing {
    const flat = flatKeys.length === 0 ? [] : this.group.slots(flatKeys);
    const attrs: string[] = [];
    const values = parents.map((parent, index) => {
      const nested = parent.nested.all(nestedKeys).filter((a) => a.value !== "");
      const own = parents.length === 1 ? flat : flat.length === parents.length ? [flat[index]] : [];
      // Nested values win; else the flat ones paired by position.
      const used = nested.length > 0 ? nested : own.filter((a) => !a.empty && a.value !== "");
      attrs.push(...used.map((a) => a.attr));
      return used.map((a) => a.value);
    });
    const unpaired = flat.filter((a) => !a.empty);
    if (parents.length > 1 && flat.length !== parents.length && unpaired.length > 0) {
      this.note(
        `${field}: ${flat.length} "${unpaired[0].attr}" for ${parents.length} entries cannot ` +
          "be paired by position; not assigned",
      );
    }
    return { values, attrs };
  }
}
