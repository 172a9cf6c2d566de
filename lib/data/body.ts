/**
 * A file's bytes as its pinned {@linkcode FileVersion} describes them, or an error: never a
 * truncated or overlong body, never bytes of two versions joined.
 *
 * The transport already retries failed requests and checks bodies against `Content-Length`;
 * Terrain's downloads often have none, so here every body is also counted against the
 * version's size. A body that breaks, stalls, ends short or runs long is requested again; before
 * that, the file's current version is asked for (when the caller can) and a change ends the read
 * with a {@linkcode FileChangedError}; the new body is read from its start and the bytes already
 * delivered are skipped, so the consumer sees one seamless stream.
 *
 * When the version carries the store's checksum, the bytes delivered are hashed as they pass and
 * the body ends with a {@linkcode ChecksumMismatchError} instead of ending when they do not match
 * it. That is not retried here (the bytes are delivered already): the read starts over.
 *
 * @module
 */

import { type Download, download } from "../client/endpoints.ts";
import { BadRequestError, isAbortError, NetworkError, TernError } from "../client/errors.ts";
import type { Entry } from "../client/entry.ts";
import { checksumHasher } from "../client/checksum.ts";
import { type FileVersion, sameVersion, versionOfEntry } from "../client/file_version.ts";
import { backoffDelay, sleep } from "../client/retry.ts";
import type { Transport } from "../client/transport.ts";
import { ChecksumMismatchError, FileChangedError, IntegrityError } from "./errors.ts";

/**
 * Options of {@linkcode verifiedBody}.
 *
 * @example
 * ```ts
 * import { type BodyOptions, verifiedBody } from "./body.ts";
 * import { collect } from "./chunks.ts";
 * import { versionOfEntry } from "../client/file_version.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const file = store.file("/iplant/home/shared/tern_samples/formats/penguins.csv");
 * const { transport } = store[STORE_CONTEXT];
 * const options: BodyOptions = {
 *   transport,
 *   expected: versionOfEntry(transport.url, await file.stat()),
 *   recheck: (signal) => file.stat({ refresh: true, signal }),
 * };
 * assert.equal((await collect(verifiedBody(options))).byteLength, 13487);
 * ```
 */
export interface BodyOptions {
  /** The store's transport; its `retries` policy bounds the re-downloads. */
  transport: Transport;
  /** The version the bytes must be. */
  expected: FileVersion;
  /**
   * Reads the file's current entry from the server, asked before a re-download; another
   * version ends the read with a {@linkcode FileChangedError}.
   */
  recheck?: (signal?: AbortSignal) => Promise<Entry>;
  /** Aborts the download. */
  signal?: AbortSignal;
  /** Told how many new bytes were delivered, as they are. */
  onBytes?: (count: number) => void;
  /**
   * A download of the file sent beside its stat, as {@linkcode earlyDownload} hands it over: the
   * first attempt reads it when there is one, else downloads as usual.
   */
  started?: Promise<EarlyAnswer | undefined>;
  /**
   * Read every chunk into one buffer, each valid only until the next is asked for: no memory
   * is allocated per chunk, for a consumer that copies or writes each chunk at once.
   * @default {false}
   */
  reuse?: boolean;
}

/** Bytes read at a time into a reused buffer. */
const REUSED_BYTES = 1024 * 1024;

/**
 * Yields the bytes of `expected` in order, exactly `expected.size` of them, re-downloading (and
 * skipping what was already delivered) after a broken, stalled, short or overlong body, at
 * most `transport.policy.retries` times. Stopping the iteration early cancels the download.
 *
 * @throws {IntegrityError} when the bytes never matched the version's size.
 * @throws {ChecksumMismatchError} when the bytes do not match the store's checksum.
 * @throws {NetworkError} when the transfer kept failing.
 * @throws {FileChangedError} when the file changed on the server between attempts.
 *
 * @example
 * ```ts
 * import { verifiedBody } from "./body.ts";
 * import { versionOfEntry } from "../client/file_version.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const { transport } = store[STORE_CONTEXT];
 * const entry = await store.file("/iplant/home/shared/tern_samples/formats/penguins.csv").stat();
 * let received = 0;
 * for await (const chunk of verifiedBody({ transport, expected: versionOfEntry(transport.url, entry) })) {
 *   received += chunk.byteLength;
 * }
 * assert.equal(received, 13487);
 * ```
 */
