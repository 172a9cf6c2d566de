/**
 * The reverse of `provenanceCrate` (crate.ts): {@linkcode isCrate} tells a crate from a lock by
 * its shape, and {@linkcode crateRecord} reads back the pins (store, file versions, datasets) of
 * a crate tern wrote, naming what is missing from one it cannot read.
 *
 * @module
 */

import {
  CRATE_IDS,
  type CrateDataset,
  type CrateEntity,
  type CrateFile,
  type CrateRecord,
} from "./crate.ts";

/**
 * Whether `value` has a crate's shape (an object with an `@graph` array), not a lock's.
 *
 * @example
 * ```ts
 * import { isCrate } from "./crate_lock.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isCrate({ "@context": [], "@graph": [] }));
 * assert.ok(!isCrate({ lock: "tern lock" }));
 * ```
 */
export function isCrate(value: unknown): value is { readonly "@graph": readonly unknown[] } {
  return typeof value === "object" && value !== null &&
    Array.isArray((value as { "@graph"?: unknown })["@graph"]);
}

/**
 * Says what is wrong with a crate, and where (a JSON path): {@linkcode crateRecord} calls it, and
 * it throws (tern's lock reader throws a `LockError`).
 *
 * @example
 * ```ts
 * import type { CrateProblem } from "./crate_lock.ts";
 *
 * const fail: CrateProblem = (problem) => { throw new Error(problem); };
 * ```
 */
export type CrateProblem = (problem: string, field?: string) => never;

/**
 * The pins of a crate tern wrote: the store (its URL and id), the tern version, and every file
 * version of the run's `object` with its dataset — what a lock holds but how each file was read.
 * Checks only what it reads; the lock reader checks every value as it checks a lock's.
 *
 * @param fail Called with what is missing or wrong; it throws.
 *
 * @example
 * ```ts
 * import { provenanceCrate } from "./crate.ts";
 * import { crateRecord } from "./crate_lock.ts";
 * import assert from "node:assert/strict";
 *
 * const record = {
 *   tern: "0.1.0", store: "http://x/terrain", storeId: "sample", datasets: [],
 *   files: [{ path: "/a/b.csv", id: "i", size: 3, modified: "2020-01-01T00:00:00.000Z" }],
 * };
 * const fail = (problem: string): never => { throw new Error(problem); };
 * assert.deepEqual(crateRecord(provenanceCrate(record), fail), record);
 * assert.throws(() => crateRecord({ "@graph": [] }, fail), /no CreateAction/);
 * ```
 */
export function crateRecord(
  crate: { readonly "@graph": readonly unknown[] },
  fail: CrateProblem,
): CrateRecord {
  const graph = crate["@graph"];
  const byId = new Map<string, { entity: CrateEntity; index: number }>();
  graph.forEach((entity, index) => {
    const id = (entity as { "@id"?: unknown })?.["@id"];
    if (typeof id === "string") byId.set(id, { entity: entity as CrateEntity, index });
  });
  const at = (id: string) => `$["@graph"][${byId.get(id)!.index}]`;
  const tern = byId.get(CRATE_IDS.tern)?.entity;
  const run = byId.get(CRATE_IDS.run)?.entity;
  if (run === undefined || !hasType(run, "CreateAction")) {
    fail(`no CreateAction "${CRATE_IDS.run}": not a crate tern wrote (tern crate writes one)`);
  }
  if (tern === undefined || typeof tern.softwareVersion !== "string") {
    fail(
      `no SoftwareApplication "${CRATE_IDS.tern}" with a softwareVersion: not a crate tern wrote`,
    );
  }
  const catalog = graph.find((entity) => hasType(entity as CrateEntity, "DataCatalog")) as
    | CrateEntity
    | undefined;
  if (catalog === undefined) fail("no DataCatalog naming the store the files were read from");
  const store = catalog["@id"];

  const files = refs(run.object).map((id, position): CrateFile => {
    const found = byId.get(id);
    if (found === undefined) {
      fail(
        `names ${quote(id)}, which the crate does not describe`,
        `${at(CRATE_IDS.run)}.object[${position}]`,
      );
    }
    return fileOfEntity(found.entity, { id, store, where: at(id) }, fail);
  });

  const datasets: CrateDataset[] = [];
  const datasetOf = new Map<string, string>();
  for (const [index, value] of graph.entries()) {
    const entity = value as CrateEntity;
    if (!hasType(entity, "Dataset") || entity["@id"] === "./") continue;
    const url = typeof entity.url === "string" ? entity.url : "";
    const path = url.startsWith(`${store}/`) ? new URL(url).searchParams.get("path") : null;
    if (path === null) {
      fail(
        `must be the store's URL of the dataset's folder (…?path=…)`,
        `$["@graph"][${index}].url`,
      );
    }
    for (const part of refs(entity.hasPart)) datasetOf.set(part, path);
    datasets.push(datasetOfEntity(entity, path, byId));
  }
  return {
    tern: tern.softwareVersion as string,
    store,
    ...(typeof catalog.identifier === "string" ? { storeId: catalog.identifier } : {}),
    datasets,
    files: files.map((file, index) => {
      const dataset = datasetOf.get(refs(run.object)[index]);
      return dataset === undefined ? file : { ...file, dataset };
    }),
  };
}

