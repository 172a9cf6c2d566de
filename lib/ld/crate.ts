/**
 * {@linkcode provenanceCrate}: what a notebook read, as the `ro-crate-metadata.json` of an
 * RO-Crate 1.1 that conforms to the Process Run Crate profile — one `CreateAction` whose `object`
 * is every file version read (a `File` named by its store URL, with the store's id, size,
 * date-modified and checksum), whose `instrument` is the notebook and tern, and whose `result` is
 * what the caller names; every dataset as a `Dataset` named by its DOI or ARK. Pure: plain
 * records in, a plain JSON-LD object out.
 *
 * @module
 */

import type { Citable } from "../metadata/citation.ts";
import { dataciteCitation } from "../metadata/citation.ts";
import { formatOfFileName } from "../registry/file_formats.ts";
import { definedOf } from "../client/defined.ts";
import { baseName } from "../client/paths.ts";

/** The RO-Crate specification a crate conforms to. */
const RO_CRATE_SPEC = "https://w3id.org/ro/crate/1.1";

/** The RO-Crate 1.1 JSON-LD context. */
export const RO_CRATE_CONTEXT = "https://w3id.org/ro/crate/1.1/context";

/** The Process Run Crate profile the root dataset conforms to. */
const PROCESS_RUN_CRATE = "https://w3id.org/ro/wfrun/process/0.5";

/**
 * The checksum terms RO-Crate 1.1's context (schema.org 10) lacks, defined inline as the spec's
 * "ad hoc terms" rule allows: schema.org's later `sha256`, and Croissant's `md5` (the store's
 * usual checksum), so a Croissant reader finds the same term.
 */
export const CHECKSUM_TERMS: Readonly<Record<string, string>> = Object.freeze({
  md5: "http://mlcommons.org/croissant/md5",
  sha256: "http://schema.org/sha256",
});

/** The `@id` of the run and of tern in every crate tern writes. */
export const CRATE_IDS = Object.freeze({ run: "#tern-run", tern: "#tern" });

/**
 * A file version as a crate takes it: a lock's file entry (`LockedFile`).
 *
 * @example
 * ```ts
 * import type { CrateFile } from "./crate.ts";
 *
 * const file: CrateFile = {
 *   path: "/iplant/home/shared/a.csv", id: "6a1b", size: 3, modified: "2020-01-01T00:00:00.000Z",
 *   checksum: "md5:0cc175b9c0f1b6a831c399e269772661",
 * };
 * ```
 */
export interface CrateFile {
  /** Data-store path. */
  readonly path: string;
  /** The store's item id. */
  readonly id: string;
  /** Size in bytes. */
  readonly size: number;
  /** Date-modified, ISO 8601. */
  readonly modified: string;
  /** The store's checksum, `md5:<hex>` or `sha2:<base64>`. */
  readonly checksum?: string;
  /** The dataset's folder, when the file is in one. */
  readonly dataset?: string;
}

/**
 * A dataset as a crate takes it: a lock's dataset entry (`LockedDataset`).
 *
 * @example
 * ```ts
 * import type { CrateDataset } from "./crate.ts";
 *
 * const dataset: CrateDataset = { path: "/c/Barley", title: "Barley", creators: [], doi: "10.7946/P2C35G" };
 * ```
 */
export type CrateDataset =
  & Pick<Citable, "path" | "creators">
  & Partial<
    Pick<
      Citable,
      | "title"
      | "publicationYear"
      | "publisher"
      | "version"
      | "doi"
      | "ark"
      | "resourceTypeGeneral"
      | "license"
    >
  >;

/**
 * What a crate is built from: a lock's fields (the tern version, the store, its id, the datasets
 * and file versions) and, when known, when the reads started and ended.
 *
 * @example
 * ```ts
 * import type { CrateRecord } from "./crate.ts";
 *
 * const record: CrateRecord = {
 *   tern: "0.1.0", store: "http://127.0.0.1:8080/terrain", datasets: [], files: [],
 *   startTime: "2026-01-01T00:00:00.000Z",
 * };
 * ```
 */
export interface CrateRecord {
  /** The tern version that read the files. */
  readonly tern: string;
  /** The store's base URL (without credentials). */
  readonly store: string;
  /** The store's id, when it reported one. */
  readonly storeId?: string;
  /** The datasets the files belong to. */
  readonly datasets: readonly CrateDataset[];
  /** The file versions read. */
  readonly files: readonly CrateFile[];
  /** When the first file was read, ISO 8601. */
  readonly startTime?: string;
  /** When the run ended (the crate was made), ISO 8601. */
  readonly endTime?: string;
}

