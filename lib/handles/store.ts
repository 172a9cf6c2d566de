/**
 * {@linkcode Store}: one connection to a Terrain gateway and the entry point for handles.
 *
 * @module
 */

import {
  type CallOptions,
  getMetadata,
  getRoot,
  getSavedSearches,
  getSearchDocumentation,
} from "../client/endpoints.ts";
import { BadRequestError, NotFoundError, ProtocolError, quoteInput } from "../client/errors.ts";
import { CALL_OPTIONS } from "../client/options.ts";
import { fetchStoreId } from "../client/store_id.ts";
import type { AuthMode } from "../client/auth.ts";
import type { Transport, TransportStats } from "../client/transport.ts";
import { DiskCache } from "../cache/cache.ts";
import { StoreCache } from "./store_cache.ts";
import { withDisplay } from "../display/attach.ts";
import { JUPYTER_DISPLAY, type MediaBundle } from "../display/bundle.ts";
import { renderRoots } from "../display/roots.ts";
import { renderSavedSearches } from "../display/saved_searches.ts";
import { renderSearchDocs } from "../display/search_docs.ts";
import { renderStore } from "../display/store_view.ts";
import type { ProgressSetting } from "../progress/reporter.ts";
import { type Entry, folderEntry } from "../client/entry.ts";
import { File } from "./file.ts";
import { Dataset, Folder } from "./folder.ts";
import type { Location } from "./handle.ts";
import { STORE_CONTEXT, type StoreContext } from "./store_context.ts";
import { parseRef } from "../client/paths.ts";
import { DatasetIndex } from "./dataset_index.ts";
import {
  DATA_COMMONS_DATASETS,
  identifierProblem,
  isDatasetPath,
  parseDataName,
} from "./resolve.ts";
import { kindOf } from "./stat.ts";
import { SearchBuilder } from "../client/search_builder.ts";
import { checkSearchQuery, type SearchQuery } from "../client/search_query.ts";
import { type SavedSearch, savedSearchQuery, savedSearchSchema } from "../client/saved_search.ts";
import { SEARCH_OPTIONS, SearchListing, type SearchOptions } from "./search_listing.ts";
import { type Lock, lockStoreUrl } from "../reproduce/lock.ts";
import { admitLock } from "../reproduce/lock_store.ts";
import { Provenance } from "../reproduce/provenance.ts";
import { type OnChange, StoreGate } from "../reproduce/store_gate.ts";
import { ReadEvents } from "../data/read_events.ts";
import { ScanProxy } from "../data/scan_proxy.ts";
import { Reader } from "../data/reader.ts";

/**
 * A store's settings as resolved by `connect()` — never the token or password.
 *
 * @example
 * ```ts
 * import { connect } from "./connect.ts";
 * import assert from "node:assert/strict";
 *
 * const gateway = "http://127.0.0.1:8080/terrain";
 * const store = connect({ url: gateway, anonymous: true, cacheDir: false });
 * const { url, auth, concurrency } = store.options;
 * assert.equal(url, "http://127.0.0.1:8080/terrain");
 * assert.equal(auth, "anonymous");
 * assert.equal(concurrency, 4);
 * ```
 */
export interface StoreSettings {
  /** Base URL of the Terrain gateway. */
  readonly url: string;
  /** `anonymous`, `token` or `password` (username/password exchanged for a token). */
  readonly auth: AuthMode;
  /** The username, when signing in with a password. */
  readonly username?: string;
  /** Where the credentials came from: the options, the environment, or nowhere (anonymous). */
  readonly credentialsFrom: "options" | "environment" | "none";
  /** Requests in flight at once, bodies included. */
  readonly concurrency: number;
  /** Extra attempts after a retryable failure. */
  readonly retries: number;
  /** Longest wait for response headers, in ms. */
  readonly timeoutMs: number;
  /**
   * Local cache folder for downloaded files (they go in its `downloads/` sub-folder), or
   * `false` for no cache. Absent means no cache (a store built without `connect()`).
   */
  readonly cacheDir?: string | false;
  /** Cap on cached bytes; least recently used files are removed beyond it. */
  readonly cacheMaxBytes?: number;
  /** Serve files only from the local cache; never download. */
  readonly offline?: boolean;
  /**
   * How reads, downloads and walks show progress: `true` (the default) in a notebook or on a
   * terminal's stderr, `false` never, or a function that receives every event instead.
   */
  readonly progress?: ProgressSetting;
}

