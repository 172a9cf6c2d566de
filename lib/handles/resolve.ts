/**
 * One resolver for every way users name data: a data-store path, an item id, a `dav`/`dav-anon`
 * URL, a Discovery Environment data link, a DOI or an ARK. Paths, ids and links need no
 * catalogue; DOIs and ARKs are looked up in the Data Commons datasets' metadata, read once per
 * store and kept until the datasets folder's modification date moves.
 *
 * @module
 */

import { BadRequestError, NotFoundError, quoteInput, TernError } from "../client/errors.ts";
import { normalizeArk } from "../metadata/ark.ts";
import { normalizeDoi } from "../metadata/doi.ts";
import { isId, normalizePath, parentPath } from "../client/paths.ts";

/**
 * Where the Data Commons' curated datasets live, which DOIs and ARKs resolve to.
 *
 * @example
 * ```ts
 * import { DATA_COMMONS_DATASETS } from "./resolve.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DATA_COMMONS_DATASETS, "/iplant/home/shared/commons_repo/curated");
 * ```
 */
export const DATA_COMMONS_DATASETS = "/iplant/home/shared/commons_repo/curated";

/**
 * A name read by {@linkcode parseDataName}: a path or id to look up directly, or an identifier
 * to find among the datasets.
 *
 * @example
 * ```ts
 * import type { DataName } from "./resolve.ts";
 *
 * const name: DataName = { kind: "doi", doi: "10.25739/4fh7-y927" };
 * ```
 */
export type DataName =
  | { kind: "path"; path: string; from: "path" | "dav" | "de-link" }
  | { kind: "id"; id: string }
  | { kind: "doi"; doi: string }
  | { kind: "ark"; ark: string };

/**
 * Two or more datasets carry the identifier that was asked for, so no one of them is meant.
 * `candidates` lists their paths.
 *
 * @example
 * ```ts
 * import { AmbiguousNameError } from "./resolve.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new AmbiguousNameError("Two datasets have that DOI.", ["/a", "/b"]);
 * assert.equal(error.name, "AmbiguousNameError");
 * assert.equal(error.candidates.length, 2);
 * ```
 */
export class AmbiguousNameError extends TernError {
  /** The paths of the datasets that match. */
  readonly candidates: readonly string[];

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { AmbiguousNameError } from "./resolve.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(new AmbiguousNameError("x", ["/a"]).candidates, ["/a"]);
   * ```
   */
  constructor(message: string, candidates: readonly string[]) {
    super(message);
    this.candidates = Object.freeze([...candidates]);
  }
}

/**
 * A `dav`/`dav-anon` URL or Discovery Environment link that names another host than the
 * connected store's: the item it names lives in another store, and the same path on this one
 * would be another item (or none). `host` is the URL's host.
 *
 * @example
 * ```ts
 * import { OtherStoreError } from "./resolve.ts";
 * import { BadRequestError } from "../client/errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new OtherStoreError("another store", "other.example");
 * assert.ok(error instanceof BadRequestError);
 * assert.equal(error.host, "other.example");
 * ```
 */
export class OtherStoreError extends BadRequestError {
  /** The host the URL names. */
  readonly host: string;

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { OtherStoreError } from "./resolve.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new OtherStoreError("x", "other.example").name, "OtherStoreError");
   * ```
   */
  constructor(message: string, host: string) {
    super(message);
    this.host = host;
  }
}

const LOOPBACK: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A host and port as compared: loopback names are one host. */
function hostKey(url: URL): string {
  const name = LOOPBACK.has(url.hostname) ? "localhost" : url.hostname;
  return url.port === "" ? name : `${name}:${url.port}`;
}

/**
 * The hosts whose `dav`/`dav-anon` URLs and Discovery Environment links name items of the
 * store whose Terrain gateway is `storeUrl`: the gateway's own host (the embedded server serves
 * `dav-anon` there), and for a deployment whose gateway is `de.X`, `data.X`, its WebDAV host
 * (CyVerse: de.cyverse.org and data.cyverse.org). Loopback names count as one host.
 */
function linkHosts(storeUrl: string): Set<string> {
  const url = new URL(storeUrl);
  const own = hostKey(url);
  const hosts = new Set([own]);
  if (url.hostname.startsWith("de.")) hosts.add(own.replace(/^de\./, "data."));
  return hosts;
}

const ACCEPTED = "a data-store path (/iplant/home/…), an item id (UUID), a dav or dav-anon URL, " +
  "a Discovery Environment data link (https://de.cyverse.org/data/ds/iplant/…), a DOI " +
  "(10.…, doi:10.…, https://doi.org/10.…) or an ARK (ark:/…, https://n2t.net/ark:/…)";

