/**
 * The loopback proxy between Polars and a remote Parquet file, which pins a remote scan to the
 * version it scanned (see docs/data.md, "Remote scans are pinned").
 *
 * Polars reads a remote Parquet file with ranged GETs: a footer first, column chunks later, in
 * `collect()`, maybe minutes later. Given the anonymous URL directly, it applies the old footer
 * to whatever bytes the server holds by then (a mix of versions, silently), and a range answer of
 * another length than asked panics inside Polars (nodejs-polars 0.25.2 aborts the process: a
 * notebook kernel dies). So Polars is given `http://127.0.0.1:PORT/<random>/<name>` instead, and
 * this proxy forwards each range upstream with the pinned validator (`If-Match` with the `ETag`,
 * else `If-Unmodified-Since` with `Last-Modified`), checks the status, `Content-Range`, length and
 * validators of the answer, and passes on exactly the bytes asked for, counted. Anything else
 * becomes a 412 to Polars, which fails cleanly on it (it retries 5xx answers and aborts on a
 * long body), while the real cause, a {@linkcode FileChangedError} naming both versions or an
 * {@linkcode IntegrityError}, is kept on the {@linkcode Pin} for the frame's `collect()` to throw
 * (see {@linkcode guardFrame}).
 *
 * One proxy serves the whole process. It starts with the first pinned scan, does not keep the
 * process alive (`unref`), and closes once every pinned frame has been garbage-collected.
 *
 * @module
 */

import type { LazyDataFrame } from "../deps.ts";
import { BadRequestError, NetworkError, type TernError } from "../client/errors.ts";
import { type FileVersion, strongETag } from "../client/file_version.ts";
import { FileChangedError, IntegrityError } from "./errors.ts";
import { type ProgressEvent, ProgressTracker } from "../progress/events.ts";

/**
 * One pinned remote file: the version scanned, its anonymous URL, the bytes passed to Polars, and
 * the failures the proxy recorded (the newest is what a failed `collect()` throws).
 *
 * @example
 * ```ts
 * import { pinRemote } from "./scan_proxy.ts";
 * import assert from "node:assert/strict";
 *
 * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
 * const pin = pinRemote("http://127.0.0.1:9/a.parquet", version);
 * assert.match(pin.url, /^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]+\/a\.parquet$/);
 * assert.equal(pin.bytes, 0);
 * ```
 */
export interface Pin {
  /** The version every range must belong to. */
  readonly version: FileVersion;
  /** The upstream (anonymous) URL. */
  readonly upstream: string;
  /** The loopback URL Polars reads. */
  readonly url: string;
  /** Bytes passed to Polars so far. */
  readonly bytes: number;
  /** How many failures were recorded so far (a mark to tell newer ones apart). */
  readonly failureCount: number;
  /** The newest failure recorded after `mark` failures, if any. */
  failureSince(mark: number): TernError | undefined;
  /** Calls `listener` with the size of each chunk passed to Polars until the returned stop. */
  listen(listener: (count: number) => void): () => void;
}

class PinState implements Pin {
  readonly version: FileVersion;
  readonly upstream: string;
  readonly url: string;
  bytes = 0;
  failureCount = 0;
  #lastFailure: TernError | undefined;
  #listeners = new Set<(count: number) => void>();

  constructor(version: FileVersion, upstream: string, url: string) {
    this.version = version;
    this.upstream = upstream;
    this.url = url;
  }

  failureSince(mark: number): TernError | undefined {
    return this.failureCount > mark ? this.#lastFailure : undefined;
  }

  fail(error: TernError): void {
    this.failureCount++;
    this.#lastFailure = error;
  }