/**
 * What a store checks its reads against: a lock (see `connect({ lock })`) and what a changed
 * locked file does.
 *
 * @example
 * ```ts
 * import type { StoreReading } from "./store.ts";
 *
 * const reading: StoreReading = { onChange: "warn" };
 * ```
 */
export interface StoreReading {
  /** The lock, already read and checked. */
  readonly lock?: Lock;
  /**
   * What a read of a locked file that changed does.
   *
   * @default "error"
   */
  readonly onChange?: OnChange;
  /**
   * Where the one line per changed path goes, and the note for a lock without a store id read
   * from another URL (default `console.warn`).
   */
  readonly warn?: (line: string) => void;
  /**
   * The caller named this store (`connect({ url })` or `TERRAIN_URL`), so it stands in for the
   * lock's URL; a lock naming another store is then refused only when the store is shown to be
   * another (by its id), and one without an id is used with a note. Otherwise (the default
   * gateway) a lock without an id must name this store.
   *
   * @default false
   */
  readonly named?: boolean;
}

/**
 * The search service's documentation: each query clause with its arguments, and the fields
 * results can be sorted by (Terrain sends them in random order).
 *
 * @example
 * ```ts
 * import type { SearchDocumentation } from "./store.ts";
 *
 * const clauseNames = (docs: SearchDocumentation) => Object.keys(docs.clauses).sort();
 * ```
 */
export interface SearchDocumentation {
  /** Clauses by name (`label`, `path`, `size`, …), each with a summary and its arguments. */
  clauses: Record<string, {
    summary: string;
    args: Record<string, { type: string; summary: string }>;
  }>;
  /** Sortable fields. */
  sortFields: string[];
}

/**
 * The user's navigation roots (`filesystem/root`), as folder handles that already know their
 * entries, plus Terrain's base paths.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const { home, community } = await store.root();
 * assert.equal(home.path, "/iplant/home/demo");
 * assert.equal(community.path, "/iplant/home/shared");
 * const names: string[] = [];
 * for await (const entry of home.list()) names.push(entry.name);
 * assert.deepEqual(names, [
 *   "Moreno_MarketIndices_2024",
 *   "scratch",
 *   "données_météo_seattle.csv",
 *   "field notes (2024).txt",
 *   "notes.txt",
 *   "penguins_summary.csv",
 * ]);
 * ```
 */
export interface Roots {
  /** The user's home folder, e.g. `/iplant/home/demo`. */
  readonly home: Folder;
  /** Community data, `/iplant/home/shared`. */
  readonly community: Folder;
  /** "Shared With Me": `/iplant/home`, listing what others shared with the user. */
  readonly sharedWithMe: Folder;
  /** The user's trash. */
  readonly trash: Folder;
  /** Terrain's base paths. */
  readonly basePaths: {
    /** The user's home path. */
    readonly userHome: string;
    /** The user's trash path. */
    readonly userTrash: string;
    /** The folder holding every user's trash. */
    readonly baseTrash: string;
  };
}

/**
 * The spellings of a DOI or an ARK that {@linkcode Store.resolve} types as a dataset (DOIs and
 * ARKs name datasets only).
 *
 * @example
 * ```ts
 * import type { IdentifierName } from "./store.ts";
 *
 * const penguins: IdentifierName = "https://doi.org/10.25739/9k2v-7q4m";
 * ```
 */
export type IdentifierName =
  | `10.${string}`
  | `doi:${string}`
  | `https://doi.org/${string}`
  | `http://dx.doi.org/${string}`
  | `ark:${string}`
  | `https://n2t.net/ark:${string}`;

/**
 * A connection to a Terrain gateway: makes handles for files, folders and datasets, and reads
 * the store-wide endpoints. Made by `connect()`; constructing one sends nothing.
 *
 * Anything that names an item accepts a data-store path (`/iplant/home/shared/a.csv`), an item
 * id (a UUID, looked up when first needed), or an {@linkcode Entry} from a listing (whose handle
 * then knows its entry without a request).
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * // Against a real gateway: const store = connect({ token: Deno.env.get("TERRAIN_TOKEN") });
 * await using store = await exampleStore();
 * const text = await store.file("/iplant/home/shared/tern_samples/formats/README.txt").text();
 * assert.equal(text.split("\n")[0], "One table, every format");
 * ```
 */
