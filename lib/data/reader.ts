/**
 * A store's one reader: {@linkcode Reader.open} turns a pinned {@linkcode FileVersion} into a
 * {@linkcode ByteSource}, the verified cached copy or the network through the store's transport.
 * Every read kind (frames, bytes, text, streams, cached paths, scans) takes its bytes from it
 * and nowhere else; what the bytes are parsed into is the read's business (`parse.ts`).
 *
 * @module
 */

import type { CachedFile, CopyWriter, DiskCache } from "../cache/cache.ts";
import { type ContentHasher, contentHasher, hashOf } from "../cache/content_hash.ts";
import { CacheMissError } from "../cache/errors.ts";
import { OpenCopy } from "../cache/open_copy.ts";
import type { Entry } from "../client/entry.ts";
import type { FileVersion, ReadOperation } from "../client/file_version.ts";
import type { Transport } from "../client/transport.ts";
import { SNIFF_BYTES } from "../registry/format_detection.ts";
import { type EarlyAnswer, verifiedBody } from "./body.ts";
import { peek } from "./chunks.ts";
import { FileChangedError } from "./errors.ts";
import type { ReadEvents } from "./read_events.ts";

/**
 * One call's side of a read: where it publishes, what it is, and how its download may go.
 *
 * @example
 * ```ts
 * import type { ReadCall } from "./reader.ts";
 * import { ReadEvents } from "./read_events.ts";
 * import assert from "node:assert/strict";
 *
 * const call: ReadCall = { events: new ReadEvents(), operation: "bytes" };
 * assert.equal(call.whole, undefined);
 * ```
 */
export interface ReadCall {
  /** Where the read publishes its bytes. */
  events: ReadEvents;
  /** What the read is, as its events name it. */
  operation: ReadOperation;
  /** Aborts the download. */
  signal?: AbortSignal;
  /** Reads the file's current entry, asked before a download starts again. */
  recheck?: (signal?: AbortSignal) => Promise<Entry>;
  /** Takes a download sent beside the stat (see `earlyDownload`), when the bytes are downloaded. */
  started?: () => Promise<EarlyAnswer | undefined>;
  /**
   * The bytes go whole into a file or memory, each chunk copied before the next is asked for:
   * the download then reads into one reused buffer.
   * @default {false}
   */
  whole?: boolean;
  /**
   * Whether a cached copy may serve the bytes (`false` reads the network, unless the version
   * was pinned to a copy).
   * @default {true}
   */
  cache?: boolean;
  /**
   * Bytes of the version an earlier download of this read published: this one publishes only
   * those past them, so progress counts the file once when a read resumes from a new download.
   * @default {0}
   */
  published?: number;
  /**
   * The `ETag` an earlier download of the version gave: the download asks for those very bytes
   * (`If-Match`), so a change the store's stat cannot see (same size, same second) ends it with a
   * `FileChangedError` before any byte of the new version.
   * @default none: the first answer's `ETag` is what later attempts ask for
   */
  ifMatch?: string;
}

/**
 * The version a read pinned, as the store's gate admitted it: `copy` when it must be (or is)
 * served from the cache, `entry` when it is the server's current version.
 *
 * @example
 * ```ts
 * import type { Pinned } from "./reader.ts";
 * import assert from "node:assert/strict";
 *
 * const version = { store: "s", path: "/p", id: "i", size: 1, modified: 0 };
 * const pinned: Pinned = { version };
 * assert.equal(pinned.copy, undefined);
 * ```
 */
export interface Pinned {
  /** The admitted version. */
  version: FileVersion;
  /** Its verified cached copy, when it is to be read from the cache (offline, or a lock). */
  copy?: CachedFile;
  /** The server's entry of it, when it is the current version. */
  entry?: Entry;
}

/**
 * A store's reader: where the bytes of a pinned version come from.
 *
 * @example
 * ```ts
 * import { Reader } from "./reader.ts";
 * import { ReadEvents } from "./read_events.ts";
 * import { collect } from "./chunks.ts";
 * import { versionOfEntry } from "../client/file_version.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const { transport } = store[STORE_CONTEXT];
 * const entry = await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").stat();
 * const reader = new Reader(transport, undefined);
 * const call = { events: new ReadEvents(), operation: "bytes" } as const;
 * await using bytes = await reader.open({ version: versionOfEntry(transport.url, entry) }, call);
 * assert.equal(bytes.copy, undefined); // no cache: the network
 * assert.equal((await collect(bytes.chunks())).byteLength, 13487);
 * ```
 */
