/**
 * zod schemas for every Terrain answer the client reads, and the types inferred from them.
 *
 * The objects are loose: fields we do not use pass through untouched, so a server that adds
 * fields does not break the client, while a missing or mistyped field we rely on is reported as a
 * `ProtocolError` naming the endpoint, the field path and what arrived (`parse_body.ts`). The
 * stat answer's schema lives in `stat_answer.ts`; both are re-exported here.
 *
 * @module
 */

import { loadZodModule, type z as Z } from "../deps.ts";

const { z } = await loadZodModule();

/**
 * The schema, its check compiled (`z.compile`'s generated code) at its first parse: compiling costs
 * milliseconds that a process which never lists a folder or searches should not pay on its first
 * answer. A schema the compiler cannot model keeps zod's runtime check, as with `z.compile`.
 */
function compiledOnFirstUse<T extends Z.ZodType>(schema: T): T {
  let parser: Parser<T> | undefined;
  return z.withParser(schema, (input) => (parser ??= compileOrRuntime(schema))(input));
}

/** A generated check: the parsed value, or `z.INVALID` to hand the input to zod's runtime. */
type Parser<T extends Z.ZodType> = (input: unknown) => Z.output<T> | typeof z.INVALID;

function compileOrRuntime<T extends Z.ZodType>(schema: T): Parser<T> {
  try {
    return z.core.compileFn(schema) as Parser<T>;
  } catch {
    return () => z.INVALID;
  }
}

import { byteSize, millis, permission } from "./fields.ts";

/**
 * One entry (file or folder) of a paged listing.
 *
 * @example
 * ```ts
 * import { ListingItem } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const item = ListingItem.parse({
 *   id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364", path: "/iplant/home/shared/a.csv", label: "a.csv",
 *   infoType: "csv", isFavorite: false, badName: false, permission: "read",
 *   "date-created": 1469698401000, "date-modified": 1469698401000, "file-size": 2048,
 * });
 * assert.equal(item["file-size"], 2048);
 * ```
 */
export const ListingItem = z.looseObject({
  id: z.string(),
  path: z.string(),
  label: z.string(),
  /** `null` for folders; a Terrain info type (`csv`, `unknown`, …) for files. */
  infoType: z.string().nullable(),
  isFavorite: z.boolean(),
  badName: z.boolean(),
  permission,
  "date-created": millis,
  "date-modified": millis,
  /** Bytes; 0 for folders. */
  "file-size": byteSize,
});
/**
 * One entry (file or folder) of a paged listing, as parsed.
 *
 * @example
 * ```ts
 * import type { ListingItem } from "./schemas.ts";
 *
 * const sizes = (items: ListingItem[]) => items.map((item) => item["file-size"]);
 * ```
 */
export type ListingItem = Z.infer<typeof ListingItem>;

/**
 * A page of a folder listing: the folder itself, this page's folders and files, and `total`
 * (items across all pages matching the filters; `null` when the page is empty).
 *
 * Compiled (`z.compile`, at its first parse): a listing checks a thousand items per page, and the
 * compiled check is several times faster than zod's runtime walk, with the same results and the
 * same errors.
 *
 * @example
 * ```ts
 * import { PagedListing } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const page = PagedListing.parse({
 *   id: "1a6f0c2e-54e1-11e6-9a2d-90e2ba675364", path: "/iplant/home/shared/empty", label: "empty",
 *   infoType: null, isFavorite: false, badName: false, permission: "read",
 *   "date-created": 0, "date-modified": 0, "file-size": 0, hasSubDirs: true,
 *   total: null, totalBad: 0, folders: [], files: [],
 * });
 * assert.equal(page.total, null);
 * ```
 */
export const PagedListing = compiledOnFirstUse(z.looseObject({
  ...ListingItem.shape,
  hasSubDirs: z.boolean(),
  total: z.number().nullable(),
  totalBad: z.number(),
  folders: z.array(ListingItem),
  files: z.array(ListingItem),
}));
/**
 * A page of a folder listing, as parsed.
 *
 * @example
 * ```ts
 * import type { PagedListing } from "./schemas.ts";
 *
 * const entries = (page: PagedListing) => [...page.folders, ...page.files];
 * ```
 */
export type PagedListing = Z.infer<typeof PagedListing>;

/**
 * A sub-folder in a folder-only listing (`filesystem/directory`).
 *
 * @example
 * ```ts
 * import { DirectoryFolder } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const folder = DirectoryFolder.parse({
 *   id: "5e7f8a90-54e1-11e6-9a2d-90e2ba675364", path: "/iplant/home/shared/x", label: "x",
 *   permission: "read", "date-created": 0, "date-modified": 0,
 *   isFavorite: false, badName: false, hasSubDirs: true,
 * });
 * assert.equal(folder.label, "x");
 * ```
 */