/**
 * A file the crate names by a relative path or URL: an output (`result`), the notebook
 * (`instrument`) or a copy of an input.
 *
 * @example
 * ```ts
 * import type { CrateLocalFile } from "./crate.ts";
 *
 * const output: CrateLocalFile = { id: "figure.png", contentSize: 2048, sha256: "ab12" };
 * ```
 */
export interface CrateLocalFile {
  /** Its `@id`: a path relative to the crate's folder, or a URL. */
  readonly id: string;
  /** Its name (default: the last part of `id`). */
  readonly name?: string;
  /** Size in bytes, when known. */
  readonly contentSize?: number;
  /** SHA-256 of its bytes, lowercase hex, when known. */
  readonly sha256?: string;
  /** The store URL of the file version it copies (an input's copy in the crate's folder). */
  readonly copyOf?: string;
}

/**
 * Who ran the notebook.
 *
 * @example
 * ```ts
 * import type { CrateAgent } from "./crate.ts";
 *
 * const agent: CrateAgent = { name: "Ada Lovelace", orcid: "0000-0002-1825-0097" };
 * ```
 */
export interface CrateAgent {
  /** Their name. */
  readonly name: string;
  /** Their ORCID iD (`0000-0000-0000-0000`), when known. */
  readonly orcid?: string;
}

/**
 * How {@linkcode provenanceCrate} describes the run.
 *
 * @example
 * ```ts
 * import type { CrateOptions } from "./crate.ts";
 *
 * const options: CrateOptions = { name: "Penguin figures", outputs: [{ id: "figure.png" }] };
 * ```
 */
export interface CrateOptions {
  /**
   * The crate's name.
   * @default "Data read by tern"
   */
  readonly name?: string;
  /**
   * The crate's description.
   * @default a sentence naming the store and how many files and datasets were read
   */
  readonly description?: string;
  /**
   * When the crate was published, ISO 8601.
   * @default the record's `endTime`, else now
   */
  readonly datePublished?: string;
  /**
   * The licence of the crate's metadata (each dataset keeps its own): a URL.
   * @default "https://creativecommons.org/publicdomain/zero/1.0/"
   */
  readonly license?: string;
  /**
   * The notebook or script that ran (the run's `instrument`, as `SoftwareSourceCode`).
   * @default none: tern alone is the instrument
   */
  readonly instrument?: CrateLocalFile;
  /**
   * What the run made (the run's `result`).
   * @default []
   */
  readonly outputs?: readonly CrateLocalFile[];
  /**
   * Copies of the inputs in the crate's folder (parts of the root dataset).
   * @default []
   */
  readonly copies?: readonly CrateLocalFile[];
  /**
   * Who ran it (the run's `agent`).
   * @default none
   */
  readonly agent?: CrateAgent;
}

/** One entity of a crate's `@graph`. */
export type CrateEntity = { readonly "@id": string; readonly "@type": string | string[] } & {
  readonly [key: string]: unknown;
};

/**
 * A crate's metadata document: its context and its flat graph.
 *
 * @example
 * ```ts
 * import type { RoCrate } from "./crate.ts";
 *
 * const crate: RoCrate = { "@context": ["https://w3id.org/ro/crate/1.1/context"], "@graph": [] };
 * ```
 */
export interface RoCrate {
  /** The RO-Crate 1.1 context, then the checksum terms. */
  readonly "@context": readonly unknown[];
  /** Every entity, flat. */
  readonly "@graph": readonly CrateEntity[];
}

const CC0 = "https://creativecommons.org/publicdomain/zero/1.0/";

/**
 * The store URL of a file version's bytes: the gateway's `fileio/download` (anonymous for
 * public data, with the reader's own token otherwise). It names the path, not a version; the
 * entity's id, size, date-modified and checksum pin the version.
 *
 * @example
 * ```ts
 * import { fileUrl } from "./crate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(fileUrl("http://x/terrain", "/a/b c.csv"), "http://x/terrain/fileio/download?path=%2Fa%2Fb+c.csv");
 * ```
 */
export function fileUrl(store: string, path: string): string {
  const url = new URL(`${store}/fileio/download`);
  url.searchParams.set("path", path);
  return url.href;
}

