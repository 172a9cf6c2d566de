/**
 * {@linkcode datasetCroissant}: a dataset as Croissant 1.0 JSON-LD (MLCommons' description of a
 * dataset for ML tooling), built from plain records: the normalised metadata, one entry per
 * file with the URL a reader fetches it at and the store's checksum, and the column types of
 * each table file.
 *
 * @module
 */

import type { Citable } from "../metadata/citable.ts";
import { titleOf } from "../metadata/citable.ts";
import { toJsonLd } from "../metadata/jsonld.ts";
import { checksumTerms } from "./crate.ts";

/**
 * The JSON-LD context every Croissant 1.0 document carries, as MLCommons' own 1.0 examples and
 * `mlcroissant` write it (the spec's appendix lists an older draft without the `cr:` prefix).
 *
 * @example
 * ```ts
 * import { CROISSANT_CONTEXT } from "./croissant.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(CROISSANT_CONTEXT.cr, "http://mlcommons.org/croissant/");
 * assert.equal(CROISSANT_CONTEXT["@vocab"], "https://schema.org/");
 * ```
 */
export const CROISSANT_CONTEXT: Readonly<
  Record<string, string | Readonly<Record<string, string>>>
> = Object.freeze({
  "@language": "en",
  "@vocab": "https://schema.org/",
  citeAs: "cr:citeAs",
  column: "cr:column",
  conformsTo: "dct:conformsTo",
  cr: "http://mlcommons.org/croissant/",
  rai: "http://mlcommons.org/croissant/RAI/",
  data: Object.freeze({ "@id": "cr:data", "@type": "@json" }),
  dataType: Object.freeze({ "@id": "cr:dataType", "@type": "@vocab" }),
  dct: "http://purl.org/dc/terms/",
  examples: Object.freeze({ "@id": "cr:examples", "@type": "@json" }),
  extract: "cr:extract",
  field: "cr:field",
  fileProperty: "cr:fileProperty",
  fileObject: "cr:fileObject",
  fileSet: "cr:fileSet",
  format: "cr:format",
  includes: "cr:includes",
  isLiveDataset: "cr:isLiveDataset",
  jsonPath: "cr:jsonPath",
  key: "cr:key",
  md5: "cr:md5",
  parentField: "cr:parentField",
  path: "cr:path",
  recordSet: "cr:recordSet",
  references: "cr:references",
  regex: "cr:regex",
  repeated: "cr:repeated",
  replace: "cr:replace",
  sc: "https://schema.org/",
  separator: "cr:separator",
  source: "cr:source",
  subField: "cr:subField",
  transform: "cr:transform",
});

/** The version a Croissant 1.0 document declares in `conformsTo`. */
const CROISSANT_1_0 = "http://mlcommons.org/croissant/1.0";

/**
 * A file of the dataset, as the document lists it (a `cr:FileObject`).
 *
 * @example
 * ```ts
 * import type { CroissantFile } from "./croissant.ts";
 *
 * const file: CroissantFile = {
 *   name: "penguins.csv", size: 13478, encodingFormat: "text/csv",
 *   url: "https://data.cyverse.org/dav-anon/iplant/home/shared/penguins.csv",
 * };
 * ```
 */
export interface CroissantFile {
  /** The path relative to the dataset folder (`raw/a.csv`): the entry's name and `@id`. */
  readonly name: string;
  /** Where a reader fetches the bytes: the public URL, or the download URL of a private file. */
  readonly url: string;
  /** Bytes. */
  readonly size: number;
  /** The media type. */
  readonly encodingFormat: string;
  /** The store's checksum in tern's form (`md5:<hex>` or `sha2:<base64>`), when it has one. */
  readonly checksum?: string;
  /** Last modification. */
  readonly modified?: Date;
}

/**
 * A column of a table file: its name and its Polars data type, written as Polars names it
 * (`Int64`, `String`, `Datetime`, `List(Float64)` for a list of floats).
 *
 * @example
 * ```ts
 * import type { CroissantColumn } from "./croissant.ts";
 *
 * const column: CroissantColumn = { name: "Body Mass (g)", dtype: "Int64" };
 * ```
 */
export interface CroissantColumn {
  /** The column's name in the file. */
  readonly name: string;
  /** The Polars data type's name; a list as `List(inner)`. */
  readonly dtype: string;
}

/**
 * A table file's columns (a `cr:RecordSet`).
 *
 * @example
 * ```ts
 * import type { CroissantTable } from "./croissant.ts";
 *
 * const table: CroissantTable = { file: "penguins.csv", rows: 1000, columns: [{ name: "Year", dtype: "Int64" }] };
 * ```
 */