  listen(listener: (count: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  counted(count: number): void {
    this.bytes += count;
    // A progress tracker never throws: a broken display never breaks the read.
    for (const listener of this.#listeners) listener(count);
  }
}

/** The running proxy, its pins by token (weakly: a pin lives as long as a frame holds it). */
let proxy: { server: Deno.HttpServer; origin: string } | undefined;
const pins = new Map<string, WeakRef<PinState>>();
const forgotten = new FinalizationRegistry<string>((token) => {
  pins.delete(token);
  if (pins.size === 0 && proxy) {
    const { server } = proxy;
    proxy = undefined;
    void server.shutdown().catch(() => {});
  }
});

function startProxy(): { server: Deno.HttpServer; origin: string } {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) => answer(request, info.completed),
  );
  // A notebook or script ends when its own work does, not when the proxy would.
  server.unref();
  return { server, origin: `http://127.0.0.1:${server.addr.port}` };
}

/**
 * Pins `upstream` (an anonymous URL answering byte ranges) at `version` (with its `etag` or
 * `lastModified` when the server sent them) and returns the pin, whose `url` Polars reads.
 *
 * @example
 * ```ts
 * import { pinRemote } from "./scan_proxy.ts";
 * import assert from "node:assert/strict";
 *
 * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
 * const pin = pinRemote("http://127.0.0.1:9/a.parquet", version);
 * const head = await fetch(pin.url, { method: "HEAD" });
 * assert.equal(head.headers.get("content-length"), "8");
 * ```
 */
export function pinRemote(upstream: string, version: FileVersion): Pin {
  proxy ??= startProxy();
  const token = crypto.randomUUID();
  const name = encodeURIComponent(version.path.slice(version.path.lastIndexOf("/") + 1));
  const pin = new PinState(version, upstream, `${proxy.origin}/${token}/${name}`);
  pins.set(token, new WeakRef(pin));
  forgotten.register(pin, token);
  return pin;
}

async function answer(request: Request, completed: Promise<void>): Promise<Response> {
  const token = new URL(request.url).pathname.split("/")[1] ?? "";
  const pin = pins.get(token)?.deref();
  if (!pin) return new Response(null, { status: 404 });
  const { size, etag } = pin.version;
  if (request.method === "HEAD") {
    const headers = new Headers({ "content-length": String(size), "accept-ranges": "bytes" });
    if (etag !== undefined) headers.set("etag", etag);
    return new Response(null, { headers });
  }
  if (request.method !== "GET") return new Response(null, { status: 405 });
  const asked = request.headers.get("range");
  const range = asked === null ? { start: 0, end: size - 1 } : exactRange(asked, size);
  if (range === undefined) {
    return new Response(null, { status: 416, headers: { "content-range": `bytes */${size}` } });
  }
  const length = range.end - range.start + 1;
  const headers = new Headers({ range: `bytes=${range.start}-${range.end}` });
  if (etag !== undefined) headers.set("if-match", etag);
  else if (pin.version.lastModified !== undefined) {
    headers.set("if-unmodified-since", pin.version.lastModified);
  }
  let upstream: Response;
  try {
    // Polars going away cancels the body below, and with it the upstream read.
    upstream = await fetch(pin.upstream, { headers });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    pin.fail(
      new NetworkError(`Could not read ${quoted(pin)} from the server (${reason}).`, {
        path: pin.version.path,
        cause: error,
      }),
    );
    // A 503 lets Polars retry a passing network failure.
    return new Response(null, { status: 503 });
  }
  const problem = checkAnswer(pin, upstream, range, length);
  if (problem !== undefined) {
    await upstream.body?.cancel().catch(() => {});
    pin.fail(await problem());
    // 412 to Polars: it fails at once on it (no retries), and the pin holds the real cause.
    return new Response(null, { status: 412 });
  }
  const init = {
    status: asked === null ? 200 : 206,
    headers: {
      "content-length": String(length),
      "content-range": `bytes ${range.start}-${range.end}/${size}`,
    },
  };
  // A declared length was checked above, and fetch fails a body that ends before it (and never
  // reads past it), so such a body goes through untouched: Deno then moves it without a
  // JavaScript loop, which a counting stream would cost (about 5 % more time over a 100 MB/s
  // link). It is counted as it starts: progress then never lags behind a returned collect().
  const declared = upstream.headers.get("content-length") !== null;
  if (declared) pin.counted(length);
  let passed = 0;
  const counted = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      passed += chunk.byteLength;
      if (passed > length) throw new RangeError("the answer is longer than its range");
      pin.counted(chunk.byteLength);
      controller.enqueue(chunk);
    },
    flush() {
      if (passed < length) throw new RangeError("the answer is shorter than its range");
    },
  });
  // An answer that broke, ended early or ran long never reached Polars whole: Polars fails,
  // and the pin says why.
  completed.catch(() => {
    const sent = declared
      ? "fewer than the"
      : passed > length
      ? "more than the"
      : `${passed.toLocaleString("en-US")} of`;
    const problem = `The server sent ${sent} bytes for a range of ${length} of ${quoted(pin)}.`;
    pin.fail(new IntegrityError(problem, { path: pin.version.path }));
  });
  return new Response(declared ? upstream.body : upstream.body!.pipeThrough(counted), init);
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

function quoted(pin: PinState): string {
  return JSON.stringify(pin.version.path);
}

/**
 * What is wrong with an upstream answer to a pinned range, as a function making the error (it
 * may ask the server what the file is now), or `undefined` when status, `Content-Range`,
 * `Content-Length` and validators are exactly right.
 */
