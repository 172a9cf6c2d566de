/**
 * A file's bytes as the listing describes them, or an error: never a truncated or overlong body.
 *
 * The transport already retries failed requests and checks bodies against `Content-Length`;
 * Terrain's downloads often have none, so here every body is also counted against the file's
 * listed size (and hashed when the service gave an MD5). A body that breaks, stalls, ends short
 * or runs long is requested again; without Range support the new body is read from its start
 * and the bytes already delivered are skipped, so the consumer sees one seamless stream. Before
 * resuming, the file's size and date are checked again (when the caller can), so bytes of two
 * versions are never joined.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { pipeBodyTo } from "../client/body.ts";
import { type Download, download } from "../client/endpoints.ts";
import { BadRequestError, isAbortError, NetworkError, type TernError } from "../client/errors.ts";
import { backoffDelay, sleep } from "../client/retry.ts";
import type { Transport } from "../client/transport.ts";
import type { Entry } from "../client/entry.ts";
import { FileChangedError, IntegrityError } from "./errors.ts";

/**
 * How many times a read starts over from scratch after the file changed on the server or failed
 * its checksum (see {@linkcode restartable}).
 *
 * @example
 * ```ts
 * import { MAX_RESTARTS } from "./body.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MAX_RESTARTS, 1);
 * ```
 */
export const MAX_RESTARTS = 1;

/**
 * The version of the file a body must match.
 *
 * @example
 * ```ts
 * import type { ExpectedFile } from "./body.ts";
 *
 * const expected: ExpectedFile = { path: "/iplant/home/shared/a.csv", size: 2048, modified: 1469698402000 };
 * ```
 */
export interface ExpectedFile {
  /** Data-store path. */
  path: string;
  /** Listed size in bytes. */
  size: number;
  /** Listed date-modified, epoch ms. */
  modified: number;
  /** MD5 (hex), when the service gave one. */
  md5?: string;
}

/**
 * Options of {@linkcode verifiedBody}.
 *
 * @example
 * ```ts
 * import { type BodyOptions, verifiedBody } from "./body.ts";
 * import { collect } from "./chunks.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
 * const { path, size, modified } = await file.stat();
 * const options: BodyOptions = {
 *   transport: store[STORE_CONTEXT].transport,
 *   expected: { path, size, modified: modified.getTime() },
 *   recheck: (signal) => file.stat({ refresh: true, signal }),
 * };
 * assert.equal((await collect(verifiedBody(options))).byteLength, size);
 * ```
 */
export interface BodyOptions {
  /** The store's transport; its `retries` policy bounds the re-downloads. */
  transport: Transport;
  /** What the bytes must be. */
  expected: ExpectedFile;
  /**
   * Reads the file's current size and date from the server, asked before a re-download; a
   * change ends the read with a {@linkcode FileChangedError}.
   */
  recheck?: (signal?: AbortSignal) => Promise<{ size: number; modified: Date | number }>;
  /** Aborts the download. */
  signal?: AbortSignal;
  /** Told how many new bytes were delivered, as they are. */
  onBytes?: (count: number) => void;
  /** Lets the consumer take the rest of the body natively into a file. */
  handOff?: BodyHandOff;
  /** A download of the file already sent; the first attempt reads it instead of asking again. */
  started?: EarlyDownload;
}

/**
 * A download sent before the file's stat has come back, so that a first read waits one round
 * trip instead of two. The first attempt of {@linkcode verifiedBody} takes it; a caller that
 * turns out not to need it (the stat failed, named a folder, or found a cached copy) drops it,
 * which cancels its body and gives the request slot back.
 *
 * @example
 * ```ts
 * import { EarlyDownload, verifiedBody } from "./body.ts";
 * import { collect } from "./chunks.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const { transport } = store[STORE_CONTEXT];
 * const started = new EarlyDownload(transport, path);
 * const { size, modified } = await store.file(path).stat(); // meanwhile, the download is on its way
 * const expected = { path, size, modified: modified.getTime() };
 * assert.equal((await collect(verifiedBody({ transport, expected, started }))).byteLength, 13487);
 * started.drop(); // taken already: nothing to cancel
 * ```
 */
export class EarlyDownload {
  #answer: Promise<Download> | undefined;
  readonly #controller = new AbortController();

  /** Sends the download of `path` now; `signal` aborts it. */
  constructor(transport: Transport, path: string, signal?: AbortSignal) {
    const controller = this.#controller;
    if (signal !== undefined) follow(signal, controller);
    this.#answer = download(transport, path, { signal: controller.signal });
    // A failure reaches whoever takes it; a dropped one is of no interest.
    this.#answer.catch(() => {});
  }