export const DirectoryFolder = z.looseObject({
  id: z.string(),
  path: z.string(),
  label: z.string(),
  permission,
  "date-created": millis,
  "date-modified": millis,
  isFavorite: z.boolean(),
  badName: z.boolean(),
  hasSubDirs: z.boolean(),
});

/**
 * A folder with its sub-folders (no files, no paging), from `filesystem/directory?path=…`.
 *
 * @example
 * ```ts
 * import { DirectoryListing } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const listing = DirectoryListing.parse({
 *   id: "c2d3e4f5-1a2b-11ea-9c1d-90e2ba675364", path: "/iplant/home/shared", label: "Community Data",
 *   permission: "read", "date-created": 0, "date-modified": 0,
 *   isFavorite: false, badName: true, hasSubDirs: true, folders: [],
 * });
 * assert.equal(listing.folders.length, 0);
 * ```
 */
export const DirectoryListing = z.looseObject({
  ...DirectoryFolder.shape,
  folders: z.array(DirectoryFolder),
});
/**
 * A folder with its sub-folders, as parsed.
 *
 * @example
 * ```ts
 * import type { DirectoryListing } from "./schemas.ts";
 *
 * const childPaths = (listing: DirectoryListing) => listing.folders.map((folder) => folder.path);
 * ```
 */
export type DirectoryListing = Z.infer<typeof DirectoryListing>;

/**
 * One of the four roots of `filesystem/root`.
 *
 * @example
 * ```ts
 * import { RootEntry } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const root = RootEntry.parse({
 *   id: "7fa53922-e104-11e3-80a7-6abdce5a08d5", path: "/iplant/home/shared", label: "Community Data",
 *   "date-created": 0, "date-modified": 0, permission: "read", hasSubDirs: true,
 * });
 * assert.equal(root.label, "Community Data");
 * ```
 */
export const RootEntry = z.looseObject({
  id: z.string(),
  path: z.string(),
  label: z.string(),
  "date-created": millis,
  "date-modified": millis,
  permission,
  hasSubDirs: z.boolean(),
});

/**
 * `filesystem/root`: the user's home, community data, "shared with me" and trash, plus the
 * base paths (snake_case keys, as Terrain sends them).
 *
 * @example
 * ```ts
 * import { RootListing } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const roots = RootListing.parse({
 *   roots: [],
 *   "base-paths": {
 *     user_home_path: "/iplant/home/demo",
 *     user_trash_path: "/iplant/trash/home/de-irods/demo",
 *     base_trash_path: "/iplant/trash/home/de-irods",
 *   },
 * });
 * assert.equal(roots["base-paths"].user_home_path, "/iplant/home/demo");
 * ```
 */
export const RootListing = z.looseObject({
  roots: z.array(RootEntry),
  "base-paths": z.looseObject({
    user_home_path: z.string(),
    user_trash_path: z.string(),
    base_trash_path: z.string(),
  }),
});
/**
 * The answer of `filesystem/root`, as parsed.
 *
 * @example
 * ```ts
 * import type { RootListing } from "./schemas.ts";
 *
 * const home = (answer: RootListing) => answer["base-paths"].user_home_path;
 * ```
 */
export type RootListing = Z.infer<typeof RootListing>;

/**
 * `filesystem/file/manifest`: detected content type, Terrain info type, and public URLs (one
 * `anonymous` URL when anyone may read the file, else none).
 *
 * @example
 * ```ts
 * import { Manifest } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const manifest = Manifest.parse({ "content-type": "text/csv", infoType: "csv", urls: [] });
 * assert.equal(manifest["content-type"], "text/csv");
 * ```
 */
export const Manifest = z.looseObject({
  "content-type": z.string(),
  infoType: z.string(),
  urls: z.array(z.looseObject({ label: z.string(), url: z.string() })),
});
/**
 * The answer of `filesystem/file/manifest`, as parsed.
 *
 * @example
 * ```ts
 * import type { Manifest } from "./schemas.ts";
 *
 * const publicUrl = (manifest: Manifest) => manifest.urls.find((url) => url.label === "anonymous")?.url;
 * ```
 */
export type Manifest = Z.infer<typeof Manifest>;

/**
 * One comment on a file or folder; retracted comments are still listed.
 *
 * @example
 * ```ts
 * import { Comment } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const comment = Comment.parse({
 *   id: "9e1d7c1a-2b3c-11ee-8f44-0242ac120002", commenter: "demo", post_time: 1689955200000,
 *   retracted: false, comment: "See README.txt.",
 * });
 * assert.equal(comment.commenter, "demo");
 * ```
 */
export const Comment = z.looseObject({
  id: z.string(),
  commenter: z.string(),
  post_time: millis,
  retracted: z.boolean(),
  comment: z.string(),
});