export class Store {
  /** Resolved settings (no secrets). */
  readonly options: StoreSettings;
  readonly #context: StoreContext;
  readonly #cache: StoreCache;
  readonly #provenance: Provenance;
  readonly #datasets: DatasetIndex;

  /**
   * Wraps a transport; `connect()` is the usual way to get a store.
   *
   * @example
   * ```ts
   * import { Transport } from "../client/transport.ts";
   * import { Store } from "./store.ts";
   * import assert from "node:assert/strict";
   *
   * const transport = new Transport({ url: "http://127.0.0.1:8080/terrain" });
   * const store = new Store(transport, {
   *   url: transport.url, auth: "anonymous", credentialsFrom: "none", ...transport.policy,
   * });
   * assert.equal(String(store), "Store(http://127.0.0.1:8080/terrain, anonymous)");
   * ```
   */
  constructor(transport: Transport, options: StoreSettings, reading: StoreReading = {}) {
    this.options = Object.freeze({ ...options });
    const disk = typeof options.cacheDir === "string"
      ? new DiskCache({ dir: options.cacheDir, maxBytes: options.cacheMaxBytes })
      : undefined;
    const offline = options.offline === true;
    const storeUrl = lockStoreUrl(transport.url);
    const { lock } = reading;
    // The store's id, asked once (the health answer, no credentials); an offline store asks
    // nothing, so its locks record no id.
    let asked: Promise<string | undefined> | undefined;
    const storeId = offline
      ? () => Promise.resolve(undefined)
      : () =>
        asked ??= fetchStoreId(transport).catch((error) => {
          asked = undefined;
          throw error;
        });
    // The lock's store is never contacted from here: a lock may come from anyone (a paper's
    // supplement), and this store carries the caller's credentials. A store the caller named
    // stands in for the lock's URL: a lock with an id is this store's only if this store reports
    // that id, which the first read asks; one without is taken at its word, with a note.
    const confirm = lock === undefined ? undefined : admitLock(lock, storeUrl, {
      named: reading.named === true,
      refusal: `was written for the store ${quoteInput(lock.store)}, not this one ` +
        `(${quoteInput(storeUrl)}); nothing was sent to either. To read the lock's store, ` +
        `connect({ url: ${quoteInput(lock.store)}, lock }): your credentials then go ` +
        "there (anonymous: true for its public data only)",
      ...(offline ? {} : { storeId }),
      ...(reading.warn === undefined ? {} : { warn: reading.warn }),
    });
    // Each store keeps its own provenance; a folder's dataset is looked up through the store.
    const provenance = new Provenance(
      storeUrl,
      (folder, callOptions) => new Dataset(context, { path: folder }).metadata(callOptions),
      {
        storeId,
        // The one way out of the cache: a file's stream reads its cached copy when it has one.
        inputs: {
          read: (path, callOptions) => new File(context, { path }).stream(callOptions),
          concurrency: transport.policy.concurrency,
        },
        // A lock fills in the checksums of files pinned by a listing's entry; offline, none.
        ...(offline ? {} : { transport }),
        ...(reading.warn === undefined ? {} : { warn: reading.warn }),
      },
    );
    const gate = new StoreGate(transport.url, provenance, disk, { ...reading, confirm });
    // Provenance hears every read the store finishes, marked as it stood against the lock.
    const events = new ReadEvents();
    events.subscribe((event) => {
      if (event.kind === "done") gate.record(event.version, event.operation);
    });
    // Every handle this store makes, directly or through another handle, gets this one object.
    const context: StoreContext = Object.freeze({
      transport,
      reader: new Reader(transport, disk),
      offline,
      progress: options.progress ?? true,
      events,
      gate,
      scans: new ScanProxy(transport),
    });
    this.#context = context;
    this.#cache = new StoreCache(disk, offline);
    this.#provenance = provenance;
    this.#datasets = new DatasetIndex({ concurrency: transport.policy.concurrency });
  }

  /**
   * What the store gives its handles.
   *
   * @ignore for tern's own layers; the symbol is not exported by `mod.ts`.
   */
  get [STORE_CONTEXT](): StoreContext {
    return this.#context;
  }

