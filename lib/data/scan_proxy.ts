/**
 * The loopback proxy between Polars and a store's remote Parquet files, which pins a remote scan
 * to the version it scanned and reads every byte through the store's transport (see
 * docs/data.md, "Remote scans are pinned").
 *
 * Polars reads a remote Parquet file with ranged GETs: a footer first, column chunks later, in
 * `collect()`, maybe minutes later. Given the anonymous URL directly, it applies the old footer
 * to whatever bytes the server holds by then (a mix of versions, silently), a range answer of
 * another length than asked panics inside Polars (nodejs-polars 0.25.2 aborts the process: a
 * notebook kernel dies), and its requests leave the store's transport (no timeout, limiter,
 * `User-Agent` or custom `fetch`). So Polars is given `http://127.0.0.1:PORT/<random>/<name>`
 * instead, and this proxy reads each range through the store's {@linkcode Transport} with the
 * pinned validator (`If-Match` with the `ETag`, else `If-Unmodified-Since` with
 * `Last-Modified`), checks the status, `Content-Range`, length and validators of the answer,
 * counts its body, and only then passes exactly the bytes asked for to Polars. The first answer
 * that passes these checks fixes the validators (the version's size comes from the store's
 * listing). Anything else becomes a 412 to Polars, which fails cleanly on it (no retries: the
 * transport has retried already), while the real cause, a {@linkcode FileChangedError} naming
 * both versions, an {@linkcode IntegrityError} or the transport's own error, is kept on the
 * {@linkcode Pin} for the frame's `collect()` to throw (see {@linkcode guardFrame}).
 *
 * @module
 */

import type { DataType, LazyDataFrame } from "../deps.ts";
import { abortError, BadRequestError, isAbortError, TernError } from "../client/errors.ts";
import { type FileVersion, strongETag } from "../client/file_version.ts";
import type { StreamedResponse, Transport } from "../client/transport.ts";
import { FileChangedError, IntegrityError } from "./errors.ts";
import { type ProgressEvent, ProgressTracker } from "../progress/events.ts";
import { defined } from "./polars.ts";
import { isExpr, isLazyFrame, typedLiterals } from "../polars/adapter.ts";

/**
 * What {@linkcode ScanProxy.pin} pins.
 *
 * @example
 * ```ts
 * import type { PinOptions } from "./scan_proxy.ts";
 *
 * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
 * const options: PinOptions = {
 *   upstream: "https://data.cyverse.org/dav-anon/p/a.parquet",
 *   version,
 *   recheck: () => Promise.resolve(version),
 * };
 * ```
 */
export interface PinOptions {
  /** The file's anonymous URL. */
  upstream: string;
  /** The version every range must belong to (from the store's listing). */
  version: FileVersion;
  /** Asks the store what the file is now, to name the new version in a {@linkcode FileChangedError}. */
  recheck: (signal?: AbortSignal) => Promise<FileVersion>;
  /**
   * Aborts the pin's range reads, in `scan()` and in every later `collect()`.
   *
   * @default undefined (never aborted)
   */
  signal?: AbortSignal;
}

/**
 * One pinned remote file: the version scanned, its anonymous URL, and what the proxy does with
 * each range Polars reads through it.
 *
 * @example
 * ```ts
 * import { ScanProxy } from "./scan_proxy.ts";
 * import { Transport } from "../client/transport.ts";
 * import assert from "node:assert/strict";
 *
 * await using proxy = new ScanProxy(new Transport({ url: "http://127.0.0.1:9/terrain" }));
 * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
 * const recheck = () => Promise.resolve(version);
 * const pin = proxy.pin({ upstream: "http://127.0.0.1:9/a.parquet", version, recheck });
 * assert.match(pin.url, /^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]+\/a\.parquet$/);
 * assert.deepEqual(pin.failures, []);
 * ```
 */
export interface Pin {
  /** The version every range must belong to; its `etag` or `lastModified` is taken from the
   * first answer that passes the checks, when the listing gave none. */
  version: FileVersion;
  /** The upstream (anonymous) URL. */
  readonly upstream: string;
  /** The loopback URL Polars reads. */
  readonly url: string;
  /** Asks the store what the file is now, to name the new version in a {@linkcode FileChangedError}. */
  readonly recheck: (signal?: AbortSignal) => Promise<FileVersion>;
  /**
   * Aborted with the scan's signal or when the store closes: every range read then fails at
   * once, and so does `collect()`.
   */
  readonly signal: AbortSignal;
  /**
   * The failures recorded, oldest first (tern's errors, or an `AbortError`): a failed
   * `collect()` throws the newest of its own.
   */
  readonly failures: Error[];
  /** Called with the size of each chunk read for Polars. */
  readonly readers: Set<(bytes: number) => void>;
}