export class Reader {
  /**
   * @param transport The store's transport: every download goes through it.
   * @param cache The store's local cache, when it has one.
   */
  constructor(readonly transport: Transport, readonly cache: DiskCache | undefined) {}

  /**
   * The bytes of `pinned`: its verified cached copy, held open until the source is disposed,
   * else the network.
   *
   * @throws {CacheMissError} when only the cache may serve it (offline, a lock) and its copy
   * was removed.
   *
   * @example
   * ```ts
   * import { Reader } from "./reader.ts";
   * import { ReadEvents } from "./read_events.ts";
   * import { CacheMissError } from "../cache/errors.ts";
   * import assert from "node:assert/strict";
   *
   * const version = { store: "http://127.0.0.1:9/terrain", path: "/a.csv", id: "i", size: 1, modified: 0 };
   * const copy = { file: "/nowhere/a.csv", version, cachedAt: new Date(), lastUsed: new Date() };
   * const reader = new Reader(undefined as never, undefined);
   * const call = { events: new ReadEvents(), operation: "text" } as const;
   * await assert.rejects(reader.open({ version, copy }, call), CacheMissError);
   * ```
   */
  async open(pinned: Pinned, call: ReadCall): Promise<ByteSource> {
    const { version } = pinned;
    const cache = call.cache === false ? undefined : this.cache;
    const found = pinned.copy ?? await cache?.lookup(version);
    const copy = found && await OpenCopy.open(found);
    if (pinned.copy !== undefined && copy === undefined) {
      throw new CacheMissError(
        `The cached copy of ${JSON.stringify(version.path)} was removed while it was read ` +
          "(another process cleared or trimmed the cache), and this read may take that version " +
          "only from the cache (the store is offline, or a lock pins it).",
        { path: version.path },
      );
    }
    // What passes a reader whole is hashed by the cache copy it goes into.
    const hasher = call.whole ? undefined : await contentHasher();
    return new ByteSource(this.transport, version, call, copy, hasher);
  }
}

/**
 * The bytes of one pinned version, from one place: the open cached copy (`copy`), or a verified
 * download through the store's transport, started on the first `head()` or `chunks()`.
 *
 * @example
 * ```ts
 * import { Reader } from "./reader.ts";
 * import { ReadEvents } from "./read_events.ts";
 * import { versionOfEntry } from "../client/file_version.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const { transport } = store[STORE_CONTEXT];
 * const entry = await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").stat();
 * const call = { events: new ReadEvents(), operation: "head" } as const;
 * const pinned = { version: versionOfEntry(transport.url, entry) };
 * await using bytes = await new Reader(transport, undefined).open(pinned, call);
 * assert.equal(new TextDecoder().decode((await bytes.head()).subarray(0, 8)), "Species,");
 * ```
 */
export class ByteSource implements AsyncDisposable {
  #body: AsyncGenerator<Uint8Array, void> | undefined;
  #rest: AsyncIterable<Uint8Array> | undefined;
  #published = false;
  #etag: string | undefined;

  /**
   * @param transport The store's transport.
   * @param version The version the bytes must be.
   * @param call The read it is for.
   * @param copy The version's verified cached copy, open, when it serves the bytes.
   * @param hasher Hashes what `chunks()` hands out, from byte 0 (not for a source read whole).
   */
  constructor(
    private readonly transport: Transport,
    readonly version: FileVersion,
    private readonly call: ReadCall,
    readonly copy?: OpenCopy,
    readonly hasher?: ContentHasher,
  ) {}

  /**
   * The `ETag` the download's bytes are checked against (`ifMatch`, or the first answer's), once
   * it started; `undefined` for a copy or a store that sends none.
   *
   * @example
   * ```ts
   * import { ByteSource } from "./reader.ts";
   * import { ReadEvents } from "./read_events.ts";
   * import assert from "node:assert/strict";
   *
   * const version = { store: "s", path: "/a.csv", id: "i", size: 0, modified: 1 };
   * const call = { events: new ReadEvents(), operation: "bytes", ifMatch: '"x"' } as const;
   * await using source = new ByteSource(undefined as never, version, call);
   * assert.equal(source.etag, '"x"');
   * ```
   */
  get etag(): string | undefined {
    return this.call.ifMatch ?? this.#etag;
  }