  /**
   * The local cache of downloaded files: where it is, `info()` (a DataFrame of what it holds)
   * and `clear()`. Reads into DataFrames that download the whole file (`dataframe()`,
   * `batches()`, `dataframes()`; a `head()` that stops early keeps nothing) and `cachedPath()`
   * fill it; `bytes()`, `text()`, `json()`, `stream()` and
   * `downloadTo()` hand the bytes to you and keep no copy.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").cachedPath();
   * assert.equal((await store.cache.info()).height, 1);
   * ```
   */
  get cache(): StoreCache {
    return this.#cache;
  }

  /**
   * What this store read: every file version once (path, id, size, date-modified, hash where
   * tern has one, how it was read), the datasets they belong to, their bibliography in any
   * style, a lock file (`save(path)`) to check a rerun against (`connect({ lock })`), a
   * DataFrame, and a notebook card. See {@linkcode Provenance}.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * assert.equal(store.provenance.reads.length, 0);
   * ```
   */
  get provenance(): Provenance {
    return this.#provenance;
  }

  /** Requests sent, retries, token exchanges and requests in flight, for monitoring. */
  get stats(): TransportStats {
    return this.#context.transport.stats;
  }

  /**
   * A handle for the folder at a path, id or entry; sends nothing.
   *
   * @throws {BadRequestError} for a relative path, `..`, or a file's entry.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const shared = store.folder("/iplant/home/shared");
   * assert.equal(await shared.list().count(), 3);
   * ```
   */
  folder(ref: string | Entry): Folder {
    return new Folder(this.#context, locationOf(ref, "folder", "store.folder()"));
  }

  /**
   * A handle for the file at a path, id or entry; sends nothing.
   *
   * @throws {BadRequestError} for a relative path, `..`, or a folder's entry.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const csv = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * assert.equal((await csv.stat()).size, 13487);
   * ```
   */
  file(ref: string | Entry): File {
    return new File(this.#context, locationOf(ref, "file", "store.file()"));
  }

  /**
   * A handle for a folder holding a dataset; sends nothing. See {@linkcode Dataset}.
   *
   * @throws {BadRequestError} for a relative path, `..`, or a file's entry.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = "/iplant/home/shared/commons_repo/curated";
   * const dataset = store.dataset(`${curated}/Gorman_PalmerPenguins_Morphometrics_2020`);
   * assert.equal(
   *   (await dataset.metadata()).title,
   *   "Palmer Archipelago (Antarctica) penguin size measurements, 2007-2009",
   * );
   * ```
   */
  dataset(ref: string | Entry): Dataset {
    return new Dataset(this.#context, locationOf(ref, "folder", "store.dataset()"));
  }

  /**
   * The {@linkcode File}, {@linkcode Folder} or {@linkcode Dataset} any common name points to:
   * a data-store path, an item id (UUID), a `dav` or `dav-anon` URL
   * (`https://data.cyverse.org/dav-anon/iplant/home/…`), a Discovery Environment data link
   * (`https://de.cyverse.org/data/ds/iplant/home/…`), a DOI (`10.…`, `doi:10.…`,
   * `https://doi.org/10.…`) or an ARK (`ark:/…`, `https://n2t.net/ark:/…`). Folders directly
   * under the Data Commons' curated folder come back as datasets. DOIs and ARKs are looked up in
   * the curated datasets' metadata, read once per store and read again only when that folder's
   * modification date moves. A URL or link must name this store's host (or, for CyVerse, its
   * WebDAV host `data.cyverse.org`): the same path on another store is another item.
   *
   * @throws {BadRequestError} when `name` is none of these forms.
   * @throws {OtherStoreError} when a URL or link names another store's host.
   * @throws {NotFoundError} when nothing is there, or no dataset has the DOI or ARK.
   * @throws {AmbiguousNameError} when several datasets have it.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { Dataset } from "./folder.ts";
   * import { File } from "./file.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const origin = new URL(store.options.url).origin; // the embedded server's host
   * const csv = await store.resolve(
   *   `${origin}/data/ds/iplant/home/shared/tern_samples/formats/penguins.csv`,
   * );
   * assert.ok(csv instanceof File);
   * await assert.rejects(
   *   store.resolve("https://other.example/dav/iplant/home/shared/tern_samples/formats/penguins.csv"),
   *   { name: "OtherStoreError" },
   * );
   * const dataset = await store.resolve("https://doi.org/10.25739/9k2v-7q4m");
   * assert.ok(dataset instanceof Dataset);
   * assert.equal(dataset.name, "Gorman_PalmerPenguins_Morphometrics_2020");
   * ```
   */
  resolve(name: IdentifierName, options?: CallOptions): Promise<Dataset>;
  /**
   * Resolves a path, an item id, a `dav`/`dav-anon` URL or a Discovery Environment data link to
   * its `File` or `Folder` (a `Dataset` under the Data Commons' curated folder), and a DOI or an
   * ARK to its `Dataset`.
   */
  resolve(name: string, options?: CallOptions): Promise<File | Folder | Dataset>;
  async resolve(name: string, options: CallOptions = {}): Promise<File | Folder | Dataset> {
    options = CALL_OPTIONS.parse("store.resolve()", options);
    const parsed = parseDataName(name, this.options.url);
    if (parsed.kind === "doi" || parsed.kind === "ark") {
      const identifier = parsed.kind === "doi" ? `doi:${parsed.doi}` : parsed.ark;
      const paths = await this.#datasets.datasetsWith(
        this.folder(DATA_COMMONS_DATASETS),
        identifier,
        options,
      );
      const problem = identifierProblem(identifier, paths);
      if (problem !== undefined) throw problem;
      return this.dataset(paths[0]);
    }
    const item = await this.entry(parsed.kind === "id" ? parsed.id : parsed.path, options);
    if (item instanceof Folder && !(item instanceof Dataset)) {
      const path = item.path ?? (await item.stat(options)).path;
      if (isDatasetPath(path)) return this.dataset(path);
    }
    return item;
  }

  /**
   * A {@linkcode File} or {@linkcode Folder} handle for a path, id or entry, whichever the item
   * is. An entry needs no request; a path needs one (`file/manifest`, which answers for files
   * and says "not a file" for folders); an id needs one more to look up its path.
   *
   * @throws {NotFoundError} when nothing is there.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { Folder } from "./folder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const [formats] = await store.folder("/iplant/home/shared/tern_samples").list().take(1);
   * const item = await store.entry(formats.id); // by id: looks up the path, then the kind
   * assert.ok(item instanceof Folder);
   * assert.equal(item.path, "/iplant/home/shared/tern_samples/formats");
   * assert.equal(await item.list().count(), 9);
   * ```
   */
  async entry(ref: string | Entry, options: CallOptions = {}): Promise<File | Folder> {
    options = CALL_OPTIONS.parse("store.entry()", options);
    if (isEntry(ref)) return ref.type === "file" ? this.file(ref) : this.folder(ref);
    const parsed = parseRef(ref, "The item given to store.entry()");
    const path = parsed.path ??
      (await getMetadata(this.#context.transport, parsed.id!, options)).path;
    const location: Location = { path, ...(parsed.id === undefined ? {} : { id: parsed.id }) };
    return await kindOf(this.#context.transport, path, options) === "file"
      ? new File(this.#context, location)
      : new Folder(this.#context, location);
  }

  /**
   * The user's home, community data, "shared with me" and trash folders, and Terrain's base
   * paths. Needs a signed-in store.
   *
   * @throws {SignInRequiredError} for an anonymous store.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const { home } = await store.root();
   * assert.equal(home.path, "/iplant/home/demo");
   * ```
   */
  async root(options: CallOptions = {}): Promise<Roots> {
    options = CALL_OPTIONS.parse("store.root()", options);
    const answer = await getRoot(this.#context.transport, options);
    const base = answer["base-paths"];
    const remaining = [...answer.roots];
    const take = (what: string, test: (path: string) => boolean) => {
      const index = remaining.findIndex((root) => test(root.path));
      if (index < 0) {
        throw new ProtocolError(
          `filesystem/root did not list the ${what} folder (${answer.roots.length} roots).`,
          { endpoint: "filesystem/root" },
        );
      }
      return new Folder(this.#context, { entry: folderEntry(remaining.splice(index, 1)[0]) });
    };
    const home = take("home", (path) => path === base.user_home_path);
    const trash = take("trash", (path) => path === base.user_trash_path);
    // Terrain sends community data before "shared with me"; their paths are deployment
    // settings, so the order is what identifies them.
    const community = take("community data", () => true);
    const sharedWithMe = take("shared-with-me", () => true);
    const roots: Roots = {
      home,
      community,
      sharedWithMe,
      trash,
      basePaths: {
        userHome: base.user_home_path,
        userTrash: base.user_trash_path,
        baseTrash: base.base_trash_path,
      },
    };
    // In a notebook, the four roots as a table (their entries are known: no request).
    return withDisplay(roots, async () =>
      renderRoots({
        roots: await Promise.all(
          (["home", "community", "sharedWithMe", "trash"] as const).map(async (role) => {
            const { path, modified, permission } = await roots[role].stat();
            return { role, path, modified, permission };
          }),
        ),
        basePaths: roots.basePaths,
      }));
  }

  /**
   * The user's saved searches: the Discovery Environment's query templates, typed (fields tern
   * does not know are kept). A stored value that is not a list (`{}` when nothing was saved) gives
   * an empty list. In a notebook, a table of the searches. Needs a signed-in store.
   *
   * @throws {SignInRequiredError} for an anonymous store.
   * @throws {ProtocolError} when a stored template has no `label` or a mistyped field.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const saved = await store.savedSearches();
   * assert.deepEqual(saved.map((search) => search.label), [
   *   "Penguin tables",
   *   "Large Parquet files",
   *   "CC0 datasets",
   *   "My files from 2024",
   * ]);
   * assert.equal(saved[0].dirty, false); // a field tern does not know, kept
   * ```
   */
  async savedSearches(options: CallOptions = {}): Promise<SavedSearch[]> {
    options = CALL_OPTIONS.parse("store.savedSearches()", options);
    const stored = await getSavedSearches(this.#context.transport, options);
    const { parseBody } = await import("../client/schemas.ts");
    const saved = Array.isArray(stored)
      ? parseBody(savedSearchSchema().array(), stored, { endpoint: "saved-searches" })
      : [];
    return withDisplay(saved, () => renderSavedSearches(saved));
  }

  /**
   * Searches the store (Terrain's `filesystem/search`): `query` is the search service's query DSL
   * (`{ all, any, none }` of clauses) or a builder (`search.metadata("subject", "maize")
   * .under(path)`, see `search_builder.ts`). The query is checked before anything is sent. The
   * hits come lazily, page by page, as a {@linkcode SearchListing} (the surface of
   * `folder.list()`).
   *
   * @throws {BadRequestError} for a bad query (naming the part by its JSON path) or option, before
   * any request; for a query the service refuses (its message), when iterated.
   * @throws {SearchDisabledError} when iterated, if the store has no search.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { search } from "../client/search_builder.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const cc0 = store.search(search.metadata("rights", "CC0").under("/iplant/home/shared"));
   * const [first] = await cc0.take(1);
   * assert.ok(first.metadata.some((avu) => avu.attribute === "rights"));
   * assert.throws(() => store.search({ all: [{ type: "path", args: {} }] } as never), {
   *   name: "BadRequestError",
   *   message: /query\.all\[0\]\.args\.prefix is missing/,
   * });
   * ```
   */
  search(query: SearchQuery | SearchBuilder, options: SearchOptions = {}): SearchListing {
    return new SearchListing({
      ...SEARCH_OPTIONS.parse("store.search()", options),
      context: this.#context,
      query: checkSearchQuery(query instanceof SearchBuilder ? query.toJSON() : query),
      label: "search",
    });
  }

  /**
   * Runs a saved search by its name: the template is turned into the query the Discovery
   * Environment ran for it (see `savedSearchQuery` in `saved_search.ts`; `pathPrefix` is
   * ignored, as the DE did) and searched like {@linkcode Store.search}. Lazy, as a search is:
   * the templates are read when the hits are first asked for, so `.take(n)`, `count()` and the
   * rest chain on directly.
   *
   * @throws {NotFoundError} when the hits are asked for and no saved search has that name (the
   * message lists them).
   * @throws {BadRequestError} when the hits are asked for and the template cannot be
   * translated, naming the field; at once for bad options.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const hits = await store.runSavedSearch("Penguin tables").toArray();
   * assert.ok(hits.length > 0);
   * assert.ok(hits.every((hit) => hit.name.toLowerCase().includes("penguin")));
   * ```
   */
  runSavedSearch(name: string, options: SearchOptions = {}): SearchListing {
    const parsed = SEARCH_OPTIONS.parse("store.runSavedSearch()", options);
    const query = () => this.#savedQuery(name, parsed.signal);
    return new SearchListing({ ...parsed, context: this.#context, query, label: name });
  }

  /** The query a saved search runs, from its template (read when its hits are asked for). */
  async #savedQuery(name: string, signal: AbortSignal | undefined): Promise<SearchQuery> {
    const saved = await this.savedSearches({ signal });
    const template = saved.find((search) => search.label === name);
    if (template === undefined) {
      throw new NotFoundError(
        `No saved search is named ${quoteInput(name)}; the saved searches are ${
          saved.length === 0 ? "none" : saved.map((search) => quoteInput(search.label)).join(", ")
        }.`,
        { endpoint: "saved-searches" },
      );
    }
    const trash = template.includeTrashItems
      ? (await getRoot(this.#context.transport, { signal }))["base-paths"].base_trash_path
      : "";
    return checkSearchQuery(savedSearchQuery(template, trash), `saved search ${name}`);
  }

  /**
   * The search service's documentation: its clauses with their arguments, and sortable fields.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const { clauses, sortFields } = await store.searchDocumentation();
   * assert.ok("label" in clauses);
   * assert.ok(sortFields.includes("fileSize"));
   * ```
   */
  async searchDocumentation(options: CallOptions = {}): Promise<SearchDocumentation> {
    options = CALL_OPTIONS.parse("store.searchDocumentation()", options);
    const docs = await getSearchDocumentation(this.#context.transport, options);
    // In a notebook, the clauses and sort fields as a table (the value itself is unchanged).
    return withDisplay(docs, () => renderSearchDocs(docs));
  }

  /** `Store(https://de.cyverse.org/terrain, password demo)`; never a secret. */
  toString(): string {
    const who = this.options.username === undefined
      ? this.options.auth
      : `${this.options.auth} ${this.options.username}`;
    return `Store(${this.options.url}, ${who})`;
  }

  /**
   * Stops what the store runs beside its requests: the loopback proxy its remote scans read
   * through (range reads in flight are aborted and its port is closed). Lazy frames of its
   * remote scans then fail to collect, and a new remote scan, with a `BadRequestError`; other
   * calls still work. Closing again does nothing; `await using store = connect(…)` closes the
   * store at the end of the block.
   *
   * @example
   * ```ts
   * import { BadRequestError } from "../client/errors.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const lazy = await store.file("/iplant/home/shared/tern_samples/formats/penguins.parquet").scan();
   * assert.equal((await lazy.select("Species").collect()).height, 344);
   * await store.close();
   * await assert.rejects(() => lazy.collect(), BadRequestError);
   * ```
   */
  async close(): Promise<void> {
    await this.#context.scans?.close();
  }

  /** Same as {@linkcode Store.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Same as `toString()`, for `Deno.inspect`, `console.log` and notebooks' plain output. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.toString();
  }

  /**
   * The notebook view: the gateway (linked), how the store is signed in (never the secret), the
   * request policy, the cache and the traffic so far. Sends nothing.
   *
   * @example
   * ```ts
   * import { JUPYTER_DISPLAY } from "../display/bundle.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * // In a notebook, `store` as the last line of a cell shows this card.
   * const card = store[JUPYTER_DISPLAY]();
   * assert.match(card["text/plain"], /^Store http:\/\/127\.0\.0\.1:\d+\/terrain — signed in/);
   * assert.match(card["text/plain"], /requests: 4 at once, 4 retries, 30 s timeout/);
   * ```
   */
  [JUPYTER_DISPLAY](): MediaBundle {
    const { options } = this;
    return renderStore({
      ...options,
      progress: typeof options.progress === "function"
        ? "your function"
        : options.progress === false
        ? "off"
        : "in notebooks and terminals",
      stats: this.stats,
    });
  }

  /** The settings (no secrets), for `JSON.stringify`. */
  toJSON(): StoreSettings {
    return this.options;
  }
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Partial<Entry>;
  return typeof entry.path === "string" && typeof entry.id === "string" &&
    (entry.type === "file" || entry.type === "folder");
}

function locationOf(ref: unknown, kind: "file" | "folder", what: string): Location {
  if (isEntry(ref)) {
    if (ref.type !== kind) {
      throw new BadRequestError(
        `${what} was given the entry of a ${ref.type}, ${JSON.stringify(ref.path)}; use ` +
          `store.${ref.type}() or store.entry() for it.`,
        { path: ref.path },
      );
    }
    return { entry: ref };
  }
  return parseRef(ref, `The path given to ${what}`);
}