export async function* verifiedBody(options: BodyOptions): AsyncGenerator<Uint8Array, void> {
  const { transport, expected, signal } = options;
  const { path, size } = expected;
  const attempts = transport.policy.retries + 1;
  let delivered = 0;
  // Hashes what is delivered, across attempts: exactly the bytes the consumer got.
  const hasher = expected.checksum === undefined ? undefined : checksumHasher(expected.checksum);
  // The first answer's ETag: later attempts ask for those very bytes (If-Match), so a change
  // the stat cannot see (same size, same second) still never splices two versions.
  let tag: string | undefined;
  const changed = async () =>
    new FileChangedError(
      expected,
      options.recheck && versionOfEntry(expected.store, await options.recheck(signal)),
      "between two attempts to download it (its ETag changed)",
    );
  for (let attempt = 1;; attempt++) {
    if (attempt > 1) {
      const { retryBaseMs, retryMaxMs } = transport.policy;
      await sleep(backoffDelay(attempt - 2, retryBaseMs, retryMaxMs), signal);
      if (options.recheck !== undefined) {
        const now = versionOfEntry(expected.store, await options.recheck(signal));
        if (!sameVersion(expected, now)) throw new FileChangedError(expected, now);
      }
    }
    const early = attempt === 1 ? await options.started : undefined;
    // Failures before the body are the transport's to retry; they end the read here.
    const answer = early?.answer ??
      await download(transport, path, { signal, ...(tag === undefined ? {} : { ifMatch: tag }) })
        .catch(async (error) => {
          throw error instanceof TernError && error.status === 412 ? await changed() : error;
        });
    if (attempt === 1) tag = answer.etag;
    else if (tag !== undefined && answer.etag !== undefined && answer.etag !== tag) {
      await answer.body.cancel();
      throw await changed();
    }
    // One buffer per attempt (a failed read takes it with it); a small file needs no more than
    // its size and one byte over, which shows a body that runs long at once.
    let buffer = options.reuse ? new Uint8Array(Math.min(REUSED_BYTES, size + 1)) : undefined;
    const byob = buffer && answer.body.getReader({ mode: "byob" });
    const reader = byob ?? answer.body.getReader();
    // What an early download already read of the body comes first.
    const ahead = early?.ahead ?? [];
    let position = 0;
    try {
      while (true) {
        const first = ahead.shift();
        const { done, value } = first !== undefined
          ? { done: false, value: first }
          : byob
          ? await byob.read(buffer!)
          : await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
        if (done) break;
        if (byob && first === undefined) buffer = new Uint8Array(value.buffer as ArrayBuffer);
        // Bytes delivered by an earlier attempt are skipped, not delivered twice.
        const piece = value.subarray(Math.max(0, Math.min(delivered - position, value.length)));
        position += value.byteLength;
        if (position > size) {
          const problem = `${JSON.stringify(path)} sent more than its listed ${size} bytes.`;
          throw new IntegrityError(problem, { path, endpoint: "fileio/download" });
        }
        if (piece.byteLength === 0) continue;
        delivered += piece.byteLength;
        hasher?.update(piece);
        options.onBytes?.(piece.byteLength);
        yield piece;
      }
      if (position < size) {
        throw new IntegrityError(
          `${JSON.stringify(path)} ended after ${position} of its listed ${size} bytes.`,
          { path, endpoint: "fileio/download" },
        );
      }
      break;
    } catch (error) {
      const retried = error instanceof NetworkError || error instanceof IntegrityError;
      if (!retried || isAbortError(error)) throw error;
      if (attempt >= attempts) throw gaveUp(error, attempts);
    } finally {
      // Ends the download when the consumer stopped early or the body failed.
      reader.cancel().catch(() => {});
    }
  }
  const actual = hasher?.digest();
  if (actual !== undefined && actual !== expected.checksum) {
    throw new ChecksumMismatchError(path, expected.checksum!, actual, size);
  }
}

/**
 * Most bytes a download sent beside a stat reads ahead while the stat is under way; past them it
 * is given up, and the file downloaded once the stat pinned its version.
 *
 * @example
 * ```ts
 * import { READ_AHEAD_BYTES } from "./body.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(READ_AHEAD_BYTES, 256 * 1024);
 * ```
 */