/** The statuses that say the file is no longer the version pinned (read, not retried). */
const CHANGED_STATUSES = [404, 410, 412, 416];

/**
 * A store's loopback proxy for remote scans. It starts listening with the first pin (on
 * 127.0.0.1 and a random port, `unref`: an open store never keeps a script alive) and stops
 * with {@linkcode ScanProxy.close}, which the store's `close()` calls: range reads in flight are
 * aborted, the port is closed, and frames of its pins no longer collect.
 *
 * @example
 * ```ts
 * import { ScanProxy } from "./scan_proxy.ts";
 * import { BadRequestError } from "../client/errors.ts";
 * import { Transport } from "../client/transport.ts";
 * import assert from "node:assert/strict";
 *
 * const proxy = new ScanProxy(new Transport({ url: "http://127.0.0.1:9/terrain" }));
 * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
 * const recheck = () => Promise.resolve(version);
 * const pin = proxy.pin({ upstream: "http://127.0.0.1:9/a.parquet", version, recheck });
 * const head = await fetch(pin.url, { method: "HEAD" });
 * assert.equal(head.headers.get("content-length"), "8");
 * await proxy.close();
 * assert.ok(pin.signal.aborted);
 * assert.throws(() => proxy.pin({ upstream: pin.upstream, version, recheck }), BadRequestError);
 * ```
 */
export class ScanProxy implements AsyncDisposable {
  readonly #transport: Transport;
  readonly #pins = new Map<string, Pin>();
  readonly #closed = new AbortController();
  #server: Deno.HttpServer<Deno.NetAddr> | undefined;

  /**
   * A proxy reading through `transport`; it listens only once something is pinned.
   *
   * @example
   * ```ts
   * import { ScanProxy } from "./scan_proxy.ts";
   * import { Transport } from "../client/transport.ts";
   * import assert from "node:assert/strict";
   *
   * await using proxy = new ScanProxy(new Transport({ url: "http://127.0.0.1:9/terrain" }));
   * assert.equal(proxy.port, undefined);
   * ```
   */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** The loopback port while the proxy listens. */
  get port(): number | undefined {
    return this.#server?.addr.port;
  }

  /**
   * Pins `options.upstream` at `options.version` and returns the pin, whose `url` Polars reads.
   *
   * @throws {BadRequestError} once the proxy is closed (its store was).
   *
   * @example
   * ```ts
   * import { ScanProxy } from "./scan_proxy.ts";
   * import { Transport } from "../client/transport.ts";
   * import assert from "node:assert/strict";
   *
   * await using proxy = new ScanProxy(new Transport({ url: "http://127.0.0.1:9/terrain" }));
   * const version = { store: "s", path: "/p/a b.parquet", id: "i", size: 8, modified: 0 };
   * const pin = proxy.pin({
   *   upstream: "http://127.0.0.1:9/a%20b.parquet",
   *   version,
   *   recheck: () => Promise.resolve(version),
   * });
   * assert.equal(new URL(pin.url).port, String(proxy.port));
   * assert.ok(pin.url.endsWith("/a%20b.parquet"));
   * ```
   */
  pin(options: PinOptions): Pin {
    const closed = this.#closed.signal;
    if (closed.aborted) throw closed.reason;
    this.#server ??= this.#listen();
    const token = crypto.randomUUID();
    const { version, upstream, recheck } = options;
    const name = encodeURIComponent(version.path.slice(version.path.lastIndexOf("/") + 1));
    const pin: Pin = {
      version,
      upstream,
      url: `http://127.0.0.1:${this.#server.addr.port}/${token}/${name}`,
      recheck,
      signal: options.signal === undefined ? closed : AbortSignal.any([closed, options.signal]),
      failures: [],
      readers: new Set(),
    };
    this.#pins.set(token, pin);
    return pin;
  }

