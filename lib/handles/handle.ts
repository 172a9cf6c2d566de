/**
 * {@linkcode Handle}: what files and folders have in common — where they are (a path, an id, a
 * listing entry, or a name under another handle), their entry, metadata and comments.
 *
 * @module
 */

import { type CallOptions, getComments, getMetadata } from "../client/endpoints.ts";
import {
  abortSignal,
  CALL_OPTIONS,
  defineOptions,
  flag,
  type OptionsSchema,
} from "../client/options.ts";
import type { Avu as AvuSchema } from "../client/schemas.ts";
import { withDisplay } from "../display/attach.ts";
import { renderComments } from "../display/comments.ts";
import { renderRawMetadata } from "../display/metadata.ts";
import type { Entry, EntryType } from "../client/entry.ts";
import type { StoreContext } from "./store_context.ts";
import { baseName, joinPath } from "../client/paths.ts";
import { definedOf } from "../client/defined.ts";

/**
 * Options of {@linkcode Handle.stat}.
 *
 * @example
 * ```ts
 * import type { StatOptions } from "./handle.ts";
 *
 * const fresh: StatOptions = { refresh: true, signal: AbortSignal.timeout(10_000) };
 * ```
 */
export interface StatOptions extends CallOptions {
  /**
   * Ask the server again even when the handle already knows its entry.
   *
   * @default false
   */
  refresh?: boolean;
}

const STAT_OPTIONS: OptionsSchema<StatOptions> = defineOptions(() => ({
  refresh: flag(),
  signal: abortSignal(),
}));

/**
 * A metadata AVU (attribute, value, unit) with its nested AVUs, exactly as stored: the DataCite
 * template keeps sub-properties (an identifier's `identifierType`, a creator's `affiliation`)
 * nested, and attribute names keep their variants (`datacite.title`, trailing tabs, …).
 *
 * @example
 * ```ts
 * import type { Avu } from "./handle.ts";
 *
 * const flatten = (avus: Avu[]): Avu[] => avus.flatMap((avu) => [avu, ...flatten(avu.avus)]);
 * ```
 */
export type Avu = AvuSchema;

/**
 * A raw iRODS AVU (attribute, value, unit) as Terrain shows it; the server hides its own
 * `ipc*` attributes.
 *
 * @example
 * ```ts
 * import type { IrodsAvu } from "./handle.ts";
 *
 * const pairs = (avus: IrodsAvu[]) => avus.map((avu) => `${avu.attr}=${avu.value}`);
 * ```
 */
export interface IrodsAvu {
  /** Attribute name. */
  attr: string;
  /** Value. */
  value: string;
  /** Unit, usually `""`. */
  unit: string;
}

/**
 * A file's or folder's metadata as stored, before any normalisation: the template AVUs (where
 * Data Commons keeps DataCite fields, sub-properties nested), the raw iRODS AVUs, and the path.
 *
 * @example
 * ```ts
 * import type { RawMetadata } from "./handle.ts";
 *
 * const titles = (metadata: RawMetadata) =>
 *   metadata.avus.filter((avu) => avu.attr.toLowerCase().endsWith("title")).map((avu) => avu.value);
 * ```
 */
export interface RawMetadata {
  /** The item's data-store path. */
  path: string;
  /** Template AVUs, in stored order, attribute names exactly as stored. */
  avus: Avu[];
  /** Raw iRODS AVUs (the server hides its own `ipc*` attributes). */
  irodsAvus: IrodsAvu[];
}

/**
 * A comment on a file or folder.
 *
 * @example
 * ```ts
 * import type { Comment } from "./handle.ts";
 *
 * const visible = (comments: Comment[]) => comments.filter((comment) => !comment.retracted);
 * ```
 */
export interface Comment {
  /** The comment's id. */
  id: string;
  /** Short username of the author. */
  author: string;
  /** When it was posted. */
  posted: Date;
  /** Whether the author withdrew it (Terrain still returns the text). */
  retracted: boolean;
  /** The comment. */
  text: string;
}

/**
 * Where a handle points; handles are made by the store and by folders, not by hand. At least
 * one of `path`, `id`, `entry` or `parent` is set.
 *
 * @example
 * ```ts
 * import type { Location } from "./handle.ts";
 *
 * const byPath: Location = { path: "/iplant/home/shared" };
 * const byId: Location = { id: "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804" };
 * ```
 */