  /**
   * The answer, for the one attempt that reads it (later calls get `undefined`); `signal`, the
   * reader's own, aborts it from now on too.
   */
  take(signal?: AbortSignal): Promise<Download> | undefined {
    const answer = this.#answer;
    this.#answer = undefined;
    if (answer !== undefined && signal !== undefined) follow(signal, this.#controller);
    return answer;
  }

  /** Cancels the download unless it was taken. */
  drop(): void {
    if (this.take() !== undefined) this.#controller.abort();
  }
}

/** Aborts `controller` when `signal` aborts. */
function follow(signal: AbortSignal, controller: AbortController): void {
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
}

/**
 * A consumer's request to receive the rest of a body in a file rather than chunk by chunk: set
 * `file` between two reads, and the next read moves every byte left into it natively (no
 * JavaScript per chunk), checks the size (and MD5) as usual, and ends the body. Bytes a body
 * could not hand on natively still come as chunks, for the consumer to append itself (open the
 * file in append mode: each native pipe appends through its own handle).
 *
 * @example
 * ```ts
 * import type { BodyHandOff } from "./body.ts";
 *
 * const handOff: BodyHandOff = {};
 * handOff.file = { path: "/tmp/copy.csv" }; // before the next read of the body
 * ```
 */
export interface BodyHandOff {
  /** The file to append the rest of the body to. */
  file?: { path: string };
}

/**
 * Yields the file's bytes in order, exactly `expected.size` of them, re-downloading (and
 * skipping what was already delivered) after a broken, stalled, short or overlong body, at
 * most `transport.policy.retries` times. Stopping the iteration early cancels the download.
 *
 * @throws {IntegrityError} when the bytes never matched the listed size (or MD5).
 * @throws {NetworkError} when the transfer kept failing.
 * @throws {FileChangedError} when the file changed on the server between attempts.
 *
 * @example
 * ```ts
 * import { verifiedBody } from "./body.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
 * const { path, size, modified } = await file.stat();
 * const expected = { path, size, modified: modified.getTime() };
 * let received = 0;
 * for await (const chunk of verifiedBody({ transport: store[STORE_CONTEXT].transport, expected })) received += chunk.byteLength;
 * assert.equal(received, 13487);
 * ```
 */
export async function* verifiedBody(options: BodyOptions): AsyncGenerator<Uint8Array, void> {
  const { transport, expected, signal } = options;
  const { path, size } = expected;
  const attempts = transport.policy.retries + 1;
  const hash = expected.md5 === undefined ? undefined : createHash("md5");
  let delivered = 0;
  for (let attempt = 1;; attempt++) {
    if (attempt > 1) {
      const { retryBaseMs, retryMaxMs } = transport.policy;
      await sleep(backoffDelay(attempt - 2, retryBaseMs, retryMaxMs), signal);
      if (options.recheck !== undefined) await checkUnchanged(options, signal);
    }
    // Failures before the body are the transport's to retry; they end the read here.
    const early = attempt === 1 ? options.started?.take(signal) : undefined;
    const answer = await (early ?? download(transport, path, { signal }));
    let position = 0;
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined = answer.body.getReader();
    try {
      while (true) {
        const target = options.handOff?.file;
        if (target !== undefined && position >= delivered) {
          reader.releaseLock();
          reader = undefined;
          const before = await sizeOf(target.path);
          const moved = async () => {
            // Whatever reached the file counts as delivered, also when the pipe broke.
            const grown = (await sizeOf(target.path)) - before;
            position += grown;
            delivered += grown;
            if (hash !== undefined) await hashRange(hash, target.path, before, grown);
            if (position > size) throw tooLong(path, size);
          };
          let piped: number | undefined;
          try {
            const sink = await Deno.open(target.path, { write: true, append: true });
            piped = await pipeBodyTo(answer.body, {
              writable: sink.writable,
              written: () => sizeOf(target.path),
              onBytes: options.onBytes,
            });
            if (piped === undefined) sink.close();
          } catch (error) {
            await moved();
            throw error;
          }
          if (piped !== undefined) {
            await moved();
            break;
          }
          reader = answer.body.getReader();
        }
        const { done, value: chunk } = await reader.read();
        if (done) break;
        let piece = chunk;
        if (position < delivered) {
          const skip = Math.min(delivered - position, chunk.byteLength);
          position += skip;
          if (skip === chunk.byteLength) continue;
          piece = chunk.subarray(skip);
        }
        position += piece.byteLength;
        if (position > size) throw tooLong(path, size);
        delivered += piece.byteLength;
        hash?.update(piece);
        options.onBytes?.(piece.byteLength);
        yield piece;
      }
      if (position < size) {
        throw new IntegrityError(
          `${JSON.stringify(path)} ended after ${position} of its listed ${size} bytes.`,
          { path, endpoint: "fileio/download" },
        );
      }
    } catch (error) {
      if (!resumable(error)) throw error;
      if (attempt >= attempts) throw gaveUp(error as TernError, attempts);
      continue;
    } finally {
      // Ends the download when the consumer stopped early or the body failed.
      (reader ?? answer.body).cancel().catch(() => {});
    }
    if (hash !== undefined) {
      const actual = hash.digest("hex");
      if (actual !== expected.md5!.toLowerCase()) {
        // The bytes were delivered already; the caller must start over (see `restartable`).
        throw new IntegrityError(
          `${JSON.stringify(path)} arrived complete but its MD5 is ${actual}, not the listed ` +
            `${expected.md5}.`,
          { path, endpoint: "fileio/download", code: "MD5_MISMATCH" },
        );
      }
    }
    return;
  }
}

/**
 * What {@linkcode entryBody} needs besides the transport and the entry.
 *
 * @example
 * ```ts
 * import { entryBody, type EntryBodyOptions } from "./body.ts";
 * import { collect } from "./chunks.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
 * let received = 0;
 * const options: EntryBodyOptions = {
 *   recheck: (signal) => file.stat({ refresh: true, signal }),
 *   onBytes: (count) => received += count,
 * };
 * await collect(entryBody(store[STORE_CONTEXT].transport, await file.stat(), options));
 * assert.equal(received, 13487);
 * ```
 */
export type EntryBodyOptions = Omit<BodyOptions, "transport" | "expected">;

/**
 * The {@linkcode verifiedBody} of the file a listing or stat described: exactly `entry.size`
 * bytes of that version (checked against its MD5 when the entry carries one).
 *
 * @throws {BadRequestError} when the entry is a folder (on the first read).
 *
 * @example
 * ```ts
 * import { entryBody } from "./body.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { statFile } from "../handles/stat.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = store[STORE_CONTEXT].transport;
 * const entry = await statFile(transport, "/iplant/home/shared/tern_samples/formats/penguins.csv");
 * let size = 0;
 * for await (const chunk of entryBody(transport, entry)) size += chunk.byteLength;
 * assert.equal(size, entry.size);
 * ```
 */
export async function* entryBody(
  transport: Transport,
  entry: Entry,
  options: EntryBodyOptions = {},
): AsyncGenerator<Uint8Array, void> {
  checkIsFile(entry);
  const md5 = (entry as { md5?: unknown }).md5;
  yield* verifiedBody({
    ...options,
    transport,
    expected: {
      path: entry.path,
      size: entry.size,
      modified: entry.modified.getTime(),
      ...(typeof md5 === "string" && md5 !== "" ? { md5 } : {}),
    },
  });
}

/**
 * Refuses a folder where a file is needed, before anything is downloaded.
 *
 * @throws {BadRequestError} naming the folder.
 *
 * @example
 * ```ts
 * import { checkIsFile } from "./body.ts";
 * import { BadRequestError } from "../client/errors.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * checkIsFile(await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").stat());
 * const folder = await store.folder("/iplant/home/shared/tern_samples/formats").stat();
 * assert.throws(() => checkIsFile(folder), BadRequestError);
 * ```
 */
export function checkIsFile(entry: Entry): void {
  if (entry.type !== "file") {
    throw new BadRequestError(`${JSON.stringify(entry.path)} is a folder, not a file.`, {
      path: entry.path,
    });
  }
}

/**
 * What {@linkcode readVerified} needs.
 *
 * @example
 * ```ts
 * import { readVerified, type VerifiedReadOptions } from "./body.ts";
 * import { collect } from "./chunks.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
 * const options: VerifiedReadOptions = {
 *   transport: store[STORE_CONTEXT].transport,
 *   entry: await file.stat(),
 *   stat: (signal) => file.stat({ refresh: true, signal }),
 * };
 * const bytes = await readVerified(options, (body) => collect(body));
 * assert.equal(bytes.byteLength, 13487);
 * ```
 */
export interface VerifiedReadOptions extends EntryBodyOptions {
  /** The store's transport. */
  transport: Transport;
  /** The version of the file to read. */
  entry: Entry;
  /** Reads the file's current entry from the server: before resuming, and to start over. */
  stat: (signal?: AbortSignal) => Promise<Entry>;
}

/**
 * Hands `read` the verified body of `entry` and returns what it made of it. When the file
 * changed on the server or failed its checksum, `read` is called again (at most
 * {@linkcode MAX_RESTARTS} times) with the body and entry of the file as it is now, so it must
 * start its result afresh on every call. For reads that keep the bytes to themselves until they
 * are complete (`bytes()`, `downloadTo()`); a stream handed to a caller cannot start over.
 *
 * @throws {IntegrityError} when the bytes never matched the listed size (or MD5).
 * @throws {NetworkError} when the transfer kept failing.
 * @throws {FileChangedError} when the file kept changing.
 *
 * @example
 * ```ts
 * import { readVerified } from "./body.ts";
 * import { collect } from "./chunks.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { statFile } from "../handles/stat.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = store[STORE_CONTEXT].transport;
 * const entry = await statFile(transport, "/iplant/home/shared/tern_samples/formats/penguins.csv");
 * const bytes = await readVerified(
 *   { transport, entry, stat: (signal) => statFile(transport, entry.path, { signal }) },
 *   (body, current) => collect(body, current.size),
 * );
 * assert.equal(new TextDecoder().decode(bytes.subarray(0, 7)), "Species");
 * ```
 */
export async function readVerified<T>(
  options: VerifiedReadOptions,
  read: (body: AsyncIterable<Uint8Array>, entry: Entry) => Promise<T>,
): Promise<T> {
  const { transport, stat, ...rest } = options;
  let entry = options.entry;
  for (let restart = 0;; restart++) {
    const body = entryBody(transport, entry, { ...rest, recheck: stat });
    try {
      return await read(body, entry);
    } catch (error) {
      if (!restartable(error) || restart >= MAX_RESTARTS) throw error;
    } finally {
      // Ends the download when `read` stopped early or failed.
      await body.return();
    }
    entry = await stat(options.signal);
  }
}

/**
 * Whether a read that failed with `error` may be started over from scratch: the file changed
 * (read the new version) or its checksum did not match (the transfer was corrupted).
 *
 * @example
 * ```ts
 * import { restartable } from "./body.ts";
 * import { FileChangedError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(restartable(new FileChangedError("changed")));
 * ```
 */
export function restartable(error: unknown): boolean {
  return error instanceof FileChangedError ||
    (error instanceof IntegrityError && error.code === "MD5_MISMATCH");
}

function resumable(error: unknown): boolean {
  if (isAbortError(error)) return false;
  return error instanceof NetworkError || error instanceof IntegrityError;
}

async function checkUnchanged(options: BodyOptions, signal?: AbortSignal): Promise<void> {
  const { expected } = options;
  const now = await options.recheck!(signal);
  const modified = now.modified instanceof Date ? now.modified.getTime() : now.modified;
  if (now.size !== expected.size || modified !== expected.modified) {
    throw new FileChangedError(
      `${JSON.stringify(expected.path)} changed on the server while it was being read ` +
        `(${expected.size} → ${now.size} bytes, modified ${
          new Date(expected.modified).toISOString()
        }` +
        ` → ${new Date(modified).toISOString()}).`,
      { path: expected.path },
    );
  }
}

function tooLong(path: string, size: number): IntegrityError {
  return new IntegrityError(`${JSON.stringify(path)} sent more than its listed ${size} bytes.`, {
    path,
    endpoint: "fileio/download",
  });
}

async function sizeOf(path: string): Promise<number> {
  return (await Deno.stat(path)).size;
}

/** Hashes bytes a native pipe wrote, read back from the file (only when a checksum is known). */
async function hashRange(
  hash: ReturnType<typeof createHash>,
  path: string,
  start: number,
  count: number,
): Promise<void> {
  using file = await Deno.open(path);
  await file.seek(start, Deno.SeekMode.Start);
  const buffer = new Uint8Array(1 << 20);
  for (let left = count; left > 0;) {
    const read = await file.read(buffer.subarray(0, Math.min(left, buffer.byteLength)));
    if (read === null) break;
    hash.update(buffer.subarray(0, read));
    left -= read;
  }
}

function gaveUp(error: TernError, attempts: number): TernError {
  const message = `${error.message.replace(/\.$/, "")} (gave up after ${attempts} attempts).`;
  const details = { path: error.path, endpoint: error.endpoint, code: error.code };
  return error instanceof IntegrityError
    ? new IntegrityError(message, details)
    : new NetworkError(message, { ...details, cause: error.cause });
}
