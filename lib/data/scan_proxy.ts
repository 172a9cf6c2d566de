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
 * validators of the answer, and passes on exactly the bytes asked for, counted. The first answer
 * that passes these checks fixes the validators (the version's size comes from the store's
 * listing). Anything else becomes a 412 to Polars, which fails cleanly on it (it retries 5xx
 * answers and aborts on a long body), while the real cause, a {@linkcode FileChangedError} naming
 * both versions or an {@linkcode IntegrityError}, is kept on the {@linkcode Pin} for the frame's
 * `collect()` to throw (see {@linkcode guardFrame}).
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
import { defined } from "./polars.ts";
import { isLazyFrame } from "../polars/adapter.ts";

/**
 * One pinned remote file: the version scanned, its anonymous URL, and what the proxy does with
 * each range Polars reads through it.
 *
 * @example
 * ```ts
 * import { pinRemote } from "./scan_proxy.ts";
 * import assert from "node:assert/strict";
 *
 * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
 * const pin = pinRemote("http://127.0.0.1:9/a.parquet", version, () => Promise.resolve(version));
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
  readonly recheck: () => Promise<FileVersion>;
  /** The failures recorded, oldest first: a failed `collect()` throws the newest of its own. */
  readonly failures: TernError[];
  /** Called with the size of each chunk passed to Polars. */
  readonly readers: Set<(bytes: number) => void>;
}

/** The running proxy, its pins by token (weakly: a pin lives as long as a frame holds it). */
let proxy: { server: Deno.HttpServer; origin: string } | undefined;
const pins = new Map<string, WeakRef<Pin>>();
const forgotten = new FinalizationRegistry<string>((token) => {
  pins.delete(token);
  if (pins.size === 0 && proxy) {
    const { server } = proxy;
    proxy = undefined;
    void server.shutdown().catch(() => {});
  }
});

function startProxy(): { server: Deno.HttpServer; origin: string } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, answer);
  // A notebook or script ends when its own work does, not when the proxy would.
  server.unref();
  return { server, origin: `http://127.0.0.1:${server.addr.port}` };
}

/**
 * Pins `upstream` (an anonymous URL) at `version` and returns the pin, whose `url` Polars reads.
 * `recheck` asks the store for the file's current version when an answer shows it changed.
 *
 * @example
 * ```ts
 * import { pinRemote } from "./scan_proxy.ts";
 * import assert from "node:assert/strict";
 *
 * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
 * const pin = pinRemote("http://127.0.0.1:9/a.parquet", version, () => Promise.resolve(version));
 * const head = await fetch(pin.url, { method: "HEAD" });
 * assert.equal(head.headers.get("content-length"), "8");
 * ```
 */
export function pinRemote(
  upstream: string,
  version: FileVersion,
  recheck: () => Promise<FileVersion>,
): Pin {
  proxy ??= startProxy();
  const token = crypto.randomUUID();
  const name = encodeURIComponent(version.path.slice(version.path.lastIndexOf("/") + 1));
  const url = `${proxy.origin}/${token}/${name}`;
  const pin: Pin = { version, upstream, url, recheck, failures: [], readers: new Set() };
  pins.set(token, new WeakRef(pin));
  forgotten.register(pin, token);
  return pin;
}