export interface CroissantTable {
  /** The {@linkcode CroissantFile.name} of the file it is read from. */
  readonly file: string;
  /** The rows the types were inferred from; absent when the file's own schema gave them. */
  readonly rows?: number;
  /** The columns, in the file's order. */
  readonly columns: readonly CroissantColumn[];
}

/**
 * What {@linkcode datasetCroissant} builds the document from.
 *
 * @example
 * ```ts
 * import type { CroissantInput } from "./croissant.ts";
 *
 * const input: CroissantInput = {
 *   metadata: { path: "/iplant/home/shared/x", creators: [], subjects: [] }, files: [], tables: [],
 * };
 * ```
 */
export interface CroissantInput {
  /** The dataset's normalised metadata (a `DatasetMetadata`, or any record of its shape). */
  readonly metadata: Citable & { readonly dateModified?: Date };
  /** How to cite it (`citeAs`); Croissant recommends BibTeX. */
  readonly citeAs?: string;
  /** Its files, in listing order. */
  readonly files: readonly CroissantFile[];
  /** The columns of its table files. */
  readonly tables: readonly CroissantTable[];
  /**
   * The dataset's `url` when its metadata has no DOI or ARK link (which is its `url` then): the
   * store's URL of its folder.
   */
  readonly url?: string;
}

/**
 * A Croissant document: JSON-LD as plain JSON values.
 *
 * @example
 * ```ts
 * import type { CroissantDocument } from "./croissant.ts";
 *
 * const fileCount = (document: CroissantDocument) => document.distribution.length;
 * ```
 */
export interface CroissantDocument {
  /** The Croissant 1.0 context ({@linkcode CROISSANT_CONTEXT}). */
  readonly "@context": Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  /** `sc:Dataset`. */
  readonly "@type": "sc:Dataset";
  /** {@linkcode CROISSANT_1_0}. */
  readonly conformsTo: string;
  /** The title (or the folder's name in brackets). */
  readonly name: string;
  /** One `cr:FileObject` per file. */
  readonly distribution: readonly CroissantNode[];
  /** One `cr:RecordSet` per table file. */
  readonly recordSet: readonly CroissantNode[];
  /** The rest: description, creators, licence, identifiers, dates, keywords, … */
  readonly [key: string]: unknown;
}

/**
 * A node of a Croissant document.
 *
 * @example
 * ```ts
 * import type { CroissantNode } from "./croissant.ts";
 *
 * const idOf = (node: CroissantNode) => node["@id"];
 * ```
 */
export type CroissantNode = { readonly [key: string]: unknown };

/** Polars' data types by the Croissant (schema.org) atomic type their values take. */
const DATA_TYPES: ReadonlyMap<string, string> = new Map([
  ...["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"]
    .map((name) => [name, "sc:Integer"] as const),
  ...["Float32", "Float64", "Decimal"].map((name) => [name, "sc:Float"] as const),
  ["Bool", "sc:Boolean"],
  ["Date", "sc:Date"],
  ["Datetime", "sc:DateTime"],
]);

/**
 * The Croissant data type of a Polars data type (see {@linkcode CroissantColumn.dtype}):
 * integers `sc:Integer`, floats and decimals `sc:Float`, `Bool` `sc:Boolean`, `Date`
 * `sc:Date`, `Datetime` `sc:DateTime`, anything else (text, categories, times, durations,
 * structs, nulls) `sc:Text`, the form a CSV reader gets it in. A list is its items' type,
 * `repeated`.
 */
function croissantDataType(dtype: string): { dataType: string; repeated: boolean } {
  const list = /^(?:List|Array)\((.*)\)$/.exec(dtype);
  const item = list?.[1] ?? dtype;
  return { dataType: DATA_TYPES.get(item) ?? "sc:Text", repeated: list !== null };
}