export interface Location {
  /** Normalised absolute path. */
  path?: string;
  /** Item id. */
  id?: string;
  /** The entry a listing gave (path and id included). */
  entry?: Entry;
  /** A folder handle and a normalised path relative to it. */
  parent?: { folder: Handle; relative: string };
}

/**
 * Base of {@linkcode Folder} and {@linkcode File}. Constructing a handle sends nothing; the
 * first method that needs the server does. A handle made from an id learns its path with one
 * metadata request, then remembers it; one made from a listing entry (or after `stat()`)
 * remembers that entry.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const folder = store.folder("/iplant/home/shared/tern_samples");
 * assert.equal(folder.path, "/iplant/home/shared/tern_samples");
 * assert.equal(folder.name, "tern_samples");
 * const entry = await folder.stat();
 * assert.equal(entry.type, "folder");
 * ```
 */
export abstract class Handle {
  /** `file` or `folder`. */
  abstract readonly kind: EntryType;
  /**
   * The store's transport, cache and handle factories, given by whoever made the handle.
   *
   * @ignore tern's own layers use it; not part of the public API.
   */
  protected readonly context: StoreContext;
  #path?: string;
  #id?: string;
  #entry?: Entry;
  #parent?: { folder: Handle; relative: string };
  #locating?: Promise<string>;