  /**
   * Aborts the range reads in flight, stops listening and forgets every pin; frames of its pins
   * then fail to collect with a {@linkcode BadRequestError}. Closing again does nothing.
   *
   * @example
   * ```ts
   * import { ScanProxy } from "./scan_proxy.ts";
   * import { Transport } from "../client/transport.ts";
   * import assert from "node:assert/strict";
   *
   * const proxy = new ScanProxy(new Transport({ url: "http://127.0.0.1:9/terrain" }));
   * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
   * const pin = proxy.pin({ upstream: "http://127.0.0.1:9/a.parquet", version, recheck: () => Promise.resolve(version) });
   * await proxy.close();
   * await assert.rejects(() => fetch(pin.url));
   * ```
   */
  async close(): Promise<void> {
    if (!this.#closed.signal.aborted) {
      this.#closed.abort(
        new BadRequestError(
          "The store was closed: a remote scan reads its file through the store. Connect " +
            "again and scan again.",
        ),
      );
    }
    this.#pins.clear();
    const server = this.#server;
    this.#server = undefined;
    await server?.shutdown();
  }

  /** Same as {@linkcode ScanProxy.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #listen(): Deno.HttpServer<Deno.NetAddr> {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (request) => this.#answer(request),
    );
    // A notebook or script ends when its own work does, even with its store left open.
    server.unref();
    return server;
  }

  async #answer(request: Request): Promise<Response> {
    const token = new URL(request.url).pathname.split("/")[1] ?? "";
    const pin = this.#pins.get(token);
    if (!pin) return new Response(null, { status: 404 });
    const { size } = pin.version;
    if (request.method === "HEAD") {
      return new Response(null, { headers: { "content-length": String(size) } });
    }
    if (request.method !== "GET") return new Response(null, { status: 405 });
    const asked = request.headers.get("range");
    const range = asked === null ? { start: 0, end: size - 1 } : exactRange(asked, size);
    if (range === undefined) {
      return new Response(null, { status: 416, headers: { "content-range": `bytes */${size}` } });
    }
    try {
      const bytes = await this.#read(pin, range);
      return new Response(bytes, {
        status: asked === null ? 200 : 206,
        headers: {
          "content-length": String(bytes.byteLength),
          "content-range": `bytes ${range.start}-${range.end}/${size}`,
        },
      });
    } catch (error) {
      pin.failures.push(pin.signal.aborted ? stopped(pin.signal) : error as Error);
      // 412 to Polars: it fails at once on it (the transport has retried already), and the pin
      // holds the real cause.
      return new Response(null, { status: 412 });
    }
  }

  /**
   * Reads one range of the pinned version whole, through the store's transport. Its limiter
   * slot is held only while the bytes arrive from the server, never while Polars takes them:
   * Polars may wait for one range before it reads another, and the store may allow one request
   * at a time.
   */
  async #read(pin: Pin, range: { start: number; end: number }): Promise<Uint8Array<ArrayBuffer>> {
    const { path, etag, lastModified } = pin.version;
    const length = range.end - range.start + 1;
    const headers: Record<string, string> = {
      accept: "*/*",
      range: `bytes=${range.start}-${range.end}`,
    };
    if (etag !== undefined) headers["if-match"] = etag;
    else if (lastModified !== undefined) headers["if-unmodified-since"] = lastModified;
    const answer = await this.#transport.streamUrl({
      url: pin.upstream,
      endpoint: "dav-anon",
      subject: path,
      headers,
      // Not Polars' request's signal: a read Polars gave up on ends within the transport's
      // timeouts, and its request's signal aborts after every answer too.
      signal: pin.signal,
      answered: CHANGED_STATUSES,
    });
    const problem = checkAnswer(pin.version, answer, range, length);
    if (problem !== undefined) {
      // Cancelling gives the slot back before the store is asked what the file is now.
      await answer.body.cancel();
      if (problem === CHANGED) throw await changedError(pin, answer.headers);
      throw new IntegrityError(
        `The server answered bytes ${range.start}-${range.end} of ${JSON.stringify(path)} ` +
          `with ${problem}; nothing of it was used.`,
        { path, status: answer.status },
      );
    }
    // Read again: another answer may have fixed them while this one was on its way.
    if (pin.version.etag === undefined && pin.version.lastModified === undefined) {
      const date = answer.headers.get("last-modified") ?? undefined;
      const validators = defined({ etag: strongETag(answer.headers), lastModified: date });
      pin.version = { ...pin.version, ...validators };
    }
    // Every body is counted: only a range complete to the byte reaches Polars.
    const bytes = new Uint8Array(length);
    let passed = 0;
    let broken: unknown;
    try {
      for await (const chunk of answer.body) {
        if (chunk.byteLength > length - passed) {
          passed = length + 1;
          break;
        }
        bytes.set(chunk, passed);
        passed += chunk.byteLength;
        // A progress tracker never throws: a broken display never breaks the read.
        for (const reader of pin.readers) reader(chunk.byteLength);
      }
    } catch (error) {
      if (isAbortError(error)) throw error;
      broken = error;
    }
    if (passed === length && broken === undefined) return bytes;
    const sent = passed > length ? "more than" : `${passed.toLocaleString("en-US")} of`;
    const why = broken instanceof Error ? ` (${broken.message.replace(/\.$/, "")})` : "";
    throw new IntegrityError(
      `The server sent ${sent} the ${length.toLocaleString("en-US")} bytes of a range of ` +
        `${JSON.stringify(path)}${why}.`,
      { path, cause: broken },
    );
  }
}

/** Why a pin's reads stop: the store closed (a tern error), or an `AbortError`. */
function stopped(signal: AbortSignal): Error {
  return signal.reason instanceof TernError ? signal.reason : abortError(signal);
}

/** A single `bytes=a-b` (or `a-`, `-n`) range inside the file, clamped as RFC 9110 says. */
function exactRange(header: string, size: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "") || size === 0) return undefined;
  if (match[1] === "") {
    return { start: Math.max(0, size - Number(match[2])), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start <= end ? { start, end } : undefined;
}

/** What {@linkcode checkAnswer} says of an answer showing the file is another version now. */
const CHANGED = "changed";

/**
 * What is wrong with an upstream answer to a pinned range: {@linkcode CHANGED}, what else it
 * was sent with, or `undefined` when status, `Content-Range`, `Content-Length` and validators
 * are exactly right.
 */
function checkAnswer(
  version: FileVersion,
  upstream: StreamedResponse,
  range: { start: number; end: number },
  length: number,
): string | undefined {
  const { status, headers } = upstream;
  if (status === 412 || status === 404 || status === 410) return CHANGED;
  const contentRange = headers.get("content-range")?.trim();
  const total = /\/(\d+)$/.exec(contentRange ?? "")?.[1];
  // A 206, or a 416 (`bytes */<size>`), naming another size is another version.
  if (total !== undefined && Number(total) !== version.size) return CHANGED;
  // The ETag where the version has one, else the date.
  const pinned = version.etag ?? version.lastModified;
  const answered = headers.get(version.etag !== undefined ? "etag" : "last-modified");
  if (pinned !== undefined && answered !== null && answered !== pinned) return CHANGED;
  if (status !== 206) return `status ${status} instead of 206 Partial Content`;
  const expected = `bytes ${range.start}-${range.end}/${version.size}`;
  if (contentRange !== expected) {
    return `Content-Range ${JSON.stringify(contentRange ?? null)} (expected "${expected}")`;
  }
  const declared = headers.get("content-length");
  if (declared !== null && Number(declared) !== length) {
    return `Content-Length ${JSON.stringify(declared)} (expected ${length})`;
  }
  return undefined;
}

/** The file changed: asks the store what it is now, to name both versions. */
async function changedError(pin: Pin, headers: Headers): Promise<FileChangedError> {
  const now = await pin.recheck(pin.signal).catch(() => undefined);
  // The answer's ETag tells versions apart that the listing's size and date do not.
  const etag = strongETag(headers);
  return new FileChangedError(
    pin.version,
    now && etag !== undefined ? { ...now, etag } : now,
    "since scan() pinned it (nothing of the new version was mixed in)",
  );
}

const GUARDED = Symbol("tern.guard");

/**
 * What {@linkcode guardFrame} guards a frame with.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import type { FrameGuard } from "./scan_proxy.ts";
 *
 * const guard: FrameGuard = { pins: [], schema: { year: pl.Int32 } };
 * ```
 */