/**
 * The store URL of a dataset's folder (the gateway's folder listing), which a crate gives as the
 * dataset's `url`: the path a lock needs, where the `@id` is its DOI or ARK.
 *
 * @example
 * ```ts
 * import { folderUrl } from "./crate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(folderUrl("http://x/terrain", "/c/Barley"), "http://x/terrain/secured/filesystem/directory?path=%2Fc%2FBarley");
 * ```
 */
export function folderUrl(store: string, path: string): string {
  const url = new URL(`${store}/secured/filesystem/directory`);
  url.searchParams.set("path", path);
  return url.href;
}

/**
 * The `ro-crate-metadata.json` of what a notebook read: RO-Crate 1.1, Process Run Crate 0.5.
 * Entities come in a fixed order and files by path, so the same record gives the same JSON.
 *
 * @example
 * ```ts
 * import { provenanceCrate } from "./crate.ts";
 * import assert from "node:assert/strict";
 *
 * const crate = provenanceCrate({
 *   tern: "0.1.0", store: "http://127.0.0.1:8080/terrain",
 *   datasets: [{ path: "/c/Barley", title: "Barley", creators: [], doi: "10.7946/P2C35G" }],
 *   files: [{
 *     path: "/c/Barley/a.csv", id: "i1", size: 3, modified: "2020-01-01T00:00:00.000Z",
 *     checksum: "md5:0cc175b9c0f1b6a831c399e269772661", dataset: "/c/Barley",
 *   }],
 * }, { datePublished: "2026-01-01T00:00:00.000Z" });
 * const run = crate["@graph"].find((entity) => entity["@type"] === "CreateAction")!;
 * assert.deepEqual(run.object, [{ "@id": "http://127.0.0.1:8080/terrain/fileio/download?path=%2Fc%2FBarley%2Fa.csv" }]);
 * const file = crate["@graph"].find((entity) => entity["@type"] === "File")!;
 * assert.equal(file.md5, "0cc175b9c0f1b6a831c399e269772661");
 * assert.ok(crate["@graph"].some((entity) => entity["@id"] === "https://doi.org/10.7946/P2C35G"));
 * ```
 */
export function provenanceCrate(record: CrateRecord, options: CrateOptions = {}): RoCrate {
  const files = [...record.files].sort((a, b) => compare(a.path, b.path) || compare(a.id, b.id));
  const datasets = [...record.datasets].sort((a, b) => compare(a.path, b.path));
  const parties = new Parties();
  const fileId = fileIdOf(record.store, files);
  const fileEntities = files.map((file) => fileEntity(file, fileId(file)));
  const datasetEntities = datasets.map((dataset) =>
    datasetEntity(record, dataset, {
      parties,
      parts: files.filter((file) => file.dataset === dataset.path).map(fileId),
    })
  );
  const license = options.license ?? CC0;
  const graph: CrateEntity[] = [
    ...rootEntities(record, options, { files: files.length, datasets: datasets.length }),
    ...runEntities(record, options, {
      objects: fileEntities.map((file) => file["@id"]),
      people: parties.people,
    }),
    ...fileEntities,
    ...datasetEntities,
    ...parties.people.values(),
    ...parties.licenses.values(),
    ...(parties.licenses.has(license) ? [] : [{
      "@id": license,
      "@type": "CreativeWork",
      name: options.license === undefined ? "CC0 1.0 Universal" : options.license,
    }]),
    ...(options.copies ?? []).map((copy) => localFileEntity(copy, "File")),
    ...(options.outputs ?? []).map((output) => localFileEntity(output, "File")),
  ];
  return { "@context": [RO_CRATE_CONTEXT, { ...CHECKSUM_TERMS }], "@graph": graph };
}

const ref = (id: string) => ({ "@id": id });

/** The metadata descriptor, the root dataset (what the crate holds) and its profile. */
function rootEntities(
  record: CrateRecord,
  options: CrateOptions,
  count: { files: number; datasets: number },
): CrateEntity[] {
  const { instrument, copies = [], outputs = [] } = options;
  return [
    {
      "@id": "ro-crate-metadata.json",
      "@type": "CreativeWork",
      conformsTo: ref(RO_CRATE_SPEC),
      about: ref("./"),
    },
    {
      "@id": "./",
      "@type": "Dataset",
      name: options.name ?? "Data read by tern",
      description: options.description ?? describe(record, count.files, count.datasets),
      datePublished: options.datePublished ?? record.endTime ?? new Date().toISOString(),
      license: ref(options.license ?? CC0),
      conformsTo: [ref(PROCESS_RUN_CRATE)],
      hasPart: [
        ...(instrument === undefined || isUrl(instrument.id) ? [] : [ref(instrument.id)]),
        ...copies.map((copy) => ref(copy.id)),
        ...outputs.filter((output) => !isUrl(output.id)).map((output) => ref(output.id)),
      ],
      mentions: [ref(CRATE_IDS.run)],
    },
    {
      "@id": PROCESS_RUN_CRATE,
      "@type": "CreativeWork",
      name: "Process Run Crate",
      version: "0.5",
    },
  ];
}