export const READ_AHEAD_BYTES = 256 * 1024;

/**
 * A download sent beside a stat, as {@linkcode earlyDownload} hands it over: the answer, whose
 * body's reader is released with the rest unread, and the bytes already read from it.
 *
 * @example
 * ```ts
 * import type { EarlyAnswer } from "./body.ts";
 *
 * const readAhead = (early: EarlyAnswer) => early.ahead.reduce((n, bytes) => n + bytes.length, 0);
 * ```
 */
export interface EarlyAnswer {
  /** The download's answer; its body holds what is not in `ahead`. */
  answer: Download;
  /** The first bytes of the body, in order. */
  ahead: Uint8Array[];
}

/**
 * A download sent beside the stat of a file the cache holds no copy of: a cold read then waits
 * one round trip, not two. Pass what `take()` returns as the `started` of
 * {@linkcode verifiedBody} once the stat pinned the version and the gate admitted it: its bytes
 * are used only then, and only as that version's. `drop()` cancels it unless it was taken.
 *
 * Until it is taken, its body is read into memory as it arrives, never left waiting for the
 * stat: a request holds its limiter slot until its body is read, and a download that held it
 * while the stat queued for one could wait on itself for ever (issue 29). (Queueing the stat
 * first is no cure: a stat may page through a large folder, retry, or renew a token, and each
 * of those requests queues anew.) A body that passes {@linkcode READ_AHEAD_BYTES} before it is
 * taken is given up, and one that fails is of no interest: `take()` then gives `undefined`, and
 * the read downloads as it would have without it.
 *
 * @example
 * ```ts
 * import { earlyDownload, verifiedBody } from "./body.ts";
 * import { versionOfEntry } from "../client/file_version.ts";
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore({ concurrency: 1 });
 * const { transport } = store[STORE_CONTEXT];
 * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
 * const early = earlyDownload(transport, path);
 * // The download was sent first, to the only slot; its stat gets the slot all the same.
 * const expected = versionOfEntry(transport.url, await store.file(path).stat());
 * let received = 0;
 * for await (const chunk of verifiedBody({ transport, expected, started: early.take() })) {
 *   received += chunk.byteLength;
 * }
 * assert.equal(received, 13487);
 * early.drop(); // taken: nothing to cancel
 * ```
 */
export function earlyDownload(
  transport: Transport,
  path: string,
  signal?: AbortSignal,
): { take(): Promise<EarlyAnswer | undefined>; drop(): void } {
  const stop = new AbortController();
  const both = AbortSignal.any([stop.signal, ...(signal ? [signal] : [])]);
  let taken = false;
  const answer = download(transport, path, { signal: both })
    .then((started) => readAhead(started, () => taken))
    .catch(() => undefined);
  return {
    take() {
      const first = !taken;
      taken = true;
      return first ? answer : Promise.resolve(undefined);
    },
    drop: () => taken || stop.abort(),
  };
}

/**
 * Reads `answer`'s body into memory until it is taken or ends, then releases its reader for the
 * taker; `undefined`, the body cancelled, once it passed {@linkcode READ_AHEAD_BYTES} untaken.
 */
async function readAhead(answer: Download, taken: () => boolean): Promise<EarlyAnswer | undefined> {
  const reader = answer.body.getReader();
  const ahead: Uint8Array[] = [];
  let size = 0;
  while (!taken()) {
    const { done, value } = await reader.read();
    if (done) break;
    ahead.push(value);
    size += value.byteLength;
    if (size > READ_AHEAD_BYTES && !taken()) {
      await reader.cancel();
      return undefined;
    }
  }
  reader.releaseLock();
  return { answer, ahead };
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
  const { path } = entry;
  if (entry.type !== "file") {
    throw new BadRequestError(`${JSON.stringify(path)} is a folder, not a file.`, { path });
  }
}

function gaveUp(error: TernError, attempts: number): TernError {
  const message = `${error.message.replace(/\.$/, "")} (gave up after ${attempts} attempts).`;
  const details = { path: error.path, endpoint: error.endpoint, code: error.code };
  return error instanceof IntegrityError
    ? new IntegrityError(message, details)
    : new NetworkError(message, { ...details, cause: error.cause });
}
