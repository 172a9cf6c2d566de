/**
 * A small temporary store for the handle and listing tests, served by the embedded server on
 * 127.0.0.1:0, plus helpers to build large folders quickly and to read the truth from disk.
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
import { connect, type ConnectOptions, type Store } from "../../mod.ts";

export { ALICE, DEMO } from "../_store.ts";

/** Data-store paths in the test store. */
export const PATHS = {
  home: "/iplant/home/demo",
  notes: "/iplant/home/demo/notes.txt",
  binary: "/iplant/home/demo/blob.bin",
  goodJson: "/iplant/home/demo/good.json",
  badJson: "/iplant/home/demo/bad.json",
  tree: "/iplant/home/demo/tree",
  aliceHome: "/iplant/home/alice",
  alicePrivate: "/iplant/home/alice/private.txt",
  shared: "/iplant/home/shared",
  public: "/iplant/home/shared/public",
  table: "/iplant/home/shared/public/table.csv",
  png: "/iplant/home/shared/public/plot.png",
  big: "/iplant/home/shared/public/big.bin",
  unicode: "/iplant/home/shared/public/résumé été.txt",
  empty: "/iplant/home/shared/public/empty",
  mixed: "/iplant/home/shared/mixed",
  paged: "/iplant/home/shared/paged",
} as const;

/** Files directly in `PATHS.paged`, and its sub-folders. */
export const PAGED_FILES = 2345;
/** Sub-folders of `PATHS.paged`. */
export const PAGED_FOLDERS = 7;
/** Size of `PATHS.big`. */
export const BIG_SIZE = 300 * 1024;
/** Contents of `PATHS.table`. */
export const TABLE_CSV = "id,name,value\n1,alpha,0.5\n2,beta,1.5\n3,gamma,2.5\n";
/** Contents of `PATHS.notes` (non-ASCII on purpose). */
export const NOTES = "Notes — ünïcödé ✓\nline 2\n";
/** Contents of `PATHS.goodJson`. */
export const GOOD_JSON = { rows: [1, 2, 3], label: "ok" };
/** A PNG signature plus a few bytes. */
export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 1]);
/** Bytes that are not UTF-8. */
export const BINARY = new Uint8Array([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x80]);

/** Template AVUs of `PATHS.public` (nested DataCite identifier). */
export const FOLDER_AVUS = [
  { attr: "title", value: "Public test data", unit: "" },
  {
    attr: "identifier",
    value: "10.25739/abcd-1234",
    unit: "",
    avus: [{ attr: "identifierType", value: "DOI", unit: "" }],
  },
];

/** Comments on `PATHS.table` (one retracted). */
export const TABLE_COMMENTS = [
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

/** Saved searches of demo (opaque JSON). */
export const SAVED_SEARCHES = [{ label: "csv", fileQuery: "*.csv", files: [], folders: [] }];

/**
 * Files of the walk tree under `PATHS.tree`, relative to it (folders are implied).
 * Depths: 1 = top level.
 */
export const TREE_FILES = [
  "top.csv",
  "top.txt",
  "a/a1.csv",
  "a/a2.tsv",
  "a/deep/d1.csv",
  "a/deep/deeper/d2.csv",
  "b/b1.txt",
  "b/.hidden.csv",
  "c/empty-sub/.keep",
] as const;

/** Files of `PATHS.mixed`: one per info type, to test infoType filters. */
export const MIXED_FILES = ["a.csv", "b.tsv", "c.fasta", "d.txt", "e.csv", "f.py"] as const;

/** Folders of `PATHS.mixed`. */
export const MIXED_FOLDERS = ["sub1", "sub2"] as const;

/** Fixed file times so sorting by date is predictable: file i of MIXED gets 2020-01-(i+1). */
export function mixedTime(index: number): Date {
  return new Date(Date.UTC(2020, 0, index + 1));
}

/** Deterministic pseudo-random bytes for byte-exact download checks. */
export function bigBytes(): Uint8Array {
  return pseudoRandomBytes(BIG_SIZE, 987654321);
}

/** File name `index` of a generated folder: `f-000042.txt`. */
export function generatedName(index: number): string {
  return `f-${String(index).padStart(6, "0")}.txt`;
}

/**
 * Fills `folder` (a local directory) with `count` empty files named by {@linkcode generatedName}.
 * Hard links to a few seed files outside the store's zone make 100,000 files take about two
 * seconds instead of ten; each name still gets its own id (ids come from paths).
 */
export async function fillFolder(root: string, folder: string, count: number): Promise<void> {
  await Deno.mkdir(folder, { recursive: true });
  const seeds: string[] = [];
  // A file system allows about 65,000 links per inode, so use one seed per 50,000 names.
  for (let index = 0; index * 50_000 < count; index++) {
    const seed = `${root}/.seed-${index}`;
    await Deno.writeFile(seed, new Uint8Array(0));
    seeds.push(seed);
  }
  for (let index = 0; index < count; index++) {
    const target = `${folder}/${generatedName(index)}`;
    try {
      Deno.linkSync(seeds[Math.floor(index / 50_000)], target);
    } catch {
      Deno.writeFileSync(target, new Uint8Array(0));
    }
  }
}

export { writeFile };

/** Creates the test store in a new temporary folder and returns its root. */
export async function makeStore(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "tern-handles-store-" });
  const at = (path: string) => `${root}${path}`;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  await writeFile(`${root}/.terrain/users.json`, usersFile(DEMO, ALICE, 300));
  await writeFile(`${root}/.terrain/saved-searches/demo.json`, json(SAVED_SEARCHES));

  await writeFile(at(PATHS.notes), NOTES);
  await writeFile(at(PATHS.binary), BINARY);
  await writeFile(at(PATHS.goodJson), json(GOOD_JSON));
  await writeFile(at(PATHS.badJson), "{ not json");
  for (const file of TREE_FILES) await writeFile(`${at(PATHS.tree)}/${file}`, `${file}\n`);
  await writeFile(at(PATHS.alicePrivate), "alice only\n");

  await writeFile(at(PATHS.table), TABLE_CSV);
  await writeFile(`${at(PATHS.public)}/.table.csv.comments.json`, json(TABLE_COMMENTS));
  await writeFile(
    `${at(PATHS.public)}/.table.csv.avus.json`,
    json([{ attr: "description", value: "A small table", unit: "" }]),
  );
  await writeFile(`${at(PATHS.public)}/.avus.json`, json(FOLDER_AVUS));
  await writeFile(at(PATHS.png), PNG_BYTES);
  await writeFile(at(PATHS.big), bigBytes());
  await writeFile(at(PATHS.unicode), "unicode name\n");
  await Deno.mkdir(at(PATHS.empty), { recursive: true });

  for (const [index, name] of MIXED_FILES.entries()) {
    const file = `${at(PATHS.mixed)}/${name}`;
    await writeFile(file, "x".repeat(10 * (index + 1)));
    await Deno.utime(file, mixedTime(index), mixedTime(index));
  }
  for (const name of MIXED_FOLDERS) await Deno.mkdir(`${at(PATHS.mixed)}/${name}`);

  await fillFolder(root, at(PATHS.paged), PAGED_FILES);
  for (let index = 0; index < PAGED_FOLDERS; index++) {
    await Deno.mkdir(`${at(PATHS.paged)}/dir-${index}`);
  }
  return root;
}