/**
 * `filesystem/entry/{id}/comments`.
 *
 * @example
 * ```ts
 * import { CommentList } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(CommentList.parse({ comments: [] }).comments.length, 0);
 * ```
 */
export const CommentList = z.looseObject({ comments: z.array(Comment) });
/**
 * The answer of the comments endpoint, as parsed.
 *
 * @example
 * ```ts
 * import type { CommentList } from "./schemas.ts";
 *
 * const count = (answer: CommentList) => answer.comments.length;
 * ```
 */
export type CommentList = Z.infer<typeof CommentList>;

/**
 * A metadata AVU (attribute, value, unit) with its nested AVUs; the DataCite template keeps
 * sub-properties (an identifier's `identifierType`, a creator's `affiliation`) nested.
 * A `null` unit (the column is nullable) reads as `""`; missing `avus` reads as `[]`.
 *
 * @example Flatten nested AVUs
 * ```ts
 * import type { Avu } from "./schemas.ts";
 *
 * const flatten = (avus: Avu[]): Avu[] => avus.flatMap((avu) => [avu, ...flatten(avu.avus)]);
 * ```
 */
export interface Avu {
  /** AVU id. */
  id: string;
  /** Attribute name, exactly as stored (variants such as `datacite.title` or trailing tabs). */
  attr: string;
  /** Value, possibly `""`. */
  value: string;
  /** Unit, usually `""`. */
  unit: string;
  /** Item id for top-level AVUs, parent AVU id for nested ones. */
  target_id?: string;
  /** Short username of the creator. */
  created_by?: string;
  /** Short username of the last editor. */
  modified_by?: string;
  /** Creation time, ms since the epoch. */
  created_on?: number;
  /** Modification time, ms since the epoch. */
  modified_on?: number;
  /** Nested AVUs. */
  avus: Avu[];
  /** Fields this client does not use, kept as sent. */
  [key: string]: unknown;
}

/**
 * Schema of {@linkcode Avu} (recursive).
 *
 * @example
 * ```ts
 * import { Avu } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const avu = Avu.parse({
 *   id: "5e3d8fa0-5a8e-11ed-9b6a-0242ac120002", attr: "identifier", value: "10.25739/4fh7-y927", unit: null,
 *   avus: [{ id: "6f4e90b1-5a8e-11ed-9b6a-0242ac120002", attr: "identifierType", value: "DOI", unit: "" }],
 * });
 * assert.equal(avu.unit, "");
 * assert.deepEqual(avu.avus[0].avus, []);
 * ```
 */
export const Avu: Z.ZodType<Avu, unknown> = z.looseObject({
  id: z.string(),
  attr: z.string(),
  value: z.string(),
  unit: z.string().nullish().transform((unit) => unit ?? ""),
  target_id: z.string().optional(),
  created_by: z.string().optional(),
  modified_by: z.string().optional(),
  created_on: millis.optional(),
  modified_on: millis.optional(),
  get avus() {
    return z.array(Avu).default([]);
  },
});

/**
 * A raw iRODS AVU (`ipc*` attributes are hidden by the server).
 *
 * @example
 * ```ts
 * import { IrodsAvu } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(IrodsAvu.parse({ attr: "source", value: "field-7", unit: "" }).attr, "source");
 * ```
 */
export const IrodsAvu = z.looseObject({
  attr: z.string(),
  value: z.string(),
  unit: z.string().nullish().transform((unit) => unit ?? ""),
});

/**
 * `filesystem/{id}/metadata`: template AVUs (`avus`, where Data Commons DataCite metadata lives),
 * raw iRODS AVUs, and the item's path.
 *
 * @example
 * ```ts
 * import { MetadataResponse } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const metadata = MetadataResponse.parse({ path: "/iplant/home/shared/x", avus: [], "irods-avus": [] });
 * assert.equal(metadata.path, "/iplant/home/shared/x");
 * ```
 */
export const MetadataResponse = z.looseObject({
  path: z.string(),
  avus: z.array(Avu),
  "irods-avus": z.array(IrodsAvu),
});
/**
 * The answer of the metadata endpoint, as parsed.
 *
 * @example
 * ```ts
 * import type { MetadataResponse } from "./schemas.ts";
 *
 * const attributes = (answer: MetadataResponse) => answer.avus.map((avu) => avu.attr);
 * ```
 */
export type MetadataResponse = Z.infer<typeof MetadataResponse>;

const ClauseArgument = z.looseObject({ type: z.string(), summary: z.string() });

/**
 * `filesystem/search-documentation`: the search clauses with their arguments, and the sortable
 * fields (sent in random order).
 *
 * @example
 * ```ts
 * import { SearchDocumentation } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const docs = SearchDocumentation.parse({
 *   clauses: { path: { summary: "Searches by path prefix", args: { prefix: { type: "string", summary: "The prefix" } } } },
 *   sortFields: ["path", "label"],
 * });
 * assert.deepEqual(Object.keys(docs.clauses), ["path"]);
 * ```
 */