  /**
   * Records where the handle points; see {@linkcode Location}.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * // Handles come from the store: store.folder(path), store.file(path), folder.file(name).
   * const file = store.folder("/iplant/home/shared/tern_samples/formats").file("penguins.csv");
   * assert.equal(file.path, "/iplant/home/shared/tern_samples/formats/penguins.csv");
   * ```
   */
  protected constructor(context: StoreContext, location: Location) {
    const { entry, parent } = location;
    const folder = parent?.folder.path;
    this.context = context;
    this.#entry = entry;
    this.#path = entry?.path ?? location.path ??
      (folder === undefined ? undefined : joinPath(folder, parent!.relative));
    this.#id = entry?.id ?? location.id;
    if (this.#path === undefined) this.#parent = parent;
  }

  /** The data-store path, once known: always for handles made from a path or an entry. */
  get path(): string | undefined {
    return this.#path;
  }

  /** The item id, once known (from an entry, an id, or a request that returned it). */
  get id(): string | undefined {
    return this.#id;
  }

  /** The last segment of the path, when the path is known. */
  get name(): string | undefined {
    return this.#path === undefined ? undefined : baseName(this.#path);
  }

  /**
   * The item's {@linkcode Entry}. A handle that knows it already (made from a listing entry, or
   * stat'ed before) answers without a request unless `refresh` is set. A file's entry from the
   * server carries the store's checksum (`checksum`, `md5:<hex>`) when the store has computed
   * one; a listing's entry carries none.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
   * const entry = await file.stat();
   * assert.equal(entry.size, 13487);
   * assert.equal(entry.infoType, "csv");
   * assert.match(entry.checksum ?? "", /^md5:[0-9a-f]{32}$/);
   * ```
   */
  async stat(options: StatOptions = {}): Promise<Entry> {
    return await this.statEntry(STAT_OPTIONS.parse(this.call("stat"), options));
  }

  /** {@linkcode Handle.stat} with its options already parsed, for tern's own calls. */
  protected async statEntry(options: StatOptions): Promise<Entry> {
    if (this.#entry !== undefined && options.refresh !== true) return this.#entry;
    const path = await this.locate(options.signal);
    const entry = await this.fetchEntry(path, options);
    this.#entry = entry;
    this.#id = entry.id;
    return entry;
  }

  /**
   * The raw metadata (template AVUs, iRODS AVUs, path), fetched by id; a handle that does not
   * know its id stats itself first.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const file = curated.file("Gorman_PalmerPenguins_Morphometrics_2020/penguins.csv");
   * const { avus } = await file.metadata();
   * assert.deepEqual(avus.map((avu) => avu.attr), ["description", "rows", "missing_sex"]);
   * ```
   */
  async metadata(options: CallOptions = {}): Promise<RawMetadata> {
    return await this.rawMetadata(CALL_OPTIONS.parse(this.call("metadata"), options));
  }

  /** {@linkcode Handle.metadata} with its options already parsed, for tern's own calls. */
  protected async rawMetadata(options: CallOptions): Promise<RawMetadata> {
    const answer = await getMetadata(this.context.transport, await this.itemId(options), options);
    this.#path ??= answer.path;
    const raw: RawMetadata = {
      path: answer.path,
      avus: answer.avus,
      irodsAvus: answer["irods-avus"].map(({ attr, value, unit }) => ({ attr, value, unit })),
    };
    // In a notebook, the AVUs as a table (nested ones indented); the object is unchanged.
    return withDisplay(raw, () => renderRawMetadata(raw));
  }

  /**
   * The comments on the item, oldest first, retracted ones included (see `retracted`). Needs a
   * signed-in store.
   *
   * @throws {SignInRequiredError} for an anonymous store.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const curated = store.folder("/iplant/home/shared/commons_repo/curated");
   * const comments = await curated.folder("Gorman_PalmerPenguins_Morphometrics_2020").comments();
   * assert.deepEqual(comments.map((comment) => comment.author), ["alice", "curator", "demo"]);
   * assert.equal(comments.filter((comment) => comment.retracted).length, 1);
   * ```
   */
  async comments(options: CallOptions = {}): Promise<Comment[]> {
    options = CALL_OPTIONS.parse(this.call("comments"), options);
    const answer = await getComments(this.context.transport, await this.itemId(options), options);
    const comments: Comment[] = answer.comments.map((comment) => ({
      id: comment.id,
      author: comment.commenter,
      posted: new Date(comment.post_time),
      retracted: comment.retracted,
      text: comment.comment,
    }));
    // In a notebook, the comments as a thread (retracted ones collapsed); the array is unchanged.
    const path = this.#path;
    return withDisplay(
      comments,
      () => renderComments({ ...(path === undefined ? {} : { path }), comments }),
    );
  }

  /** `{"kind":"file","path":"/iplant/home/shared/a.csv","id":"…"}` (what is known so far). */
  toJSON(): { kind: EntryType; path?: string; id?: string } {
    return { kind: this.kind, ...definedOf({ path: this.#path, id: this.#id }, ["path", "id"]) };
  }

  /** `Folder(/iplant/home/shared)`, `File(id 6a1b2c3d-…)` before an id handle's path is known. */
  toString(): string {
    return `${this.constructor.name}(${this.label})`;
  }

  /** Same as `toString()`, for `Deno.inspect`, `console.log` and notebooks' plain output. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.toString();
  }

  /** How errors name a call of `method` on this handle: `file.stat()`, `dataset.metadata()`. */
  protected call(method: string): string {
    return `${this.constructor.name.toLowerCase()}.${method}()`;
  }

  /** How the handle shows where it points: its path, or what it was made from. */
  protected get label(): string {
    if (this.#path !== undefined) return this.#path;
    if (this.#parent !== undefined) return `${this.#parent.folder.label}/${this.#parent.relative}`;
    return `id ${this.#id}`;
  }

  /** The path, looking it up (once, shared by concurrent callers) when only an id is known. */
  protected async locate(signal?: AbortSignal): Promise<string> {
    if (this.#path !== undefined) return this.#path;
    this.#locating ??= this.#lookUp(signal).finally(() => {
      this.#locating = undefined;
    });
    return await this.#locating;
  }

  /** The id, stat'ing the handle when it is not known yet. */
  protected async itemId(options: CallOptions): Promise<string> {
    return this.#id ?? (await this.statEntry(options)).id;
  }

  /** Reads the entry at `path` from the server (kind-specific). */
  protected abstract fetchEntry(path: string, options: CallOptions): Promise<Entry>;

  async #lookUp(signal?: AbortSignal): Promise<string> {
    const parent = this.#parent;
    const path = parent !== undefined
      ? joinPath(await parent.folder.locate(signal), parent.relative)
      : (await getMetadata(this.context.transport, this.#id!, { signal })).path;
    this.#path = path;
    return path;
  }
}