function checkAnswer(
  pin: PinState,
  upstream: Response,
  range: { start: number; end: number },
  length: number,
): (() => Promise<TernError>) | undefined {
  const { size, etag, lastModified } = pin.version;
  const status = upstream.status;
  const changed = () => changedError(pin);
  if (status === 412 || status === 404 || status === 410) return changed;
  const contentRange = upstream.headers.get("content-range")?.trim();
  const total = /\/(\d+)$/.exec(contentRange ?? "")?.[1];
  if (status === 206 && total !== undefined && Number(total) !== size) return changed;
  const answeredTag = upstream.headers.get("etag");
  if (etag !== undefined && answeredTag !== null && answeredTag !== etag) return changed;
  const answeredDate = upstream.headers.get("last-modified");
  if (
    etag === undefined && lastModified !== undefined && answeredDate !== null &&
    answeredDate !== lastModified
  ) return changed;
  const wrong = (what: string) => () =>
    Promise.resolve(
      new IntegrityError(
        `The server answered bytes ${range.start}-${range.end} of ${quoted(pin)} with ${what}; ` +
          "nothing of it was used.",
        { path: pin.version.path, status },
      ),
    );
  if (status !== 206) return wrong(`status ${status} instead of 206 Partial Content`);
  const expected = `bytes ${range.start}-${range.end}/${size}`;
  if (contentRange !== expected) {
    return wrong(`Content-Range ${JSON.stringify(contentRange ?? null)} (expected "${expected}")`);
  }
  const declared = upstream.headers.get("content-length");
  if (declared !== null && Number(declared) !== length) {
    return wrong(`Content-Length ${JSON.stringify(declared)} (expected ${length})`);
  }
  return undefined;
}

/** The file changed: asks the server what it is now, to name both versions. */
async function changedError(pin: PinState): Promise<FileChangedError> {
  const was = pin.version;
  let current: FileVersion | undefined;
  try {
    const head = await fetch(pin.upstream, { method: "HEAD" });
    await head.body?.cancel();
    const length = Number(head.headers.get("content-length") ?? NaN);
    const date = Date.parse(head.headers.get("last-modified") ?? "");
    const tag = strongETag(head.headers);
    if (head.ok && Number.isSafeInteger(length)) {
      current = {
        ...was,
        size: length,
        modified: Number.isNaN(date) ? was.modified : date,
        ...(tag === undefined ? {} : { etag: tag }),
      };
    }
  } catch {
    // The server cannot say: the message says what is known.
  }
  return new FileChangedError(
    was,
    current,
    "after it was scanned (nothing of the new version was mixed in)",
  );
}

const GUARDED = Symbol("tern.pins");

/**
 * Wraps a frame that reads pinned files so that `collect()` throws the cause the proxy recorded
 * (a {@linkcode FileChangedError}, an {@linkcode IntegrityError}) instead of Polars' generic
 * HTTP error, and so that frames derived from it (`filter`, `select`, `groupBy().agg()`, …)
 * carry the same guard. Each `collect()` reports the bytes the proxy passes to `report` (the
 * store's progress display and the call's `onProgress`). `collectSync()` is refused: it would
 * block the thread the proxy answers on.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { guardFrame, pinsOf } from "./scan_proxy.ts";
 * import assert from "node:assert/strict";
 *
 * const lazy = guardFrame(pl.DataFrame({ a: [1, 2] }).lazy(), []);
 * assert.equal((await lazy.filter(pl.col("a").gt(1)).collect()).height, 1);
 * assert.deepEqual(pinsOf(lazy.select("a")), []);
 * ```
 */
export function guardFrame(
  frame: LazyDataFrame,
  held: readonly Pin[],
  report?: (event: ProgressEvent) => void,
): LazyDataFrame {
  return new Proxy(frame, {
    get(target, property) {
      if (property === GUARDED) return held;
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "collectSync" && held.length > 0) {
        return () => {
          throw new BadRequestError(
            "A remote scan is collected with `await lazy.collect()`: its bytes pass through " +
              "tern's checks on this thread, which collectSync() would block.",
          );
        };
      }
      if (property === "collect") {
        return async (...args: unknown[]) => {
          const marks = held.map((pin) => pin.failureCount);
          // How much of the files a query reads is known only once it is done.
          const tracker = held.length > 0 ? new ProgressTracker(report, held.length, 0) : undefined;
          const stops = held.map((pin) => pin.listen((count) => tracker?.bytes(count)));
          let ok = false;
          try {
            const result = await Reflect.apply(value, target, args);
            ok = true;
            return result;
          } catch (error) {
            throw recorded(held, marks) ?? error;
          } finally {
            for (const stop of stops) stop();
            tracker?.done(ok);
          }
        };
      }
      return (...args: unknown[]) => {
        const result = Reflect.apply(value, target, args);
        const lazyLike = typeof result === "object" && result !== null &&
          ("_ldf" in result || typeof (result as { agg?: unknown }).agg === "function");
        return lazyLike ? guardFrame(result as LazyDataFrame, held, report) : result;
      };
    },
  });
}

function recorded(held: readonly Pin[], marks: number[]): TernError | undefined {
  for (const [index, pin] of held.entries()) {
    const failure = pin.failureSince(marks[index]);
    if (failure) return failure;
  }
  return undefined;
}

/**
 * The pins a guarded frame holds (none for another frame), so that a frame built from several
 * (`pl.concat`) can be guarded by all of them.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { pinsOf } from "./scan_proxy.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(pinsOf(pl.DataFrame({ a: [1] }).lazy()), []);
 * ```
 */
export function pinsOf(frame: LazyDataFrame): readonly Pin[] {
  return (frame as unknown as { [GUARDED]?: readonly Pin[] })[GUARDED] ?? [];
}