export interface FrameGuard {
  /** The pins of the files the frame reads. */
  pins: readonly Pin[];
  /**
   * Called with the progress events of each `collect()`.
   *
   * @default undefined (no progress reported)
   */
  report?: (event: ProgressEvent) => void;
  /**
   * The scanned files' columns and their types (from the footer): a plain number a `filter`
   * compares with one of its integer columns is given the column's type (see
   * {@linkcode typedLiterals}), so that Polars can skip row groups by their statistics.
   *
   * @default undefined (filters are passed on as they are)
   */
  schema?: Readonly<Record<string, DataType>>;
}

/**
 * Wraps a frame that reads pinned files so that `collect()` throws the cause the proxy recorded
 * (a {@linkcode FileChangedError}, an {@linkcode IntegrityError}, the transport's error, or the
 * `AbortError` of the scan's signal) instead of Polars' generic HTTP error, and so that frames
 * derived from it (`filter`, `select`, `groupBy().agg()`, …) carry the same guard. Each
 * `collect()` reports the bytes the proxy reads to `guard.report` (the store's progress display
 * and the call's `onProgress`). `collectSync()` is refused: it would block the thread the proxy
 * answers on. A `filter` comparing an integer column of `guard.schema` with a plain number
 * (`pl.col("year").eq(2024)`, as pandas users write it) compares with a literal of the column's
 * type instead, which prunes row groups as `pl.lit(2024).cast(pl.Int32)` does; a number the
 * type does not hold exactly is left as it is. The schema is the files', also for a derived
 * frame whose column has another type by then: the number is exact, so the rows are the same.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { guardFrame, guardOf, ScanProxy } from "./scan_proxy.ts";
 * import { Transport } from "../client/transport.ts";
 * import assert from "node:assert/strict";
 *
 * await using proxy = new ScanProxy(new Transport({ url: "http://127.0.0.1:9/terrain" }));
 * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
 * const pin = proxy.pin({ upstream: "http://127.0.0.1:9/a.parquet", version, recheck: () => Promise.resolve(version) });
 * const frame = pl.DataFrame({ a: pl.Series("a", [1, 2], pl.Int32) });
 * const lazy = guardFrame(frame.lazy(), { pins: [pin], schema: frame.schema });
 * assert.equal((await lazy.filter(pl.col("a").gt(1)).collect()).height, 1);
 * assert.match(lazy.filter(pl.col("a").eq(2)).describePlan(), /col\("a"\)\) == \(2\)/);
 * assert.deepEqual(guardOf(lazy.select("a"))?.pins, [pin]);
 * assert.throws(() => lazy.collectSync());
 * ```
 */
