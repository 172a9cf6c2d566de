/**
 * A small store with datasets for the provenance and lock tests: one dataset with a DOI (its
 * creators listed twice, as Data Commons records do), one with only an ARK, one folder with
 * only a title, and files outside any dataset. `change()` rewrites a file on the server's disk
 * between runs, the way a curator's update does.
 *
 * @module
 */

import {
  ALICE,
  DEMO,
  type ServedRoot,
  serveRoot,
  usersFile,
  writeFile,
  writeTree,
} from "../_store.ts";
import { type FileVersion, versionOfEntry } from "../../lib/client/file_version.ts";
import type { ReadOperation } from "../../lib/client/file_version.ts";
import { STORE_CONTEXT } from "../../lib/handles/store_context.ts";
import { connect, type ConnectOptions, type Store } from "../../mod.ts";

export { DEMO } from "../_store.ts";

/** Folders and files of the store. */
export const CURATED = "/iplant/home/shared/commons_repo/curated";
export const PENGUINS = `${CURATED}/Gorman_Penguins_2020`;
export const WIND = `${CURATED}/Okafor_Wind_2021`;
export const NOTES = "/iplant/home/shared/lab/Untitled_Notes";
export const FILES = {
  penguins: `${PENGUINS}/penguins.csv`,
  nested: `${PENGUINS}/raw/site_a.csv`,
  wind: `${WIND}/wind.csv`,
  notes: `${NOTES}/notes.txt`,
  loose: "/iplant/home/shared/lab/loose.csv",
} as const;

const avu = (attr: string, value: string, ...avus: unknown[]) => ({ attr, value, unit: "", avus });

/** The AVUs of the datasets (written as the server's `.avus.json` sidecars). */
export const PENGUIN_AVUS = [
  avu("title", "Palmer penguins <b>& friends</b>"),
  avu("creator", "Gorman, Kristen B.", avu("affiliation", "Palmer LTER")),
  avu("datacite.creator", "Kristen B. Gorman"),
  avu("creator", "Williams, Tony D."),
  avu("publicationYear", "2020"),
  avu("publisher", "CyVerse Data Commons"),
  avu("identifier", "10.25739/9k2v-7q4m", avu("identifierType", "DOI")),
];
const WIND_AVUS = [
  avu("title", "Wind speeds"),
  avu("creator", "Okafor, Chidi"),
  avu("publicationYear", "2021"),
  avu("alternateIdentifier", "ark:/87946/p3w1n2", avu("alternateIdentifierType", "ARK")),
];
const NOTES_AVUS = [avu("title", "Lab notes")];

/** The store served over a fresh folder, with helpers. */
export interface ProvenanceStore extends ServedRoot {
  /** A store signed in as demo (token), no cache unless asked. */
  demo(options?: ConnectOptions): Store;
  /** Writes a file on the server's disk (new content, a later date-modified by default). */
  change(path: string, content: string, modified?: Date): Promise<void>;
}

/** Serves the provenance test store on 127.0.0.1:0. */
export async function serveProvenanceStore(): Promise<ProvenanceStore> {
  const root = await Deno.makeTempDir({ prefix: "tern-provenance-store-" });
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  await writeTree(root, {
    ".terrain/users.json": usersFile(DEMO, ALICE, 300),
    [`${PENGUINS.slice(1)}/.avus.json`]: json(PENGUIN_AVUS),
    [`${WIND.slice(1)}/.avus.json`]: json(WIND_AVUS),
    [`${NOTES.slice(1)}/.avus.json`]: json(NOTES_AVUS),
    [FILES.penguins.slice(1)]: "species,mass\nAdelie,3750\nGentoo,5000\n",
    [FILES.nested.slice(1)]: "site,n\na,3\n",
    [FILES.wind.slice(1)]: "hour,speed\n0,3.5\n1,4.0\n",
    [FILES.notes.slice(1)]: "notes\n",
    [FILES.loose.slice(1)]: "x\n1\n",
  });
  const old = new Date("2020-07-16T17:43:00Z");
  for (const path of Object.values(FILES)) await Deno.utime(`${root}${path}`, old, old);
  const served = await serveRoot(root, {}, () => Deno.remove(root, { recursive: true }));
  return {
    ...served,
    demo: (options = {}) =>
      connect({ token: DEMO.token, cacheDir: false, progress: false, ...options, url: served.url }),
    change: async (path, content, modified = new Date("2024-03-01T12:00:00Z")) => {
      await writeFile(`${root}${path}`, content);
      await Deno.utime(`${root}${path}`, modified, modified);
    },
  };
}

/**
 * What every read does around its data, without the data: the version of `path` now, admitted
 * by the store's gate, then published as `done` (`operation`), which the provenance hears. Lets
 * the gate's tests name any operation and stay independent of the formats; the real reads are
 * tested in store_gate_test.ts.
 * Returns the admitted version.
 */
export async function gatedRead(
  store: Store,
  path: string,
  operation: ReadOperation = "dataframe",
): Promise<FileVersion> {
  const context = store[STORE_CONTEXT];
  const entry = await store.file(path).stat({ refresh: true });
  const admitted = await context.gate!.admit(
    versionOfEntry(context.transport.url, entry),
    operation,
  );
  context.events.publish({ kind: "done", operation, version: admitted, fromCache: false });
  return admitted;
}