/**
 * The run (what it read, with what, by whom, and what came of it), tern, the notebook, the
 * agent unless a creator already is that person, and the store.
 */
function runEntities(
  record: CrateRecord,
  { instrument, agent, outputs = [] }: CrateOptions,
  { objects, people }: { objects: readonly string[]; people: ReadonlyMap<string, CrateEntity> },
): CrateEntity[] {
  return [
    {
      "@id": CRATE_IDS.run,
      "@type": "CreateAction",
      name: `Read ${plural(objects.length, "file version")} from ${record.store}`,
      ...definedOf(record, ["startTime", "endTime"]),
      ...(agent === undefined ? {} : { agent: ref(agentId(agent)) }),
      instrument: [
        ...(instrument === undefined ? [] : [ref(instrument.id)]),
        ref(CRATE_IDS.tern),
      ],
      object: objects.map(ref),
      result: outputs.map((output) => ref(output.id)),
    },
    {
      "@id": CRATE_IDS.tern,
      "@type": "SoftwareApplication",
      name: "tern",
      softwareVersion: record.tern,
    },
    ...(instrument === undefined
      ? []
      : [localFileEntity(instrument, ["File", "SoftwareSourceCode"])]),
    // An agent who is also a creator (the same ORCID iD, or name) is that one Person entity.
    ...(agent === undefined || people.has(agentId(agent)) ? [] : [{
      "@id": agentId(agent),
      "@type": "Person",
      name: agent.name,
    }]),
    {
      "@id": record.store,
      "@type": "DataCatalog",
      name: `Terrain data store at ${record.store}`,
      url: record.store,
      ...(record.storeId === undefined ? {} : { identifier: record.storeId }),
    },
  ];
}

/** The people and licences of a crate's datasets: one entity each, however many name it. */
class Parties {
  readonly people: Map<string, CrateEntity> = new Map();
  readonly licenses: Map<string, CrateEntity> = new Map();

  /** A creator's `Person`. */
  person(creator: CrateDataset["creators"][number]): { "@id": string } {
    const base = agentId(creator);
    const fields = {
      "@type": "Person",
      name: creator.name,
      ...(creator.given === undefined ? {} : { givenName: creator.given }),
      ...(creator.family === undefined ? {} : { familyName: creator.family }),
      ...(creator.suffix === undefined ? {} : { honorificSuffix: creator.suffix }),
      ...(creator.affiliation === undefined ? {} : { affiliation: creator.affiliation }),
    };
    // One name written two ways (with an affiliation in one dataset, without in another) gives
    // two entities, so each dataset keeps its own.
    const same = (id: string) =>
      JSON.stringify({ "@id": id, ...fields }) === JSON.stringify(this.people.get(id));
    let id = base;
    for (let n = 2; this.people.has(id) && !same(id); n++) {
      id = `${base}${base.includes("#") ? "" : "#"}-${n}`;
    }
    this.people.set(id, { "@id": id, ...fields });
    return ref(id);
  }

  /** A dataset's licence, a `CreativeWork`. */
  license(license: NonNullable<CrateDataset["license"]>): { "@id": string } {
    // One URL named two ways (the stored texts differ) gives two entities, each keeping its name.
    const taken = license.url === undefined ? undefined : this.licenses.get(license.url);
    const id = license.url !== undefined && (taken === undefined || taken.name === license.name)
      ? license.url
      : `#license-${slug(license.name)}`;
    if (!this.licenses.has(id)) {
      this.licenses.set(id, {
        "@id": id,
        "@type": "CreativeWork",
        name: license.name,
        ...(license.id === undefined ? {} : { identifier: license.id }),
        ...(license.url === undefined || license.url === id ? {} : { url: license.url }),
      });
    }
    return ref(id);
  }
}

/** Files' `@id`s: the store URL, with date-modified where two versions of a path were read. */
function fileIdOf(store: string, files: readonly CrateFile[]): (file: CrateFile) => string {
  const versions = Map.groupBy(files, (file) => file.path);
  return ({ path, modified }) =>
    `${fileUrl(store, path)}${versions.get(path)!.length > 1 ? `#${modified}` : ""}`;
}