export const SearchDocumentation = z.looseObject({
  clauses: z.record(
    z.string(),
    z.looseObject({ summary: z.string(), args: z.record(z.string(), ClauseArgument) }),
  ),
  sortFields: z.array(z.string()),
});
/**
 * The answer of the search-documentation endpoint, as parsed.
 *
 * @example
 * ```ts
 * import type { SearchDocumentation } from "./schemas.ts";
 *
 * const clauseNames = (docs: SearchDocumentation) => Object.keys(docs.clauses);
 * ```
 */
export type SearchDocumentation = Z.infer<typeof SearchDocumentation>;

const SearchAvu = z.looseObject({
  attribute: z.string(),
  value: z.string(),
  unit: z.string().nullish(),
});

/**
 * One hit of `filesystem/search` (Elasticsearch's shape): the indexed document in `_source`.
 *
 * @example
 * ```ts
 * import { SearchHit } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const hit = SearchHit.parse({
 *   _id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364",
 *   _source: {
 *     doc_type: "file", id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364", path: "/iplant/home/shared/a.csv",
 *     label: "a.csv", creator: "curator#iplant", fileType: "csv", dateCreated: 0, dateModified: 0,
 *     fileSize: 12, metadata: { irods: null, cyverse: [{ attribute: "subject", value: "maize", unit: "" }] },
 *   },
 *   fields: { permission: ["read"] },
 * });
 * assert.equal(hit._source.metadata?.cyverse?.[0].value, "maize");
 * ```
 */
export const SearchHit = z.looseObject({
  _id: z.string(),
  _source: z.looseObject({
    doc_type: z.enum(["file", "folder"]),
    id: z.string(),
    path: z.string(),
    label: z.string(),
    creator: z.string().nullish(),
    fileType: z.string().nullish(),
    dateCreated: millis,
    dateModified: millis,
    fileSize: byteSize,
    metadata: z.looseObject({
      irods: z.array(SearchAvu).nullish(),
      cyverse: z.array(SearchAvu).nullish(),
    }).nullish(),
  }),
  fields: z.looseObject({ permission: z.array(permission).optional() }).optional(),
});
/**
 * One search hit, as parsed.
 *
 * @example
 * ```ts
 * import type { SearchHit } from "./schemas.ts";
 *
 * const pathOf = (hit: SearchHit) => hit._source.path;
 * ```
 */
export type SearchHit = Z.infer<typeof SearchHit>;

/**
 * The answer of `filesystem/search`: the total (exact, or "at least 10,000"), the page's hits
 * (absent when none) and, when scrolling, the id of the next page.
 *
 * Compiled at its first parse, like {@linkcode PagedListing}: a page carries up to
 * thousands of hits, and zod's runtime walk of them cost about as much as parsing their JSON.
 *
 * @example
 * ```ts
 * import { SearchAnswer } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const answer = SearchAnswer.parse({ total: { value: 0, relation: "eq" }, max_score: null });
 * assert.deepEqual(answer.hits, undefined);
 * ```
 */
export const SearchAnswer = compiledOnFirstUse(z.looseObject({
  total: z.looseObject({ value: z.number(), relation: z.enum(["eq", "gte"]) }),
  hits: z.array(SearchHit).optional(),
  scroll_id: z.string().optional(),
}));
/**
 * The answer of `filesystem/search`, as parsed.
 *
 * @example
 * ```ts
 * import type { SearchAnswer } from "./schemas.ts";
 *
 * const count = (answer: SearchAnswer) => answer.hits?.length ?? 0;
 * ```
 */
export type SearchAnswer = Z.infer<typeof SearchAnswer>;

/**
 * The Keycloak token answer relayed by `token/keycloak`; only `access_token` and `expires_in`
 * are needed.
 *
 * @example
 * ```ts
 * import { TokenResponse } from "./schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const grant = TokenResponse.parse({ access_token: "a.b.c", expires_in: 300, token_type: "Bearer" });
 * assert.equal(grant.expires_in, 300);
 * ```
 */
export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  refresh_expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  token_type: z.string().optional(),
  "not-before-policy": z.number().optional(),
  session_state: z.string().optional(),
  scope: z.string().optional(),
});
/**
 * The answer of the token endpoint, as parsed.
 *
 * @example
 * ```ts
 * import type { TokenResponse } from "./schemas.ts";
 *
 * const lifetimeMs = (grant: TokenResponse) => grant.expires_in * 1000;
 * ```
 */
export type TokenResponse = Z.infer<typeof TokenResponse>;

export { StatAnswer, StatInfo } from "./stat_answer.ts";
export { type BodyContext, parseBody } from "./parse_body.ts";