/** The server over a fresh test store, and stores for each kind of user. */
export interface Served extends ServedRoot {
  /** Connects to it (anonymous unless the options carry credentials). */
  connect(options?: ConnectOptions): Store;
  /** A store signed in as demo with the static token. */
  demo(options?: ConnectOptions): Store;
}

/**
 * Serves the test store (or `root`, left in place) on 127.0.0.1:0.
 *
 * @example
 * ```ts ignore
 * await using served = await serve({ latencyMs: 50 });
 * const store = served.demo();
 * ```
 */
export async function serve(
  options: Omit<ServerOptions, "root" | "port" | "quiet"> & { root?: string } = {},
): Promise<Served> {
  const { root: given, ...serverOptions } = options;
  const root = given ?? await makeStore();
  const served = await serveRoot(
    root,
    serverOptions,
    () => given === undefined ? Deno.remove(root, { recursive: true }) : Promise.resolve(),
  );
  const url = served.url;
  return {
    ...served,
    connect: (more = {}) => connect({ anonymous: !hasCredentials(more), ...more, url }),
    demo: (more = {}) => connect({ token: DEMO.token, ...more, url }),
  };
}

function hasCredentials(options: ConnectOptions): boolean {
  return options.token !== undefined || options.username !== undefined ||
    options.password !== undefined;
}

/** Names directly in a local folder, without the server's sidecars (`.x.avus.json` etc.). */
export async function namesOnDisk(folder: string): Promise<{ files: string[]; folders: string[] }> {
  const files: string[] = [];
  const folders: string[] = [];
  for await (const item of Deno.readDir(folder)) {
    if (item.isDirectory) folders.push(item.name);
    else if (!/^\..*\.(avus|comments)\.json$|^\.(avus|comments)\.json$/.test(item.name)) {
      files.push(item.name);
    }
  }
  return { files: files.sort(), folders: folders.sort() };
}

/** A fetch that sends some requests to a server that never answers (see {@linkcode holdingFetch}). */
export interface HoldingFetch extends AsyncDisposable {
  /** Passes requests on to `inner`, except those held. */
  fetch: typeof fetch;
  /** Requests held so far. */
  held: () => number;
}

/**
 * A fetch whose requests picked by `hold` go to a local server that accepts them and never
 * answers, the rest to `inner`: a held request ends only when its signal aborts it, so a test
 * can tell an abort from an answer that came in time (give the transport a `timeoutMs` beyond
 * the test's hang guard, so that its own timeout cannot end one). Disposing closes that server.
 */
export function holdingFetch(
  hold: (url: URL) => boolean,
  inner: typeof fetch = fetch,
): HoldingFetch {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) conns.push(conn);
  })().catch(() => {});
  let held = 0;
  return {
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (!hold(url)) return inner(input, init);
      held++;
      url.host = `127.0.0.1:${listener.addr.port}`;
      return fetch(url, init);
    },
    held: () => held,
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting;
      for (const conn of conns) conn.close();
    },
  };
}

/** Waits `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Captures `console.warn` calls made while `body` runs. */
export async function captureWarnings<T>(body: () => Promise<T>): Promise<[T, string[]]> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(" "));
  try {
    return [await body(), warnings];
  } finally {
    console.warn = original;
  }
}