function fileEntity(file: CrateFile, id: string): CrateEntity {
  const name = file.path.slice(file.path.lastIndexOf("/") + 1);
  return {
    "@id": id,
    "@type": "File",
    name,
    identifier: file.id,
    contentSize: String(file.size),
    dateModified: file.modified,
    ...checksumTerms(file.checksum),
    encodingFormat: formatOfFileName(name)?.mediaType ?? "application/octet-stream",
  };
}

function datasetEntity(
  record: CrateRecord,
  dataset: CrateDataset,
  { parties, parts }: { parties: Parties; parts: readonly string[] },
): CrateEntity {
  return {
    "@id": datasetId(record, dataset),
    "@type": "Dataset",
    ...(dataset.title === undefined ? {} : { name: dataset.title }),
    identifier: [
      ...(dataset.doi === undefined ? [] : [`https://doi.org/${dataset.doi}`]),
      ...(dataset.ark === undefined ? [] : [`https://n2t.net/${dataset.ark}`]),
    ],
    url: folderUrl(record.store, dataset.path),
    creator: dataset.creators.map((creator) => parties.person(creator)),
    ...(dataset.publicationYear === undefined
      ? {}
      : { datePublished: String(dataset.publicationYear) }),
    ...definedOf(dataset, ["publisher", "version"]),
    ...(dataset.resourceTypeGeneral === undefined
      ? {}
      : { additionalType: dataset.resourceTypeGeneral }),
    ...(dataset.license === undefined ? {} : { license: parties.license(dataset.license) }),
    citation: dataciteCitation({ ...dataset, subjects: [] }),
    includedInDataCatalog: ref(record.store),
    hasPart: parts.map(ref),
  };
}

/** A file of the run's own (the notebook, an output, a copied input). */
function localFileEntity(file: CrateLocalFile, type: string | string[]): CrateEntity {
  return {
    "@id": file.id,
    "@type": type,
    name: file.name ?? baseName(file.id.replace(/(?<!\/)\/+$/, "")),
    ...(file.contentSize === undefined ? {} : { contentSize: String(file.contentSize) }),
    ...(file.sha256 === undefined ? {} : { sha256: file.sha256 }),
    ...(file.copyOf === undefined ? {} : { isBasedOn: ref(file.copyOf) }),
  };
}

/**
 * A dataset's `@id`: its DOI as a resolver URL, else its ARK, else its folder's store URL.
 */
function datasetId(record: CrateRecord, dataset: CrateDataset): string {
  if (dataset.doi !== undefined) return `https://doi.org/${dataset.doi}`;
  if (dataset.ark !== undefined) return `https://n2t.net/${dataset.ark}`;
  return folderUrl(record.store, dataset.path);
}

/**
 * A store checksum as linked data's checksum terms (the crate's and Croissant's): `md5` as hex,
 * `sha2` (base64) as `sha256` hex; none for no checksum.
 *
 * @example
 * ```ts
 * import { checksumTerms } from "./crate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(checksumTerms("md5:0cc175b9c0f1b6a831c399e269772661"), {
 *   md5: "0cc175b9c0f1b6a831c399e269772661",
 * });
 * assert.deepEqual(checksumTerms("sha2:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs="), {
 *   sha256: "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb",
 * });
 * assert.deepEqual(checksumTerms(undefined), {});
 * ```
 */
export function checksumTerms(checksum: string | undefined): { md5?: string; sha256?: string } {
  if (checksum?.startsWith("md5:")) return { md5: checksum.slice(4) };
  if (!checksum?.startsWith("sha2:")) return {};
  return { sha256: Uint8Array.fromBase64(checksum.slice(5)).toHex() };
}

/** A person's id, creators and the agent alike: their ORCID iD, else their name. */
function agentId(agent: CrateAgent): string {
  return agent.orcid === undefined
    ? `#person-${slug(agent.name)}`
    : `https://orcid.org/${agent.orcid}`;
}

function describe(record: CrateRecord, files: number, datasets: number): string {
  return `The ${plural(files, "file version")}${
    datasets === 0 ? "" : ` from ${plural(datasets, "dataset")}`
  } a notebook read from the data store at ${record.store}, with tern ${record.tern}.`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function slug(text: string): string {
  return encodeURIComponent(text.trim().toLowerCase().replace(/\s+/g, "-"));
}

function isUrl(id: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