/**
 * The dataset as a Croissant 1.0 document: the metadata (name, description, creators, licence
 * as a URL, DOI and ARK links as `identifier` and `sameAs`, `citeAs`, keywords, publication
 * year and modification date, version), one `cr:FileObject` per file (`contentUrl`,
 * `contentSize` in bytes, `encodingFormat`, and the store's checksum as `md5` or `sha256` in
 * hex), and one `cr:RecordSet` per table whose `cr:Field`s name each column, its data type
 * ({@linkcode croissantDataType}) and its source (the file and the column). What the metadata
 * lacks is left out, never invented.
 *
 * @example
 * ```ts
 * import { datasetCroissant } from "./croissant.ts";
 * import assert from "node:assert/strict";
 *
 * const document = datasetCroissant({
 *   metadata: {
 *     path: "/iplant/home/shared/commons_repo/curated/Penguins", title: "Penguins",
 *     creators: [{ name: "Gorman, Kristen", given: "Kristen", family: "Gorman" }],
 *     subjects: ["ecology"], doi: "10.25739/9k2v-7q4m", publicationYear: 2020,
 *     license: { id: "CC0-1.0", name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/", confidence: "exact" },
 *   },
 *   files: [{
 *     name: "penguins.csv", size: 13478, encodingFormat: "text/csv",
 *     url: "https://data.cyverse.org/dav-anon/iplant/home/shared/penguins.csv",
 *     checksum: "md5:0cc175b9c0f1b6a831c399e269772661",
 *   }],
 *   tables: [{ file: "penguins.csv", rows: 1000, columns: [{ name: "Year", dtype: "Int64" }] }],
 * });
 * assert.equal(document.conformsTo, "http://mlcommons.org/croissant/1.0");
 * assert.equal(document.license, "https://creativecommons.org/publicdomain/zero/1.0/");
 * assert.deepEqual(document.sameAs, ["https://doi.org/10.25739/9k2v-7q4m"]);
 * assert.equal(document.distribution[0].md5, "0cc175b9c0f1b6a831c399e269772661");
 * const [field] = document.recordSet[0].field as { dataType: string; source: unknown }[];
 * assert.equal(field.dataType, "sc:Integer");
 * assert.deepEqual(field.source, {
 *   fileObject: { "@id": "penguins.csv" },
 *   extract: { column: "Year" },
 * });
 * ```
 */
export function datasetCroissant(input: CroissantInput): CroissantDocument {
  const m = input.metadata;
  // schema.org's Dataset node already says who, what and under which licence; Croissant is
  // schema.org with its own context, so the two cannot disagree.
  const { "@context": _, "@type": __, identifier, license, ...described } = toJsonLd(m);
  // The resolver links of the DOI and ARK; a data-store path is no identifier here.
  const links = m.doi === undefined && m.ark === undefined ? [] : identifier as string[];
  const ids = new Map(input.files.map((file) => [file.name, fileId(file.name)]));
  return {
    "@context": CROISSANT_CONTEXT,
    "@type": "sc:Dataset",
    conformsTo: CROISSANT_1_0,
    ...described,
    name: titleOf(m) ?? "",
    ...(described.url === undefined && input.url !== undefined ? { url: input.url } : {}),
    ...(license === undefined ? {} : { license: licenseValue(license as string) }),
    ...(links.length === 0 ? {} : { identifier: links, sameAs: links }),
    ...(input.citeAs === undefined ? {} : { citeAs: input.citeAs }),
    ...(m.dateModified === undefined ? {} : { dateModified: m.dateModified.toISOString() }),
    distribution: input.files.map((file) => fileObject(file, ids.get(file.name) as string)),
    // A file's record set is named after the file, whose path is unique in the folder.
    recordSet: input.tables.flatMap((table) => {
      const source = ids.get(table.file);
      return source === undefined ? [] : [recordSet(table, `records/${source}`, source)];
    }),
  };
}

/** A licence that is a link stays one; a licence known only by its text is a named work. */
function licenseValue(license: string): string | CroissantNode {
  return /^https?:\/\//.test(license) ? license : { "@type": "sc:CreativeWork", name: license };
}

/** A relative `@id` from a relative path: each segment percent-encoded, slashes kept. */
function fileId(name: string): string {
  return name.split("/").map(encodeURIComponent).join("/");
}

function fileObject(file: CroissantFile, id: string): CroissantNode {
  return {
    "@type": "cr:FileObject",
    "@id": id,
    name: file.name,
    contentUrl: file.url,
    contentSize: `${file.size} B`,
    encodingFormat: file.encodingFormat,
    ...checksumTerms(file.checksum),
    ...(file.modified === undefined ? {} : { dateModified: file.modified.toISOString() }),
  };
}

function recordSet(table: CroissantTable, id: string, source: string): CroissantNode {
  return {
    "@type": "cr:RecordSet",
    "@id": id,
    name: table.file,
    description: table.rows === undefined
      ? `The columns of ${table.file}, typed by the file's own schema.`
      : `The columns of ${table.file}, typed from its first ${table.rows} rows.`,
    field: table.columns.map((column) => {
      const { dataType, repeated } = croissantDataType(column.dtype);
      return {
        "@type": "cr:Field",
        "@id": `${id}/${encodeURIComponent(column.name)}`,
        name: column.name,
        dataType,
        ...(repeated ? { repeated: true } : {}),
        source: { fileObject: { "@id": source }, extract: { column: column.name } },
      };
    }),
  };
}