/**
 * A file version from its `File` entity (`where` in the crate): its path from its store URL
 * `id`, its store id, size, date-modified and checksum.
 */
function fileOfEntity(
  file: CrateEntity,
  { id, store, where }: { id: string; store: string; where: string },
  fail: CrateProblem,
): CrateFile {
  const field = (key: string) => `${where}.${key}`;
  const download = `${store}/fileio/download?`;
  const url = id.replace(/#[^]*$/, "");
  const path = url.startsWith(download)
    ? new URL(url).searchParams.get("path") ?? undefined
    : undefined;
  if (path === undefined) {
    fail(`must be a file URL of the store ${quote(store)} (${download}path=…)`, field("@id"));
  }
  const text = (key: string) => {
    const value = file[key];
    if (typeof value !== "string") fail(`is missing (a text value)`, field(key));
    return value;
  };
  const size = Number(text("contentSize"));
  const hex = (key: "md5" | "sha256", digits: number) => {
    const value = file[key];
    if (typeof value !== "string" || !new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(value)) {
      fail(`must be ${digits} hexadecimal digits`, field(key));
    }
    return value;
  };
  const checksum = file.md5 !== undefined
    ? `md5:${hex("md5", 32).toLowerCase()}`
    : file.sha256 !== undefined
    ? `sha2:${Uint8Array.fromHex(hex("sha256", 64)).toBase64()}`
    : undefined;
  return {
    path,
    id: text("identifier"),
    size: Number.isSafeInteger(size)
      ? size
      : fail("must be a whole number of bytes", field("contentSize")),
    modified: text("dateModified"),
    ...(checksum === undefined ? {} : { checksum }),
  };
}

function datasetOfEntity(
  entity: CrateEntity,
  path: string,
  byId: ReadonlyMap<string, { entity: CrateEntity }>,
): CrateDataset {
  const identifiers = Array.isArray(entity.identifier) ? entity.identifier as unknown[] : [];
  const find = (prefix: string) => {
    const found = identifiers.find((value) =>
      typeof value === "string" && value.startsWith(prefix)
    );
    return found === undefined ? undefined : (found as string).slice(prefix.length);
  };
  const doi = find("https://doi.org/");
  const ark = find("https://n2t.net/");
  const license = refs(entity.license).map((id) => byId.get(id)?.entity)[0];
  const text = (key: string) => textOf(entity, key);
  const year = text("datePublished");
  const keep = <T>(key: string, value: T | undefined) =>
    value === undefined ? {} : { [key]: value };
  return {
    path,
    ...keep("title", text("name")),
    creators: refs(entity.creator).map((id) => {
      const person = byId.get(id)?.entity ?? { "@id": id, "@type": "Person" };
      const field = (key: string) => textOf(person, key);
      return {
        name: field("name") ?? id,
        ...keep("family", field("familyName")),
        ...keep("given", field("givenName")),
        ...keep("suffix", field("honorificSuffix")),
        ...keep("affiliation", field("affiliation")),
        ...keep(
          "orcid",
          id.startsWith("https://orcid.org/") ? id.slice(18).replace(/#[^]*$/, "") : undefined,
        ),
      };
    }),
    ...keep("publicationYear", year === undefined ? undefined : Number(year)),
    ...keep("publisher", text("publisher")),
    ...keep("version", text("version")),
    ...keep("doi", doi),
    ...keep("ark", ark),
    ...keep("resourceTypeGeneral", text("additionalType")),
    ...keep(
      "license",
      license === undefined ? undefined : {
        ...keep("id", textOf(license, "identifier")),
        name: textOf(license, "name") ?? license["@id"],
        ...keep(
          "url",
          textOf(license, "url") ?? (license["@id"].startsWith("#") ? undefined : license["@id"]),
        ),
        // A crate keeps the licence, not how its id was reached from the stored text.
        confidence: typeof license.identifier === "string" ? "exact" : "unknown",
      },
    ),
  } as CrateDataset;
}

function textOf(entity: CrateEntity, key: string): string | undefined {
  return typeof entity[key] === "string" ? entity[key] as string : undefined;
}

function refs(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((item) => (item as { "@id"?: unknown })?.["@id"])
    .filter((id): id is string => typeof id === "string");
}

function hasType(entity: CrateEntity | undefined, type: string): boolean {
  const types = entity?.["@type"];
  return types === type || (Array.isArray(types) && types.includes(type));
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