export function guardFrame(frame: LazyDataFrame, guard: FrameGuard): LazyDataFrame {
  const { pins: held, report, schema } = guard;
  return new Proxy(frame, {
    get(target, property) {
      if (property === GUARDED) return guard;
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "collectSync") {
        return () => {
          throw new BadRequestError(
            "A remote scan is collected with `await lazy.collect()`: its bytes pass through " +
              "tern's checks on this thread, which collectSync() would block.",
          );
        };
      }
      if (property === "collect") {
        return async (...args: unknown[]) => {
          // Polars may answer from what it read before: an aborted scan or a closed store
          // still fails every collect().
          const aborted = held.find((pin) => pin.signal.aborted);
          if (aborted !== undefined) throw stopped(aborted.signal);
          const marks = held.map((pin) => pin.failures.length);
          // How much of the files a query reads is known only once it is done.
          const tracker = new ProgressTracker(report, held.length, 0);
          const reader = (bytes: number) => tracker.bytes(bytes);
          for (const pin of held) pin.readers.add(reader);
          let ok = false;
          try {
            const result = await Reflect.apply(value, target, args);
            ok = true;
            return result;
          } catch (error) {
            throw held.find((pin, i) => pin.failures.length > marks[i])?.failures.at(-1) ?? error;
          } finally {
            for (const pin of held) pin.readers.delete(reader);
            tracker.done(ok);
          }
        };
      }
      return (...args: unknown[]) => {
        if (property === "filter" && schema !== undefined && isExpr(args[0])) {
          args = [typedLiterals(args[0], schema), ...args.slice(1)];
        }
        const result = Reflect.apply(value, target, args);
        const lazyLike = typeof result === "object" && result !== null &&
          (isLazyFrame(result) || typeof (result as { agg?: unknown }).agg === "function");
        return lazyLike ? guardFrame(result as LazyDataFrame, guard) : result;
      };
    },
  });
}

/**
 * The guard of a guarded frame (`undefined` for another frame), so that a frame built from
 * several (`pl.concat`) can be guarded by all of their pins.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { guardOf } from "./scan_proxy.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(guardOf(pl.DataFrame({ a: [1] }).lazy()), undefined);
 * ```
 */
export function guardOf(frame: LazyDataFrame): FrameGuard | undefined {
  return (frame as unknown as { [GUARDED]?: FrameGuard })[GUARDED];
}
