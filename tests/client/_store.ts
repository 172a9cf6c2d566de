/**
 * Builds a small temporary store (the embedded server's on-disk format) for the client tests,
 * and serves it with the embedded server.
 *
 * @module
 */

import type { ServerOptions } from "../../server.ts";
import {
  ALICE,
  DEMO,
  pseudoRandomBytes,
  type ServedRoot,
  serveRoot,
  usersFile,
  writeFile,
} from "../_store.ts";

export { ALICE, DEMO } from "../_store.ts";

/** Data-store paths in the test store. */
export const PATHS = {
  home: "/iplant/home/demo",
  homeCsv: "/iplant/home/demo/data.csv",
  homeSub: "/iplant/home/demo/sub",
  alicePrivate: "/iplant/home/alice/private.txt",
  public: "/iplant/home/shared/public",
  publicCsv: "/iplant/home/shared/public/table.csv",
  publicPng: "/iplant/home/shared/public/plot.png",
  publicBig: "/iplant/home/shared/public/big.bin",
  unicode: "/iplant/home/shared/public/résumé été.txt",
  many: "/iplant/home/shared/public/many",
} as const;

/** Files in `PATHS.many`, and its sub-folders. */
export const MANY_FILES = 25;
/** Sub-folders of `PATHS.many`. */
export const MANY_FOLDERS = 3;
/** Size of `PATHS.publicBig`. */
export const BIG_SIZE = 256 * 1024;

/** CSV contents of `PATHS.publicCsv`. */
export const TABLE_CSV = "id,name,value\n1,alpha,0.5\n2,beta,1.5\n3,gamma,2.5\n";

/** A PNG signature plus a few bytes: enough for extension-based type detection. */
export const PNG_BYTES = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  0,
]);

/** Deterministic pseudo-random bytes (so downloads can be compared byte for byte). */
export function bigBytes(): Uint8Array {
  return pseudoRandomBytes(BIG_SIZE, 12345);
}

/** Top-level template AVUs of `PATHS.public` (nested DataCite identifier). */
export const FOLDER_AVUS = [
  { attr: "title", value: "Public test data", unit: "" },
  {
    attr: "identifier",
    value: "10.25739/abcd-1234",
    unit: "",
    avus: [{ attr: "identifierType", value: "DOI", unit: "" }],
  },
  { attr: "subject", value: "testing", unit: "" },
  { attr: "subject", value: "fixtures", unit: "" },
];

/** Comments on `PATHS.publicCsv` (one retracted). */
export const CSV_COMMENTS = [
  {
    id: "9e1d7c1a-2b3c-11ee-8f44-0242ac120002",
    comment: "Values are in metres.",
    commenter: "demo",
    post_time: 1689955200000,
    retracted: false,
  },
  {
    id: "b04f5e2d-2b3c-11ee-8f44-0242ac120002",
    comment: "Wrong link, ignore.",
    commenter: "alice",
    post_time: 1690041600000,
    retracted: true,
  },
];

/** Saved searches of demo (opaque JSON, returned verbatim). */
export const SAVED_SEARCHES = [{
  label: "my csv files",
  fileQuery: "*.csv",
  files: [],
  folders: [],
}];

/** A temporary store on disk; `close` deletes it. */
export interface TempStore extends AsyncDisposable {
  /** The store's root folder (ROOT). */
  root: string;
  /** Removes the folder. */
  close(): Promise<void>;
}

/**
 * Creates the test store in a new temporary folder.
 *
 * @param tokenLifetimeSeconds Lifetime written to users.json.
 */
export async function makeStore(tokenLifetimeSeconds = 300): Promise<TempStore> {
  const root = await Deno.makeTempDir({ prefix: "tern-client-store-" });
  const write = (relative: string, content: string | Uint8Array) =>
    writeFile(`${root}/${relative}`, content);
  const json = (value: unknown) => JSON.stringify(value, null, 2);

  await write(".terrain/users.json", usersFile(DEMO, ALICE, tokenLifetimeSeconds));
  await write(".terrain/saved-searches/demo.json", json(SAVED_SEARCHES));

  await write(`iplant/home/demo/data.csv`, "a,b\n1,2\n");
  await write(`iplant/home/demo/sub/inner.tsv`, "a\tb\n1\t2\n");
  await write(`iplant/home/alice/private.txt`, "alice only\n");

  const pub = "iplant/home/shared/public";
  await write(`${pub}/table.csv`, TABLE_CSV);
  await write(`${pub}/.table.csv.comments.json`, json(CSV_COMMENTS));
  await write(
    `${pub}/.table.csv.avus.json`,
    json([{ attr: "description", value: "A small table", unit: "" }]),
  );
  await write(`${pub}/.avus.json`, json(FOLDER_AVUS));
  await write(`${pub}/plot.png`, PNG_BYTES);
  await write(`${pub}/big.bin`, bigBytes());
  await write(`${pub}/résumé été.txt`, "unicode name\n");
  for (let index = 1; index <= MANY_FILES; index++) {
    await write(`${pub}/many/part-${String(index).padStart(3, "0")}.csv`, `n\n${index}\n`);
  }
  for (let index = 1; index <= MANY_FOLDERS; index++) {
    await write(`${pub}/many/folder-${index}/x.txt`, "x\n");
  }

  const close = () => Deno.remove(root, { recursive: true });
  return { root, close, [Symbol.asyncDispose]: close };
}

/** The embedded server over a fresh test store; `close` stops it and deletes the store. */
export type ServedStore = ServedRoot;

/**
 * Makes a test store and serves it on 127.0.0.1:0 with the given shaping options.
 *
 * @example
 * ```ts ignore
 * await using served = await serveStore({ failRate: 0.2 });
 * console.log(served.url);
 * ```
 */
export async function serveStore(
  options: Omit<ServerOptions, "root" | "port" | "quiet"> = {},
): Promise<ServedStore> {
  const store = await makeStore();
  return await serveRoot(store.root, options, store.close);
}