  /**
   * The first bytes (up to what format detection looks at); `chunks()` still starts at byte 0.
   *
   * @example
   * ```ts
   * import { ByteSource } from "./reader.ts";
   * import { ReadEvents } from "./read_events.ts";
   * import { OpenCopy } from "../cache/open_copy.ts";
   * import assert from "node:assert/strict";
   *
   * const version = { store: "s", path: "/a.csv", id: "i", size: 4, modified: 1 };
   * const bytes = new TextEncoder().encode("a\n1\n");
   * const copy = await OpenCopy.open({ file: "/x", version, cachedAt: new Date(), lastUsed: new Date(), bytes });
   * const call = { events: new ReadEvents(), operation: "head" } as const;
   * await using source = new ByteSource(undefined as never, version, call, copy);
   * assert.deepEqual(await source.head(), bytes);
   * ```
   */
  async head(): Promise<Uint8Array> {
    if (this.#fromCopy()) return await this.copy!.head(SNIFF_BYTES);
    const { head, chunks } = await peek(this.#download(), SNIFF_BYTES);
    this.#rest = chunks;
    return head;
  }

  /**
   * All the bytes, in order (once, for a download).
   *
   * @example
   * ```ts
   * import { ByteSource } from "./reader.ts";
   * import { ReadEvents } from "./read_events.ts";
   * import { OpenCopy } from "../cache/open_copy.ts";
   * import assert from "node:assert/strict";
   *
   * const version = { store: "s", path: "/a.csv", id: "i", size: 4, modified: 1 };
   * const bytes = new TextEncoder().encode("a\n1\n");
   * const copy = await OpenCopy.open({ file: "/x", version, cachedAt: new Date(), lastUsed: new Date(), bytes });
   * const call = { events: new ReadEvents(), operation: "bytes" } as const;
   * await using source = new ByteSource(undefined as never, version, call, copy);
   * assert.deepEqual(await Array.fromAsync(source.chunks()), [bytes]);
   * ```
   */
  chunks(): AsyncIterable<Uint8Array> {
    const chunks = this.#fromCopy() ? this.copy!.chunks() : this.#rest ?? this.#download();
    this.#rest = undefined;
    return this.hasher === undefined ? chunks : hashing(chunks, this.hasher);
  }

  /**
   * The version the bytes `chunks()` gave were, with their content hash (once they were read to
   * the end; not for a source opened `whole`, whose copy hashes them).
   *
   * @throws {FileChangedError} when the pinned version's hash is another.
   *
   * @example
   * ```ts
   * import { Reader } from "./reader.ts";
   * import { ReadEvents } from "./read_events.ts";
   * import assert from "node:assert/strict";
   *
   * const version = { store: "s", path: "/a.csv", id: "i", size: 0, modified: 1 };
   * const call = { events: new ReadEvents(), operation: "bytes" } as const;
   * await using bytes = await new Reader(undefined as never, undefined).open({ version }, call);
   * assert.equal(bytes.hashed().hash, "xxh64:ef46db3751d8e999"); // no bytes
   * ```
   */
  hashed(): FileVersion {
    return checkHash(this.version, { ...this.version, hash: `xxh64:${this.hasher!.digest()}` });
  }

  /**
   * Moves the download into the cache copy through `writer` (published as `format`, and opened)
   * or, without one, into memory. When the cache fails midway (a full disk, its folder
   * removed), the bytes it took are read back from the copy's temporary file and the download
   * goes on in memory; a published copy removed before it could be opened (another process's
   * `clear()`) is downloaded again into memory. With `memory: false` nothing is kept in memory
   * (the result then holds neither). `tap` sees each chunk as it arrives, before it is written
   * (a source not opened `whole` hands out a fresh buffer per chunk, which `tap` may keep).
   *
   * @throws {FileChangedError} when the bytes' hash is not the pinned version's.
   *
   * @example
   * ```ts
   * import { Reader } from "./reader.ts";
   * import { ReadEvents } from "./read_events.ts";
   * import { versionOfEntry } from "../client/file_version.ts";
   * import { STORE_CONTEXT } from "../handles/store_context.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const { transport } = store[STORE_CONTEXT];
   * const entry = await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").stat();
   * const call = { events: new ReadEvents(), operation: "dataframe", whole: true } as const;
   * const pinned = { version: versionOfEntry(transport.url, entry) };
   * await using bytes = await new Reader(transport, undefined).open(pinned, call);
   * assert.equal((await bytes.whole(undefined)).bytes?.byteLength, 13487);
   * ```
   */
  async whole(
    writer: CopyWriter | undefined,
    { format, memory = true, tap }: {
      format?: string;
      memory?: boolean;
      tap?: (chunk: Uint8Array) => void;
    } = {},
  ): Promise<{ copy?: OpenCopy; bytes?: Uint8Array<ArrayBuffer>; version: FileVersion }> {
    const { version } = this;
    let bytes = writer === undefined ? new Uint8Array(version.size) : undefined;
    let at = 0;
    try {
      for await (const chunk of this.chunks()) {
        tap?.(chunk);
        if (writer !== undefined && !await writer.write(chunk)) {
          if (!memory) return { version };
          [bytes, writer] = [await writer.salvage(), undefined];
        }
        bytes?.set(chunk, at);
        at += chunk.byteLength;
      }
      const kept = await writer?.commit(format);
      const copy = kept && await OpenCopy.open(kept);
      if (copy !== undefined) return { copy, version: checkHash(version, kept!.version) };
      if (kept !== undefined) {
        // The early answer was this source's own: the new download asks afresh.
        const call = { ...this.call, started: undefined };
        await using again = new ByteSource(this.transport, kept.version, call);
        return memory ? await again.whole(undefined) : { version: kept.version };
      }
      if (!memory) return { version };
      bytes ??= await writer!.salvage();
      const hash = version.hash && await hashOf(bytes);
      return { bytes, version: hash ? checkHash(version, { ...version, hash }) : version };
    } finally {
      await writer?.abort();
    }
  }

  /**
   * Ends the download, if one is under way, and closes the cached copy.
   *
   * @example
   * ```ts
   * import { ByteSource } from "./reader.ts";
   * import { ReadEvents } from "./read_events.ts";
   *
   * const version = { store: "s", path: "/a.csv", id: "i", size: 0, modified: 1 };
   * const call = { events: new ReadEvents(), operation: "bytes" } as const;
   * await new ByteSource(undefined as never, version, call)[Symbol.asyncDispose]();
   * ```
   */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#body?.return();
    await this.copy?.[Symbol.asyncDispose]();
  }

  /**
   * Whether the copy serves the bytes; the first time its bytes are asked for, they are
   * published all at once (a copy only found, as `cachedPath()` finds it, reads none).
   */
  #fromCopy(): boolean {
    if (this.copy === undefined || this.#published) return this.copy !== undefined;
    this.#published = true;
    const { events, operation } = this.call;
    const { path, size } = this.version;
    events.publish({ kind: "bytes", operation, path, count: size });
    return true;
  }

  /** The verified body of the version, publishing its bytes as they arrive. */
  #download(): AsyncGenerator<Uint8Array, void> {
    const { events, operation, signal, recheck, started, whole, ifMatch } = this.call;
    const { path } = this.version;
    let published = this.call.published ?? 0;
    const onBytes = (count: number) => {
      const fresh = Math.max(0, count - published);
      published = Math.max(0, published - count);
      if (fresh > 0) events.publish({ kind: "bytes", operation, path, count: fresh });
    };
    this.#body = verifiedBody({
      transport: this.transport,
      expected: this.version,
      recheck,
      signal,
      onBytes,
      started: started?.(),
      reuse: whole,
      ifMatch,
      onETag: (etag) => this.#etag = etag,
    });
    return this.#body;
  }
}

/**
 * `actual`, when its bytes are the ones `pinned` names (where both hashes are known).
 *
 * @throws {FileChangedError} when the two hashes differ.
 *
 * @example
 * ```ts
 * import { checkHash } from "./reader.ts";
 * import { FileChangedError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const pinned = { store: "s", path: "/p", id: "i", size: 1, modified: 0, hash: "xxh64:01" };
 * assert.throws(() => checkHash(pinned, { ...pinned, hash: "xxh64:02" }), FileChangedError);
 * ```
 */
export function checkHash(pinned: FileVersion, actual: FileVersion): FileVersion {
  if (pinned.hash !== undefined && actual.hash !== undefined && pinned.hash !== actual.hash) {
    throw new FileChangedError(pinned, actual, "since its version was pinned");
  }
  return actual;
}

/** Passes chunks on, hashing them. */
async function* hashing(
  chunks: AsyncIterable<Uint8Array>,
  hasher: ContentHasher,
): AsyncGenerator<Uint8Array, void> {
  for await (const chunk of chunks) {
    hasher.update(chunk);
    yield chunk;
  }
}