async function answer(request: Request): Promise<Response> {
  const token = new URL(request.url).pathname.split("/")[1] ?? "";
  const pin = pins.get(token)?.deref();
  if (!pin) return new Response(null, { status: 404 });
  const { size, etag, lastModified, path } = pin.version;
  if (request.method === "HEAD") {
    return new Response(null, { headers: { "content-length": String(size) } });
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
  else if (lastModified !== undefined) headers.set("if-unmodified-since", lastModified);
  let upstream: Response;
  try {
    // Polars going away cancels the body below, and with it the upstream read.
    upstream = await fetch(pin.upstream, { headers });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `Could not read ${JSON.stringify(path)} from the server (${reason}).`;
    pin.failures.push(new NetworkError(message, { path, cause: error }));
    // A 503 lets Polars retry a passing network failure.
    return new Response(null, { status: 503 });
  }
  const problem = checkAnswer(pin.version, upstream, range, length);
  if (problem !== undefined) {
    await upstream.body?.cancel().catch(() => {});
    pin.failures.push(
      problem === CHANGED ? await changedError(pin, upstream) : new IntegrityError(
        `The server answered bytes ${range.start}-${range.end} of ${JSON.stringify(path)} ` +
          `with ${problem}; nothing of it was used.`,
        { path, status: upstream.status },
      ),
    );
    // 412 to Polars: it fails at once on it (no retries), and the pin holds the real cause.
    return new Response(null, { status: 412 });
  }
  // Read again: another answer may have fixed them while this one was on its way.
  if (pin.version.etag === undefined && pin.version.lastModified === undefined) {
    const date = upstream.headers.get("last-modified") ?? undefined;
    const validators = defined({ etag: strongETag(upstream.headers), lastModified: date });
    pin.version = { ...pin.version, ...validators };
  }
  // Only the bytes of the range reach Polars: a body that runs long, ends early or breaks fails,
  // and Polars with it, while the pin says why (recorded as the pipe fails, before Polars can).
  // Bodies with a declared length are counted too: passed through untouched (faster), one the
  // server cut short reaches Polars as a complete answer, and fails there untyped.
  let passed = 0;
  const counted = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      passed += chunk.byteLength;
      if (passed > length) throw new RangeError("the answer is longer than its range");
      // A progress tracker never throws: a broken display never breaks the read.
      for (const reader of pin.readers) reader(chunk.byteLength);
      controller.enqueue(chunk);
    },
    flush() {
      if (passed < length) throw new RangeError("the answer is shorter than its range");
    },
  });
  upstream.body!.pipeTo(counted.writable).catch(() => {
    const sent = passed > length ? "more than" : `${passed.toLocaleString("en-US")} of`;
    const problem = `The server sent ${sent} the ${length.toLocaleString("en-US")} bytes of a ` +
      `range of ${JSON.stringify(path)}.`;
    pin.failures.push(new IntegrityError(problem, { path }));
  });
  return new Response(counted.readable, {
    status: asked === null ? 200 : 206,
    headers: {
      "content-length": String(length),
      "content-range": `bytes ${range.start}-${range.end}/${size}`,
    },
  });
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
  upstream: Response,
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
async function changedError(pin: Pin, upstream: Response): Promise<FileChangedError> {
  const now = await pin.recheck().catch(() => undefined);
  // The answer's ETag tells versions apart that the listing's size and date do not.
  const etag = strongETag(upstream.headers);
  return new FileChangedError(
    pin.version,
    now && etag !== undefined ? { ...now, etag } : now,
    "since scan() pinned it (nothing of the new version was mixed in)",
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
 * import { guardFrame, pinRemote, pinsOf } from "./scan_proxy.ts";
 * import assert from "node:assert/strict";
 *
 * const version = { store: "s", path: "/p/a.parquet", id: "i", size: 8, modified: 0 };
 * const pin = pinRemote("http://127.0.0.1:9/a.parquet", version, () => Promise.resolve(version));
 * const lazy = guardFrame(pl.DataFrame({ a: [1, 2] }).lazy(), [pin]);
 * assert.equal((await lazy.filter(pl.col("a").gt(1)).collect()).height, 1);
 * assert.deepEqual(pinsOf(lazy.select("a")), [pin]);
 * assert.throws(() => lazy.collectSync());
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
        const result = Reflect.apply(value, target, args);
        const lazyLike = typeof result === "object" && result !== null &&
          (isLazyFrame(result) || typeof (result as { agg?: unknown }).agg === "function");
        return lazyLike ? guardFrame(result as LazyDataFrame, held, report) : result;
      };
    },
  });
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