/** URL path prefixes whose rest is a data-store path, with what they are. */
const PATH_PREFIXES: readonly [string, "dav" | "de-link"][] = [
  ["/dav-anon/", "dav"],
  ["/dav/", "dav"],
  ["/data/ds/", "de-link"],
];

/**
 * Reads any of the accepted forms of a name, without a request. Given the store's gateway URL,
 * a `dav`/`dav-anon` URL or Discovery Environment link must name one of its
 * {@linkcode linkHosts}.
 *
 * @throws {BadRequestError} naming the accepted forms when `value` is none of them.
 * @throws {OtherStoreError} when a URL names another host than `storeUrl`'s.
 *
 * @example
 * ```ts
 * import { parseDataName } from "./resolve.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseDataName("https://data.cyverse.org/dav-anon/iplant/home/shared/my%20data.csv"), {
 *   kind: "path",
 *   path: "/iplant/home/shared/my data.csv",
 *   from: "dav",
 * });
 * assert.deepEqual(parseDataName("https://doi.org/10.25739/4FH7-Y927"), { kind: "doi", doi: "10.25739/4FH7-Y927" });
 * assert.deepEqual(parseDataName("ark:/87946/p3mw27"), { kind: "ark", ark: "ark:/87946/p3mw27" });
 * assert.throws(() => parseDataName("data.csv"), /data-store path/);
 * assert.throws(
 *   () => parseDataName("https://other.example/dav/iplant/home/shared/a.csv", "https://de.cyverse.org/terrain"),
 *   /another store/,
 * );
 * ```
 */
export function parseDataName(value: unknown, storeUrl?: string): DataName {
  if (typeof value !== "string" || value.trim() === "") {
    throw new BadRequestError(`resolve() needs ${ACCEPTED}; got ${quoteInput(String(value))}.`);
  }
  const text = value.trim();
  // Checked through a copy: the guard would narrow `text` itself to never when false.
  const candidate: unknown = text;
  if (isId(candidate)) return { kind: "id", id: candidate.toLowerCase() };
  if (text.startsWith("/")) return { kind: "path", path: normalizePath(text), from: "path" };
  const doi = normalizeDoi(text);
  if (doi !== undefined) return { kind: "doi", doi };
  const ark = normalizeArk(text);
  if (ark !== undefined) return { kind: "ark", ark };
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url !== undefined && (url.protocol === "https:" || url.protocol === "http:")) {
    for (const [prefix, from] of PATH_PREFIXES) {
      if (!url.pathname.startsWith(prefix)) continue;
      let segments: string[];
      try {
        segments = url.pathname.slice(prefix.length - 1).split("/").map(decodeURIComponent);
      } catch {
        break;
      }
      if (storeUrl !== undefined && !linkHosts(storeUrl).has(hostKey(url))) {
        throw new OtherStoreError(
          `${quoteInput(text)} names an item on ${quoteInput(url.host)}, another store than ` +
            `the connected one (${quoteInput(new URL(storeUrl).host)}); the same path here ` +
            "would be another item. Connect to that store, or give the path itself.",
          url.host,
        );
      }
      return { kind: "path", path: normalizePath(segments.join("/")), from };
    }
  }
  throw new BadRequestError(`Cannot tell what ${quoteInput(text)} names: give ${ACCEPTED}.`);
}

/**
 * Whether a folder at `path` is one of the Data Commons datasets (so resolving it gives a
 * `Dataset` handle rather than a plain `Folder`).
 *
 * @example
 * ```ts
 * import { DATA_COMMONS_DATASETS, isDatasetPath } from "./resolve.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isDatasetPath(`${DATA_COMMONS_DATASETS}/Gorman_PalmerPenguins_Morphometrics_2020`), true);
 * ```
 */
export function isDatasetPath(path: string): boolean {
  return parentPath(path) === DATA_COMMONS_DATASETS;
}

/**
 * The error for an identifier that no dataset, or more than one, carries; `undefined` when
 * exactly one does.
 *
 * @example
 * ```ts
 * import { identifierProblem } from "./resolve.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(identifierProblem("doi:10.1/x", ["/a"]), undefined);
 * assert.equal(identifierProblem("doi:10.1/x", [])?.name, "NotFoundError");
 * ```
 */
export function identifierProblem(
  identifier: string,
  paths: readonly string[],
): TernError | undefined {
  if (paths.length === 1) return undefined;
  const label = identifier.startsWith("doi:") ? `the DOI ${identifier.slice(4)}` : identifier;
  if (paths.length === 0) {
    return new NotFoundError(
      `No dataset under ${DATA_COMMONS_DATASETS} has ${label} in its metadata.`,
      { path: DATA_COMMONS_DATASETS },
    );
  }
  return new AmbiguousNameError(
    `${paths.length} datasets have ${label} in their metadata: ${paths.join(", ")}. ` +
      "Give one of their paths instead.",
    paths,
  );
}
